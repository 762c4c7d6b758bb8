// gaps.cu — the H200 measurements behind the timing model's known gaps (docs/timing_model.md):
// L2 bandwidth as SMs are added, the L2's fetch granularity, atomic throughput by type and
// contention, call/return and local memory, divergent paths.
//
//   l2bw,{hit_read,miss_read,hit_write}_smsN.bw   GB/s with N SMs working (one CTA of 1024
//         threads per SM, ld.global.cg.v4 / st.global.cg.v4, 4 independent 16-byte accesses per
//         thread in flight); hit: an 8 MiB region (L2-resident, warmed), miss: a fresh 2 GiB sweep
//   l2bw,hit_read_footprint_XMiB.bw   132 SMs re-reading an X MiB region (the two L2 halves)
//   sector,after_miss_dD.latency  one thread, L2 flushed: a load at base (an HBM miss), 4000 cycles
//         of waiting, then a load at base + D: an L2 hit (~290) says the first miss fetched it
//   sector,warp_lines_K.cycles    one warp after a flush, each lane loading 2 bytes, lanes spread
//         over K distinct 128-byte lines (consecutive lines): cycles of the one warp load
//   atom,<op>_<where>.per_ns      GPU-wide atomic operations per ns (all SMs x 1024 threads),
//         same: every thread on one word; distinct: a word per thread
//   atom,<op>_one_warp.cycles     one warp, all 32 lanes on one word: cycles per warp instruction
//   call,call_ret.latency         a non-inlined function that calls itself (depth 64): cycles per
//         call + return (PTX call / ret; the callee saves its registers on the stack)
//   call,local_chase.latency      ld.local dependent chain (a per-thread array indexed by the
//         previous value), one thread
//   call,local_st_ld.latency      st.local then ld.local of the same word, dependent, one thread
//   call,fib12_<pattern>.cycles   one warp, recursive fib: every lane n = 12 (uniform), lane 0 only
//         (one_lane), n = 12 - lane % 4 (mod4), 12 - lane % 8 (mod8): divergent recursion
//   diverge,<pattern>.cycles      one warp, a dependent IMAD loop whose trip count depends on the
//         lane: uniform (all N), half (16 lanes N, 16 lanes N/2), stair (lane i: N (i+1) / 32),
//         ifelse (every iteration lanes split into a 4-step and a 16-step path), nested_break
//         (an inner loop that lanes leave by break after a lane-dependent count)
#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

__global__ void g_sweep(const uint4* a, uint64_t n, uint32_t* sinkp) {
  uint32_t acc = 0;
  for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint4 v = __ldcg(a + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  sink(acc, 0x12345678u, sinkp);
}

// Each CTA (one per SM) reads `per_cta` uint4 from a + offset, 4 independent loads per step.
__global__ void g_read(const uint4* a, uint64_t region, uint64_t per_cta, int fresh, uint32_t* sinkp) {
  uint32_t acc = 0;
  const uint64_t base = fresh ? blockIdx.x * per_cta : 0;
  const uint64_t mask = region - 1;  // region: a power of two (uint4 units)
  for (uint64_t i = threadIdx.x; i + 3 * blockDim.x < per_cta; i += 4 * blockDim.x) {
    uint4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const uint64_t j = fresh ? base + i + k * blockDim.x : (i + k * blockDim.x + blockIdx.x * 4096) & mask;
      v[k] = __ldcg(a + j);
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) acc ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  }
  sink(acc, 0x12345678u, sinkp);
}

__global__ void g_write(uint4* a, uint64_t region, uint64_t per_cta) {
  for (uint64_t i = threadIdx.x; i < per_cta; i += 4 * blockDim.x) {
#pragma unroll
    for (int k = 0; k < 4; ++k) __stcg(a + ((i + k * blockDim.x + blockIdx.x * 4096) & (region - 1)), make_uint4(uint32_t(i), 1, 2, 3));
  }
}

