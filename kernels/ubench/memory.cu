// memory.cu — the global memory hierarchy (PTX ISA §9.7.9.8 ld with .ca/.cg, §9.7.13.5 atom, §9.7.13.6
// red):
//   mem,l1_hit.latency / l2_hit.latency / hbm.latency   one thread, pointer chase (128 B apart,
//         a permutation of the lines) over 8 KiB (.ca, warm), 4 MiB (.cg, warm) and 512 MiB after
//         a 1 GiB sweep flushed the L2; cycles per dependent load
//   mem,hbm_first_touch.latency   one thread reads 64 lines of a buffer nobody touched since the
//         flush, each load's address depending on the previous value (sequential lines)
//   mem,hbm_read.bw / hbm_write.bw / hbm_copy.bw   GB/s over 2 GiB, 16-byte accesses, all SMs
//   mem,one_sm_hbm_read.bw        GB/s of one CTA of 1024 threads streaming 64 MiB (one SM's reach)
//   mem,l2_read.bw                GB/s reading an 8 MiB buffer 64 times (L2-resident), all SMs
//   mem,l1_coalesced.warp_per_clk / l1_lines32.warp_per_clk   ld.global.ca from an L1-resident
//         8 KiB buffer, one line vs 32 lines per warp-instruction, 32 warps on one SM
//   mem,atom_global.latency       atom.global.add.u32 dependent chain, one thread
//   mem,red_global_distinct.per_ns / red_global_same.per_ns   red.global.add.u32 from all SMs
#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

template <int N, bool CG>
__global__ void k_chase(const uint64_t* a, uint64_t start, uint64_t* out, uint64_t* sinkp, int reps) {
  uint64_t x = start;
  uint64_t best = ~0ull;
  for (int r = 0; r < reps; ++r) {
    const uint64_t t0 = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) {
      if (CG) asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(x) : "l"(a + x));
      else asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(x) : "l"(a + x));
    }
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  out[0] = best;
  *sinkp = x;
}

// Each line (16 uint64) points to the line `stride_lines` further, mod n_lines (a permutation when
// gcd(stride, n) == 1).
__global__ void k_init_chase(uint64_t* a, uint64_t n_lines, uint64_t stride_lines) {
  for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n_lines; i += gridDim.x * blockDim.x)
    a[i * 16] = ((i + stride_lines) % n_lines) * 16;
}

__global__ void k_sweep(const uint4* a, uint64_t n, uint32_t* sinkp) {
  uint32_t acc = 0;
  for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint4 v = __ldcg(a + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  sink(acc, 0x12345678u, sinkp);
}

__global__ void k_write(uint4* a, uint64_t n) {
  for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    __stcg(a + i, make_uint4(uint32_t(i), 1, 2, 3));
}

__global__ void k_copy(const uint4* a, uint4* b, uint64_t n) {
  for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) __stcg(b + i, __ldcg(a + i));
}

__global__ void k_l2_read(const uint4* a, uint64_t n, int reps, uint32_t* sinkp) {
  uint32_t acc = 0;
  for (int r = 0; r < reps; ++r)
    for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
      const uint4 v = __ldcg(a + (i + r * 977) % n);
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  sink(acc, 0x12345678u, sinkp);
}

// First touch: line i holds the index of line i+1 (written by k_init_chase with stride 1).
__global__ void k_first_touch(const uint64_t* a, uint64_t start, uint64_t* out, uint64_t* sinkp) {
  uint64_t x = start;
  const uint64_t t0 = clock64_();
#pragma unroll 1
  for (int i = 0; i < 64; ++i) asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(x) : "l"(a + x));
  const uint64_t t1 = clock64_();
  out[0] = t1 - t0;
  *sinkp = x;
}

// Loads at p + ((it * 16 + i) & mask) * 2048 words: 8 distinct 8 KiB-apart places for mask = 7
// (64 KiB in all, L1-resident), which ptxas cannot prove equal, so it keeps every load.
template <int LINES>
__global__ void k_l1_tput(const uint32_t* a, int iters, uint32_t mask, uint64_t* out, uint32_t* sinkp) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t* p = a + (LINES == 1 ? lane : lane * 32);
  uint32_t acc = 0;
  for (uint32_t i = 0; i <= mask; ++i) acc += __ldca(p + i * 2048);  // warm
  __syncthreads();
  const uint64_t t0 = clock64_();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      uint32_t v;
      asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p + ((uint32_t(it) * 16 + i) & mask) * 2048));
      acc += v;
    }
  }
  __syncthreads();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  sink(acc, 0xdeadbeefu, sinkp);
}

