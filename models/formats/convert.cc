// PTX cvt (PTX ISA §9.7.9.21) on bits. The rounding itself is encode()/encode_exact() (encode.cc);
// this file adds the modifiers (.ftz, .sat, .relu), the integer forms and the x2 lane packing.
#include "models/formats/convert.h"

#include <bit>
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

bool is_nan_code(DType t, uint64_t a) { return unpack(t, a).cls == FpClass::NaN; }

// The NaN results of NaNRule::Hardware (convert.h); false when the canonical rule applies.
bool hardware_nan(DType dst, DType src, uint64_t a, const CvtMods& m, uint64_t* r) {
  if (m.nan != NaNRule::Hardware || m.sat || !is_nan_code(src, a)) return false;
  if (dst == DType::F64 && (src == DType::F16 || src == DType::BF16 || src == DType::F32 || src == DType::F64)) {
    // Sign and payload kept (the payload's top bit stays the top fraction bit), quieted.
    uint64_t sign, payload;
    int fbits;
    if (src == DType::F16) {
      sign = a >> 15 & 1, payload = a & 0x3ff, fbits = 10;
    } else if (src == DType::BF16) {
      sign = a >> 15 & 1, payload = a & 0x7f, fbits = 7;
    } else if (src == DType::F32) {
      const uint64_t w = m.ftz ? 0x7fffffffu : a & 0xffffffffu;  // .ftz: canonical f32 NaN first
      sign = w >> 31, payload = w & 0x7fffff, fbits = 23;
    } else {
      sign = a >> 63, payload = a & 0xfffffffffffffull, fbits = 52;
    }
    *r = sign << 63 | 0x7ffull << 52 | payload << (52 - fbits) | 1ull << 51;
    return true;
  }
  if (src == DType::F64 && !m.relu && (dst == DType::F32 || dst == DType::F16 || dst == DType::BF16)) {
    // Narrowing from f64 keeps the sign and the top fraction bits of the payload, quieted, in every
    // rounding mode and with .ftz (cvt_nan columns 47-51, 59-61, 70, 81-83, 97-98): f64 0x7ff4...
    // becomes f32 0x7fe00000, f16 0x7f00, bf16 0x7fe0.
    const int fbits = dst == DType::F32 ? 23 : dst == DType::F16 ? 10 : 7;
    const int ebits = dst == DType::F32 ? 8 : dst == DType::F16 ? 5 : 8;
    const uint64_t sign = a >> 63, frac = (a & 0xfffffffffffffull) >> (52 - fbits);
    *r = sign << (fbits + ebits) | ((uint64_t{1} << ebits) - 1) << fbits | frac | uint64_t{1} << (fbits - 1);
    return true;
  }
  if (dst == DType::TF32 && src == DType::F32) {
    if (m.rnd == Round::RNA) *r = (a & 0xffffe000u) - (m.satfinite ? 0x2000u : 0u);
    else *r = 0x7fffe000u;
    return true;
  }
  return false;
}

}  // namespace

uint64_t cvt_float(DType dst, DType src, uint64_t a, const CvtMods& m) {
  if (is_int_type(dst) || is_int_type(src)) bad_types("cvt_float", dst, src);
  uint64_t r;
  if (hardware_nan(dst, src, a, m, &r)) return r;
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
  if (t == DType::F64 && m.nan == NaNRule::Hardware && !m.sat && is_nan_code(t, a)) return a | 1ull << 51;
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

namespace tcsim::models {

uint64_t cvt_float_rs(DType dst, uint32_t a, uint32_t rand, int rand_bits, const CvtMods& m) {
  const Unpacked u = unpack(DType::F32, a);
  if (u.cls == FpClass::NaN || u.cls == FpClass::Inf || u.cls == FpClass::Zero) {
    CvtMods rn = m;
    rn.rnd = Round::RN;
    return cvt_float(dst, DType::F32, a, rn);
  }
  if (rand_bits < 1 || rand_bits > 32) throw std::invalid_argument("cvt.rs: 1 to 32 random bits");
  const FormatSpec& f = format_spec(dst);
  // |a| = sig * 2^(exp - frac_bits); the destination's ulp at this magnitude is 2^ulp_e.
  const uint64_t sig = u.sig;
  const int e0 = u.exp - u.frac_bits;  // exponent of sig's last bit
  const int lead = e0 + 63 - std::countl_zero(sig);
  const int ulp_e = (lead < f.emin() ? f.emin() : lead) - f.mant_bits;
  uint64_t kept;
  bool carry = false;
  if (ulp_e <= e0) {
    kept = sig << (e0 - ulp_e);  // exactly representable: no bits discarded
  } else {
    const int shift = ulp_e - e0;
    kept = shift >= 64 ? 0 : sig >> shift;
    const uint64_t disc = shift >= 64 ? sig : sig & ((1ull << shift) - 1);
    // The first rand_bits discarded bits (zero-padded when fewer bits were discarded).
    const uint64_t top = shift >= rand_bits ? (shift - rand_bits >= 64 ? 0 : disc >> (shift - rand_bits))
                                            : disc << (rand_bits - shift);
    const uint64_t r = rand & (rand_bits >= 32 ? 0xffffffffull : (1ull << rand_bits) - 1);
    carry = top + r >= (1ull << rand_bits);
  }
  // kept (+1) * 2^ulp_e is representable or an overflow: RN is exact here and handles overflow.
  const uint64_t code = encode_exact(dst, u.neg, kept + (carry ? 1 : 0), ulp_e, false, Round::RN, m.satfinite);
  CvtMods post = m;
  post.ftz = post.sat = false;
  return apply_result_mods(dst, code, post);
}

uint32_t cvt_rs_f32x2(DType dst_elem, uint32_t a, uint32_t b, uint32_t rbits, const CvtMods& m) {
  if (dst_elem != DType::F16 && dst_elem != DType::BF16) bad_types("cvt_rs_f32x2", dst_elem, DType::F32);
  const bool f16 = dst_elem == DType::F16;
  const int nb = f16 ? 13 : 16;
  const uint32_t mask = f16 ? 0x1fffu : 0xffffu;
  const uint64_t hi = cvt_float_rs(dst_elem, a, (rbits >> 16) & mask, nb, m);
  const uint64_t lo = cvt_float_rs(dst_elem, b, rbits & mask, nb, m);
  return static_cast<uint32_t>(hi << 16 | lo);
}

uint32_t cvt_rs_x4(DType dst_elem, const uint32_t src[4], uint32_t rbits, const CvtMods& m) {
  uint32_t rnd[4];
  int nb, lane;
  switch (dst_elem) {
    case DType::E4M3: case DType::E5M2: case DType::E2M3: case DType::E3M2:
      nb = 16, lane = 8;
      rnd[0] = rnd[1] = rbits >> 16;
      rnd[2] = rnd[3] = rbits & 0xffffu;
      break;
    case DType::E2M1:
      nb = 8, lane = 4;
      rnd[0] = rbits >> 24, rnd[1] = rbits >> 8 & 0xff, rnd[2] = rbits >> 16 & 0xff, rnd[3] = rbits & 0xff;
      break;
    default: bad_types("cvt_rs_x4", dst_elem, DType::F32);
  }
  uint32_t d = 0;
  for (int i = 0; i < 4; ++i)
    d |= static_cast<uint32_t>(cvt_float_rs(dst_elem, src[i], rnd[i], nb, m)) << (lane * (3 - i));
  return d;
}

}  // namespace tcsim::models
