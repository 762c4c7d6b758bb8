#include "isa/layouts/tmem_ld_st.h"

#include <algorithm>
#include <bit>

#include <fmt/core.h>

namespace tcsim::isa {

std::string_view tmem_ldst_shape_name(TmemLdStShape s) {
  switch (s) {
    case TmemLdStShape::S32x32b: return "32x32b";
    case TmemLdStShape::S16x64b: return "16x64b";
    case TmemLdStShape::S16x128b: return "16x128b";
    case TmemLdStShape::S16x256b: return "16x256b";
    case TmemLdStShape::S16x32bx2: return "16x32bx2";
  }
  return "?";
}

std::optional<TmemLdStShape> parse_tmem_ldst_shape(std::string_view s) {
  if (!s.empty() && s[0] == '.') s.remove_prefix(1);
  for (auto v : {TmemLdStShape::S32x32b, TmemLdStShape::S16x64b, TmemLdStShape::S16x128b,
                 TmemLdStShape::S16x256b, TmemLdStShape::S16x32bx2})
    if (tmem_ldst_shape_name(v) == s) return v;
  return std::nullopt;
}

uint32_t TmemLdStMap::registers_per_x1(TmemLdStShape s) {
  switch (s) {
    case TmemLdStShape::S16x128b: return 2;
    case TmemLdStShape::S16x256b: return 4;
    default: return 1;
  }
}

// Tables 49/50: at most 128 registers per thread.
uint32_t TmemLdStMap::max_num(TmemLdStShape s) { return 128 / registers_per_x1(s); }

Expected<TmemLdStMap> TmemLdStMap::make(TmemLdStShape shape, uint32_t num, bool pack16,
                                        uint32_t half_split_off) {
  if (num < 1 || num > 128 || !std::has_single_bit(num))
    return Error{fmt::format(".num x{} is not one of x1, x2, x4, ..., x128 (PTX ISA §9.7.16.8.3)",
                             num)};
  if (num > max_num(shape))
    return Error{fmt::format(".{}.x{} needs {} registers per thread; the limit is x{} (PTX ISA "
                             "§9.7.16.2.3 Tables 49/50: at most 128)",
                             tmem_ldst_shape_name(shape), num, num * registers_per_x1(shape),
                             max_num(shape))};
  if (shape != TmemLdStShape::S16x32bx2 && half_split_off != 0)
    return Error{fmt::format("immHalfSplitoff is an operand of .16x32bx2 only, not .{}",
                             tmem_ldst_shape_name(shape))};
  TmemLdStMap p;
  p.shape_ = shape;
  p.num_ = num;
  p.pack16_ = pack16;
  p.regs_ = num * registers_per_x1(shape);
  p.split_ = half_split_off;
  uint32_t logical = 0;  // 32-bit logical columns one half spans
  switch (shape) {
    case TmemLdStShape::S32x32b: logical = num; break;
    case TmemLdStShape::S16x64b: logical = 2 * num; break;
    case TmemLdStShape::S16x128b: logical = 4 * num; break;
    case TmemLdStShape::S16x256b: logical = 8 * num; break;
    case TmemLdStShape::S16x32bx2: logical = num; break;
  }
  const uint32_t span = pack16 ? 2 * logical : logical;
  p.columns_ = shape == TmemLdStShape::S16x32bx2 ? std::max(span, half_split_off + span) : span;
  if (p.columns_ > 512)
    return Error{fmt::format(".{}.x{}{} with immHalfSplitoff {} spans {} columns; TMEM has 512 "
                             "(PTX ISA §9.7.16.1)",
                             tmem_ldst_shape_name(shape), num, pack16 ? ".pack::16b" : "",
                             half_split_off, p.columns_)};
  return p;
}

TmemLdStMap::Cell TmemLdStMap::locate(uint32_t t, uint32_t j, uint32_t half) const {
  uint32_t lane = 0, col = 0, split = 0;
  switch (shape_) {
    case TmemLdStShape::S32x32b: lane = t, col = j; break;
    case TmemLdStShape::S16x64b: lane = t / 4 + 8 * (t % 2), col = (t / 2) % 2 + 2 * j; break;
    case TmemLdStShape::S16x128b: lane = t / 4 + 8 * (j % 2), col = t % 4 + 4 * (j / 2); break;
    case TmemLdStShape::S16x256b:
      lane = t / 4 + 8 * ((j / 2) % 2), col = 2 * (t % 4) + j % 2 + 8 * (j / 4);
      break;
    case TmemLdStShape::S16x32bx2:
      lane = t % 16, col = j, split = t >= 16 ? split_ : 0;
      break;
  }
  col = pack16_ ? 2 * col + half : col;
  return {uint16_t(lane), uint16_t(split + col)};
}

std::optional<TmemLdStMap::Slot> TmemLdStMap::slot(uint32_t lane, uint32_t column) const {
  if (lane >= lanes() || column >= columns_) return std::nullopt;
  uint32_t split = 0;
  const uint32_t span = columns_ - (shape_ == TmemLdStShape::S16x32bx2 ? split_ : 0);
  if (shape_ == TmemLdStShape::S16x32bx2 && column >= split_ &&
      (column >= span || split_ >= span))  // in the second half (first half wins an overlap)
    split = split_;
  const uint32_t c = column - split;
  const uint32_t cl = pack16_ ? c / 2 : c, half = pack16_ ? c % 2 : 0;
  uint32_t t = 0, j = 0;
  switch (shape_) {
    case TmemLdStShape::S32x32b: t = lane, j = cl; break;
    // lane = t/4 + 8(t%2), cl = (t/2)%2 + 2j
    case TmemLdStShape::S16x64b: t = 4 * (lane % 8) + 2 * (cl % 2) + lane / 8, j = cl / 2; break;
    // lane = t/4 + 8(j%2), cl = t%4 + 4(j/2)
    case TmemLdStShape::S16x128b: t = 4 * (lane % 8) + cl % 4, j = 2 * (cl / 4) + lane / 8; break;
    // lane = t/4 + 8((j/2)%2), cl = 2(t%4) + j%2 + 8(j/4)
    case TmemLdStShape::S16x256b:
      t = 4 * (lane % 8) + (cl % 8) / 2, j = 4 * (cl / 8) + 2 * (lane / 8) + cl % 2;
      break;
    case TmemLdStShape::S16x32bx2: t = lane + (split ? 16 : 0), j = cl; break;
  }
  if (j >= regs_) return std::nullopt;
  return Slot{uint16_t(t), uint16_t(j), uint8_t(half)};
}

std::string TmemLdStMap::describe() const {
  return fmt::format("tcgen05.ld/st .{}.x{}{}: {} registers per thread, {} lanes x {} columns",
                     tmem_ldst_shape_name(shape_), num_, pack16_ ? ".pack::16b" : "", regs_,
                     lanes(), columns_);
}

}  // namespace tcsim::isa
