// Stochastic rounding (cvt.rs, PTX ISA §9.7.9.21) and NaNRule::Hardware (models/formats/convert.h)
// on hand-worked values, plus the property that defines stochastic rounding: over every value of
// the random field, the result rounds away from zero for exactly as many values as the discarded
// bits are worth, so the expected result is the exact input.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>

#include "models/formats/convert.h"

using namespace tcsim;
using namespace tcsim::models;

namespace {
CvtMods rs_mods(bool relu = false, bool satfinite = false) {
  CvtMods m;
  m.relu = relu;
  m.satfinite = satfinite;
  return m;
}
CvtMods hw(Round r = Round::RN, bool satfinite = false, bool ftz = false) {
  CvtMods m;
  m.rnd = r;
  m.satfinite = satfinite;
  m.ftz = ftz;
  m.nan = NaNRule::Hardware;
  return m;
}
}  // namespace

TEST_CASE("cvt.rs f16x2/bf16x2: the discarded bits plus the random bits decide the direction") {
  // bf16: a = 0x3f808001 (1 + 2^-8 + 2^-23) keeps 0x3f80 and discards 0x8001 (16 bits); the random
  // field rbits[31:16] carries out iff r >= 0x10000 - 0x8001 = 0x7fff.
  CHECK(cvt_rs_f32x2(DType::BF16, 0x3f808001u, 0x3f800000u, 0x7ffe0000u, rs_mods()) == 0x3f803f80u);
  CHECK(cvt_rs_f32x2(DType::BF16, 0x3f808001u, 0x3f800000u, 0x7fff0000u, rs_mods()) == 0x3f813f80u);
  // b goes to d[15:0] with rbits[15:0]; negative values round away from zero in magnitude.
  CHECK(cvt_rs_f32x2(DType::BF16, 0x3f800000u, 0xbf808001u, 0x00007fffu, rs_mods()) == 0x3f80bf81u);
  // f16: a = 0x3f801001 (1 + 2^-11 + 2^-23): f16 1.0 = 0x3c00, discarded 13 bits 0x1001; the 13-bit
  // field rbits[28:16] carries iff r >= 0x2000 - 0x1001 = 0xfff. rbits[31:29] are ignored.
  CHECK(cvt_rs_f32x2(DType::F16, 0x3f801001u, 0u, 0x0ffe0000u, rs_mods()) == 0x3c000000u);
  CHECK(cvt_rs_f32x2(DType::F16, 0x3f801001u, 0u, 0x0fff0000u, rs_mods()) == 0x3c010000u);
  CHECK(cvt_rs_f32x2(DType::F16, 0x3f801001u, 0u, 0xeffe0000u, rs_mods()) == 0x3c000000u);
  // Overflow: 0x477fffff (just below 65536) discards 0x1fff above f16 MAX 65504 (0x7bff): r = 0
  // truncates, r = 1 carries to 2^16 = inf (0x7c00), or MAX_NORM with .satfinite.
  CHECK(cvt_rs_f32x2(DType::F16, 0x477fffffu, 0u, 0x00000000u, rs_mods()) == 0x7bff0000u);
  CHECK(cvt_rs_f32x2(DType::F16, 0x477fffffu, 0u, 0x00010000u, rs_mods()) == 0x7c000000u);
  CHECK(cvt_rs_f32x2(DType::F16, 0x477fffffu, 0u, 0x00010000u, rs_mods(false, true)) == 0x7bff0000u);
  // .relu: a negative result is +0; NaN, inf and zero convert as .rn does (f16 canonical NaN 0x7fff).
  CHECK(cvt_rs_f32x2(DType::F16, 0xbf801001u, 0x7f800000u, 0x0fff0000u, rs_mods(true)) == 0x00007c00u);
  CHECK(cvt_rs_f32x2(DType::F16, 0x7fc00000u, 0x80000000u, 0u, rs_mods()) == 0x7fff8000u);
}

TEST_CASE("cvt.rs is unbiased: #(random values rounding away) = the discarded bits' value") {
  // For a normal f16 result the random field is 13 bits wide and aligned with the 13 discarded
  // bits D, so exactly D of the 8192 random values carry: E[result] = kept + D / 2^13 = a exactly.
  for (uint32_t a : {0x3f801001u, 0x3f800001u, 0x3fffffffu, 0x40490fdbu, 0xc2f6e979u}) {
    CAPTURE(a);
    const uint32_t disc = a & 0x1fffu;
    const uint32_t down = cvt_rs_f32x2(DType::F16, a, 0u, 0u, rs_mods()) >> 16;
    uint32_t away = 0;
    for (uint32_t r = 0; r < 0x2000; ++r) {
      const uint32_t d = cvt_rs_f32x2(DType::F16, a, 0u, r << 16, rs_mods()) >> 16;
      if (d != down) {
        CHECK(d == down + 1);  // one ulp away in magnitude (sign-magnitude codes)
        ++away;
      }
    }
    CHECK(away == disc);
  }
}

