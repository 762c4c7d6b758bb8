// outliers.cu — what the H200 corpus kernels with the largest timing errors (docs/timing_model.md,
// "Known gaps") spend that models/timing did not have:
//   idiv,*       32-bit div/rem alone (no partner instruction in the chain): a dependent chain
//                through the dividend (the divisor fixed, so ptxas computes its reciprocal once,
//                outside the chain) and through the divisor (the reciprocal is in the chain: the
//                `m % d` of kernels/basic/divergent_loops with d changing every iteration);
//                shfl.sync and popc alone, to split the pair rows of pipes.cu.
//   contend,*    one atomic per thread (or 8) on one word from 1-4 CTAs: the scalar f16/bf16 adds
//                (load + CAS loop in SASS), f32 and f16x2 adds (native), a CAS-loop increment and the
//                float-max CAS loop of kernels/basic/atomics_float. Per CTA, %clock64 from a
//                bar.sync before the first operation to one after the last; the row is the slowest
//                CTA's span (median of UB_REPS runs, default 5) and that span per operation.
//   rec,*        one warp, recursive n-queens / quicksort on a local array / tree walk (the three
//                recursions of kernels/basic/recursion besides fib): every lane alike, lanes
//                differing, one lane alone. %clock64 around the call.
// Latency rows: (t(2N) - t(N)) / N as in pipes.cu. PTX ISA §9.7.1.8 div, §9.7.1.9 rem,
// §9.7.1.14 popc, §9.7.9.6 shfl.sync (as pipes.cu), §9.7.13.5 atom.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

// ---------------------------------------------------------------- idiv / shfl / popc chains
#define OUTL_OP(NAME, ASM)                                                    \
  struct NAME {                                                               \
    static constexpr const char* name = #NAME;                                \
    __device__ __forceinline__ static void step(uint32_t& x, uint32_t b) {    \
      asm volatile(ASM : "+r"(x) : "r"(b));                                   \
    }                                                                         \
  };
OUTL_OP(div_u32_dividend, "div.u32 %0, %0, %1;")  // x = x / b, b fixed
OUTL_OP(div_u32_divisor, "div.u32 %0, %1, %0;")   // x = b / x: the divisor changes every step
OUTL_OP(rem_u32_dividend, "rem.u32 %0, %0, %1;")
OUTL_OP(rem_u32_divisor, "{.reg .b32 t; rem.u32 t, %1, %0;\n\tor.b32 %0, t, 3;}")  // keeps x >= 3
OUTL_OP(div_s32_divisor, "div.s32 %0, %1, %0;")
OUTL_OP(shfl_bfly_only, "shfl.sync.bfly.b32 %0, %0, 1, 0x1f, 0xffffffff;")
OUTL_OP(popc_only, "popc.b32 %0, %0;")
#undef OUTL_OP

template <class Op, int N>
__global__ void outl_lat(uint32_t a, uint32_t b, uint64_t* out, uint32_t* sinkp) {
  uint32_t x = a + threadIdx.x;
  uint64_t best = ~0ull;
  for (int r = 0; r < 4; ++r) {
    const uint64_t t0 = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) Op::step(x, b);
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  out[0] = best;
  sink(x, 0xdeadbeefu, sinkp);
}

template <class Op>
__global__ void outl_tput(uint32_t a, uint32_t b, int iters, uint64_t* out, uint32_t* sinkp) {
  uint32_t x[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) x[j] = a + threadIdx.x * 8 + j + 1;
  __syncthreads();
  const uint64_t t0 = clock64_();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) Op::step(x[j], b);
  }
  __syncthreads();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  uint32_t s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += x[j];
  sink(s, 0xdeadbeefu, sinkp);
}

template <class Op>
void chain(uint32_t a, uint32_t b, const char* detail) {
  Clocks clk(2);
  uint32_t* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  std::vector<double> lat, tput;
  for (int rep = 0; rep < 5; ++rep) {
    outl_lat<Op, 64><<<1, 32>>>(a, b, clk.d, sinkp);
    outl_lat<Op, 128><<<1, 32>>>(a, b, clk.d + 1, sinkp);
    sync_check(Op::name);
    const auto h = clk.get();
    lat.push_back((double(h[1]) - double(h[0])) / 64.0);
    outl_tput<Op><<<1, 1024>>>(a, b, 4, clk.d, sinkp);
    sync_check(Op::name);
    tput.push_back(1024.0 * 4 * 64 / double(clk.get()[0]));
  }
  row("idiv", std::string(Op::name) + ".latency", median(lat), "cycles", detail);
  row("idiv", std::string(Op::name) + ".per_clk", median(tput), "thread-instr/clk/SM", detail);
  cudaFree(sinkp);
}

