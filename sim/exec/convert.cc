// PTX ISA §9.7.9.21 Data Movement and Conversion Instructions: cvt (integer, f32, f64):
//   cvt{.irnd}{.ftz}{.sat}.dtype.atype d, a;   // integer rounding: float -> integer, float -> same float
//   cvt{.frnd}{.ftz}{.sat}.dtype.atype d, a;   // float rounding: int -> float, f64 -> f32
//   .irnd = { .rni, .rzi, .rmi, .rpi }, .frnd = { .rn, .rz, .rm, .rp }
//   .dtype, .atype = { .u8, .u16, .u32, .u64, .s8, .s16, .s32, .s64, .f32, .f64 }
// Rules encoded (PTX ISA §9.7.9.21 "Semantics" and the conversion tables):
//  - integer -> integer: wider destination sign-extends a signed source, zero-extends otherwise;
//    narrower destination keeps the low bits; .sat clamps to the destination range.
//  - integer -> float: rounded in the given mode (default .rn), exact where representable.
//  - float -> integer: rounded to an integral value per .irnd, then clamped to the destination range
//    (saturation is implied); NaN -> 0. .ftz flushes a subnormal f32 source first.
//  - f32 -> f64: exact. f64 -> f32: rounded per .frnd; .ftz flushes a subnormal result.
//  - f32 -> f32, f64 -> f64: .irnd rounds to an integral value; .ftz / .sat as for arithmetic.
//  - float destinations: .sat clamps to [0, 1] (NaN -> 0); NaN results are the canonical NaN.
// A destination register wider than .dtype receives the value extended per .dtype's signedness.
// Conversions to/from f16, bf16, tf32 and the fp8/fp6/fp4 formats go through models/formats and
// are not implemented yet (they fail when run, naming the instruction).
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/fp_util.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using fp::Rnd;
using isa::ptx::Mod;
using isa::ptx::Rounding;
using isa::ptx::Type;

// aux: mask of the destination register width (extension of narrow results).
template <class D>
inline uint64_t store_int(D v, uint64_t regmask) {
  return static_cast<uint64_t>(static_cast<int64_t>(v)) & regmask;
}
template <>
inline uint64_t store_int<uint64_t>(uint64_t v, uint64_t regmask) {
  return v & regmask;
}

template <class D, class S, bool Sat>
void exec_cvt_ii(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t rm = in.aux;
  blend_lanes(c.mask, d, [&](int i) {
    const S x = static_cast<S>(a[i]);
    D r;
    if constexpr (Sat) {
      using L = std::numeric_limits<D>;
      if constexpr (std::is_signed_v<S>) {
        const int64_t v = x;
        r = v < static_cast<int64_t>(L::min()) ? L::min()
            : (v > 0 && static_cast<uint64_t>(v) > static_cast<uint64_t>(L::max())) ? L::max() : static_cast<D>(v);
      } else {
        const uint64_t v = x;
        r = v > static_cast<uint64_t>(L::max()) ? L::max() : static_cast<D>(v);
      }
    } else {
      r = static_cast<D>(x);
    }
    return store_int<D>(r, rm);
  });
}

template <class D, class S, Rnd R>
void exec_cvt_if(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    const S x = static_cast<S>(a[i]);
    const bool neg = std::is_signed_v<S> && x < 0;
    const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(static_cast<int64_t>(x)) : static_cast<uint64_t>(x);
    if constexpr (std::is_same_v<D, float>) return fp::round_to_f32(neg, mag, 0, R);
    else return fp::round_to_f64(neg, mag, 0, R);
  });
}

