#include "isa/layouts/tmem_layout.h"

#include <fmt/core.h>

namespace tcsim::isa {

std::string_view tmem_datapath_name(TmemDatapath d) {
  static constexpr std::string_view kNames[] = {"A", "B", "C", "D", "E", "F", "G"};
  return kNames[int(d)];
}

namespace {

// PTX §9.7.16.10.5 data-path table: which layout an (M, cta_group, sparse, .ws) MMA uses.
Expected<TmemDatapath> pick_datapath(uint32_t m, int cta_group, bool sparse, bool ws) {
  if (cta_group != 1 && cta_group != 2)
    return Error{fmt::format("cta_group {} is not 1 or 2", cta_group)};
  if (ws && cta_group != 1)
    return Error{"tcgen05.mma.ws exists only for cta_group::1 (PTX ISA §9.7.16.10.9.3)"};
  if (cta_group == 1) {
    if (ws) {
      if (m == 32) return TmemDatapath::G;
      if (m == 64) return TmemDatapath::E;
      if (m == 128) return TmemDatapath::D;
      return Error{fmt::format("M = {} with .ws: legal M are 32, 64, 128 (PTX ISA §9.7.16.2.1 "
                               "Table 39)",
                               m)};
    }
    if (m == 64) return TmemDatapath::F;
    if (m == 128) return TmemDatapath::D;
    return Error{fmt::format("M = {} with cta_group::1: legal M are 64, 128 (PTX ISA §9.7.16.2.1 "
                             "Table 39)",
                             m)};
  }
  if (m == 128) return sparse ? TmemDatapath::C : TmemDatapath::B;
  if (m == 256) return TmemDatapath::A;
  return Error{fmt::format("M = {} with cta_group::2: legal M are 128, 256 (PTX ISA §9.7.16.2.1 "
                           "Table 39)",
                           m)};
}

// The d-tmem / a-tmem lane alignment rule (§9.7.16.10.5 table: lane 0, or 0 or 16 for the
// half-lane layouts C and F).
Expected<bool> check_lane0(TmemDatapath d, uint32_t lane0) {
  const bool half = d == TmemDatapath::C || d == TmemDatapath::F;
  if (lane0 == 0 || (half && lane0 == 16)) return true;
  return Error{fmt::format("TMEM address lane {} for layout {}: the lane must be 0{} (PTX ISA "
                           "§9.7.16.10.5)",
                           lane0, tmem_datapath_name(d), half ? " or 16" : "")};
}

}  // namespace

Expected<TmemDLayout> TmemDLayout::make(uint32_t m, uint32_t n, int cta_group, bool sparse,
                                        bool ws, uint32_t taddr) {
  auto dp = pick_datapath(m, cta_group, sparse, ws);
  if (!dp) return dp.error();
  // N (PTX §9.7.16.2.1 Table 39; the per-kind exceptions of kind::i8 are the idesc rules').
  if (ws) {
    const bool ok = n == 64 || n == 128 || (n == 256 && !sparse);
    if (!ok)
      return Error{fmt::format("N = {} with .ws: legal N are 64, 128{} (PTX ISA §9.7.16.2.1 "
                               "Table 39)",
                               n, sparse ? "" : ", 256")};
  } else {
    const uint32_t step = cta_group == 1 ? 8 : 16;
    if (n < step || n > 256 || n % step != 0)
      return Error{fmt::format("N = {} with cta_group::{}: legal N are {}..256 in steps of {} "
                               "(PTX ISA §9.7.16.2.1 Table 39)",
                               n, cta_group, step, step)};
  }
  const uint32_t lane0 = taddr >> 16, col0 = taddr & 0xFFFF;
  if (auto ok = check_lane0(*dp, lane0); !ok) return ok.error();

  TmemDLayout p;
  p.datapath_ = *dp;
  p.m_ = m;
  p.n_ = n;
  p.lane0_ = lane0;
  p.col0_ = col0;
  p.split_cols_ = n;
  switch (*dp) {
    case TmemDatapath::A: p.cta_shift_ = 7; p.ctas_ = 2; break;
    case TmemDatapath::B:
      p.cta_shift_ = 6, p.row_mask_ = 63, p.ctas_ = 2;
      p.split_cols_ = n / 2, p.split_lanes_ = 64;
      break;
    case TmemDatapath::C:
      p.cta_shift_ = 6, p.row_mask_ = 63, p.group_stride_ = 32, p.ctas_ = 2;
      break;
    case TmemDatapath::D: break;
    case TmemDatapath::E: p.row_mask_ = 63, p.split_cols_ = n / 2, p.split_lanes_ = 64; break;
    case TmemDatapath::F: p.row_mask_ = 63, p.group_stride_ = 32; break;
    case TmemDatapath::G: p.row_mask_ = 31, p.split_cols_ = n / 4, p.split_lanes_ = 32; break;
  }
  if (col0 + p.split_cols_ > 512)
    return Error{fmt::format("D at TMEM column {} needs {} columns, past column 511 (PTX ISA "
                             "§9.7.16.1: 512 columns)",
                             col0, p.split_cols_)};
  return p;
}

std::string TmemDLayout::describe() const {
  return fmt::format("TMEM layout {} (M = {}, N = {}, {} CTA{}): {} columns from column {}, "
                     "lanes from {}",
                     tmem_datapath_name(datapath_), m_, n_, ctas_, ctas_ > 1 ? "s" : "",
                     split_cols_, col0_, lane0_);
}

Expected<TmemALayout> TmemALayout::make(uint32_t m, int cta_group, bool sparse, DType type,
                                        MmaKind kind, uint32_t taddr) {
  auto dp = pick_datapath(m, cta_group, sparse, false);
  if (!dp) return dp.error();
  if (*dp == TmemDatapath::C)
    return Error{"A in TMEM for sparse cta_group::2 M = 128 (layout C) is not modelled: PTX "
                 "shows it only in a figure"};
  const uint32_t lane0 = taddr >> 16, col0 = taddr & 0xFFFF;
  if (auto ok = check_lane0(*dp, lane0); !ok) return ok.error();

  TmemALayout p;
  p.datapath_ = *dp;
  p.m_ = m;
  p.lane0_ = lane0;
  p.col0_ = col0;
  auto bad = [&] {
    return Error{fmt::format("{} is not an A type of kind::{} (PTX ISA §9.7.16.2.1 Table 39)",
                             dtype_name(type), kind_name(kind))};
  };
  auto set = [&](uint32_t container, uint32_t value_bits, uint32_t shift) {
    p.container_bits_ = container;
    p.per_column_ = 32 / container;
    p.value_bits_ = value_bits;
    p.value_shift_ = shift;
  };
  switch (kind) {
    case MmaKind::TF32:
      if (type != DType::TF32) return bad();
      set(32, 32, 0);
      break;
    case MmaKind::F16:
      if (type != DType::F16 && type != DType::BF16) return bad();
      set(16, 16, 0);
      break;
    case MmaKind::I8:
      if (type != DType::S8 && type != DType::U8) return bad();
      set(8, 8, 0);
      break;
    case MmaKind::F8F6F4:
    case MmaKind::MXF8F6F4:
      if (type == DType::E4M3 || type == DType::E5M2) set(8, 8, 0);
      else if (type == DType::E2M3 || type == DType::E3M2) set(8, 6, 0);  // bits [5:0]
      else if (type == DType::E2M1) set(8, 4, 2);                         // bits [5:2]
      else return bad();
      break;
    case MmaKind::MXF4:
    case MmaKind::MXF4NVF4:
      if (type != DType::E2M1) return bad();
      set(4, 4, 0);  // two e2m1 per 8-bit container (§9.7.16.10.4.5)
      break;
  }
  return p;
}

TmemACell TmemALayout::locate(uint32_t row, uint32_t k) const {
  TmemACell c;
  c.column = uint16_t(col0_ + k / per_column_);
  c.bit = uint8_t((k % per_column_) * container_bits_ + value_shift_);
  switch (datapath_) {
    case TmemDatapath::A: c.cta = uint8_t(row / 128), c.lane = uint16_t(row % 128); break;
    case TmemDatapath::B:
      c.cta = uint8_t(row / 64), c.lane = uint16_t(row % 64);
      c.dup_lane = int16_t(64 + row % 64);
      break;
    case TmemDatapath::F: c.lane = uint16_t(lane0_ + 32 * (row / 16) + row % 16); break;
    default: c.lane = uint16_t(lane0_ + row); break;  // D
  }
  return c;
}

}  // namespace tcsim::isa
