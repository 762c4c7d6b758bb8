// The sm_90a combination table (see combos.h); the launchers live in combos_*.cu.
#include "kernels/probes/sm90/combos.h"

#include <cstdio>
#include <stdexcept>

namespace probes {

void add_mma_sync_combos(std::vector<Combo>& v);
void add_wgmma_ss_combos(std::vector<Combo>& v);
void add_wgmma_rs_combos(std::vector<Combo>& v);

const std::vector<Combo>& combos() {
  static const std::vector<Combo> v = [] {
    std::vector<Combo> c;
    add_mma_sync_combos(c);
#ifndef PROBES_NO_WGMMA  // wgmma exists only on sm_90a
    add_wgmma_ss_combos(c);
    add_wgmma_rs_combos(c);
#endif
    return c;
  }();
  return v;
}
mm::DotShape Combo::shape(const std::vector<std::string>& sets) const {
  const mm::ParamRow* r = row();
  if (!r) throw std::runtime_error("no tcsim parameter row for " + name);
  mm::DotShape s;
  s.num = r->num;
  for (const std::string& a : sets)
    if (const std::string e = mm::set_numerics_field(s.num, a); !e.empty())
      throw std::runtime_error(e);
  s.kind = kind;
  s.atype = at;
  s.btype = bt;
  s.dtype = dt;
  s.k = K;
  s.saturate = satfinite;
  s.negate_a = negate_a;
  return s;
}

uint32_t f16_to_f32_bits(uint32_t h) {
  const uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return s | 0x7f800000u | (m << 13);
  if (e == 0) {
    if (m == 0) return s;
    int ee = -14;
    uint32_t mm_ = m;
    while (!(mm_ & 0x400)) mm_ <<= 1, --ee;
    return s | (static_cast<uint32_t>(ee + 127) << 23) | ((mm_ & 0x3ff) << 13);
  }
  return s | ((e - 15 + 127) << 23) | (m << 13);
}

std::string hex(uint32_t v, int digits) {
  char b[16];
  std::snprintf(b, sizeof b, "%0*x", digits, v);
  return b;
}

}  // namespace probes
