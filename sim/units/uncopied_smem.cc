#include "sim/units/uncopied_smem.h"

#include <bit>

#include <fmt/format.h>

#include "sim/api.h"

namespace tcsim::sim {

void UncopiedSmem::mark(uint32_t off, uint32_t n) {
  if (!n) return;
  const uint32_t g0 = off / kGranule, g1 = (off + n - 1) / kGranule;
  if (bits_.size() <= g1 / 64) bits_.resize(g1 / 64 + 1, 0);
  for (uint32_t g = g0; g <= g1; ++g) {
    uint64_t& w = bits_[g / 64];
    const uint64_t b = uint64_t{1} << (g % 64);
    if (!(w & b)) ++marked_;
    w |= b;
  }
}

void UncopiedSmem::clear_slow(uint32_t off, uint32_t n) {
  // Only granules the write covers entirely: a partial write leaves bytes TMA did not copy.
  const uint32_t g0 = (off + kGranule - 1) / kGranule, g1 = (off + n) / kGranule;  // [g0, g1)
  for (uint32_t g = g0; g < g1 && g / 64 < bits_.size(); ++g) {
    uint64_t& w = bits_[g / 64];
    const uint64_t b = uint64_t{1} << (g % 64);
    if (w & b) --marked_;
    w &= ~b;
  }
}

bool UncopiedSmem::any_slow(uint32_t off, uint32_t n) const {
  const uint32_t g0 = off / kGranule, g1 = (off + n - 1) / kGranule;
  for (uint32_t g = g0; g <= g1 && g / 64 < bits_.size(); ++g)
    if (bits_[g / 64] >> (g % 64) & 1) return true;
  return false;
}

void check_copied(const UncopiedSmem& u, uint32_t off, uint32_t n, const char* what) {
  if (!u.any(off, n))
    return;
  throw TimingOnlyNeedsCopies(fmt::format(
      "--timing-only: {} reads shared memory [0x{:x}, 0x{:x}) that a TMA tile load did not copy (the values could "
      "change control flow, addresses or memory)",
      what, off, off + n));
}

}  // namespace tcsim::sim
