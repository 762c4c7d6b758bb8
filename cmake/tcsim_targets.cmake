# Warnings for every target of the project.
function(tcsim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(TCSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# One static library per layer. Sources are globbed per folder so adding a file (one PTX family,
# one descriptor) touches no list; CONFIGURE_DEPENDS re-globs on every build.
function(tcsim_layer_library name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  if(NOT srcs)  # a layer that has only headers so far
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${PROJECT_SOURCE_DIR})
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
    return()
  endif()
  add_library(${name} STATIC ${srcs})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  tcsim_warnings(${name})
endfunction()

# A doctest executable built from every *.cc of a test folder, registered with CTest.
function(tcsim_add_unit_test name dir)
  cmake_parse_arguments(ARG "" "" "DEPS;DEFINES" ${ARGN})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${dir}/*.cc)
  add_executable(${name} ${srcs} ${PROJECT_SOURCE_DIR}/tests/doctest_main.cc)
  target_link_libraries(${name} PRIVATE doctest::doctest ${ARG_DEPS})
  target_compile_definitions(${name} PRIVATE
    TCSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}" TCSIM_SHARED_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
    TCSIM_BIN_DIR="${CMAKE_RUNTIME_OUTPUT_DIRECTORY}" ${ARG_DEFINES})
  tcsim_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
endfunction()

# A test that cannot run on this machine (python3, CUDA headers, nvcc/ptxas missing): registered so
# that CTest reports it as "Skipped" with the reason in its output, never as a passing test.
function(tcsim_add_skipped_test name reason)
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: ${reason}")
  set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED: ")
endfunction()
