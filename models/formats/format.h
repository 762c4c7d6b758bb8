// Number formats as descriptions with an encoding policy (inf? which NaN codes? subnormals? zero?),
// not just exponent and mantissa widths (STYLE.md "Numbers"). Every decode is exact.
//
// Sources: PTX ISA §5.2.3 "Alternate floating point data formats" (e4m3: no inf, NaN only 0x7f/0xff;
// e2m1/e2m3/e3m2: no inf, no NaN; ue8m0: NaN 0xff, no zero; ue4m3: 7-bit, NaN 0x7f), IEEE 754 for
// f16/bf16/f32/f64, and CUDA 13's cuda_fp8/fp6/fp4 headers for the conversion policies
// (tests/cuda_oracle compares every code with them).
#pragma once
#include <cstdint>

#include "isa/dtype.h"

namespace tcsim::models {

using isa::DType;

enum class FpClass : uint8_t { Zero, Subnormal, Normal, Inf, NaN };

struct FormatSpec {
  DType type;
  int exp_bits;
  int mant_bits;     // explicit fraction bits
  int bias;
  bool has_sign;     // ue8m0 / ue4m3: no sign bit
  bool has_inf;      // IEEE-style inf at exponent all-ones, fraction 0
  bool ieee_nan;     // NaN = exponent all-ones, fraction != 0 (f16, bf16, f32, f64, e5m2, tf32)
  int nan_code;      // the single NaN magnitude code when !ieee_nan (e4m3 0x7f, ue8m0 0xff, ue4m3 0x7f); -1 none
  bool has_zero;     // ue8m0 has no zero (code 0 = 2^-127)
  bool has_subnormals;
  int storage_bits;  // bits in a code (tf32: 32, the fp32 word; fp6: 6; fp4: 4)

  constexpr int emin() const { return 1 - bias; }  // exponent of the smallest normal
};

const FormatSpec& format_spec(DType t);  // throws std::invalid_argument for integer types

// An exactly decoded value: (-1)^neg * sig * 2^(exp - frac_bits), with exp the unbiased exponent
// (clamped to emin for subnormals, so products can be formed without renormalising, as the tensor
// core does — ref/numerics.md §2.2) and sig the integer significand including the hidden bit.
struct Unpacked {
  FpClass cls;
  bool neg;
  int exp;
  uint64_t sig;
  int frac_bits;
};

Unpacked unpack(DType t, uint64_t code);      // tf32: the fp32 word with bits 12..0 ignored
double to_double(DType t, uint64_t code);     // exact for every format except f64 itself (identity)

enum class Round : uint8_t { RN, RZ, RM, RP, RNA };  // RN = nearest-even; RNA = nearest, ties away

// Conversion from a double (exact for any f32/f16/bf16 input) to format t, with PTX cvt's rounding
// and saturation semantics for that format (PTX ISA §9.7.9.21 "cvt"):
//  - satfinite: results beyond max finite (and inf) clamp to +-max finite; NaN follows the
//    format's rule (e4m3 -> 0x7f, e5m2 -> 0x7f|sign..., fp6/fp4 -> +max finite (CUDA), ue8m0 -> 0xff).
//  - without satfinite: overflow gives inf where the format has one, else NaN (e4m3 -> 0x7f|sign).
// Formats that are always saturating (e2m1, e2m3, e3m2) saturate whatever `satfinite` says.
uint64_t encode(DType t, double value, Round r, bool satfinite);

}  // namespace tcsim::models
