// named_barrier.cu — a warp-specialised handoff through shared memory ordered by a named barrier
// with a thread count (the idiom of CUTLASS's NamedBarrier: the producer warps `bar.arrive`, the
// consumer warps `bar.sync`, both on barrier 1 for the block's 128 threads; PTX ISA §9.7.13.1).
// The clean kernel of the race detector's named-barrier edge (docs/checker.md "shared-data-race");
// kernels/bugs/gen_bugs.py seeds the count-too-small bug into it.
// PTX: nvcc -ptx -arch=sm_90a -O3 -lineinfo named_barrier.cu -o named_barrier.ptx (CUDA 13.0).
// Spec: named_barrier.json (2 blocks of 128 threads: out[b*64 + i] = 3 * in[b*64 + 63 - i] + 1 + i).

extern "C" __global__ void named_barrier_handoff(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  __shared__ unsigned stage[64];
  const unsigned warp = threadIdx.x >> 5;
  if (warp < 2) {  // producers: stage a row, then arrive without waiting
    stage[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x] * 3u + 1u;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {  // consumers: wait for the producers, read the row reversed
    asm volatile("bar.sync 1, 128;" ::: "memory");
    const unsigned i = threadIdx.x - 64;
    out[blockIdx.x * 64 + i] = stage[63 - i] + i;
  }
}
