// The shared-memory swizzles, as XORs on *absolute* byte addresses.
//
// Unit: 16-byte chunk; "line": 128 bytes of shared memory (PTX ISA §5.5.7). A swizzle keeps each
// atom (16, 32 or 64 bytes) intact and moves it inside its 128-byte line by XOR with the line's
// phase:
//
//     phys = addr ^ ( phase(addr) << atom_shift )      phase(addr) = ((addr >> 7) - base) & mask
//
//   mode                      mask  atom  repeats   PTX §5.5.7 table (line r -> chunk order)
//   none                        0    16      -      01234567
//   32B                         1    16    256 B    01234567 / 10325476
//   64B                         3    16    512 B    ... / 23016745 / 32107654
//   128B (16-byte atoms)        7    16   1024 B    ... / 45670123 / 54761032 / 67452301 / 76543210
//   128B, 32-byte atoms         3    32    512 B    01234567 / 23016745 / 45670123 / 67452301
//   128B, 32-byte atoms + flip  3    32    512 B    as above, and the two 8-byte halves of every
//                                                   16-byte chunk swapped on alternate lines
//   128B, 64-byte atoms         1    64    256 B    01234567 / 45670123
//
//        byte address bits:  ... 9 8 7 | 6 5 4 | 3 2 1 0
//                                line  ^  chunk   byte in chunk
//                                phase ---^  (XOR)
//
// `base` is the descriptor's base offset for MMA reads (tcgen05 §9.7.16.4.1, wgmma
// §9.7.15.5.1.2.2). Measured on an H200 (wgmma and TMA; docs/smem_layouts.md §5):
// the phase comes from the absolute address bits and the base offset is *subtracted*; TMA writes
// always use base 0 (the absolute pattern), whatever dstMem's alignment. The 64B/32B masks and the
// atom modes follow the same rule by analogy (measured only for 128B).
//
// The 8-byte flip: PTX §5.5.7 says "a flip of adjacent 8-bytes within the 16-byte data at every
// alternate shared memory line"; which lines is shown only in Figure 36. tcsim flips on odd lines
// (address bit 7 set): UNCONFIRMED.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "isa/descriptors/smem_desc.h"
#include "isa/descriptors/tensor_map.h"

