// PTX cvt semantics (PTX ISA §9.7.9.21) on hand-worked values: operand order of the packed forms,
// the modifiers, float <-> integer rounding, saturation and the NaN -> integer rule.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "models/formats/convert.h"

using namespace tcsim::models;

namespace {
uint32_t fb(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t db(double d) { return std::bit_cast<uint64_t>(d); }
CvtMods mods(Round r, bool satfinite = false) {
  CvtMods m;
  m.rnd = r;
  m.satfinite = satfinite;
  return m;
}
const CvtMods kRnSat = mods(Round::RN, true);
}  // namespace

TEST_CASE("cvt packed x2 from two f32: a goes to the upper lane") {
  // cvt.rn.f16x2.f32 d, a, b: d[31:16] = f16(a) = 1.0 = 0x3c00, d[15:0] = f16(b) = 2.0 = 0x4000.
  CHECK(cvt_pack_f32x2(DType::F16, fb(1.0f), fb(2.0f), mods(Round::RN)) == 0x3c004000u);
  CHECK(cvt_pack_f32x2(DType::BF16, fb(1.0f), fb(-2.0f), mods(Round::RZ)) == 0x3f80c000u);
  // cvt.rn.satfinite.e4m3x2.f32: d[15:8] = e4m3(1.0) = 0x38, d[7:0] = e4m3(2.0) = 0x40.
  CHECK(cvt_pack_f32x2(DType::E4M3, fb(1.0f), fb(2.0f), kRnSat) == 0x3840u);
  CHECK(cvt_pack_f32x2(DType::E5M2, fb(1e9f), fb(-1.0f), kRnSat) == 0x7bbcu);  // sat max, -1 = 1 01111 00
  // e2m1x2: d[7:4] = e2m1(1.0) = 0x2, d[3:0] = e2m1(6.0) = 0x7.
  CHECK(cvt_pack_f32x2(DType::E2M1, fb(1.0f), fb(6.0f), kRnSat) == 0x27u);
  // e2m3x2: d[13:8] = e2m3(-1.0) = 1 01 000 = 0x28, d[5:0] = e2m3(7.5) = 0x1f; d[15:14] = d[7:6] = 0.
  CHECK(cvt_pack_f32x2(DType::E2M3, fb(-1.0f), fb(7.5f), kRnSat) == 0x281fu);
  // ue8m0x2 rz: 2.0 -> 0x80, 0.75 -> 2^-1 = 0x7e; rp: 0.75 -> 2^0 = 0x7f.
  CHECK(cvt_pack_f32x2(DType::UE8M0, fb(2.0f), fb(0.75f), mods(Round::RZ)) == 0x807eu);
  CHECK(cvt_pack_f32x2(DType::UE8M0, fb(2.0f), fb(0.75f), mods(Round::RP)) == 0x807fu);
  CHECK_THROWS_AS(cvt_pack_f32x2(DType::F32, 0, 0, kRnSat), std::invalid_argument);
}

TEST_CASE("cvt packed x2 from f16x2/bf16x2 and back") {
  // a = {hi: f16 1.0 = 0x3c00, lo: f16 2.0 = 0x4000} -> e4m3x2 {0x38, 0x40}.
  CHECK(cvt_pack_x2(DType::E4M3, DType::F16, 0x3c004000u, kRnSat) == 0x3840u);
  CHECK(cvt_pack_x2(DType::E2M1, DType::BF16, 0x3f80c0c0u, kRnSat) == 0x2fu);  // bf16 -6.0 = 0xc0c0
  CHECK(cvt_pack_x2(DType::UE8M0, DType::BF16, 0x40403f00u, mods(Round::RP)) == 0x817eu);  // 3.0, 0.5
  // cvt.rn.f16x2.e4m3x2: d[31:16] from a[15:8].
  CHECK(cvt_unpack_x2(DType::F16, DType::E4M3, 0x3840u, mods(Round::RN)) == 0x3c004000u);
  CHECK(cvt_unpack_x2(DType::F16, DType::E4M3, 0x7fffu, mods(Round::RN)) == 0x7fff7fffu);  // NaN
  CHECK(cvt_unpack_x2(DType::F16, DType::E2M1, 0x27u, mods(Round::RN)) == 0x3c004600u);    // 1.0, 6.0
  CHECK(cvt_unpack_x2(DType::F16, DType::E3M2, 0x0c1fu, mods(Round::RN)) == 0x3c004f00u);  // 1.0, 28.0
  // fp6 lanes are read as their low 6 bits: 0xcc is read as 0x0c.
  CHECK(cvt_unpack_x2(DType::F16, DType::E3M2, 0xcc1fu, mods(Round::RN)) == 0x3c004f00u);
  // cvt.rn.bf16x2.ue8m0x2: 0x80 -> 2.0 = 0x4000; 0x00 -> 2^-127 = bf16 subnormal 0x0040;
  // 0xff -> NaN 0x7fff.
  CHECK(cvt_unpack_x2(DType::BF16, DType::UE8M0, 0x8000u, mods(Round::RN)) == 0x40000040u);
  CHECK(cvt_unpack_x2(DType::BF16, DType::UE8M0, 0xff7fu, mods(Round::RN)) == 0x7fff3f80u);
  // .relu on an up-conversion: e4m3 -1.0 (0xb8) -> +0.
  CvtMods relu = mods(Round::RN);
  relu.relu = true;
  CHECK(cvt_unpack_x2(DType::F16, DType::E4M3, 0xb838u, relu) == 0x00003c00u);
}

TEST_CASE("cvt modifiers: .relu, .sat, .ftz, .satfinite") {
  CvtMods m = mods(Round::RN);
  m.relu = true;
  CHECK(cvt_float(DType::F16, DType::F32, fb(-1.0f), m) == 0x0000);
  CHECK(cvt_float(DType::F16, DType::F32, fb(1.0f), m) == 0x3c00);
  CHECK(cvt_float(DType::F16, DType::F32, 0xffc00001u, m) == 0x7fff);  // NaN -> canonical NaN
  CHECK(cvt_float(DType::E2M1, DType::F32, 0x7fc00000u, kRnSat) == 0x7);  // fp4 NaN -> +max
  m = mods(Round::RN);
  m.sat = true;  // [0, 1], NaN -> +0
  CHECK(cvt_float(DType::F32, DType::F64, db(1.5), m) == 0x3f800000);
  CHECK(cvt_float(DType::F32, DType::F64, db(-2.0), m) == 0);
  CHECK(cvt_float(DType::F32, DType::F64, db(0.25), m) == 0x3e800000);
  CHECK(cvt_float(DType::F16, DType::F32, 0x7fc00000u, m) == 0);
  m = mods(Round::RN);
  m.ftz = true;  // f32 subnormal inputs and results -> sign-preserving zero
  CHECK(cvt_float(DType::F16, DType::F32, 0x80000001u, m) == 0x8000);
  CHECK(cvt_float(DType::F32, DType::F64, db(0x1p-140), m) == 0);
  CHECK(cvt_float(DType::F32, DType::F64, db(0x1p-140), mods(Round::RN)) == 0x00000200);  // 2^9 * 2^-149
  CHECK(cvt_float(DType::F32, DType::F16, 0x0001, m) == 0x33800000);  // f16 subnormal is f32 normal
  // .satfinite on f16/bf16/tf32 destinations.
  CHECK(cvt_float(DType::F16, DType::F32, fb(1e6f), mods(Round::RN, true)) == 0x7bff);
  CHECK(cvt_float(DType::F16, DType::F32, 0x7fc00000u, mods(Round::RN, true)) == 0x7fff);
  CHECK(cvt_float(DType::TF32, DType::F32, 0x7f800000u, mods(Round::RNA, true)) == 0x7f7fe000);
  // Widening conversions are exact; bf16 -> f32 shifts the bits (NaN payload kept).
  CHECK(cvt_float(DType::F32, DType::BF16, 0xffc1u, mods(Round::RN)) == 0xffc10000u);
  CHECK(cvt_float(DType::F32, DType::F16, 0xfe01u, mods(Round::RN)) == 0x7fffffffu);
  CHECK(cvt_float(DType::F64, DType::F32, fb(0.1f), mods(Round::RN)) == db(static_cast<double>(0.1f)));
}

TEST_CASE("cvt float -> integer: .rni/.rzi/.rmi/.rpi, clamping, NaN") {
  auto f2i = [](DType dst, DType src, uint64_t a, Round r) { return cvt_float_to_int(dst, src, a, mods(r)); };
  CHECK(f2i(DType::S32, DType::F32, fb(2.5f), Round::RN) == 2);           // tie to even
  CHECK(f2i(DType::S32, DType::F32, fb(3.5f), Round::RN) == 4);
  CHECK(f2i(DType::S32, DType::F32, fb(-2.5f), Round::RN) == 0xfffffffe);  // -2
  CHECK(f2i(DType::S32, DType::F32, fb(-2.7f), Round::RZ) == 0xfffffffe);  // -2
  CHECK(f2i(DType::S32, DType::F32, fb(-2.1f), Round::RM) == 0xfffffffd);  // -3
  CHECK(f2i(DType::S32, DType::F32, fb(2.1f), Round::RP) == 3);
  CHECK(f2i(DType::S8, DType::F32, fb(300.0f), Round::RZ) == 0x7f);        // clamped to 127
  CHECK(f2i(DType::S8, DType::F32, fb(-300.0f), Round::RZ) == 0x80);       // -128
  CHECK(f2i(DType::U8, DType::F32, fb(-1.0f), Round::RZ) == 0);
  CHECK(f2i(DType::U32, DType::F32, fb(5e9f), Round::RZ) == 0xffffffffu);
  CHECK(f2i(DType::S32, DType::F32, 0x7f800000u, Round::RZ) == 0x7fffffffu);  // +inf
  CHECK(f2i(DType::S32, DType::F32, 0xff800000u, Round::RZ) == 0x80000000u);  // -inf
  CHECK(f2i(DType::U64, DType::F32, fb(0x1p64f), Round::RZ) == ~0ull);
  CHECK(f2i(DType::S64, DType::F32, fb(0x1p63f), Round::RZ) == 0x7fffffffffffffffull);
  CHECK(f2i(DType::S64, DType::F32, fb(-0x1p63f), Round::RZ) == 0x8000000000000000ull);
  CHECK(f2i(DType::S16, DType::F16, 0xd800, Round::RN) == 0xff80);           // f16 -128
  CHECK(f2i(DType::U16, DType::BF16, 0x4780, Round::RN) == 0xffff);          // bf16 65536 clamps
  // NaN: 0 unless the source is f64 or the destination s64/u64; then 1 << (bits - 1).
  CHECK(f2i(DType::S32, DType::F32, 0x7fc00000u, Round::RN) == 0);
  CHECK(f2i(DType::U16, DType::F16, 0x7e00, Round::RN) == 0);
  CHECK(f2i(DType::S64, DType::F32, 0x7fc00000u, Round::RN) == 0x8000000000000000ull);
  CHECK(f2i(DType::U64, DType::F16, 0x7e00, Round::RZ) == 0x8000000000000000ull);
  CHECK(f2i(DType::S32, DType::F64, db(std::nan("")), Round::RN) == 0x80000000u);
  CHECK(f2i(DType::U8, DType::F64, db(std::nan("")), Round::RN) == 0x80);
  // .ftz flushes an f32 subnormal input; either way it rounds to 0 or, with .rpi, to 1.
  CvtMods ftz = mods(Round::RP);
  ftz.ftz = true;
  CHECK(cvt_float_to_int(DType::S32, DType::F32, 0x00000001u, mods(Round::RP)) == 1);
  CHECK(cvt_float_to_int(DType::S32, DType::F32, 0x00000001u, ftz) == 0);
  CHECK_THROWS_AS(f2i(DType::S32, DType::F32, 0, Round::RNA), std::invalid_argument);
}

TEST_CASE("cvt float -> float with integer rounding (cvt.rni.f32.f32 ...)") {
  CHECK(cvt_float_round_int(DType::F32, fb(2.5f), mods(Round::RN)) == fb(2.0f));
  CHECK(cvt_float_round_int(DType::F32, fb(-0.5f), mods(Round::RN)) == 0x80000000u);  // -0
  CHECK(cvt_float_round_int(DType::F32, fb(0.5f), mods(Round::RP)) == fb(1.0f));
  CHECK(cvt_float_round_int(DType::F32, fb(-0.5f), mods(Round::RP)) == 0x80000000u);  // ceil: -0
  CHECK(cvt_float_round_int(DType::F16, 0x3e00, mods(Round::RM)) == 0x3c00);          // 1.5 -> 1
  CHECK(cvt_float_round_int(DType::BF16, 0xc020, mods(Round::RZ)) == 0xc000);         // -2.5 -> -2
  CHECK(cvt_float_round_int(DType::F64, db(1e300), mods(Round::RN)) == db(1e300));
  CHECK(cvt_float_round_int(DType::F32, 0x7f800000u, mods(Round::RN)) == 0x7f800000u);
}

TEST_CASE("cvt integer -> float and integer -> integer") {
  auto i2f = [](DType dst, DType src, uint64_t a, Round r, bool sf = false) {
    return cvt_int_to_float(dst, src, a, mods(r, sf));
  };
  CHECK(i2f(DType::F32, DType::S32, 16777217, Round::RN) == 0x4b800000);  // tie, even: 2^24
  CHECK(i2f(DType::F32, DType::S32, 16777217, Round::RP) == 0x4b800001);
  CHECK(i2f(DType::F32, DType::U64, ~0ull, Round::RN) == 0x5f800000);     // 2^64
  CHECK(i2f(DType::F32, DType::U64, ~0ull, Round::RZ) == 0x5f7fffff);
  CHECK(i2f(DType::F32, DType::S64, 0x8000000000000000ull, Round::RN) == 0xdf000000);  // -2^63
  CHECK(i2f(DType::F16, DType::S8, 0x80, Round::RN) == 0xd800);           // -128
  CHECK(i2f(DType::F16, DType::S32, 70000, Round::RN) == 0x7c00);         // > 65520: inf
  CHECK(i2f(DType::F16, DType::S32, 70000, Round::RZ) == 0x7bff);
  CHECK(i2f(DType::F16, DType::S32, 70000, Round::RN, true) == 0x7bff);
  CHECK(i2f(DType::BF16, DType::U32, 257, Round::RN) == 0x4380);          // 257: tie -> 256
  CHECK(i2f(DType::F64, DType::S64, 0xffffffffffffffffull, Round::RN) == db(-1.0));
  CHECK(i2f(DType::F32, DType::S32, 0, Round::RN) == 0);
  CHECK(cvt_int_to_int(DType::S8, DType::S32, 300, true) == 0x7f);
  CHECK(cvt_int_to_int(DType::S8, DType::S32, 300, false) == 0x2c);
  CHECK(cvt_int_to_int(DType::U16, DType::S8, 0xff, false) == 0xffff);    // sign-extend, truncate
  CHECK(cvt_int_to_int(DType::U16, DType::S8, 0xff, true) == 0);
  CHECK(cvt_int_to_int(DType::S32, DType::U32, 0xffffffffu, true) == 0x7fffffffu);
  CHECK(cvt_int_to_int(DType::U64, DType::S32, 0xffffffffu, false) == ~0ull);
  CHECK(cvt_int_to_int(DType::S64, DType::U64, ~0ull, true) == 0x7fffffffffffffffull);
  CHECK(cvt_int_to_int(DType::S16, DType::S64, 0x8000000000000000ull, true) == 0x8000);
}
