// Where tcgen05.mma keeps its accumulator D, and reads an A operand, in Tensor Memory:
// the data-path layouts of PTX ISA §9.7.16.10.5 (layouts A-G; the figures 205-218 are images, so
// the formulas come from CUTLASS `UMMA::tmem_frg` / `tmem_frg_ws`, mma_traits_sm100_frag.hpp,
// which run on hardware; docs/tensor_memory.md §1).
//
// TMEM is 128 lanes x 512 columns of 32 bits (§9.7.16.1); an address is (lane << 16) | column.
// D is never packed: one element per 32-bit cell, a 16-bit D in the low half (§9.7.16.10.4.1).
// With d-tmem = (L0, C0):
//
//  layout  M    cta_group  sparse  .ws   D[m][n] at (CTA, lane, column)                    cols
//  A       256  2          either  -     (m/128, m%128, C0+n)                              N
//  B       128  2          dense   -     r = m%64, h = n/(N/2): (m/64, r + 64h, C0+n-hN/2)  N/2
//  C       128  2          sparse  -     r = m%64: (m/64, L0+32(r/16)+r%16, C0+n)           N
//                                        (by analogy with F: UNCONFIRMED)
//  D       128  1          either  either (0, m, C0+n)                                     N
//  E       64   1          either  yes   h = n/(N/2): (0, m + 64h, C0+n-hN/2)               N/2
//  F       64   1          either  no    (0, L0+32(m/16)+m%16, C0+n), L0 in {0,16}          N
//  G       32   1          either  yes   h = n/(N/4): (0, m + 32h, C0+n-hN/4)               N/4
//
// For cta_group::2, "CTA" is the peer index v = %cluster_ctarank & 1 of the CTA pair; each CTA
// holds its rows at the same d-tmem address (docs/tensor_memory.md §2).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "isa/diag.h"
#include "isa/dtype.h"
#include "isa/mma_kind.h"

namespace tcsim::isa {

enum class TmemDatapath : uint8_t { A, B, C, D, E, F, G };
std::string_view tmem_datapath_name(TmemDatapath d);  // "A" ... "G"

struct TmemCell {
  uint8_t cta = 0;      // 0 for cta_group::1; peer index v for cta_group::2
  uint16_t lane = 0;    // 0..127
  uint16_t column = 0;  // 0..511
  friend constexpr bool operator==(TmemCell a, TmemCell b) {
    return a.cta == b.cta && a.lane == b.lane && a.column == b.column;
  }
};

// The data-path layout of an M x N accumulator. `taddr` is the d-tmem address (lane << 16 |
// column): its lane must be 0 (16 is also allowed for layouts C and F), and the columns used must
// fit in 512.
class TmemDLayout {
 public:
  static Expected<TmemDLayout> make(uint32_t m, uint32_t n, int cta_group, bool sparse, bool ws,
                                    uint32_t taddr = 0);

  TmemCell locate(uint32_t row, uint32_t col) const {
    const uint32_t r = row & row_mask_;
    const uint32_t h = col / split_cols_;
    return {uint8_t(row >> cta_shift_),
            uint16_t(lane0_ + (r >> 4) * group_stride_ + (r & 15) + h * split_lanes_),
            uint16_t(col0_ + col - h * split_cols_)};
  }

  TmemDatapath datapath() const { return datapath_; }
  uint32_t m() const { return m_; }
  uint32_t n() const { return n_; }
  int ctas() const { return ctas_; }
  uint32_t columns_used() const { return split_cols_; }  // per CTA
  std::string describe() const;

 private:
  TmemDLayout() = default;
  TmemDatapath datapath_ = TmemDatapath::D;
  uint32_t m_ = 0, n_ = 0, lane0_ = 0, col0_ = 0;
  uint32_t cta_shift_ = 31, row_mask_ = 127, group_stride_ = 16;
  uint32_t split_cols_ = 1, split_lanes_ = 0;
  int ctas_ = 1;
};

// A (M x K) read from TMEM (`[a-tmem]`, §9.7.16.10.4.3/.5): row m in the lane the datapath gives
// row m of D; K packed along each row, `per_column` elements per 32-bit cell, element k at bit
// (k % per_column) * container_bits + value_shift:
//   tf32 1/cell; f16, bf16 2/cell (low half = even k); 8-bit types 4/cell; fp6/fp4 under
//   kind::f8f6f4 / mxf8f6f4 one per 8-bit container, 4/cell, the value in container bits [5:0]
//   (e2m3, e3m2) or [5:2] (e2m1) (stated for mma.sync §9.7.14.5.14, tcgen05 figures 199-201 are
//   images: UNCONFIRMED); e2m1 under kind::mxf4 / mxf4nvf4 two per container, 8/cell.
// Little-endian order inside a cell (element 0 lowest) is assumed (figures: UNCONFIRMED).
// Row placement follows the datapath of D: layouts A, D and F as for D; layout B (M = 128,
// cta_group::2) duplicates each CTA's 64 rows into lanes r and 64 + r (CUTLASS
// TmemAllocMode::Duplicated). Layouts C, E, G (sparse cta_group::2, .ws) are not modelled.
struct TmemACell {
  uint8_t cta = 0;
  uint16_t lane = 0;
  uint16_t column = 0;
  uint8_t bit = 0;         // bit of the 32-bit cell where the value's LSB sits
  int16_t dup_lane = -1;   // second lane holding the same row (layout B), else -1
};

class TmemALayout {
 public:
  static Expected<TmemALayout> make(uint32_t m, int cta_group, bool sparse, DType type,
                                    MmaKind kind, uint32_t taddr = 0);
  TmemACell locate(uint32_t row, uint32_t k) const;
  uint32_t per_column() const { return per_column_; }
  uint32_t container_bits() const { return container_bits_; }
  uint32_t value_shift() const { return value_shift_; }
  uint32_t value_bits() const { return value_bits_; }

 private:
  TmemALayout() = default;
  TmemDatapath datapath_ = TmemDatapath::D;
  uint32_t m_ = 0, lane0_ = 0, col0_ = 0;
  uint32_t per_column_ = 1, container_bits_ = 32, value_shift_ = 0, value_bits_ = 32;
};

}  // namespace tcsim::isa
