// One-tile tcgen05.mma kernels for sm_100a (B200): every kind, cta_group::1, M=128, N=16, A and
// B from shared memory, C/D (and block-scale factors) in tensor memory. One CTA of 128 threads
// computes one tile per blockIdx.x: D = A*B + C, `reps` times (D accumulates in TMEM).
//
// Sequence (PTX ISA §9.7.16; docs/tensor_memory.md):
//   warp 0: tcgen05.alloc 32 columns (§9.7.16.7.1), relinquish_alloc_permit; thread 0: mbarrier.init
//   all:    A, B -> shared memory, K-major, no swizzle (§9.7.16.3; LBO 128 B along K, SBO 256 B
//           per 8 rows, descriptor version bits 46-48 = 0b001, §9.7.16.4.1); fence.proxy.async
//           C -> TMEM columns 0..15 with tcgen05.st.32x32b (lane = row, §9.7.16.10.5 layout D);
//           block-scale factors -> TMEM (SFA columns 16..19, SFB column 20), each 32-lane
//           sub-partition holding the same copy (§9.7.16.10.7; cell layout CUTLASS-derived:
//           row x at lane x%32, column C0 + x/32, byte j = scale j)
//           tcgen05.wait::st; fence::before_thread_sync; bar.sync; fence::after_thread_sync
//   thread 0: reps x tcgen05.mma; tcgen05.commit -> mbarrier (§9.7.16.12.1)
//   all:    mbarrier wait; fence::after_thread_sync; tcgen05.ld.32x32b.x16; wait::ld; store D
//   warp 0: tcgen05.dealloc (every allocated column freed before exit, §9.7.16.1.2)
// Operand bytes: every A/B row holds 32 bytes of K (f16/bf16 K=16, tf32 K=8, 8-bit K=32,
// f8f6f4 fp6/fp4 K=32 in padded 16-byte units, mxf4 K=64 two per byte); the host packs them.
#pragma once
#include <cstdint>

namespace tc {

enum Kind : int { kF16, kTF32, kF8F6F4, kI8, kMXF8F6F4, kMXF4, kMXF4NVF4_2X, kMXF4NVF4_4X };

constexpr int M = 128, N = 16, ROWB = 32;
constexpr uint32_t kCols = 32, kColD = 0, kColSFA = 16, kColSFB = 20;

__device__ __forceinline__ int kmajor_offset(int r, int kb) {
  return (r / 8) * 256 + (kb / 16) * 128 + (r % 8) * 16 + kb % 16;
}

// sm_100 shared-memory descriptor: start, LBO, SBO (>> 4), version 0b001 at bit 46, no swizzle
__device__ __forceinline__ uint64_t smem_desc(const void* p) {
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(p));
  return uint64_t{(a & 0x3ffffu) >> 4} | (uint64_t{128 >> 4} << 16) | (uint64_t{256 >> 4} << 32) |
         (uint64_t{1} << 46);
}

template <int KIND, int SID>
__device__ __forceinline__ void mma(uint32_t d, uint64_t ad, uint64_t bd, uint32_t idesc,
                                    uint32_t sfa, uint32_t sfb) {
#define TC_PRED "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
  if constexpr (KIND == kF16 && SID == 0)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc) : "memory");
  else if constexpr (KIND == kF16)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p, %4;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc), "n"(SID) : "memory");
  else if constexpr (KIND == kTF32 && SID == 0)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::tf32 [%0], %1, %2, %3, p;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc) : "memory");
  else if constexpr (KIND == kTF32)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::tf32 [%0], %1, %2, %3, p, %4;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc), "n"(SID) : "memory");
  else if constexpr (KIND == kF8F6F4)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, %3, p;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc) : "memory");
  else if constexpr (KIND == kI8)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::i8 [%0], %1, %2, %3, p;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc) : "memory");
  else if constexpr (KIND == kMXF8F6F4)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X "
                 "[%0], %1, %2, %3, [%4], [%5], p;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc), "r"(sfa), "r"(sfb) : "memory");
  else if constexpr (KIND == kMXF4)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X "
                 "[%0], %1, %2, %3, [%4], [%5], p;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc), "r"(sfa), "r"(sfb) : "memory");
  else if constexpr (KIND == kMXF4NVF4_2X)
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::2X "
                 "[%0], %1, %2, %3, [%4], [%5], p;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc), "r"(sfa), "r"(sfb) : "memory");
  else
    asm volatile(TC_PRED "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X "
                 "[%0], %1, %2, %3, [%4], [%5], p;\n}\n"
                 :: "r"(d), "l"(ad), "l"(bd), "r"(idesc), "r"(sfa), "r"(sfb) : "memory");
#undef TC_PRED
}

