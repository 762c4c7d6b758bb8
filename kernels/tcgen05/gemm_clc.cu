// A persistent GEMM scheduled by cluster launch control (PTX ISA §9.7.13,
// clusterlaunchcontrol.try_cancel / query_cancel), the way CUTLASS's sm100 persistent tile
// scheduler and ThunderKittens' work-stealing kernels take their next tile:
//
//   D[M][N] = A[M][K] * B[N][K]^T,  kind::f16 bf16 -> f32, 128 x 128 tiles, K <= 64 per tile pass
//
// The grid has one CTA per tile (ctaid.x = tile column, ctaid.y = tile row). A running CTA computes
// its own tile, then asks the launch to cancel a CTA that has not started (try_cancel, response in
// shared memory, completion on an mbarrier with expect_tx 16), and if it got one computes that
// CTA's tile (the response's first ctaid) and asks again; it exits on the first failed response.
// The kernel needs more than half of an SM's shared memory, so one CTA fits per SM and the CTAs
// beyond the SM count are the ones there to steal. owner[tile] records the CTA that computed each
// tile (its linear ctaid), steals[ctaid] how many tiles it took over.
#include <cstdint>

#include "tc_ptx.cuh"
#include "tc_ptx_mx.cuh"
#include "tile_fill.cuh"
#include "umma_layout.h"

namespace tck {

constexpr uint32_t kClcTile = 128, kClcK = 64;

__device__ void gemm_clc(const uint8_t* A, const uint8_t* B, uint8_t* D, uint32_t* owner, uint32_t* steals,
                         uint32_t M, uint32_t N, uint32_t K) {
  extern __shared__ uint8_t smem_dyn[];
  __shared__ alignas(8) uint64_t mma_done, clc_bar;
  __shared__ alignas(16) uint32_t clc_resp[4];
  __shared__ uint32_t tmem_slot, next_x, next_y, next_ok;
  const uint32_t warp = threadIdx.x / 32u, t = threadIdx.x % 32u;
  const OperandLayout LA = make_operand_layout(kSwizzle128B, 0, kClcTile, 2, 16, 4, 0);
  const uint32_t base = (smem_u32(smem_dyn) + 1023u) / 1024u * 1024u;
  const uint32_t tile_a = base, tile_b = base + LA.bytes;
  if (blockDim.x != 128 || M % kClcTile || N % kClcTile || K % kClcK || gridDim.x * kClcTile != N ||
      gridDim.y * kClcTile != M || tile_b + LA.bytes > smem_u32(smem_dyn) + dynamic_smem_size())
    __trap();
  if (warp == 0) {
    tmem_alloc<1>(smem_u32(&tmem_slot), 128);
    tmem_relinquish<1>();
  }
  if (threadIdx.x == 0) {
    mbar_init(smem_u32(&mma_done), 1);
    mbar_init(smem_u32(&clc_bar), 1);
    fence_mbarrier_init();
  }
  tc_fence_before();
  __syncthreads();
  tc_fence_after();
  const uint32_t tbase = tmem_slot, me = blockIdx.y * gridDim.x + blockIdx.x;
  const uint32_t idesc = make_idesc(kClcTile, kClcTile, 1, 1, 1, 0, 0, 0, 0, 0);
  uint32_t tx = blockIdx.x, ty = blockIdx.y, mma_phase = 0, clc_phase = 0, stolen = 0;
#pragma unroll 1
  for (;;) {
    const uint32_t m0 = ty * kClcTile, n0 = tx * kClcTile;
#pragma unroll 1
    for (uint32_t st = 0; st < K / kClcK; ++st) {
      bs_fill(LA, tile_a, A + m0 * K * 2, false, 16, K, 0, AllRows{}, st * 8u);
      bs_fill(LA, tile_b, B + n0 * K * 2, false, 16, K, 0, AllRows{}, st * 8u);
      fence_proxy_async_smem();
      tc_fence_before();
      __syncthreads();
      tc_fence_after();
      if (threadIdx.x == 0) {
        for (uint32_t j = 0; j < 4; ++j)
          mma_ss<Kind::F16, 1>(tbase, smem_desc(LA, tile_a, j), smem_desc(LA, tile_b, j), idesc, (st | j) != 0);
        tc_commit<1>(smem_u32(&mma_done));
        if (st + 1 == K / kClcK) {  // the tile's last MMAs are in flight: ask for the next tile now
          mbar_arrive_expect_tx(smem_u32(&clc_bar), 16);
          clc_try_cancel(smem_u32(clc_resp), smem_u32(&clc_bar));
        }
      }
      mbar_wait(smem_u32(&mma_done), mma_phase);
      mma_phase ^= 1u;
      tc_fence_after();
    }
    for (uint32_t c0 = 0; c0 < kClcTile; c0 += 8) {
      uint32_t r[8];
      tmem_ld_32x32b_x8(tbase + ((32u * warp) << 16) + c0, r);
      uint32_t* drow = reinterpret_cast<uint32_t*>(D) + (m0 + 32u * warp + t) * N + n0 + c0;
      for (uint32_t j = 0; j < 8; ++j) drow[j] = r[j];
    }
    if (threadIdx.x == 0) owner[ty * gridDim.x + tx] = me;
    // The response: the ctaid of the first CTA of the canceled cluster, i.e. its tile.
    mbar_wait(smem_u32(&clc_bar), clc_phase);
    clc_phase ^= 1u;
    if (threadIdx.x == 0) {
      uint32_t x = 0, y = 0, z = 0;
      next_ok = clc_query(smem_u32(clc_resp), &x, &y, &z) ? 1u : 0u;
      next_x = x, next_y = y;
    }
    tc_fence_before();  // the tcgen05.ld of D above, before the next tile's MMAs overwrite it
    __syncthreads();
    tc_fence_after();
    if (!next_ok) break;
    tx = next_x, ty = next_y;
    ++stolen;
  }
  if (threadIdx.x == 0) steals[me] = stolen;
  tc_fence_before();
  __syncthreads();
  if (warp == 0) tmem_dealloc<1>(tbase, 128);
}

}  // namespace tck

extern "C" __global__ void __launch_bounds__(128, 1)
    gemm_clc_bf16_f32(const uint8_t* A, const uint8_t* B, uint8_t* D, uint32_t* owner, uint32_t* steals, uint32_t M,
                      uint32_t N, uint32_t K) {
  tck::gemm_clc(A, B, D, owner, steals, M, N, K);
}
