// A weight-stationary GEMM with tcgen05.mma.ws (PTX ISA §9.7.16.10.9.3): the B tile (the weights)
// stays in collector buffer b0 while several A tiles stream past it.
//
//   D[M][N] = A[M][K] * B[N][K]^T,  M = 64 * kTiles per CTA, N = 128, kind::f16 bf16 -> f32
//
// One CTA of 128 threads per 128 columns of D: the A tiles of kTiles consecutive 64-row blocks and
// the B tile of one K step are copied into shared memory with ordinary loads (128B swizzle), then
// thread 0 issues, per K step s, kTiles MMAs .ws M = 64 N = 128 (data-path layout E: D_t in lanes
// 0-63 for columns 0-63 and lanes 64-127 for 64-127, 64 TMEM columns at 64 t), the first with
// .collector::b0::fill, the middle ones ::use and the last ::lastuse: B is read from shared memory
// once per K step. Misuse demos: `mode` 1 starts every step with ::use instead of ::fill; `mode` 2
// waits for the first fill MMA and then overwrites part of B in shared memory before the uses (the
// operand must not change while a collector keeps it).
#include <cstdint>

#include "tc_ptx.cuh"
#include "tc_ptx_mx.cuh"
#include "tile_fill.cuh"
#include "umma_layout.h"

namespace tck {

constexpr uint32_t kWsTiles = 4, kWsM = 64, kWsN = 128, kWsStepK = 64;  // 4 MMAs of K = 16 per stage

__device__ void gemm_ws_b0(const uint8_t* A, const uint8_t* B, uint8_t* D, uint32_t M, uint32_t N, uint32_t K,
                           uint32_t mode) {
  extern __shared__ uint8_t smem_dyn[];
  __shared__ alignas(8) uint64_t mma_done, fill_done;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp = threadIdx.x / 32u, t = threadIdx.x % 32u;
  const uint32_t m0 = blockIdx.y * kWsM * kWsTiles, n0 = blockIdx.x * kWsN;
  const OperandLayout LA = make_operand_layout(kSwizzle128B, 0, kWsM, 2, 16, 4, 0);
  const OperandLayout LB = make_operand_layout(kSwizzle128B, 0, kWsN, 2, 16, 4, 0);
  const uint32_t base = (smem_u32(smem_dyn) + 1023u) / 1024u * 1024u;
  const uint32_t tile_b = base + kWsTiles * LA.bytes;
  if (blockDim.x != 128 || M % (kWsM * kWsTiles) || N % kWsN || K % kWsStepK ||
      tile_b + LB.bytes > smem_u32(smem_dyn) + dynamic_smem_size())
    __trap();
  if (warp == 0) {
    tmem_alloc<1>(smem_u32(&tmem_slot), 256);
    tmem_relinquish<1>();
  }
  if (threadIdx.x == 0) {
    mbar_init(smem_u32(&mma_done), 1);
    mbar_init(smem_u32(&fill_done), 1);
    fence_mbarrier_init();
  }
  tc_fence_before();
  __syncthreads();
  tc_fence_after();
  const uint32_t tbase = tmem_slot;
  const uint32_t idesc = make_idesc(kWsM, kWsN, 1, 1, 1, 0, 0, 0, 0, 0);
#pragma unroll 1
  for (uint32_t st = 0; st < K / kWsStepK; ++st) {
    for (uint32_t ti = 0; ti < kWsTiles; ++ti)
      bs_fill(LA, base + ti * LA.bytes, A + (m0 + ti * kWsM) * K * 2, false, 16, K, 0, AllRows{}, st * 8u);
    bs_fill(LB, tile_b, B + n0 * K * 2, false, 16, K, 0, AllRows{}, st * 8u);
    fence_proxy_async_smem();
    tc_fence_before();
    __syncthreads();
    tc_fence_after();
    if (threadIdx.x == 0) {
#pragma unroll 1
      for (uint32_t j = 0; j < 4; ++j)
        for (uint32_t ti = 0; ti < kWsTiles; ++ti) {
          const uint32_t use = ti == 0 ? (mode == 1 ? kCollUse : kCollFill) : ti + 1 == kWsTiles ? kCollLastuse : kCollUse;
          mma_ws_b0<Kind::F16>(use, tbase + 64u * ti, smem_desc(LA, base + ti * LA.bytes, j), smem_desc(LB, tile_b, j),
                               idesc, (st | j) != 0);
          if (mode == 2 && st == 0 && j == 0 && ti == 0) {  // the fill is done: change B under the collector
            tc_commit<1>(smem_u32(&fill_done));
            mbar_wait(smem_u32(&fill_done), 0);
            const uint32_t w[4] = {0, 0, 0, 0};
            st_shared_v4(tile_b, w);
            fence_proxy_async_smem();
          }
        }
      tc_commit<1>(smem_u32(&mma_done));
    }
    mbar_wait(smem_u32(&mma_done), st & 1u);
    tc_fence_after();
  }
  // Layout E: lane l < 64 holds row l of D_t for columns 0..63, lane 64 + l for 64..127.
#pragma unroll 1
  for (uint32_t ti = 0; ti < kWsTiles; ++ti)
    for (uint32_t c0 = 0; c0 < 64; c0 += 8) {
      uint32_t r[8];
      tmem_ld_32x32b_x8(tbase + ((32u * warp) << 16) + 64u * ti + c0, r);
      const uint32_t lane = 32u * warp + t, row = m0 + ti * kWsM + lane % 64u, col = n0 + (lane / 64u) * 64u + c0;
      uint32_t* drow = reinterpret_cast<uint32_t*>(D) + row * N + col;
      for (uint32_t j = 0; j < 8; ++j) drow[j] = r[j];
    }
  tc_fence_before();
  __syncthreads();
  if (warp == 0) tmem_dealloc<1>(tbase, 256);
}

}  // namespace tck

extern "C" __global__ void __launch_bounds__(128, 1)
    gemm_ws_bf16_f32(const uint8_t* A, const uint8_t* B, uint8_t* D, uint32_t M, uint32_t N, uint32_t K,
                     uint32_t mode) {
  tck::gemm_ws_b0(A, B, D, M, N, K, mode);
}