TEST_CASE("cvt.rs x4 to fp8/fp6/fp4: lanes from the top, random halves per operand pair") {
  // e4m3: a = 0x3f880001 (1.0625 + 2^-23) keeps 1.0 (0x38) and discards 20 bits 0x80001; their top
  // 16 bits 0x8000 carry iff r >= 0x8000. a and b take rbits[31:16], e and f rbits[15:0].
  // b = 1.0 (0x38), e = +0, f = 2.0 (0x40).
  const uint32_t src[4] = {0x3f880001u, 0x3f800000u, 0u, 0x40000000u};
  CHECK(cvt_rs_x4(DType::E4M3, src, 0x80000000u, rs_mods(false, true)) == 0x39380040u);
  CHECK(cvt_rs_x4(DType::E4M3, src, 0x7fffffffu, rs_mods(false, true)) == 0x38380040u);
  // e2m1 (4-bit lanes d[15:12] = a .. d[3:0] = f): 1.0 = 0x2, 2.0 = 0x4; a = 1.25 + tiny
  // (0x3fa00001) discards 0.25 = half an ulp (ulp 0.5 at 1.0): its 8 random bits carry iff r >= 0x80.
  // a takes rbits[31:24].
  const uint32_t s4[4] = {0x3fa00001u, 0x3f800000u, 0u, 0x40000000u};
  CHECK(cvt_rs_x4(DType::E2M1, s4, 0x80000000u, rs_mods(false, true)) == 0x3204u);
  CHECK(cvt_rs_x4(DType::E2M1, s4, 0x7fffffffu, rs_mods(false, true)) == 0x2204u);
}

TEST_CASE("NaNRule::Hardware: the H200's NaN results of float conversions") {
  // f32 -> f64 keeps sign and payload, quieted: 0x7fa00001 -> exp 0x7ff, fraction 0x200001 << 29
  // with the quiet bit 2^51: 0x7ffc000020000000. The canonical rule gives the canonical NaN.
  CHECK(cvt_float(DType::F64, DType::F32, 0x7fa00001u, hw()) == 0x7ffc000020000000ull);
  CHECK(cvt_float(DType::F64, DType::F32, 0x7fa00001u, CvtMods{}) != 0x7ffc000020000000ull);
  // .ftz first replaces the f32 NaN by 0x7fffffff: 0x7fffffffe0000000.
  CHECK(cvt_float(DType::F64, DType::F32, 0xffa00001u, hw(Round::RN, false, true)) == 0x7fffffffe0000000ull);
  // f16 -> f64: 0xffff (sign, payload 0x3ff) -> 0xfffffc0000000000.
  CHECK(cvt_float(DType::F64, DType::F16, 0xffffu, hw()) == 0xfffffc0000000000ull);
  // tf32: .rna clears the 13 low bits (0x7fc12345 -> 0x7fc12000); .satfinite subtracts 0x2000;
  // .rn/.rz give 0x7fffe000.
  CHECK(cvt_float(DType::TF32, DType::F32, 0x7fc12345u, hw(Round::RNA)) == 0x7fc12000u);
  CHECK(cvt_float(DType::TF32, DType::F32, 0x7fc12345u, hw(Round::RNA, true)) == 0x7fc10000u);
  CHECK(cvt_float(DType::TF32, DType::F32, 0x7fc12345u, hw(Round::RZ)) == 0x7fffe000u);
  // f64 integral rounding keeps the NaN, quieted: 0x7ff0000000000001 -> 0x7ff8000000000001.
  CHECK(cvt_float_round_int(DType::F64, 0x7ff0000000000001ull, hw(Round::RN)) == 0x7ff8000000000001ull);
  // Everything else: the canonical NaN under both rules (f32 -> f16: 0x7fff).
  CHECK(cvt_float(DType::F16, DType::F32, 0x7fa00001u, hw()) == cvt_float(DType::F16, DType::F32, 0x7fa00001u, CvtMods{}));
}