// ---------------------------------------------------------------- atomics under contention
__device__ __forceinline__ uint32_t mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

template <int Op>
__device__ __forceinline__ uint32_t contend_op(void* p, uint32_t v) {
  uint32_t r = 0;
  if constexpr (Op == 0) {  // scalar f16 add (PTX atom.add.noftz.f16)
    uint16_t h;
    asm volatile("atom.global.add.noftz.f16 %0, [%1], %2;" : "=h"(h) : "l"(p), "h"(uint16_t(v & 1 ? 0x3c00 : 0)) : "memory");
    r = h;
  } else if constexpr (Op == 1) {  // scalar bf16 add
    uint16_t h;
    asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;" : "=h"(h) : "l"(p), "h"(uint16_t(v & 1 ? 0x3f80 : 0)) : "memory");
    r = h;
  } else if constexpr (Op == 2) {  // f32 add (native)
    float f;
    asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(f) : "l"(p), "f"(float(v & 15)) : "memory");
    r = __float_as_uint(f);
  } else if constexpr (Op == 3) {  // f16x2 add (native)
    asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v & 0x00010001u) : "memory");
  } else if constexpr (Op == 4) {  // CAS-loop increment: every thread retries until it wins
    uint32_t* q = static_cast<uint32_t*>(p);
    uint32_t old = *static_cast<volatile uint32_t*>(q), assumed;
    do {
      assumed = old;
      asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(q), "r"(assumed), "r"(assumed + 1) : "memory");
    } while (assumed != old);
    r = old;
  } else {  // float max by CAS (kernels/basic/atomics_float's idiom): leaves once the slot is larger
    uint32_t* q = static_cast<uint32_t*>(p);
    const float val = __uint_as_float((v & 0x807fffffu) | 0x3f000000u);
    uint32_t old = *static_cast<volatile uint32_t*>(q), assumed;
    do {
      assumed = old;
      if (__uint_as_float(assumed) >= val) break;
      asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "l"(q), "r"(assumed), "r"(__float_as_uint(val)) : "memory");
    } while (assumed != old);
    r = old;
  }
  return r;
}

template <int Op>
__global__ void outl_contend(void* p, int iters, uint32_t seed, uint64_t* out, uint32_t* sinkp) {
  const uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t acc = 0;
  __syncthreads();
  const uint64_t t0 = clock64_();
  for (int i = 0; i < iters; ++i) acc += contend_op<Op>(p, mix(seed + gid * 131u + i));
  __syncthreads();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
  sink(acc, 0xabcdef12u, sinkp);
}

__global__ void outl_empty(uint64_t* out) {
  __syncthreads();
  const uint64_t t0 = clock64_();
  __syncthreads();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
}

int reps() {
  const char* e = std::getenv("UB_REPS");
  return e ? std::max(1, std::atoi(e)) : 5;
}

template <int Op>
void contend(const char* name, uint32_t init) {
  Clocks clk(8);
  uint32_t *word, *sinkp;
  UB_CHECK(cudaMalloc(&word, 256));
  UB_CHECK(cudaMalloc(&sinkp, 64));
  struct Cfg {
    int grid, block, iters;
  } cfgs[] = {{1, 32, 1}, {1, 96, 1}, {4, 32, 1}, {2, 96, 1}, {4, 96, 1}, {1, 32, 8}, {4, 96, 8}};
  for (const Cfg& c : cfgs) {
    std::vector<double> span;
    for (int rep = 0; rep < reps(); ++rep) {
      std::vector<uint32_t> w(64, init);
      UB_CHECK(cudaMemcpy(word, w.data(), 256, cudaMemcpyHostToDevice));
      outl_contend<Op><<<c.grid, c.block>>>(word, c.iters, 1234u + rep, clk.d, sinkp);
      sync_check(name);
      const auto h = clk.get();
      uint64_t m = 0;
      for (int b = 0; b < c.grid; ++b) m = std::max<uint64_t>(m, h[b]);
      span.push_back(double(m));
    }
    const double ops = double(c.grid) * c.block * c.iters;
    const std::string cfg = std::to_string(c.grid) + "x" + std::to_string(c.block) + "x" + std::to_string(c.iters);
    const std::string d = std::string(name) + ": " + std::to_string(c.grid) + " CTAs x " + std::to_string(c.block) +
                          " threads, " + std::to_string(c.iters) + " op(s) each, all on one 32-bit word; slowest CTA's bar.sync-to-bar.sync span";
    row("contend", std::string(name) + "_" + cfg + ".cycles", median(span), "cycles", d);
    row("contend", std::string(name) + "_" + cfg + ".per_op", median(span) / ops, "cycles/op", d);
  }
  cudaFree(word);
  cudaFree(sinkp);
}

