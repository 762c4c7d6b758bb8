// Timing probe: one tcgen05.mma, then a burst, timed with %clock64 the way the published B200
// measurements were taken (SemiAnalysis microbench-blackwell umma_latency / umma_throughput:
// issue -> tcgen05.commit -> mbarrier try_wait; docs/timing_model.md "Tensor cores").
//
// tcgen05_probe_{ss,ts}: one CTA of 128 threads, cta_group::1. tcgen05_probe2_{ss,ts}: a cluster of
// two CTAs, cta_group::2 (PTX ISA §9.7.16.10 tcgen05.mma): the even CTA issues the pair's MMA (each
// CTA holds M/2 rows of A and N/2 rows of B) and its tcgen05.commit multicasts to both CTAs'
// barriers, the way the published pair numbers were taken. kind::f16 (bf16 -> f32; every kind has
// the same cycles), A and B K-major with 128B swizzle in shared memory, or A in tensor memory (TS).
// Operand values do not matter for timing: shared memory is zero-filled.
//   out[0] = cycles of fence + mma + commit + wait for ONE mma (the published "latency")
//   out[1] = cycles of the same for a burst of `burst` back-to-back mmas into one accumulator
// tests/cli/timing.cmake runs it in tcsim and checks out[0] against the published latency and
// (out[1] - out[0]) / (burst - 1) against the published II.
#include <cstdint>

#include "tc_ptx.cuh"
#include "umma_layout.h"

namespace tck {

__device__ __forceinline__ uint64_t clock64() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory");
  return t;
}

template <int CG>
__device__ __forceinline__ void mma_ts_plain(uint32_t d, uint32_t a, uint64_t b, uint32_t idesc, uint32_t en) {
  if constexpr (CG == 1)
    asm volatile("{\n\t.reg .pred en;\n\tsetp.ne.b32 en, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], [%1], %2, %3, en;\n\t}"
                 :: "r"(d), "r"(a), "l"(b), "r"(idesc), "r"(en) : "memory");
  else
    asm volatile("{\n\t.reg .pred en;\n\tsetp.ne.b32 en, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::2.kind::f16 [%0], [%1], %2, %3, en;\n\t}"
                 :: "r"(d), "r"(a), "l"(b), "r"(idesc), "r"(en) : "memory");
}

template <int CG>
__device__ __forceinline__ void group_sync() {
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
}

template <bool TS, int CG>
__device__ void probe(uint64_t* out, uint32_t m, uint32_t n, uint32_t burst) {
  extern __shared__ __align__(1024) uint8_t smem_dyn[];
  __shared__ alignas(8) uint64_t bar;
  __shared__ uint32_t tmem_base;
  const uint32_t tiles = smem_u32(smem_dyn);
  const uint32_t a_tile = (tiles + 1023u) & ~1023u;  // 128B swizzle atoms: 1024-byte aligned
  const uint32_t b_tile = a_tile + 128u * 128u;
  const bool leader = CG == 1 || cluster_ctarank() == 0;
  for (uint32_t i = threadIdx.x; i < (128u * 128u + 256u * 128u) / 16u; i += blockDim.x)
    asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};" :: "r"(a_tile + 16u * i), "r"(0u) : "memory");
  if (threadIdx.x < 32) {
    tmem_alloc<CG>(smem_u32(&tmem_base), 512);
    tmem_relinquish<CG>();
  }
  if (threadIdx.x == 0) {
    mbar_init(smem_u32(&bar), 1);
    fence_mbarrier_init();
  }
  fence_proxy_async_smem();
  tc_fence_before();
  group_sync<CG>();
  tc_fence_after();
  const uint32_t d_tmem = tmem_base;
  const uint32_t a_tmem = tmem_base + 256u;  // A in columns 256.. (TS)
  if (threadIdx.x == 0 && leader) {
    // Each CTA of a pair holds M/2 rows of A and N/2 rows of B at the same offsets (§9.7.16.10.5).
    const OperandLayout la = make_operand_layout(kSwizzle128B, 0, m / CG, 2, 16, 1, 0);
    const OperandLayout lb = make_operand_layout(kSwizzle128B, 0, n / CG, 2, 16, 1, 0);
    const uint64_t adesc = smem_desc(la, a_tile, 0), bdesc = smem_desc(lb, b_tile, 0);
    const uint32_t idesc = make_idesc(m, n, 1, 1, 1, 0, 0, 0, 0, 0);
    const uint32_t b = smem_u32(&bar);
    for (uint32_t round = 0; round < 2; ++round) {
      const uint32_t count = round == 0 ? 1u : burst;
      const uint64_t t0 = clock64();
      for (uint32_t i = 0; i < count; ++i) {
        if constexpr (TS) mma_ts_plain<CG>(d_tmem, a_tmem, bdesc, idesc, i);
        else mma_ss<Kind::F16, CG>(d_tmem, adesc, bdesc, idesc, i);
      }
      if constexpr (CG == 1) tc_commit<1>(b);
      else tc_commit_multicast<2>(b, 0x3);
      mbar_wait(b, round);
      const uint64_t t1 = clock64();
      out[round] = t1 - t0;
    }
  }
  // The other lanes of warp 0 wait here, so that what they do next (the cluster barrier's release)
  // does not share the warp's issue with the timed sequence.
  __syncwarp();
  if (CG == 2 && threadIdx.x == 0 && !leader) {
    mbar_wait(smem_u32(&bar), 0);  // the peer's barrier sees both commits too
    mbar_wait(smem_u32(&bar), 1);
  }
  tc_fence_before();
  group_sync<CG>();
  tc_fence_after();
  if (threadIdx.x < 32) tmem_dealloc<CG>(tmem_base, 512);
}

}  // namespace tck

extern "C" __global__ void __launch_bounds__(128) tcgen05_probe_ss(uint64_t* out, uint32_t m, uint32_t n,
                                                                  uint32_t burst) {
  tck::probe<false, 1>(out, m, n, burst);
}

extern "C" __global__ void __launch_bounds__(128) tcgen05_probe_ts(uint64_t* out, uint32_t m, uint32_t n,
                                                                  uint32_t burst) {
  tck::probe<true, 1>(out, m, n, burst);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
    tcgen05_probe2_ss(uint64_t* out, uint32_t m, uint32_t n, uint32_t burst) {
  tck::probe<false, 2>(out, m, n, burst);
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
    tcgen05_probe2_ts(uint64_t* out, uint32_t m, uint32_t n, uint32_t burst) {
  tck::probe<true, 2>(out, m, n, burst);
}
