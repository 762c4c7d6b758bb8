// How the elements of an operand sit in shared memory: the unit of every canonical layout is the
// 16-byte "128-bit element" (PTX ISA §9.7.16.3, §9.7.15.5.1.2), and an operand type is described
// by its bit width and by how many of its elements one 16-byte unit holds (PTX's T).
//
//   dense   : T = 128 / bits, elements back to back (f32/tf32 4, f16/bf16 8, 8-bit 16, and the
//             two-per-byte e2m1 of kind::mxf4 / mxf4nvf4: 32, §9.7.16.10.4.6).
//   padded  : the f8f6f4 containers of kind::f8f6f4 / mxf8f6f4 (§9.7.16.10.4.4): every 16-byte
//             unit holds 16 fp4 (8 bytes, then 8 bytes of padding, `.b4x16_p64`) or 16 fp6
//             (12 bytes, then 4 bytes of padding, `.b6x16_p32`) — so T = 16 as for 8-bit types.
//             TMA's CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B / 16U6_ALIGN16B write this image.
//
// Element e (0 <= e < T) of a unit starts at bit e*bits of the unit, little-endian (element 0 in
// the lowest bits of the lowest byte) — stated for the TMA packed types by the driver API, assumed
// for the MMA read (the figures of §9.7.16.10.4 are images: UNCONFIRMED in text).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "isa/diag.h"
#include "isa/dtype.h"
#include "isa/mma_kind.h"

namespace tcsim::isa {

struct ElementFormat {
  uint8_t bits = 16;    // 4, 6, 8, 16, 32 (64 for TMA-only types)
  uint8_t per_16b = 8;  // T: elements per 16-byte unit

  constexpr bool padded() const { return int(per_16b) * bits < 128; }
  constexpr bool sub_byte() const { return bits < 8; }
  // Bytes of real data in one 16-byte unit (16 dense; 8 for .b4x16_p64, 12 for .b6x16_p32).
  constexpr int data_bytes_per_16b() const { return int(per_16b) * bits / 8; }
  friend constexpr bool operator==(ElementFormat a, ElementFormat b) {
    return a.bits == b.bits && a.per_16b == b.per_16b;
  }
};

// Dense packing of `bits`-wide elements (bits in {4, 8, 16, 32, 64}).
constexpr ElementFormat dense_format(int bits) {
  return {uint8_t(bits), uint8_t(128 / bits)};
}
// 16 sub-byte elements per 16-byte unit, then padding (bits in {4, 6}).
constexpr ElementFormat padded_format(int bits) { return {uint8_t(bits), 16}; }

// The shared-memory format of `type` as the tensor core (and a TMA load feeding it) sees it.
// `kind` matters only for e2m1: padded under kind::f8f6f4 / mxf8f6f4 (the default when no kind
// is given), dense under kind::mxf4 / mxf4nvf4. e2m3/e3m2 are always padded (kind::mxf4* takes
// only e2m1). Refuses 1-bit/64-bit MMA types it cannot place and sub-byte types under kinds that
// do not accept them.
Expected<ElementFormat> smem_element_format(DType type, std::optional<MmaKind> kind = {});

// "bf16 (16-bit, 8 per 16 B)", "e2m1 (4-bit, 16 per 16 B + 8 B padding)".
std::string describe_format(ElementFormat f);

}  // namespace tcsim::isa
