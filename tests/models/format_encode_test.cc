// encode() / encode_exact() on values worked out by hand: each CHECK gives the expected code in
// binary fields and the reason. Format layouts: PTX ISA §5.2.3 and docs/mma_numerics.md §5;
// conversion rules: PTX ISA §9.7.9.21 (cvt), format.h.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "models/formats/format.h"

using namespace tcsim::models;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
uint64_t enc(DType t, double v, Round r = Round::RN, bool sat = false) { return encode(t, v, r, sat); }
}  // namespace

TEST_CASE("encode f16 (1.5.10, bias 15): every rounding mode") {
  CHECK(enc(DType::F16, 1.0) == 0x3c00);  // 0 01111 0000000000
  // 1 + 2^-11 is half an ulp (ulp = 2^-10) above 1.0: a tie.
  CHECK(enc(DType::F16, 1 + 0x1p-11, Round::RN) == 0x3c00);   // ties to even (fraction 0)
  CHECK(enc(DType::F16, 1 + 0x1p-11, Round::RNA) == 0x3c01);  // ties away
  CHECK(enc(DType::F16, 1 + 0x1p-11, Round::RZ) == 0x3c00);
  CHECK(enc(DType::F16, 1 + 0x1p-11, Round::RM) == 0x3c00);
  CHECK(enc(DType::F16, 1 + 0x1p-11, Round::RP) == 0x3c01);
  // 1 + 3*2^-11 is the tie between 0x3c01 (odd) and 0x3c02 (even).
  CHECK(enc(DType::F16, 1 + 3 * 0x1p-11, Round::RN) == 0x3c02);
  CHECK(enc(DType::F16, 1 + 3 * 0x1p-11, Round::RZ) == 0x3c01);
  // Negative: RM rounds away from zero, RP toward zero.
  CHECK(enc(DType::F16, -1 - 0x1p-11, Round::RM) == 0xbc01);
  CHECK(enc(DType::F16, -1 - 0x1p-11, Round::RP) == 0xbc00);
  CHECK(enc(DType::F16, -1 - 0x1p-11, Round::RNA) == 0xbc01);
  // Overflow: max 65504 = 0x7bff (ulp 32); 65520 = max + ulp/2 is a tie, the even side is 2^16 = inf.
  CHECK(enc(DType::F16, 65504.0) == 0x7bff);
  CHECK(enc(DType::F16, 65519.0) == 0x7bff);
  CHECK(enc(DType::F16, 65520.0) == 0x7c00);
  CHECK(enc(DType::F16, 65520.0, Round::RZ) == 0x7bff);        // RZ never overflows to inf
  CHECK(enc(DType::F16, 65505.0, Round::RP) == 0x7c00);        // RP away from zero: inf
  CHECK(enc(DType::F16, -65505.0, Round::RM) == 0xfc00);       // RM away from zero: -inf
  CHECK(enc(DType::F16, -1e6, Round::RP) == 0xfbff);           // RP toward zero: -max
  CHECK(enc(DType::F16, 1e6, Round::RN, true) == 0x7bff);      // .satfinite
  CHECK(enc(DType::F16, -kInf, Round::RN, true) == 0xfbff);    // .satfinite clamps inf too
  CHECK(enc(DType::F16, kInf, Round::RZ) == 0x7c00);           // an infinite input stays inf
  // Subnormals: min 2^-24 = 0x0001; 2^-25 is the tie between 0 and 0x0001.
  CHECK(enc(DType::F16, 0x1p-24) == 0x0001);
  CHECK(enc(DType::F16, 0x1p-25) == 0x0000);
  CHECK(enc(DType::F16, -0x1p-25) == 0x8000);                  // underflow keeps the sign
  CHECK(enc(DType::F16, 0x1p-25, Round::RP) == 0x0001);
  CHECK(enc(DType::F16, 0x1p-25, Round::RNA) == 0x0001);
  CHECK(enc(DType::F16, 3 * 0x1p-26) == 0x0001);               // 0.75 ulp: up
  CHECK(enc(DType::F16, 0x1p-40, Round::RM) == 0x0000);
  CHECK(enc(DType::F16, -0x1p-40, Round::RM) == 0x8001);
  // 1023.5 * 2^-24 is the tie between the largest subnormal 0x03ff (odd) and 2^-14 = 0x0400.
  CHECK(enc(DType::F16, 1023.5 * 0x1p-24) == 0x0400);
  CHECK(enc(DType::F16, -0.0) == 0x8000);
  CHECK(enc(DType::F16, kNaN) == 0x7fff);
  CHECK(enc(DType::F16, -kNaN) == 0x7fff);  // canonical NaN, sign dropped (CUDA __float2half_rn)
}

