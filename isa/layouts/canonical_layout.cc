#include "isa/layouts/canonical_layout.h"

#include <algorithm>
#include <bit>

#include <fmt/core.h>

namespace tcsim::isa {

Expected<CanonicalLayout> CanonicalLayout::make(const SmemDesc& desc, ElementFormat elem,
                                                Major major) {
  const int t = elem.per_16b;
  if (t < 1 || !std::has_single_bit(unsigned(t)) || int(t) * elem.bits > 128 || elem.bits < 4)
    return Error{fmt::format("element format {}-bit x {} per 16 B is not a shared-memory operand "
                             "format",
                             elem.bits, t)};
  if (desc.lbo_mode != 0)
    return Error{"descriptor LBO mode 1 (absolute LBO address, sm_103a, PTX ISA §9.7.16.4.1 bit "
                 "52) is described only in a PTX figure; tcsim does not model it"};
  if (major == Major::K && desc.layout == SwizzleMode::B128Base32B)
    return Error{"layout SWIZZLE_128B_BASE32B (128B swizzle with 32-byte atoms) exists only for "
                 "MN-major operands (PTX ISA §9.7.16.10.1 Table 51: tf32 transpose); a K-major "
                 "operand needs SWIZZLE_NONE/32B/64B/128B"};
  if (major == Major::MN && elem.bits < 8)
    return Error{fmt::format("{}-bit operands must be K-major (PTX ISA §9.7.16.10.1 Table 51: "
                             "transpose only for 8-bit and wider types)",
                             elem.bits)};

  CanonicalLayout p;
  p.desc_ = desc;
  p.elem_ = elem;
  p.major_ = major;
  p.layout_ = desc.layout;
  p.start_ = desc.start_address;
  p.swizzle_bits_ = swizzle_bits(desc.layout);
  // "Matrix base offset ... valid for all swizzling modes except the no-swizzle mode" (§9.7.15.5
  // .1.2.2); the XOR of the none layout is empty anyway.
  p.base_offset_ = desc.layout == SwizzleMode::None ? 0 : (desc.base_offset & 7u);
  p.swizzle_ = SwizzleTable::make(p.swizzle_bits_, p.base_offset_);

  const bool swz = desc.layout != SwizzleMode::None;
  const uint32_t w = p.swizzle_bits_.span_bytes();  // row bytes: 16 (none), 32, 64, 128
  const uint32_t units = w / 16;                     // 16-byte units per row
  const uint32_t tshift = std::countr_zero(unsigned(t));
  p.row_bytes_ = w;

  // Contiguous coordinate (K for K-major, MN for MN-major): x = unit * T + element.
  Axis contiguous;
  contiguous.elem_mask = uint32_t(t - 1);
  contiguous.in_group_mul = 32u / uint32_t(t);
  // Strided coordinate: x = group * 8 + row (x = group * 4 + row for the 32-byte-atom layout).
  Axis strided;
  const bool four_rows = desc.layout == SwizzleMode::B128Base32B;
  strided.group_shift = four_rows ? 2 : 3;
  strided.in_group_mask = four_rows ? 3 : 7;
  strided.in_group_mul = 2 * w;
  if (swz) {  // the contiguous coordinate runs along a W-byte row of `units` units
    contiguous.group_shift = tshift + std::countr_zero(units);
    contiguous.in_group_mask = (units - 1) << tshift;
  } else {    // one unit per group: the next 16 bytes are a core matrix away
    contiguous.group_shift = tshift;
  }
  if (major == Major::K) {
    strided.group_stride = desc.sbo;  // next 8 MN rows
    // K-major swizzled: K only within the row (LBO "not used, assumed 1"); none: next K chunk.
    contiguous.group_stride = swz ? 0 : desc.lbo;
    if (swz) p.max_k_ = units * uint32_t(t);
    p.mn_ = strided;
    p.k_ = contiguous;
  } else {
    // §9.7.16.3.1: MN-major swizzled: LBO = next W-byte MN atom, SBO = next 8 (4) K rows;
    // MN-major none: SBO = next T-element MN chunk, LBO = next 8 K rows.
    contiguous.group_stride = swz ? desc.lbo : desc.sbo;
    strided.group_stride = swz ? desc.sbo : desc.lbo;
    p.mn_ = contiguous;
    p.k_ = strided;
  }
  return p;
}

// The bulk forms hoist what is constant: along the contiguous coordinate a 16-byte unit has one
// address and one swizzle XOR (the XOR never leaves its 128-byte line), so each element is an
// add of its in-unit offset; along the strided coordinate each element is a row of its own.
void CanonicalLayout::contiguous_run(uint32_t base, uint32_t x0, uint32_t count,
                                     const Axis& axis, SmemLocation* out, size_t step) const {
  const uint32_t t_mask = axis.elem_mask, bits = elem_.bits;
  uint32_t x = x0;
  const uint32_t end = x0 + count;
  while (x < end) {
    const uint32_t unit_x = x & ~t_mask;
    const uint32_t unit_addr = base + axis.term(unit_x);
    const uint32_t x_or = swizzle_.apply(unit_addr) ^ unit_addr;
    const uint32_t stop = std::min(end, unit_x + t_mask + 1);
    uint32_t bitpos = (x & t_mask) * bits;
    for (; x < stop; ++x, bitpos += bits, out += step)
      *out = {(unit_addr + (bitpos >> 3)) ^ x_or, uint8_t(bitpos & 7)};
  }
}

void CanonicalLayout::locate_row(uint32_t mn, uint32_t k0, uint32_t count,
                                 SmemLocation* out) const {
  if (major_ == Major::K) {
    contiguous_run(start_ + mn_.term(mn), k0, count, k_, out, 1);
    return;
  }
  const uint32_t bitpos = (mn & mn_.elem_mask) * elem_.bits;
  const uint32_t row = start_ + mn_.term(mn) + (bitpos >> 3);
  for (uint32_t i = 0; i < count; ++i)
    out[i] = {swizzle_.apply(row + k_.term(k0 + i)), uint8_t(bitpos & 7)};
}

void CanonicalLayout::locate_tile(uint32_t mn0, uint32_t mn_count, uint32_t k0, uint32_t k_count,
                                  SmemLocation* out) const {
  if (major_ == Major::K) {
    for (uint32_t i = 0; i < mn_count; ++i)
      contiguous_run(start_ + mn_.term(mn0 + i), k0, k_count, k_, out + size_t(i) * k_count, 1);
    return;
  }
  // MN-major: walk each K row along its contiguous MN run (column j of the output).
  for (uint32_t j = 0; j < k_count; ++j)
    contiguous_run(start_ + k_.term(k0 + j), mn0, mn_count, mn_, out + j, k_count);
}

std::string CanonicalLayout::describe() const {
  const int bits = elem_.bits;
  // Byte offset of element x along the contiguous coordinate (padded units: 16 per 16 bytes).
  auto contiguous_bytes = [&](std::string_view c) {
    if (elem_.padded()) return fmt::format("16*({}/16) + ({}%16)*{}/8", c, c, bits);
    return bits % 8 == 0 ? fmt::format("{}*{}", c, bits / 8) : fmt::format("{}*{}/8", c, bits);
  };
  std::string f;
  const std::string start = fmt::format("0x{:x}", start_);
  const uint32_t w = row_bytes_;
  if (major_ == Major::K) {
    if (layout_ == SwizzleMode::None)
      f = fmt::format("{} + (mn/8)*{} + (mn%8)*16 + (kb/16)*{} + kb%16, kb = {}", start, desc_.sbo,
                      desc_.lbo, contiguous_bytes("k"));
    else
      f = fmt::format("{} + (mn/8)*{} + (mn%8)*{} + {}   (k < {})", start, desc_.sbo, w,
                      contiguous_bytes("k"), max_k_);
  } else {
    if (layout_ == SwizzleMode::None)
      f = fmt::format("{} + (rb/16)*{} + (k/8)*{} + (k%8)*16 + rb%16, rb = {}", start, desc_.sbo,
                      desc_.lbo, contiguous_bytes("mn"));
    else if (layout_ == SwizzleMode::B128Base32B)
      f = fmt::format("{} + (rb/128)*{} + (k/4)*{} + (k%4)*128 + rb%128, rb = {}", start,
                      desc_.lbo, desc_.sbo, contiguous_bytes("mn"));
    else
      f = fmt::format("{} + (rb/{})*{} + (k/8)*{} + (k%8)*{} + rb%{}, rb = {}", start, w,
                      desc_.lbo, desc_.sbo, w, w, contiguous_bytes("mn"));
  }
  std::string swz = "no swizzle";
  if (swizzle_bits_.phase_mask) {
    const int lo = swizzle_bits_.atom_shift;
    const int hi = lo + std::countr_one(unsigned(swizzle_bits_.phase_mask)) - 1;
    swz = fmt::format("then bits {}-{} ^= ((addr >> 7) - {}) & {}", lo, hi, base_offset_,
                      swizzle_bits_.phase_mask);
  }
  return fmt::format("{}-major {}, {}: addr(mn,k) = {}; {}", major_ == Major::K ? "K" : "MN",
                     layout_label(layout_), describe_format(elem_), f, swz);
}

}  // namespace tcsim::isa
