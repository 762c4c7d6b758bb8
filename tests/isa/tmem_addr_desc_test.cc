// TMEM address (PTX ISA §9.7.16.1.1): lane in bits 31-16, column in bits 15-0; 128 lanes x 512
// columns (§9.7.16.1). Hand-worked values, round trips, and the two range rules.
#include <doctest/doctest.h>

#include "isa/descriptors/tmem_addr.h"

using namespace tcsim::isa;

namespace {
struct Worked {
  const char* what;
  uint32_t raw;
  uint32_t lane, column;
};
const Worked kCases[] = {
    {"origin", 0x00000000, 0, 0},
    // T1 (docs/smem_layouts.md §7): lane 32, column 64 -> (32 << 16) | 64 = 0x200000 | 0x40.
    {"lane 32 column 64", 0x00200040, 32, 64},
    // Second interleaved M=64 tile (layout F) at column 0: lane 16 -> 0x100000.
    {"layout F second tile", 0x00100000, 16, 0},
    // D[m=40][n=5] of an M=64 cta_group::1 tile at base 0: lane 32*(40/16) + 40%16 = 64 + 8 = 72 = 0x48, column 5.
    {"D[40][5] of an M=64 tile", 0x00480005, 72, 5},
    // Last cell: lane 127 = 0x7F -> 0x7F0000, column 511 = 0x1FF.
    {"last cell", 0x007F01FF, 127, 511},
    // Warp 3's lane quarter starts at lane 96 = 0x60; column 256 = 0x100.
    {"warp 3 quarter, column 256", 0x00600100, 96, 256},
    {"lane 64 column 128", 0x00400080, 64, 128},
    {"lane 1 column 1", 0x00010001, 1, 1},
    {"column 511", 0x000001FF, 0, 511},
    {"lane 127", 0x007F0000, 127, 0},
};
}  // namespace

TEST_CASE("taddr: hand-worked values decode, encode and validate") {
  for (const Worked& w : kCases) {
    CAPTURE(w.what);
    TmemAddr a = decode_tmem_addr(w.raw);
    CHECK(a.lane == w.lane);
    CHECK(a.column == w.column);
    auto raw = encode_tmem_addr({w.lane, w.column});
    REQUIRE(raw.has_value());
    CHECK(*raw == w.raw);
    CHECK(validate_tmem_addr(a).empty());
  }
}

TEST_CASE("taddr: decode/encode round trip over every lane and a column sweep") {
  for (uint32_t lane = 0; lane < 0x10000; lane += 7)
    for (uint32_t col : {0u, 1u, 511u, 512u, 0x1234u, 0xFFFFu}) {
      uint32_t raw = (lane << 16) | col;
      CHECK(*encode_tmem_addr(decode_tmem_addr(raw)) == raw);
    }
  CHECK_FALSE(encode_tmem_addr({0x10000, 0}).has_value());
  CHECK_FALSE(encode_tmem_addr({0, 0x10000}).has_value());
}

TEST_CASE("rule: lane < 128 (§9.7.16.1)") {
  CHECK(validate_tmem_addr(decode_tmem_addr(0x007F0000)).empty());
  Violations v = validate_tmem_addr(decode_tmem_addr(0x00800000));
  REQUIRE(v.size() == 1);
  CHECK(v[0].section.find("9.7.16.1") != std::string::npos);
  CHECK(v[0].message.find("lane 128") != std::string::npos);
  // A CUTLASS sub-word offset left in bits 31-30 is named.
  CHECK(validate_tmem_addr(decode_tmem_addr(0x40000000))[0].message.find("bits 31-30") != std::string::npos);
}

TEST_CASE("rule: column < 512 (§9.7.16.1)") {
  CHECK(validate_tmem_addr(decode_tmem_addr(0x000001FF)).empty());
  Violations v = validate_tmem_addr(decode_tmem_addr(0x00000200));
  REQUIRE(v.size() == 1);
  CHECK(v[0].message.find("column 512") != std::string::npos);
}

TEST_CASE("rule: no Tensor Memory on sm_90a") {
  CHECK(validate_tmem_addr(decode_tmem_addr(0), Arch::Sm90a).at(0).message.find("no Tensor Memory") != std::string::npos);
  CHECK(validate_tmem_addr(decode_tmem_addr(0), Arch::Sm103a).empty());
}
