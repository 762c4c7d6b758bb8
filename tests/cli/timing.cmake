# The timing model's error tables against the H200 (docs/timing_model.md "Calibration"): every spec
# of the measured-cycles CSVs (Nsight Compute sm__cycles_elapsed.max, kernels/ubench/results) is
# re-run with --timing-only and compared; a printed report (per kernel error, mean absolute error
# over the GEMMs and over all), not a timed assertion. It fails only when a spec no longer runs.
set(_h200 ${PROJECT_SOURCE_DIR}/kernels/ubench/results/h200-2026-12-01)
add_test(NAME tcsim_timing_table_h200_corpus
         COMMAND tcsim timing-table ${_h200}/corpus_cycles.csv --root ${PROJECT_SOURCE_DIR})
add_test(NAME tcsim_timing_table_h200_holdout
         COMMAND tcsim timing-table ${_h200}/holdout_cycles.csv --root ${PROJECT_SOURCE_DIR})
set_tests_properties(tcsim_timing_table_h200_corpus tcsim_timing_table_h200_holdout PROPERTIES LABELS timing)
