// Real-world tcgen05 idioms that the PTX ISA forbids or leaves undefined but B200 kernels use and the
// hardware runs correctly (docs/hardware_tolerance.md). One small GEMM, D = A · Bᵀ with integer
// inputs (exact), whose `flags` switch each idiom on; the specs in specs/idioms/ run it with one idiom
// each and with all of them, and CTest checks D against the exact product and the findings each
// idiom must produce (tests/cli/kernels_tcgen05_idioms.cmake).
//
//   idiom_gemm_cg1: 1 CTA, M = 128, N = 64, K = 32 (two kind::f16 MMAs of K = 16), 8 warps:
//     warp 0 allocates TMEM, warp 1 lane 0 issues the MMAs, warps 4-7 are the epilogue.
//   idiom_gemm_cg2: a CTA pair (cluster 2x1x1), M = 256 (128 rows per CTA), N = 64 (32 B rows per
//     CTA), .cta_group::2; the even CTA issues, the commit multicasts to both.
//
// A[m][k] = (3m + k) % 5 - 2, B[n][k] = (n + 2k) % 7 - 3 (bf16, generated in the kernel), K-major,
// no swizzle: element (r, k) of an operand with R rows at byte (k/8)·16R + (r/8)·128 + (r%8)·16 +
// (k%8)·2, so LBO (next 8 K) = 16R bytes, SBO (next 8 rows) = 128 bytes (PTX ISA §9.7.16.3).
//
// flags:
//   1  tcgen05.dealloc by warp 1 (warp 0 allocated)                       -> tcgen05-alloc-warp
//   2  the epilogue never issues tcgen05.wait::ld (uses the registers)     -> no finding (§9.7.16.6.4.5)
//   4  the epilogue's lane field: cg1 every warp passes lane 0 (DeepGEMM style), cg2 lane 128v + 32(w%4)
//      (the pair's lanes counted 0-255)                                    -> tcgen05-lane-quarter
//   8  generic addresses: tcgen05.alloc .shared::cta and mbarrier.init .shared::cta given the generic
//      address, tcgen05.commit .shared::cluster given the generic address, mbarrier.try_wait (generic
//      form) given the 32-bit shared address    -> generic-address-as-shared, shared-address-as-generic
//  16  enable-input-d as the immediates 0 and 1                            -> tcgen05-mma-imm-enable-input-d
#include <cstdint>

#include "tc_ptx.cuh"

namespace {

using namespace tck;

constexpr uint32_t kN = 64, kK = 32, kRows = 128;

__device__ __forceinline__ uint16_t bf16_of_int(int v) {
  const float f = static_cast<float>(v);
  return static_cast<uint16_t>(__float_as_uint(f) >> 16);  // exact: small integers
}

__device__ __forceinline__ uint32_t operand_offset(uint32_t r, uint32_t k, uint32_t rows) {
  return (k / 8) * 16 * rows + (r / 8) * 128 + (r % 8) * 16 + (k % 8) * 2;
}

__device__ __forceinline__ uint64_t smem_desc(uint32_t addr, uint32_t rows) {
  return uint64_t((addr & 0x3ffff) >> 4) | (uint64_t((16 * rows) >> 4) << 16) | (uint64_t(128 >> 4) << 32) |
         (uint64_t(1) << 46);
}

template <int CG>
__device__ __forceinline__ void mma_f16(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc, uint32_t acc,
                                        bool imm) {
  if (imm) {
    if (acc) {
      if constexpr (CG == 1)
        asm volatile("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, 1;" :: "r"(d), "l"(a), "l"(b), "r"(idesc));
      else
        asm volatile("tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, 1;" :: "r"(d), "l"(a), "l"(b), "r"(idesc));
    } else {
      if constexpr (CG == 1)
        asm volatile("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, 0;" :: "r"(d), "l"(a), "l"(b), "r"(idesc));
      else
        asm volatile("tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, 0;" :: "r"(d), "l"(a), "l"(b), "r"(idesc));
    }
    return;
  }
  if constexpr (CG == 1)
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(acc));
  else
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                 :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(acc));
}

