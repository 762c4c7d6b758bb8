// Every code of every narrow format, and of f16/bf16, decoded and encoded again gives the same
// code — except NaN codes, which encode to the format's canonical NaN (stated per format below).
#include <doctest/doctest.h>

#include <cstdint>
#include <ios>
#include <limits>
#include <random>

#include "models/formats/format.h"

using namespace tcsim::models;

namespace {

// The code that decode-then-encode must give back. NaN canonicalisation (format.h encode()):
// e4m3 0xff -> 0x7f; e5m2 0x7d..0x7f, 0xfd..0xff -> 0x7f; f16 NaNs -> 0x7fff; bf16 NaNs -> 0x7fff;
// f32 NaNs -> 0x7fffffff. ue4m3 ignores the container's MSB (7-bit format), so code & 0x7f.
uint64_t expected_roundtrip(DType t, uint64_t code) {
  const Unpacked u = unpack(t, code);
  if (u.cls == FpClass::NaN) return encode(t, std::numeric_limits<double>::quiet_NaN(), Round::RZ, false);
  if (t == DType::UE4M3) return code & 0x7f;
  return code;
}

int roundtrip_all(DType t, int nbits, Round r) {
  int failures = 0;
  for (uint64_t c = 0; c < (1ull << nbits); ++c) {
    const uint64_t got = encode(t, to_double(t, c), r, false);
    if (got != expected_roundtrip(t, c)) {
      if (++failures <= 5) FAIL_CHECK("code 0x" << std::hex << c << " -> 0x" << got);
    }
  }
  return failures;
}

}  // namespace

TEST_CASE("round trip: every code of every narrow format (RN; ue8m0 RZ and RP)") {
  CHECK(roundtrip_all(DType::E4M3, 8, Round::RN) == 0);
  CHECK(roundtrip_all(DType::E5M2, 8, Round::RN) == 0);
  CHECK(roundtrip_all(DType::E2M3, 6, Round::RN) == 0);
  CHECK(roundtrip_all(DType::E3M2, 6, Round::RN) == 0);
  CHECK(roundtrip_all(DType::E2M1, 4, Round::RN) == 0);
  CHECK(roundtrip_all(DType::UE4M3, 8, Round::RN) == 0);
  CHECK(roundtrip_all(DType::UE8M0, 8, Round::RZ) == 0);  // 0x00 = 2^-127 is exact: no clipping
  CHECK(roundtrip_all(DType::UE8M0, 8, Round::RP) == 0);
  // Exact values survive every rounding mode, not only RN.
  for (Round r : {Round::RZ, Round::RM, Round::RP, Round::RNA}) {
    CHECK(roundtrip_all(DType::E4M3, 8, r) == 0);
    CHECK(roundtrip_all(DType::E2M1, 4, r) == 0);
  }
}

TEST_CASE("round trip: every f16 and bf16 code") {
  CHECK(roundtrip_all(DType::F16, 16, Round::RN) == 0);
  CHECK(roundtrip_all(DType::BF16, 16, Round::RN) == 0);
  CHECK(roundtrip_all(DType::F16, 16, Round::RZ) == 0);
  CHECK(roundtrip_all(DType::BF16, 16, Round::RM) == 0);
}

TEST_CASE("round trip: f32 (every exponent and sign, random fractions) and tf32") {
  std::mt19937 rng(12345);
  int failures = 0;
  for (uint32_t se = 0; se < 512; ++se) {
    for (int k = 0; k < 256; ++k) {
      const uint32_t frac = k < 2 ? (k ? 0x7fffff : 0) : rng() & 0x7fffff;
      const uint32_t w = (se << 23) | frac;
      if (encode(DType::F32, to_double(DType::F32, w), Round::RN, false) != expected_roundtrip(DType::F32, w))
        ++failures;
      // tf32: the word with bits 12..0 cleared is a tf32 value and must come back unchanged.
      const uint32_t t = w & 0xffffe000u;
      if (unpack(DType::TF32, t).cls != FpClass::NaN &&
          encode(DType::TF32, to_double(DType::TF32, t), Round::RZ, false) != t)
        ++failures;
    }
  }
  CHECK(failures == 0);
}
