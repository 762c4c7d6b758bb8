// Where a block-scaled tcgen05.mma reads its scale factors in Tensor Memory: the scale-factor
// layouts of PTX ISA §9.7.16.10.7 ("Block scaling": scale_A is M x SFA_N, scale_B is SFB_M x N,
// operands [scale-A-tmem] and [scale-B-tmem], the SF-ID fields of the instruction descriptor,
// Tables 43/44). The figures of §9.7.16.10.7.x are images; the formulas below are the reading
// docs/tensor_memory.md §7 gives with its sources (CUTLASS's UMMA::tmem_sf_frg and
// Sm1xxBlockScaledConfig, DeepGEMM's scale-factor copies, JAX's scales_layout), which agree.
//
// Model: each 32-lane sub-partition q of TMEM computes its part of D (the data-path layout,
// isa/layouts/tmem_layout.h) and reads the scale factors of its rows and columns from its own
// lanes. For D cell (m, n) in CTA v at TMEM (lane L, column c), q = L / 32:
//
//   scale_A[m][j]  at lane 32q + mr % 32, column A0 + mr / 32, byte SFA_ID + j
//   scale_B[n][j]  at lane 32q + nc % 32, column B0 + nc / 32, byte SFB_ID + j
//
// where mr is m's row within CTA v (m - v * M/cta_group), nc = c - C0 the column of D relative to
// d-tmem's column C0 (n itself except for layout B, whose right half of N sits at lanes 64..127),
// A0 / B0 the columns of [scale-A-tmem] / [scale-B-tmem], and j = 0 .. nsf-1 the scale block
// along K (1X: nsf 1, SF_ID 0-3 picks the byte; 2X: nsf 2, SF_ID 0 or 2 the half word; 4X: nsf 4,
// SF_ID 0). A kernel that copies the scales into all four sub-partitions (tcgen05.cp .32x128b
// .warpx4, as CUTLASS and DeepGEMM do) gives every sub-partition the same values; one that does
// not gives different sub-partitions different scales, which the simulator reproduces and reports.
#pragma once
#include <cstdint>
#include <string>

#include "isa/diag.h"
#include "isa/layouts/tmem_layout.h"

namespace tcsim::isa {

struct TmemByteCell {
  uint8_t cta = 0;
  uint16_t lane = 0;
  uint16_t column = 0;
  uint8_t byte = 0;  // byte of the 32-bit cell (0 = bits 7:0)
};

class TmemScaleLayout {
 public:
  enum class Operand : uint8_t { A, B };
  // `d`: the MMA's D layout with d-tmem column `d_col0`; `m`, `cta_group`: the MMA's M and
  // cta_group; `taddr`: [scale-A-tmem] or [scale-B-tmem] (lane field 0; the caller strips bits
  // 31:30, which CUTLASS uses for the SF-ID of its software pointers); `sf_id` the descriptor's
  // SFA_ID / SFB_ID; `nsf` scale factors per row / column of one MMA (1, 2 or 4).
  static Expected<TmemScaleLayout> make(const TmemDLayout& d, uint32_t d_col0, uint32_t m, int cta_group,
                                        Operand which, uint32_t taddr, int sf_id, int nsf);

  // Scale factor j of the row (A) or column (B) of D cell (row, col) whose TMEM cell is `dc`.
  TmemByteCell locate(const TmemCell& dc, uint32_t row, uint32_t j) const {
    const uint32_t x = which_ == Operand::A ? row % rows_per_cta_ : dc.column - d_col0_;
    return {dc.cta, uint16_t((dc.lane & ~31u) + x % 32), uint16_t(col0_ + x / 32), uint8_t(sf_id_ + j)};
  }
  // TMEM columns it reads, from column(): A: ceil(M per CTA / 32); B: ceil(D columns / 32).
  uint32_t column() const { return col0_; }
  uint32_t columns() const { return columns_; }
  int nsf() const { return nsf_; }
  std::string describe() const;

 private:
  TmemScaleLayout() = default;
  Operand which_ = Operand::A;
  uint32_t col0_ = 0, d_col0_ = 0, rows_per_cta_ = 128, columns_ = 0;
  int sf_id_ = 0, nsf_ = 1;
};

}  // namespace tcsim::isa
