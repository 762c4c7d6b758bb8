// trap.cu — BAD INPUT: a kernel that executes trap (CUDA __trap()) when it detects bad data, as
// assertion-style checks in real kernels do. On a GPU the launch fails with an illegal-instruction
// error (the context is then unusable).
// Expected: tcsim run reports that the kernel trapped: kernel, PTX line of trap, CTA, warp and the
// lanes that executed it; exit code 2.

extern "C" __global__ void trap_on_negative(const int* in, int* out) {
  const int v = in[threadIdx.x];
  if (v < 0) __trap();
  out[threadIdx.x] = v * 2;
}
