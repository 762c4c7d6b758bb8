// PTX `cvt` as functions of bits: what the PTX interpreter's cvt calls, one function per family of
// forms. PTX ISA §9.7.9.21 "Data Movement and Conversion Instructions: cvt" (PTX ISA 9.x):
//
//   cvt{.irnd}{.ftz}{.sat}.dtype.atype         d, a;    // integer rounding   -> cvt_float_to_int,
//   cvt{.frnd}{.ftz}{.sat}.dtype.atype         d, a;    //   cvt_float, cvt_int_to_float,
//                                                       //   cvt_int_to_int, cvt_float_round_int
//   cvt.frnd2{.relu}{.satfinite}.{f16,bf16}.f32        d, a;        -> cvt_float
//   cvt.frnd2{.relu}{.satfinite}.{f16x2,bf16x2}.f32    d, a, b;     -> cvt_pack_f32x2
//   cvt.rna{.satfinite}.tf32.f32 / cvt.frnd2{.satfinite}{.relu}.tf32.f32 d, a; -> cvt_float
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}.f32 d, a, b;   -> cvt_pack_f32x2
//   cvt.rn.satfinite{.relu}.{e4m3x2,...,e2m1x2}.{f16x2,bf16x2}      d, a;      -> cvt_pack_x2
//   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}        d, a;      -> cvt_unpack_x2
//   cvt.frnd3{.satfinite}.ue8m0x2.f32 d, a, b;  cvt.frnd3{.satfinite}.ue8m0x2.bf16x2 d, a;
//   cvt.rn.bf16x2.ue8m0x2 d, a;
//   .irnd = {.rni,.rzi,.rmi,.rpi}  .frnd = {.rn,.rz,.rm,.rp}  .frnd2 = {.rn,.rz}  .frnd3 = {.rz,.rp}
//
// Operand order (§9.7.9.21 Semantics): in the two-input forms a goes to the UPPER lane and b to the
// lower lane (d[31:16] = cvt(a) for f16x2/bf16x2; d[15:8] for the 8-bit lanes, d[13:8] for fp6 with
// d[15:14] = 0; d[7:4] for e2m1x2); an x2 source's upper lane converts into d's upper lane.
// CUDA's __nv_cvt_float2_to_fp8x2(float2 x) therefore passes (a, b) = (x.y, x.x).
//
//   cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits;                -> cvt_rs_f32x2
//   cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32 d, {a,b,e,f}, rbits; -> cvt_rs_x4
//
// Not modelled here: .s2f6x2 and .scaled::n2::ue8m0 (PTX 9.1). Which (dtype, atype, modifier)
// combinations are legal is the PTX front end's business; these functions compute any combination
// they are given.
#pragma once
#include <cstdint>

#include "models/formats/format.h"

