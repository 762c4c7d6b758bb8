// infinite_loop.cu — BAD INPUT: never terminates. A spin on a flag that no one ever sets (the
// volatile load cannot be hoisted, so the loop really runs forever). Do not run on a GPU.
// Expected: tcsim run stops it with a livelock report naming the kernel, the PTX and CUDA line
// of the loop, the flag's address and the value read; exit code 2.

extern "C" __global__ void infinite_loop(volatile unsigned* flag, unsigned* out) {
  unsigned spins = 0;
  while (*flag == 0u) ++spins;  // flag is 0 and nothing writes it
  out[threadIdx.x] = spins;
}
