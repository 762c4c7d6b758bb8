# cmake -DTCSIM=... -DPROG=... -DARCH=... -DDIR=... [-DPROG_ARGS=...] [-DEXPECT=N] -P capture_replay.cmake
# Captures every launch of PROG under `tcsim capture` (over libtcsim-cuda) into DIR, then replays
# each captured spec with `tcsim run --golden` against the outputs the capture recorded: every launch
# must be captured and every replay identical, bit for bit.
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND ${TCSIM} capture --arch ${ARCH} --out ${DIR} -- ${PROG} ${PROG_ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "FAIL: tcsim capture exited ${rc}")
endif()
file(GLOB specs "${DIR}/launch*/spec.json")
list(LENGTH specs n)
if(EXPECT AND NOT n EQUAL EXPECT)
  message(FATAL_ERROR "FAIL: ${n} launches captured, expected ${EXPECT}")
endif()
set(identical 0)
foreach(spec ${specs})
  get_filename_component(d "${spec}" DIRECTORY)
  execute_process(COMMAND ${TCSIM} run ${spec} --golden ${d}/out RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "FAIL: replay of ${spec} (exit ${rc}):\n${o}${e}")
  endif()
  math(EXPR identical "${identical} + 1")
endforeach()
message("${identical} of ${n} captured launches replayed bit-identical")
