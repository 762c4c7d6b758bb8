// pipes.cu — latency and throughput of the SM's execution pipes, per PTX instruction class
// (models/timing: `pipe.<class>.latency` and `.per_clk`). Each class is one PTX instruction (or a
// fixed pair where a single one would be folded by ptxas), run as
//   latency:    one thread, a dependent chain of N and 2N instructions, (t(2N) - t(N)) / N cycles;
//   throughput: one CTA of 1024 threads on one SM, 8 independent chains per thread (distinct start
//               values, so ptxas cannot merge them), thread-level instructions per SM per cycle.
// A pair row (e.g. add+xor: ptxas would merge a chain of adds into IADD3) reports per instruction.
// PTX ISA §9.7.1 (integer), §9.7.3 (float), §9.7.4 (half), §9.7.9.21 (cvt), §9.7.9.x (shfl: 9.7.9.6,
// vote: 9.7.13.x, redux.sync: 9.7.13.x).
#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

// One PTX class: T, per-step instruction count, and the step (x = op(x, b, c)).
#define UB_OP(NAME, TYPE, CONS, NINSTR, ASM)                                           \
  struct NAME {                                                                        \
    using T = TYPE;                                                                    \
    static constexpr const char* name = #NAME;                                         \
    static constexpr int instrs = NINSTR;                                              \
    __device__ __forceinline__ static void step(T& x, T b, T c) {                      \
      asm volatile(ASM : "+" CONS(x) : CONS(b), CONS(c));                              \
    }                                                                                  \
  };

UB_OP(alu_u32, uint32_t, "r", 2, "add.u32 %0, %0, %1;\n\txor.b32 %0, %0, %2;")
UB_OP(alu_u64, uint64_t, "l", 2, "add.u64 %0, %0, %1;\n\txor.b64 %0, %0, %2;")
UB_OP(setp_selp, uint32_t, "r", 2, "{.reg .pred p; setp.lt.u32 p, %0, %1;\n\tselp.u32 %0, %2, %0, p;}")
UB_OP(imad_u32, uint32_t, "r", 1, "mad.lo.u32 %0, %0, %1, %2;")
UB_OP(imul_wide, uint64_t, "l", 1, "{.reg .b32 lo, m; cvt.u32.u64 lo, %0; cvt.u32.u64 m, %1; mul.wide.u32 %0, lo, m;}")
UB_OP(imul_u64, uint64_t, "l", 1, "mul.lo.u64 %0, %0, %1;")
UB_OP(popc_b32, uint32_t, "r", 2, "popc.b32 %0, %0;\n\tadd.u32 %0, %0, %1;")
UB_OP(brev_b32, uint32_t, "r", 1, "brev.b32 %0, %0;")
UB_OP(div_u32, uint32_t, "r", 2, "div.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;")
UB_OP(rem_s32, uint32_t, "r", 2, "rem.s32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;")
UB_OP(div_u64, uint64_t, "l", 2, "div.u64 %0, %0, %1;\n\tadd.u64 %0, %0, %2;")
UB_OP(fma_f32, float, "f", 1, "fma.rn.f32 %0, %0, %1, %2;")
UB_OP(add_f32, float, "f", 1, "add.rn.f32 %0, %0, %1;")
UB_OP(ex2_f32, float, "f", 1, "ex2.approx.ftz.f32 %0, %0;")
UB_OP(rsqrt_f32, float, "f", 1, "rsqrt.approx.ftz.f32 %0, %0;")
UB_OP(sin_f32, float, "f", 1, "sin.approx.ftz.f32 %0, %0;")
UB_OP(rcp_rn_f32, float, "f", 1, "rcp.rn.f32 %0, %0;")
UB_OP(div_rn_f32, float, "f", 1, "div.rn.f32 %0, %0, %1;")
UB_OP(div_approx_f32, float, "f", 1, "div.approx.f32 %0, %0, %1;")
UB_OP(sqrt_rn_f32, float, "f", 1, "sqrt.rn.f32 %0, %0;")
UB_OP(fma_f64, double, "d", 1, "fma.rn.f64 %0, %0, %1, %2;")
UB_OP(div_rn_f64, double, "d", 1, "div.rn.f64 %0, %0, %1;")
UB_OP(sqrt_rn_f64, double, "d", 1, "sqrt.rn.f64 %0, %0;")
UB_OP(fma_f16x2, uint32_t, "r", 1, "fma.rn.f16x2 %0, %0, %1, %2;")
UB_OP(fma_bf16x2, uint32_t, "r", 1, "fma.rn.bf16x2 %0, %0, %1, %2;")
UB_OP(cvt_f32_s32, uint32_t, "r", 2, "{.reg .f32 t; cvt.rn.f32.s32 t, %0;\n\tcvt.rzi.s32.f32 %0, t;}")
UB_OP(cvt_f16_f32, float, "f", 2, "{.reg .b16 h; cvt.rn.f16.f32 h, %0;\n\tcvt.f32.f16 %0, h;}")
UB_OP(cvt_f64_f32, float, "f", 2, "{.reg .f64 d; cvt.f64.f32 d, %0;\n\tcvt.rn.f32.f64 %0, d;}")
UB_OP(cvt_bf16x2_f32, uint32_t, "r", 2,
      "{.reg .f32 f; mov.b32 f, %0;\n\tcvt.rn.bf16x2.f32 %0, f, f;}")
