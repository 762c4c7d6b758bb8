#include "models/formats/format.h"

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "models/formats/format_table.h"

namespace tcsim::models {

const FormatSpec& format_spec(DType t) {
  if (detail::is_float_format(t)) return detail::kSpecs[static_cast<std::size_t>(t)];
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
  if (t == DType::F64) return std::bit_cast<double>(code);
  // Normal f32 widen exactly in hardware; subnormals take the generic path below so that a host
  // running with denormals-are-zero cannot change the result.
  if (t == DType::F32 && (code & 0x7f800000u) != 0)
    return std::bit_cast<float>(static_cast<uint32_t>(code));
  const Unpacked u = unpack(t, code);
  switch (u.cls) {
    case FpClass::NaN: return std::numeric_limits<double>::quiet_NaN();
    case FpClass::Inf: return u.neg ? -HUGE_VAL : HUGE_VAL;
    case FpClass::Zero: return u.neg ? -0.0 : 0.0;
    default: {
      // sig * 2^(exp - frac_bits), exact: sig < 2^53, and every format's scale 2^-149 .. 2^127 is a
      // normal double power of two, built from its bits (no libm call on this per-element path).
      const int e = u.exp - u.frac_bits;
      const double scale = std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52);
      const double v = static_cast<double>(u.sig) * scale;
      return u.neg ? -v : v;
    }
  }
}

}  // namespace tcsim::models
