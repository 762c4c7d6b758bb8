// Ampere-style multistage GEMMs, the code nvcc users write for mma.sync (CUTLASS 2.x / the
// "cp.async + ldmatrix + mma" tutorials): D[M][N] (f32) = A[M][K] * B, 16-bit inputs.
//
// * CTA tile 64 x 64 x 32, 4 warps in 2 x 2, each a 32 x 32 warp tile = 2 x 4 mma.sync.m16n8k16.
// * kStages = 3 shared-memory stages filled with cp.async.cg 16 B (commit_group per stage;
//   cp.async.wait_group kStages-2 before computing on the oldest), one bar.sync per k-tile.
// * Shared rows are XOR-swizzled by 16-byte chunk (chunk c of row r at c ^ ((r >> 1) & 3) for the
//   64-byte rows of A / B[N][K]; c ^ (r & 7) for the 128-byte rows of B[K][N]) so the ldmatrix
//   row fetches spread over the banks.
// * Fragments with ldmatrix.x4: A (m16 x k16) and, for B stored [N][K] ("TN"), two n8 x k16 B
//   fragments per x4; for B stored [K][N] ("NN") ldmatrix.x4.trans builds the same fragments from
//   k-major rows.
// Requirements (trap otherwise): M % 64 == 0, N % 64 == 0, K % 32 == 0, K > 0, 128 threads.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "common/mma_ops.h"

