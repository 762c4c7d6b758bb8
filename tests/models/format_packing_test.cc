// Byte containers and 16-byte units for fp4/fp6 (layouts and their sources in packing.h).
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <random>
#include <stdexcept>

#include "models/formats/packing.h"

using namespace tcsim::models;

TEST_CASE("8-bit containers: e2m1 in bits [5:2], fp6 in bits [5:0], fp8 the whole byte") {
  CHECK(container_from_code(DType::E2M1, 0x7) == 0x1c);   // 00 0111 00
  CHECK(container_from_code(DType::E2M1, 0xf) == 0x3c);   // 00 1111 00
  CHECK(code_from_container(DType::E2M1, 0xff) == 0xf);   // padding ignored on read
  CHECK(container_padding_clear(DType::E2M1, 0x1c));
  CHECK_FALSE(container_padding_clear(DType::E2M1, 0x1d));  // bit 0 is padding
  CHECK_FALSE(container_padding_clear(DType::E2M1, 0x5c));  // bit 6 is padding
  CHECK(container_from_code(DType::E3M2, 0x3f) == 0x3f);
  CHECK(code_from_container(DType::E2M3, 0xc5) == 0x05);
  CHECK_FALSE(container_padding_clear(DType::E2M3, 0x85));
  CHECK(container_from_code(DType::E4M3, 0xfe) == 0xfe);
  CHECK(container_padding_clear(DType::E5M2, 0xff));
  CHECK_THROWS_AS(container_from_code(DType::F16, 0), std::invalid_argument);
  for (int c = 0; c < 64; ++c) {
    CHECK(code_from_container(DType::E2M3, container_from_code(DType::E2M3, c)) == c);
    if (c < 16) CHECK(code_from_container(DType::E2M1, container_from_code(DType::E2M1, c)) == c);
  }
}

TEST_CASE(".b4x16_p64: 16 e2m1 in bytes 0..7, low nibble first, 8 bytes of padding") {
  std::array<uint8_t, 16> codes{};
  for (int i = 0; i < 16; ++i) codes[i] = static_cast<uint8_t>(i);
  const Unit16 u = b4x16_p64_pack(codes);
  const Unit16 expect = {0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 0, 0, 0, 0, 0, 0, 0, 0};
  CHECK(u == expect);
  for (int i = 0; i < 16; ++i) CHECK(b4x16_p64_get(u, i) == i);
  Unit16 padded = u;
  padded[8] = 0xff;  // padding is never read
  CHECK(b4x16_p64_get(padded, 0) == 0);
  CHECK_THROWS_AS(b4x16_p64_get(u, 16), std::out_of_range);
  // tcgen05.cp .b8x16.b4x16_p64: containers with the code in bits [5:2].
  const Unit16 c = decompress_b4x16_p64(u);
  for (int i = 0; i < 16; ++i) CHECK(c[i] == (i << 2));
}

TEST_CASE(".b6x16_p32: 16 fp6 as a little-endian 96-bit string, 4 bytes of padding") {
  auto one = [](int i, uint8_t code) {
    std::array<uint8_t, 16> codes{};
    codes[i] = code;
    return b6x16_p32_pack(codes);
  };
  // Element 0 = 0x3f: bits 5..0 of byte 0.
  CHECK(one(0, 0x3f) == Unit16{0x3f});
  // Element 1 = 0x3f: bits 11..6 -> byte 0 bits 7..6, byte 1 bits 3..0.
  CHECK(one(1, 0x3f) == Unit16{0xc0, 0x0f});
  // Element 2 = 0x3f: bits 17..12 -> byte 1 bits 7..4, byte 2 bits 1..0.
  CHECK(one(2, 0x3f) == Unit16{0x00, 0xf0, 0x03});
  // Element 3 = 0x3f: bits 23..18 -> byte 2 bits 7..2.
  CHECK(one(3, 0x3f) == Unit16{0x00, 0x00, 0xfc});
  // Element 5 = 0b100001: bits 35..30 -> bit 30 (byte 3, bit 6) and bit 35 (byte 4, bit 3).
  CHECK(one(5, 0x21) == Unit16{0, 0, 0, 0x40, 0x08});
  // Element 15 = 0x3f: bits 95..90 -> byte 11 bits 7..2; bytes 12..15 stay 0.
  CHECK(one(15, 0x3f) == Unit16{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfc});
  std::array<uint8_t, 16> all{};
  all.fill(0x3f);
  CHECK(b6x16_p32_pack(all) == Unit16{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff});

  // get/set agree on random units and leave the other elements alone.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::array<uint8_t, 16> codes{};
    for (auto& c : codes) c = rng() & 0x3f;
    Unit16 u = b6x16_p32_pack(codes);
    for (int i = 0; i < 16; ++i) CHECK(b6x16_p32_get(u, i) == codes[i]);
    const int k = rng() % 16;
    const uint8_t v = rng() & 0x3f;
    b6x16_p32_set(u, k, v);
    codes[k] = v;
    for (int i = 0; i < 16; ++i) CHECK(b6x16_p32_get(u, i) == codes[i]);
    CHECK((u[12] | u[13] | u[14] | u[15]) == 0);
    const Unit16 c = decompress_b6x16_p32(u);
    for (int i = 0; i < 16; ++i) CHECK(c[i] == codes[i]);
  }
}

TEST_CASE("kind::mxf4 bytes: two e2m1, element 0 in the low nibble") {
  CHECK(e2m1x2_get(0x27, 0) == 0x7);
  CHECK(e2m1x2_get(0x27, 1) == 0x2);
  CHECK(e2m1x2_set(0x27, 0, 0xa) == 0x2a);
  CHECK(e2m1x2_set(0x27, 1, 0xf) == 0xf7);
  CHECK_THROWS_AS(e2m1x2_get(0, 2), std::out_of_range);
}
