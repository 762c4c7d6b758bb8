// A 2:4 structured-sparse GEMM with tcgen05.mma.sp (PTX ISA §9.7.16.10.8, §9.7.16.10.9.2):
//
//   D[M][N] = A[M][K] * B[N][K]^T,  A 2:4 sparse: stored as As[M][K/2] (the two kept values of every
//            group of 4, in order) and E[M][K/4] (one metadata nibble per group: bits 1:0 the
//            position of the first kept value, bits 3:2 of the second)
//
// kind::f16, bf16 x bf16 -> f32, M = 128, N = 128, logical K = 32 per MMA (16 stored). One CTA of
// 128 threads per 128 x 128 tile of D; per stage of 4 MMAs (logical K = 128):
//   * all threads copy the stage's As (64 values = 128 bytes per row, 128B swizzle) and B (128
//     values, two 128B swizzle atoms per row) from global memory with ordinary loads, and build the
//     stage's metadata image in shared memory: the 128 x 64 two-bit entries of the 16-bit layout
//     (JAX's format_tcgen05_sparse_metadata; isa/layouts/tmem_sparse_layout.h), 16 bytes per TMEM
//     lane; fence.proxy.async;
//   * thread 0 copies the image into TMEM with tcgen05.cp.128x128b (4 columns) and issues the 4
//     sparse MMAs; MMA j names the metadata column pair (j/2)*2 and selects column j%2 of it with the
//     sparsity selector (idesc bits 0-1); tcgen05.commit; everyone waits (one buffer).
// Epilogue: tcgen05.ld.32x32b of each warp's lane quarter.
#include <cstdint>

#include "tc_ptx.cuh"
#include "tc_ptx_mx.cuh"
#include "tile_fill.cuh"
#include "umma_layout.h"

namespace tck {

constexpr uint32_t kSpM = 128, kSpN = 128;
constexpr uint32_t kSpStageK = 128;  // logical K per stage (4 MMAs)

// Sparse kind::f16 idesc (Table 42): selector bits 0-1, sparse bit 2, F32 D, BF16 A and B.
__device__ __forceinline__ constexpr uint32_t sp_idesc(uint32_t selector) {
  return (selector & 3u) | (1u << 2) | make_idesc(kSpM, kSpN, 1, 1, 1, 0, 0, 0, 0, 0);
}

__device__ void gemm_sp(const uint8_t* As, const uint8_t* B, const uint8_t* E, uint8_t* D, uint32_t M, uint32_t N,
                        uint32_t K) {
  extern __shared__ uint8_t smem_dyn[];
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp = threadIdx.x / 32u, t = threadIdx.x % 32u;
  const uint32_t m0 = blockIdx.y * kSpM, n0 = blockIdx.x * kSpN;
  // As: 4 steps of 32 bytes (16 stored bf16); B: 8 units of 32 bytes (the MMA reads 2 per step).
  const OperandLayout LA = make_operand_layout(kSwizzle128B, 0, kSpM, 2, 16, 4, 0);
  const OperandLayout LB = make_operand_layout(kSwizzle128B, 0, kSpN, 2, 16, 8, 0);
  const uint32_t base = (smem_u32(smem_dyn) + 1023u) / 1024u * 1024u;
  const uint32_t tile_a = base, tile_b = tile_a + LA.bytes, tile_e = tile_b + LB.bytes;
  if (blockDim.x != 128 || M % kSpM || N % kSpN || K % kSpStageK || tile_e + 2048u > smem_u32(smem_dyn) + dynamic_smem_size())
    __trap();
  if (warp == 0) {
    tmem_alloc<1>(smem_u32(&tmem_slot), 256);  // D at 0..127, metadata at 128..131
    tmem_relinquish<1>();
  }
  if (threadIdx.x == 0) {
    mbar_init(smem_u32(&mma_done), 1);
    fence_mbarrier_init();
  }
  tc_fence_before();
  __syncthreads();
  tc_fence_after();
  const uint32_t tbase = tmem_slot, meta_col = 128;
  const uint32_t groups = K / 4;
#pragma unroll 1
  for (uint32_t st = 0; st < K / kSpStageK; ++st) {
    bs_fill(LA, tile_a, As + m0 * (K / 2) * 2, false, 16, K / 2, 0, AllRows{}, st * 8u);
    bs_fill(LB, tile_b, B + n0 * K * 2, false, 16, K, 0, AllRows{}, st * 16u);
    // The metadata image: TMEM row R = 16a + 8e + c holds, at two-bit entry P = 16d + 8b + f, entry
    // 16d + 8e + f (of this stage's 64) of row m = 16a + 8b + c.
    for (uint32_t idx = threadIdx.x; idx < 128u * 16u; idx += blockDim.x) {
      const uint32_t R = idx / 16u, byte = idx % 16u;
      uint32_t v = 0;
      for (uint32_t q = 0; q < 4; ++q) {
        const uint32_t P = 4u * byte + q;
        const uint32_t a = R / 16u, e = (R / 8u) % 2u, c = R % 8u, d = P / 16u, b = (P / 8u) % 2u, f = P % 8u;
        const uint32_t m = 16u * a + 8u * b + c, i = 16u * d + 8u * e + f;  // entry i = 2 g + half
        const uint32_t g = st * 32u + i / 2u;
        const uint32_t nib = E[(m0 + m) * groups + g] & 0xFu;
        v |= ((nib >> (2u * (i % 2u))) & 3u) << (2u * q);
      }
      st_shared_u8(tile_e + 16u * R + byte, v);
    }
    fence_proxy_async_smem();
    tc_fence_before();
    __syncthreads();
    tc_fence_after();
    if (threadIdx.x == 0) {
      tmem_cp_128x128b<1>(tbase + meta_col, smem_desc_encode(tile_e, 16, 128, kSwizzleNone));
#pragma unroll 1
      for (uint32_t j = 0; j < 4; ++j)
        mma_sp_ss<Kind::F16, 1>(tbase, smem_desc(LA, tile_a, j), smem_desc(LB, tile_b, 2u * j),
                                tbase + meta_col + (j / 2u) * 2u, sp_idesc(j % 2u), (st | j) != 0);
      tc_commit<1>(smem_u32(&mma_done));
    }
    mbar_wait(smem_u32(&mma_done), st & 1u);
    tc_fence_after();
  }
#pragma unroll 1
  for (uint32_t c0 = 0; c0 < kSpN; c0 += 8) {
    uint32_t r[8];
    tmem_ld_32x32b_x8(tbase + ((32u * warp) << 16) + c0, r);
    uint32_t* drow = reinterpret_cast<uint32_t*>(D) + (m0 + 32u * warp + t) * N + n0 + c0;
    for (uint32_t j = 0; j < 8; ++j) drow[j] = r[j];
  }
  tc_fence_before();
  __syncthreads();
  if (warp == 0) tmem_dealloc<1>(tbase, 256);
}

}  // namespace tck

extern "C" __global__ void __launch_bounds__(128, 1)
    gemm_sp_bf16_f32(const uint8_t* As, const uint8_t* B, const uint8_t* E, uint8_t* D, uint32_t M, uint32_t N,
                     uint32_t K) {
  tck::gemm_sp(As, B, E, D, M, N, K);
}
