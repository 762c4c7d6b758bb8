// tensor.cu — Hopper tensor-core instructions (PTX ISA §9.7.15 wgmma.mma_async, §9.7.14 mma.sync),
// with the instruction wrappers of kernels/hopper/common/wgmma_ops.h and mma_ops.h:
//   wgmma,<shape>_ss.latency     one warpgroup: wgmma.fence, one wgmma (A, B from shared memory,
//                                no-swizzle K-major descriptors over zeros), commit_group,
//                                wait_group 0: issue -> wait returns, cycles
//   wgmma,<shape>_ss.ii          bursts of 32 and 128 wgmmas into one accumulator before one
//                                commit/wait: (t(128) - t(32)) / 96 cycles per wgmma
//   wgmma,<shape>_rand.ii        the same with non-zero operands (bf16 in [1, 2))
//   wgmma,<shape>_ss_2wg.ii      two warpgroups of one CTA, bursts into their own accumulators at
//                                once: cycles per wgmma per warpgroup (SM throughput = 2 / that)
//   wgmma,m64n256k16_bf16_rs.ii / .latency   A from registers
//   mma,m16n8k16_bf16.latency    mma.sync.m16n8k16.f32.bf16 dependent chain (D -> C), one warp
//   mma,m16n8k16_bf16.per_clk    32 warps x 4 independent accumulators: warp-mma per SM per clock
#include "kernels/hopper/common/mma_ops.h"
#include "kernels/hopper/common/ptx.cuh"
#include "kernels/hopper/common/wgmma_ops.h"
#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

// sm_90 shared-memory matrix descriptor (PTX ISA §9.7.15.5.1): start >> 4 in bits 0-13, LBO >> 4
// in 16-29, SBO >> 4 in 32-45, swizzle 62-63 = 0 (none).
__device__ __forceinline__ uint64_t desc(uint32_t addr) {
  return uint64_t((addr >> 4) & 0x3fff) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32);
}

template <class Op, bool RS>
__device__ __forceinline__ void one(typename Op::Acc (&d)[Op::kRegs], uint64_t a, const uint32_t (&ar)[4], uint64_t b) {
  if constexpr (RS) Op::rs(d, ar, b, 1, 0);
  else Op::ss0(d, a, b, 1);
}

// mode 0: latency (one wgmma per commit/wait); mode 1: bursts of `burst`.
template <class Op, bool RS>
__global__ void k_wgmma(int mode, int burst, int reps, int rnd, uint64_t* out, float* sinkp) {
  extern __shared__ __align__(1024) uint8_t smem[];
  // zeros, or (rnd) bf16 values in [1, 2) with hashed mantissas (e4m3: arbitrary finite bytes)
  for (int i = threadIdx.x; i < 24 * 1024 / 4; i += blockDim.x) {
    const uint32_t h = uint32_t(i) * 2654435761u;
    reinterpret_cast<uint32_t*>(smem)[i] = rnd ? (0x3f803f80u | ((h >> 9) & 0x007f007fu)) : 0u;
  }
  hopper::fence_proxy_async_smem();
  __syncthreads();
  const uint32_t base = hopper::smem_u32(smem);
  const uint64_t a = desc(base), b = desc(base + 4096);
  uint32_t ar[4] = {0, 0, 0, 0};
  typename Op::Acc d[Op::kRegs];
#pragma unroll
  for (int i = 0; i < Op::kRegs; ++i) d[i] = 0;
  uint64_t best = ~0ull;
  for (int r = 0; r < reps; ++r) {
    __syncthreads();  // two warpgroups start each burst together
    const uint64_t t0 = clock64_();
    hopper::wgmma_fence();
    if (mode == 0) {
      one<Op, RS>(d, a, ar, b);
    } else {
#pragma unroll 1
      for (int i = 0; i < burst; ++i) one<Op, RS>(d, a, ar, b);
    }
    hopper::wgmma_commit();
    hopper::wgmma_wait<0>();
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  if (threadIdx.x % 128 == 0) out[threadIdx.x / 128] = best;
  float s = 0;
#pragma unroll
  for (int i = 0; i < Op::kRegs; ++i) s += d[i];
  sink(s, 12345.f, sinkp);
}

template <class Op, bool RS = false>
void wgmma(const char* name, const char* detail, bool two_wg) {
  Clocks clk(4);
  float* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  UB_CHECK(cudaFuncSetAttribute(k_wgmma<Op, RS>, cudaFuncAttributeMaxDynamicSharedMemorySize, 32 * 1024));
  auto run = [&](int threads, int mode, int burst, int rnd = 0) {
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      k_wgmma<Op, RS><<<1, threads, 24 * 1024>>>(mode, burst, 8, rnd, clk.d, sinkp);
      sync_check(name);
      v.push_back(double(clk.get()[0]));
    }
    return median(v);
  };
  const std::string n = name;
  row("wgmma", n + ".latency", run(128, 0, 1), "cycles", std::string(detail) + ": fence + 1 wgmma + commit + wait 0");
  row("wgmma", n + ".ii", (run(128, 1, 128) - run(128, 1, 32)) / 96.0, "cycles",
      std::string(detail) + ": bursts of 128 vs 32 into one accumulator");
  row("wgmma", n + "_rand.ii", (run(128, 1, 128, 1) - run(128, 1, 32, 1)) / 96.0, "cycles",
      std::string(detail) + ": the same with non-zero operands");
  if (two_wg)
    row("wgmma", n + "_2wg.ii", (run(256, 1, 128) - run(256, 1, 32)) / 96.0, "cycles",
        std::string(detail) + ": two warpgroups at once, cycles per wgmma per warpgroup");
  cudaFree(sinkp);
}

