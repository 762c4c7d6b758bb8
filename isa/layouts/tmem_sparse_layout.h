// Structured sparsity of tcgen05.mma.sp (PTX ISA §9.7.16.10.8 "Sparse matrices"): what the
// metadata means, and where the instruction reads it in Tensor Memory ([sp-meta-tmem], the
// sparsity selector of the instruction descriptor, §9.7.16.4.2).
//
// A is stored compressed, M x K/2: each group of G consecutive K elements of the logical A keeps
// G/2 values, and a 4-bit metadata nibble per group says where they belong: bits [1:0] are the
// index of the group's first kept value, bits [3:2] of its second (§9.7.16.10.8.1-3):
//
//   kind                          G   index unit        legal nibbles
//   f16, f8f6f4, mxf8f6f4, i8      4   one element       0b0100 1000 1100 1001 1101 0110 1110 (2:4)
//   tf32                           2   half an element   0b0100 (element 0), 0b1110 (element 1)  (1:2)
//   mxf4, mxf4nvf4                 8   a pair            as for 2:4, indices of pairs       (4:8 in pairs)
//
// Other nibbles are undefined behaviour; the simulator computes with the indices as written (the
// two kept values at the positions their indices name) and reports them.
//
// Placement in TMEM (the figures of §9.7.16.10.8.4-5 are images; docs/tensor_memory.md §8 gives the
// sources, JAX's format_tcgen05_sparse_metadata for the 8- and 16-bit cases, which it runs on
// B200). Per MMA a row has 8 nibbles (f16, tf32: one 32-bit column, at [sp-meta-tmem]'s column +
// the sparsity selector) or 16 (the 8-bit and 4-bit kinds: two columns, selector 0). For row m of
// the CTA's 128 rows and nibble g:
//   8-bit family (f8f6f4, mxf8f6f4, i8, mxf4, mxf4nvf4): lane m, column C + g / 8, bits 4 (g % 8)
//   16-bit family (f16, tf32): lane 16 (m / 16) + 8 (g / 4) + m % 8, column C + selector,
//                              bits 16 ((m / 8) % 2) + 4 (g % 4)
// (the tf32 and 4-bit placements follow their index units — half elements as 16-bit, pairs of
// 4-bit values as 8-bit — and are an inference: UNCONFIRMED). Only the data paths with 128 rows
// per CTA are modelled (M = 128 with cta_group::1, M = 256 with cta_group::2).
#pragma once
#include <cstdint>

#include "isa/diag.h"
#include "isa/mma_kind.h"

namespace tcsim::isa {

struct TmemBitCell {
  uint8_t cta = 0;
  uint16_t lane = 0;
  uint16_t column = 0;
  uint8_t bit = 0;
};

// The group structure of sparse kind `k` (table above).
struct SparseGroup {
  uint32_t elems = 4;  // G: logical K elements per group
  uint32_t kept = 2;   // stored values per group
};
SparseGroup sparse_group(MmaKind k);
// The logical positions (0 .. G-1, within the group) of the group's kept values for `nibble`,
// in storage order; returns false when the nibble is not in the legal list (the positions are
// still the ones its indices name).
bool sparse_positions(MmaKind k, uint8_t nibble, uint32_t out[4]);

class TmemSparseMetaLayout {
 public:
  // `m`, `cta_group`: the MMA's M and cta_group; `taddr`: [sp-meta-tmem]; `selector`: the
  // descriptor's sparsity selector (bits 0-1).
  static Expected<TmemSparseMetaLayout> make(MmaKind kind, uint32_t m, int cta_group, uint32_t taddr, int selector);
  // Nibble g of row `row` of A (0 .. M-1).
  TmemBitCell locate(uint32_t row, uint32_t g) const {
    const uint32_t r = row % 128;
    const uint8_t cta = uint8_t(row / 128);
    if (!wide_) return {cta, uint16_t(r), uint16_t(col0_ + g / 8), uint8_t(4 * (g % 8))};
    return {cta, uint16_t(16 * (r / 16) + 8 * (g / 4) + r % 8), uint16_t(col0_ + selector_),
            uint8_t(16 * ((r / 8) % 2) + 4 * (g % 4))};
  }
  uint32_t groups() const { return groups_; }          // nibbles per row per MMA
  uint32_t first_column() const { return col0_ + (wide_ ? selector_ : 0); }
  uint32_t columns() const { return wide_ ? 1 : 2; }  // from first_column()

 private:
  TmemSparseMetaLayout() = default;
  bool wide_ = false;  // 16-bit family
  uint32_t col0_ = 0, selector_ = 0, groups_ = 16;
};

}  // namespace tcsim::isa
