#include "models/formats/format.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace tcsim::models {
namespace {

// One row per format. Sources: IEEE 754 (f64/f32/f16), bf16 = f32's top half, tf32 = f32 word
// read with 10 fraction bits (PTX ISA §5.2.3 / §9.7.15.5.2 "truncate lower 13 bits"), and PTX ISA
// §5.2.3 for the alternate formats: e4m3 (no inf, NaN = S.1111.111), e5m2 (IEEE-like),
// e2m3/e3m2/e2m1 (no inf, no NaN), ue8m0 (exponent only, 0xff NaN, no zero), ue4m3 (7 bits, 0x7f NaN).
//                 type         e   m  bias  sign   inf    ieeeNaN nan   zero   subn   bits
constexpr FormatSpec kSpecs[] = {
    {DType::F64,   11, 52, 1023, true,  true,  true,  -1,   true,  true,  64},
    {DType::F32,    8, 23, 127,  true,  true,  true,  -1,   true,  true,  32},
    {DType::TF32,   8, 10, 127,  true,  true,  true,  -1,   true,  true,  32},
    {DType::F16,    5, 10, 15,   true,  true,  true,  -1,   true,  true,  16},
    {DType::BF16,   8,  7, 127,  true,  true,  true,  -1,   true,  true,  16},
    {DType::E4M3,   4,  3, 7,    true,  false, false, 0x7f, true,  true,  8},
    {DType::E5M2,   5,  2, 15,   true,  true,  true,  -1,   true,  true,  8},
    {DType::E2M3,   2,  3, 1,    true,  false, false, -1,   true,  true,  6},
    {DType::E3M2,   3,  2, 3,    true,  false, false, -1,   true,  true,  6},
    {DType::E2M1,   2,  1, 1,    true,  false, false, -1,   true,  true,  4},
    {DType::UE8M0,  8,  0, 127,  false, false, false, 0xff, false, false, 8},
    {DType::UE4M3,  4,  3, 7,    false, false, false, 0x7f, true,  true,  8},
};

}  // namespace

const FormatSpec& format_spec(DType t) {
  for (const auto& s : kSpecs)
    if (s.type == t) return s;
  throw std::invalid_argument("not a floating-point format: " + std::string(isa::dtype_name(t)));
}

Unpacked unpack(DType t, uint64_t code) {
  const FormatSpec& f = format_spec(t);
  if (t == DType::TF32) {
    // The tensor core reads a tf32 operand as an fp32 word and ignores bits 12..0
    // (PTX ISA §9.7.15.5.2: "truncate lower 13 bits"). So code is the fp32 word.
    code = (code & 0xffffffffu) >> 13;
  }
  const int nbits = f.has_sign ? 1 + f.exp_bits + f.mant_bits : f.exp_bits + f.mant_bits;
  if (f.type == DType::UE4M3) {
    // ue4m3 is 7 bits in an 8-bit container; the container's MSB is not part of the value
    // (PTX ISA §5.2.3: "register holds it with MSB zero"; MMA-Sim ignores it).
    code &= 0x7f;
  }
  code &= (nbits >= 64) ? ~0ull : ((1ull << nbits) - 1);
  const uint64_t mant = code & ((1ull << f.mant_bits) - 1);
  const uint64_t exp_field = (code >> f.mant_bits) & ((1ull << f.exp_bits) - 1);
  const bool neg = f.has_sign && ((code >> (f.exp_bits + f.mant_bits)) & 1);
  const uint64_t exp_all_ones = (1ull << f.exp_bits) - 1;
  const uint64_t magnitude = code & ((1ull << (f.exp_bits + f.mant_bits)) - 1);

  Unpacked u{FpClass::Normal, neg, 0, 0, f.mant_bits};
  if (f.ieee_nan && exp_field == exp_all_ones) {
    u.cls = mant ? FpClass::NaN : (f.has_inf ? FpClass::Inf : FpClass::NaN);
    return u;
  }
  if (!f.ieee_nan && f.nan_code >= 0 && magnitude == static_cast<uint64_t>(f.nan_code)) {
    u.cls = FpClass::NaN;
    return u;
  }
  if (!f.has_zero) {  // ue8m0: value 2^(E-127) for every E, no fraction bits
    u.exp = static_cast<int>(exp_field) - f.bias;
    u.sig = 1;
    return u;
  }
  if (exp_field == 0) {
    u.exp = f.emin();
    u.sig = mant;
    u.cls = mant ? FpClass::Subnormal : FpClass::Zero;
    return u;
  }
  u.exp = static_cast<int>(exp_field) - f.bias;
  u.sig = mant | (1ull << f.mant_bits);
  return u;
}

double to_double(DType t, uint64_t code) {
  if (t == DType::F64) {
    double d;
    static_assert(sizeof d == sizeof code);
    __builtin_memcpy(&d, &code, sizeof d);
    return d;
  }
  const Unpacked u = unpack(t, code);
  switch (u.cls) {
    case FpClass::NaN: return std::numeric_limits<double>::quiet_NaN();
    case FpClass::Inf: return u.neg ? -HUGE_VAL : HUGE_VAL;
    case FpClass::Zero: return u.neg ? -0.0 : 0.0;
    default: {
      const double v = std::ldexp(static_cast<double>(u.sig), u.exp - u.frac_bits);
      return u.neg ? -v : v;
    }
  }
}

}  // namespace tcsim::models
