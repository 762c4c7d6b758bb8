// Warp-specialised persistent bf16 GEMMs (gemm_ws.cuh): TMA + 128B swizzle + 4-stage mbarrier
// pipeline + producer/consumer warpgroups with setmaxnreg + wgmma. Specs: specs/gemm/gemm_bf16_*.
#include "gemm_ws.cuh"

namespace cfg {
using hopper::GemmConfig;
using hopper::Wgmma_m64n128k16_f32_bf16_bf16;
using hopper::Wgmma_m64n256k16_f32_bf16_bf16;
//                                 wgmma                      BN  stages B MN-major bf16 D cluster promote
using Bf16 = GemmConfig<Wgmma_m64n128k16_f32_bf16_bf16, 128, 4, false, false, 1, 0>;
using Bf16Out = GemmConfig<Wgmma_m64n128k16_f32_bf16_bf16, 128, 4, false, true, 1, 0>;
using Bf16N256 = GemmConfig<Wgmma_m64n256k16_f32_bf16_bf16, 256, 3, false, false, 1, 0>;
using Bf16BMn = GemmConfig<Wgmma_m64n128k16_f32_bf16_bf16, 128, 4, true, false, 1, 0>;
}  // namespace cfg

// f32 D, B K-major ("TN"): the reference configuration.
HOPPER_GEMM_WS_KERNEL(gemm_bf16_ws, cfg::Bf16)
// bf16 D through stmatrix + TMA store.
HOPPER_GEMM_WS_KERNEL(gemm_bf16_ws_bf16out, cfg::Bf16Out)
// 128 x 256 tiles (m64n256k16), 3 stages.
HOPPER_GEMM_WS_KERNEL(gemm_bf16_ws_n256, cfg::Bf16N256)
// B stored [K][N] (N contiguous): MN-major 128B-swizzled B tiles, wgmma imm-trans-b = 1.
HOPPER_GEMM_WS_KERNEL(gemm_bf16_ws_bmn, cfg::Bf16BMn)
