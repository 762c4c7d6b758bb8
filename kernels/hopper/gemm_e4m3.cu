// Warp-specialised persistent e4m3 GEMMs (gemm_ws.cuh), 128 x 128 x 128-byte tiles, wgmma
// m64n128k32.f32.e4m3.e4m3. Specs: specs/gemm/gemm_e4m3_*.
#include "gemm_ws.cuh"

namespace cfg {
using hopper::GemmConfig;
using hopper::Wgmma_m64n128k32_f32_e4m3_e4m3;
//                                 wgmma                     BN  stages B MN-major bf16 D cluster promote
using E4m3 = GemmConfig<Wgmma_m64n128k32_f32_e4m3_e4m3, 128, 4, false, false, 1, 0>;
using E4m3Promote = GemmConfig<Wgmma_m64n128k32_f32_e4m3_e4m3, 128, 4, false, false, 1, 2>;
using E4m3Bf16Out = GemmConfig<Wgmma_m64n128k32_f32_e4m3_e4m3, 128, 4, false, true, 1, 0>;
}  // namespace cfg

// f32 D straight from the (reduced-precision) wgmma accumulator.
HOPPER_GEMM_WS_KERNEL(gemm_e4m3_ws, cfg::E4m3)
// The accumulator promoted into an f32 sum every 2 k-blocks (256 K).
HOPPER_GEMM_WS_KERNEL(gemm_e4m3_ws_promote, cfg::E4m3Promote)
// bf16 D through stmatrix + TMA store.
HOPPER_GEMM_WS_KERNEL(gemm_e4m3_ws_bf16out, cfg::E4m3Bf16Out)
