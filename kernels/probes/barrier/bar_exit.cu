// bar_exit: what a CTA barrier does when some of the CTA's threads have exited (PTX ISA §9.7.13.1
// "bar, barrier", §9.7.12 "exit"). One CTA of 256 threads (8 warps); some warps (or lanes) exit
// (`return`, EXIT in the SASS), the rest wait at a barrier with or without a thread count that
// includes the exited threads.
//
// A hang cannot be timed out inside the kernel (bar.sync blocks), so each case runs in its own
// process (`bar_exit I`, run_bar_exit.sh loops over them under `timeout`): the process launches,
// polls cudaStreamQuery for up to 1.5 s, prints what the waiting warps wrote to host-mapped memory
// and, on a hang, _exit()s: the driver tears the context down and ends the kernel.
//
// Output, one line per case: `NAME PASS|HANG passed=<rounds passed, per warp> wait_ns=<per warp>`.
// Build: nvcc -arch=sm_90a -O2 -o bar_exit bar_exit.cu
#include <cuda_runtime.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

// Barrier forms: 0 bar.sync 0; 1 bar.sync 0,N; 2 bar.sync 1,N; 3 barrier.sync 1,N; 4 barrier.sync 0.
struct Case {
  const char* name;
  int form, count;
  int stay;     // warps [0, stay) wait at the barrier; the others exit (or spin)
  int half;     // 1: in every warp lanes 16..31 exit and lanes 0..15 wait
  int late_ns;  // > 0: the non-waiting warps spin this long before they exit (waiters arrive first)
  int rounds;   // barriers in a row
  int forever;  // 1: the non-waiting warps never exit (negative control: must hang)
};

struct Shared {
  int passed[8];
  unsigned long long arrive[8], release[8];
};

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void bar_exit_kernel(volatile Shared* s, Case c) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (c.half ? lane >= 16 : warp >= c.stay) {
    const unsigned long long t0 = now_ns();
    while (c.forever || now_ns() - t0 < (unsigned long long)c.late_ns) {
    }
    return;
  }
  for (int r = 0; r < c.rounds; ++r) {
    if (lane == 0 && r == 0) s->arrive[warp] = now_ns();
    if (c.form == 0) asm volatile("bar.sync 0;" ::: "memory");
    if (c.form == 1) asm volatile("bar.sync 0, %0;" ::"r"(c.count) : "memory");
    if (c.form == 2) asm volatile("bar.sync 1, %0;" ::"r"(c.count) : "memory");
    if (c.form == 3) asm volatile("barrier.sync 1, %0;" ::"r"(c.count) : "memory");
    if (c.form == 4) asm volatile("barrier.sync 0;" ::: "memory");
    if (lane == 0) {
      if (r == 0) s->release[warp] = now_ns();
      s->passed[warp] = r + 1;
      __threadfence_system();
    }
  }
}

const Case kCases[] = {
    // name                      form count stay half late   rounds forever
    {"bar0_nocount_exit4",         0, 0,   4, 0, 0,       1, 0},
    {"barrier0_nocount_exit4",     4, 0,   4, 0, 0,       1, 0},
    {"bar1_128_exit4_control",     2, 128, 4, 0, 0,       1, 0},
    {"bar1_128_exit6",             2, 128, 2, 0, 0,       1, 0},
    {"bar1_256_exit4",             2, 256, 4, 0, 0,       1, 0},
    {"bar1_192_exit4",             2, 192, 4, 0, 0,       1, 0},
    {"bar0_256_exit4",             1, 256, 4, 0, 0,       1, 0},
    {"barrier1_256_exit4",         3, 256, 4, 0, 0,       1, 0},
    {"bar1_256_exit4_2rounds",     2, 256, 4, 0, 0,       2, 0},
    {"bar1_256_exit4_late1ms",     2, 256, 4, 0, 1000000, 1, 0},
    {"bar0_nocount_exit4_late1ms", 0, 0,   4, 0, 1000000, 1, 0},
    {"bar1_256_halflanes",         2, 256, 8, 1, 0,       1, 0},
    {"bar1_128_halflanes",         2, 128, 8, 1, 0,       1, 0},
    {"bar1_256_spin_control",      2, 256, 4, 0, 0,       1, 1},
};

int main(int argc, char** argv) {
  const int n = sizeof(kCases) / sizeof(kCases[0]);
  const int i = argc == 2 ? std::atoi(argv[1]) : -1;
  if (i < 0 || i >= n) return std::printf("%d cases\n", n), 2;
  const Case& c = kCases[i];
  Shared *s = nullptr, *d = nullptr;
  cudaHostAlloc(&s, sizeof(Shared), cudaHostAllocMapped);
  cudaHostGetDevicePointer(&d, s, 0);
  bar_exit_kernel<<<1, 256>>>(d, c);
  const auto t0 = std::chrono::steady_clock::now();
  cudaError_t e;
  while ((e = cudaStreamQuery(0)) == cudaErrorNotReady &&
         std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1500)) {
    usleep(1000);
  }
  std::string passed, wait;
  for (int w = 0; w < 8; ++w) {
    passed += std::to_string(((volatile Shared*)s)->passed[w]);
    const unsigned long long a = ((volatile Shared*)s)->arrive[w], r = ((volatile Shared*)s)->release[w];
    wait += (w ? "," : "") + (a && r ? std::to_string(r - a) : std::string("-"));
  }
  std::printf("%s %s passed=%s wait_ns=%s\n", c.name,
              e == cudaSuccess ? "PASS" : e == cudaErrorNotReady ? "HANG" : cudaGetErrorName(e), passed.c_str(),
              wait.c_str());
  std::fflush(stdout);
  if (e == cudaErrorNotReady) _exit(0);  // leave the hung context to the driver's teardown
  return 0;
}
