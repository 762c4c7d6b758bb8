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
//    (saturation is implied); NaN -> 0, or 1 << (bits-1) from f64 or into a 64-bit integer.
//    .ftz flushes a subnormal f32 source first.
//  - f32 -> f64: exact. f64 -> f32: rounded per .frnd; .ftz flushes a subnormal result.
//  - f32 -> f32, f64 -> f64: .irnd rounds to an integral value; .ftz / .sat as for arithmetic.
//  - float destinations: .sat clamps to [0, 1] (NaN -> 0). NaN results (H200 goldens, kernels/basic
//    cvt_float / f64_math / cvt_nan): f32 destinations from f32 get the canonical NaN 0x7fffffff; a
//    NaN narrowed from f64 keeps its sign and top fraction bits, quieted; a NaN converted to f64
//    (from f32, f16, bf16, or rounded f64 -> f64) keeps its sign and payload and is quieted; the
//    rules are models::NaNRule::Hardware (models/formats/convert.h), which the fast paths below
//    reproduce and the model-backed forms use directly.
// A destination register wider than .dtype receives the value extended per .dtype's signedness.
// Conversions involving f16, bf16, tf32 and the fp8/fp6/fp4 formats (scalar and the packed x2
// forms) are computed by models/formats (models::cvt_*), one lane at a time:
//   cvt.frnd2{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b;
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}.f32 d, a, b;
//   cvt.rn.satfinite{.relu}.{e4m3x2,...}.{f16x2,bf16x2} d, a;   cvt.rn{.relu}.{f16x2,bf16x2}.{e4m3x2,...} d, a;
//   cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32,bf16x2};  cvt.rn.bf16x2.ue8m0x2;  cvt.rna{.satfinite}.tf32.f32
//   cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits;                 (sm_100a)
//   cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32 d, {a, b, e, f}, rbits;
// (.s2f6x2 and .scaled::n2::ue8m0 are not implemented: they fail when run; cvt.pack is cvt_pack.cc.)
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "models/formats/convert.h"
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
    // NaN converts to 0, except from f64 or to a 64-bit integer: 1 << (bits - 1) (PTX ISA
    // §9.7.9.21, Integer Notes).
    if (std::isnan(x))
      return (std::is_same_v<S, double> || sizeof(D) == 8) ? (uint64_t{1} << (sizeof(D) * 8 - 1)) : 0;
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
    // A NaN keeps its sign and the top 23 fraction bits, quieted (H200: kernels/basic cvt_nan
    // columns 47-51; models/formats/convert.h NaNRule::Hardware).
    if (std::isnan(x)) return Sat ? 0 : (a[i] >> 63) << 31 | 0x7fc00000u | (a[i] >> 29 & 0x7fffff);
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
    if (std::isnan(x)) [[unlikely]] {  // sign and payload kept, quieted (H200: cvt_float col 4-5);
      if constexpr (Sat) return 0;     // .ftz first canonicalises the f32 (f32_ftz col 11)
      const uint64_t w = Ftz ? fp::kCanonicalNaN32 : a[i] & 0xffffffffu;
      return (w >> 31) << 63 | uint64_t{0x7ff} << 52 | (w & 0x7fffff) << 29 | fp::kQuietBit64;
    }
    if constexpr (Ftz) x = fp::ftz(x);
    double r = x;
    if constexpr (Sat) r = fp::sat01(r);
    return bits<double>(r);
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
    return fp::result<T>(x, 1, a[i]);
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

// ---- models/formats-backed conversions ---------------------------------------------------------

enum class ModelKind : uint8_t { Float, FloatToInt, IntToFloat, RoundInt, PackF32x2, PackX2, UnpackX2, RsF32x2, RsX4 };

struct ModelCvt {
  ModelKind kind;
  models::DType dst, src;  // scalar types, or the element types of x2 forms
  models::CvtMods mods;
  uint64_t regmask;
};

