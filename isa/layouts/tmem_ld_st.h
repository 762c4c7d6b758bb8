// tcgen05.ld / tcgen05.st: which TMEM cell each (thread, register) of the warp moves
// (PTX ISA §9.7.16.2.3 "Matrix fragments", §9.7.16.8.3-4; Tables 49/50).
//
//   tcgen05.ld.sync.aligned.{32x32b,16x64b,16x128b,16x256b}.xN{.pack::16b}.b32 r, [taddr];
//   tcgen05.ld.sync.aligned.16x32bx2.xN{.pack::16b}.b32                    r, [taddr], imm;
//   tcgen05.st.sync.aligned.<shape>.xN{.unpack::16b}.b32 [taddr]{, imm}, r;   N = 1, 2, 4, ... 128
//
// Thread t (lane of the warp, 0..31), register j, relative to taddr = (L0, C0). The .x1 pattern
// (PTX figures, images) repeats N times along the columns. Formulas from CUTLASS
// `Copy_Traits<SM100_TMEM_LOAD_*>` (copy_traits_sm100.hpp, decoded by hand for x1 and x2), and
// for 16x64b/16x128b/16x256b also TileLang `tcgen05_layout.cc` (docs/tensor_memory.md §3):
//
//   shape     regs/thread  max N  lane              32-bit column ("logical", unpacked)
//   32x32b    N            128    t                 j
//   16x64b    N            128    t/4 + 8(t%2)      (t/2)%2 + 2j
//   16x128b   2N           64     t/4 + 8(j%2)      t%4 + 4(j/2)
//   16x256b   4N           32     t/4 + 8((j/2)%2)  2(t%4) + j%2 + 8(j/4)
//   16x32bx2  N            128    t%16              j, plus imm for t >= 16 (immHalfSplitoff,
//                                                   in columns; CUTLASS passes imm = the span
//                                                   of one half)
//
// .pack::16b (ld) / .unpack::16b (st): each register holds the low 16 bits of two adjacent
// columns — register bits [0,16) <-> column 2c, bits [16,32) <-> column 2c+1, c the logical
// column above — so the column span doubles and the register count does not change (CUTLASS
// *_16b traits; CCCL tcgen05_ld.h register counts). What st.unpack::16b writes to the high 16
// bits of each cell is not stated (UNCONFIRMED; tcsim writes zero — the sim's choice).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/diag.h"

namespace tcsim::isa {

enum class TmemLdStShape : uint8_t { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };
std::string_view tmem_ldst_shape_name(TmemLdStShape s);  // "32x32b", ..., "16x32bx2"
std::optional<TmemLdStShape> parse_tmem_ldst_shape(std::string_view s);  // with or without '.'

class TmemLdStMap {
 public:
  // Refuses N not a power of two in 1..128, N above the shape's limit (Tables 49/50), a split
  // offset on a shape other than 16x32bx2, and a split offset that pushes the second half past
  // column 511.
  static Expected<TmemLdStMap> make(TmemLdStShape shape, uint32_t num, bool pack16,
                                    uint32_t half_split_off = 0);

  struct Cell {
    uint16_t lane = 0;    // relative to taddr's lane
    uint16_t column = 0;  // relative to taddr's column
    friend constexpr bool operator==(Cell a, Cell b) {
      return a.lane == b.lane && a.column == b.column;
    }
  };

  // Register `reg` of thread `t`: the cell behind its bits [0,32) (unpacked; `half` must be 0)
  // or behind its bits [16*half, 16*half + 16) (packed; that cell's bits [0,16)).
  Cell locate(uint32_t t, uint32_t reg, uint32_t half = 0) const;

  // The inverse: which thread / register (/ half, when packed) moves the cell (lane, column),
  // relative to taddr; nullopt if the access does not touch it. For a .16x32bx2 whose split
  // offset is smaller than a half's span, a cell of both halves answers the lower thread.
  struct Slot {
    uint16_t thread = 0;
    uint16_t reg = 0;
    uint8_t half = 0;
    friend constexpr bool operator==(Slot a, Slot b) {
      return a.thread == b.thread && a.reg == b.reg && a.half == b.half;
    }
  };
  std::optional<Slot> slot(uint32_t lane, uint32_t column) const;

  TmemLdStShape shape() const { return shape_; }
  uint32_t num() const { return num_; }
  bool packed() const { return pack16_; }
  uint32_t registers() const { return regs_; }  // per thread
  uint32_t lanes() const { return shape_ == TmemLdStShape::S32x32b ? 32 : 16; }
  uint32_t columns() const { return columns_; }  // columns spanned from taddr's column
  // Registers per thread of one .x1 (1 or 2 or 4) and the largest legal N (Tables 49/50).
  static uint32_t registers_per_x1(TmemLdStShape s);
  static uint32_t max_num(TmemLdStShape s);
  std::string describe() const;

 private:
  TmemLdStMap() = default;
  TmemLdStShape shape_ = TmemLdStShape::S32x32b;
  uint32_t num_ = 1, regs_ = 1, columns_ = 1, split_ = 0;
  bool pack16_ = false;
};

}  // namespace tcsim::isa
