#include "sim/exec/warp_collective.h"

#include <fmt/format.h>

#include "sim/warp.h"

namespace tcsim::sim {

std::string lane_list(uint32_t mask) {
  std::string r;
  for (int i = 0; i < 32;) {
    if (!(mask >> i & 1)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < 32 && (mask >> (j + 1) & 1)) ++j;
    r += fmt::format("{}{}", r.empty() ? "" : ",", i == j ? fmt::format("{}", i) : fmt::format("{}-{}", i, j));
    i = j + 1;
  }
  return r.empty() ? "none" : r;
}

bool await_converged_warp(ExecCtx& c, std::string_view what, std::string_view sec) {
  const uint32_t valid = c.warp->valid(), exited = c.warp->exited() & valid, live = valid & ~exited;
  if (c.mask == live && !exited) return true;
  const int first = __builtin_ctz(c.mask);
  if (exited)
    c.fail(first, fmt::format("{} must be executed by all 32 threads of the warp convergently (it is "
                              ".sync.aligned), but lanes {} of the warp have exited (undefined behaviour, {})",
                              what, lane_list(exited), sec));
  if (c.mask != c.group_mask)
    c.fail(first, fmt::format("{} must be executed by all 32 threads of the warp convergently (it is "
                              ".sync.aligned), but lanes {} reach it with a false guard predicate (a condition that is not warp-uniform: undefined "
                              "behaviour, {})",
                              what, lane_list(c.group_mask & ~c.mask), sec));
  // Lanes of the warp still on their way (diverged earlier): wait for them here, as the WARPSYNC
  // ptxas puts before the instruction does.
  c.flow = Flow::WaitSync;
  return false;
}

}  // namespace tcsim::sim