// The descriptor is packed into ExecInstr::aux.
inline uint64_t pack_model(const ModelCvt& m) {
  return uint64_t(m.kind) | uint64_t(m.dst) << 8 | uint64_t(m.src) << 16 | uint64_t(m.mods.rnd) << 24 |
         uint64_t(m.mods.satfinite) << 32 | uint64_t(m.mods.relu) << 33 | uint64_t(m.mods.sat) << 34 |
         uint64_t(m.mods.ftz) << 35 | uint64_t(m.mods.nan) << 36 |
         uint64_t(m.regmask == ~uint64_t{0} ? 64 : __builtin_ctzll(m.regmask + 1)) << 40;
}
inline ModelCvt unpack_model(uint64_t a) {
  ModelCvt m;
  m.kind = ModelKind(a & 0xff);
  m.dst = models::DType(a >> 8 & 0xff);
  m.src = models::DType(a >> 16 & 0xff);
  m.mods.rnd = models::Round(a >> 24 & 0xff);
  m.mods.satfinite = a >> 32 & 1;
  m.mods.relu = a >> 33 & 1;
  m.mods.sat = a >> 34 & 1;
  m.mods.ftz = a >> 35 & 1;
  m.mods.nan = models::NaNRule(a >> 36 & 1);
  const unsigned rb = static_cast<unsigned>(a >> 40 & 0x7f);
  m.regmask = rb >= 64 ? ~uint64_t{0} : (uint64_t{1} << rb) - 1;
  return m;
}

// c: the rbits operand of the .rs forms; x4: the four f32 sources of the x4 forms.
uint64_t model_convert(const ModelCvt& m, uint64_t a, uint64_t b, uint64_t c = 0, const uint32_t* x4 = nullptr) {
  switch (m.kind) {
    case ModelKind::Float: return models::cvt_float(m.dst, m.src, a, m.mods);
    case ModelKind::FloatToInt: return models::cvt_float_to_int(m.dst, m.src, a, m.mods);
    case ModelKind::IntToFloat: return models::cvt_int_to_float(m.dst, m.src, a, m.mods);
    case ModelKind::RoundInt: return models::cvt_float_round_int(m.dst, a, m.mods);
    case ModelKind::PackF32x2: return models::cvt_pack_f32x2(m.dst, static_cast<uint32_t>(a), static_cast<uint32_t>(b), m.mods);
    case ModelKind::PackX2: return models::cvt_pack_x2(m.dst, m.src, static_cast<uint32_t>(a), m.mods);
    case ModelKind::UnpackX2: return models::cvt_unpack_x2(m.dst, m.src, static_cast<uint32_t>(a), m.mods);
    case ModelKind::RsF32x2:
      return models::cvt_rs_f32x2(m.dst, static_cast<uint32_t>(a), static_cast<uint32_t>(b), static_cast<uint32_t>(c), m.mods);
    case ModelKind::RsX4: {
      const uint32_t zero[4] = {0, 0, 0, 0};
      return models::cvt_rs_x4(m.dst, x4 ? x4 : zero, static_cast<uint32_t>(c), m.mods);
    }
  }
  return 0;
}

// o[1] a, o[2] b (x2 pairs), o[3] rbits (.rs); the x4 sources are operands 0..3 (first_op).
void exec_cvt_model(ExecCtx& c, const ExecInstr& in) {
  const ModelCvt m = unpack_model(in.aux);
  uint64_t* d = c.dst(in.o[0]);
  const bool x4 = m.kind == ModelKind::RsX4;
  const uint64_t* a = x4 ? nullptr : c.src(in.o[1]);
  const uint64_t* b = m.kind == ModelKind::PackF32x2 || m.kind == ModelKind::RsF32x2 ? c.src(in.o[2]) : nullptr;
  const uint64_t* rb = m.kind == ModelKind::RsF32x2 || x4 ? c.src(in.o[3]) : nullptr;
  const uint64_t* v[4] = {nullptr, nullptr, nullptr, nullptr};
  if (x4)
    for (int k = 0; k < 4; ++k) v[k] = c.src(c.op(in, k).ref);
  for_lanes(c.mask, [&](int i) {
    uint64_t r = 0;
    uint32_t src4[4] = {0, 0, 0, 0};
    if (x4)
      for (int k = 0; k < 4; ++k) src4[k] = static_cast<uint32_t>(v[k][i]);
    try {
      r = model_convert(m, a ? a[i] : 0, b ? b[i] : 0, rb ? rb[i] : 0, x4 ? src4 : nullptr);
    } catch (const std::exception& e) {
      c.fail(i, e.what());
    }
    d[i] = r & m.regmask;
  });
}

