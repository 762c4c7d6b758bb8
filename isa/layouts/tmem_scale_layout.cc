#include "isa/layouts/tmem_scale_layout.h"

#include <fmt/core.h>

namespace tcsim::isa {

Expected<TmemScaleLayout> TmemScaleLayout::make(const TmemDLayout& d, uint32_t d_col0, uint32_t m, int cta_group,
                                                Operand which, uint32_t taddr, int sf_id, int nsf) {
  const char* name = which == Operand::A ? "scale-A-tmem" : "scale-B-tmem";
  if (nsf != 1 && nsf != 2 && nsf != 4)
    return Error{fmt::format("{}: {} scale factors per row is not 1, 2 or 4 (PTX ISA §9.7.16.10.7)", name, nsf)};
  if (sf_id < 0 || sf_id + nsf > 4)
    return Error{fmt::format("{}: SF_ID {} with {} scale factor{} per row reaches past byte 3 of the 32-bit cell "
                             "(PTX ISA §9.7.16.10.7.2-3)",
                             name, sf_id, nsf, nsf > 1 ? "s" : "")};
  const uint32_t lane = taddr >> 16, col = taddr & 0xFFFF;
  if (lane != 0)
    return Error{fmt::format("{} 0x{:08x} has lane {}: the scale factors of all four sub-partitions are addressed "
                             "from lane 0 (PTX ISA §9.7.16.10.7)",
                             name, taddr, lane)};
  TmemScaleLayout L;
  L.which_ = which;
  L.col0_ = col;
  L.d_col0_ = d_col0;
  L.rows_per_cta_ = m / static_cast<uint32_t>(cta_group);
  L.sf_id_ = sf_id;
  L.nsf_ = nsf;
  const uint32_t extent = which == Operand::A ? L.rows_per_cta_ : d.columns_used();
  L.columns_ = (extent + 31) / 32;
  if (col + L.columns_ > 512)
    return Error{fmt::format("{} at column {} needs {} columns, past column 511 (PTX ISA §9.7.16.1)", name, col,
                             L.columns_)};
  return L;
}

std::string TmemScaleLayout::describe() const {
  return fmt::format("scale factors of {} in TMEM columns {}-{}, byte{} {}{} of each cell",
                     which_ == Operand::A ? "A" : "B", col0_, col0_ + columns_ - 1, nsf_ > 1 ? "s" : "", sf_id_,
                     nsf_ > 1 ? fmt::format("-{}", sf_id_ + nsf_ - 1) : std::string());
}

}  // namespace tcsim::isa
