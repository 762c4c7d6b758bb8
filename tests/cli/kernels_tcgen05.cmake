# kernels/tcgen05 -- the tcgen05 corpus (README.md there). Included by tests/CMakeLists.txt.
#   kernels_tcgen05_layouts  host check of umma_layout.h, the code the kernels place operands with:
#                            worked descriptor encodings, an independent reading of every
#                            descriptor the kernels build, TMEM data-path and tcgen05.ld maps
#   kernels_tcgen05_ptx      ptxas -arch=sm_100a accepts every committed .ptx, the PTX is what
#                            gen_ptx.sh makes from the .cu today, every spec names an entry of its
#                            PTX and is what gen_specs.py writes (kernels/ptx_tool.py; needs
#                            nvcc/ptxas and python3)
set(_tck_dir ${PROJECT_SOURCE_DIR}/kernels/tcgen05)

add_executable(kernels_tcgen05_layouts ${_tck_dir}/layout_selfcheck.cc)
tcsim_warnings(kernels_tcgen05_layouts)
add_test(NAME kernels_tcgen05_layouts COMMAND kernels_tcgen05_layouts)
set_tests_properties(kernels_tcgen05_layouts PROPERTIES PASS_REGULAR_EXPRESSION "all passed")

# Regenerating the two PTX files takes about half a minute on a small machine.
include(${PROJECT_SOURCE_DIR}/kernels/ptx_tool.cmake)
tcsim_add_ptx_check(tcgen05 TIMEOUT 900)

# kernels_tcgen05_mma_cases: `tcsim verify-case` runs the single-instruction specs (specs/mma) on
# the simulator and compares D with the reference each spec's `case` object defines (exact
# integer arithmetic through Eigen for the exact-input specs, the models::mma sm_100a reference for
# the random ones), bit for bit: all 725 (cta_group::1 and ::2, .ws, A from TMEM).
# kernels_tcgen05_mma_case_tampered: the negative control — a copy of a passing spec whose case
# claims negate-A must be reported as failing.
add_test(NAME kernels_tcgen05_mma_cases
         COMMAND $<TARGET_FILE:tcsim> verify-case ${_tck_dir}/specs/mma --quiet)
set_tests_properties(kernels_tcgen05_mma_cases PROPERTIES PASS_REGULAR_EXPRESSION "725 of 725 specs pass" TIMEOUT 300)
add_test(NAME kernels_tcgen05_mma_case_tampered
         COMMAND $<TARGET_FILE:tcsim> verify-case ${PROJECT_SOURCE_DIR}/tests/cli/run_data/tcgen05_case_tampered.json)
set_tests_properties(kernels_tcgen05_mma_case_tampered PROPERTIES
                     PASS_REGULAR_EXPRESSION "16214 of 16384 D elements differ from the exact reference; first D.0..0.: tcsim 0x41500000, reference 0xc1500000")

# The GEMMs (specs/gemm, warp-specialised, TMA + mbarrier ring, persistent; README "The GEMMs"):
# every one-CTA kernel (bf16, e4m3, f16 -> f16, s8) exact and random, the README main job
# gemm_bf16.json (models::mma reference), and the swizzle-bug demo: the wrong descriptors must give
# wrong numbers and the misread report must name the element and the field. The CTA-pair GEMMs
# (cta_group::2, cluster (2,1,1), TMA loads with .cta_group::2 signalling the even CTA's barrier)
# are kernels_tcgen05_gemm_pair_cases below.
set(_tck_gemm_specs "")
foreach(s bf16_f32_exact bf16_f32_random e4m3_f32_exact e4m3_f32_random f16_f16_exact f16_f16_random
          s8_s32_exact s8_s32_random swizzle_bug1_fixed swizzle_bug2_fixed)
  list(APPEND _tck_gemm_specs ${_tck_dir}/specs/gemm/${s}.json)
endforeach()
add_test(NAME kernels_tcgen05_gemm_cases
         COMMAND $<TARGET_FILE:tcsim> verify-case ${_tck_gemm_specs} ${_tck_dir}/gemm_bf16.json --quiet)
set_tests_properties(kernels_tcgen05_gemm_cases PROPERTIES PASS_REGULAR_EXPRESSION "11 of 11 specs pass" TIMEOUT 300)
# The CTA-pair GEMMs, exact and random (D = A·Bᵀ exactly / the models::mma reference, bit for bit):
# 8 specs, about 12 s on a loaded 2-core machine.
set(_tck_pair_specs "")
foreach(s bf16_f32_2cta_exact bf16_f32_2cta_random e4m3_f32_2cta_exact e4m3_f32_2cta_random f16_f16_2cta_exact
          f16_f16_2cta_random s8_s32_2cta_exact s8_s32_2cta_random)
  list(APPEND _tck_pair_specs ${_tck_dir}/specs/gemm/${s}.json)
endforeach()
add_test(NAME kernels_tcgen05_gemm_pair_cases
         COMMAND $<TARGET_FILE:tcsim> verify-case ${_tck_pair_specs} --quiet)
set_tests_properties(kernels_tcgen05_gemm_pair_cases PROPERTIES PASS_REGULAR_EXPRESSION "8 of 8 specs pass" TIMEOUT 300)
add_test(NAME kernels_tcgen05_swizzle_bug1
         COMMAND $<TARGET_FILE:tcsim> verify-case ${_tck_dir}/specs/gemm/swizzle_bug1.json)
set_tests_properties(kernels_tcgen05_swizzle_bug1 PROPERTIES PASS_REGULAR_EXPRESSION
  "as the bug demands.*B.1..0. expected .*B.0..8. read .*bits 61-63 .layout type. = 0 .none., but TMA wrote these bytes with the 128B swizzle .tensor map `tm[AB]` field swizzle.: layout type 2")
add_test(NAME kernels_tcgen05_swizzle_bug2
         COMMAND $<TARGET_FILE:tcsim> verify-case ${_tck_dir}/specs/gemm/swizzle_bug2.json)
set_tests_properties(kernels_tcgen05_swizzle_bug2 PROPERTIES PASS_REGULAR_EXPRESSION
  "as the bug demands.*B.8..0. expected .*B.4..0. read .*bits 32-45 .stride byte offset, SBO. = 512 B; 1024 B reads every element")
