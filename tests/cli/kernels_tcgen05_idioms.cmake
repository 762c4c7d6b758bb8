# kernels/tcgen05/idioms.cu: the real-world idioms the hardware tolerates (docs/hardware_tolerance.md),
# one spec each (specs/idioms/, written by make_idioms.py with the exact product as the golden). Each
# test runs the spec with `--golden` (D must equal the exact product bit for bit: the tolerated form is
# served as the hardware serves it) and checks the findings the idiom must produce; the `_strict`
# twins run with --strict: exit 2 for every idiom that breaks a rule, exit 0 for the clean ones (the
# plain kernel, and the epilogue that never waits: §9.7.16.6.4.5 makes it defined).
if(EXISTS ${PROJECT_SOURCE_DIR}/tools/tcsim/cmd_run.cc)
  set(_ti ${PROJECT_SOURCE_DIR}/kernels/tcgen05/specs/idioms)
  set(_expect ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
  # name | regex of the output (stdout, then the findings summary on stderr) | --strict exit code
  set(_cases
      "plain|D: identical|0"
      "no_wait_ld|D: identical|0"
      "dealloc_other_warp|D: identical.*tcgen05-alloc-warp x[12] at .*tcgen05\\.dealloc by warp 1, but warp 0 made this CTA's first allocation|2"
      "lane_field|D: identical.*tcgen05-lane-quarter x[0-9]+ at .*tcgen05\\.ld.*names lanes .*so lanes .* were accessed|2"
      "generic_addresses|D: identical.*generic-address-as-shared x.*tcgen05\\.alloc dst.*shared-address-as-generic x.*mbarrier wait|2"
      "imm_enable_input_d|D: identical.*tcgen05-mma-imm-enable-input-d x1 at .*immediate 0 instead of a predicate. ptxas reads it as false|2"
      "all|D: identical.*5 rules broken at |2")
  foreach(cg 1 2)
    foreach(c ${_cases})
      string(REPLACE "|" ";" c "${c}")
      list(GET c 0 name)
      list(GET c 1 regex)
      list(GET c 2 strict_rc)
      add_test(NAME kernels_tcgen05_idiom_cg${cg}_${name}
               COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_ti}/cg${cg}_${name}.json
                       "-DEXTRA=--golden ${_ti}/golden_cg${cg}" -DEXPECT_RC=0 "-DEXPECT_REGEX=${regex}" -P ${_expect})
      if(strict_rc STREQUAL "2")
        set(_sregex "and --strict makes findings errors")
      else()
        set(_sregex "D: identical")
      endif()
      add_test(NAME kernels_tcgen05_idiom_cg${cg}_${name}_strict
               COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_ti}/cg${cg}_${name}.json
                       "-DEXTRA=--strict --golden ${_ti}/golden_cg${cg}" -DEXPECT_RC=${strict_rc}
                       "-DEXPECT_REGEX=${_sregex}" -P ${_expect})
    endforeach()
  endforeach()
  # The clean specs report no finding at all.
  foreach(cg 1 2)
    foreach(name plain no_wait_ld)
      set_tests_properties(kernels_tcgen05_idiom_cg${cg}_${name} PROPERTIES FAIL_REGULAR_EXPRESSION "findings: ")
    endforeach()
  endforeach()
endif()
