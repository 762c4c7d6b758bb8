#include "sim/units/tmem.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/cta.h"

namespace tcsim::sim {

namespace {
uint32_t unit_mask(uint32_t column, uint32_t ncols) {
  const uint32_t units = ncols / kTmemAllocUnit, first = column / kTmemAllocUnit;
  return (units >= 32 ? ~0u : ((1u << units) - 1)) << first;
}
}  // namespace

std::optional<uint32_t> Tmem::find_free(uint32_t ncols) const {
  // Lowest free range, aligned to min(ncols, 128) columns (model choice, see tmem.h).
  const uint32_t align = std::min<uint32_t>(ncols, 128);
  for (uint32_t c = 0; c + ncols <= kTmemColumns; c += align)
    if ((used_ & unit_mask(c, ncols)) == 0) return c;
  return std::nullopt;
}

void Tmem::take(uint32_t column, uint32_t ncols, const Cta* owner) {
  used_ |= unit_mask(column, ncols);
  allocs_.push_back({column, ncols, owner});
}

bool Tmem::release(uint32_t column, uint32_t ncols, const Cta* owner) {
  for (size_t i = 0; i < allocs_.size(); ++i) {
    const TmemAllocation& a = allocs_[i];
    if (a.column == column && a.ncols == ncols && a.owner == owner) {
      used_ &= ~unit_mask(column, ncols);
      allocs_.erase(allocs_.begin() + static_cast<long>(i));
      return true;
    }
  }
  return false;
}

std::vector<TmemAllocation> Tmem::release_all(const Cta* owner) {
  std::vector<TmemAllocation> r;
  for (size_t i = 0; i < allocs_.size();) {
    if (allocs_[i].owner == owner) {
      r.push_back(allocs_[i]);
      used_ &= ~unit_mask(allocs_[i].column, allocs_[i].ncols);
      allocs_.erase(allocs_.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  return r;
}

uint32_t Tmem::free_columns() const {
  return kTmemColumns - static_cast<uint32_t>(__builtin_popcount(used_)) * kTmemAllocUnit;
}

const TmemAllocation* Tmem::find(const Cta* owner, uint32_t column, uint32_t n) const {
  for (const TmemAllocation& a : allocs_)
    if (a.owner == owner && column >= a.column && column + n <= a.column + a.ncols) return &a;
  return nullptr;
}

std::string Tmem::describe_allocations() const {
  if (allocs_.empty()) return "none";
  std::vector<TmemAllocation> v = allocs_;
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.column < b.column; });
  std::string r;
  for (const TmemAllocation& a : v)
    r += fmt::format("{}columns {}-{} ({})", r.empty() ? "" : ", ", a.column, a.column + a.ncols - 1,
                     a.owner ? a.owner->name() : std::string("?"));
  return r;
}

}  // namespace tcsim::sim
