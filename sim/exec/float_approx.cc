// PTX ISA §9.7.3 Floating-Point Instructions, the approximate forms, and §9.7.4 ex2/tanh:
//   ex2.approx{.ftz}.f32 d, a;      lg2.approx{.ftz}.f32 d, a;     (§9.7.3.21, §9.7.3.20)
//   sin.approx{.ftz}.f32 d, a;      cos.approx{.ftz}.f32 d, a;     (§9.7.3.18, §9.7.3.19)
//   tanh.approx.f32 d, a;                                          (§9.7.3.22)
//   rsqrt.approx{.ftz}.f32 d, a;    rsqrt.approx.f64 d, a;          (§9.7.3.16)
//   rsqrt.approx.ftz.f64 d, a;                                     (§9.7.3.17)
//   rcp.approx{.ftz}.f32 d, a;      rcp.approx.ftz.f64 d, a;        (§9.7.3.13, §9.7.3.14)
//   sqrt.approx{.ftz}.f32 d, a;                                    (§9.7.3.15)
//   div.approx{.ftz}.f32 d, a, b;   div.full{.ftz}.f32 d, a, b;     (§9.7.3.8)
//   ex2.approx.atype d, a;  ex2.approx.ftz.btype d, a;  .atype = { .f16, .f16x2 }, .btype = { .bf16, .bf16x2 }
//   tanh.approx.type d, a;  .type = { .f16, .f16x2, .bf16, .bf16x2 }                 (§9.7.4.9, .10)
//
// Policy (docs/approx_ops.md): these are specified by error bounds, not bits. tcsim returns the
// exact value rounded to nearest in the destination format (approx_math.h evaluates it
// deterministically) -- toward zero for the f16/bf16 forms and the 1.11.20 f64 forms, where the
// H200 truncates (see half_op and exec_upper_f64) -- which is within every bound the PTX ISA states:
//   ex2.f32 2 ulp; lg2.f32 2^-22 abs in (0.5, 2), else 2^-22 rel; sin/cos.f32 2^-20.5 abs on
//   [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi]; tanh.f32 2^-11 rel; rsqrt.f32 2^-22.9 rel; rcp.f32
//   1 ulp; sqrt.f32 2^-23 rel; div.approx.f32 2 ulp for |b| in [2^-126, 2^126]; div.full.f32 2 ulp;
//   ex2.f16 2^-9.9 rel, ex2.bf16 2^-7 rel; tanh.f16 2^-10.987 abs, tanh.bf16 2^-8 abs.
// Exceptions, as the PTX ISA defines them:
//   - div.approx.f32 is a * (1/b), and for 2^126 < |b| < 2^128 returns a sign-preserving zero (NaN
//     when a is infinite): the reciprocal is flushed when subnormal.
//   - rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 read only a[63:32] (1.11.20 format) and write a
//     1.11.20 result with d[31:0] = 0; subnormal inputs/results flush; NaN -> 0x7fffffff00000000.
// Special values follow the tables of each section (ex2(-inf) = +0, lg2(+-0) = -inf, lg2(x<0) =
// NaN, sin/cos(+-inf) = NaN, rsqrt(-0) = -inf, rsqrt(+inf) = +0, tanh(+-inf) = +-1, ...), which the
// exact value already satisfies. .ftz flushes subnormal inputs and results to sign-preserving zero.
// NaN results: f32 canonical 0x7fffffff, f16/bf16 0x7fff (as every other H200 f32/half result);
// rsqrt.approx.f64 follows the f64 rule (fp_util.h result64).
// Every execution notes the instruction's form in Partition::note_approx, so `tcsim run` lists
// the approximate instructions that ran in its output manifest ("approx_ops").
#include <cmath>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/approx_math.h"
#include "sim/exec/fp_util.h"
#include "sim/exec/half_util.h"
#include "sim/exec/lane_ops.h"
#include "sim/partition.h"

