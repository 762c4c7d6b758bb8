# H200 golden tests of the asynchronous-machine corpora (issue 4): every spec of kernels/tma (and
# kernels/tma/swizzle) and kernels/cluster whose hardware outputs are committed under
# <corpus>/golden/h200/<spec>/ (from `tcsim-hw run SPEC --out DIR` on the H200; see
# kernels/tma/README.md) runs as kernels_<corpus>_golden_<spec>: `tcsim run SPEC --golden DIR`.
# A golden is committed once tcsim reproduces it, so each directory is a passing test.
foreach(_corpus tma cluster)
  set(_dir ${PROJECT_SOURCE_DIR}/kernels/${_corpus})
  file(GLOB _goldens LIST_DIRECTORIES true ${_dir}/golden/h200/*)
  foreach(_golden ${_goldens})
    if(NOT EXISTS ${_golden}/manifest.json)
      continue()
    endif()
    get_filename_component(_stem ${_golden} NAME)
    if(EXISTS ${_dir}/${_stem}.json)
      tcsim_add_golden_test(kernels_${_corpus}_golden_${_stem} ${_dir}/${_stem}.json ${_golden})
    elseif(EXISTS ${_dir}/swizzle/${_stem}.json)
      tcsim_add_golden_test(kernels_${_corpus}_golden_${_stem} ${_dir}/swizzle/${_stem}.json ${_golden})
    endif()
  endforeach()
endforeach()

# Broken kernels of kernels/tma/bad and kernels/cluster/bad (table in kernels/tma/README.md) whose
# report tcsim produces today (the others need TMA): exit code 2 and the named report.
set(_async_bad
    "tma|deadlock_pipeline|deadlock.*mbarrier at shared::cta 0x2410 \\(phase 0, parity 0, 2 of 2 arrivals pending, tx-count 0\\).*mbarrier at shared::cta 0x2400 \\(phase 0, parity 0, 1 of 1 arrivals pending.*warp 0 lanes 0: mbarrier wait on the mbarrier at shared::cta 0x2410 .*deadlock_pipeline.sm_90a.ptx:224.*2 warps \\(64 lanes\\) in 1 CTA: mbarrier wait on the mbarrier at shared::cta 0x2400"
    "tma|misaligned_mbarrier|mbarrier.init: the mbarrier address shared::cta 0x404 is not 8-byte aligned"
    # A .shared::cta access through another rank's address, a .shared::cluster access to a rank
    # outside the cluster: the H200 faults on each (smem_addr.cu smem_probe; docs/shared_memory.md).
    "cluster|smem_probe_m0|ld.shared::cta.u32.*CTA \\(0,0,0\\).*0x1000400 is not an address in the executing CTA's .shared::cta window: its rank field \\(bits 24-31\\) names CTA rank 1, the executing CTA is rank 0"
    "cluster|smem_probe_m1|st.shared::cta.u32.*0x1000404 is not an address in the executing CTA's .shared::cta window"
    "cluster|smem_probe_m3|ld.shared::cluster.u32.*shared::cluster address 0x5000400 names CTA rank 5, but the cluster has 2 CTAs"
    "cluster|smem_probe_m4|mbarrier.arrive.shared::cta.b64.*CTA \\(1,0,0\\).*0x410 is not an address in the executing CTA's .shared::cta window: its rank field \\(bits 24-31\\) names CTA rank 0, the executing CTA is rank 1"
    "cluster|smem_probe_m6|red.shared::cta.add.u32.*0x1000408 is not an address in the executing CTA's .shared::cta window"
    "cluster|smem_probe_m8|ld.shared.u32.*0x1000400 is not an address in the executing CTA's .shared::cta window")
foreach(_case ${_async_bad})
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _corpus)
  list(GET _parts 1 _name)
  list(GET _parts 2 _regex)
  add_test(NAME kernels_${_corpus}_bad_${_name}
           COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim>
                   -DSPEC=${PROJECT_SOURCE_DIR}/kernels/${_corpus}/bad/${_name}.json
                   -DEXPECT_RC=2 "-DEXPECT_REGEX=${_regex}" "-DEXTRA=--max-steps 2000000"
                   -P ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)
endforeach()
# Remote stores into a CTA with no cluster barrier before its exit: the GPU runs it, so it is the
# tolerated finding dsmem-exit-unordered (docs/cluster_lifetime.md), which --strict makes an error.
add_test(NAME kernels_cluster_bad_dsmem_after_exit
         COMMAND ${CMAKE_COMMAND} -DTCSIM=$<TARGET_FILE:tcsim>
                 -DSPEC=${PROJECT_SOURCE_DIR}/kernels/cluster/bad/dsmem_after_exit.json -DEXPECT_RC=2
                 "-DEXPECT_REGEX=\\[tolerated\\] dsmem-exit-unordered x[0-9]+ at [^ ]*dsmem_after_exit.sm_90a.ptx:[0-9]+ \\(dsmem_after_exit.cu:21\\) `st.shared::cluster.u32.*CTA \\(0,0,0\\) \\(rank 0 of cluster \\(0,0,0\\)\\) exits at cycle.*findings and --strict makes findings errors"
                 "-DEXTRA=--strict" -P ${PROJECT_SOURCE_DIR}/kernels/basic/bad/expect_error.cmake)

# The CUTLASS 2-SM idiom (kernels/cluster/peer_bit_tma.cu): the odd CTA of each pair reaches the
# leader's mbarrier through its own barrier address with bit 24 cleared, on sm_90a (remote arrive)
# and sm_100a (cp.async.bulk.tensor .cta_group::2). tcsim's outputs against expect.py's model (the
# loaded rows, and every leader's phase completed); a wrong address leaves the leader's bounded
# wait at 0 and the test fails.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  foreach(_t sm90 sm100)
    set(_spec ${PROJECT_SOURCE_DIR}/kernels/cluster/peer_bit_tma_${_t}.json)
    set(_out ${CMAKE_BINARY_DIR}/kernels_cluster_model/peer_bit_tma_${_t})
    add_test(NAME kernels_cluster_model_peer_bit_tma_${_t}
             COMMAND sh -c "\"$1\" run \"$2\" --out \"$3\" && \"$4\" \"$5\" \"$2\" --check \"$3\""
                     sh $<TARGET_FILE:tcsim> ${_spec} ${_out} ${Python3_EXECUTABLE}
                     ${PROJECT_SOURCE_DIR}/kernels/tma/expect.py)
  endforeach()
endif()
