# `tcsim run --schedule random:SEED` and `--schedule-sweep N` (issue 4, "Deterministic by default,
# adversarial on request"): a deliberately racy kernel (run_data/last_writer) is reported with the
# first two differing seeds (exit 1); a race-free one (run_data/add_bias) passes the sweep; a bad
# schedule is a usage error (exit 2).
set(_rd ${CMAKE_CURRENT_LIST_DIR}/run_data)
set(_expect ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
add_test(NAME tcsim_run_schedule_sweep_race
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_rd}/last_writer.json -DEXPECT_RC=1
                 "-DEXPECT_REGEX=race: the outputs depend on the schedule: seeds 0 \\(the default order\\) and [0-9]+ differ"
                 "-DEXTRA=--schedule-sweep 16" -P ${_expect})
add_test(NAME tcsim_run_schedule_sweep_clean
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_rd}/add_bias.json -DEXPECT_RC=0
                 "-DEXPECT_REGEX=identical outputs under the default order and 4 perturbed schedules"
                 "-DEXTRA=--schedule-sweep 4" -P ${_expect})
add_test(NAME tcsim_run_schedule_bad
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_rd}/add_bias.json -DEXPECT_RC=2
                 "-DEXPECT_REGEX=is not a schedule \\(legal: default, random:SEED\\)"
                 "-DEXTRA=--schedule sometimes" -P ${_expect})
tcsim_add_golden_test(tcsim_run_schedule_random_golden ${_rd}/add_bias.json ${_rd}/golden ARGS --schedule random:7)
# The union of the findings of every schedule of a sweep, with the seeds each appeared under: the
# data load of run_data/flag_peek races with the store only where warp 0's flag store comes first.
add_test(NAME tcsim_run_schedule_sweep_findings_union
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_rd}/flag_peek.json -DEXPECT_RC=1
                 "-DEXPECT_REGEX=findings under 13 schedules .*shared-data-race at [^ ]*flag_peek.ptx:40 with [^ ]*flag_peek.ptx:32 x[0-9]+: under seeds [0-9,]+\n"
                 "-DEXTRA=--schedule-sweep 12" -P ${_expect})
