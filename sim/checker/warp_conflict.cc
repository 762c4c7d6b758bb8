// Intra-warp write conflicts (see warp_conflict.h).
#include "sim/checker/warp_conflict.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "sim/address_space.h"
#include "sim/checker/race.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/report/report.h"
#include "sim/warp.h"

namespace tcsim::sim::warp_conflict {

namespace {

std::string hex_bytes(const uint8_t* p, uint32_t n) {
  std::string s = "0x";
  for (uint32_t i = n; i-- > 0;) s += fmt::format("{:02x}", p[i]);  // little-endian: most significant first
  return s;
}

}  // namespace

void on_store(ExecCtx& c, uint32_t mask, const uint64_t* where, const uint8_t* data, uint32_t size, bool generic) {
  if (!c.checking() || (mask & (mask - 1)) == 0) return;
  const uint32_t pc = c.prog->pc_of(*c.warp->current());
  if (pc < c.prog->mem_order.size() && (c.prog->mem_order[pc] & race::kStrong)) return;
  // Lanes in order of address; the common case (addresses strictly increasing or decreasing with
  // the lane) has no two equal and is settled in one pass.
  uint8_t lanes[32];
  uint32_t n = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const uint32_t l = static_cast<uint32_t>(__builtin_ctz(m));
    if (generic) {
      const addr::Window w = addr::classify(where[l]);
      if (w != addr::Window::Global && w != addr::Window::Shared) continue;  // per-thread memory
    }
    lanes[n++] = static_cast<uint8_t>(l);
  }
  if (n < 2) return;
  bool up = true, down = true;
  for (uint32_t i = 1; i < n && (up || down); ++i) {
    up = up && where[lanes[i]] > where[lanes[i - 1]];
    down = down && where[lanes[i]] < where[lanes[i - 1]];
  }
  if (up || down) return;
  std::stable_sort(lanes, lanes + n, [&](uint8_t a, uint8_t b) { return where[a] < where[b]; });
  for (uint32_t i = 1; i < n; ++i) {
    const uint32_t a = lanes[i - 1], b = lanes[i];
    if (where[a] != where[b]) continue;
    // Same address: compare with the first lane of the run (the run's lanes in lane order).
    uint32_t first = i - 1;
    while (first > 0 && where[lanes[first - 1]] == where[a]) --first;
    const uint32_t l0 = lanes[first];
    if (std::memcmp(data + size_t{l0} * size, data + size_t{b} * size, size) == 0) continue;
    const Dim3 id = c.cta->ctaid();
    report(c, Rule::WarpWriteConflict, static_cast<int>(b), [&] {
      return fmt::format(
          "lanes {} and {} of CTA ({},{},{}) warp {} store different values to the same {} bytes at 0x{:x} ({} "
          "and {}) in one instruction: the lanes are unordered threads, so which value remains is undefined (the "
          "GPU keeps one of them)",
          l0, b, id.x, id.y, id.z, c.warp->id(), size, where[b], hex_bytes(data + size_t{l0} * size, size),
          hex_bytes(data + size_t{b} * size, size));
    });
    return;  // one report per execution
  }
}

}  // namespace tcsim::sim::warp_conflict
