# tcsim_add_golden_test(NAME SPEC GOLDEN_DIR [ARGS arg...])
#
# A CTest that runs one launch spec in the simulator and compares every output with a stored
# golden run, bit for bit:   tcsim run SPEC --golden GOLDEN_DIR [ARGS...]
# (`tcsim run --golden` exits 1 and prints where on a mismatch; issue 3). GOLDEN_DIR is an output
# directory written by `tcsim-hw run SPEC --out GOLDEN_DIR` on a GPU (or by `tcsim run --out`).
#
# Inside this project the `tcsim` target is used; a project that includes this file elsewhere
# sets TCSIM_EXECUTABLE to the tcsim binary.
function(tcsim_add_golden_test name spec golden_dir)
  cmake_parse_arguments(ARG "" "" "ARGS" ${ARGN})
  if(TARGET tcsim)
    set(_tcsim $<TARGET_FILE:tcsim>)
  elseif(TCSIM_EXECUTABLE)
    set(_tcsim ${TCSIM_EXECUTABLE})
  else()
    message(FATAL_ERROR "tcsim_add_golden_test(${name}): no tcsim target and TCSIM_EXECUTABLE unset")
  endif()
  if(NOT EXISTS ${spec})
    message(FATAL_ERROR "tcsim_add_golden_test(${name}): spec ${spec} does not exist")
  endif()
  add_test(NAME ${name} COMMAND ${_tcsim} run ${spec} --golden ${golden_dir} ${ARG_ARGS})
endfunction()
