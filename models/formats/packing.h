// The byte forms in which the tensor core reads 4- and 6-bit elements ("packing formats"):
// PTX ISA §9.7.16.10.4 (tcgen05.mma), §9.7.14.5.14 (mma.sync, kind::f8f6f4), §9.7.16.9.1
// (tcgen05.cp decompression), §5.5.1.1 (tensor sub-byte types) and the CUDA driver API's
// CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B / 16U6_ALIGN16B.
//
// 1. 8-bit containers (kind::f8f6f4 / mxf8f6f4: A in TMEM, mma.sync registers, tcgen05.cp output):
//    one element per byte.        7 6 5 4 3 2 1 0
//        e4m3, e5m2               [ code          ]
//        e2m3, e3m2               0 0 [ code      ]      bits [5:0]
//        e2m1                     0 0 [ code  ] 0 0      bits [5:2]
//    Source: §9.7.14.5.14 text ("e2m1 ... in bits 5:2", fp6 "in bits 5:0", padding 0) for mma;
//    tcgen05 states the same layout only in figures (§9.7.16.10.4, Figs 199-201) — UNCONFIRMED that
//    tcgen05 reads the same bit positions, though nothing suggests otherwise.
//
// 2. 16-byte shared-memory units (kind::f8f6f4 / mxf8f6f4, A or B in shared memory; TMA's padded
//    sub-byte types):
//        .b4x16_p64: bytes 0..7  = 16 e2m1 codes, element i in byte i/2, low nibble for even i;
//                    bytes 8..15 = padding.
//        .b6x16_p32: bytes 0..11 = 16 fp6 codes as one little-endian 96-bit string, element i in
//                    bits [6i+5 : 6i] (it straddles a byte boundary when 6i mod 8 > 2);
//                    bytes 12..15 = padding.
//    The packing (data then padding) is stated in text (§5.5.1.1, §9.7.16.9.1, driver API: "16 x U6
//    packed values ... 4 byte gaps between every 12 byte chunk"). The bit order inside the packed
//    bytes is shown only in PTX figures: UNCONFIRMED. It is the order in which the global tensor is
//    packed (TMA copies those bytes unchanged), and CUTLASS/CuTe packs sub-byte global data
//    LSB-first (cute::subbyte_iterator: element i at bit offset i*bits, straddling into the next
//    byte), as cuda_fp4.h does for e2m1x2 (x.x in bits 3..0).
//
// 3. kind::mxf4 / mxf4nvf4: two e2m1 per byte, no padding: element 2j in bits [3:0], 2j+1 in
//    bits [7:4] (§9.7.16.10.4.5/.6; nibble order from figures — UNCONFIRMED, same convention as 2).
//
// Every *_get reads only the data bits (padding is ignored); every *_set/pack writes padding as 0.
// Out-of-range element indices throw std::out_of_range.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "models/formats/format.h"

namespace tcsim::models {

// 8-bit container <-> code, for e4m3, e5m2, e2m3, e3m2, e2m1 (std::invalid_argument otherwise).
uint8_t container_from_code(DType t, uint8_t code);
uint8_t code_from_container(DType t, uint8_t container);
// True when the container's padding bits are all 0 (a kernel that writes them is suspect).
bool container_padding_clear(DType t, uint8_t container);

using Unit16 = std::array<uint8_t, 16>;

// .b4x16_p64
uint8_t b4x16_p64_get(std::span<const uint8_t, 16> unit, int i);
void b4x16_p64_set(std::span<uint8_t, 16> unit, int i, uint8_t code);
Unit16 b4x16_p64_pack(std::span<const uint8_t, 16> codes);

// .b6x16_p32
uint8_t b6x16_p32_get(std::span<const uint8_t, 16> unit, int i);
void b6x16_p32_set(std::span<uint8_t, 16> unit, int i, uint8_t code);
Unit16 b6x16_p32_pack(std::span<const uint8_t, 16> codes);

// tcgen05.cp .b8x16.b4x16_p64 / .b8x16.b6x16_p32 (§9.7.16.9.1): one 16-byte source unit becomes 16
// 8-bit containers (the fp4 source is e2m1: the only 4-bit type; fp6 sources e2m3 or e3m2 share
// one container layout). Container positions as in 1 (UNCONFIRMED for tcgen05.cp: figures only).
Unit16 decompress_b4x16_p64(std::span<const uint8_t, 16> unit);
Unit16 decompress_b6x16_p32(std::span<const uint8_t, 16> unit);

// kind::mxf4 / mxf4nvf4 bytes: element i (0 or 1) of a byte holding two e2m1 codes.
uint8_t e2m1x2_get(uint8_t byte, int i);
uint8_t e2m1x2_set(uint8_t byte, int i, uint8_t code);

}  // namespace tcsim::models
