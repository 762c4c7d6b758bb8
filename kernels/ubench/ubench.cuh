// ubench.cuh — what every H200 microbenchmark of kernels/ubench shares: error checks, the result
// line format, and the clock reads.
//
// Every benchmark prints one CSV row per measured figure:
//   group,name,value,unit,detail
// e.g. `pipe,fma_f32.latency,4.02,cycles,"fma.rn.f32 dependent chain"`. run_on_device.sh collects
// the rows into results/<gpu>-<date>/ubench.csv; models/timing/h200.txt cites them by group,name.
//
// Method (the same in every file): latencies are dependent chains of N and 2N instructions timed
// with %clock64 by one thread, (t(2N) - t(N)) / N, so the loop and clock overheads cancel;
// throughputs are one CTA of many warps on one SM, each warp running independent chains, timed by
// %clock64 between two bar.sync, reported per SM per cycle. Values are medians of 5 runs.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define UB_CHECK(x)                                                                            \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

namespace ub {

__device__ __forceinline__ uint64_t clock64_() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// Keeps a value alive without storing it in the common case (the branch is never taken for the
// inputs the benchmarks pass, but the compiler cannot know that).
template <class T>
__device__ __forceinline__ void sink(T v, T never, T* out) {
  if (v == never) *out = v;
}

inline void row(const char* group, const std::string& name, double value, const char* unit,
                const std::string& detail) {
  std::printf("%s,%s,%.3f,%s,\"%s\"\n", group, name.c_str(), value, unit, detail.c_str());
  std::fflush(stdout);
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// A device buffer of `n` uint64 that kernels write their cycle counts into.
struct Clocks {
  uint64_t* d = nullptr;
  size_t n;
  explicit Clocks(size_t n_) : n(n_) { UB_CHECK(cudaMalloc(&d, n * sizeof(uint64_t))); UB_CHECK(cudaMemset(d, 0, n * 8)); }
  ~Clocks() { cudaFree(d); }
  std::vector<uint64_t> get() const {
    std::vector<uint64_t> h(n);
    UB_CHECK(cudaMemcpy(h.data(), d, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    return h;
  }
};

inline void sync_check(const char* what) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

// Entry points, one per file.
void run_pipes();
void run_smem();
void run_memory();
void run_tma();
void run_sync();
void run_tensor();
void run_launch();
void run_cold();
void run_gaps();
void run_tma_queue();
void run_outliers();
void run_rec3();  // outliers.cu: what a divergent recursion leaves behind

// cuTensorMapEncodeTiled through the runtime's driver entry point (no -lcuda): tma.cu, tma_queue.cu.
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  UB_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  if (!fn) {
    std::fprintf(stderr, "no cuTensorMapEncodeTiled\n");
    std::exit(2);
  }
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

}  // namespace ub
