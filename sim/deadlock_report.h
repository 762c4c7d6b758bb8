// The deadlock report: what a person needs to act on a launch in which every remaining warp waits
// and nothing can wake it, in a screenful whatever the grid size.
//
//   1. the barriers nobody will complete: each mbarrier some warp waits on, with its state (phase,
//      arrivals pending, tx-count) and its last update (what, by which CTA/warp and instruction, at
//      which cycle), identical states of many CTAs on one line with their count;
//   2. who waits: identical waits (same state, same barrier offset and phase, same instruction)
//      grouped over warps and CTAs, with counts and one example (CTA, warp, lanes);
//   3. the CTA barriers (bar.sync) and cluster barriers in use, grouped the same way.
// Each list shows its first lines and says how many more there are: nothing is dropped silently.
#pragma once
#include <string>
#include <vector>

namespace tcsim::sim {

class Cta;
struct LaunchState;

std::string deadlock_report(const std::vector<const Cta*>& ctas, const LaunchState& L);
// The same lists for a livelock (sim/livelock.h): the warps' groups are "where the warps spin",
// each with the loop it runs and what it last read.
std::string spin_report(const std::vector<const Cta*>& ctas, const LaunchState& L);

}  // namespace tcsim::sim
