# The seeded bug corpus (kernels/bugs, docs/checker.md "The bug corpus"): one CTest per variant
# runs `tcsim run` and checks the variant's expect file (kernels/bugs/check_bug.cmake): the rule at
# the PTX line of the bug and nothing but the rules listed with it, or the error it must end with.
file(STRINGS ${PROJECT_SOURCE_DIR}/kernels/bugs/variants.txt _tcsim_bugs)
foreach(_bug ${_tcsim_bugs})
  add_test(NAME kernels_bugs_${_bug}
           COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DBUG=${PROJECT_SOURCE_DIR}/kernels/bugs/${_bug}
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR} -P ${PROJECT_SOURCE_DIR}/kernels/bugs/check_bug.cmake)
  set_tests_properties(kernels_bugs_${_bug} PROPERTIES LABELS "bugs")
endforeach()
