// Encoding into every float format: one generic round-and-pack step, parametrised by the format
// table (format_table.h), following PTX cvt (PTX ISA §9.7.9.21) as format.h's encode() states.
//
// Where CUDA 13's host conversion functions (cuda_fp16/bf16/fp8/fp6/fp4.h; compared bit for bit
// in tests/cuda_oracle) differ from this function, and why:
//  - NaN inputs from a double: __nv_cvt_double_to_fp8 keeps the NaN's sign (e4m3 0xff) and, for
//    e5m2, its top payload bits; its float/half/bf16 paths first canonicalise the NaN and give 0x7f,
//    and PTX's cvt (f32/f16x2/bf16x2 sources only) returns "NaN in the destination format". encode()
//    returns 0x7f for every NaN (the float path), so double NaNs with a sign or payload differ.
//  - __nv_cvt_double_to_e8m0 first rounds the double to an f32 with a sticky bit; a finite double
//    of magnitude >= 2^128 becomes FLT_MAX, so RZ without satfinite gives 0xfe where the exact
//    value overflows (encode(): 0xff, NaN). PTX has no f64 -> ue8m0 conversion.
//  - fp8 without satfinite (__NV_NOSAT) has no PTX counterpart: PTX requires .satfinite for
//    .e4m3x2/.e5m2x2 destinations; encode() follows CUDA's __NV_NOSAT there.
//  - fp6/fp4 with RZ exists only in CUDA (cudaRoundZero); PTX cvt offers .rn (and .rs) only.
// PTX and CUDA agree on fp6/fp4 NaN -> +max finite (PTX §9.7.9.21 .satfinite text; cuda_fp6.hpp),
// so there is a single variant of every conversion.
#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "models/formats/format.h"
#include "models/formats/format_table.h"

