// dsmem_after_exit.cu — BROKEN ON PURPOSE: rank 1 of a 2-CTA cluster writes into rank 0's shared
// memory after a cluster barrier, but there is no cluster barrier before the CTAs exit, so rank 0
// may already be gone (its shared memory released) when the remote stores arrive. CUDA requires
// every CTA of a cluster to stay until its peers are done with its distributed shared memory.
//
// tcsim must report: the tolerated finding dsmem-exit-unordered at the remote stores (rank 0 exits
// with remote accesses not ordered before it by a barrier.cluster, or they come after its exit),
// naming both CTAs and the PTX line; --strict makes it an error. tcsim performs the stores (the
// H200 runs this pattern with remote arrivals: docs/cluster_lifetime.md); rank 0's read is racy.
// Spec: dsmem_after_exit.json.
#include "../../tma/async_util.cuh"

extern "C" __global__ void dsmem_after_exit(uint32_t* out) {
  __shared__ uint32_t box[128];
  const uint32_t r = ptx::get_sreg_cluster_ctarank();
  box[threadIdx.x] = 0;
  tk::cluster_sync();
  if (r == 1) {
    const uint32_t peer = tk::map_rank(tk::smem_u32(&box[threadIdx.x]), 0);
    for (uint32_t k = 0; k < 64; ++k)
      asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(peer), "r"(k) : "memory");
  } else {
    out[threadIdx.x] = box[threadIdx.x];  // racy read too: the stores may or may not have landed
  }
  // BUG: missing tk::cluster_sync() before exit
}
