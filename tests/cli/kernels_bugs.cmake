# The seeded bug corpus (kernels/bugs, docs/checker.md "The bug corpus"): one CTest per variant
# runs `tcsim run` and checks the variant's expect file (kernels/bugs/check_bug.cmake): the rule at
# the PTX line of the bug and nothing but the rules listed with it, or the error it must end with.
file(STRINGS ${PROJECT_SOURCE_DIR}/kernels/bugs/variants.txt _tcsim_bugs)
# Findings of the rules the hardware tolerates (severity Tolerated in sim/report/rules.def) never
# fail a variant: "nothing else beyond the tolerated ones".
file(READ ${PROJECT_SOURCE_DIR}/sim/report/rules.def _tcsim_rules)
string(REGEX MATCHALL "RULE\\([A-Za-z0-9]+, \"[a-z0-9-]+\", Tolerated" _tcsim_tol "${_tcsim_rules}")
set(_tcsim_tolerated "")
foreach(_r ${_tcsim_tol})
  string(REGEX REPLACE ".*\"([a-z0-9-]+)\".*" "\\1" _id "${_r}")
  list(APPEND _tcsim_tolerated ${_id})
endforeach()
string(REPLACE ";" "," _tcsim_tolerated "${_tcsim_tolerated}")
foreach(_bug ${_tcsim_bugs})
  add_test(NAME kernels_bugs_${_bug}
           COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DBUG=${PROJECT_SOURCE_DIR}/kernels/bugs/${_bug}
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR} "-DTOLERATED=${_tcsim_tolerated}" -P ${PROJECT_SOURCE_DIR}/kernels/bugs/check_bug.cmake)
  set_tests_properties(kernels_bugs_${_bug} PROPERTIES LABELS "bugs")
endforeach()