namespace tcsim::models {
namespace {

// Everything the encoder needs about a format, derived once from its FormatSpec.
struct EncParams {
  int mb;            // explicit fraction bits
  int emin;          // exponent of the smallest normal binade
  int emax;          // exponent of the largest finite binade
  int sign_bit;      // position of the sign in the code; -1 for unsigned formats
  int mag_shift;     // position of the magnitude (tf32: 13; the fp32 word's bits 12..0 stay 0)
  uint64_t max_mag;  // magnitude (exponent|fraction) of the largest finite value
  uint64_t inf_mag;  // magnitude of inf; 0 when the format has none
  uint64_t nan;      // the code a NaN input gives (canonical NaN, or +max for fp6/fp4)
  uint64_t ovf_nan;  // what a non-saturating overflow gives when there is no inf (a NaN code)
  bool always_sat;   // e2m3/e3m2/e2m1: no inf, no NaN — PTX makes .satfinite mandatory
  bool exp_only;     // ue8m0: 2^(code-127), no fraction, no zero, no subnormals
};

constexpr EncParams make_params(const FormatSpec& f) {
  EncParams p{};
  p.mb = f.mant_bits;
  p.emin = 1 - f.bias;
  p.sign_bit = f.has_sign ? (f.type == DType::TF32 ? 31 : f.exp_bits + f.mant_bits) : -1;
  p.mag_shift = f.type == DType::TF32 ? 13 : 0;
  const uint64_t exp_ones = (1ull << f.exp_bits) - 1;
  if (f.has_inf) {
    p.max_mag = (exp_ones << f.mant_bits) - 1;  // exponent all-ones minus one, fraction all ones
    p.inf_mag = exp_ones << f.mant_bits;
  } else if (f.nan_code >= 0) {
    p.max_mag = static_cast<uint64_t>(f.nan_code) - 1;  // e4m3/ue4m3 0x7e, ue8m0 0xfe
  } else {
    p.max_mag = (1ull << (f.exp_bits + f.mant_bits)) - 1;  // fp6/fp4: every code is finite
  }
  if (f.ieee_nan)
    p.nan = (1ull << p.sign_bit) - 1;  // all ones below the sign: 0x7fff, 0x7fffffff, 0x7f, ...
  else if (f.nan_code >= 0)
    p.nan = static_cast<uint64_t>(f.nan_code);
  else
    p.nan = p.max_mag;  // PTX: NaN -> positive MAX_NORM for e2m3/e3m2/e2m1
  p.ovf_nan = f.nan_code >= 0 ? static_cast<uint64_t>(f.nan_code) : p.nan;
  p.always_sat = !f.has_inf && f.nan_code < 0;
  p.exp_only = !f.has_zero;
  p.emax = static_cast<int>(p.max_mag >> p.mb) + p.emin - 1;
  return p;
}

constexpr std::array<EncParams, detail::kNumFloatFormats> make_table() {
  std::array<EncParams, detail::kNumFloatFormats> t{};
  for (std::size_t i = 0; i < detail::kNumFloatFormats; ++i) t[i] = make_params(detail::kSpecs[i]);
  return t;
}
constexpr auto kParams = make_table();

// Spot checks of the derived table against PTX ISA §5.2.3 (max finite codes, NaN codes).
static_assert(kParams[static_cast<int>(DType::F16)].max_mag == 0x7bff);
static_assert(kParams[static_cast<int>(DType::F16)].emax == 15);
static_assert(kParams[static_cast<int>(DType::TF32)].max_mag << 13 == 0x7f7fe000);
static_assert(kParams[static_cast<int>(DType::E4M3)].max_mag == 0x7e);
static_assert(kParams[static_cast<int>(DType::E4M3)].emax == 8);       // 448 = 1.75 * 2^8
static_assert(kParams[static_cast<int>(DType::E5M2)].nan == 0x7f);
static_assert(kParams[static_cast<int>(DType::E2M1)].nan == 0x7);      // +6.0
static_assert(kParams[static_cast<int>(DType::E3M2)].emax == 4);       // 28 = 1.75 * 2^4
static_assert(kParams[static_cast<int>(DType::F64)].nan == 0x7fffffffffffffffull);

// The error paths stay out of line so that the hot encode path has no string handling in it.
[[noreturn, gnu::noinline, gnu::cold]] void throw_not_float(DType t) {
  throw std::invalid_argument("encode: not a floating-point format: " +
                              std::string(isa::dtype_name(t)));
}

[[noreturn, gnu::noinline, gnu::cold]] void throw_ue8m0_rounding() {
  // PTX ISA §9.7.9.21: cvt.frnd3{.satfinite}.ue8m0x2.{f32,bf16x2}, .frnd3 = { .rz, .rp }.
  throw std::invalid_argument("encode: ue8m0 takes only RZ or RP rounding (PTX .frnd3)");
}

inline const EncParams& params(DType t) {
  if (!detail::is_float_format(t)) [[unlikely]] throw_not_float(t);
  return kParams[static_cast<std::size_t>(t)];
}

inline void check_ue8m0_rounding(Round r) {
  if (r != Round::RZ && r != Round::RP) [[unlikely]] throw_ue8m0_rounding();
}

uint64_t sign_of(const EncParams& p, bool neg) { return neg ? 1ull << p.sign_bit : 0; }

// |x| beyond max finite after rounding (or an infinite input): PTX .satfinite / IEEE overflow.
uint64_t overflow(const EncParams& p, bool neg, Round r, bool sat) {
  const bool toward_zero = r == Round::RZ || (r == Round::RM && !neg) || (r == Round::RP && neg);
  const uint64_t sign = sign_of(p, neg);
  if (sat || p.always_sat || toward_zero) return sign | (p.max_mag << p.mag_shift);
  if (p.inf_mag) return sign | (p.inf_mag << p.mag_shift);
  return sign | p.ovf_nan;  // e4m3: 0x7f|sign (CUDA __NV_NOSAT), ue4m3: 0x7f
}

// ue8m0 (exponent only): RZ = floor(log2|x|), RP = ceil(log2|x|), clipped below at 2^-127
// (code 0x00; CUDA clips there too, including for 0) and saturating/NaN above 2^127.
uint64_t round_exp_only(int e_floor, bool exact_pow2, Round r, bool sat) {
  const int k = (r == Round::RP && !exact_pow2) ? e_floor + 1 : e_floor;
  if (k < -127) return 0x00;
  if (k > 127) return sat ? 0xfe : 0xff;
  return static_cast<uint64_t>(k + 127);
}

// Rounds (-1)^neg * (sig + d) * 2^exp (sig != 0; d in (0,1) iff sticky) to the format.
uint64_t round_pack(const EncParams& p, bool neg, uint64_t sig, int exp, bool sticky, Round r,
                    bool sat) {
  constexpr uint64_t kHalf = 1ull << 63;
  const int lz = std::countl_zero(sig);
  sig <<= lz;  // leading one at bit 63: the dropped bits below the ulp are always >= 11
  exp -= lz;
  const int e_floor = exp + 63;  // floor(log2 |x|)
  if (p.exp_only) return round_exp_only(e_floor, sig == kHalf && !sticky, r, sat);
  if (e_floor > p.emax + 1) return overflow(p, neg, r, sat);  // >= 2^(emax+2): no rounding helps

  // Quantise on the ulp of x's binade, or of the smallest normal binade for subnormals.
  const int e_binade = e_floor < p.emin ? p.emin : e_floor;
  const int shift = 63 - p.mb + (e_binade - e_floor);  // bits of sig below the ulp (>= 11)
  uint64_t n;        // |x| / ulp, truncated
  bool above_half;   // the dropped part is more than half an ulp
  bool at_half;      // ... exactly half an ulp
  bool inexact;
  if (shift < 64) {
    n = sig >> shift;
    const uint64_t rem = sig << (64 - shift);  // dropped bits, left-aligned
    above_half = rem > kHalf || (rem == kHalf && sticky);
    at_half = rem == kHalf && !sticky;
    inexact = rem != 0 || sticky;
  } else {  // far below the smallest subnormal
    n = 0;
    above_half = shift == 64 && (sig > kHalf || (sig == kHalf && sticky));
    at_half = shift == 64 && sig == kHalf && !sticky;
    inexact = true;
  }
  bool up = false;
  switch (r) {
    case Round::RN: up = above_half || (at_half && (n & 1)); break;
    case Round::RNA: up = above_half || at_half; break;
    case Round::RZ: break;
    case Round::RP: up = !neg && inexact; break;
    case Round::RM: up = neg && inexact; break;
  }
  n += up;
  // For a normal binade n is in [2^mb, 2^(mb+1)]: adding the binade index puts the hidden bit into
  // the exponent field, and a carry out of the fraction (n = 2^(mb+1)) moves to the next binade.
  // For subnormals (e_binade == emin) the code is n itself, and n = 2^mb is the smallest normal.
  const uint64_t mag = (static_cast<uint64_t>(e_binade - p.emin) << p.mb) + n;
  if (mag > p.max_mag) return overflow(p, neg, r, sat);
  return sign_of(p, neg) | (mag << p.mag_shift);
}

}  // namespace

uint64_t encode_exact(DType t, bool neg, uint64_t sig, int exp, bool sticky, Round r, bool satfinite) {
  const EncParams& p = params(t);
  if (p.exp_only) check_ue8m0_rounding(r);
  if (p.sign_bit < 0) neg = false;  // unsigned formats encode |x|
  if (sig == 0) return p.exp_only ? 0x00 : sign_of(p, neg);
  return round_pack(p, neg, sig, exp, sticky, r, satfinite);
}

uint64_t encode(DType t, double value, Round r, bool satfinite) {
  const EncParams& p = params(t);
  if (p.exp_only) check_ue8m0_rounding(r);
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const bool neg = p.sign_bit >= 0 && (bits >> 63) != 0;
  const int e = static_cast<int>((bits >> 52) & 0x7ff);
  const uint64_t m = bits & ((1ull << 52) - 1);
  if (e == 0x7ff) {
    if (m != 0) return p.nan;
    if (p.exp_only) return satfinite ? 0xfe : 0xff;
    // An infinite input is exact: it stays inf (IEEE) unless satfinite or the format has no inf.
    if (satfinite || p.always_sat) return sign_of(p, neg) | (p.max_mag << p.mag_shift);
    if (p.inf_mag) return sign_of(p, neg) | (p.inf_mag << p.mag_shift);
    return sign_of(p, neg) | p.ovf_nan;
  }
  if (t == DType::F64) return bits;  // every other double is its own f64 code
  if (e == 0 && m == 0) return p.exp_only ? 0x00 : sign_of(p, neg);
  const uint64_t sig = e ? (m | (1ull << 52)) : m;
  const int exp = e ? e - 1075 : -1074;
  return round_pack(p, neg, sig, exp, false, r, satfinite);
}

}  // namespace tcsim::models