template <int CG>
__device__ void idiom_gemm(float* D, uint32_t flags) {
  __shared__ __align__(1024) uint8_t a_s[kRows * kK * 2];
  __shared__ __align__(1024) uint8_t b_s[(kN / CG) * kK * 2];
  __shared__ __align__(8) uint64_t bar;
  __shared__ uint32_t tmem_slot;
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t rank = CG == 2 ? cluster_ctarank() : 0;
  const bool generic = flags & 8;

  if (warp == 0) {
    if (generic) {
      const uint64_t g = reinterpret_cast<uint64_t>(&tmem_slot);
      if constexpr (CG == 1)
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" :: "l"(g), "r"(kN) : "memory");
      else
        asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" :: "l"(g), "r"(kN) : "memory");
    } else {
      tmem_alloc<CG>(smem_u32(&tmem_slot), kN);
    }
    tmem_relinquish<CG>();
  }
  if (threadIdx.x == 0) {
    if (generic)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "l"(reinterpret_cast<uint64_t>(&bar)) : "memory");
    else
      mbar_init(smem_u32(&bar), 1);
    fence_mbarrier_init();
  }
  // Operands: this CTA's 128 rows of A and its N / CG rows of B.
  for (uint32_t i = threadIdx.x; i < kRows * kK; i += blockDim.x) {
    const uint32_t r = i / kK, k = i % kK, m = rank * kRows + r;
    *reinterpret_cast<uint16_t*>(a_s + operand_offset(r, k, kRows)) = bf16_of_int(int((3 * m + k) % 5) - 2);
  }
  for (uint32_t i = threadIdx.x; i < (kN / CG) * kK; i += blockDim.x) {
    const uint32_t r = i / kK, k = i % kK, n = rank * (kN / CG) + r;
    *reinterpret_cast<uint16_t*>(b_s + operand_offset(r, k, kN / CG)) = bf16_of_int(int((n + 2 * k) % 7) - 3);
  }
  fence_proxy_async_smem();
  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  tc_fence_after();
  const uint32_t taddr = tmem_slot;

  // idesc: D f32 (bit 4), A and B bf16 (bits 7, 10), N >> 3 at bit 17, M >> 4 at bit 24 (§9.7.16.4.2).
  constexpr uint32_t M = kRows * CG;
  constexpr uint32_t idesc = (1u << 4) | (1u << 7) | (1u << 10) | ((kN >> 3) << 17) | ((M >> 4) << 24);
  if (warp == 1 && lane == 0 && rank == 0) {
    for (uint32_t j = 0; j < kK / 16; ++j)
      mma_f16<CG>(taddr, smem_desc(smem_u32(a_s) + j * 2 * 16 * kRows, kRows),
                  smem_desc(smem_u32(b_s) + j * 2 * 16 * (kN / CG), kN / CG), idesc, j, flags & 16);
    if (generic) {
      const uint64_t g = reinterpret_cast<uint64_t>(&bar);
      if constexpr (CG == 1)
        asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" :: "l"(g) : "memory");
      else
        asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64"
                     " [%0], %1;" :: "l"(g), "h"(uint16_t(3)) : "memory");
    } else {
      if constexpr (CG == 1) tc_commit<1>(smem_u32(&bar)); else tc_commit_multicast<2>(smem_u32(&bar), 3);
    }
  }
  if (warp >= 4) {  // the epilogue: warp w reads its lane quarter w % 4
    if (generic) {
      const uint64_t s = smem_u32(&bar);  // a 32-bit shared address in a generic operand
      asm volatile("{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\t"
                   "mbarrier.try_wait.parity.acquire.cluster.b64 P1, [%0], 0;\n\t"
                   "@P1 bra.uni DONE;\n\tbra.uni LAB_WAIT;\n\tDONE:\n\t}" :: "l"(s) : "memory");
    } else {
      mbar_wait(smem_u32(&bar), 0);
    }
    tc_fence_after();
    const uint32_t q = warp % 4;
    const uint32_t lane_field = (flags & 4) ? (CG == 1 ? 0u : rank * 128 + 32 * q) : 32 * q;
    const uint32_t row = rank * kRows + 32 * q + lane;
    for (uint32_t c0 = 0; c0 < kN; c0 += 8) {
      uint32_t v[8];
      asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8];"
                   : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7])
                   : "r"(taddr + (lane_field << 16) + c0) : "memory");
      if (!(flags & 2)) asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
      for (int j = 0; j < 8; ++j) D[row * kN + c0 + j] = __uint_as_float(v[j]);
    }
    if (flags & 2) asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");  // before the dealloc only
  }
  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  if (warp == ((flags & 1) ? 1u : 0u)) {
    tc_fence_after();
    tmem_dealloc<CG>(taddr, kN);
  }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256) idiom_gemm_cg1(float* D, uint32_t flags) { idiom_gemm<1>(D, flags); }
extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256) idiom_gemm_cg2(float* D, uint32_t flags) {
  idiom_gemm<2>(D, flags);
}