namespace tcsim::isa {

// CUtensorMapSwizzle, in the driver's order (cuda.h: NONE = 0 ... 128B_ATOM_64B = 6): the
// tensor-map vocabulary of isa/descriptors, one enum for both layers.
using TmaSwizzle = TensorMapSwizzle;
inline constexpr TmaSwizzle kTmaSwizzles[] = {
    TmaSwizzle::None,        TmaSwizzle::B32,        TmaSwizzle::B64,
    TmaSwizzle::B128,        TmaSwizzle::B128Atom32B, TmaSwizzle::B128Atom32BFlip8B,
    TmaSwizzle::B128Atom64B,
};
// "none", "32b", "64b", "128b", "128b_atom_32b", "128b_atom_32b_flip_8b", "128b_atom_64b".
std::string_view tma_swizzle_name(TmaSwizzle s);
// Accepts those names, the CU_TENSOR_MAP_SWIZZLE_* spellings (with or without the prefix, any
// case) and the enum values 0-6.
std::optional<TmaSwizzle> parse_tma_swizzle(std::string_view s);

// The XOR parameters of one swizzle pattern (see the table above).
struct SwizzleBits {
  uint8_t phase_mask = 0;  // line phase bits used
  uint8_t atom_shift = 4;  // log2(atom bytes)
  bool flip_8b = false;    // swap 8-byte halves of each 16-byte chunk on odd lines
  // Bytes after which the pattern repeats ((mask + 1) lines of 128 B; 0 for none).
  constexpr uint32_t repeat_bytes() const { return phase_mask ? (phase_mask + 1u) * 128u : 0u; }
  // Bytes within which atoms move (the "swizzle width" a row may span): 16 for none.
  constexpr uint32_t span_bytes() const { return phase_mask ? (phase_mask + 1u) << atom_shift : 16u; }
  // The physical byte address of logical byte address `addr` with base offset `base`.
  constexpr uint32_t apply(uint32_t addr, uint32_t base = 0) const {
    // flip: bit 7 (odd line) -> bit 3 (8-byte half); branch-free
    return addr ^ ((((addr >> 7) - base) & phase_mask) << atom_shift) ^
           ((addr >> 4) & (uint32_t(flip_8b) << 3));
  }
};

// The same permutation as a lookup: the XOR for each of the 8 line phases, so that applying it
// costs a shift, a subtract, a mask and a load (no variable shift). Equal to SwizzleBits::apply
// for every address; the 8-byte flip (TMA only, always base 0) rides on the phase's low bit.
struct SwizzleTable {
  uint32_t xor_for_phase[8] = {};
  uint32_t base = 0;
  constexpr uint32_t apply(uint32_t addr) const {
    return addr ^ xor_for_phase[((addr >> 7) - base) & 7];
  }
  static constexpr SwizzleTable make(SwizzleBits b, uint32_t base_offset = 0) {
    SwizzleTable t;
    t.base = b.phase_mask ? (base_offset & 7u) : 0u;
    for (uint32_t p = 0; p < 8; ++p)
      t.xor_for_phase[p] = ((p & b.phase_mask) << b.atom_shift) | (b.flip_8b && (p & 1) ? 8u : 0u);
    return t;
  }
};

constexpr SwizzleBits swizzle_bits(TmaSwizzle s) {
  switch (s) {
    case TmaSwizzle::None: return {0, 4, false};
    case TmaSwizzle::B32: return {1, 4, false};
    case TmaSwizzle::B64: return {3, 4, false};
    case TmaSwizzle::B128: return {7, 4, false};
    case TmaSwizzle::B128Atom32B: return {3, 5, false};
    case TmaSwizzle::B128Atom32BFlip8B: return {3, 5, true};
    case TmaSwizzle::B128Atom64B: return {1, 6, false};
  }
  return {};
}

// The descriptor layout field's swizzle (tcgen05: 0 none, 1 128B with 32-byte atoms, 2 128B,
// 4 64B, 6 32B — PTX §9.7.16.4.1 Table 40; wgmma: 0 none, 1 128B, 2 64B, 3 32B).
constexpr SwizzleBits swizzle_bits(SwizzleMode m) {
  switch (m) {
    case SwizzleMode::None: return swizzle_bits(TmaSwizzle::None);
    case SwizzleMode::B32: return swizzle_bits(TmaSwizzle::B32);
    case SwizzleMode::B64: return swizzle_bits(TmaSwizzle::B64);
    case SwizzleMode::B128: return swizzle_bits(TmaSwizzle::B128);
    case SwizzleMode::B128Base32B: return swizzle_bits(TmaSwizzle::B128Atom32B);
  }
  return {};
}

// The descriptor layout whose pattern a TMA swizzle writes, if there is one (32B/64B/128B map to
// themselves, 128B_atom_32B to the tcgen05 "128B with 32-byte atoms" layout; the 8-byte flip and
// 64-byte atoms have no MMA counterpart).
constexpr std::optional<SwizzleMode> mma_layout_for(TmaSwizzle s) {
  switch (s) {
    case TmaSwizzle::None: return SwizzleMode::None;
    case TmaSwizzle::B32: return SwizzleMode::B32;
    case TmaSwizzle::B64: return SwizzleMode::B64;
    case TmaSwizzle::B128: return SwizzleMode::B128;
    case TmaSwizzle::B128Atom32B: return SwizzleMode::B128Base32B;
    default: return std::nullopt;
  }
}

// Spelling used in tcsim's own messages ("SWIZZLE_128B", "SWIZZLE_128B_BASE32B", ...: CUTLASS's
// UMMA::LayoutType names, which kernel authors recognise).
std::string_view layout_label(SwizzleMode m);

}  // namespace tcsim::isa
