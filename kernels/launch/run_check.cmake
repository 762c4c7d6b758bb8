cmake_minimum_required(VERSION 3.20)
# Runs `tcsim run SPEC --out DIR`, then CHECK (a command list, `%DIR%` replaced by DIR); passes when
# both exit 0. Used by tests/cli/kernels_launch.cmake for checks that need the output directory.
#   cmake -DTCSIM=... -DSPEC=... -DDIR=... "-DCHECK=python3;check.py;SPEC;%DIR%" -P run_check.cmake
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TCSIM} run ${SPEC} --out ${DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tcsim run ${SPEC}: exit ${rc}\n${out}${err}")
endif()
string(REPLACE "%DIR%" "${DIR}" check "${CHECK}")
execute_process(COMMAND ${check} RESULT_VARIABLE rc OUTPUT_VARIABLE cout ERROR_VARIABLE cerr TIMEOUT 300)
message(STATUS "${cout}${cerr}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check failed (exit ${rc})")
endif()