TEST_CASE("encode bf16 (1.8.7) and f32 (1.8.23)") {
  CHECK(enc(DType::BF16, 1.0) == 0x3f80);  // 0 01111111 0000000
  CHECK(enc(DType::BF16, 1 + 0x1p-8) == 0x3f80);                 // tie, even
  CHECK(enc(DType::BF16, 1 + 0x1p-8, Round::RNA) == 0x3f81);
  CHECK(enc(DType::BF16, 1 + 3 * 0x1p-8) == 0x3f82);             // tie, odd -> up
  // FLT_MAX - bf16 max = (2^-7 - 2^-23) * 2^127 > half an ulp (2^-8 * 2^127): RN overflows.
  CHECK(enc(DType::BF16, FLT_MAX) == 0x7f80);
  CHECK(enc(DType::BF16, FLT_MAX, Round::RZ) == 0x7f7f);
  CHECK(enc(DType::BF16, FLT_MAX, Round::RN, true) == 0x7f7f);
  CHECK(enc(DType::BF16, 0x1p-133) == 0x0001);                   // min subnormal
  CHECK(enc(DType::BF16, -0x1p-134) == 0x8000);                  // tie with 0: even
  CHECK(enc(DType::BF16, kNaN) == 0x7fff);
  // f32 from doubles: 1 + 2^-24 is half an f32 ulp above 1.
  CHECK(enc(DType::F32, 1 + 0x1p-24) == 0x3f800000);
  CHECK(enc(DType::F32, 1 + 0x1p-24, Round::RP) == 0x3f800001);
  CHECK(enc(DType::F32, DBL_MAX) == 0x7f800000);
  CHECK(enc(DType::F32, DBL_MAX, Round::RZ) == 0x7f7fffff);
  CHECK(enc(DType::F32, 0x1p-150) == 0x00000000);                // tie with 0
  CHECK(enc(DType::F32, 0x1p-150, Round::RP) == 0x00000001);
  CHECK(enc(DType::F32, 0x1.8p-149) == 0x00000002);              // 1.5 * min subnormal: tie, even = 2
  CHECK(enc(DType::F32, kNaN) == 0x7fffffff);
  CHECK(enc(DType::F64, 1.5) == 0x3ff8000000000000);
  CHECK(enc(DType::F64, -kNaN) == 0x7fffffffffffffff);
}

TEST_CASE("encode tf32: the f32 word with bits 12..0 zero, rn/rz/rna") {
  // tf32 keeps 10 fraction bits: f32 bits 22..13. ulp at 1.0 is 2^-10 = f32 word step 0x2000.
  CHECK(enc(DType::TF32, 1 + 0x1p-11, Round::RNA) == 0x3f802000);  // cvt.rna: tie goes away
  CHECK(enc(DType::TF32, 1 + 0x1p-11, Round::RN) == 0x3f800000);   // cvt.rn: tie to even
  CHECK(enc(DType::TF32, 1 + 3 * 0x1p-11, Round::RN) == 0x3f804000);
  CHECK(enc(DType::TF32, 1 + 3 * 0x1p-11, Round::RZ) == 0x3f802000);
  // f32 word 0x3f801fff: dropped bits 0x1fff > half (0x1000): RN up, RZ down.
  CHECK(enc(DType::TF32, 1 + 0x1fff * 0x1p-23, Round::RN) == 0x3f802000);
  CHECK(enc(DType::TF32, 1 + 0x1fff * 0x1p-23, Round::RZ) == 0x3f800000);
  // Max tf32 0x7f7fe000; FLT_MAX is 0x1fff above it in the word: RN overflows, .satfinite clamps.
  CHECK(enc(DType::TF32, FLT_MAX, Round::RN) == 0x7f800000);
  CHECK(enc(DType::TF32, FLT_MAX, Round::RN, true) == 0x7f7fe000);
  CHECK(enc(DType::TF32, FLT_MAX, Round::RZ) == 0x7f7fe000);
  CHECK(enc(DType::TF32, -2.0, Round::RNA) == 0xc0000000);
  CHECK(enc(DType::TF32, kNaN) == 0x7fffffff);  // f32 canonical NaN (UNCONFIRMED for cvt.*.tf32.f32)
}

