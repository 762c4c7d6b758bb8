#include <doctest/doctest.h>

#include <cmath>

#include "models/formats/format.h"

using namespace tcsim::models;

// Hand-checked values (PTX ISA §5.2.3 tables; docs/mma_numerics.md §5).
TEST_CASE("unpack: spot values of every format") {
  CHECK(to_double(DType::E4M3, 0x7e) == 448.0);     // 0.1111.110 = 1.75 * 2^8
  CHECK(std::isnan(to_double(DType::E4M3, 0x7f)));  // only NaN code (and 0xff)
  CHECK(std::isnan(to_double(DType::E4M3, 0xff)));
  CHECK(to_double(DType::E4M3, 0x01) == std::ldexp(1.0, -9));   // min subnormal
  CHECK(to_double(DType::E4M3, 0x78) == 256.0);     // exponent 15 is finite in e4m3
  CHECK(to_double(DType::E5M2, 0x7b) == 57344.0);   // max finite
  CHECK(std::isinf(to_double(DType::E5M2, 0x7c)));
  CHECK(std::isnan(to_double(DType::E5M2, 0x7d)));
  CHECK(to_double(DType::E2M1, 0x7) == 6.0);
  CHECK(to_double(DType::E2M1, 0x1) == 0.5);
  CHECK(to_double(DType::E2M1, 0xf) == -6.0);
  CHECK(to_double(DType::E2M3, 0x1f) == 7.5);
  CHECK(to_double(DType::E2M3, 0x01) == 0.125);
  CHECK(to_double(DType::E3M2, 0x1f) == 28.0);
  CHECK(to_double(DType::E3M2, 0x01) == 0.0625);
  CHECK(to_double(DType::UE8M0, 0x7f) == 1.0);
  CHECK(to_double(DType::UE8M0, 0x00) == std::ldexp(1.0, -127));  // no zero
  CHECK(std::isnan(to_double(DType::UE8M0, 0xff)));
  CHECK(to_double(DType::UE4M3, 0x7e) == 448.0);
  CHECK(std::isnan(to_double(DType::UE4M3, 0x7f)));
  CHECK(to_double(DType::UE4M3, 0x00) == 0.0);
  CHECK(to_double(DType::F16, 0x7bff) == 65504.0);
  CHECK(to_double(DType::F16, 0x0001) == std::ldexp(1.0, -24));
  CHECK(to_double(DType::BF16, 0x3f80) == 1.0);
  CHECK(to_double(DType::TF32, 0x3f801fff) == 1.0);  // bits 12..0 ignored
  CHECK(to_double(DType::TF32, 0x3f802000) == 1.0 + std::ldexp(1.0, -10));
  CHECK(to_double(DType::F32, 0x00000001) == std::ldexp(1.0, -149));
}

TEST_CASE("unpack keeps subnormals at emin with their unnormalised significand") {
  const Unpacked u = unpack(DType::F16, 0x0003);
  CHECK(u.cls == FpClass::Subnormal);
  CHECK(u.exp == -14);
  CHECK(u.sig == 3);
  CHECK(u.frac_bits == 10);
}