// One thread: for each distance, a miss at base_k, a wait, then a load at base_k + d_k.
__global__ void g_after_miss(const uint8_t* a, const uint32_t* dist, int nd, uint32_t zero, uint64_t* out, uint32_t* sinkp) {
  uint32_t acc = 0;
  for (int k = 0; k < nd; ++k) {
    const uint8_t* base = a + uint64_t(k) * (4u << 20);
    uint32_t x;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(base) : "memory");
    acc += x;
    const uint64_t w0 = clock64_();
    while (clock64_() - w0 < 4000) {
    }
    const uint8_t* target = base + dist[k];
    asm volatile("add.u64 %0, %0, 0;" : "+l"(target));
    acc += uint32_t(reinterpret_cast<uintptr_t>(target)) & zero;
    const uint64_t t0 = clock64_();
    uint32_t y;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(y) : "l"(target + (acc & zero)) : "memory");
    acc += y;
    asm volatile("add.u32 %0, %0, 0;" : "+r"(acc));
    const uint64_t t1 = clock64_() + (acc & zero);
    out[k] = t1 - t0;
  }
  sink(acc, 0xfeedbeefu, sinkp);
}

// One warp: lane l reads 2 bytes at line (l * K / 32) (K lines in all, consecutive).
template <int K>
__global__ void g_warp_lines(const uint16_t* a, uint64_t* out, uint32_t* sinkp) {
  const uint32_t lane = threadIdx.x;
  const uint16_t* p = a + (lane * K / 32) * 64 + (lane % (32 / (K < 32 ? K : 32))) * 2;
  __syncwarp();
  const uint64_t t0 = clock64_();
  uint16_t v;
  asm volatile("ld.global.cg.u16 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
  uint32_t w = lane * 65537u + v;
  asm volatile("add.u32 %0, %0, 0;" : "+r"(w));
  const uint64_t t1 = clock64_();
  if (lane == 0) out[0] = t1 - t0;
  sink(w, 0xdeadbeefu, sinkp);
}

template <int Op>
__device__ __forceinline__ uint32_t atom_op(void* p, uint32_t v) {
  uint32_t r = 0;
  switch (Op) {
    case 0: asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(__uint_as_float(v & 1)) : "memory"); break;
    case 1: {
      float f;
      asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(f) : "l"(p), "f"(__uint_as_float(v & 1)) : "memory");
      r = __float_as_uint(f);
      break;
    }
    case 2: {
      double d;
      asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(d) : "l"(p), "d"(double(v & 1)) : "memory");
      r = uint32_t(__double_as_longlong(d));
      break;
    }
    case 3: asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v & 0x00010001u) : "memory"); break;
    case 4: asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v & 0x00010001u) : "memory"); break;
    case 5: asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v & 1) : "memory"); break;
    case 6: {  // the atomicMax-on-float idiom: a CAS loop (every lane retries until it wins)
      uint32_t* q = static_cast<uint32_t*>(p);
      uint32_t old = *static_cast<volatile uint32_t*>(q), assumed;
      do {
        assumed = old;
        asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(q), "r"(assumed), "r"(assumed + 1) : "memory");
      } while (assumed != old);
      r = old;
      break;
    }
    case 7: {
      uint16_t h;
      asm volatile("atom.global.add.noftz.f16 %0, [%1], %2;" : "=h"(h) : "l"(p), "h"(uint16_t(v & 1 ? 0x3c00 : 0)) : "memory");
      r = h;
      break;
    }
    case 8: {
      uint16_t h;
      asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(h) : "l"(p), "h"(uint16_t(v & 1 ? 0x3f80 : 0)) : "memory");
      r = h;
      break;
    }
    case 9: asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v & 1) : "memory"); break;
    case 10: {  // shared memory, f32 add
      float f;
      asm volatile("atom.shared.add.f32 %0, [%1], %2;" : "=f"(f) : "r"(uint32_t(__cvta_generic_to_shared(p))), "f"(__uint_as_float(v & 1)) : "memory");
      r = __float_as_uint(f);
      break;
    }
    case 11: {  // shared memory, f64 add
      double d;
      asm volatile("atom.shared.add.f64 %0, [%1], %2;" : "=d"(d) : "r"(uint32_t(__cvta_generic_to_shared(p))), "d"(double(v & 1)) : "memory");
      r = uint32_t(__double_as_longlong(d));
      break;
    }
    default: break;
  }
  return r;
}