TEST_CASE("encode e4m3 (1.4.3, bias 7, no inf, NaN 0x7f/0xff)") {
  CHECK(enc(DType::E4M3, 1.0) == 0x38);     // 0 0111 000
  CHECK(enc(DType::E4M3, 1.0625) == 0x38);  // 1 + 2^-4: tie (ulp 2^-3), even
  CHECK(enc(DType::E4M3, 1.1875) == 0x3a);  // tie between 1.125 (0x39, odd) and 1.25 (0x3a)
  CHECK(enc(DType::E4M3, 256.0) == 0x78);   // exponent field 15 is finite: 0 1111 000
  CHECK(enc(DType::E4M3, 448.0) == 0x7e);   // max finite 0 1111 110 = 1.75 * 2^8
  // 464 = 448 + ulp/2 (ulp 32): the tie rounds to the even 448, not to the NaN code 0x7f.
  CHECK(enc(DType::E4M3, 464.0) == 0x7e);
  CHECK(enc(DType::E4M3, 464.5, Round::RN, true) == 0x7e);  // overflow, satfinite
  CHECK(enc(DType::E4M3, 464.5) == 0x7f);                   // overflow, no satfinite: NaN
  CHECK(enc(DType::E4M3, -500.0) == 0xff);                  // ... with the sign (CUDA __NV_NOSAT)
  CHECK(enc(DType::E4M3, -kInf, Round::RN, true) == 0xfe);
  CHECK(enc(DType::E4M3, kInf) == 0x7f);
  CHECK(enc(DType::E4M3, 0x1p-6) == 0x08);                  // min normal 0 0001 000
  CHECK(enc(DType::E4M3, 0x1p-9) == 0x01);                  // min subnormal 0 0000 001
  CHECK(enc(DType::E4M3, 0x1p-10) == 0x00);                 // tie with 0
  CHECK(enc(DType::E4M3, 0x1.8p-10) == 0x01);               // 0.75 min subnormal: up
  CHECK(enc(DType::E4M3, -0x1p-10) == 0x80);
  CHECK(enc(DType::E4M3, 240.0) == 0x77);                   // 1.875 * 2^7: 0 1110 111
  CHECK(enc(DType::E4M3, kNaN) == 0x7f);
  CHECK(enc(DType::E4M3, -kNaN) == 0x7f);
}

TEST_CASE("encode e5m2 (1.5.2, bias 15, IEEE-like)") {
  CHECK(enc(DType::E5M2, 1.0) == 0x3c);
  CHECK(enc(DType::E5M2, 1.125) == 0x3c);   // tie (ulp 0.25), even
  CHECK(enc(DType::E5M2, 1.375) == 0x3e);   // tie between 1.25 (0x3d) and 1.5 (0x3e)
  CHECK(enc(DType::E5M2, 57344.0) == 0x7b); // max 1.75 * 2^15: 0 11110 11
  CHECK(enc(DType::E5M2, 61439.0) == 0x7b);
  CHECK(enc(DType::E5M2, 61440.0) == 0x7c);                 // tie, even side is 2^16: inf
  CHECK(enc(DType::E5M2, 61440.0, Round::RN, true) == 0x7b);
  CHECK(enc(DType::E5M2, -kInf) == 0xfc);
  CHECK(enc(DType::E5M2, 0x1p-16) == 0x01);                 // min subnormal
  CHECK(enc(DType::E5M2, kNaN) == 0x7f);
}

