// missing_expect_tx.cu — BROKEN ON PURPOSE: the producer arrives on the mbarrier without
// announcing the TMA's transaction bytes (plain mbarrier.arrive instead of arrive.expect_tx).
// Phase 0 then completes at that arrive (pending 0, tx-count 0), before any byte landed; the
// consumers' wait returns at once and they read the TMA destination while the copy is in flight.
// The copy's complete_tx later lands on phase 1 and drives its tx-count to -4096.
//
// tcsim must report: a race — ld.shared of the TMA destination (this file's consumer loop) while
// the cp.async.bulk.tensor that writes it is still in flight, its mbarrier phase 0 having completed
// with no expected transaction bytes (missing expect_tx); and, at exit, mbarrier `full` left in
// phase 1 with pending 1 and tx-count -4096. On hardware the output is whatever the race gives.
// Spec: missing_expect_tx.json.
#include "../async_util.cuh"

extern "C" __global__ void missing_expect_tx(const __grid_constant__ CUtensorMap tm, uint32_t* out) {
  __shared__ alignas(1024) uint32_t tile[1024];  // box 32 x 32 u32 = 4096 bytes
  __shared__ uint64_t full;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&full, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive(&full);  // BUG: should be mbarrier_arrive_expect_tx(..., 4096)
    const int32_t c[2] = {0, 0};
    ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, tile, &tm, c, &full);
  }
  tk::wait_parity(&full, 0);
  for (uint32_t i = threadIdx.x; i < 1024; i += blockDim.x) out[i] = tile[i];
}