// ---------------------------------------------------------------- recursion
__device__ __noinline__ int outl_queens(int* cols, int row, int n) {
  if (row == n) return 1;
  int count = 0;
  for (int c = 0; c < n; ++c) {
    bool ok = true;
    for (int r = 0; r < row; ++r) {
      const int d = cols[r] - c;
      if (d == 0 || d == row - r || d == r - row) {
        ok = false;
        break;
      }
    }
    if (ok) {
      cols[row] = c;
      count += outl_queens(cols, row + 1, n);
    }
  }
  return count;
}

__device__ __noinline__ void outl_qsort(int* a, int lo, int hi) {
  if (lo >= hi) return;
  const int pivot = a[hi];
  int i = lo;
  for (int j = lo; j < hi; ++j) {
    if (a[j] < pivot) {
      const int t = a[i];
      a[i] = a[j];
      a[j] = t;
      ++i;
    }
  }
  const int t = a[i];
  a[i] = a[hi];
  a[hi] = t;
  outl_qsort(a, lo, i - 1);
  outl_qsort(a, i + 1, hi);
}

// What: 0 queens(ns[lane]), 1 quicksort of 12 values seeded by ns[lane]; lanes with ns[lane] == 0 skip.
__global__ void outl_rec(const int* ns, int what, uint64_t* out, int* sinkp) {
  const int n = ns[threadIdx.x];
  int r = 0;
  __syncwarp();
  const uint64_t t0 = clock64_();
  if (n != 0) {
    if (what == 0) {
      int cols[8];
      r = outl_queens(cols, 0, n);
    } else {
      int a[12];
      for (int k = 0; k < 12; ++k) a[k] = int(mix(uint32_t(n) * 977u + k)) >> 20;
      outl_qsort(a, 0, 11);
      r = a[0] ^ a[11];
    }
  }
  __syncwarp();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  sink(r, 0x7fffffff, sinkp);
}

__device__ __noinline__ uint32_t outl_fib(uint32_t n) { return n < 2 ? n : outl_fib(n - 1) + outl_fib(n - 2); }

// kernels/basic/recursion's first two calls in one warp: lane l runs fib(nf[l]) then queens(nq[l]);
// mode 0: straight on (as the corpus kernel), 1: __syncwarp() between them, 2: queens only, 3: fib only.
__global__ void outl_rec2(const int* nf, const int* nq, int mode, uint64_t* out, int* sinkp) {
  const int f = nf[threadIdx.x], q = nq[threadIdx.x];
  int r = 0;
  __syncwarp();
  const uint64_t t0 = clock64_();
  if (mode != 2) r += int(outl_fib(uint32_t(f)));
  if (mode == 1) __syncwarp();
  if (mode != 3) {
    int cols[8];
    r += outl_queens(cols, 0, q);
  }
  __syncwarp();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  sink(r, 0x7fffffff, sinkp);
}

// What a divergent call tree leaves behind (outliers_run3: fib(15 - (l & 15)) then queens(4 + (l & 3))
// takes 6.14M cycles, the two alone 0.43M + 1.23M). Lane l runs, in order, fib(nf[l]) (skipped if
// nf[l] < 0), a non-recursive loop of nl[l] iterations, queens(nq[l]) (skipped if 0) and fib(nf2[l])
// (skipped if < 0); lane 0 reads %clock64 after a __syncwarp() before and after each phase.
__global__ void outl_rec3(const int* nf, const int* nl, const int* nq, const int* nf2, uint64_t* out, int* sinkp) {
  const int f = nf[threadIdx.x], loops = nl[threadIdx.x], q = nq[threadIdx.x], f2 = nf2[threadIdx.x];
  int r = 0;
  uint64_t t[5];
  __syncwarp();
  t[0] = clock64_();
  if (f >= 0) r += int(outl_fib(uint32_t(f)));
  __syncwarp();
  t[1] = clock64_();
  uint32_t acc = uint32_t(f) + 1u;
  for (int i = 0; i < loops; ++i) acc = acc * 1664525u + uint32_t(i);
  r += int(acc);
  __syncwarp();
  t[2] = clock64_();
  if (q != 0) {
    int cols[8];
    r += outl_queens(cols, 0, q);
  }
  __syncwarp();
  t[3] = clock64_();
  if (f2 >= 0) r += int(outl_fib(uint32_t(f2)));
  __syncwarp();
  t[4] = clock64_();
  if (threadIdx.x == 0)
    for (int k = 0; k < 4; ++k) out[k] = t[k + 1] - t[k];
  sink(r, 0x7fffffff, sinkp);
}

