// Number formats as descriptions with an encoding policy (inf? which NaN codes? subnormals? zero?),
// not just exponent and mantissa widths (STYLE.md "Numbers"). Every decode is exact.
//
// Sources: PTX ISA §5.2.3 "Alternate floating point data formats" (e4m3: no inf, NaN only 0x7f/0xff;
// e2m1/e2m3/e3m2: no inf, no NaN; ue8m0: NaN 0xff, no zero; ue4m3: 7-bit, NaN 0x7f), IEEE 754 for
// f16/bf16/f32/f64, and CUDA 13's cuda_fp8/fp6/fp4 headers for the conversion policies
// (tests/cuda_oracle compares every code with them).
//
// The rest of models/formats: encode.cc (rounding into a format), convert.h (PTX cvt: modifiers,
// integer forms, x2 packed forms), packing.h (the byte containers and 16-byte units in which the
// tensor core reads 4- and 6-bit elements).
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
// core does — docs/mma_numerics.md §1) and sig the integer significand including the hidden bit.
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

// Rounds a value to format t and returns its code (tf32: the fp32 word with bits 12..0 zero;
// fp6/fp4: the code in the low 6/4 bits; ue4m3: 7 bits). One correctly rounded step from the
// exact input (a double holds every f64/f32/tf32/f16/bf16/fp8/fp6/fp4 value exactly, so encoding
// an f32 or f16 through its double is the direct conversion, never a double rounding).
// Semantics are PTX cvt's (PTX ISA §9.7.9.21), which CUDA 13's host conversion functions
// reproduce bit for bit except where models/formats/encode.cc's header comment says otherwise:
//  - rounding r: RN/RZ/RM/RP/RNA for every format with a sign; ue8m0 accepts only RZ and RP
//    (PTX .frnd3) and throws std::invalid_argument otherwise. Subnormals are produced, never
//    flushed; underflow keeps the sign (±0), except ue8m0, which has no zero: values below 2^-127
//    (and 0) give 0x00 = 2^-127 (CUDA __nv_cvt_*_to_e8m0).
//  - overflow (|rounded| > max finite): IEEE rule — to ±inf for RN/RNA and for RM/RP away from
//    zero, to ±max finite for RZ and for RM/RP toward zero; formats without inf give NaN instead
//    of inf (e4m3 0x7f|sign, ue8m0 0xff, ue4m3 0x7f).
//  - satfinite (PTX .satfinite): |x| > max finite (inf included) gives ±max finite instead.
//    e2m3, e3m2, e2m1 are always satfinite (PTX requires .satfinite for them).
//  - NaN input: the format's canonical NaN, sign dropped — f64 0x7fffffffffffffff, f32/tf32
//    0x7fffffff, f16/bf16 0x7fff, e4m3/e5m2 0x7f, ue8m0 0xff, ue4m3 0x7f — and for e2m3/e3m2/e2m1,
//    which have no NaN, +max finite (PTX §9.7.9.21 .satfinite: "NaN results are converted to
//    positive MAX_NORM"; CUDA's cuda_fp6/fp4 do the same).
//  - unsigned formats (ue8m0, ue4m3) encode |x| (CUDA's e8m0 conversions drop the sign). PTX has
//    no cvt to ue4m3 (nor does CUDA); encode(UE4M3) is e4m3's rule on |x|, for building scale data.
uint64_t encode(DType t, double value, Round r, bool satfinite);

// The same rounding for an exact value (-1)^neg * (sig + d) * 2^exp, where d = 0 when !sticky and
// 0 < d < 1 when sticky (bits below sig's last bit were nonzero). sig == 0 means ±0 (sticky is
// then ignored). Used for integer sources (cvt.rn.f32.s64 ...) and by the MMA models to round
// exact sums; inf/NaN never arise here.
uint64_t encode_exact(DType t, bool neg, uint64_t sig, int exp, bool sticky, Round r, bool satfinite);

}  // namespace tcsim::models
