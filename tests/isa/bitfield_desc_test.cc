// The bit-field table facility every descriptor is built from (isa/descriptors/bitfield.h).
#include <doctest/doctest.h>

#include "isa/descriptors/bitfield.h"

using namespace tcsim::isa;

namespace {

#define TCSIM_TEST_FIELDS(X)         \
  X(low, 0, 4, "low nibble")         \
  X(flag, 7, 1, "a flag")            \
  X(high, 12, 4, "bits 12-15")
TCSIM_DEFINE_BITFIELDS(TestBits, uint16_t, TCSIM_TEST_FIELDS);

// Tables the compile-time check must reject.
constexpr BitField kOverlap[] = {{"a", 0, 4, ""}, {"b", 3, 2, ""}};
constexpr BitField kTooWide[] = {{"a", 60, 8, ""}};
constexpr BitField kEmpty[] = {{"a", 3, 0, ""}};
static_assert(!bitfields_disjoint(kOverlap, 64), "overlap must be detected");
static_assert(!bitfields_disjoint(kTooWide, 64), "a field beyond the word must be detected");
static_assert(!bitfields_disjoint(kEmpty, 64), "a zero-width field must be detected");
static_assert(bitfields_disjoint(TestBits::kFields, 16));
static_assert(TestBits::kOwnedMask == 0xF08F);
static_assert(TestBits::kReservedMask == 0x0F70);

}  // namespace

TEST_CASE("bit fields: accessors read and write exactly their bits") {
  TestBits b{0xFFFF};
  CHECK(b.low() == 0xF);
  CHECK(b.flag() == 1);
  CHECK(b.high() == 0xF);
  CHECK(b.reserved_bits() == 0x0F70);
  TestBits c;
  CHECK(c.set_low(0x9));
  CHECK(c.set_flag(1));
  CHECK(c.set_high(0x3));
  CHECK(c.raw == 0x3089);
  CHECK_FALSE(c.set_low(0x10));  // does not fit 4 bits: refused, nothing written
  CHECK(c.raw == 0x3089);
  CHECK(TestBits::flag_field.mask() == 0x80);
  CHECK(TestBits::high_field.last() == 15);
}

TEST_CASE("bit fields: to_string and JSON come from the table") {
  TestBits b{0x3089};
  CHECK(b.to_json() == R"({"low": 9, "flag": 1, "high": 3})");
  std::string s = b.to_string();
  CHECK(s.find("low   [3:0]    = 9      (0x9)     low nibble") != std::string::npos);
  CHECK(s.find("flag  [7]") != std::string::npos);
  CHECK(s.find("high  [15:12]  = 3") != std::string::npos);
}

TEST_CASE("bit ranges text") {
  CHECK(bit_ranges_text(0) == "");
  CHECK(bit_ranges_text(1u << 14) == "bit 14");
  CHECK(bit_ranges_text(0xC000C000ull) == "bits 14-15, 30-31");
  CHECK(bit_ranges_text(0x8000000000000001ull) == "bits 0, 63");
}

#include "isa/descriptors/parse_number.h"

TEST_CASE("descriptor values from text: strict hex and unsigned numbers") {
  CHECK(*parse_hex("0x4000_4040_0001_0040", 64) == 0x4000404000010040ull);
  CHECK(*parse_hex("08400490", 32) == 0x08400490u);
  CHECK(*parse_hex("0XFFFFFFFF", 32) == 0xFFFFFFFFu);
  CHECK(*parse_hex("FFFFFFFFFFFFFFFF", 64) == ~uint64_t{0});
  CHECK(parse_hex("0x100000000", 32).error().message.find("more than 32 bits") != std::string::npos);
  CHECK(parse_hex("0x10000000000000000", 64).error().message.find("more than 64 bits") != std::string::npos);
  CHECK(parse_hex("0x", 64).error().message.find("no digits") != std::string::npos);
  CHECK(parse_hex("0x12g4", 64).error().message.find("unexpected character 'g'") != std::string::npos);
  CHECK(parse_hex("-1", 64).error().message.find("unexpected character '-'") != std::string::npos);
  CHECK(*parse_uint("1024", 0x3FFFF) == 1024);
  CHECK(*parse_uint("0x400", 0x3FFFF) == 1024);
  CHECK(parse_uint("8", 7).error().message.find("out of range") != std::string::npos);
  CHECK(parse_uint("12a", 100).error().message.find("unexpected character 'a'") != std::string::npos);
  CHECK(*parse_uint("18446744073709551615", ~uint64_t{0}) == ~uint64_t{0});
  CHECK_FALSE(parse_uint("18446744073709551616", ~uint64_t{0}).has_value());
}
