# Golden tests of the Hopper tensor-core corpus (kernels/hopper, issue 6): every launch spec run in
# the simulator and compared bit for bit with its H200 output (kernels/hopper/golden/README.md).
# The goldens (kernels/hopper/golden/h200.tar.xz, 7.5 MB) are unpacked at configure time into the
# build tree; each test runs a group of specs in one `tcsim golden` process (each PTX file parsed
# once), so the whole suite takes well under a minute on two cores.
set(_kh ${PROJECT_SOURCE_DIR}/kernels/hopper)
set(_kh_archive ${_kh}/golden/h200.tar.xz)
set(_kh_golden ${CMAKE_BINARY_DIR}/kernels/hopper/golden/h200)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_kh_archive})
file(SHA256 ${_kh_archive} _kh_sha)
set(_kh_have "")
if(EXISTS ${_kh_golden}/.sha256)
  file(READ ${_kh_golden}/.sha256 _kh_have)
endif()
if(NOT _kh_have STREQUAL _kh_sha)
  file(REMOVE_RECURSE ${_kh_golden})
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/kernels/hopper/golden)
  file(ARCHIVE_EXTRACT INPUT ${_kh_archive} DESTINATION ${CMAKE_BINARY_DIR}/kernels/hopper/golden)
  file(WRITE ${_kh_golden}/.sha256 "${_kh_sha}")
endif()

# Groups: one per PTX file of the single-instruction corpora (the regex selects spec names), then
# mma.sync and the data-movement kernels. The GEMMs (specs/gemm) join when TMA and mbarriers run.
set(_kw ${_kh}/specs/wgmma)
set(_kg ${_kh_golden}/wgmma)
tcsim_add_golden_suite(kernels_hopper_golden_wgmma_bf16 ${_kw} ${_kg} MATCH "^wgmma_f32_bf16_")
tcsim_add_golden_suite(kernels_hopper_golden_wgmma_f16 ${_kw} ${_kg} MATCH "^wgmma_f(16|32)_f16_")
tcsim_add_golden_suite(kernels_hopper_golden_wgmma_tf32 ${_kw} ${_kg} MATCH "^wgmma_f32_tf32_")
tcsim_add_golden_suite(kernels_hopper_golden_wgmma_fp8 ${_kw} ${_kg} MATCH "_e[45]m[23]_e[45]m[23]_")
tcsim_add_golden_suite(kernels_hopper_golden_wgmma_int8 ${_kw} ${_kg} MATCH "^wgmma_s32_[su]8_")
tcsim_add_golden_suite(kernels_hopper_golden_wgmma_b1 ${_kw} ${_kg} MATCH "^wgmma_s32_b1_")
tcsim_add_golden_suite(kernels_hopper_golden_mma ${_kh}/specs/mma ${_kh_golden}/mma)
tcsim_add_golden_suite(kernels_hopper_golden_ldst_matrix ${_kh}/specs/misc ${_kh_golden}/misc MATCH "^ldst_matrix")