template <class D, class S, Rnd R, bool Ftz>
void exec_cvt_fi(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t rm = in.aux;
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    S x = as<S>(a[i]);
    if constexpr (Ftz) x = fp::ftz(x);
    if (std::isnan(x)) return 0;
    double v = static_cast<double>(x);
    switch (R) {
      case Rnd::RN: v = std::nearbyint(v); break;  // ties to even (default host mode)
      case Rnd::RZ: v = std::trunc(v); break;
      case Rnd::RM: v = std::floor(v); break;
      case Rnd::RP: v = std::ceil(v); break;
    }
    using L = std::numeric_limits<D>;
    // Bounds as exact doubles: min is -2^(N-1) or 0; max+1 is 2^N or 2^(N-1).
    const double lo = static_cast<double>(L::min());
    const double hi_excl = std::ldexp(1.0, std::numeric_limits<D>::digits);
    D r;
    if (v < lo) r = L::min();
    else if (v >= hi_excl) r = L::max();
    else r = static_cast<D>(v);
    return store_int<D>(r, rm);
  });
}

template <Rnd R, bool Ftz, bool Sat>
void exec_cvt_f64_f32(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    const double x = as<double>(a[i]);
    if (std::isnan(x)) return Sat ? 0 : fp::kCanonicalNaN32;
    float r;
    if (std::isinf(x)) {
      r = static_cast<float>(x);
    } else {
      bool neg;
      uint64_t mant;
      int exp;
      fp::decompose(x, &neg, &mant, &exp);
      r = std::bit_cast<float>(fp::round_to_f32(neg, mant, exp, R));
    }
    if constexpr (Ftz) r = fp::ftz(r);
    if constexpr (Sat) r = fp::sat01(r);
    return bits<float>(r);
  });
}

template <bool Ftz, bool Sat>
void exec_cvt_f32_f64(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    float x = as<float>(a[i]);
    if constexpr (Ftz) x = fp::ftz(x);
    double r = x;
    if constexpr (Sat) r = fp::sat01(r);
    return fp::canon(r);
  });
}

// Same-type float conversion: optional rounding to an integral value, .ftz, .sat.
template <class T, int RI, bool Ftz, bool Sat>
void exec_cvt_ff_same(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    T x = as<T>(a[i]);
    if constexpr (Ftz) x = fp::ftz(x);
    if constexpr (RI == 1) x = std::nearbyint(x);
    if constexpr (RI == 2) x = std::trunc(x);
    if constexpr (RI == 3) x = std::floor(x);
    if constexpr (RI == 4) x = std::ceil(x);
    if constexpr (Ftz) x = fp::ftz(x);
    if constexpr (Sat) x = fp::sat01(x);
    return fp::canon(x);
  });
}

template <class D>
ExecFn ii_by_src(Type st, bool sat) {
  switch (st) {
#define CASE(T, C) case Type::T: return sat ? &exec_cvt_ii<D, C, true> : &exec_cvt_ii<D, C, false>;
    CASE(U8, uint8_t) CASE(U16, uint16_t) CASE(U32, uint32_t) CASE(U64, uint64_t)
    CASE(S8, int8_t) CASE(S16, int16_t) CASE(S32, int32_t) CASE(S64, int64_t)
    CASE(B8, uint8_t) CASE(B16, uint16_t) CASE(B32, uint32_t) CASE(B64, uint64_t)
#undef CASE
    default: return nullptr;
  }
}
ExecFn pick_ii(Type dt, Type st, bool sat) {
  switch (dt) {
    case Type::U8: case Type::B8: return ii_by_src<uint8_t>(st, sat);
    case Type::U16: case Type::B16: return ii_by_src<uint16_t>(st, sat);
    case Type::U32: case Type::B32: return ii_by_src<uint32_t>(st, sat);
    case Type::U64: case Type::B64: return ii_by_src<uint64_t>(st, sat);
    case Type::S8: return ii_by_src<int8_t>(st, sat);
    case Type::S16: return ii_by_src<int16_t>(st, sat);
    case Type::S32: return ii_by_src<int32_t>(st, sat);
    case Type::S64: return ii_by_src<int64_t>(st, sat);
    default: return nullptr;
  }
}

