// global_semaphore.cu — the split-K serial reduction of CUTLASS (its Semaphore / "serial split-K"
// epilogue): CTA k waits until the semaphore counts k (thread 0 spins with ld.acquire.gpu, then
// __syncthreads), adds its partial sums into the shared output tile (CTA 0 stores it), then
// __syncthreads and thread 0 hands the tile on with red.release.gpu.add (PTX ISA §8.8: the
// release reduction orders the tile's stores before the next CTA's acquire that reads the count).
// global_semaphore_fenced is the form with __threadfence() (fence.sc.gpu) and a relaxed atomicAdd
// (fence-fence synchronisation through the relaxed atomic, PTX ISA §8.9.2 "Causality Order").
// The clean kernels of the global race detector's semaphore idiom (docs/checker.md
// "global-data-race"); kernels/bugs gs_semaphore_relaxed drops the release. Every CTA must be
// resident at once (4 CTAs).
// PTX: nvcc -ptx -arch=sm_90a -O3 -lineinfo global_semaphore.cu -o global_semaphore.ptx (CUDA 13.0).
// Spec: global_semaphore.json (4 blocks of 128 threads: out[i] = sum over k of (in[k*128 + i] + k)).

__device__ __forceinline__ void wait_turn(const unsigned* sem, unsigned k) {
  if (threadIdx.x == 0) {
    unsigned v = 0;
    do {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(sem) : "memory");
    } while (v != k);
  }
  __syncthreads();
}

__device__ __forceinline__ void add_partial(const unsigned* __restrict__ in, unsigned* out, unsigned k) {
  const unsigned t = threadIdx.x;
  const unsigned part = in[k * blockDim.x + t] + k;
  out[t] = k == 0 ? part : out[t] + part;
  __syncthreads();
}

extern "C" __global__ void global_semaphore(const unsigned* __restrict__ in, unsigned* out, unsigned* sem) {
  const unsigned k = blockIdx.x;
  wait_turn(sem, k);
  add_partial(in, out, k);
  if (threadIdx.x == 0) asm volatile("red.release.gpu.global.add.u32 [%0], 1;" ::"l"(sem) : "memory");
}

extern "C" __global__ void global_semaphore_fenced(const unsigned* __restrict__ in, unsigned* out, unsigned* sem) {
  const unsigned k = blockIdx.x;
  wait_turn(sem, k);
  add_partial(in, out, k);
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(sem, 1u);
  }
}
