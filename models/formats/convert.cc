// PTX cvt (PTX ISA §9.7.9.21) on bits. The rounding itself is encode()/encode_exact() (encode.cc);
// this file adds the modifiers (.ftz, .sat, .relu), the integer forms and the x2 lane packing.
#include "models/formats/convert.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace tcsim::models {
namespace {

constexpr uint64_t kF32Sign = 0x80000000u;

bool is_f32_subnormal(uint64_t a) { return (a & 0x7f800000u) == 0 && (a & 0x007fffffu) != 0; }

bool is_int_type(DType t) { return !isa::dtype_info(t).is_float; }

bool is_signed_int(DType t) {
  return t == DType::S8 || t == DType::S16 || t == DType::S32 || t == DType::S64;
}

uint64_t width_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

[[noreturn]] void bad_types(const char* what, DType dst, DType src) {
  throw std::invalid_argument(std::string(what) + ": cannot convert ." +
                              std::string(isa::dtype_name(src)) + " to ." +
                              std::string(isa::dtype_name(dst)));
}

// Integer rounding of a double (exact; no dependence on the host rounding mode).
double round_integral(double v, Round r) {
  if (!std::isfinite(v) || std::fabs(v) >= 0x1p52) return v;  // already integral
  switch (r) {
    case Round::RZ: return std::trunc(v);
    case Round::RM: return std::floor(v);
    case Round::RP: return std::ceil(v);
    case Round::RN: {
      double t = std::trunc(v);
      const double frac = std::fabs(v - t);  // exact
      if (frac > 0.5 || (frac == 0.5 && std::fmod(t, 2.0) != 0.0)) t += std::copysign(1.0, v);
      return t == 0.0 ? std::copysign(0.0, v) : t;  // keep the sign of zero: rni(-0.3) = -0
    }
    case Round::RNA: break;
  }
  throw std::invalid_argument("cvt: integer rounding is .rni/.rzi/.rmi/.rpi (no ties-away form)");
}

// The result modifiers, applied to an already rounded code of format t.
uint64_t apply_result_mods(DType t, uint64_t code, const CvtMods& m) {
  // .ftz: "flush single-precision subnormal ... results to sign-preserving zero" (§9.7.9.21).
  // Applied after rounding (a value that rounds up to 2^-126 is kept) — UNCONFIRMED on hardware.
  if (m.ftz && t == DType::F32 && is_f32_subnormal(code)) code &= kF32Sign;
  if (!m.sat && !m.relu) return code;
  const Unpacked u = unpack(t, code);
  if (m.sat) {
    // .sat: "limits the result to the range [0.0, 1.0]. NaN results are flushed to positive zero."
    // -0.0 also becomes +0.0 here (UNCONFIRMED: the spec does not say).
    if (u.cls == FpClass::NaN || u.neg) return 0;
    if (to_double(t, code) > 1.0) return encode(t, 1.0, Round::RN, false);
  }
  if (m.relu) {
    // .relu: "clamps the result to 0 if negative. NaN results are converted to canonical NaN."
    // -0.0 becomes +0.0 (UNCONFIRMED).
    if (u.cls == FpClass::NaN) return encode(t, std::nan(""), Round::RN, false);
    if (u.neg) return 0;
  }
  return code;
}

}  // namespace

uint64_t cvt_float(DType dst, DType src, uint64_t a, const CvtMods& m) {
  if (is_int_type(dst) || is_int_type(src)) bad_types("cvt_float", dst, src);
  uint64_t r;
  if (src == DType::BF16 && dst == DType::F32) {
    r = (a & 0xffffu) << 16;  // exact widening; NaN payload kept (see convert.h)
  } else {
    if (m.ftz && src == DType::F32 && is_f32_subnormal(a)) a &= kF32Sign;
    r = encode(dst, to_double(src, a), m.rnd, m.satfinite);
  }
  return apply_result_mods(dst, r, m);
}

uint64_t cvt_float_round_int(DType t, uint64_t a, const CvtMods& m) {
  if (t != DType::F16 && t != DType::BF16 && t != DType::F32 && t != DType::F64)
    bad_types("cvt_float_round_int", t, t);
  if (m.ftz && t == DType::F32 && is_f32_subnormal(a)) a &= kF32Sign;
  const double r = round_integral(to_double(t, a), m.rnd);
  return apply_result_mods(t, encode(t, r, Round::RN, false), m);  // r is representable: exact
}