__device__ __forceinline__ void st16(uint32_t taddr, const uint32_t (&r)[16]) {
  asm volatile(
      "tcgen05.st.sync.aligned.32x32b.x16.b32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, "
      "%11, %12, %13, %14, %15, %16};\n"
      :: "r"(taddr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[6]),
         "r"(r[7]), "r"(r[8]), "r"(r[9]), "r"(r[10]), "r"(r[11]), "r"(r[12]), "r"(r[13]),
         "r"(r[14]), "r"(r[15]) : "memory");
}
__device__ __forceinline__ void st4(uint32_t taddr, const uint32_t (&r)[4]) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x4.b32 [%0], {%1, %2, %3, %4};\n"
               :: "r"(taddr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
}
__device__ __forceinline__ void st1(uint32_t taddr, uint32_t r) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};\n" :: "r"(taddr), "r"(r) : "memory");
}
__device__ __forceinline__ void ld16(uint32_t taddr, uint32_t (&r)[16]) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x16.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
      "%12, %13, %14, %15}, [%16];\n"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),
        "=r"(r[7]), "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]),
        "=r"(r[14]), "=r"(r[15])
      : "r"(taddr) : "memory");
}

// A: M x 32 bytes per tile, B: N x 32 bytes, C/D: M x N words, SA: M x nsf, SB: N x nsf bytes.
template <int KIND, int SID>
__device__ __forceinline__ void tile_body(const uint8_t* A, const uint8_t* B, const uint32_t* C,
                                          uint32_t* D, const uint8_t* SA, const uint8_t* SB,
                                          uint32_t idesc, int nsf, int reps) {
  __shared__ __align__(1024) uint8_t sa[M * ROWB];
  __shared__ __align__(1024) uint8_t sb[N * ROWB];
  __shared__ uint32_t tmem_base;
  __shared__ __align__(8) uint64_t mbar;
  const int t = blockIdx.x, tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const uint8_t* At = A + static_cast<size_t>(t) * M * ROWB;
  const uint8_t* Bt = B + static_cast<size_t>(t) * N * ROWB;
  const uint32_t* Ct = C + static_cast<size_t>(t) * M * N;
  uint32_t* Dt = D + static_cast<size_t>(t) * M * N;
  const uint32_t mbar_addr = static_cast<uint32_t>(__cvta_generic_to_shared(&mbar));
  if (warp == 0) {
    const uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(&tmem_base));
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\n"
                 :: "r"(dst), "r"(kCols) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n" ::: "memory");
  }
  if (tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" :: "r"(mbar_addr) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  for (int i = tid; i < M * ROWB; i += 128) sa[kmajor_offset(i / ROWB, i % ROWB)] = At[i];
  for (int i = tid; i < N * ROWB; i += 128) sb[kmajor_offset(i / ROWB, i % ROWB)] = Bt[i];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
  const uint32_t tbase = tmem_base;
  const uint32_t lane_base = tbase + ((32u * warp) << 16);  // this warp's sub-partition
  {
    uint32_t r[16];
    for (int j = 0; j < 16; ++j) r[j] = Ct[(32 * warp + lane) * N + j];
    st16(lane_base + kColD, r);
    if (nsf > 0) {
      uint32_t fa[4];
      for (int c = 0; c < 4; ++c) {  // row x = 32c + lane, replicated in every sub-partition
        uint32_t cell = 0;
        for (int j = 0; j < nsf; ++j) cell |= uint32_t{SA[(static_cast<size_t>(t) * M + 32 * c + lane) * nsf + j]} << (8 * j);
        fa[c] = cell;
      }
      st4(lane_base + kColSFA, fa);
      uint32_t fb = 0;
      if (lane < N)
        for (int j = 0; j < nsf; ++j) fb |= uint32_t{SB[(static_cast<size_t>(t) * N + lane) * nsf + j]} << (8 * j);
      st1(lane_base + kColSFB, fb);
    }
    asm volatile("tcgen05.wait::st.sync.aligned;\n" ::: "memory");
  }
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
  if (tid == 0) {
    const uint64_t ad = smem_desc(sa), bd = smem_desc(sb);
    for (int r = 0; r < reps; ++r)
      mma<KIND, SID>(tbase + kColD, ad, bd, idesc, tbase + kColSFA, tbase + kColSFB);
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n"
                 :: "r"(mbar_addr) : "memory");
  }
  {  // wait for the MMAs' completion (phase 0 of the mbarrier)
    uint32_t done = 0;
    while (!done)
      asm volatile("{\n.reg .pred q;\nmbarrier.try_wait.parity.shared::cta.b64 q, [%1], 0;\n"
                   "selp.u32 %0, 1, 0, q;\n}\n"
                   : "=r"(done) : "r"(mbar_addr) : "memory");
  }
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
  uint32_t r[16];
  ld16(lane_base + kColD, r);
  asm volatile("tcgen05.wait::ld.sync.aligned;\n" ::: "memory");
  for (int j = 0; j < 16; ++j) Dt[(32 * warp + lane) * N + j] = r[j];
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
  __syncthreads();
  if (warp == 0)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;\n"
                 :: "r"(tbase), "r"(kCols) : "memory");
}

template <int KIND, int SID>
__global__ void __launch_bounds__(128) tc_tiles(const uint8_t* A, const uint8_t* B,
                                                const uint32_t* C, uint32_t* D, const uint8_t* SA,
                                                const uint8_t* SB, uint32_t idesc, int nsf,
                                                int reps) {
  tile_body<KIND, SID>(A, B, C, D, SA, SB, idesc, nsf, reps);
}

}  // namespace tc
