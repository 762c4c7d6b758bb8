// forward_progress.cu — code that is only correct because warps and the threads of a warp make
// independent forward progress (sm_70+ independent thread scheduling), written as real CUDA code
// writes it.
//  flag_handoff: warps of a block form a chain through shared memory: warp w spins (acquire load,
//                __nanosleep back-off) until warp w-1 has published its data with a release store.
//  warp_lock:    per-account spin locks in shared memory taken by threads of the same warp: the
//                classic `while (atomicCAS(lock, 0, 1) != 0) {}` loop, which deadlocks on a
//                machine that keeps a diverged warp's losers spinning while the winner waits.
//
// Families: ld.acquire.cta / st.release.cta on shared memory (cuda::atomic_ref), nanosleep.u32,
// spin loops with divergent exits, atom.shared.cas.b32 / atom.shared.exch.b32 (lock / unlock),
// ld/st.volatile.shared inside the critical section, membar.cta (__threadfence_block).
// Specs: flag_handoff.json, warp_lock.json
//
// Results are deterministic: the chain fixes the order of the handoffs, and the locked updates
// are integer additions (their order does not change the sums).

#include <cuda/atomic>

extern "C" __global__ void flag_handoff(const unsigned* __restrict__ in,
                                        unsigned* __restrict__ out) {
  __shared__ unsigned data[32][32];  // one row per warp
  __shared__ unsigned ready[32];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (lane == 0) ready[warp] = 0;
  __syncthreads();

  unsigned v = in[gid];
  if (warp > 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> prev(ready[warp - 1]);
    while (prev.load(cuda::memory_order_acquire) == 0) __nanosleep(20);
    v += data[warp - 1][(lane + 1) & 31];  // the previous warp's published row
  }
  data[warp][lane] = v * 3u + warp;
  __syncwarp();
  if (lane == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> mine(ready[warp]);
    mine.store(1u, cuda::memory_order_release);
  }
  out[gid] = v;
}

constexpr int kAccounts = 8;

extern "C" __global__ void warp_lock(const unsigned* __restrict__ in,
                                     unsigned* __restrict__ balances) {
  __shared__ unsigned lock[kAccounts];
  __shared__ unsigned balance[kAccounts];
  __shared__ unsigned count[kAccounts];
  if (threadIdx.x < kAccounts) {
    lock[threadIdx.x] = 0;
    balance[threadIdx.x] = 0;
    count[threadIdx.x] = 0;
  }
  __syncthreads();

  const unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const unsigned k = v % kAccounts;
  while (atomicCAS(&lock[k], 0u, 1u) != 0u) {
  }
  // Critical section: plain (volatile) read-modify-write, protected by the lock.
  volatile unsigned* b = &balance[k];
  volatile unsigned* c = &count[k];
  *b = *b + (v >> 8 & 0xffu);
  *c = *c + 1u;
  __threadfence_block();
  atomicExch(&lock[k], 0u);

  __syncthreads();
  if (threadIdx.x < kAccounts) {
    balances[blockIdx.x * 2 * kAccounts + threadIdx.x] = balance[threadIdx.x];
    balances[blockIdx.x * 2 * kAccounts + kAccounts + threadIdx.x] = count[threadIdx.x];
  }
}
