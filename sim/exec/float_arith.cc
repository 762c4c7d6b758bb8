// PTX ISA §9.7.3 Floating-Point Instructions (f32, f64):
//   add{.rnd}{.ftz}{.sat}.f32 d, a, b;     add{.rnd}.f64 d, a, b;     .rnd = { .rn, .rz, .rm, .rp }
//   sub{.rnd}{.ftz}{.sat}.f32 d, a, b;     sub{.rnd}.f64 d, a, b;
//   mul{.rnd}{.ftz}{.sat}.f32 d, a, b;     mul{.rnd}.f64 d, a, b;
//   fma.rnd{.ftz}{.sat}.f32 d, a, b, c;    fma.rnd.f64 d, a, b, c;    (single rounding)
//   mad.rnd{.ftz}{.sat}.f32 d, a, b, c;    mad.rnd.f64 d, a, b, c;    (= fma on sm_20+)
//   abs{.ftz}.f32 d, a;  abs.f64 d, a;     neg{.ftz}.f32 d, a;  neg.f64 d, a;
//   min{.ftz}{.NaN}{.xorsign.abs}.f32 d, a, b;  min{.ftz}{.NaN}{.abs}.f32 d, a, b, c;  min.f64 d, a, b;
//   max: as min.
//   testp.op.type p, a;     .op = { .finite, .infinite, .number, .notanumber, .normal, .subnormal }
//   copysign.type d, a, b;  d = |b| with the sign of a
// (The packed .f32x2 forms are bound by float_x2.cc, the mixed-precision .f32.{f16,bf16} forms of
// add/sub/fma (§9.7.5) by float_mixed.cc.)
// Rounding: every mode is exact (fp_util.h HostRounding). Default rounding is .rn. .ftz flushes
// subnormal inputs and results to sign-preserving zero (flushing the rounded result); .sat clamps
// to [0, 1] with NaN -> 0. NaN results: f32 canonical, f64 propagated (fp_util.h fp::result).
// min/max: a NaN operand is ignored (the other is returned) unless both are NaN or .NaN is given
// (then a NaN result); -0.0 orders below +0.0. abs/neg of a NaN: fp_util.h.
#include <cmath>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/float_forms.h"
#include "sim/exec/fp_util.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using fp::Rnd;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class FOp { Add, Sub, Mul, Fma };

template <class T, FOp O, Rnd R, bool Ftz, bool Sat>
void exec_farith(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = O == FOp::Fma ? c.src(in.o[3]) : nullptr;
  auto compute = [&](int i) {
    T x = as<T>(a[i]), y = as<T>(b[i]);
    T z = O == FOp::Fma ? as<T>(e[i]) : T(0);
    if constexpr (Ftz) {
      x = fp::ftz(x);
      y = fp::ftz(y);
      z = fp::ftz(z);
    }
    if constexpr (R != Rnd::RN) {
      fp::fp_barrier(x);
      fp::fp_barrier(y);
      fp::fp_barrier(z);
    }
    T r;
    if constexpr (O == FOp::Add) r = x + y;
    else if constexpr (O == FOp::Sub) r = x - y;
    else if constexpr (O == FOp::Mul) r = x * y;
    else r = std::fma(x, y, z);
    if constexpr (R != Rnd::RN) fp::fp_barrier(r);
    if constexpr (Ftz) r = fp::ftz(r);
    if constexpr (Sat) r = fp::sat01(r);
    return fp::result<T>(r, O == FOp::Fma ? 3 : 2, a[i], b[i], e ? e[i] : 0);
  };
  if constexpr (R == Rnd::RN) {
    blend_lanes(c.mask, d, compute);
  } else {
    fp::HostRounding scope(R);
    for_lanes(c.mask, [&](int i) { d[i] = compute(i); });
  }
}

template <class T, bool Neg, bool Ftz>
void exec_fabs_neg(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  constexpr uint64_t sign = sizeof(T) == 4 ? 0x80000000u : 0x8000000000000000ull;
  blend_lanes(c.mask, d, [&](int i) {
    T x = as<T>(a[i]);
    if (std::isnan(x)) [[unlikely]]
      return sizeof(T) == 4 ? uint64_t{fp::kCanonicalNaN32} : a[i] | fp::kQuietBit64;
    if constexpr (Ftz) x = fp::ftz(x);
    const uint64_t v = bits<T>(x);
    return Neg ? v ^ sign : v & ~sign;
  });
}

