// mbarrier_ops.cu — the mbarrier object's rules, observed: phase completion needs pending arrivals
// == 0 AND tx-count == 0; test_wait / try_wait in state and parity forms; the "preceding phase"
// convention of parity waits; arrive with a count, arrive.noComplete + pending_count,
// expect_tx / complete_tx (tx-count driven by hand, no data), arrive_drop (a warp leaving a
// recurring barrier), inval and re-init, release/acquire data hand-off between warps.
//
// Families: mbarrier.init / inval / arrive (no count, count, .relaxed.cta) / arrive.noComplete /
// pending_count / arrive.expect_tx / expect_tx / complete_tx / arrive_drop / test_wait{.parity} /
// try_wait{.parity} with and without suspendTimeHint, .acquire.cluster scope. PTX ISA §9.7.13.15.
// Spec: mbarrier_ops.json (1 CTA of 128 threads).
//
// Output `seq` (u32[32]): part A, thread 0 alone on barrier A; every entry is fixed by the PTX
// rules because no other thread touches A (1 = the wait returned true, 0 = false):
//   A.init(2)                                       phase 0, pending 2
//   [0] test_wait.parity(0) = 0   [1] test_wait.parity(1) = 1 (parity of the preceding phase)
//   s1 = arrive                   [2] test_wait(s1) = 0                      pending 1
//   expect_tx(32); s2 = arrive    [3] test_wait(s2) = 0   [4] test_wait.parity(0) = 0 (tx 32 left)
//   complete_tx(16)               [5] test_wait.parity(0) = 0                tx 16
//   complete_tx(16)   -> phase 1  [6] test_wait.parity(0) = 1   [7] test_wait(s1) = 1
//                                 [8] test_wait.parity(1) = 0
//   [9]  try_wait.parity(1, hint 1000 ns) = 0     (nothing can complete phase 1)
//   s3 = arrive.noComplete(1)     [10] pending_count(s3) = 2: the state is taken before the
//                                      arrive-on (§9.7.13.15.13; measured on the H200)
//   [11] try_wait(s3, hint 1000 ns) = 0
//   arrive.expect_tx(16)          [12] test_wait(s3) = 0                     pending 0, tx 16
//   complete_tx(16)   -> phase 2  [13] try_wait(s3) = 1
//   arrive(count 2)   -> phase 3  [14] test_wait.parity(0) = 1   [15] test_wait.parity(1) = 0
//   inval; init(1)                [16] test_wait.parity(0) = 0
//   arrive            -> phase 1  [17] test_wait.parity(0) = 1
//   arrive.relaxed.cta -> phase 2 [18] try_wait.parity.acquire.cluster(1) = 1
//   [19] = 0xC0FFEE (end marker)
// Part B, barrier B with one arrival per warp (expected 4): 4 rounds; every warp's lane 0 writes
// data[w][r] = 1000 * (w + 1) + r and arrives (release); in round 1 warp 3 arrives with
// arrive_drop and leaves, so rounds 2 and 3 complete with 3 arrivals. After waiting, lane 0 of each
// waiting warp w stores sum_b[w][r] = sum of data[v][r] over the warps v that arrived in round r:
//   rounds 0, 1: 1000*(1+2+3+4) + 4r = 10000 + 4r;  rounds 2, 3: 1000*(1+2+3) + 3r = 6000 + 3r;
//   warp 3 waits in round 0 only: sum_b[3][1..3] keep their initial value (0xFFFFFFFF).
// Part C, barrier C with all 128 threads arriving (state-token waits, as cuda::barrier does): two
// phases; thread i writes x[i] = i * i (+ 1 in the second phase) before arriving, and after the
// wait stores nb_c[p][i] = x[(i + 1) % 128] + x[(i + 127) % 128].
#include "async_util.cuh"

namespace {

__device__ __forceinline__ uint32_t b2u(bool b) { return b ? 1u : 0u; }

__device__ __forceinline__ uint32_t pending_count(uint64_t state) {
  uint32_t n;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n) : "l"(state));
  return n;
}
__device__ __forceinline__ void inval(uint64_t* bar) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(tk::smem_u32(bar)) : "memory");
}
__device__ __forceinline__ uint64_t arrive_count(uint64_t* bar, uint32_t count) {
  uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;"
               : "=l"(state) : "r"(tk::smem_u32(bar)), "r"(count) : "memory");
  return state;
}

}  // namespace