template <class D, Rnd R>
ExecFn if_by_src(Type st) {
  switch (st) {
#define CASE(T, C) case Type::T: return &exec_cvt_if<D, C, R>;
    CASE(U8, uint8_t) CASE(U16, uint16_t) CASE(U32, uint32_t) CASE(U64, uint64_t)
    CASE(S8, int8_t) CASE(S16, int16_t) CASE(S32, int32_t) CASE(S64, int64_t)
    CASE(B8, uint8_t) CASE(B16, uint16_t) CASE(B32, uint32_t) CASE(B64, uint64_t)
#undef CASE
    default: return nullptr;
  }
}
template <class D>
ExecFn pick_if(Type st, Rnd r) {
  switch (r) {
    case Rnd::RN: return if_by_src<D, Rnd::RN>(st);
    case Rnd::RZ: return if_by_src<D, Rnd::RZ>(st);
    case Rnd::RM: return if_by_src<D, Rnd::RM>(st);
    case Rnd::RP: return if_by_src<D, Rnd::RP>(st);
  }
  return nullptr;
}

template <class D, class S>
ExecFn fi_r(Rnd r, bool ftz) {
  switch (r) {
    case Rnd::RN: return ftz ? &exec_cvt_fi<D, S, Rnd::RN, true> : &exec_cvt_fi<D, S, Rnd::RN, false>;
    case Rnd::RZ: return ftz ? &exec_cvt_fi<D, S, Rnd::RZ, true> : &exec_cvt_fi<D, S, Rnd::RZ, false>;
    case Rnd::RM: return ftz ? &exec_cvt_fi<D, S, Rnd::RM, true> : &exec_cvt_fi<D, S, Rnd::RM, false>;
    case Rnd::RP: return ftz ? &exec_cvt_fi<D, S, Rnd::RP, true> : &exec_cvt_fi<D, S, Rnd::RP, false>;
  }
  return nullptr;
}
template <class S>
ExecFn pick_fi(Type dt, Rnd r, bool ftz) {
  switch (dt) {
    case Type::U8: return fi_r<uint8_t, S>(r, ftz);
    case Type::U16: return fi_r<uint16_t, S>(r, ftz);
    case Type::U32: return fi_r<uint32_t, S>(r, ftz);
    case Type::U64: return fi_r<uint64_t, S>(r, ftz);
    case Type::S8: return fi_r<int8_t, S>(r, ftz);
    case Type::S16: return fi_r<int16_t, S>(r, ftz);
    case Type::S32: return fi_r<int32_t, S>(r, ftz);
    case Type::S64: return fi_r<int64_t, S>(r, ftz);
    default: return nullptr;
  }
}

template <class T>
ExecFn pick_same(int ri, bool ftz, bool sat) {
#define SAME(R) return ftz ? (sat ? &exec_cvt_ff_same<T, R, true, true> : &exec_cvt_ff_same<T, R, true, false>) \
                           : (sat ? &exec_cvt_ff_same<T, R, false, true> : &exec_cvt_ff_same<T, R, false, false>);
  switch (ri) {
    case 0: SAME(0)
    case 1: SAME(1)
    case 2: SAME(2)
    case 3: SAME(3)
    default: SAME(4)
  }
#undef SAME
}

bool is_f(Type t) { return t == Type::F32 || t == Type::F64; }
bool is_i(Type t) { return isa::ptx::is_integer(t) && isa::ptx::type_bits(t) >= 8 && isa::ptx::type_bits(t) <= 64; }
bool is_irnd(Rounding r) { return r == Rounding::RNI || r == Rounding::RZI || r == Rounding::RMI || r == Rounding::RPI; }
bool is_frnd(Rounding r) { return r == Rounding::RN || r == Rounding::RZ || r == Rounding::RM || r == Rounding::RP; }

}  // namespace

