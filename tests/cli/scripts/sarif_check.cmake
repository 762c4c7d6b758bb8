# `tcsim run SPEC --sarif FILE` writes SARIF 2.1.0 (docs/checker.md): checks the version, the rule
# of the first result, its level and its PTX location (file and line), and the CUDA location.
#   cmake -DTCSIM=... -DSPEC=... -DOUT=file.sarif -DRULE=id -DLEVEL=error -DPTX_REGEX=... -DLINE=N
#         -DCUDA_REGEX=... -P sarif_check.cmake
file(REMOVE ${OUT})
execute_process(COMMAND ${TCSIM} run ${SPEC} --sarif ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tcsim run ${SPEC} --sarif: exit ${rc}\n${out}${err}")
endif()
file(READ ${OUT} s)
string(JSON version GET "${s}" version)
string(JSON rule GET "${s}" runs 0 results 0 ruleId)
string(JSON level GET "${s}" runs 0 results 0 level)
string(JSON uri GET "${s}" runs 0 results 0 locations 0 physicalLocation artifactLocation uri)
string(JSON line GET "${s}" runs 0 results 0 locations 0 physicalLocation region startLine)
string(JSON cuda GET "${s}" runs 0 results 0 locations 1 physicalLocation artifactLocation uri)
string(JSON driver GET "${s}" runs 0 tool driver name)
string(JSON rule0 GET "${s}" runs 0 tool driver rules 0 id)
foreach(check "version STREQUAL 2.1.0" "driver STREQUAL tcsim" "rule STREQUAL ${RULE}" "rule0 STREQUAL ${RULE}"
              "level STREQUAL ${LEVEL}" "line EQUAL ${LINE}" "uri MATCHES ${PTX_REGEX}" "cuda MATCHES ${CUDA_REGEX}")
  separate_arguments(c UNIX_COMMAND "${check}")
  if(NOT (${c}))
    message(FATAL_ERROR "SARIF ${OUT}: ${check} fails (version ${version}, rule ${rule}, level ${level}, ${uri}:${line}, ${cuda})\n${s}")
  endif()
endforeach()
message(STATUS "ok: ${rule} ${level} at ${uri}:${line} (${cuda})")