template <int Op>
__global__ void g_atom(uint8_t* a, int same, int iters, uint32_t* sinkp) {
  __shared__ __align__(8) uint8_t sm[1024 * 8];
  const uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
  uint8_t* base = Op >= 10 ? sm : a;
  uint8_t* p = base + (same ? 0 : (Op >= 10 ? threadIdx.x : gid) * 8);
  uint32_t acc = 0;
  for (int i = 0; i < iters; ++i) acc += atom_op<Op>(p, gid + i);
  sink(acc, 0xabcdef12u, sinkp);
}

template <int Op>
__global__ void g_atom_warp(uint8_t* a, int iters, uint64_t* out, uint32_t* sinkp) {
  __shared__ __align__(8) uint8_t sm[64];
  uint8_t* p = Op >= 10 ? sm : a;
  uint32_t acc = 0;
  __syncwarp();
  const uint64_t t0 = clock64_();
  for (int i = 0; i < iters; ++i) acc += atom_op<Op>(p, threadIdx.x + i);
  __syncwarp();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  sink(acc, 0xabcdef12u, sinkp);
}

__device__ __noinline__ uint32_t rec(uint32_t depth, uint32_t x) {
  if (depth == 0) return x;
  return rec(depth - 1, x * 3u + 1u) ^ depth;
}

template <int Depth>
__global__ void g_call(uint32_t seed, uint64_t* out, uint32_t* sinkp) {
  const uint32_t depth = Depth + (seed >> 31);  // seed < 2^31: Depth, not known to the compiler
  const uint64_t t0 = clock64_();
  uint32_t r = rec(depth, seed);
  asm volatile("add.u32 %0, %0, 0;" : "+r"(r));
  const uint64_t t1 = clock64_() + (r & 0u);
  out[0] = t1 - t0;
  sink(r, 0x1u, sinkp);
}

__device__ __noinline__ uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// One warp, lane l computes fib(ns[l]) by recursion (calls(n) = 2 fib(n + 1) - 1 calls).
__global__ void g_fib(const uint32_t* ns, uint64_t* out, uint32_t* sinkp) {
  const uint32_t n = ns[threadIdx.x];
  __syncwarp();
  const uint64_t t0 = clock64_();
  uint32_t r = fib(n);
  asm volatile("add.u32 %0, %0, 0;" : "+r"(r));
  __syncwarp();
  const uint64_t t1 = clock64_() + (r & 0u);
  if (threadIdx.x == 0) out[0] = t1 - t0;
  sink(r, 0xffffffffu, sinkp);
}

template <int N>
__global__ void g_local_chase(uint32_t seed, uint64_t* out, uint32_t* sinkp) {
  volatile uint32_t arr[64];
  for (int i = 0; i < 64; ++i) arr[i] = (i * 37 + seed) & 63;
  uint32_t x = seed & 63;
  const uint64_t t0 = clock64_();
#pragma unroll
  for (int i = 0; i < N; ++i) x = arr[x];
  const uint64_t t1 = clock64_() + (x & 0u);
  out[0] = t1 - t0;
  sink(x, 0xffffu, sinkp);
}

