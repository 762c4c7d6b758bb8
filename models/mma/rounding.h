// The one final rounding of a fused dot product (docs/mma_numerics.md §1, §3), and the wide fixed-point
// accumulator of the exact-sum datapath. Std-only (nvcc compiles it).
#pragma once
#include <cstdint>

#include "models/formats/format.h"

namespace tcsim::models::mma {

// An output format: IEEE binary layout, possibly keeping fewer fraction bits than it stores
// (Hopper fp8 -> f32 keeps 13 of fp32's 23: "e8m13", docs/mma_numerics.md §4).
struct OutFormat {
  int frac;       // fraction bits kept
  int mant_bits;  // fraction bits stored
  int exp_bits;
  int bias;
  int emin() const { return 1 - bias; }
  int emax() const { return bias; }
  uint32_t sign_bit() const { return 1u << (exp_bits + mant_bits); }
  uint32_t inf() const { return ((1u << exp_bits) - 1) << mant_bits; }
};
inline constexpr OutFormat kOutF32{23, 23, 8, 127};
inline constexpr OutFormat kOutF16{10, 10, 5, 15};
constexpr OutFormat out_f32(int frac) { return {frac, 23, 8, 127}; }

// Rounds (-1)^neg * (mag + sticky*eps) * 2^lsb_exp, mag > 0, to f with mode RZ or RN
// (nearest-even; `sticky` says nonzero bits lie below mag, i.e. the value is slightly larger).
// Subnormals are produced at the format's fixed quantum 2^(emin - frac); a rounded exponent
// above emax gives +-Inf in both modes (KM ExceptionalCasesTest: 2^127 + 2^127 -> Inf even with
// RZ; docs/mma_numerics.md §3). A result that rounds to zero has magnitude bits 0 and keeps `neg`.
inline uint32_t round_finite(bool neg, uint64_t mag, int lsb_exp, bool sticky,
                             const OutFormat& f, Round mode);

// Exact two's-complement fixed-point accumulator wide enough for any sum of products of the
// supported formats (bf16 x bf16 with UE8M0 scales spans 2^-520 .. 2^512) plus an fp32 C.
class WideAcc {
 public:
  static constexpr int kLimbs = 22;
  static constexpr int kLsbExp = -704;  // limb 0 bit 0 is 2^-704; top is 2^703
  void add(bool neg, uint64_t mag, int lsb_exp);  // requires lsb_exp >= kLsbExp
  bool is_zero() const;
  // Rounds the exact sum; the caller handles an all-zero accumulator.
  uint32_t round(const OutFormat& f, Round mode) const;

 private:
  uint64_t limb_[kLimbs] = {};
};

// ---- implementation (inline: it runs once per MMA output element) ----

inline uint32_t round_finite(bool neg, uint64_t mag, int lsb_exp, bool sticky,
                             const OutFormat& f, Round mode) {
  const int msb = 63 - __builtin_clzll(mag);
  const int e = lsb_exp + msb;             // exponent of the leading bit
  int eq = e < f.emin() ? f.emin() : e;    // below emin: the subnormal quantum
  const int q = eq - f.frac;               // exponent of the last kept bit
  uint64_t mant = 0;
  bool up = false;
  if (q <= lsb_exp) {
    mant = mag << (lsb_exp - q);  // exact; a sticky remainder is below half an ulp
  } else {
    const int sh = q - lsb_exp;
    uint64_t rem = mag;
    if (sh < 64) {
      mant = mag >> sh;
      rem = mag & ((uint64_t{1} << sh) - 1);
    }
    if (mode == Round::RN && sh - 1 < 64) {
      const uint64_t half = uint64_t{1} << (sh - 1);
      up = rem > half || (rem == half && (sticky || (mant & 1)));
    }
  }
  if (up && (++mant >> (f.frac + 1))) {  // carried into the next binade
    mant >>= 1;
    ++eq;
  }
  const uint32_t sign = neg ? f.sign_bit() : 0;
  if (eq > f.emax()) return sign | f.inf();
  const uint32_t frac_mask = (1u << f.frac) - 1;
  const uint32_t m = static_cast<uint32_t>(mant);
  if (m >> f.frac)  // normal
    return sign | (static_cast<uint32_t>(eq + f.bias) << f.mant_bits) |
           ((m & frac_mask) << (f.mant_bits - f.frac));
  return sign | (m << (f.mant_bits - f.frac));  // subnormal (or zero)
}

}  // namespace tcsim::models::mma
