// halfword_neighbours.cu — two warps store the two 16-bit halves of the same 32-bit shared-memory
// words with no synchronisation between them (warp 0 the even halves, warp 1 the odd ones). Accesses
// of different bytes do not conflict (PTX ISA §8.7.1: a conflict needs overlapping memory), so this
// is race-free: the clean kernel of the race detector's byte granularity (docs/checker.md
// "shared-data-race"; the wgmma tests' operand staging does the same).
// PTX: nvcc -ptx -arch=sm_90a -O3 -lineinfo halfword_neighbours.cu -o halfword_neighbours.ptx (CUDA 13.0).
// Spec: halfword_neighbours.json (64 threads: out[t] = 3 * u + 1 where u wrote s[63 - t]).

extern "C" __global__ void halfword_neighbours(unsigned short* __restrict__ out) {
  __shared__ unsigned short s[64];
  const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  s[2 * lane + warp] = static_cast<unsigned short>(threadIdx.x * 3u + 1u);
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
