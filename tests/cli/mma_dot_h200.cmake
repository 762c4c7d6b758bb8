# The full replay of the H200 differential for the mma.sync fp8 rows (80M outputs, ~25 s on two
# cores): a doctest case that the suite run of tcsim_models_tests skips (tests/models/
# mma_h200_results_test.cc), run here on its own.
if(TARGET tcsim_models_tests)
  add_test(NAME mma_dot_h200_differential_full
           COMMAND tcsim_models_tests "--test-case=H200 differential: all 10M*" --no-skip)
  set_tests_properties(mma_dot_h200_differential_full PROPERTIES TIMEOUT 900)
endif()