// PTX types as the formats library names them; x2 types map to their element type.
std::optional<models::DType> model_type(Type t, bool* x2) {
  using D = models::DType;
  *x2 = false;
  switch (t) {
    case Type::F64: return D::F64;
    case Type::F32: return D::F32;
    case Type::TF32: return D::TF32;
    case Type::F16: return D::F16;
    case Type::BF16: return D::BF16;
    case Type::F16x2: *x2 = true; return D::F16;
    case Type::BF16x2: *x2 = true; return D::BF16;
    case Type::E4M3x2: *x2 = true; return D::E4M3;
    case Type::E5M2x2: *x2 = true; return D::E5M2;
    case Type::E2M3x2: *x2 = true; return D::E2M3;
    case Type::E3M2x2: *x2 = true; return D::E3M2;
    case Type::E2M1x2: *x2 = true; return D::E2M1;
    case Type::UE8M0x2: *x2 = true; return D::UE8M0;
    case Type::U8: case Type::B8: return D::U8;
    case Type::S8: return D::S8;
    case Type::U16: case Type::B16: return D::U16;
    case Type::S16: return D::S16;
    case Type::U32: case Type::B32: return D::U32;
    case Type::S32: return D::S32;
    case Type::U64: case Type::B64: return D::U64;
    case Type::S64: return D::S64;
    default: return std::nullopt;
  }
}

models::Round model_round(Rounding r) {
  switch (r) {
    case Rounding::RZ: case Rounding::RZI: return models::Round::RZ;
    case Rounding::RM: case Rounding::RMI: return models::Round::RM;
    case Rounding::RP: case Rounding::RPI: return models::Round::RP;
    case Rounding::RNA: return models::Round::RNA;
    default: return models::Round::RN;
  }
}