// aux bits: 0 max, 1 .NaN, 2 .xorsign, 3 .abs, 4 three operands.
template <class T, bool Ftz>
void exec_fminmax(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = (in.aux & 16) ? c.src(in.o[3]) : nullptr;
  const bool is_max = in.aux & 1, nan_mode = in.aux & 2, xorsign = in.aux & 4, absmode = in.aux & 8;
  auto pick = [&](T x, T y) -> T {
    const bool nx = std::isnan(x), ny = std::isnan(y);
    if ((nx && ny) || (nan_mode && (nx || ny))) return nx ? x : y;  // result() picks the NaN bits
    if (nx) return y;
    if (ny) return x;
    if (x == y) {  // equal, incl. +0 and -0: -0 orders below +0
      const bool sx = std::signbit(x), sy = std::signbit(y);
      return (is_max ? (sx && !sy) : (!sx && sy)) ? y : x;
    }
    return is_max ? (x > y ? x : y) : (x < y ? x : y);
  };
  blend_lanes(c.mask, d, [&](int i) {
    T x = as<T>(a[i]), y = as<T>(b[i]);
    T z = e ? as<T>(e[i]) : T(0);
    if constexpr (Ftz) {
      x = fp::ftz(x);
      y = fp::ftz(y);
      z = fp::ftz(z);
    }
    const bool sign = std::signbit(x) != std::signbit(y);
    if (absmode) {
      x = std::fabs(x);
      y = std::fabs(y);
      z = std::fabs(z);
    }
    T r = pick(x, y);
    if (e) r = pick(r, z);
    if (xorsign && !std::isnan(r)) r = std::copysign(r, sign ? T(-1) : T(1));
    return fp::result<T>(r, e ? 3 : 2, a[i], b[i], e ? e[i] : 0);
  });
}

enum class TestP : uint8_t { Finite, Infinite, Number, NotANumber, Normal, Subnormal };
template <class T>
void exec_testp(ExecCtx& c, const ExecInstr& in) {
  const uint64_t* a = c.src(in.o[1]);
  const TestP op = static_cast<TestP>(in.aux);
  uint32_t r = 0;
  for_lanes(c.mask, [&](int i) {
    const T x = as<T>(a[i]);
    bool v = false;
    switch (op) {
      case TestP::Finite: v = std::isfinite(x); break;
      case TestP::Infinite: v = std::isinf(x); break;
      case TestP::Number: v = !std::isnan(x); break;
      case TestP::NotANumber: v = std::isnan(x); break;
      // H200 (kernels/basic f32_rounding, f64_math goldens): +-0 count as normal, as the PTX ISA
      // says ("as a special case, positive and negative zero are considered normal numbers").
      case TestP::Normal: v = std::isnormal(x) || x == T(0); break;
      case TestP::Subnormal: v = std::fpclassify(x) == FP_SUBNORMAL; break;
    }
    r |= uint32_t{v} << i;
  });
  uint32_t& p = c.preds[in.o[0]];
  p = (p & ~c.mask) | (r & c.mask);
}

template <class T>
void exec_copysign(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  constexpr uint64_t sign = sizeof(T) == 4 ? 0x80000000u : 0x8000000000000000ull;
  blend_lanes(c.mask, d, [&](int i) { return (b[i] & ~sign) | (a[i] & sign); });
}

template <class T, FOp O, Rnd R>
ExecFn pick_fs(bool ftz, bool sat) {
  return ftz ? (sat ? &exec_farith<T, O, R, true, true> : &exec_farith<T, O, R, true, false>)
             : (sat ? &exec_farith<T, O, R, false, true> : &exec_farith<T, O, R, false, false>);
}
template <class T, FOp O>
ExecFn pick_arith(Rnd r, bool ftz, bool sat) {
  switch (r) {
    case Rnd::RN: return pick_fs<T, O, Rnd::RN>(ftz, sat);
    case Rnd::RZ: return pick_fs<T, O, Rnd::RZ>(ftz, sat);
    case Rnd::RM: return pick_fs<T, O, Rnd::RM>(ftz, sat);
    case Rnd::RP: return pick_fs<T, O, Rnd::RP>(ftz, sat);
  }
  return nullptr;
}

}  // namespace

