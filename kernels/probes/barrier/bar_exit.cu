// bar_exit: what a CTA barrier does when some of the CTA's threads have exited (PTX ISA §9.7.13.1
// "bar, barrier", §9.7.12 "exit"). One CTA of 256 threads (8 warps); some warps (or lanes) exit, the
// rest wait at a barrier with or without a thread count that includes the exited threads.
//
// A hang cannot be timed out inside the kernel (bar.sync blocks), so every case runs in a child
// process: the child launches, polls cudaStreamQuery for up to HANG_MS, prints what the waiting warps
// wrote to host-mapped memory and, on a hang, _exit()s (the driver then tears the context down and
// ends the kernel). The parent also kills a child that outlives 4x HANG_MS.
//
// Output, one line per case: `case NAME: PASS|HANG passed=<per-warp rounds passed> wait_ns=<...>`.
// Build: nvcc -arch=sm_90a -O2 -o bar_exit bar_exit.cu
#include <cuda_runtime.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int kWarps = 8;
constexpr int kHangMs = 1500;

enum Form : int {
  BarSync0 = 0,        // bar.sync 0;            (all non-exited threads)
  BarSync0Count = 1,   // bar.sync 0, count;
  BarSync1Count = 2,   // bar.sync 1, count;
  BarrierSync1Count = 3,  // barrier.sync 1, count;   (non-aligned form)
  BarrierSync0 = 4,    // barrier.sync 0;
};

struct Case {
  const char* name;
  int form;
  int count;       // thread count operand (forms with a count)
  int stay_warps;  // warps [0, stay_warps) wait at the barrier; the others exit or spin
  int half_lanes;  // 1: in every warp lanes 16..31 exit, lanes 0..15 wait (stay_warps = 8)
  int late_ns;     // > 0: the non-waiting warps spin this long before they exit (waiters arrive first)
  int rounds;      // barriers in a row
  int spin_forever;  // 1: the non-waiting warps never exit (negative control: must hang)
};

struct Shared {
  volatile int passed[kWarps];
  volatile unsigned long long arrive_ns[kWarps];
  volatile unsigned long long release_ns[kWarps];
  volatile int stop;
};

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ void barrier(int form, int count) {
  switch (form) {
    case BarSync0: asm volatile("bar.sync 0;" ::: "memory"); break;
    case BarSync0Count: asm volatile("bar.sync 0, %0;" ::"r"(count) : "memory"); break;
    case BarSync1Count: asm volatile("bar.sync 1, %0;" ::"r"(count) : "memory"); break;
    case BarrierSync1Count: asm volatile("barrier.sync 1, %0;" ::"r"(count) : "memory"); break;
    case BarrierSync0: asm volatile("barrier.sync 0;" ::: "memory"); break;
  }
}

__global__ void bar_exit_kernel(Shared* s, Case c) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const bool waits = c.half_lanes ? lane < 16 : warp < c.stay_warps;
  if (!waits) {
    if (c.spin_forever) {
      while (!s->stop) {
      }
    } else if (c.late_ns > 0) {
      const unsigned long long t0 = now_ns();
      while (now_ns() - t0 < (unsigned long long)c.late_ns) {
      }
    }
    return;  // EXIT
  }
  for (int r = 0; r < c.rounds; ++r) {
    if (lane == 0 && r == 0) s->arrive_ns[warp] = now_ns();
    barrier(c.form, c.count);
    if (lane == 0) {
      if (r == 0) s->release_ns[warp] = now_ns();
      s->passed[warp] = r + 1;
      __threadfence_system();
    }
  }
}

const Case kCases[] = {
    // name                             form               count stay half late    rounds forever
    {"bar0_nocount_exit4",              BarSync0,          0,    4,   0,   0,      1,     0},
    {"barrier0_nocount_exit4",          BarrierSync0,      0,    4,   0,   0,      1,     0},
    {"bar1_128_exit4_control",          BarSync1Count,     128,  4,   0,   0,      1,     0},
    {"bar1_128_exit6",                  BarSync1Count,     128,  2,   0,   0,      1,     0},
    {"bar1_256_exit4",                  BarSync1Count,     256,  4,   0,   0,      1,     0},
    {"bar1_192_exit4",                  BarSync1Count,     192,  4,   0,   0,      1,     0},
    {"bar0_256_exit4",                  BarSync0Count,     256,  4,   0,   0,      1,     0},
    {"barrier1_256_exit4",              BarrierSync1Count, 256,  4,   0,   0,      1,     0},
    {"bar1_256_exit4_2rounds",          BarSync1Count,     256,  4,   0,   0,      2,     0},
    {"bar1_256_exit4_late1ms",          BarSync1Count,     256,  4,   0,   1000000, 1,    0},
    {"bar0_nocount_exit4_late1ms",      BarSync0,          0,    4,   0,   1000000, 1,    0},
    {"bar1_256_halflanes",              BarSync1Count,     256,  8,   1,   0,      1,     0},
    {"bar1_128_halflanes",              BarSync1Count,     128,  8,   1,   0,      1,     0},
    {"bar1_256_spin_control",           BarSync1Count,     256,  4,   0,   0,      1,     1},
};

int run_case(const Case& c) {
  Shared* s = nullptr;
  if (cudaHostAlloc(&s, sizeof(Shared), cudaHostAllocMapped) != cudaSuccess) {
    std::printf("case %s: ERROR cudaHostAlloc\n", c.name);
    return 1;
  }
  std::memset((void*)s, 0, sizeof(Shared));
  Shared* d = nullptr;
  cudaHostGetDevicePointer(&d, s, 0);
  bar_exit_kernel<<<1, kWarps * 32>>>(d, c);
  const auto t0 = std::chrono::steady_clock::now();
  cudaError_t e = cudaErrorNotReady;
  while ((e = cudaStreamQuery(0)) == cudaErrorNotReady &&
         std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(kHangMs)) {
    usleep(1000);
  }
  std::string passed, wait;
  for (int w = 0; w < kWarps; ++w) {
    passed += std::to_string(s->passed[w]);
    const unsigned long long a = s->arrive_ns[w], r = s->release_ns[w];
    wait += (w ? "," : "") + (a && r ? std::to_string(r - a) : std::string("-"));
  }
  const char* verdict = e == cudaSuccess ? "PASS" : e == cudaErrorNotReady ? "HANG" : cudaGetErrorName(e);
  std::printf("case %s: %s passed=%s wait_ns=%s\n", c.name, verdict, passed.c_str(), wait.c_str());
  std::fflush(stdout);
  if (e == cudaErrorNotReady) _exit(0);  // leave the hung context to the driver's teardown
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = sizeof(kCases) / sizeof(kCases[0]);
  if (argc == 2) {  // child: one case
    const int i = std::atoi(argv[1]);
    return i >= 0 && i < n ? run_case(kCases[i]) : 2;
  }
  for (int i = 0; i < n; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      execl("/proc/self/exe", argv[0], std::to_string(i).c_str(), (char*)nullptr);
      _exit(127);
    }
    const auto t0 = std::chrono::steady_clock::now();
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() - t0 > std::chrono::milliseconds(8 * kHangMs)) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        std::printf("case %s: KILLED (child outlived %d ms)\n", kCases[i].name, 8 * kHangMs);
        break;
      }
      usleep(10000);
    }
  }
  return 0;
}
