// wrong_parity.cu — BROKEN ON PURPOSE: a 2-stage TMA ring whose consumers forget to flip the
// phase parity when the ring wraps (they always wait for parity 0). In the second round the wait
// on full[s] for parity 0 returns at once — phase 0 completed long ago — and the consumers read
// the stage while the round-2 TMA load is still writing it.
//
// tcsim must report: a race — ld.shared of stage s while the cp.async.bulk.tensor of tile k = 2
// (or 3) that writes it is in flight; the try_wait.parity(0) that let the reader through was
// satisfied by phase 0, which the same thread had already observed (the current phase being 1,
// i.e. a wait on a stale parity). On hardware the output is whatever the race gives.
// Spec: wrong_parity.json.
#include "../async_util.cuh"

extern "C" __global__ void wrong_parity(const __grid_constant__ CUtensorMap tm, uint32_t ntiles, uint32_t* out) {
  __shared__ alignas(1024) uint32_t stage[2][1024];  // 2 x (32 x 32 u32)
  __shared__ uint64_t full[2], empty[2];
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], 1);
    }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      for (uint32_t k = 0; k < ntiles; ++k) {
        const uint32_t s = k % 2;
        tk::wait_parity(&empty[s], ((k / 2) & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], 4096);
        const int32_t c[2] = {0, static_cast<int32_t>(32 * k)};
        ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, stage[s], &tm, c, &full[s]);
      }
    }
  } else {
    for (uint32_t k = 0; k < ntiles; ++k) {
      const uint32_t s = k % 2;
      tk::wait_parity(&full[s], 0);  // BUG: should be (k / 2) & 1
      for (uint32_t i = lane; i < 1024; i += 32) out[k * 1024 + i] = stage[s][i];
      __syncwarp();
      if (lane == 0) ptx::mbarrier_arrive(&empty[s]);
    }
  }
}
