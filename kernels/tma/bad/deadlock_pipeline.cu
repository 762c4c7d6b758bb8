// deadlock_pipeline.cu — BROKEN ON PURPOSE: the producer of a 2-stage TMA ring waits for its
// empty slots with the consumers' parity convention (parity 0 in the first round, as if the slots
// had to be released first). A fresh mbarrier is in phase 0, so that wait can only succeed after a
// consumer release — and the consumers are waiting for data the producer never sends.
//
// tcsim must report: deadlock — no warp can progress and no asynchronous operation is in flight;
// warp 0 (lane 0) blocked at the try_wait.parity on empty[0] (phase 0, pending arrivals 1 of 1,
// tx-count 0); warps 1..2 blocked at the try_wait.parity on full[0] (phase 0, pending 1 of 1,
// tx-count 0); each with its PTX line. On hardware the kernel hangs (the runner's timeout).
// Spec: deadlock_pipeline.json.
#include "../async_util.cuh"

extern "C" __global__ void deadlock_pipeline(const __grid_constant__ CUtensorMap tm, uint32_t ntiles, uint32_t* out) {
  __shared__ alignas(1024) uint32_t stage[2][1024];
  __shared__ uint64_t full[2], empty[2];
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 2);  // two consumer warps release a slot
    }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      for (uint32_t k = 0; k < ntiles; ++k) {
        const uint32_t s = k % 2;
        tk::wait_parity(&empty[s], (k / 2) & 1);  // BUG: should be ((k / 2) & 1) ^ 1
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], 4096);
        const int32_t c[2] = {0, static_cast<int32_t>(32 * k)};
        ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, stage[s], &tm, c, &full[s]);
      }
    }
  } else {
    for (uint32_t k = 0; k < ntiles; ++k) {
      const uint32_t s = k % 2;
      tk::wait_parity(&full[s], (k / 2) & 1);
      for (uint32_t i = lane; i < 512; i += 32) out[k * 1024 + (warp - 1) * 512 + i] = stage[s][(warp - 1) * 512 + i];
      __syncwarp();
      if (lane == 0) ptx::mbarrier_arrive(&empty[s]);
    }
  }
}
