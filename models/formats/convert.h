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
// Not modelled here: .rs (stochastic rounding, the x4 forms), .s2f6x2 and .scaled::n2::ue8m0
// (PTX 9.1). Which (dtype, atype, modifier) combinations are legal is the PTX front end's
// business; these functions compute any combination they are given.
#pragma once
#include <cstdint>

#include "models/formats/format.h"

namespace tcsim::models {

struct CvtMods {
  Round rnd = Round::RN;   // .rn .rz .rm .rp .rna; for integer rounding RN/RZ/RM/RP mean .rni/.rzi/.rmi/.rpi
  bool satfinite = false;  // .satfinite: |x| > MAX_NORM -> ±MAX_NORM, NaN -> NaN (fp6/fp4: +MAX_NORM)
  bool relu = false;       // .relu: negative results -> +0, NaN results -> canonical NaN
  bool sat = false;        // .sat: float results clamped to [0.0, 1.0], NaN -> +0; integer results
                           //       clamped to the destination range (redundant for float -> int)
  bool ftz = false;        // .ftz: f32 subnormal inputs and f32 subnormal results -> sign-preserving 0
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
