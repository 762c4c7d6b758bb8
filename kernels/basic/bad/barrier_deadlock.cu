// barrier_deadlock.cu — BAD INPUT: a named barrier that some threads never reach. Barrier 1
// expects 128 threads (the whole 4-warp block), but warp 3 leaves the kernel without arriving,
// so warps 0-2 wait forever. Do not run on a GPU (it hangs).
// Expected: tcsim run reports a barrier deadlock: barrier 1, expected 128 threads, 96 arrived
// (warps 0, 1, 2 at the PTX line of bar.sync), warp 3 exited; exit code 2.

extern "C" __global__ void barrier_deadlock(unsigned* out) {
  const unsigned warp = threadIdx.x >> 5;
  if (warp == 3) return;
  asm volatile("bar.sync 1, 128;" ::: "memory");
  out[threadIdx.x] = warp;
}
