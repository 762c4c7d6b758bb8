// global_flag.cu — a producer CTA publishes a row of global memory to a consumer CTA through a
// flag in global memory: the producer's threads store the row, __syncthreads, thread 0 stores the
// flag with st.release.gpu; the consumer's thread 0 spins on the flag with ld.acquire.gpu, then
// __syncthreads, and its threads read the row (PTX ISA §8.8 "Release and Acquire Patterns": the
// release store and the acquire load that reads it order the row's stores before the reads).
// The clean kernel of the global race detector's release/acquire edge (docs/checker.md
// "global-data-race"); kernels/bugs gf_flag_release_relaxed / gf_flag_acquire_relaxed make one side
// relaxed. Both CTAs must be resident at once (2 CTAs).
// PTX: nvcc -ptx -arch=sm_90a -O3 -lineinfo global_flag.cu -o global_flag.ptx (CUDA 13.0).
// Spec: global_flag.json (2 blocks of 128 threads: out[i] = in[i] * 5 + 2 + i).

extern "C" __global__ void global_flag(const unsigned* __restrict__ in, unsigned* row, unsigned* flag,
                                       unsigned* __restrict__ out) {
  const unsigned t = threadIdx.x;
  if (blockIdx.x == 0) {  // producer
    row[t] = in[t] * 5u + 2u;
    __syncthreads();
    if (t == 0) asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(1u) : "memory");
  } else {  // consumer
    if (t == 0) {
      unsigned v = 0;
      do {
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
      } while (v == 0);
    }
    __syncthreads();
    out[t] = row[t] + t;
  }
}