namespace tcsim::models {

// Which NaN a float -> float conversion returns. The PTX ISA leaves NaN results unspecified
// ("NaN input yields unspecified NaN"); Canonical gives the destination's canonical NaN (format.h
// encode()). Hardware gives what NVIDIA GPUs return where that is known to differ, measured on the
// H200 (sm_90a, kernels/basic goldens cvt_float, f32_ftz, f64_math, driver 580.159.04) and ASSUMED
// the same on sm_100a until a Blackwell run:
//  - a NaN converted to .f64 from .f16, .bf16 or .f32 keeps its sign and payload and is quieted
//    (cvt_float columns 4-5, 7-8; cvt_nan columns 85-86, 90-91); cvt.ftz.f64.f32 first replaces the f32 NaN by the canonical
//    0x7fffffff (f32_ftz column 11), so it gives 0x7fffffffe0000000. Likewise a .f64 -> .f64
//    rounding to an integral value (cvt.rni.f64.f64 ...) returns the NaN quieted (f64_math).
//    With .sat the result is +0 as in every other form.
//  - cvt.rna{.satfinite}.tf32.f32 (cvt_float column 18-19): the input with its 13 low bits cleared
//    (truncated, not rounded; sign and payload kept, not quieted); .satfinite then subtracts one
//    tf32 ulp (0x2000) -- the mechanism that turns an infinity into MAX_NORM, applied to the NaN.
//  - cvt.rn/.rz{.relu}{.satfinite}.tf32.f32 (columns 20-22): 0x7fffe000 (the canonical f32 NaN with
//    its 13 low bits cleared).
//  - a NaN narrowed from .f64 to .f32, .f16 or .bf16 keeps its sign and the top fraction bits of
//    its payload, quieted, in every rounding mode and with .ftz (kernels/basic cvt_nan columns
//    47-51, 59-61; an f32 NaN widened, through an f64 FMA and back comes back unchanged: issue 10
//    item 10); with .sat the result is +0.
// Every other conversion gives the canonical NaN under both rules (H200: f16 -> f32 and f32 -> f16,
// bf16, f32 give 0x7fffffff / 0x7fff; bf16 -> f32 copies the bits, see cvt_float below).
enum class NaNRule : uint8_t { Canonical, Hardware };

struct CvtMods {
  Round rnd = Round::RN;   // .rn .rz .rm .rp .rna; for integer rounding RN/RZ/RM/RP mean .rni/.rzi/.rmi/.rpi
  bool satfinite = false;  // .satfinite: |x| > MAX_NORM -> ±MAX_NORM, NaN -> NaN (fp6/fp4: +MAX_NORM)
  bool relu = false;       // .relu: negative results -> +0, NaN results -> canonical NaN
  bool sat = false;        // .sat: float results clamped to [0.0, 1.0], NaN -> +0; integer results
                           //       clamped to the destination range (redundant for float -> int)
  bool ftz = false;        // .ftz: f32 subnormal inputs and f32 subnormal results -> sign-preserving 0
  NaNRule nan = NaNRule::Canonical;  // NaN results of float -> float conversions (see NaNRule)
};

// Float -> float, any pair of float formats (f64, f32, tf32, f16, bf16 and the narrow formats),
// scalar. a and the result are codes (tf32: the f32 word). Widening is exact; bf16 -> f32 copies
// the bits (a NaN keeps sign and payload: PTX says "cvt.f32.bf16: NaN input yields unspecified NaN";
// CUDA's host __bfloat162float and its pre-sm_90 device code both shift the bits — UNCONFIRMED on
// sm_90+/sm_100 hardware, where cvt.f32.bf16 is used), every other NaN becomes the destination's
// canonical NaN (format.h encode()).
uint64_t cvt_float(DType dst, DType src, uint64_t a, const CvtMods& m);

// Same-size float -> float with integer rounding (cvt.rni.f32.f32 ...): t in f16, bf16, f32, f64.
uint64_t cvt_float_round_int(DType t, uint64_t a, const CvtMods& m);

// Stochastic rounding (.rs, PTX ISA §9.7.9.21 "Floating Point Notes"): the f32 word a rounded to
// dst toward zero or away from zero, away exactly when adding the `rand_bits`-bit random value
// `rand` to the first `rand_bits` discarded bits of the significand carries out (the discarded
// bits are those below the destination's ulp at a's magnitude, subnormal ulp included; a random
// field narrower than the discarded bits is aligned with their most significant bit). The result
// is then exact or one ulp away, so overflow (2^(emax+1) and beyond) gives inf, or MAX_NORM with
// .satfinite (formats without inf: their overflow NaN, or MAX_NORM when always saturating). NaN,
// infinities and zeros convert as cvt_float does with .rn; m.rnd is ignored; .relu applies to the
// result. m.satfinite and m.relu are the instruction's modifiers.
uint64_t cvt_float_rs(DType dst, uint32_t a, uint32_t rand, int rand_bits, const CvtMods& m);

// cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits: d[31:16] = rs(a), d[15:0] = rs(b).
// The random bits (§9.7.9.21 "rbits"): f16x2: rbits[28:16] (13 bits) for a, rbits[12:0] for b
// (the 3 MSBs of each half are 0 by contract and ignored); bf16x2: rbits[31:16] for a,
// rbits[15:0] for b.
uint32_t cvt_rs_f32x2(DType dst_elem, uint32_t a, uint32_t b, uint32_t rbits, const CvtMods& m);

// cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32 d, {a, b, e, f}, rbits: four f32
// words (src[0..3] = a, b, e, f) packed from the top: 8-bit lanes d[31:24] = a ... d[7:0] = f (fp6
// codes with two zero MSBs), e2m1: d[15:12] = a ... d[3:0] = f.
// Random bits (§9.7.9.21): "two 16-bit values are provided from rbits where lower 16-bits are used
// for operands e, f and upper 16 bits are used for operands a, b" (8-bit and 6-bit formats): a
// and b both take rbits[31:16], e and f rbits[15:0]. e2m1x4: "lower 8-bits from both 16-bits half
// of rbits are used for operands e, f and upper 8-bits ... for operands a, b": a takes
// rbits[31:24], b rbits[15:8], e rbits[23:16], f rbits[7:0]. The PTX ISA draws the exact layouts
// in Figures 40-41, which tcsim's sources do not include: these assignments are the text's most
// literal reading, UNCONFIRMED until a Blackwell run.
uint32_t cvt_rs_x4(DType dst_elem, const uint32_t src[4], uint32_t rbits, const CvtMods& m);

// Float (f16, bf16, f32, f64) -> integer (s8..u64) with m.rnd as .rni/.rzi/.rmi/.rpi (RNA is
// rejected: std::invalid_argument). Out-of-range results clamp to the destination range (PTX: the
// result is clamped by default). NaN gives 0, except when the source is f64 or the destination is
// s64/u64: then 1 << (bits - 1) (PTX ISA §9.7.9.21 "Integer Notes"). Result: the destination's
// bits, zero-extended to 64 bits.
uint64_t cvt_float_to_int(DType dst, DType src, uint64_t a, const CvtMods& m);

// Integer -> float (f16, bf16, f32, f64 and, for completeness, any float format). a holds the
// source's bits (only the low dtype_bits(src) bits are read).
uint64_t cvt_int_to_float(DType dst, DType src, uint64_t a, const CvtMods& m);

// Integer -> integer: sign- or zero-extension by the source type, truncation to the destination
// width; with .sat the value is clamped to the destination range first. Result zero-extended.
uint64_t cvt_int_to_int(DType dst, DType src, uint64_t a, bool sat);

// Bits of one lane of an x2 form: f16/bf16 16; e4m3/e5m2/ue8m0 8; e2m3/e3m2 8 (6-bit code, two
// zero MSBs); e2m1 4. Throws std::invalid_argument for other types.
int x2_lane_bits(DType elem);

// cvt...{f16x2,bf16x2,e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2,ue8m0x2}.f32 d, a, b: a, b are f32 words;
// d = cvt(a) << lane | cvt(b).
uint32_t cvt_pack_f32x2(DType dst_elem, uint32_t a, uint32_t b, const CvtMods& m);

// cvt...{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2,ue8m0x2}.{f16x2,bf16x2} d, a: a holds two 16-bit
// src_elem values; d's upper lane from a[31:16], lower lane from a[15:0].
uint32_t cvt_pack_x2(DType dst_elem, DType src_elem, uint32_t a, const CvtMods& m);

// cvt.rn{.relu}.{f16x2,bf16x2}.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2,ue8m0x2} d, a: d[31:16] from a's
// upper lane, d[15:0] from its lower lane. fp6 lanes are read as their low 6 bits (PTX requires the
// two MSBs of each byte to be 0).
uint32_t cvt_unpack_x2(DType dst_elem, DType src_elem, uint32_t a, const CvtMods& m);

}  // namespace tcsim::models
