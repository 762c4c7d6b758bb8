#include "isa/layouts/canonical_layout.h"

#include <bit>

#include <fmt/core.h>

namespace tcsim::isa {

std::optional<Major> parse_major(std::string_view s) {
  if (s == "k" || s == "K") return Major::K;
  if (s == "mn" || s == "MN" || s == "m" || s == "n" || s == "M" || s == "N") return Major::MN;
  return std::nullopt;
}

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
  p.swizzle_ = swizzle_bits(desc.layout);
  // "Matrix base offset ... valid for all swizzling modes except the no-swizzle mode" (§9.7.15.5
  // .1.2.2); the XOR of the none layout is empty anyway.
  p.base_offset_ = desc.layout == SwizzleMode::None ? 0 : (desc.base_offset & 7u);

  const bool swz = desc.layout != SwizzleMode::None;
  const uint32_t w = p.swizzle_.span_bytes();  // row bytes: 16 (none), 32, 64, 128
  const uint32_t units = w / 16;                // 16-byte units per row
  const uint32_t tshift = std::countr_zero(unsigned(t));
  const uint32_t ushift = std::countr_zero(units);
  p.row_bytes_ = w;

  Axis contiguous{tshift, uint32_t(t - 1), 0, 0, 0, 0};
  Axis strided{0, 0, 3, 7, 0, w};
  if (major == Major::K) {
    strided.group_stride = desc.sbo;  // next 8 MN rows
    if (swz) {  // K runs contiguously along the W-byte row
      contiguous.group_shift = ushift;
      contiguous.in_group_mask = units - 1;
      contiguous.in_group_stride = 16;
      p.max_k_ = units * uint32_t(t);
    } else {  // next 16-byte K chunk (next core matrix along K)
      contiguous.group_stride = desc.lbo;
    }
    p.mn_ = strided;
    p.k_ = contiguous;
  } else {
    if (swz) {
      contiguous.group_shift = ushift;  // next W-byte MN atom
      contiguous.in_group_mask = units - 1;
      contiguous.group_stride = desc.lbo;
      contiguous.in_group_stride = 16;
      strided.group_stride = desc.sbo;  // next 8 (or 4) K rows
      if (desc.layout == SwizzleMode::B128Base32B) {
        strided.group_shift = 2;
        strided.in_group_mask = 3;
      }
    } else {
      contiguous.group_stride = desc.sbo;  // next T-element MN chunk
      strided.group_stride = desc.lbo;     // next 8 K rows
    }
    p.mn_ = contiguous;
    p.k_ = strided;
  }
  return p;
}

void CanonicalLayout::locate_row(uint32_t mn, uint32_t k0, uint32_t count,
                                 SmemLocation* out) const {
  const uint32_t pm = (mn & mn_.elem_mask) * elem_.bits;
  const uint32_t row = start_ + mn_.term(mn, pm);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t k = k0 + i;
    const uint32_t pk = (k & k_.elem_mask) * elem_.bits;
    const uint32_t addr = row + k_.term(k, pk);
    out[i] = {swizzle_.apply(addr, base_offset_), uint8_t((pm | pk) & 7)};
  }
}

void CanonicalLayout::locate_tile(uint32_t mn0, uint32_t mn_count, uint32_t k0, uint32_t k_count,
                                  SmemLocation* out) const {
  for (uint32_t i = 0; i < mn_count; ++i) locate_row(mn0 + i, k0, k_count, out + size_t(i) * k_count);
}

std::string CanonicalLayout::describe() const {
  const int bits = elem_.bits;
  const std::string cb = bits % 8 == 0 ? fmt::format("{}*{}", "{c}", bits / 8)
                                       : fmt::format("{}*{}/8", "{c}", bits);
  auto contiguous_bytes = [&](std::string_view c) {
    std::string s = cb;
    s.replace(s.find("{c}"), 3, c);
    return s;
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
  if (swizzle_.phase_mask) {
    const int lo = swizzle_.atom_shift;
    const int hi = lo + std::countr_one(unsigned(swizzle_.phase_mask)) - 1;
    swz = fmt::format("then bits {}-{} ^= ((addr >> 7) - {}) & {}", lo, hi, base_offset_,
                      swizzle_.phase_mask);
  }
  return fmt::format("{}-major {}, {}: addr(mn,k) = {}; {}", major_ == Major::K ? "K" : "MN",
                     layout_label(layout_), describe_format(elem_), f, swz);
}

}  // namespace tcsim::isa