uint64_t cvt_float_to_int(DType dst, DType src, uint64_t a, const CvtMods& m) {
  if (!is_int_type(dst) ||
      (src != DType::F16 && src != DType::BF16 && src != DType::F32 && src != DType::F64))
    bad_types("cvt_float_to_int", dst, src);
  const int bits = isa::dtype_bits(dst);
  if (m.ftz && src == DType::F32 && is_f32_subnormal(a)) a &= kF32Sign;
  const double v = to_double(src, a);
  if (std::isnan(v)) {
    // PTX ISA §9.7.9.21 Integer Notes: "NaN input results in ... Zero if source is not .f64 and
    // destination is not .s64, .u64. Otherwise 1 << (BitWidth(dst) - 1)".
    if (src != DType::F64 && dst != DType::S64 && dst != DType::U64) return 0;
    return 1ull << (bits - 1);
  }
  const double r = round_integral(v, m.rnd);
  if (is_signed_int(dst)) {
    const double lim = std::ldexp(1.0, bits - 1);  // clamp to [-2^(b-1), 2^(b-1) - 1]
    if (r >= lim) return width_mask(bits - 1);
    if (r < -lim) return (1ull << (bits - 1));
    return static_cast<uint64_t>(static_cast<int64_t>(r)) & width_mask(bits);
  }
  if (r >= std::ldexp(1.0, bits)) return width_mask(bits);  // clamp to [0, 2^b - 1]
  if (r < 0.0) return 0;
  return static_cast<uint64_t>(r);
}

uint64_t cvt_int_to_float(DType dst, DType src, uint64_t a, const CvtMods& m) {
  if (is_int_type(dst) || !is_int_type(src)) bad_types("cvt_int_to_float", dst, src);
  const int bits = isa::dtype_bits(src);
  const uint64_t x = a & width_mask(bits);
  const bool neg = is_signed_int(src) && ((x >> (bits - 1)) & 1);
  const uint64_t mag = neg ? (~x + 1) & width_mask(bits) : x;  // |INT64_MIN| = 2^63 fits
  return apply_result_mods(dst, encode_exact(dst, neg, mag, 0, false, m.rnd, m.satfinite), m);
}

uint64_t cvt_int_to_int(DType dst, DType src, uint64_t a, bool sat) {
  if (!is_int_type(dst) || !is_int_type(src)) bad_types("cvt_int_to_int", dst, src);
  const int sb = isa::dtype_bits(src), db = isa::dtype_bits(dst);
  const uint64_t dmask = width_mask(db);
  uint64_t x = a & width_mask(sb);
  if (is_signed_int(src)) {  // sign-extend by the source type
    const int64_t v = sb == 64 ? static_cast<int64_t>(x)
                               : static_cast<int64_t>(x << (64 - sb)) >> (64 - sb);
    if (sat) {
      if (is_signed_int(dst)) {
        const int64_t hi = static_cast<int64_t>(width_mask(db - 1)), lo = -hi - 1;
        return static_cast<uint64_t>(v > hi ? hi : v < lo ? lo : v) & dmask;
      }
      if (v < 0) return 0;
      return static_cast<uint64_t>(v) > dmask ? dmask : static_cast<uint64_t>(v);
    }
    return static_cast<uint64_t>(v) & dmask;
  }
  if (sat) {
    const uint64_t hi = is_signed_int(dst) ? width_mask(db - 1) : dmask;
    return x > hi ? hi : x;
  }
  return x & dmask;
}

int x2_lane_bits(DType elem) {
  switch (elem) {
    case DType::F16: case DType::BF16: return 16;
    case DType::E4M3: case DType::E5M2: case DType::UE8M0: return 8;
    case DType::E2M3: case DType::E3M2: return 8;  // 6-bit code, d[15:14] = d[7:6] = 0
    case DType::E2M1: return 4;
    default: break;
  }
  throw std::invalid_argument("cvt: ." + std::string(isa::dtype_name(elem)) +
                              " has no x2 packed form");
}

uint32_t cvt_pack_f32x2(DType dst_elem, uint32_t a, uint32_t b, const CvtMods& m) {
  const int lane = x2_lane_bits(dst_elem);
  const uint64_t hi = cvt_float(dst_elem, DType::F32, a, m);
  const uint64_t lo = cvt_float(dst_elem, DType::F32, b, m);
  return static_cast<uint32_t>((hi << lane) | lo);
}

uint32_t cvt_pack_x2(DType dst_elem, DType src_elem, uint32_t a, const CvtMods& m) {
  const int lane = x2_lane_bits(dst_elem);
  if (x2_lane_bits(src_elem) != 16) bad_types("cvt_pack_x2 (source must be f16x2/bf16x2)", dst_elem, src_elem);
  const uint64_t hi = cvt_float(dst_elem, src_elem, a >> 16, m);
  const uint64_t lo = cvt_float(dst_elem, src_elem, a & 0xffffu, m);
  return static_cast<uint32_t>((hi << lane) | lo);
}

uint32_t cvt_unpack_x2(DType dst_elem, DType src_elem, uint32_t a, const CvtMods& m) {
  const int in_lane = x2_lane_bits(src_elem);
  if (x2_lane_bits(dst_elem) != 16) bad_types("cvt_unpack_x2 (destination must be f16x2/bf16x2)", dst_elem, src_elem);
  const bool fp6 = src_elem == DType::E2M3 || src_elem == DType::E3M2;
  const uint32_t mask = fp6 ? 0x3fu : static_cast<uint32_t>(width_mask(in_lane));
  const uint64_t hi = cvt_float(dst_elem, src_elem, (a >> in_lane) & mask, m);
  const uint64_t lo = cvt_float(dst_elem, src_elem, a & mask, m);
  return static_cast<uint32_t>((hi << 16) | lo);
}

}  // namespace tcsim::models