using M = hopper::Mma_m16n8k16_f32_bf16_bf16_f32;

template <int N>
__global__ void k_mma_lat(uint64_t* out, float* sinkp) {
  uint32_t a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
  float d[4] = {0, 0, 0, 0};
  uint64_t best = ~0ull;
  for (int r = 0; r < 4; ++r) {
    const uint64_t t0 = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) M::mma(d, a, b, d);
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  if (threadIdx.x == 0) out[0] = best;
  sink(d[0] + d[1] + d[2] + d[3], 1234.f, sinkp);
}

__global__ void k_mma_tput(int iters, uint64_t* out, float* sinkp) {
  uint32_t a[4] = {threadIdx.x, 0, 0, 0}, b[2] = {0, 0};
  float d[4][4];
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) d[j][k] = float(j * 4 + k);  // distinct accumulators: no merging
  __syncthreads();
  const uint64_t t0 = clock64_();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) M::mma(d[j], a, b, d[j]);
  }
  __syncthreads();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  float s = 0;
  for (int j = 0; j < 4; ++j) s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
  sink(s, 1234.f, sinkp);
}

}  // namespace

void run_tensor() {
  wgmma<hopper::Wgmma_m64n64k16_f32_bf16_bf16>("m64n64k16_bf16_ss", "wgmma m64n64k16 bf16 -> f32, SS", true);
  wgmma<hopper::Wgmma_m64n128k16_f32_bf16_bf16>("m64n128k16_bf16_ss", "wgmma m64n128k16 bf16 -> f32, SS", true);
  wgmma<hopper::Wgmma_m64n256k16_f32_bf16_bf16>("m64n256k16_bf16_ss", "wgmma m64n256k16 bf16 -> f32, SS", true);
  wgmma<hopper::Wgmma_m64n256k16_f32_bf16_bf16, true>("m64n256k16_bf16_rs", "wgmma m64n256k16 bf16 -> f32, RS", false);
  wgmma<hopper::Wgmma_m64n256k32_f32_e4m3_e4m3>("m64n256k32_e4m3_ss", "wgmma m64n256k32 e4m3 -> f32, SS", false);
  Clocks clk(2);
  float* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      k_mma_lat<32><<<1, 32>>>(clk.d, sinkp);
      k_mma_lat<64><<<1, 32>>>(clk.d + 1, sinkp);
      sync_check("mma lat");
      const auto h = clk.get();
      v.push_back((double(h[1]) - double(h[0])) / 32.0);
    }
    row("mma", "m16n8k16_bf16.latency", median(v), "cycles", "mma.sync m16n8k16 bf16 -> f32, D -> C chain, one warp");
  }
  {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      k_mma_tput<<<1, 1024>>>(64, clk.d, sinkp);
      sync_check("mma tput");
      v.push_back(32.0 * 64 * 8 * 4 / double(clk.get()[0]));
    }
    row("mma", "m16n8k16_bf16.per_clk", median(v), "warp-mma/clk/SM", "32 warps x 4 independent accumulators");
  }
  cudaFree(sinkp);
}

}  // namespace ub