// cvt.rs (sm_100a): the f16x2/bf16x2 pair form and the x4 forms (models/formats cvt_rs_*).
void bind_cvt_rs(BindCtx& b, Type dt, Type st) {
  b.only_mods({Mod::satfinite, Mod::relu});
  if (st != Type::F32) b.fail("cvt.rs converts .f32 sources");
  ModelCvt m;
  m.src = models::DType::F32;
  m.mods.satfinite = b.has(Mod::satfinite);
  m.mods.relu = b.has(Mod::relu);
  m.mods.nan = models::NaNRule::Hardware;
  int dbits = 32;
  switch (dt) {
    case Type::F16x2: m.dst = models::DType::F16; m.kind = ModelKind::RsF32x2; break;
    case Type::BF16x2: m.dst = models::DType::BF16; m.kind = ModelKind::RsF32x2; break;
    case Type::E4M3x4: m.dst = models::DType::E4M3; m.kind = ModelKind::RsX4; break;
    case Type::E5M2x4: m.dst = models::DType::E5M2; m.kind = ModelKind::RsX4; break;
    case Type::E2M3x4: m.dst = models::DType::E2M3; m.kind = ModelKind::RsX4; break;
    case Type::E3M2x4: m.dst = models::DType::E3M2; m.kind = ModelKind::RsX4; break;
    case Type::E2M1x4: m.dst = models::DType::E2M1; m.kind = ModelKind::RsX4; dbits = 16; break;
    default:
      b.fail(fmt::format("cvt.rs has no .{} form (f16x2, bf16x2, e4m3x4, e5m2x4, e2m3x4, e3m2x4, e2m1x4)",
                         isa::ptx::type_name(dt)));
  }
  if (m.kind == ModelKind::RsX4 && !m.mods.satfinite) b.fail("cvt.rs to an x4 format needs .satfinite");
  m.regmask = (uint64_t{1} << dbits) - 1;
  b.out.o[0] = b.dst(0, dbits, /*wider_ok=*/true);
  if (m.kind == ModelKind::RsF32x2) {
    if (b.nops() != 4) b.fail("cvt.rs.{f16x2,bf16x2}.f32 takes d, a, b, rbits");
    b.out.o[1] = b.src(1, Type::F32);
    b.out.o[2] = b.src(2, Type::F32);
    b.out.o[3] = b.src(3, Type::B32);
  } else {
    const isa::ptx::Operand& v = b.operand(1);
    if (b.nops() != 3 || v.kind != isa::ptx::OperandKind::Vector || v.elems.size() != 4)
      b.fail("cvt.rs to an x4 format takes d, {a, b, e, f}, rbits");
    for (int k = 0; k < 4; ++k) {
      ExecOperand e;
      e.ref = b.src_of(v.elems[k], Type::F32);
      const uint32_t idx = b.push(e);
      if (k == 0) b.out.first_op = idx;
    }
    b.out.nops = 4;
    b.out.o[3] = b.src(2, Type::B32);
  }
  b.out.aux = pack_model(m);
  b.out.fn = exec_cvt_model;
}

// Binds a conversion that involves a format other than integers, f32 and f64.
void bind_model_cvt(BindCtx& b, Type dt, Type st) {
  if (b.in.rnd == Rounding::RS) return bind_cvt_rs(b, dt, st);
  b.only_mods({Mod::ftz, Mod::sat, Mod::satfinite, Mod::relu});
  bool dx2, sx2;
  const auto dm = model_type(dt, &dx2), sm = model_type(st, &sx2);
  if (!dm || !sm)
    return b.not_implemented(fmt::format("cvt between .{} and .{}", isa::ptx::type_name(dt), isa::ptx::type_name(st)));
  ModelCvt m;
  m.dst = *dm;
  m.src = *sm;
  m.mods.rnd = model_round(b.in.rnd);
  m.mods.satfinite = b.has(Mod::satfinite);
  m.mods.relu = b.has(Mod::relu);
  m.mods.sat = b.has(Mod::sat);
  m.mods.ftz = b.has(Mod::ftz);
  m.mods.nan = models::NaNRule::Hardware;
  const bool dint = isa::ptx::is_integer(dt), sint = isa::ptx::is_integer(st);
  if (b.nops() > 3) b.fail("cvt takes d, a (or d, a, b for the pair forms; rbits only with .rs)");
  const bool pair_src = b.nops() == 3;
  if (dx2 && st == Type::F32 && pair_src) m.kind = ModelKind::PackF32x2;
  else if (dx2 && sx2 && isa::ptx::type_bits(st) == 32 && (*sm == models::DType::F16 || *sm == models::DType::BF16) &&
           *dm != models::DType::F16 && *dm != models::DType::BF16)
    m.kind = ModelKind::PackX2;
  else if (dx2 && sx2) m.kind = ModelKind::UnpackX2;
  else if (dx2 || sx2)
    return b.not_implemented(fmt::format("cvt.{}.{}", isa::ptx::type_name(dt), isa::ptx::type_name(st)));
  else if (dint && !sint) m.kind = ModelKind::FloatToInt;
  else if (!dint && sint) m.kind = ModelKind::IntToFloat;
  else if (dt == st && (b.in.rnd == Rounding::RNI || b.in.rnd == Rounding::RZI || b.in.rnd == Rounding::RMI ||
                        b.in.rnd == Rounding::RPI))
    m.kind = ModelKind::RoundInt;
  else m.kind = ModelKind::Float;
  if (m.kind == ModelKind::FloatToInt && !(b.in.rnd == Rounding::RNI || b.in.rnd == Rounding::RZI ||
                                           b.in.rnd == Rounding::RMI || b.in.rnd == Rounding::RPI))
    b.fail("float-to-integer cvt needs .rni, .rzi, .rmi or .rpi");
  if (m.kind != ModelKind::PackF32x2 && pair_src) b.fail("only the .f32 -> x2 forms take two sources");
  const int dbits = isa::ptx::type_bits(dt);
  const isa::ptx::Operand& d0 = b.operand(0);
  const int rbits = d0.kind == isa::ptx::OperandKind::Reg ? b.reg_bits(d0) : std::max(dbits, 16);
  m.regmask = rbits >= 64 ? ~uint64_t{0} : (uint64_t{1} << rbits) - 1;
  b.out.o[0] = b.dst(0, std::max(dbits, 8), /*wider_ok=*/true);
  b.out.o[1] = b.src(1, st, /*wider_ok=*/true);
  if (pair_src) b.out.o[2] = b.src(2, st);
  try {  // a combination the formats library rejects is illegal PTX: report it at load
    model_convert(m, 0, 0);
  } catch (const std::exception& e) {
    b.fail(e.what());
  }
  b.out.aux = pack_model(m);
  b.out.fn = exec_cvt_model;
}