void recursion() {
  Clocks clk(1);
  int *ns, *sinkp;
  UB_CHECK(cudaMalloc(&ns, 32 * 4));
  UB_CHECK(cudaMalloc(&sinkp, 64));
  struct P {
    const char* name;
    int what;
    int (*n)(int lane);
  } ps[] = {
      {"queens7_uniform", 0, [](int) { return 7; }},
      {"queens7_one_lane", 0, [](int l) { return l == 0 ? 7 : 0; }},
      {"queens4to7_mod4", 0, [](int l) { return 4 + (l & 3); }},
      {"queens7_two_lanes", 0, [](int l) { return l < 2 ? 7 : 0; }},
      {"queens6_uniform", 0, [](int) { return 6; }},
      {"qsort12_same_data", 0 + 1, [](int) { return 5; }},
      {"qsort12_lane_data", 1, [](int l) { return 5 + l; }},
      {"qsort12_one_lane", 1, [](int l) { return l == 0 ? 5 : 0; }},
  };
  for (const P& p : ps) {
    std::vector<int> h(32);
    for (int l = 0; l < 32; ++l) h[l] = p.n(l);
    UB_CHECK(cudaMemcpy(ns, h.data(), 32 * 4, cudaMemcpyHostToDevice));
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      outl_rec<<<1, 32>>>(ns, p.what, clk.d, sinkp);
      sync_check(p.name);
      v.push_back(double(clk.get()[0]));
    }
    row("rec", std::string(p.name) + ".cycles", median(v), "cycles",
        "one warp, non-inlined recursion (kernels/basic/recursion's queens / quicksort), %clock64 around the call");
  }
  {
    // fib then queens, lanes as the corpus kernel's pattern (fib n = 15 - (l & 15), queens n = 4 + (l & 3)).
    int* nq;
    UB_CHECK(cudaMalloc(&nq, 32 * 4));
    std::vector<int> hf(32), hq(32);
    for (int l = 0; l < 32; ++l) {
      hf[l] = 15 - (l & 15);
      hq[l] = 4 + (l & 3);
    }
    UB_CHECK(cudaMemcpy(ns, hf.data(), 32 * 4, cudaMemcpyHostToDevice));
    UB_CHECK(cudaMemcpy(nq, hq.data(), 32 * 4, cudaMemcpyHostToDevice));
    const char* names[4] = {"fib_then_queens", "fib_syncwarp_queens", "queens_only", "fib_only"};
    for (int mode = 0; mode < 4; ++mode) {
      std::vector<double> v;
      for (int rep = 0; rep < 3; ++rep) {
        outl_rec2<<<1, 32>>>(ns, nq, mode, clk.d, sinkp);
        sync_check(names[mode]);
        v.push_back(double(clk.get()[0]));
      }
      row("rec", std::string(names[mode]) + ".cycles", median(v), "cycles",
          "one warp: fib(15 - (lane & 15)) then queens(4 + (lane & 3)), as kernels/basic/recursion's first two calls");
    }
    cudaFree(nq);
  }
  cudaFree(ns);
  cudaFree(sinkp);
}

}  // namespace