template <int N>
__global__ void g_local_st_ld(uint32_t seed, uint64_t* out, uint32_t* sinkp) {
  volatile uint32_t arr[64];
  for (int i = 0; i < 64; ++i) arr[i] = i;
  uint32_t x = seed & 63;
  const uint64_t t0 = clock64_();
#pragma unroll
  for (int i = 0; i < N; ++i) {
    arr[x] = x + 1;
    x = arr[x] & 63;
  }
  const uint64_t t1 = clock64_() + (x & 0u);
  out[0] = t1 - t0;
  sink(x, 0xffffu, sinkp);
}

__device__ __forceinline__ uint32_t imad4(uint32_t x) {
#pragma unroll
  for (int k = 0; k < 4; ++k) x = x * 2654435761u + 1u;
  return x;
}

// One warp. trips[lane] drives the loop; pattern 3 (ifelse) and 4 (nested_break) use it as shown.
__global__ void g_diverge(const uint32_t* trips, int pattern, uint64_t* out, uint32_t* sinkp) {
  const uint32_t lane = threadIdx.x;
  const uint32_t n = trips[lane];
  uint32_t x = lane + 1;
  __syncwarp();
  const uint64_t t0 = clock64_();
  if (pattern == 3) {
    for (uint32_t i = 0; i < n; ++i) {
      if ((lane ^ i) & 1) {
        x = imad4(x);
      } else {
#pragma unroll
        for (int k = 0; k < 4; ++k) x = imad4(x);
      }
    }
  } else if (pattern == 4) {
    for (uint32_t m = 0; m < 32; ++m) {
      for (uint32_t d = 0; d < 64; ++d) {
        x = imad4(x);
        if (d == (n + m) % 16) break;
      }
    }
  } else {
    for (uint32_t i = 0; i < n; ++i) x = imad4(x);
  }
  __syncwarp();
  const uint64_t t1 = clock64_() + (x & 0u);
  if (lane == 0) out[0] = t1 - t0;
  sink(x, 0x7u, sinkp);
}

float ms(cudaEvent_t a, cudaEvent_t b) {
  float v = 0;
  UB_CHECK(cudaEventElapsedTime(&v, a, b));
  return v;
}

}  // namespace

