# Golden tests of `tcsim run`, registered the way a project using tcsim would
# (tcsim_add_golden_test, cmake/tcsim_golden.cmake). The goldens are exact results written by
# tests/cli/run_data/make_golden.py.
tcsim_add_golden_test(tcsim_run_golden_add_bias
                      ${CMAKE_CURRENT_LIST_DIR}/run_data/add_bias.json ${CMAKE_CURRENT_LIST_DIR}/run_data/golden)
# The same spec against a golden one ulp off must fail (exit 1; tests/cli/run_test.cc checks the code).
tcsim_add_golden_test(tcsim_run_golden_mismatch_fails
                      ${CMAKE_CURRENT_LIST_DIR}/run_data/add_bias.json
                      ${CMAKE_CURRENT_LIST_DIR}/run_data/golden_off_by_one_ulp)
set_tests_properties(tcsim_run_golden_mismatch_fails PROPERTIES WILL_FAIL ON)