// The rec3 rows: one warp per configuration, each phase's cycles (median of 3) and the total.
void run_rec3() {
  Clocks clk(4);
  int *bufs[4], *sinkp;
  for (int*& b : bufs) UB_CHECK(cudaMalloc(&b, 32 * 4));
  UB_CHECK(cudaMalloc(&sinkp, 64));
  struct P {
    const char* name;
    int (*nf)(int), (*nl)(int), (*nq)(int), (*nf2)(int);
  } ps[] = {
      {"fibdiv_queens_div", [](int l) { return 15 - (l & 15); }, [](int) { return 0; }, [](int l) { return 4 + (l & 3); }, [](int) { return -1; }},
      {"fibdiv_queens7", [](int l) { return 15 - (l & 15); }, [](int) { return 0; }, [](int) { return 7; }, [](int) { return -1; }},
      {"fib12_queens_div", [](int) { return 12; }, [](int) { return 0; }, [](int l) { return 4 + (l & 3); }, [](int) { return -1; }},
      {"fib12_queens7", [](int) { return 12; }, [](int) { return 0; }, [](int) { return 7; }, [](int) { return -1; }},
      {"fibdiv2_queens7", [](int l) { return 12 - (l >> 4); }, [](int) { return 0; }, [](int) { return 7; }, [](int) { return -1; }},
      {"fibdiv4_queens7", [](int l) { return 12 - (l & 3); }, [](int) { return 0; }, [](int) { return 7; }, [](int) { return -1; }},
      {"fibsmall_div_queens7", [](int l) { return 3 - (l & 1); }, [](int) { return 0; }, [](int) { return 7; }, [](int) { return -1; }},
      {"fib_lane0_queens7", [](int l) { return l == 0 ? 12 : -1; }, [](int) { return 0; }, [](int) { return 7; }, [](int) { return -1; }},
      {"loopdiv_queens7", [](int) { return -1; }, [](int l) { return 64 * (l & 15); }, [](int) { return 7; }, [](int) { return -1; }},
      {"queens7_only", [](int) { return -1; }, [](int) { return 0; }, [](int) { return 7; }, [](int) { return -1; }},
      {"fibdiv_fib12", [](int l) { return 15 - (l & 15); }, [](int) { return 0; }, [](int) { return 0; }, [](int) { return 12; }},
      {"fib12_fib12", [](int) { return 12; }, [](int) { return 0; }, [](int) { return 0; }, [](int) { return 12; }},
      {"queens7_then_fibdiv", [](int) { return -1; }, [](int) { return 0; }, [](int) { return 7; }, [](int l) { return 15 - (l & 15); }},
  };
  const char* phase[4] = {"fib", "loop", "queens", "fib2"};
  for (const P& p : ps) {
    int (*fns[4])(int) = {p.nf, p.nl, p.nq, p.nf2};
    for (int k = 0; k < 4; ++k) {
      std::vector<int> h(32);
      for (int l = 0; l < 32; ++l) h[l] = fns[k](l);
      UB_CHECK(cudaMemcpy(bufs[k], h.data(), 32 * 4, cudaMemcpyHostToDevice));
    }
    std::vector<double> v[4], tot;
    for (int rep = 0; rep < 3; ++rep) {
      outl_rec3<<<1, 32>>>(bufs[0], bufs[1], bufs[2], bufs[3], clk.d, sinkp);
      sync_check(p.name);
      const auto h = clk.get();
      double sum = 0;
      for (int k = 0; k < 4; ++k) {
        v[k].push_back(double(h[k]));
        sum += double(h[k]);
      }
      tot.push_back(sum);
    }
    for (int k = 0; k < 4; ++k)
      row("rec3", std::string(p.name) + "." + phase[k], median(v[k]), "cycles",
          "one warp: fib(nf) / divergent loop / queens(nq) / fib(nf2), __syncwarp + %clock64 around each phase");
    row("rec3", std::string(p.name) + ".total", median(tot), "cycles", "the four phases");
  }
  for (int* b : bufs) cudaFree(b);
  cudaFree(sinkp);
}


void run_outliers() {
  chain<div_u32_dividend>(0x7fffffffu, 1u, "div.u32 x = x / b, b = 1 fixed (a run-time value): reciprocal of b outside the chain");
  chain<div_u32_divisor>(12345u, 0x5a5a5a5au, "div.u32 x = b / x: the divisor is the chain, its reciprocal in it");
  chain<rem_u32_dividend>(0x7fffffffu, 0x7ffffff0u, "rem.u32 x = x % b, b fixed");
  chain<rem_u32_divisor>(12345u, 0x5a5a5a5au, "rem.u32 t = b % x; or.b32 x = t | 3 (divisor chain; minus one ALU op)");
  chain<div_s32_divisor>(12345u, 0x5a5a5a5au, "div.s32 x = b / x (divisor chain)");
  chain<shfl_bfly_only>(12345u, 0u, "shfl.sync.bfly.b32 alone, lane mask 1");
  chain<popc_only>(0xffffffffu, 0u, "popc.b32 alone");
  contend<0>("f16_add", 0);
  contend<1>("bf16_add", 0);
  contend<2>("f32_add", 0);
  contend<3>("f16x2_add", 0);
  contend<4>("cas_inc", 0);
  contend<5>("fmax_cas", 0xc47a0000u);  // -1000.0f, as atomics_float's fmax_slot
  {
    Clocks clk(4);
    std::vector<double> v;
    for (int rep = 0; rep < 5; ++rep) {
      outl_empty<<<4, 96>>>(clk.d);
      sync_check("empty");
      const auto h = clk.get();
      v.push_back(double(*std::max_element(h.begin(), h.end())));
    }
    row("contend", "empty_4x96.cycles", median(v), "cycles", "the span with no operation between the two bar.sync");
  }
  recursion();
}

}  // namespace ub