void run_gaps() {
  int sms = 0;
  UB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  UB_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));  // call_ret recurses 64 deep
  Clocks clk(64);
  uint32_t* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  const uint64_t big = 2ull << 30;
  uint4 *A, *F;
  UB_CHECK(cudaMalloc(&A, big));
  UB_CHECK(cudaMalloc(&F, 1ull << 30));
  UB_CHECK(cudaMemset(A, 1, big));
  UB_CHECK(cudaMemset(F, 2, 1ull << 30));
  auto flush = [&] { g_sweep<<<sms * 4, 512>>>(F, (1ull << 30) / 16, sinkp); sync_check("flush"); };
  cudaEvent_t e0, e1;
  UB_CHECK(cudaEventCreate(&e0));
  UB_CHECK(cudaEventCreate(&e1));
  auto timed = [&](auto launch, const char* what) {
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      UB_CHECK(cudaEventRecord(e0));
      launch();
      UB_CHECK(cudaEventRecord(e1));
      sync_check(what);
      v.push_back(ms(e0, e1) * 1e-3);
    }
    return median(v);
  };
  // ---- L2 bandwidth vs SMs ----
  const uint64_t region = (8ull << 20) / 16;
  for (int n : {1, 2, 4, 8, 16, 33, 66, 99, 132}) {
    if (n > sms) continue;
    const uint64_t per_hit = (16ull << 20) / 16;  // 16 MiB per SM
    g_read<<<n, 1024>>>(A, region, region, 0, sinkp);
    const double th = timed([&] { g_read<<<n, 1024>>>(A, region, per_hit, 0, sinkp); }, "l2 hit read");
    row("l2bw", "hit_read_sms" + std::to_string(n) + ".bw", double(n) * per_hit * 16 / th / 1e9, "GB/s",
        "ld.global.cg.v4, 4 in flight per thread, 1024 threads per SM, 8 MiB L2-resident region, " + std::to_string(n) + " SMs");
    const uint64_t per_miss = big / 16 / uint64_t(sms) / 4096 * 4096;  // each SM its own slice of 2 GiB
    std::vector<double> v;
    for (int rep = 0; rep < 3; ++rep) {
      flush();
      UB_CHECK(cudaEventRecord(e0));
      g_read<<<n, 1024>>>(A, 0, per_miss, 1, sinkp);
      UB_CHECK(cudaEventRecord(e1));
      sync_check("l2 miss read");
      v.push_back(ms(e0, e1) * 1e-3);
    }
    row("l2bw", "miss_read_sms" + std::to_string(n) + ".bw", double(n) * per_miss * 16 / median(v) / 1e9, "GB/s",
        "ld.global.cg.v4 of a fresh slice after an L2 flush (HBM), 1024 threads per SM, " + std::to_string(n) + " SMs");
    g_write<<<n, 1024>>>(A, region, region);
    const double tw = timed([&] { g_write<<<n, 1024>>>(A, region, per_hit); }, "l2 hit write");
    row("l2bw", "hit_write_sms" + std::to_string(n) + ".bw", double(n) * per_hit * 16 / tw / 1e9, "GB/s",
        "st.global.cg.v4 into an 8 MiB L2-resident region, 1024 threads per SM, " + std::to_string(n) + " SMs");
  }
  for (int mib : {1, 4, 16, 32}) {
    const uint64_t reg = (uint64_t(mib) << 20) / 16, per = (16ull << 20) / 16;
    g_read<<<sms, 1024>>>(A, reg, reg, 0, sinkp);
    g_read<<<sms, 1024>>>(A, reg, reg, 0, sinkp);
    const double t = timed([&] { g_read<<<sms, 1024>>>(A, reg, per, 0, sinkp); }, "l2 footprint");
    row("l2bw", "hit_read_footprint_" + std::to_string(mib) + "MiB.bw", double(sms) * per * 16 / t / 1e9, "GB/s",
        "ld.global.cg.v4 re-reading a " + std::to_string(mib) + " MiB region, all SMs x 1024 threads");
  }
  // ---- fetch granularity ----
  {
    const uint32_t d[] = {4, 32, 64, 96, 128, 256, 512, 1024, 2048, 4096, 8192, 65536};
    const int nd = sizeof d / sizeof d[0];
    uint32_t* dd;
    UB_CHECK(cudaMalloc(&dd, sizeof d));
    UB_CHECK(cudaMemcpy(dd, d, sizeof d, cudaMemcpyHostToDevice));
    std::vector<std::vector<double>> v(nd);
    for (int rep = 0; rep < 3; ++rep) {
      flush();
      g_after_miss<<<1, 1>>>(reinterpret_cast<uint8_t*>(A) + uint64_t(rep) * (64u << 20), dd, nd, 0u, clk.d, sinkp);
      sync_check("after miss");
      const auto h = clk.get();
      for (int k = 0; k < nd; ++k) v[k].push_back(double(h[k]));
    }
    for (int k = 0; k < nd; ++k)
      row("sector", "after_miss_d" + std::to_string(d[k]) + ".latency", median(v[k]), "cycles",
          "ld.global.cg.u32 at base + " + std::to_string(d[k]) + " B, 4000 cycles after a miss at base (L2 flushed), one thread; includes ~40 cycles of clock/add");
    cudaFree(dd);
    auto wl = [&](auto k, int lines) {
      std::vector<double> w;
      for (int rep = 0; rep < 3; ++rep) {
        flush();
        k<<<1, 32>>>(reinterpret_cast<uint16_t*>(A) + uint64_t(rep + 8) * (8u << 20), clk.d, sinkp);
        sync_check("warp lines");
        w.push_back(double(clk.get()[0]));
      }
      row("sector", "warp_lines_" + std::to_string(lines) + ".cycles", median(w), "cycles",
          "one warp's ld.global.cg.u16 over " + std::to_string(lines) + " consecutive 128 B lines after an L2 flush");
    };
    wl(g_warp_lines<1>, 1);
    wl(g_warp_lines<2>, 2);
    wl(g_warp_lines<4>, 4);
    wl(g_warp_lines<8>, 8);
    wl(g_warp_lines<16>, 16);
    wl(g_warp_lines<32>, 32);
  }
  // ---- atomics ----
  UB_CHECK(cudaMemset(A, 0, 64 << 20));
  // Native operations are also run with every thread of the GPU on one word; emulated ones (a CAS
  // loop in SASS) would take quadratic time there, so the contended case is 4 CTAs x 96 threads
  // (8 operations each) for every operation.
  auto atom = [&](auto k, auto kw, const char* name, bool gpu_wide_same) {
    {
      const double t = timed([&] { k<<<4, 96>>>(reinterpret_cast<uint8_t*>(A), 1, 8, sinkp); }, name);
      row("atom", std::string(name) + "_same384.per_ns", 384.0 * 8 / t / 1e9, "ops/ns",
          std::string(name) + ": 4 CTAs x 96 threads on one word (shared: one word per CTA), 8 each; event-timed (incl. ~2-3 us launch)");
    }
    for (int same : {1, 0}) {
      if (same && !gpu_wide_same) continue;
      const int iters = same ? 4 : 32;
      const double ops = double(sms) * 1024 * iters;
      const double t = timed([&] { k<<<sms, 1024>>>(reinterpret_cast<uint8_t*>(A), same, iters, sinkp); }, name);
      row("atom", std::string(name) + (same ? "_same.per_ns" : "_distinct.per_ns"), ops / t / 1e9, "ops/ns",
          std::string(name) + (same ? ": every thread of all SMs (1024 per SM) on one word (shared: one per SM)" : ": a word per thread, all SMs"));
    }
    std::vector<double> w;
    for (int rep = 0; rep < 3; ++rep) {
      kw<<<1, 32>>>(reinterpret_cast<uint8_t*>(A), 16, clk.d, sinkp);
      sync_check(name);
      w.push_back(double(clk.get()[0]) / 16.0);
    }
    row("atom", std::string(name) + "_one_warp.cycles", median(w), "cycles",
        std::string(name) + ": one warp, 32 lanes on one word, cycles per warp instruction (16 in a loop)");
  };
  atom(g_atom<9>, g_atom_warp<9>, "red_add_u32", true);
  atom(g_atom<5>, g_atom_warp<5>, "atom_add_u32", true);
  atom(g_atom<0>, g_atom_warp<0>, "red_add_f32", true);
  atom(g_atom<1>, g_atom_warp<1>, "atom_add_f32", true);
  atom(g_atom<2>, g_atom_warp<2>, "atom_add_f64", false);
  atom(g_atom<3>, g_atom_warp<3>, "atom_add_f16x2", false);
  atom(g_atom<4>, g_atom_warp<4>, "atom_add_bf16x2", false);
  atom(g_atom<7>, g_atom_warp<7>, "atom_add_f16", false);
  atom(g_atom<8>, g_atom_warp<8>, "atom_add_bf16", false);
  atom(g_atom<6>, g_atom_warp<6>, "cas_loop_b32", false);
  atom(g_atom<10>, g_atom_warp<10>, "atom_shared_add_f32", false);
  atom(g_atom<11>, g_atom_warp<11>, "atom_shared_add_f64", false);
  // ---- call / local ----
  auto lat2 = [&](auto k1, auto k2, int n, const char* name, const char* detail) {
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      k1<<<1, 1>>>(7u, clk.d, sinkp);
      k2<<<1, 1>>>(7u, clk.d + 1, sinkp);
      sync_check(name);
      const auto h = clk.get();
      v.push_back((double(h[1]) - double(h[0])) / n);
    }
    row("call", name, median(v), "cycles", detail);
  };
  lat2(g_call<32>, g_call<64>, 32, "call_ret.latency",
       "non-inlined self-recursive function (x*3+1, xor depth), depth 64 vs 32: cycles per call + return, one thread");
  lat2(g_local_chase<32>, g_local_chase<64>, 32, "local_chase.latency", "ld.local.u32 dependent chain (volatile array[64]), one thread");
  lat2(g_local_st_ld<32>, g_local_st_ld<64>, 32, "local_st_ld.latency", "st.local + dependent ld.local of the same word, one thread");
  {  // divergent recursion
    uint32_t* ns;
    UB_CHECK(cudaMalloc(&ns, 128));
    struct F {
      const char* name;
      uint32_t n[32];
    } fs[4] = {{"fib12_uniform", {}}, {"fib12_one_lane", {}}, {"fib12_mod4", {}}, {"fib12_mod8", {}}};
    for (int l = 0; l < 32; ++l) {
      fs[0].n[l] = 12;
      fs[1].n[l] = l == 0 ? 12 : 0;
      fs[2].n[l] = 12 - l % 4;
      fs[3].n[l] = 12 - l % 8;
    }
    for (const F& f : fs) {
      UB_CHECK(cudaMemcpy(ns, f.n, 128, cudaMemcpyHostToDevice));
      std::vector<double> v;
      for (int rep = 0; rep < 5; ++rep) {
        g_fib<<<1, 32>>>(ns, clk.d, sinkp);
        sync_check("fib");
        v.push_back(double(clk.get()[0]));
      }
      row("call", std::string(f.name) + ".cycles", median(v), "cycles",
          "one warp, recursive fib(n) (non-inlined, 465 calls for n = 12); lane l: n = " +
              std::string(f.name + 6));
    }
    cudaFree(ns);
  }
  // ---- divergence ----
  {
    uint32_t* tr;
    UB_CHECK(cudaMalloc(&tr, 128));
    const uint32_t N = 256;
    struct P {
      const char* name;
      int pattern;
      uint32_t t[32];
    } pats[5] = {{"uniform", 0, {}}, {"half", 1, {}}, {"stair", 2, {}}, {"ifelse", 3, {}}, {"nested_break", 4, {}}};
    for (int l = 0; l < 32; ++l) {
      pats[0].t[l] = N;
      pats[1].t[l] = l < 16 ? N : N / 2;
      pats[2].t[l] = N * (l + 1) / 32;
      pats[3].t[l] = N;
      pats[4].t[l] = l;
    }
    for (const P& p : pats) {
      UB_CHECK(cudaMemcpy(tr, p.t, 128, cudaMemcpyHostToDevice));
      std::vector<double> v;
      for (int rep = 0; rep < 5; ++rep) {
        g_diverge<<<1, 32>>>(tr, p.pattern, clk.d, sinkp);
        sync_check("diverge");
        v.push_back(double(clk.get()[0]));
      }
      row("diverge", std::string(p.name) + ".cycles", median(v), "cycles",
          "one warp, dependent IMAD loop (4 IMAD per step), N = 256; see gaps.cu header for the pattern");
    }
    {  // the same uniform loop with N/2 and one lane only: the per-step cost and lane-count independence
      uint32_t t[32];
      for (int l = 0; l < 32; ++l) t[l] = N / 2;
      UB_CHECK(cudaMemcpy(tr, t, 128, cudaMemcpyHostToDevice));
      std::vector<double> v;
      for (int rep = 0; rep < 5; ++rep) {
        g_diverge<<<1, 32>>>(tr, 0, clk.d, sinkp);
        sync_check("diverge");
        v.push_back(double(clk.get()[0]));
      }
      row("diverge", "uniform_half_n.cycles", median(v), "cycles", "as uniform with N = 128 for every lane");
    }
    cudaFree(tr);
  }
  cudaFree(A);
  cudaFree(F);
  cudaFree(sinkp);
}

}  // namespace ub
