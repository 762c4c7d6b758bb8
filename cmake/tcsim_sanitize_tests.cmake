# Per-test time limits under sanitizers (scripts/sanitize.sh, docs/hostile_input.md "Sanitizers").
# ASan+UBSan runs the suite several times slower than the Release build, TSan more: instead of
# skipping the tests that would run past their limit, every TIMEOUT given to set_tests_properties is
# multiplied by TCSIM_TEST_TIMEOUT_SCALE (default 10 in a sanitizer build, 1 otherwise). Tests without
# a TIMEOUT get ctest's --timeout (scripts/sanitize.sh passes one). CMake 3.25 has no way to change
# another directory's tests afterwards, so set_tests_properties itself is wrapped; included before any
# test is added.
if(TCSIM_SANITIZE STREQUAL "")
  set(_tcsim_default_timeout_scale 1)
else()
  set(_tcsim_default_timeout_scale 10)
endif()
set(TCSIM_TEST_TIMEOUT_SCALE ${_tcsim_default_timeout_scale} CACHE STRING
    "Multiplier of every test's TIMEOUT (default 10 in a sanitizer build, 1 otherwise)")

if(NOT TCSIM_TEST_TIMEOUT_SCALE EQUAL 1)
  function(set_tests_properties)
    # Arguments one by one (a value such as LABELS "a;b" is one argument), re-quoted for the call.
    set(_code "")
    set(_in_props OFF)
    set(_key_next OFF)
    set(_scale_next OFF)
    math(EXPR _last "${ARGC} - 1")
    foreach(_i RANGE 0 ${_last})
      set(_a "${ARGV${_i}}")
      if(_scale_next)
        math(EXPR _a "${_a} * ${TCSIM_TEST_TIMEOUT_SCALE}")
      endif()
      set(_scale_next OFF)
      if(_in_props)
        if(_key_next AND _a STREQUAL "TIMEOUT")
          set(_scale_next ON)
        endif()
        if(_key_next)
          set(_key_next OFF)
        else()
          set(_key_next ON)
        endif()
      elseif(_a STREQUAL "PROPERTIES")
        set(_in_props ON)
        set(_key_next ON)
      endif()
      string(APPEND _code " [==[${_a}]==]")
    endforeach()
    cmake_language(EVAL CODE "_set_tests_properties(${_code})")
  endfunction()
endif()

# Programs that are not instrumented but load an instrumented library — the nvcc-built host programs
# of kernels/host, which `tcsim exec` points at libtcsim-cuda — need the sanitizer runtime loaded
# first ("ASan runtime does not come first in initial library list"). TCSIM_SANITIZE_PRELOAD_ENV is
# "LD_PRELOAD=<the compiler's runtime>" in a gcc asan/tsan build (empty otherwise), for such tests'
# ENVIRONMENT property. Only those tests get it; a shell they start inherits it, and its allocations
# at exit are suppressed (cmake/lsan_uninstrumented.supp).
set(TCSIM_SANITIZE_PRELOAD_ENV "")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND TCSIM_SANITIZE MATCHES "^(asan|tsan)$")
  string(REPLACE "asan" "libasan.so" _rt "${TCSIM_SANITIZE}")
  string(REPLACE "tsan" "libtsan.so" _rt "${_rt}")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${_rt} OUTPUT_VARIABLE _rt_path
                  OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND EXISTS "${_rt_path}")
    set(TCSIM_SANITIZE_PRELOAD_ENV "LD_PRELOAD=${_rt_path}"
        "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/cmake/lsan_uninstrumented.supp")
  endif()
endif()
