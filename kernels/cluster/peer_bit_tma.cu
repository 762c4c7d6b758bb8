// peer_bit_tma.cu — the CUTLASS 2-SM idiom: the odd CTA of a pair reaches the even (leader) CTA's
// mbarrier by clearing bit 24 of its *own* barrier's shared address (CUTLASS's
// Sm100MmaPeerBitMask = 0xFEFFFFFF), no mapa. That works because a CTA's shared addresses carry
// its cluster rank from bit 24 up (docs/shared_memory.md; the H200's smem_addr goldens).
//
// Clusters of 2 CTAs, one warp each; CTA g loads rows [8g, 8g + 8) of a 32-column u32 matrix (one
// 32 x 8 TMA box, 1 KiB) into its own `tile`:
//   sm_100a: both CTAs issue cp.async.bulk.tensor.2d.cta_group::2 with the barrier operand
//            `&full & 0xFEFFFFFF`, so both loads complete on the leader's barrier, which expects
//            2 KiB (PTX ISA §9.7.9.25.5.2: with .cta_group::2 the barrier may be the peer's).
//   sm_90a:  each CTA's load completes on its own barrier; the odd CTA waits for it and then
//            arrives remotely on `&full & 0xFEFFFFFF` (the leader's barrier expects 1 KiB of its
//            own load and 2 arrivals: its own arrive.expect_tx and the odd CTA's).
// Then the leader waits on its barrier (bounded: a wrong barrier address never completes it),
// a cluster barrier, and every CTA copies its tile out.
// Outputs: out[g][8][32] = rows [8g, 8g + 8) of a; done[pair] = 1 when the leader's phase completed.
// Specs: peer_bit_tma_sm90.json, peer_bit_tma_sm100.json (expect.py models them).
#include "../tma/async_util.cuh"

namespace {

__device__ __forceinline__ uint32_t smem32(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

constexpr uint32_t kPeerBitMask = 0xFEFFFFFFu;  // clears bit 24: the even CTA of the pair

__device__ __forceinline__ uint32_t wait_bounded(uint32_t bar) {
  uint64_t t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  for (;;) {
    uint32_t ok;
    asm volatile(
        "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0, 1000;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(ok)
        : "r"(bar)
        : "memory");
    if (ok) return 1;
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > 2000000) return 0;
  }
}

}  // namespace

extern "C" __global__ void peer_bit_tma(const __grid_constant__ CUtensorMap tm_a, uint32_t* __restrict__ out,
                                        uint32_t* __restrict__ done) {
  __shared__ alignas(128) uint32_t tile[8 * 32];
  __shared__ alignas(8) uint64_t full;
  uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const uint32_t g = blockIdx.x;
  const uint32_t bar = smem32(&full);
  const bool leader = (rank & 1) == 0;
  if (threadIdx.x == 0) {
#if __CUDA_ARCH__ >= 1000
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
#else
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(leader ? 2u : 1u) : "memory");
#endif
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  tk::cluster_sync();
  if (threadIdx.x == 0) {
#if __CUDA_ARCH__ >= 1000
    if (leader) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 2048;" ::"r"(bar) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem32(tile)),
        "l"(&tm_a), "r"(0), "r"(static_cast<int32_t>(8 * g)), "r"(bar & kPeerBitMask)
        : "memory");
#else
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" ::"r"(bar) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem32(tile)),
        "l"(&tm_a), "r"(0), "r"(static_cast<int32_t>(8 * g)), "r"(bar)
        : "memory");
    if (!leader) {
      wait_bounded(bar);  // our own half has landed
      asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(bar & kPeerBitMask)
                   : "memory");
    }
#endif
    if (leader) done[g / 2] = wait_bounded(bar);
  }
  tk::cluster_sync();  // the leader has seen both halves; the odd CTA's tile landed before it signalled
  __syncwarp();
  for (uint32_t i = threadIdx.x; i < 8 * 32; i += blockDim.x) out[g * 256 + i] = tile[i];
}
