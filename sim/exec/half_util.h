// Half-precision helpers shared by the f16/bf16 families (half_arith.cc, half_compare.cc,
// float_mixed.cc, float_approx.cc): classification and exact decoding of binary16 (f16) and
// bfloat16 (bf16) codes, and exact round-to-nearest-even of a result held as an unevaluated sum
// s + e of two doubles (the TwoSum pair of an exact sum), so that
//   add/sub/mul/fma .f16/.bf16 = one correct rounding of the exact value
// without a double rounding (PTX ISA §9.7.4: ".rn: mantissa LSB rounds to nearest even").
//
// Why the pair is exact: every f16/bf16 value is a double; a product of two of them has at most 22
// significant bits and an exponent inside double's range, so x*y is exact in double; the sum of
// that product and a third value, s = fl(p + z), leaves an error e = (p + z) - s that TwoSum
// computes exactly (Knuth, TAOCP 4.2.2; no overflow is possible: |p + z| < 2^257).
//
// NaN results (H200 goldens kernels/basic half_math, bf16_math, every arithmetic column and neg/abs):
// the canonical NaN 0x7fff for both formats, whatever the NaN operand (sign and payload dropped).
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

#include "sim/exec/fp_util.h"

namespace tcsim::sim::half {

enum class Fmt : uint8_t { F16, BF16 };

template <Fmt F>
struct Spec;
template <>
struct Spec<Fmt::F16> {  // IEEE binary16: 1.5.10, bias 15
  static constexpr int P = 11, E = 5;
  static constexpr uint16_t kInf = 0x7c00, kOne = 0x3c00;
};
template <>
struct Spec<Fmt::BF16> {  // bfloat16: 1.8.7, bias 127 (the upper half of an f32)
  static constexpr int P = 8, E = 8;
  static constexpr uint16_t kInf = 0x7f80, kOne = 0x3f80;
};

inline constexpr uint16_t kCanonicalNaN = 0x7fff;
inline constexpr uint16_t kSign = 0x8000;

template <Fmt F>
inline bool is_nan(uint16_t h) {
  return (h & 0x7fff) > Spec<F>::kInf;
}
template <Fmt F>
inline bool is_subnormal(uint16_t h) {
  return (h & Spec<F>::kInf) == 0 && (h & 0x7fff) != 0;
}
// .ftz: a subnormal becomes a zero of the same sign (PTX ISA §9.7.4 "Subnormal numbers").
template <Fmt F>
inline uint16_t ftz(uint16_t h) {
  return is_subnormal<F>(h) ? static_cast<uint16_t>(h & kSign) : h;
}

// The exact value of a code (NaN codes give a quiet double NaN).
template <Fmt F>
inline double to_double(uint16_t h) {
  if constexpr (F == Fmt::BF16) {
    return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(h) << 16));
  } else {
    const uint64_t sign = uint64_t{h} >> 15 << 63;
    const uint32_t e = h >> 10 & 0x1f, f = h & 0x3ff;
    if (e == 0) return std::copysign(static_cast<double>(f) * 0x1p-24, sign ? -1.0 : 1.0);
    if (e == 31) return f ? std::numeric_limits<double>::quiet_NaN() : std::copysign(INFINITY, sign ? -1.0 : 1.0);
    return std::bit_cast<double>(sign | uint64_t{e - 15 + 1023} << 52 | uint64_t{f} << 42);
  }
}

// Exact error of s = fl(x + y) (TwoSum; round-to-nearest host mode, finite operands and sum).
inline double two_sum_err(double x, double y, double s) {
  const double bb = s - x;
  return (x - (s - bb)) + (y - bb);
}

// Rounds the exact value s + e (|e| <= ulp(s)/2, same-signed zero when exact) to F in mode r.
// A NaN s gives the canonical NaN; infinities pass through.
template <Fmt F>
inline uint16_t round_pair(double s, double e, fp::Rnd r = fp::Rnd::RN) {
  if (std::isnan(s)) return kCanonicalNaN;
  const bool neg = std::signbit(s);
  if (std::isinf(s)) return static_cast<uint16_t>((neg ? kSign : 0) | Spec<F>::kInf);
  bool n;
  uint64_t mant;
  int exp;
  fp::decompose(s, &n, &mant, &exp);
  if (mant == 0) return neg ? kSign : 0;
  // Scale by 2^8 so that "slightly below s" is representable as mant - 1 with sticky bits: the
  // rounding boundaries of a <= 24-bit format are multiples of 2^28 here, none of which lies
  // strictly between s - |e| and s.
  mant <<= 8;
  exp -= 8;
  bool sticky = false;
  if (e != 0) {
    sticky = true;
    if (std::signbit(e) != neg) mant -= 1;
  }
  return static_cast<uint16_t>(fp::round_pack<Spec<F>::P, Spec<F>::E>(neg, mant, exp, r, sticky));
}

template <Fmt F>
inline uint16_t round_rn(double v) {
  return round_pair<F>(v, 0.0);
}

// .sat on a result code: clamp to [+0.0, 1.0], NaN -> +0.0, -0.0 -> +0.0 (PTX ISA §9.7.4).
template <Fmt F>
inline uint16_t sat01(uint16_t h) {
  if (is_nan<F>(h) || (h & kSign)) return 0;
  return (h & 0x7fff) > Spec<F>::kOne ? Spec<F>::kOne : h;
}

// Lane access for the x2 forms: lane 0 = bits 15..0, lane 1 = bits 31..16 (PTX ISA §9.7.4
// semantics: fA[0] = a[0:15], fA[1] = a[16:31]).
inline uint16_t lane(uint64_t v, int i) { return static_cast<uint16_t>(v >> (16 * i)); }

}  // namespace tcsim::sim::half