namespace tcsim::sim {
namespace {

using half::Fmt;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class AOp : uint8_t { Ex2, Lg2, Sin, Cos, Tanh, Rsqrt, Rcp, Sqrt, Div, DivFull };

inline void note(ExecCtx& c, const ExecInstr& in) { c.part->note_approx(static_cast<uint32_t>(in.aux >> 32)); }

template <AOp O>
inline float f32_op(float x, float y) {
  switch (O) {
    case AOp::Ex2: return static_cast<float>(approx::exp2(x));  // NaN, +-inf handled by exp2
    case AOp::Lg2:
      if (std::isnan(x) || x < 0) return NAN;
      if (x == 0) return -INFINITY;
      if (std::isinf(x)) return INFINITY;
      return static_cast<float>(approx::log2(x));
    case AOp::Sin: return std::isfinite(x) ? static_cast<float>(approx::sin(x)) : NAN;
    case AOp::Cos: return std::isfinite(x) ? static_cast<float>(approx::cos(x)) : NAN;
    case AOp::Tanh:
      if (std::isnan(x)) return NAN;
      if (std::isinf(x)) return std::copysign(1.0f, x);
      return static_cast<float>(approx::tanh(x));
    case AOp::Rsqrt:
      if (x == 0) return std::copysign(INFINITY, x);  // -0 -> -inf (§9.7.3.16 table)
      if (std::isnan(x) || x < 0) return NAN;
      return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
    case AOp::Rcp: return 1.0f / x;  // correctly rounded: within the 1-ulp bound
    case AOp::Sqrt: return std::sqrt(x);
    case AOp::Div: {
      float r = 1.0f / y;
      if (std::fpclassify(r) == FP_SUBNORMAL) r = std::copysign(0.0f, r);
      return x * r;
    }
    case AOp::DivFull: return x / y;
  }
  return NAN;
}

template <AOp O, bool Ftz>
void exec_approx_f32(ExecCtx& c, const ExecInstr& in) {
  note(c, in);
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = (O == AOp::Div || O == AOp::DivFull) ? c.src(in.o[2]) : a;
  for_lanes(c.mask, [&](int i) {
    float x = as<float>(a[i]), y = as<float>(b[i]);
    if constexpr (Ftz) {
      x = fp::ftz(x);
      y = fp::ftz(y);
    }
    float r = f32_op<O>(x, y);
    if constexpr (Ftz) r = fp::ftz(r);
    d[i] = fp::canon(r);
  });
}

// rsqrt.approx.f64: 1/sqrt in double (two correctly rounded steps, < 2 ulp).
void exec_rsqrt_f64(ExecCtx& c, const ExecInstr& in) {
  note(c, in);
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  for_lanes(c.mask, [&](int i) {
    const double x = as<double>(a[i]);
    double r;
    if (x == 0) r = std::copysign(INFINITY, x);
    else if (x < 0) r = NAN;
    else r = 1.0 / std::sqrt(x);
    d[i] = fp::result64(r, 1, a[i]);
  });
}

// rcp/rsqrt.approx.ftz.f64 on the upper word (§9.7.3.14, §9.7.3.17): tmp = a[63:32] as 1.11.20;
// d[63:32] = f(tmp) in 1.11.20, d[31:0] = 0. The PTX ISA gives no bound for this "gross
// approximation"; tcsim truncates the exact value (rounds toward zero), the closer model of the
// H200: approx_math column 18 (rcp.approx.ftz.f64) equals the truncation in 463 of 500 cases and
// the nearest value in 263. rsqrt.approx.ftz.f64 is not in the corpus: ASSUMED the same rounding.
template <bool Rsqrt>
void exec_upper_f64(ExecCtx& c, const ExecInstr& in) {
  note(c, in);
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  constexpr uint64_t kNaN = 0x7fffffff00000000ull;
  for_lanes(c.mask, [&](int i) {
    const uint64_t hi = a[i] & 0xffffffff00000000ull;
    const bool neg = hi >> 63;
    const uint64_t sign = hi & 0x8000000000000000ull;
    const int e = static_cast<int>(hi >> 52 & 0x7ff);
    const uint64_t inf = 0x7ff0000000000000ull;
    uint64_t r;
    if (e == 0x7ff) {
      r = (hi & 0x000fffff00000000ull) ? kNaN : (Rsqrt && neg ? kNaN : sign);  // 1/inf = 0, 1/sqrt(-inf) = NaN
    } else if (e == 0) {
      r = sign | inf;  // +-0 and subnormals (flushed): +-inf (rsqrt(-0) = -inf, table)
    } else if (Rsqrt && neg) {
      r = kNaN;
    } else {
      const double v = std::bit_cast<double>(hi);
      const double q = Rsqrt ? 1.0 / std::sqrt(v) : 1.0 / v;
      bool n;
      uint64_t mant;
      int exp;
      fp::decompose(q, &n, &mant, &exp);
      // Rounded to 21 significand bits (1.11.20); the upper word of the f64 pattern.
      r = fp::round_pack<21, 11>(n, mant, exp, fp::Rnd::RZ) << 32;
      if ((r & inf) == 0) r &= 0x8000000000000000ull;  // subnormal result: flushed
    }
    d[i] = r;
  });
}

// ex2/tanh on f16/bf16: the exact value rounded toward zero, overflow to +inf. Toward zero, not to
// nearest, because that is what the H200 does (kernels/basic approx_math golden): ex2.approx.f16x2
// and ex2.approx.ftz.bf16x2 equal the exact 2^x truncated in 1000 of 1000 lanes each (nearest: 469,
// 470); tanh.approx.{f16,f16x2,bf16x2}: truncated in 497/500, 874/1000, 878/1000 lanes (nearest:
// 227, 457, 394) -- the hardware's tanh is itself approximate near +-1.
template <Fmt F, bool Tanh, bool Ftz>
inline uint16_t half_op(uint16_t a) {
  if (Ftz) a = half::ftz<F>(a);
  if (half::is_nan<F>(a)) return half::kCanonicalNaN;
  const double x = half::to_double<F>(a);
  const double v = Tanh ? (std::isinf(x) ? std::copysign(1.0, x) : approx::tanh(x)) : approx::exp2(x);
  uint16_t r = half::round_pair<F>(v, 0.0, fp::Rnd::RZ);
  if (!Tanh && (r & 0x7fff) == half::Spec<F>::kInf - 1 && half::round_rn<F>(v) == half::Spec<F>::kInf)
    r = half::Spec<F>::kInf;  // 2^x beyond the largest finite value: +inf (the table's +Inf -> +Inf)
  if (Ftz) r = half::ftz<F>(r);
  return r;
}

template <Fmt F, bool Tanh, bool Ftz, bool X2>
void exec_approx_half(ExecCtx& c, const ExecInstr& in) {
  note(c, in);
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  for_lanes(c.mask, [&](int i) {
    uint64_t r = half_op<F, Tanh, Ftz>(half::lane(a[i], 0));
    if constexpr (X2) r |= uint64_t{half_op<F, Tanh, Ftz>(half::lane(a[i], 1))} << 16;
    d[i] = r;
  });
}

template <AOp O>
ExecFn pick_f32(bool ftz) {
  return ftz ? &exec_approx_f32<O, true> : &exec_approx_f32<O, false>;
}

template <bool Tanh>
ExecFn pick_half(Type t, bool ftz) {
  switch (t) {
    case Type::F16: return &exec_approx_half<Fmt::F16, Tanh, false, false>;
    case Type::F16x2: return &exec_approx_half<Fmt::F16, Tanh, false, true>;
    case Type::BF16: return ftz ? &exec_approx_half<Fmt::BF16, Tanh, true, false> : &exec_approx_half<Fmt::BF16, Tanh, false, false>;
    case Type::BF16x2: return ftz ? &exec_approx_half<Fmt::BF16, Tanh, true, true> : &exec_approx_half<Fmt::BF16, Tanh, false, true>;
    default: return nullptr;
  }
}

// The instruction's form as written ("ex2.approx.ftz.f32"), registered once per program.
uint32_t approx_id(BindCtx& b) {
  std::string name(isa::ptx::op_mnemonic(b.in.op));
  for (Mod m : b.in.mods) name.append(".").append(isa::ptx::mod_name(m));
  for (int i = 0; i < b.in.ntypes; ++i) name.append(".").append(isa::ptx::type_name(b.in.types[i]));
  auto& v = b.prog.approx_names;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] == name) return static_cast<uint32_t>(i);
  v.push_back(name);
  return static_cast<uint32_t>(v.size() - 1);
}

}  // namespace