UB_OP(shfl_bfly, uint32_t, "r", 2, "{.reg .b32 t; and.b32 t, %0, 31;\n\tshfl.sync.bfly.b32 %0, %0, t, 0x1f, 0xffffffff;}")
UB_OP(shfl_idx, uint32_t, "r", 2, "{.reg .b32 t; and.b32 t, %0, 31;\n\tshfl.sync.idx.b32 %0, %0, t, 0x1f, 0xffffffff;}")
UB_OP(vote_ballot, uint32_t, "r", 2, "{.reg .pred p; setp.ne.u32 p, %0, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;}")
UB_OP(redux_add, uint32_t, "r", 1, "redux.sync.add.u32 %0, %0, 0xffffffff;")
#undef UB_OP

template <class Op, int N>
__global__ void k_lat(typename Op::T a, typename Op::T b, typename Op::T c, uint64_t* out,
                      typename Op::T* sinkp) {
  using T = typename Op::T;
  T x = a + T(threadIdx.x);  // lane-varying: ptxas may not move the chain to the uniform datapath
  uint64_t best = ~0ull;
  for (int r = 0; r < 4; ++r) {
    const uint64_t t0 = clock64_();
#pragma unroll
    for (int i = 0; i < N; ++i) Op::step(x, b, c);
    const uint64_t t1 = clock64_();
    best = best < t1 - t0 ? best : t1 - t0;
  }
  out[0] = best;
  *sinkp = x;
}

template <class Op>
__global__ void k_tput(typename Op::T a, typename Op::T b, typename Op::T c, int iters, uint64_t* out,
                       typename Op::T* sinkp) {
  using T = typename Op::T;
  T x[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) x[j] = a + T(threadIdx.x * 8 + j + 1);  // distinct, lane-varying chains: nothing to merge or make uniform
  __syncthreads();
  const uint64_t t0 = clock64_();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j) Op::step(x[j], b, c);
  }
  __syncthreads();
  const uint64_t t1 = clock64_();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  T s = x[0];
#pragma unroll
  for (int j = 1; j < 8; ++j) s = s + x[j];  // every chain is live
  sink(s, a, sinkp);
}

template <class T>
struct Args {
  T a, b, c;
};
template <class T>
Args<T> args_for();
template <>
Args<uint32_t> args_for() { return {12345u, 7u, 0x5a5a5a5au}; }
template <>
Args<uint64_t> args_for() { return {0x123456789abull, 7ull, 0x10000000000ull}; }
template <>
Args<float> args_for() { return {1.5f, 1.0001f, 0.25f}; }
template <>
Args<double> args_for() { return {1.5, 1.0001, 0.25}; }

