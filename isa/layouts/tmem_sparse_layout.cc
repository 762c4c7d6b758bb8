#include "isa/layouts/tmem_sparse_layout.h"

#include <fmt/core.h>

namespace tcsim::isa {

SparseGroup sparse_group(MmaKind k) {
  switch (k) {
    case MmaKind::TF32: return {2, 1};
    case MmaKind::MXF4:
    case MmaKind::MXF4NVF4: return {8, 4};
    default: return {4, 2};
  }
}

bool sparse_positions(MmaKind k, uint8_t nibble, uint32_t out[4]) {
  const uint32_t i0 = nibble & 3u, i1 = (nibble >> 2) & 3u;
  // §9.7.16.10.8.1-3: the legal nibbles (the same list for 2:4 and for 4:8 in pairs).
  static constexpr uint8_t kLegal[] = {0x4, 0x8, 0xC, 0x9, 0xD, 0x6, 0xE};
  bool legal = false;
  switch (k) {
    case MmaKind::TF32:
      // 1:2 in half-element units: (0,1) keeps element 0, (2,3) element 1.
      out[0] = i0 / 2;
      return nibble == 0x4 || nibble == 0xE;
    case MmaKind::MXF4:
    case MmaKind::MXF4NVF4:
      out[0] = 2 * i0, out[1] = 2 * i0 + 1, out[2] = 2 * i1, out[3] = 2 * i1 + 1;
      break;
    default: out[0] = i0, out[1] = i1; break;
  }
  for (uint8_t x : kLegal) legal = legal || x == nibble;
  return legal;
}

Expected<TmemSparseMetaLayout> TmemSparseMetaLayout::make(MmaKind kind, uint32_t m, int cta_group, uint32_t taddr,
                                                          int selector) {
  if (m / static_cast<uint32_t>(cta_group) != 128)
    return Error{fmt::format("tcgen05.mma.sp with M = {} and cta_group::{}: the sparse-metadata layout of this data "
                             "path (a PTX ISA §9.7.16.10.8.5 figure) is not modelled; tcsim models the data paths "
                             "with 128 rows per CTA (M = 128 with cta_group::1, M = 256 with cta_group::2)",
                             m, cta_group)};
  const uint32_t lane = taddr >> 16, col = taddr & 0xFFFF;
  if (lane != 0)
    return Error{fmt::format("sp-meta-tmem 0x{:08x} has lane {}: the metadata of 128 rows starts at lane 0 (PTX ISA "
                             "§9.7.16.10.8.5)",
                             taddr, lane)};
  TmemSparseMetaLayout L;
  L.wide_ = kind == MmaKind::F16 || kind == MmaKind::TF32;
  L.col0_ = col;
  L.selector_ = static_cast<uint32_t>(selector);
  L.groups_ = L.wide_ ? 8 : 16;
  if (!L.wide_ && selector != 0)
    return Error{fmt::format("sparsity selector {} for kind::{}: it must be 0 for the 8-bit and 4-bit kinds (PTX ISA "
                             "§9.7.16.10.8.5)",
                             selector, kind_name(kind))};
  if (L.first_column() + L.columns() > 512)
    return Error{fmt::format("sp-meta-tmem column {} (+ selector {}) needs {} column{}, past column 511 (PTX ISA "
                             "§9.7.16.1)",
                             col, selector, L.columns(), L.columns() > 1 ? "s" : "")};
  return L;
}

}  // namespace tcsim::isa
