// Byte containers and 16-byte units for 4/6-bit elements; layouts and sources in packing.h.
#include "models/formats/packing.h"

#include <stdexcept>
#include <string>

namespace tcsim::models {
namespace {

// Position and width of the code inside an 8-bit container (PTX ISA §9.7.14.5.14).
struct ContainerField {
  int shift;
  uint8_t mask;  // code mask before shifting
};

ContainerField container_field(DType t) {
  switch (t) {
    case DType::E4M3: case DType::E5M2: return {0, 0xff};
    case DType::E2M3: case DType::E3M2: return {0, 0x3f};  // bits [5:0]
    case DType::E2M1: return {2, 0x0f};                    // bits [5:2]
    default: break;
  }
  throw std::invalid_argument("8-bit container: ." + std::string(isa::dtype_name(t)) +
                              " is not an f8f6f4 element type");
}

void check_index(int i, int n, const char* what) {
  if (i < 0 || i >= n)
    throw std::out_of_range(std::string(what) + ": element " + std::to_string(i) +
                            " outside 0.." + std::to_string(n - 1));
}

}  // namespace

uint8_t container_from_code(DType t, uint8_t code) {
  const ContainerField f = container_field(t);
  return static_cast<uint8_t>((code & f.mask) << f.shift);
}

uint8_t code_from_container(DType t, uint8_t container) {
  const ContainerField f = container_field(t);
  return static_cast<uint8_t>((container >> f.shift) & f.mask);
}

bool container_padding_clear(DType t, uint8_t container) {
  const ContainerField f = container_field(t);
  return (container & ~static_cast<uint8_t>(f.mask << f.shift) & 0xff) == 0;
}

uint8_t b4x16_p64_get(std::span<const uint8_t, 16> unit, int i) {
  check_index(i, 16, "b4x16_p64");
  return static_cast<uint8_t>((unit[i / 2] >> (4 * (i % 2))) & 0x0f);
}

void b4x16_p64_set(std::span<uint8_t, 16> unit, int i, uint8_t code) {
  check_index(i, 16, "b4x16_p64");
  const int s = 4 * (i % 2);
  unit[i / 2] = static_cast<uint8_t>((unit[i / 2] & ~(0x0f << s)) | ((code & 0x0f) << s));
}

Unit16 b4x16_p64_pack(std::span<const uint8_t, 16> codes) {
  Unit16 u{};
  for (int i = 0; i < 16; ++i) b4x16_p64_set(u, i, codes[i]);
  return u;
}

// Element i of a .b6x16_p32 unit: bits [6i+5 : 6i] of the little-endian integer in bytes 0..11.
//   byte:  0        1        2        3       ...
//   bits:  11000000 22221111 33333322 ...      (digit = element index, LSB on the right)
uint8_t b6x16_p32_get(std::span<const uint8_t, 16> unit, int i) {
  check_index(i, 16, "b6x16_p32");
  const int bit = 6 * i, byte = bit / 8, s = bit % 8;
  unsigned v = unit[byte] >> s;
  if (s > 2) v |= static_cast<unsigned>(unit[byte + 1]) << (8 - s);  // straddles into the next byte
  return static_cast<uint8_t>(v & 0x3f);
}

void b6x16_p32_set(std::span<uint8_t, 16> unit, int i, uint8_t code) {
  check_index(i, 16, "b6x16_p32");
  const int bit = 6 * i, byte = bit / 8, s = bit % 8;
  const unsigned c = code & 0x3fu;
  unit[byte] = static_cast<uint8_t>((unit[byte] & ~(0x3fu << s)) | (c << s));
  if (s > 2) {
    const unsigned hi_bits = s - 2;  // bits of the code that land in the next byte
    const unsigned m = (1u << hi_bits) - 1;
    unit[byte + 1] = static_cast<uint8_t>((unit[byte + 1] & ~m) | (c >> (8 - s)));
  }
}

Unit16 b6x16_p32_pack(std::span<const uint8_t, 16> codes) {
  Unit16 u{};
  for (int i = 0; i < 16; ++i) b6x16_p32_set(u, i, codes[i]);
  return u;
}

Unit16 decompress_b4x16_p64(std::span<const uint8_t, 16> unit) {
  Unit16 out{};
  for (int i = 0; i < 16; ++i) out[i] = container_from_code(DType::E2M1, b4x16_p64_get(unit, i));
  return out;
}

Unit16 decompress_b6x16_p32(std::span<const uint8_t, 16> unit) {
  Unit16 out{};
  for (int i = 0; i < 16; ++i) out[i] = container_from_code(DType::E2M3, b6x16_p32_get(unit, i));
  return out;
}

uint8_t e2m1x2_get(uint8_t byte, int i) {
  check_index(i, 2, "e2m1x2");
  return static_cast<uint8_t>((byte >> (4 * i)) & 0x0f);
}

uint8_t e2m1x2_set(uint8_t byte, int i, uint8_t code) {
  check_index(i, 2, "e2m1x2");
  const int s = 4 * i;
  return static_cast<uint8_t>((byte & ~(0x0f << s)) | ((code & 0x0f) << s));
}

}  // namespace tcsim::models