extern "C" __global__ void mbarrier_ops(uint32_t* seq, uint32_t* sum_b, uint32_t* nb_c) {
  __shared__ uint64_t A, B, C;
  __shared__ uint32_t data[4][4];
  __shared__ uint32_t x[128];
  const uint32_t tid = threadIdx.x, warp = tid / 32, lane = tid % 32;

  // ---- Part A: one thread, the rules of a phase. ----
  if (tid == 0) {
    uint32_t r[20];
    ptx::mbarrier_init(&A, 2);
    r[0] = b2u(ptx::mbarrier_test_wait_parity(&A, 0));
    r[1] = b2u(ptx::mbarrier_test_wait_parity(&A, 1));
    const uint64_t s1 = ptx::mbarrier_arrive(&A);
    r[2] = b2u(ptx::mbarrier_test_wait(&A, s1));
    ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &A, 32);
    const uint64_t s2 = ptx::mbarrier_arrive(&A);
    r[3] = b2u(ptx::mbarrier_test_wait(&A, s2));
    r[4] = b2u(ptx::mbarrier_test_wait_parity(&A, 0));
    tk::complete_tx(&A, 16);
    r[5] = b2u(ptx::mbarrier_test_wait_parity(&A, 0));
    tk::complete_tx(&A, 16);
    r[6] = b2u(ptx::mbarrier_test_wait_parity(&A, 0));
    r[7] = b2u(ptx::mbarrier_test_wait(&A, s1));
    r[8] = b2u(ptx::mbarrier_test_wait_parity(&A, 1));
    r[9] = b2u(ptx::mbarrier_try_wait_parity(&A, 1, 1000));
    const uint64_t s3 = ptx::mbarrier_arrive_no_complete(&A, 1);
    r[10] = pending_count(s3);
    r[11] = b2u(ptx::mbarrier_try_wait(&A, s3, 1000));
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &A, 16);
    r[12] = b2u(ptx::mbarrier_test_wait(&A, s3));
    tk::complete_tx(&A, 16);
    r[13] = b2u(ptx::mbarrier_try_wait(&A, s3));
    arrive_count(&A, 2);
    r[14] = b2u(ptx::mbarrier_test_wait_parity(&A, 0));
    r[15] = b2u(ptx::mbarrier_test_wait_parity(&A, 1));
    inval(&A);
    ptx::mbarrier_init(&A, 1);
    r[16] = b2u(ptx::mbarrier_test_wait_parity(&A, 0));
    ptx::mbarrier_arrive(&A);
    r[17] = b2u(ptx::mbarrier_test_wait_parity(&A, 0));
    ptx::mbarrier_arrive(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &A);
    r[18] = b2u(ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cluster, &A, 1));
    r[19] = 0xC0FFEEu;
    inval(&A);
    for (int i = 0; i < 20; ++i) seq[i] = r[i];

    ptx::mbarrier_init(&B, 4);
    ptx::mbarrier_init(&C, blockDim.x);
  }
  __syncthreads();

  // ---- Part B: a recurring per-warp barrier that warp 3 leaves with arrive_drop. ----
  for (uint32_t r = 0; r < 4; ++r) {
    if (warp == 3 && r >= 2) break;  // gone since round 1
    if (lane == 0) {
      data[warp][r] = 1000 * (warp + 1) + r;
      if (warp == 3 && r == 1)
        tk::arrive_drop(&B);
      else
        ptx::mbarrier_arrive(&B);
    }
    __syncwarp();
    if (warp == 3 && r == 1) break;  // dropped out: it must not wait on a barrier it left
    tk::wait_parity(&B, r & 1);
    if (lane == 0) {
      const uint32_t arrived = r < 2 ? 4 : 3;
      uint32_t s = 0;
      for (uint32_t v = 0; v < arrived; ++v) s += data[v][r];
      sum_b[warp * 4 + r] = s;
    }
  }

  // ---- Part C: every thread arrives and waits on its own state token. ----
  for (uint32_t p = 0; p < 2; ++p) {
    x[tid] = tid * tid + p;
    const uint64_t token = ptx::mbarrier_arrive(&C);
    if (p == 0) {
      while (!ptx::mbarrier_try_wait(&C, token)) {
      }
    } else {
      while (!ptx::mbarrier_try_wait(ptx::sem_acquire, ptx::scope_cluster, &C, token, 2000)) {
      }
    }
    nb_c[p * blockDim.x + tid] = x[(tid + 1) % blockDim.x] + x[(tid + blockDim.x - 1) % blockDim.x];
    // Everyone must have read x before the next phase overwrites it.
    __syncthreads();
  }
}
