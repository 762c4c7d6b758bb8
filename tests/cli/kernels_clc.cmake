# kernels/tcgen05/clc_persistent.cu: a persistent tile loop over cluster launch control (PTX ISA
# §9.7.13.17-18), with a 2-CTA cluster and .multicast::cluster::all, and with 1-CTA clusters. The
# goldens (specs/clc/make_clc.py) follow from the ISA's guarantees and the B200's residency: every
# tile visited once, 148 CTAs started, the other 252 tiles stolen. No finding may be reported; the
# same holds with a perturbed schedule (which cluster a request gets may change, the counts not).
if(EXISTS ${PROJECT_SOURCE_DIR}/tools/tcsim/cmd_run.cc)
  set(_tc ${PROJECT_SOURCE_DIR}/kernels/tcgen05/specs/clc)
  set(_expect ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
  foreach(name clc_cluster2 clc_cta)
    add_test(NAME kernels_clc_${name}
             COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_tc}/${name}.json
                     "-DEXTRA=--golden ${_tc}/golden_${name}" -DEXPECT_RC=0
                     "-DEXPECT_REGEX=visits: identical.*stolen: identical.*started: identical" -P ${_expect})
    add_test(NAME kernels_clc_${name}_random
             COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim> -DSPEC=${_tc}/${name}.json
                     "-DEXTRA=--schedule random:7 --golden ${_tc}/golden_${name}" -DEXPECT_RC=0
                     "-DEXPECT_REGEX=visits: identical.*stolen: identical.*started: identical" -P ${_expect})
    set_tests_properties(kernels_clc_${name} kernels_clc_${name}_random PROPERTIES FAIL_REGULAR_EXPRESSION "findings: ")
  endforeach()
endif()