TEST_CASE("encode fp6 e2m3 / e3m2 and fp4 e2m1: always saturating, NaN -> +max") {
  // e2m3 (1.2.3, bias 1): subnormal step 1/8, max 7.5 = 0 11 111.
  CHECK(enc(DType::E2M3, 1.0) == 0x08);     // 0 01 000
  CHECK(enc(DType::E2M3, 5.0) == 0x1a);     // 1.25 * 4: 0 11 010
  CHECK(enc(DType::E2M3, 7.5) == 0x1f);
  CHECK(enc(DType::E2M3, 7.75) == 0x1f);    // beyond max: saturates whatever satfinite says
  CHECK(enc(DType::E2M3, -100.0) == 0x3f);  // 1 11 111
  CHECK(enc(DType::E2M3, kInf) == 0x1f);
  CHECK(enc(DType::E2M3, -kInf) == 0x3f);
  CHECK(enc(DType::E2M3, kNaN) == 0x1f);    // PTX: NaN -> positive MAX_NORM
  CHECK(enc(DType::E2M3, -kNaN) == 0x1f);
  CHECK(enc(DType::E2M3, 0.0625) == 0x00);  // half the min subnormal 0.125: tie, even
  CHECK(enc(DType::E2M3, -0.0625) == 0x20);
  CHECK(enc(DType::E2M3, 1.1875) == 0x0a);  // tie between 1.125 (0x09) and 1.25 (0x0a)
  CHECK(enc(DType::E2M3, 1.2, Round::RZ) == 0x09);
  CHECK(enc(DType::E2M3, 7.9, Round::RZ) == 0x1f);
  // e3m2 (1.3.2, bias 3): min subnormal 0.0625, min normal 0.25, max 28 = 0 111 11.
  CHECK(enc(DType::E3M2, 1.0) == 0x0c);     // 0 011 00
  CHECK(enc(DType::E3M2, 0.25) == 0x04);
  CHECK(enc(DType::E3M2, 0.03125) == 0x00); // tie with 0
  CHECK(enc(DType::E3M2, 28.0) == 0x1f);
  CHECK(enc(DType::E3M2, 30.0) == 0x1f);    // tie whose even side (32) overflows: saturates
  CHECK(enc(DType::E3M2, kNaN) == 0x1f);
  // e2m1 (1.2.1): values 0, 0.5, 1, 1.5, 2, 3, 4, 6 = codes 0..7, bit 3 = sign.
  CHECK(enc(DType::E2M1, 0.25) == 0x0);     // tie 0 / 0.5 -> 0
  CHECK(enc(DType::E2M1, 0.75) == 0x2);     // tie 0.5 (odd) / 1.0 -> 1.0
  CHECK(enc(DType::E2M1, 1.25) == 0x2);     // tie 1.0 / 1.5 (odd) -> 1.0
  CHECK(enc(DType::E2M1, 1.75) == 0x4);     // tie 1.5 / 2.0 -> 2.0
  CHECK(enc(DType::E2M1, 2.5) == 0x4);      // tie 2 / 3 -> 2
  CHECK(enc(DType::E2M1, 3.5) == 0x6);      // tie 3 / 4 -> 4
  CHECK(enc(DType::E2M1, 5.0) == 0x6);      // tie 4 / 6 -> 4
  CHECK(enc(DType::E2M1, 5.01) == 0x7);
  CHECK(enc(DType::E2M1, 7.0) == 0x7);
  CHECK(enc(DType::E2M1, -6.0) == 0xf);
  CHECK(enc(DType::E2M1, kNaN) == 0x7);
  CHECK(enc(DType::E2M1, 5.9, Round::RZ) == 0x6);
  CHECK(enc(DType::E2M1, -0.4, Round::RZ) == 0x8);
}