template <class Op>
void bench(int iters, const char* detail) {
  using T = typename Op::T;
  const Args<T> a = args_for<T>();
  Clocks clk(2);
  T* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  std::vector<double> lat, tput;
  for (int rep = 0; rep < 5; ++rep) {
    k_lat<Op, 64><<<1, 1>>>(a.a, a.b, a.c, clk.d, sinkp);
    k_lat<Op, 128><<<1, 1>>>(a.a, a.b, a.c, clk.d + 1, sinkp);
    sync_check(Op::name);
    const auto h = clk.get();
    lat.push_back((double(h[1]) - double(h[0])) / (64.0 * Op::instrs));
    k_tput<Op><<<1, 1024>>>(a.a, a.b, a.c, iters, clk.d, sinkp);
    sync_check(Op::name);
    const auto t = clk.get();
    tput.push_back(1024.0 * iters * 64 * Op::instrs / double(t[0]));
  }
  row("pipe", std::string(Op::name) + ".latency", median(lat), "cycles", detail);
  row("pipe", std::string(Op::name) + ".per_clk", median(tput), "thread-instr/clk/SM", detail);
  cudaFree(sinkp);
}

}  // namespace

void run_pipes() {
  bench<alu_u32>(64, "add.u32 + xor.b32 (per instruction)");
  bench<alu_u64>(32, "add.u64 + xor.b64 (per instruction)");
  bench<setp_selp>(64, "setp.lt.u32 + selp.u32 (per instruction)");
  bench<imad_u32>(64, "mad.lo.u32");
  bench<imul_wide>(64, "mul.wide.u32");
  bench<imul_u64>(16, "mul.lo.u64");
  bench<popc_b32>(32, "popc.b32 + add.u32 (per instruction)");
  bench<brev_b32>(32, "brev.b32");
  bench<div_u32>(4, "div.u32 + add.u32 (per instruction)");
  bench<rem_s32>(4, "rem.s32 + add.u32 (per instruction)");
  bench<div_u64>(1, "div.u64 + add.u64 (per instruction)");
  bench<fma_f32>(64, "fma.rn.f32");
  bench<add_f32>(64, "add.rn.f32");
  bench<ex2_f32>(16, "ex2.approx.ftz.f32");
  bench<rsqrt_f32>(16, "rsqrt.approx.ftz.f32");
  bench<sin_f32>(16, "sin.approx.ftz.f32");
  bench<rcp_rn_f32>(4, "rcp.rn.f32");
  bench<div_rn_f32>(4, "div.rn.f32");
  bench<div_approx_f32>(16, "div.approx.f32");
  bench<sqrt_rn_f32>(4, "sqrt.rn.f32");
  bench<fma_f64>(16, "fma.rn.f64");
  bench<div_rn_f64>(1, "div.rn.f64");
  bench<sqrt_rn_f64>(1, "sqrt.rn.f64");
  bench<fma_f16x2>(64, "fma.rn.f16x2");
  bench<fma_bf16x2>(64, "fma.rn.bf16x2");
  bench<cvt_f32_s32>(16, "cvt.rn.f32.s32 + cvt.rzi.s32.f32 (per instruction)");
  bench<cvt_f16_f32>(16, "cvt.rn.f16.f32 + cvt.f32.f16 (per instruction)");
  bench<cvt_f64_f32>(16, "cvt.f64.f32 + cvt.rn.f32.f64 (per instruction)");
  bench<cvt_bf16x2_f32>(16, "mov.b32 + cvt.rn.bf16x2.f32 (per instruction)");
  bench<shfl_bfly>(16, "and.b32 + shfl.sync.bfly.b32 by the value (per instruction)");
  bench<shfl_idx>(16, "and.b32 + shfl.sync.idx.b32 by the value (per instruction)");
  bench<vote_ballot>(16, "setp.ne.u32 + vote.sync.ballot.b32 (per instruction)");
  bench<redux_add>(16, "redux.sync.add.u32");
}

}  // namespace ub
