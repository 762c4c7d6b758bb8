// launch.cu — what a kernel costs beyond its instructions: launch, CTA launch, the first
// instruction fetches. The launch_* kernels are timed by Nsight Compute (run_on_device.sh:
// sm__cycles_elapsed.max and gpu__time_duration.sum per launch, L2 flushed before each), the
// icache_* ones by %clock64:
//   launch_empty        <<<G, 128>>> for G = 1, 132, 264, 1056, 4224, 16896: fixed cost and the
//                       CTA launch rate (cycles per CTA beyond one wave)
//   launch_empty_clusterC  1056 CTAs in clusters of C = 2, 4
//   launch_one_load     <<<G, 128>>>, thread 0 of each CTA increments one word (a cold miss)
//   launch_chain        one thread, 4096 dependent fma.rn.f32 (a known in-kernel time)
//   launch_smem         <<<132, 128>>> with 200 KiB of dynamic shared memory
//   icache,straight_<N>.cold_per_instr   one thread runs N distinct instructions (N fma.rn.f32 on
//                       8 registers) once: (first pass - second pass) / N cycles per instruction
#include "kernels/ubench/ubench.cuh"

namespace ub {

__global__ void launch_empty() {}
__global__ void launch_empty_cluster() {}
__global__ void launch_one_load(uint32_t* p) {
  if (threadIdx.x == 0) p[blockIdx.x * 32] += 1;
}
__global__ void launch_chain(float a, float b, float* out) {
  float x = a;
  if (threadIdx.x == 0) {
#pragma unroll 64
    for (int i = 0; i < 4096; ++i) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(b));
    out[0] = x;
  }
}
__global__ void launch_smem(float* out) {
  extern __shared__ float s[];
  s[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  if (s[127 - threadIdx.x] < 0) out[0] = 1;
}

namespace {

template <int N>
__global__ void k_straight(float a, uint64_t* out, float* sinkp) {
  float x[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) x[j] = a + j;
  uint64_t t[3];
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    t[pass] = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x[i % 8]) : "f"(a), "f"(float(i)));
  }
  t[2] = clock64_();
  out[0] = t[1] - t[0];
  out[1] = t[2] - t[1];
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += x[j];
  sink(s, 1234.5f, sinkp);
}

template <int N>
void straight(uint64_t* d, float* sinkp) {
  std::vector<double> cold, warm;
  for (int rep = 0; rep < 3; ++rep) {
    k_straight<N><<<1, 1>>>(1.0f, d, sinkp);
    sync_check("straight");
    uint64_t h[2];
    UB_CHECK(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost));
    cold.push_back(double(h[0]));
    warm.push_back(double(h[1]));
  }
  row("icache", "straight_" + std::to_string(N) + ".cold_per_instr", (median(cold) - median(warm)) / N, "cycles",
      "first pass minus second pass over " + std::to_string(N) + " distinct fma.rn.f32, one thread (one launch each)");
  row("icache", "straight_" + std::to_string(N) + ".warm_per_instr", median(warm) / N, "cycles",
      "second pass per instruction");
}

}  // namespace

void run_launch() {
  uint32_t* p;
  UB_CHECK(cudaMalloc(&p, 16896 * 128));
  UB_CHECK(cudaMemset(p, 0, 16896 * 128));
  float* f;
  UB_CHECK(cudaMalloc(&f, 64));
  // The launches Nsight Compute measures (the run's log names them in this order).
  for (int g : {1, 132, 264, 1056, 4224, 16896}) launch_empty<<<g, 128>>>();
  for (int c : {2, 4}) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1056);
    cfg.blockDim = dim3(128);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = c;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    UB_CHECK(cudaLaunchKernelEx(&cfg, launch_empty_cluster));
  }
  for (int g : {1, 132, 1056}) launch_one_load<<<g, 128>>>(p);
  launch_chain<<<1, 32>>>(1.0f, 1.0f, f);
  UB_CHECK(cudaFuncSetAttribute(launch_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  launch_smem<<<132, 128, 200 * 1024>>>(f);
  sync_check("launch kernels");
  // The in-kernel time of launch_chain, for the overhead = ncu cycles - in-kernel cycles.
  std::printf("# launch kernels done\n");
  Clocks clk(2);
  straight<1024>(clk.d, f);
  straight<4096>(clk.d, f);
  straight<16384>(clk.d, f);
  cudaFree(p);
  cudaFree(f);
}

}  // namespace ub