template <int N>
__global__ void k_atom_lat(uint32_t* a, uint32_t zero, uint64_t* out, uint32_t* sinkp) {
  uint32_t x = 0;
  uint64_t best = ~0ull;
  for (int r = 0; r < 3; ++r) {
    const uint64_t t0 = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(x) : "l"(a + (x & zero)) : "memory");
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  out[0] = best;
  *sinkp = x;
}

__global__ void k_red(uint32_t* a, uint32_t mask, int iters) {
  const uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) & mask;
  for (int k = 0; k < iters; ++k) asm volatile("red.global.add.u32 [%0], 1;" ::"l"(a + i) : "memory");
}

float time_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  UB_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

}  // namespace

void run_memory() {
  int sms = 0;
  UB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  Clocks clk(2);
  uint64_t* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  const uint64_t big_bytes = 1ull << 30;  // 1 GiB flush / bandwidth buffer (x2 for copy)
  uint4 *A, *B;
  UB_CHECK(cudaMalloc(&A, big_bytes));
  UB_CHECK(cudaMalloc(&B, big_bytes));
  UB_CHECK(cudaMemset(A, 1, big_bytes));
  UB_CHECK(cudaMemset(B, 2, big_bytes));
  const uint64_t n16 = big_bytes / 16;
  auto flush = [&] { k_sweep<<<sms * 4, 512>>>(B, n16, reinterpret_cast<uint32_t*>(sinkp)); sync_check("flush"); };

  uint64_t* chase;
  const uint64_t chase_bytes = 512ull << 20;
  UB_CHECK(cudaMalloc(&chase, chase_bytes));
  auto lat = [&](uint64_t bytes, uint64_t stride, bool cg, bool flush_first, int reps) {
    const uint64_t lines = bytes / 128;
    k_init_chase<<<sms * 4, 256>>>(chase, lines, stride);
    sync_check("init chase");
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      if (flush_first) flush();
      if (cg) {
        k_chase<32, true><<<1, 1>>>(chase, 0, clk.d, sinkp, reps);
        if (flush_first) flush();
        k_chase<64, true><<<1, 1>>>(chase, 0, clk.d + 1, sinkp, reps);
      } else {
        k_chase<32, false><<<1, 1>>>(chase, 0, clk.d, sinkp, reps);
        k_chase<64, false><<<1, 1>>>(chase, 0, clk.d + 1, sinkp, reps);
      }
      sync_check("chase");
      const auto h = clk.get();
      v.push_back((double(h[1]) - double(h[0])) / 32.0);
    }
    return median(v);
  };
  row("mem", "l1_hit.latency", lat(8192, 5, false, false, 4), "cycles", "ld.global.ca.u64 chase over 8 KiB, warm");
  row("mem", "l2_hit.latency", lat(4ull << 20, 4099, true, false, 4), "cycles",
      "ld.global.cg.u64 chase over 4 MiB (128 B lines, stride 4099 lines), warm");
  row("mem", "l2_hit_40MiB.latency", lat(40ull << 20, 40961, true, false, 3), "cycles",
      "ld.global.cg.u64 chase over 40 MiB (both L2 halves), warm");
  row("mem", "hbm.latency", lat(chase_bytes, 1048573, true, true, 1), "cycles",
      "ld.global.cg.u64 chase over 512 MiB after a 1 GiB sweep (L2 misses), stride ~128 MiB");
  {
    k_init_chase<<<sms * 4, 256>>>(chase, chase_bytes / 128, 1);
    sync_check("init");
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      flush();
      k_first_touch<<<1, 1>>>(chase, uint64_t(rep) * 4096 * 16, clk.d, sinkp);
      sync_check("first touch");
      v.push_back(double(clk.get()[0]) / 64.0);
    }
    row("mem", "hbm_first_touch.latency", median(v), "cycles",
        "64 dependent ld.global.cg of consecutive 128 B lines after an L2 flush, one thread");
  }
  cudaFree(chase);

  cudaEvent_t e0, e1;
  UB_CHECK(cudaEventCreate(&e0));
  UB_CHECK(cudaEventCreate(&e1));
  auto bw = [&](const char* name, auto launch, double bytes, const char* detail) {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      UB_CHECK(cudaEventRecord(e0));
      launch();
      UB_CHECK(cudaEventRecord(e1));
      sync_check(name);
      v.push_back(bytes / (time_ms(e0, e1) * 1e-3) / 1e9);
    }
    row("mem", name, median(v), "GB/s", detail);
  };
  bw("hbm_read.bw", [&] { k_sweep<<<sms * 4, 512>>>(A, n16, reinterpret_cast<uint32_t*>(sinkp)); }, big_bytes,
     "ld.global.cg.v4 over 1 GiB, 4 CTAs x 512 threads per SM");
  bw("hbm_write.bw", [&] { k_write<<<sms * 4, 512>>>(A, n16); }, big_bytes, "st.global.cg.v4 over 1 GiB");
  bw("hbm_copy.bw", [&] { k_copy<<<sms * 4, 512>>>(A, B, n16); }, 2.0 * big_bytes,
     "1 GiB copy, bytes read + written");
  bw("one_sm_hbm_read.bw", [&] { k_sweep<<<1, 1024>>>(A, (64ull << 20) / 16, reinterpret_cast<uint32_t*>(sinkp)); },
     64.0 * (1 << 20), "ld.global.cg.v4 over 64 MiB by one CTA of 1024 threads (one SM)");
  const uint64_t l2n = (8ull << 20) / 16;
  k_l2_read<<<sms * 4, 512>>>(A, l2n, 1, reinterpret_cast<uint32_t*>(sinkp));
  bw("l2_read.bw", [&] { k_l2_read<<<sms * 4, 512>>>(A, l2n, 64, reinterpret_cast<uint32_t*>(sinkp)); },
     64.0 * (8 << 20), "ld.global.cg.v4 re-reading 8 MiB 64 times, all SMs");

  for (int lines : {1, 32}) {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      if (lines == 1) k_l1_tput<1><<<1, 1024>>>(reinterpret_cast<uint32_t*>(A), 64, 7u, clk.d, reinterpret_cast<uint32_t*>(sinkp));
      else k_l1_tput<32><<<1, 1024>>>(reinterpret_cast<uint32_t*>(A), 16, 7u, clk.d, reinterpret_cast<uint32_t*>(sinkp));
      sync_check("l1 tput");
      v.push_back(32.0 * (lines == 1 ? 64 : 16) * 16 / double(clk.get()[0]));
    }
    row("mem", lines == 1 ? "l1_coalesced.warp_per_clk" : "l1_lines32.warp_per_clk", median(v), "warp-instr/clk/SM",
        lines == 1 ? "ld.global.ca.u32, one 128 B line per warp, 64 KiB L1-resident, 32 warps"
                   : "ld.global.ca.u32, 32 lines per warp (stride 128 B), 64 KiB L1-resident, 32 warps");
  }
  {
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      k_atom_lat<16><<<1, 1>>>(reinterpret_cast<uint32_t*>(A), 0, clk.d, reinterpret_cast<uint32_t*>(sinkp));
      k_atom_lat<32><<<1, 1>>>(reinterpret_cast<uint32_t*>(A), 0, clk.d + 1, reinterpret_cast<uint32_t*>(sinkp));
      sync_check("atom lat");
      const auto h = clk.get();
      v.push_back((double(h[1]) - double(h[0])) / 16.0);
    }
    row("mem", "atom_global.latency", median(v), "cycles", "atom.global.add.u32 dependent chain (one word), one thread");
  }
  for (int same : {0, 1}) {
    const int iters = 64;
    const uint32_t mask = same ? 0u : 0xffffffffu;
    const double ops = double(sms) * 4 * 512 * iters;
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      UB_CHECK(cudaEventRecord(e0));
      k_red<<<sms * 4, 512>>>(reinterpret_cast<uint32_t*>(A), mask, same ? 4 : iters);
      UB_CHECK(cudaEventRecord(e1));
      sync_check("red");
      v.push_back((same ? ops / 16 : ops) / (time_ms(e0, e1) * 1e6));
    }
    row("mem", same ? "red_global_same.per_ns" : "red_global_distinct.per_ns", median(v), "ops/ns",
        same ? "red.global.add.u32 to one word from every thread of all SMs"
             : "red.global.add.u32, a distinct word per thread, all SMs");
  }
  cudaFree(A);
  cudaFree(B);
  cudaFree(sinkp);
}

}  // namespace ub
