# kernels/tcgen05 block-scaled single-instruction kernels (mma_block_scaled.cu, specs/mx; README.md
# "Block-scaled single-instruction kernels"). Included by tests/CMakeLists.txt.
#   kernels_tcgen05_mx_cases     `tcsim verify-case` of every spec: D equals the exact result (scale
#                                factors drawn per row and K block, so a misplaced one changes it) or
#                                the models::mma reference, bit for bit; every kind, spelling, scale
#                                type, A source, CTA group and scale-factor path (tcgen05.st, tcgen05.cp)
#   kernels_tcgen05_mx_tampered  negative control: a passing spec whose kernel argument asks for the
#                                2X spelling while its case says 4X (block16) must fail
#   kernels_tcgen05_mx_sfid_addr the CUTLASS idiom of SF-IDs in bits 31:30 of the scale addresses runs
#                                exactly and is reported as the tolerated finding
set(_tck_dir ${PROJECT_SOURCE_DIR}/kernels/tcgen05)
add_test(NAME kernels_tcgen05_mx_cases COMMAND $<TARGET_FILE:tcsim> verify-case ${_tck_dir}/specs/mx --quiet)
set_tests_properties(kernels_tcgen05_mx_cases PROPERTIES PASS_REGULAR_EXPRESSION "143 of 143 specs pass" TIMEOUT 300)
add_test(NAME kernels_tcgen05_mx_tampered
         COMMAND $<TARGET_FILE:tcsim> verify-case ${PROJECT_SOURCE_DIR}/tests/cli/run_data/tcgen05_bs_case_tampered.json)
set_tests_properties(kernels_tcgen05_mx_tampered PROPERTIES PASS_REGULAR_EXPRESSION
                     "8189 of 8192 D elements differ from the exact reference; first D.0..1.: tcsim 0x430c0000, reference 0xc4070000")
add_test(NAME kernels_tcgen05_mx_sfid_addr
         COMMAND $<TARGET_FILE:tcsim> run
                 ${_tck_dir}/specs/mx/mxf8f6f4_1x_e4m3xe4m3_ue8m0_ss_cg1_m128n64k128_a128B_b128B_sfcp_sfidaddr_exact.json)
set_tests_properties(kernels_tcgen05_mx_sfid_addr PROPERTIES PASS_REGULAR_EXPRESSION
                     "tolerated. tcgen05-scale-address-high-bits x6 .*scale-A-tmem 0x40000180 has bits 31:30 = 1")
# The block-scaled GEMMs (gemm_mx.cu: MXFP8 1-CTA and CTA pair, NVFP4; TMA, scale factors through
# a transposer warp and tcgen05.cp.32x128b.warpx4, the DeepGEMM idiom), exact and random.
set(_tck_mxgemm_specs "")
foreach(s mxfp8_f32_exact mxfp8_f32_random mxfp8_f32_2cta_exact mxfp8_f32_2cta_random nvfp4_f32_exact nvfp4_f32_random)
  list(APPEND _tck_mxgemm_specs ${_tck_dir}/specs/mxgemm/${s}.json)
endforeach()
add_test(NAME kernels_tcgen05_mxgemm_cases COMMAND $<TARGET_FILE:tcsim> verify-case ${_tck_mxgemm_specs} --quiet)
set_tests_properties(kernels_tcgen05_mxgemm_cases PROPERTIES PASS_REGULAR_EXPRESSION "6 of 6 specs pass" TIMEOUT 300)
# The 2:4 sparse (gemm_sparse.cu: compressed A, metadata by tcgen05.cp into TMEM, sparsity
# selector), weight-stationary (gemm_ws.cu: .ws M = 64 with B kept in collector b0 for 4 A tiles)
# and CLC-scheduled persistent (gemm_clc.cu: clusterlaunchcontrol.try_cancel / query_cancel) GEMMs,
# exact and random: D equals the exact product or the models::mma reference bit for bit.
set(_tck_other_specs "")
foreach(s spgemm/sp_bf16_f32_exact spgemm/sp_bf16_f32_exact_pairs01 spgemm/sp_bf16_f32_random
          wsgemm/ws_bf16_f32_exact wsgemm/ws_bf16_f32_random clcgemm/clc_bf16_f32_exact clcgemm/clc_bf16_f32_random)
  list(APPEND _tck_other_specs ${_tck_dir}/specs/${s}.json)
endforeach()
add_test(NAME kernels_tcgen05_sp_ws_clc_gemm_cases COMMAND $<TARGET_FILE:tcsim> verify-case ${_tck_other_specs} --quiet)
set_tests_properties(kernels_tcgen05_sp_ws_clc_gemm_cases PROPERTIES PASS_REGULAR_EXPRESSION "7 of 7 specs pass"
                     TIMEOUT 300)
# Misuse demo: every K step starts with .collector::b0::use instead of ::fill; the run completes
# (B is read from shared memory) and the finding names the MMA.
add_test(NAME kernels_tcgen05_ws_use_without_fill
         COMMAND $<TARGET_FILE:tcsim> run ${_tck_dir}/specs/wsgemm/ws_use_without_fill.json)
set_tests_properties(kernels_tcgen05_ws_use_without_fill PROPERTIES PASS_REGULAR_EXPRESSION
                     "tcgen05-collector-use-without-fill x4 at [^ ]*gemm_ws.ptx:[0-9]+ .*collector::b0::lastuse")
