// barriers.cu — CTA barriers beyond __syncthreads: named barriers with thread counts in a
// warp-specialised producer/consumer pipeline (the pre-mbarrier CUTLASS pattern), bar.red
// (__syncthreads_count/_and/_or and a named, counted bar.red), and __syncwarp with partial masks.
//
// Families: bar.sync 0 (__syncthreads), bar.sync/bar.arrive with barrier id and thread count
// (inline PTX, ids 1..4, 128 threads), barrier.sync / barrier.sync.aligned spellings with a
// count, bar.red.popc.u32 / bar.red.and.pred / bar.red.or.pred on barrier 0 (CUDA intrinsics) and
// bar.red.popc.u32 on a named barrier with a count (inline PTX), bar.warp.sync with partial masks,
// ld/st.shared ring buffer, loops over pipeline stages.
// Specs: barriers.json
//
// Block of 192 threads = 6 warps: warps 0-1 produce, warps 2-3 consume, warps 4-5 run an
// independent phase on their own barrier (id 5, 64 threads) at the same time.

constexpr int kStages = 2;
constexpr int kIters = 6;
constexpr int kGroup = 64;         // threads per role
constexpr int kPipeThreads = 128;  // producers + consumers on each pipeline barrier

__device__ __forceinline__ void named_sync(unsigned id, unsigned count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}
__device__ __forceinline__ void named_arrive(unsigned id, unsigned count) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}
// Barrier ids: FULL[s] = 1 + s (producers arrive, consumers wait), EMPTY[s] = 3 + s (reverse).
__device__ __forceinline__ unsigned full_bar(int s) {
  return 1 + s;
}
__device__ __forceinline__ unsigned empty_bar(int s) {
  return 3 + s;
}

extern "C" __global__ void barriers(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                    unsigned* __restrict__ red_out) {
  __shared__ unsigned ring[kStages][kGroup];
  __shared__ unsigned side[kGroup];
  const int tid = threadIdx.x;
  const unsigned gid = blockIdx.x * blockDim.x + tid;
  const unsigned v = in[gid];

  // bar.red on barrier 0, all 192 threads.
  const int cnt = __syncthreads_count(v & 1u);
  const int all = __syncthreads_and(v != 0u);
  const int any = __syncthreads_or((v & 0xffu) == 0x5au);
  if (tid == 0) {
    red_out[blockIdx.x * 4 + 0] = cnt;
    red_out[blockIdx.x * 4 + 1] = (all ? 1u : 0u) | (any ? 2u : 0u);
  }

  if (tid < kGroup) {
    // Producers: fill stage s once the consumers have released it.
    for (int it = 0; it < kIters; ++it) {
      const int s = it % kStages;
      if (it >= kStages) named_sync(empty_bar(s), kPipeThreads);
      ring[s][tid] = v * (unsigned)(it + 1) + (unsigned)it;
      named_arrive(full_bar(s), kPipeThreads);
    }
    out[gid] = v * (unsigned)kIters;
  } else if (tid < 2 * kGroup) {
    // Consumers: wait for stage s, fold it into an accumulator, release it.
    const int c = tid - kGroup;
    unsigned acc = 0;
    for (int it = 0; it < kIters; ++it) {
      const int s = it % kStages;
      named_sync(full_bar(s), kPipeThreads);
      acc = acc * 31u + ring[s][(c + it) % kGroup];  // read a neighbour's slot, not only our own
      // The last kStages releases would have no producer waiting for them: skip them so every
      // barrier phase that starts also completes.
      if (it < kIters - kStages) named_arrive(empty_bar(s), kPipeThreads);
    }
    out[gid] = acc;
    // A counted bar.red among the two consumer warps only (barrier 6, 64 threads).
    unsigned popc;
    asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 6, 64, p;}"
                 : "=r"(popc)
                 : "r"(acc & 1u)
                 : "memory");
    if (c == 0) red_out[blockIdx.x * 4 + 2] = popc;
  } else {
    // Side group: a shared-memory rotation synchronised on its own barrier (id 5, 64 threads),
    // with both spellings of the instruction.
    const int c = tid - 2 * kGroup;
    side[c] = v;
    asm volatile("barrier.sync 5, 64;" ::: "memory");
    unsigned x = side[(c + 1) % kGroup];
    asm volatile("barrier.sync.aligned 5, 64;" ::: "memory");
    side[c] = x ^ (unsigned)c;
    asm volatile("barrier.sync 5, 64;" ::: "memory");
    x += side[(c + 7) % kGroup];
    out[gid] = x;

    // __syncwarp with partial masks: the even lanes hand a value to the lane above.
    __shared__ unsigned pairs[kGroup];
    const unsigned lane = tid & 31;
    if ((lane & 1u) == 0) {
      pairs[c] = x * 3u;
      __syncwarp(0x55555555u);
    }
    __syncwarp();
    if (lane & 1u) {
      __syncwarp(0xaaaaaaaau);
      out[gid] += pairs[c - 1];
    }
  }

  // Everyone again: the pipeline results are visible to all after a full barrier.
  __syncthreads();
  if (tid == 0) {
    unsigned h = 0;
    for (int c = 0; c < kGroup; ++c) h = h * 131u + ring[(kIters - 1) % kStages][c] + side[c];
    red_out[blockIdx.x * 4 + 3] = h;
  }
}
