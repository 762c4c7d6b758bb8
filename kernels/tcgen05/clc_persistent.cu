// A persistent tile loop over cluster launch control (PTX ISA §9.7.13.17 clusterlaunchcontrol.try_cancel,
// §9.7.13.18 clusterlaunchcontrol.query_cancel): the scheduling idiom of Blackwell GEMMs that launch
// one cluster per output tile and let the resident clusters steal the tiles of clusters not yet
// launched (ThunderKittens' B200 GEMMs, CUTLASS's sm100 CLC tile scheduler).
//
// Each CTA processes the tile named by its ctaid: it counts the visit in visits[tile] and, when the
// tile is not its own, in stolen[0]. Then rank 0 of the cluster asks to cancel a cluster that has not
// started; the 16-byte response lands in every CTA of the cluster (.multicast::cluster::all, or the
// CTA alone for a cluster of one with multicast = 0) and completes 16 transaction bytes on each CTA's
// own mbarrier. A canceled cluster's first ctaid names the next tile (plus this CTA's rank); a
// failed response ends the loop (its ctaid is undefined: only a canceled one is decoded). The PTX ISA guarantees make the result exact: every tile is
// visited exactly once (visits[] all 1), whatever the scheduling; started[0] counts the CTAs that
// ran, so stolen[0] = grid - started[0].
#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

extern "C" __global__ void clc_persistent(uint32_t* visits, uint32_t* stolen, uint32_t* started, int multicast) {
  __shared__ alignas(16) uint32_t response[4];
  __shared__ alignas(8) uint64_t bar;
  const uint32_t rank = cluster_ctarank();
  const uint32_t r_addr = smem_addr(response), b_addr = smem_addr(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b_addr) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    atomicAdd(started, 1u);
  }
  // Every CTA's mbarrier is initialised before any response of the cluster can land.
  cluster_sync();
  uint32_t tile = blockIdx.x, phase = 0;
  for (;;) {
    if (threadIdx.x == 0) {
      atomicAdd(&visits[tile], 1u);
      if (tile != blockIdx.x) atomicAdd(stolen, 1u);
      asm volatile("mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 _, [%0], 16;" ::"r"(b_addr) : "memory");
      if (rank == 0) {
        if (multicast)
          asm volatile(
              "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all."
              "b128 [%0], [%1];" ::"r"(r_addr), "r"(b_addr) : "memory");
        else
          asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];"
                       ::"r"(r_addr), "r"(b_addr) : "memory");
      }
    }
    // Every thread waits for this CTA's response.
    uint32_t done = 0;
    while (!done)
      asm volatile(
          "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
          "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(done) : "r"(b_addr), "r"(phase) : "memory");
    phase ^= 1;
    uint32_t ok, x;
    asm volatile(
        "{\n\t.reg .pred p;\n\t.reg .b128 h;\n\tld.shared.b128 h, [%2];\n\t"
        "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, h;\n\tselp.u32 %0, 1, 0, p;\n\t"
        "mov.u32 %1, 0;\n\t@p clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %1, h;\n\t}"
        : "=r"(ok), "=r"(x) : "r"(r_addr) : "memory");
    // The generic-proxy read of the response is ordered before the next request's async write
    // (§9.7.13.17's example), and no CTA of the cluster issues it before all have read.
    asm volatile("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;" ::: "memory");
    cluster_sync();
    if (!ok) break;
    tile = x + rank;
  }
}
