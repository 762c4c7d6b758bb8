# Runs one `tcsim run` of a bad spec and checks the contract of issue 3's "Bad input": exit code
# EXPECT_RC (2) and an error message matching EXPECT_REGEX, within a time limit (no hang).
#   cmake -DTCSIM=... -DSPEC=... -DEXPECT_RC=2 -DEXPECT_REGEX=... [-DEXTRA="--max-steps 2000000"]
#         -P expect_error.cmake
separate_arguments(_extra UNIX_COMMAND "${EXTRA}")
execute_process(COMMAND ${TCSIM} run ${SPEC} ${_extra}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
set(all "${out}${err}")
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "tcsim run ${SPEC}: exit code ${rc}, expected ${EXPECT_RC}\n${all}")
endif()
if(NOT all MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "tcsim run ${SPEC}: output does not match /${EXPECT_REGEX}/:\n${all}")
endif()
message(STATUS "ok: exit ${rc}, /${EXPECT_REGEX}/ found:\n${all}")