bool is_f(Type t) { return t == Type::F32 || t == Type::F64; }
bool is_i(Type t) { return isa::ptx::is_integer(t) && isa::ptx::type_bits(t) >= 8 && isa::ptx::type_bits(t) <= 64; }
bool is_irnd(Rounding r) { return r == Rounding::RNI || r == Rounding::RZI || r == Rounding::RMI || r == Rounding::RPI; }
bool is_frnd(Rounding r) { return r == Rounding::RN || r == Rounding::RZ || r == Rounding::RM || r == Rounding::RP; }

}  // namespace

void bind_cvt_pack(BindCtx& b);  // cvt_pack.cc

void bind_convert(BindCtx& b) {
  const Type dt = b.type(0), st = b.type(1);
  // cvt converts between typed values: the bit types are not among its .dtype/.atype (PTX ISA
  // §9.7.9.21 cvt; ptxas: "Unexpected instruction types specified for 'cvt'").
  for (Type t : {dt, st})
    if (t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64 || t == Type::B128 ||
        t == Type::E4M3 || t == Type::E5M2 || t == Type::E2M3 || t == Type::E3M2 || t == Type::E2M1 ||
        t == Type::UE8M0)
      b.fail(fmt::format("cvt does not take the bit type .{} (use .u or .s types of the same size)",
                         isa::ptx::type_name(t)));
  if (b.has(Mod::pack)) return bind_cvt_pack(b);  // cvt_pack.cc (PTX ISA §9.7.9.22)
  if (dt == Type::None || st == Type::None) b.fail("cvt needs a destination and a source type");
  if (!(is_f(dt) || is_i(dt)) || !(is_f(st) || is_i(st)) || b.has(Mod::satfinite) || b.has(Mod::relu) ||
      b.in.rnd == Rounding::RNA)
    return bind_model_cvt(b, dt, st);
  b.only_mods({Mod::ftz, Mod::sat});
  if (b.nops() != 2) b.fail(fmt::format("cvt.{}.{} takes two operands, d and a", isa::ptx::type_name(dt), isa::ptx::type_name(st)));
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
    // Mandatory (PTX ISA §9.7.9.21: "rounding modifier is mandatory in ... all int-to-float conversions").
    need(is_frnd(rr), "integer-to-float cvt needs .rn, .rz, .rm or .rp");
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
