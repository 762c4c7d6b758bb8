// mbarrier_never_completes.cu — BROKEN ON PURPOSE: an mbarrier phase that nothing can complete.
//   mode 0: init count 2, but only one thread ever arrives (a missing arrival);
//   mode 1: the producer expects 8192 transaction bytes for a 4096-byte box (tx never reaches 0).
// Every thread then waits on parity 0.
//
// tcsim must report: deadlock — all warps blocked at the try_wait.parity on `bar` (its address),
// phase 0, and: mode 0: pending arrivals 1 (of 2), tx-count 0; mode 1: pending arrivals 0,
// tx-count 4096 (8192 expected, 4096 delivered by the completed TMA load). On hardware it hangs.
// Specs: mbarrier_never_completes_arrival.json (mode 0), mbarrier_never_completes_tx.json (mode 1).
#include "../async_util.cuh"

extern "C" __global__ void mbarrier_never_completes(const __grid_constant__ CUtensorMap tm, uint32_t mode, uint32_t* out) {
  __shared__ alignas(1024) uint32_t tile[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, mode == 0 ? 2 : 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                   mode == 0 ? 4096u : 8192u);
    const int32_t c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, tile, &tm, c, &bar);
  }
  tk::wait_parity(&bar, 0);
  for (uint32_t i = threadIdx.x; i < 1024; i += blockDim.x) out[i] = tile[i];
}