TEST_CASE("encode ue8m0: exponent only, RZ = floor, RP = ceil, sign dropped, no zero") {
  CHECK(enc(DType::UE8M0, 1.0, Round::RZ) == 0x7f);
  CHECK(enc(DType::UE8M0, 1.0, Round::RP) == 0x7f);  // exact power of two
  CHECK(enc(DType::UE8M0, 1.5, Round::RZ) == 0x7f);
  CHECK(enc(DType::UE8M0, 1.5, Round::RP) == 0x80);
  CHECK(enc(DType::UE8M0, 3.0, Round::RZ) == 0x80);
  CHECK(enc(DType::UE8M0, 3.0, Round::RP) == 0x81);
  CHECK(enc(DType::UE8M0, -3.0, Round::RZ) == 0x80);  // |x| (CUDA __nv_cvt_float_to_e8m0)
  CHECK(enc(DType::UE8M0, 0.0, Round::RZ) == 0x00);   // no zero: clips to 2^-127
  CHECK(enc(DType::UE8M0, 0x1p-130, Round::RP) == 0x00);
  CHECK(enc(DType::UE8M0, 0x1.8p-127, Round::RP) == 0x01);
  CHECK(enc(DType::UE8M0, 0x1p127, Round::RZ) == 0xfe);                 // max finite
  CHECK(enc(DType::UE8M0, 0x1.8p127, Round::RP) == 0xff);               // overflow: NaN
  CHECK(enc(DType::UE8M0, 0x1.8p127, Round::RP, true) == 0xfe);         // .satfinite
  CHECK(enc(DType::UE8M0, 0x1.8p127, Round::RZ) == 0xfe);
  CHECK(enc(DType::UE8M0, kInf, Round::RZ) == 0xff);
  CHECK(enc(DType::UE8M0, kInf, Round::RZ, true) == 0xfe);
  CHECK(enc(DType::UE8M0, kNaN, Round::RZ, true) == 0xff);              // NaN stays NaN
  CHECK_THROWS_AS(enc(DType::UE8M0, 1.0, Round::RN), std::invalid_argument);
  // ue4m3: e4m3 of |x| in 7 bits.
  CHECK(enc(DType::UE4M3, 448.0) == 0x7e);
  CHECK(enc(DType::UE4M3, -1.0) == 0x38);
  CHECK(enc(DType::UE4M3, 500.0) == 0x7f);
  CHECK(enc(DType::UE4M3, 500.0, Round::RN, true) == 0x7e);
  CHECK(enc(DType::UE4M3, kNaN) == 0x7f);
}

TEST_CASE("encode_exact: integer and sticky inputs") {
  CHECK(encode_exact(DType::F16, false, 3, -1, false, Round::RN, false) == 0x3e00);  // 1.5
  // 2049 * 2^-11 = 1 + 2^-11: a tie without sticky, just above it with sticky.
  CHECK(encode_exact(DType::F16, false, 2049, -11, false, Round::RN, false) == 0x3c00);
  CHECK(encode_exact(DType::F16, false, 2049, -11, true, Round::RN, false) == 0x3c01);
  CHECK(encode_exact(DType::F16, false, 2048, -11, true, Round::RZ, false) == 0x3c00);
  CHECK(encode_exact(DType::F16, true, 2048, -11, true, Round::RM, false) == 0xbc01);
  // 2^24 + 1 is an f32 tie between 2^24 (even) and 2^24 + 2.
  CHECK(encode_exact(DType::F32, false, (1u << 24) + 1, 0, false, Round::RN, false) == 0x4b800000);
  CHECK(encode_exact(DType::F32, false, (1u << 24) + 1, 0, false, Round::RP, false) == 0x4b800001);
  CHECK(encode_exact(DType::F32, false, ~0ull, 0, false, Round::RN, false) == 0x5f800000);  // 2^64
  CHECK(encode_exact(DType::F32, false, ~0ull, 0, false, Round::RZ, false) == 0x5f7fffff);
  CHECK(encode_exact(DType::F16, false, 1, 1000, false, Round::RN, false) == 0x7c00);
  CHECK(encode_exact(DType::F16, false, 1, -1000, false, Round::RP, false) == 0x0001);
  CHECK(encode_exact(DType::F16, true, 1, -1000, false, Round::RN, false) == 0x8000);
  CHECK(encode_exact(DType::F16, true, 0, 5, true, Round::RN, false) == 0x8000);
  CHECK(encode_exact(DType::F64, false, ~0ull, 0, false, Round::RN, false) == 0x43f0000000000000);
}

TEST_CASE("encode rejects non-float types") {
  CHECK_THROWS_AS(encode(DType::S32, 1.0, Round::RN, false), std::invalid_argument);
}
