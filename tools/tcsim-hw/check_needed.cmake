# ctest -P script: fail if tcsim-hw needs a shared library other than libc/libm/libcuda/loader
# (and, in a sanitizer build, the sanitizer runtime).
execute_process(COMMAND ${READELF} -d ${BIN} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf failed on ${BIN}")
endif()
string(REGEX MATCHALL "Shared library: \\[[^]]+\\]" libs "${out}")
foreach(l ${libs})
  string(REGEX REPLACE "Shared library: \\[([^]]+)\\]" "\\1" name "${l}")
  # A sanitizer build (SANITIZE non-empty, scripts/sanitize.sh) needs its runtime as well.
  if(SANITIZE AND name MATCHES "^(libasan|libubsan|libtsan)\\.so\\.[0-9]+$")
    message(STATUS "NEEDED ${name} (the ${SANITIZE} build's runtime)")
    continue()
  endif()
  if(NOT name MATCHES "^(libc\\.so\\.6|libm\\.so\\.6|libcuda\\.so\\.1|ld-linux-x86-64\\.so\\.2|libstdc\\+\\+\\.so\\.6|libgcc_s\\.so\\.1)$")
    message(FATAL_ERROR "tcsim-hw needs ${name}: it must run with only libc, libstdc++ and libcuda")
  endif()
  message(STATUS "NEEDED ${name}")
endforeach()
