# tools/tcsim-hw/build_standalone.sh compiles tcsim-hw without CMake on a GPU machine; it must name
# every source of tcsim_spec_standalone (tools/spec/CMakeLists.txt), or its link fails there (as on
# 2026-12-02, without isa/printable.cc: kernels/bugs/results/h200-2026-12-02/device_build.txt).
#   cmake -DSCRIPT=build_standalone.sh -DROOT=<source root> -DSOURCES="a.cc;b.cc" -P this file
file(READ ${SCRIPT} text)
set(missing "")
foreach(src ${SOURCES})
  file(RELATIVE_PATH rel ${ROOT} ${src})
  get_filename_component(dir ${rel} DIRECTORY)
  string(FIND "${text}" "${rel}" at_file)
  string(FIND "${text}" "$root/${dir}/*.cc" at_glob)
  if(at_file EQUAL -1 AND at_glob EQUAL -1)
    list(APPEND missing ${rel})
  endif()
endforeach()
list(LENGTH SOURCES n)
if(n EQUAL 0)
  message(FATAL_ERROR "check_standalone_sources: no sources given")
endif()
if(missing)
  message(FATAL_ERROR "${SCRIPT}: does not compile ${missing}, which tcsim_spec_standalone (tools/spec/CMakeLists.txt) does")
endif()
message(STATUS "build_standalone.sh names all ${n} sources of tcsim_spec_standalone")