namespace {

constexpr uint32_t kBM = 64, kBN = 64, kBK = 32, kStages = 3;

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async_16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t addr, uint32_t (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t addr, uint32_t (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
}

// Byte offset of 16-byte chunk c of row r in a tile of 64-byte rows / 128-byte rows.
__device__ __forceinline__ uint32_t off64(uint32_t r, uint32_t c) { return r * 64 + ((c ^ ((r >> 1) & 3)) << 4); }
__device__ __forceinline__ uint32_t off128(uint32_t r, uint32_t c) { return r * 128 + ((c ^ (r & 7)) << 4); }

template <class Op, bool kBKMajor>
__device__ void gemm_mma_sync(const uint16_t* __restrict__ A, const uint16_t* __restrict__ B, float* __restrict__ D,
                              uint32_t M, uint32_t N, uint32_t K) {
  // A stage: 64 rows x 32 elements (64 B). B stage: [N][K] 64 rows x 64 B, or [K][N] 32 rows x 128 B.
  __shared__ __align__(128) uint8_t sA[kStages][kBM * kBK * 2];
  __shared__ __align__(128) uint8_t sB[kStages][kBN * kBK * 2];
  if (blockDim.x != 128 || blockDim.y != 1 || blockDim.z != 1 || M % kBM || N % kBN || K % kBK || K == 0) __trap();
  const uint32_t t = threadIdx.x, warp = t / 32, lane = t % 32;
  const uint32_t wm = warp / 2, wn = warp % 2;  // warp tile origin (32 * wm, 32 * wn)
  const uint32_t m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN, k_tiles = K / kBK;

  auto load_stage = [&](uint32_t kt, uint32_t s) {
    // 256 chunks of 16 B per operand tile, 2 per thread.
    for (uint32_t i = t; i < 256; i += 128) {
      const uint32_t r = i / 4, c = i % 4;  // A: 64 rows x 4 chunks
      cp_async_16(smem_u32(sA[s]) + off64(r, c), A + (size_t)(m0 + r) * K + kt * kBK + 8 * c);
      if constexpr (kBKMajor) {  // B[N][K]
        cp_async_16(smem_u32(sB[s]) + off64(r, c), B + (size_t)(n0 + r) * K + kt * kBK + 8 * c);
      } else {  // B[K][N]: 32 k-rows x 8 chunks
        const uint32_t kr = i / 8, nc = i % 8;
        cp_async_16(smem_u32(sB[s]) + off128(kr, nc), B + (size_t)(kt * kBK + kr) * N + n0 + 8 * nc);
      }
    }
  };

  float acc[2][4][4];
#pragma unroll
  for (uint32_t i = 0; i < 2; ++i)
#pragma unroll
    for (uint32_t j = 0; j < 4; ++j)
#pragma unroll
      for (uint32_t e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

  for (uint32_t s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
#pragma unroll 1
  for (uint32_t kt = 0; kt < k_tiles; ++kt) {
    asm volatile("cp.async.wait_group %0;" ::"n"(kStages - 2) : "memory");  // k-tile kt has landed
    __syncthreads();  // ... for every thread; and stage (kt - 1) % kStages is free again
    const uint32_t s = kt % kStages;
    if (kt + kStages - 1 < k_tiles) load_stage(kt + kStages - 1, (kt + kStages - 1) % kStages);
    asm volatile("cp.async.commit_group;" ::: "memory");  // possibly empty: keeps the group count
#pragma unroll
    for (uint32_t kk = 0; kk < kBK / 16; ++kk) {
      uint32_t a[2][4], b[4][2];
      const uint32_t mi = lane / 8, lr = lane % 8;
#pragma unroll
      for (uint32_t i = 0; i < 2; ++i) {
        // A fragment registers j = (rows 8(j&1).., k 8(j>>1)..): lanes 8j..8j+7 address matrix j.
        const uint32_t row = 32 * wm + 16 * i + 8 * (mi & 1) + lr, chunk = 2 * kk + (mi >> 1);
        ldmatrix_x4(smem_u32(sA[s]) + off64(row, chunk), a[i]);
      }
#pragma unroll
      for (uint32_t jp = 0; jp < 2; ++jp) {  // n8 blocks 2jp, 2jp+1
        uint32_t r[4];
        if constexpr (kBKMajor) {
          // Matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15).
          const uint32_t row = 32 * wn + 16 * jp + 8 * (mi >> 1) + lr, chunk = 2 * kk + (mi & 1);
          ldmatrix_x4(smem_u32(sB[s]) + off64(row, chunk), r);
        } else {
          // k-major rows, transposed: (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15).
          const uint32_t krow = 16 * kk + 8 * (mi & 1) + lr, chunk = (32 * wn + 16 * jp) / 8 + (mi >> 1);
          ldmatrix_x4_trans(smem_u32(sB[s]) + off128(krow, chunk), r);
        }
        b[2 * jp][0] = r[0];
        b[2 * jp][1] = r[1];
        b[2 * jp + 1][0] = r[2];
        b[2 * jp + 1][1] = r[3];
      }
#pragma unroll
      for (uint32_t i = 0; i < 2; ++i)
#pragma unroll
        for (uint32_t j = 0; j < 4; ++j) Op::mma(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }
  asm volatile("cp.async.wait_all;" ::: "memory");

  const uint32_t g = lane / 4, q = lane % 4;
#pragma unroll
  for (uint32_t i = 0; i < 2; ++i)
#pragma unroll
    for (uint32_t j = 0; j < 4; ++j)
#pragma unroll
      for (uint32_t h = 0; h < 2; ++h) {
        const uint32_t row = m0 + 32 * wm + 16 * i + g + 8 * h, col = n0 + 32 * wn + 8 * j + 2 * q;
        *reinterpret_cast<float2*>(D + (size_t)row * N + col) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
      }
}

}  // namespace

// bf16, B stored [N][K] (K contiguous).
extern "C" __global__ void __launch_bounds__(128) gemm_mma_bf16_tn(const uint16_t* __restrict__ A,
                                                                    const uint16_t* __restrict__ B,
                                                                    float* __restrict__ D, uint32_t M, uint32_t N,
                                                                    uint32_t K) {
  gemm_mma_sync<hopper::Mma_m16n8k16_f32_bf16_bf16_f32, true>(A, B, D, M, N, K);
}

// f16, B stored [K][N] (N contiguous): fragments through ldmatrix.trans.
extern "C" __global__ void __launch_bounds__(128) gemm_mma_f16_nn(const uint16_t* __restrict__ A,
                                                                   const uint16_t* __restrict__ B,
                                                                   float* __restrict__ D, uint32_t M, uint32_t N,
                                                                   uint32_t K) {
  gemm_mma_sync<hopper::Mma_m16n8k16_f32_f16_f16_f32, false>(A, B, D, M, N, K);
}
