// The queue of one asynchronous unit of an SM (the tensor core, the TMA unit): the completion
// cycles of the operations it accepted and has not finished. The hardware holds a bounded number
// of them (tcgen05.queue_depth, tma.queue_depth in models/timing); a warp whose next instruction
// would enter a full queue does not issue until the oldest one completes (sim/sm.cc timing_ready),
// so the operations a kernel has in flight, and the host memory that holds them, stay bounded
// whatever the kernel issues (docs/hostile_input.md "Back-pressure").
//
// Completion cycles are known at issue (the timing model computes them then); they need not arrive
// in issue order (a TMA load hitting the L2 overtakes an earlier miss), so the queue keeps them
// sorted. Operations whose completion is at or before `now` have left it.
#pragma once
#include <cstdint>
#include <iterator>
#include <set>

namespace tcsim::sim::timing {

class UnitQueue {
 public:
  void push(uint64_t done) { done_.insert(done); }
  // The first cycle, from `now` on, at which the queue holds fewer than `depth` operations (`now`
  // when it does already; depth 0 is taken as 1).
  uint64_t free_at(uint64_t now, uint64_t depth) {
    while (!done_.empty() && *done_.begin() <= now) done_.erase(done_.begin());
    if (depth == 0) depth = 1;
    if (done_.size() < depth) return now;
    // The queue drops below `depth` when its (size - depth + 1)-th earliest operation completes.
    return *std::next(done_.begin(), static_cast<std::ptrdiff_t>(done_.size() - depth));
  }
  size_t size() const { return done_.size(); }

 private:
  std::multiset<uint64_t> done_;
};

}  // namespace tcsim::sim::timing
