// Warp-specialised persistent GEMMs on 2-CTA clusters with TMA multicast (gemm_ws.cuh): the two
// CTAs of a cluster compute vertically adjacent 128 x 128 tiles, each loads half of the shared B
// tile and multicasts it to both. Specs: specs/gemm/gemm_*_cluster2_*.
#include "gemm_ws.cuh"

namespace cfg {
using hopper::GemmConfig;
using hopper::Wgmma_m64n128k16_f32_bf16_bf16;
using hopper::Wgmma_m64n128k32_f32_e4m3_e4m3;
//                                  wgmma                      BN  stages B MN-major bf16 D cluster promote
using Bf16C2 = GemmConfig<Wgmma_m64n128k16_f32_bf16_bf16, 128, 4, false, false, 2, 0>;
using E4m3C2 = GemmConfig<Wgmma_m64n128k32_f32_e4m3_e4m3, 128, 4, false, true, 2, 0>;
}  // namespace cfg

HOPPER_GEMM_WS_KERNEL(gemm_bf16_ws_cluster2, cfg::Bf16C2)
// e4m3 in, bf16 D through stmatrix + TMA store.
HOPPER_GEMM_WS_KERNEL(gemm_e4m3_ws_cluster2, cfg::E4m3C2)