void bind_float_approx(BindCtx& b) {
  using isa::ptx::Op;
  using isa::ptx::Rounding;
  const Op op = b.in.op;
  const Type t = b.type(0);
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  const bool ftz = b.has(Mod::ftz), full = b.has(Mod::full);
  b.only_mods({Mod::approx, Mod::ftz, Mod::full});
  need(b.in.rnd == Rounding::None, "approximate instructions take no rounding modifier");
  if (op == Op::div_float) need(b.has(Mod::approx) != full, "div takes one of .approx, .full or a rounding modifier");
  else need(b.has(Mod::approx) && !full, fmt::format("{} needs .approx", isa::ptx::op_mnemonic(op)));
  ExecFn fn = nullptr;
  int w = 32;
  if (op == Op::ex2_half || op == Op::tanh_half) {
    const bool bf = t == Type::BF16 || t == Type::BF16x2;
    if (op == Op::ex2_half) need(ftz == bf, bf ? "ex2.approx on .bf16/.bf16x2 needs .ftz" : "ex2.approx.f16 takes no .ftz");
    else need(!ftz, "tanh.approx takes no .ftz");
    fn = op == Op::ex2_half ? pick_half<false>(t, ftz) : pick_half<true>(t, ftz);
    w = t == Type::F16x2 || t == Type::BF16x2 ? 32 : 16;
  } else if (t == Type::F64) {
    switch (op) {
      case Op::rcp: need(ftz, "rcp.approx.f64 exists only as rcp.approx.ftz.f64"); fn = &exec_upper_f64<false>; break;
      case Op::rsqrt: fn = ftz ? &exec_upper_f64<true> : &exec_rsqrt_f64; break;
      default: b.fail(fmt::format("{}.approx has no .f64 form (rcp.approx.ftz.f64, rsqrt.approx{{.ftz}}.f64 do)", isa::ptx::op_mnemonic(op)));
    }
    w = 64;
  } else {
    need(t == Type::F32, fmt::format("type .{} is not .f32", isa::ptx::type_name(t)));
    switch (op) {
      case Op::ex2_float: fn = pick_f32<AOp::Ex2>(ftz); break;
      case Op::lg2: fn = pick_f32<AOp::Lg2>(ftz); break;
      case Op::sin: fn = pick_f32<AOp::Sin>(ftz); break;
      case Op::cos: fn = pick_f32<AOp::Cos>(ftz); break;
      case Op::tanh_float: need(!ftz, "tanh.approx.f32 takes no .ftz"); fn = pick_f32<AOp::Tanh>(false); break;
      case Op::rsqrt: fn = pick_f32<AOp::Rsqrt>(ftz); break;
      case Op::rcp: fn = pick_f32<AOp::Rcp>(ftz); break;
      case Op::sqrt: fn = pick_f32<AOp::Sqrt>(ftz); break;
      case Op::div_float: fn = full ? pick_f32<AOp::DivFull>(ftz) : pick_f32<AOp::Div>(ftz); break;
      default: b.fail("internal: not an approximate instruction");
    }
  }
  if (!fn) b.fail(fmt::format("type .{} has no {}.approx form", isa::ptx::type_name(t), isa::ptx::op_mnemonic(op)));
  b.out.fn = fn;
  b.out.aux = uint64_t{approx_id(b)} << 32;
  b.out.o[0] = b.dst(0, w);
  b.out.o[1] = b.src(1, t);
  if (op == Op::div_float) b.out.o[2] = b.src(2, t);
}

}  // namespace tcsim::sim