void bind_convert(BindCtx& b) {
  const Type dt = b.type(0), st = b.type(1);
  if (b.has(Mod::pack)) return b.not_implemented("cvt.pack");
  if (dt == Type::None || st == Type::None) b.fail("cvt needs a destination and a source type");
  if (!(is_f(dt) || is_i(dt)) || !(is_f(st) || is_i(st)))
    return b.not_implemented(fmt::format("cvt between .{} and .{} (narrow float formats go through models/formats)",
                                         isa::ptx::type_name(dt), isa::ptx::type_name(st)));
  b.only_mods({Mod::ftz, Mod::sat});
  const Rounding rr = b.in.rnd;
  const bool ftz = b.has(Mod::ftz), sat = b.has(Mod::sat);
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  if (ftz) need(st == Type::F32 || dt == Type::F32, ".ftz applies when a .f32 is involved");
  const int dbits = isa::ptx::type_bits(dt);
  const isa::ptx::Operand& d0 = b.operand(0);
  const int rbits = d0.kind == isa::ptx::OperandKind::Reg ? b.reg_bits(d0) : std::max(dbits, 16);
  b.out.o[0] = b.dst(0, std::max(dbits, 16), /*wider_ok=*/true);
  b.out.o[1] = b.src(1, st, /*wider_ok=*/true);
  b.out.aux = rbits >= 64 ? ~uint64_t{0} : (uint64_t{1} << rbits) - 1;
  ExecFn fn = nullptr;
  if (is_i(dt) && is_i(st)) {
    need(rr == Rounding::None, "integer-to-integer cvt takes no rounding modifier");
    fn = pick_ii(dt, st, sat);
  } else if (is_f(dt) && is_i(st)) {
    need(rr == Rounding::None || is_frnd(rr), "integer-to-float cvt takes .rn, .rz, .rm or .rp");
    need(!ftz, ".ftz does not apply to integer-to-float cvt");
    const Rnd r = fp::from_ptx(rr);
    fn = dt == Type::F32 ? pick_if<float>(st, r) : pick_if<double>(st, r);
    if (sat) return b.not_implemented("cvt.sat from integer to float");
  } else if (is_i(dt) && is_f(st)) {
    need(is_irnd(rr), "float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
    const Rnd r = fp::from_ptx(rr);
    fn = st == Type::F32 ? pick_fi<float>(dt, r, ftz) : pick_fi<double>(dt, r, false);
  } else if (dt == Type::F32 && st == Type::F64) {
    need(is_frnd(rr), "f64-to-f32 cvt needs .rn, .rz, .rm or .rp");
    const Rnd r = fp::from_ptx(rr);
#define F64F32(R) fn = ftz ? (sat ? &exec_cvt_f64_f32<R, true, true> : &exec_cvt_f64_f32<R, true, false>) \
                           : (sat ? &exec_cvt_f64_f32<R, false, true> : &exec_cvt_f64_f32<R, false, false>);
    switch (r) {
      case Rnd::RN: F64F32(Rnd::RN) break;
      case Rnd::RZ: F64F32(Rnd::RZ) break;
      case Rnd::RM: F64F32(Rnd::RM) break;
      case Rnd::RP: F64F32(Rnd::RP) break;
    }
#undef F64F32
  } else if (dt == Type::F64 && st == Type::F32) {
    need(rr == Rounding::None, "f32-to-f64 cvt is exact and takes no rounding modifier");
    fn = ftz ? (sat ? &exec_cvt_f32_f64<true, true> : &exec_cvt_f32_f64<true, false>)
             : (sat ? &exec_cvt_f32_f64<false, true> : &exec_cvt_f32_f64<false, false>);
  } else {  // same float type
    need(rr == Rounding::None || is_irnd(rr), "same-type float cvt takes .rni, .rzi, .rmi or .rpi");
    const int ri = rr == Rounding::RNI ? 1 : rr == Rounding::RZI ? 2 : rr == Rounding::RMI ? 3 : rr == Rounding::RPI ? 4 : 0;
    fn = dt == Type::F32 ? pick_same<float>(ri, ftz, sat) : pick_same<double>(ri, false, sat);
  }
  if (!fn) b.fail(fmt::format("cvt.{}.{} is not a valid conversion", isa::ptx::type_name(dt), isa::ptx::type_name(st)));
  b.out.fn = fn;
}

}  // namespace tcsim::sim