void bind_float_arith(BindCtx& b) {
  using isa::ptx::Op;
  using isa::ptx::Rounding;
  const Type t = b.type(0);
  const Op op = b.in.op;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  if (t == Type::F32x2) return bind_float_x2(b);  // float_x2.cc (sm_100+)
  if (t != Type::F32 && t != Type::F64) b.fail(fmt::format("type .{} is not .f32 or .f64", isa::ptx::type_name(t)));
  if (b.type(1) != Type::None) return bind_float_mixed(b);  // .f32.f16 / .f32.bf16: float_mixed.cc
  const bool f32 = t == Type::F32;
  const bool ftz = b.has(Mod::ftz), sat = b.has(Mod::sat);
  if (!f32) need(!ftz && !sat, ".ftz and .sat apply to .f32 only");
  const int w = f32 ? 32 : 64;
  switch (op) {
    case Op::add_float:
    case Op::sub_float:
    case Op::mul_float:
    case Op::fma_float:
    case Op::mad_float: {
      b.only_mods({Mod::ftz, Mod::sat});
      const Rounding rr = b.in.rnd;
      need(rr == Rounding::None || rr == Rounding::RN || rr == Rounding::RZ || rr == Rounding::RM || rr == Rounding::RP,
           "the rounding modifier must be .rn, .rz, .rm or .rp");
      const bool three = op == Op::fma_float || op == Op::mad_float;
      if (three) need(rr != Rounding::None || (op == Op::mad_float && f32), "fma needs a rounding modifier (.rn, .rz, .rm, .rp)");
      const Rnd r = fp::from_ptx(rr);
      const FOp fo = op == Op::add_float ? FOp::Add : op == Op::sub_float ? FOp::Sub : op == Op::mul_float ? FOp::Mul : FOp::Fma;
      ExecFn fn = nullptr;
      switch (fo) {
        case FOp::Add: fn = f32 ? pick_arith<float, FOp::Add>(r, ftz, sat) : pick_arith<double, FOp::Add>(r, false, false); break;
        case FOp::Sub: fn = f32 ? pick_arith<float, FOp::Sub>(r, ftz, sat) : pick_arith<double, FOp::Sub>(r, false, false); break;
        case FOp::Mul: fn = f32 ? pick_arith<float, FOp::Mul>(r, ftz, sat) : pick_arith<double, FOp::Mul>(r, false, false); break;
        case FOp::Fma: fn = f32 ? pick_arith<float, FOp::Fma>(r, ftz, sat) : pick_arith<double, FOp::Fma>(r, false, false); break;
      }
      b.out.fn = fn;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, t);
      if (three) b.out.o[3] = b.src(3, t);
      return;
    }
    case Op::abs_float:
    case Op::neg_float: {
      b.only_mods({Mod::ftz});
      const bool neg = op == Op::neg_float;
      b.out.fn = f32 ? (neg ? (ftz ? &exec_fabs_neg<float, true, true> : &exec_fabs_neg<float, true, false>)
                            : (ftz ? &exec_fabs_neg<float, false, true> : &exec_fabs_neg<float, false, false>))
                     : (neg ? &exec_fabs_neg<double, true, false> : &exec_fabs_neg<double, false, false>);
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      return;
    }
    case Op::min_float:
    case Op::max_float: {
      b.only_mods({Mod::ftz, Mod::NaN, Mod::xorsign, Mod::abs});
      const bool three = b.nops() == 4;
      if (!f32) need(!b.has(Mod::NaN) && !b.has(Mod::xorsign) && !b.has(Mod::abs) && !three, ".f64 min/max take no modifiers");
      if (b.has(Mod::xorsign)) need(b.has(Mod::abs) && !three, ".xorsign needs .abs and two operands");
      b.out.aux = (op == Op::max_float ? 1 : 0) | (b.has(Mod::NaN) ? 2 : 0) | (b.has(Mod::xorsign) ? 4 : 0) |
                  (b.has(Mod::abs) ? 8 : 0) | (three ? 16 : 0);
      b.out.fn = f32 ? (ftz ? &exec_fminmax<float, true> : &exec_fminmax<float, false>) : &exec_fminmax<double, false>;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, t);
      if (three) b.out.o[3] = b.src(3, t);
      return;
    }
    case Op::testp: {
      b.only_mods({Mod::finite, Mod::infinite, Mod::number, Mod::notanumber, Mod::normal, Mod::subnormal});
      int n = 0;
      TestP tp = TestP::Finite;
      const std::pair<Mod, TestP> ops[] = {{Mod::finite, TestP::Finite}, {Mod::infinite, TestP::Infinite},
                                           {Mod::number, TestP::Number}, {Mod::notanumber, TestP::NotANumber},
                                           {Mod::normal, TestP::Normal}, {Mod::subnormal, TestP::Subnormal}};
      for (auto [m, v] : ops)
        if (b.has(m)) {
          tp = v;
          ++n;
        }
      need(n == 1, "testp needs exactly one of .finite .infinite .number .notanumber .normal .subnormal");
      b.out.aux = static_cast<uint64_t>(tp);
      b.out.fn = f32 ? &exec_testp<float> : &exec_testp<double>;
      b.out.o[0] = b.pred_dst(0);
      b.out.o[1] = b.src(1, t);
      return;
    }
    case Op::copysign:
      b.only_mods({});
      b.out.fn = f32 ? &exec_copysign<float> : &exec_copysign<double>;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, t);
      return;
    default:
      b.fail("internal: not a float_arith row");
  }
}

}  // namespace tcsim::sim
