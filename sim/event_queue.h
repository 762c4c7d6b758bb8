// The event queue of one simulation partition: callbacks at a simulated cycle, ordered by
// (cycle, priority, insertion order) so same-cycle events always run in the same documented order.
// Asynchronous units (TMA engine, tensor cores, cp.async, st.async/red.async) post their
// completions here; their effects become visible only when the event runs (sim/README.md "One clock").
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "sim/cycles.h"

namespace tcsim::sim {

// Same-cycle order, lowest first. Warps issue after every event of their cycle (the scheduler runs
// once a cycle's events are drained), so an instruction always observes all state changes with
// the same or an earlier cycle.
enum class EventPriority : uint8_t {
  // Data of an asynchronous operation lands (bytes in shared memory, D in TMEM): first, so that
  // anything which observes the operation's completion in this cycle also sees its data.
  AsyncDataLand = 0,
  // Arrive / complete-tx on an mbarrier caused by completed async operations: after their data
  // landed, so a phase never flips before the bytes it tracks are visible. Waiters woken by the
  // phase (and timed wake-ups: nanosleep, try_wait limits, which are warp state, not events)
  // issue after every event of the cycle.
  MbarrierUpdate = 1,
};

class EventQueue {
 public:
  using Callback = std::function<void(Cycles)>;

  void post(Cycles when, EventPriority prio, Callback cb);
  // Runs every event due at or before `now`, in order; callbacks may post more events (also run
  // if due). Returns the number run.
  size_t run_due(Cycles now);
  Cycles next_time() const { return heap_.empty() ? Cycles::never() : heap_.top().when; }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }

 private:
  struct Event {
    Cycles when;
    EventPriority prio;
    uint64_t seq;
    Callback cb;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      if (a.when != b.when) return a.when > b.when;
      if (a.prio != b.prio) return a.prio > b.prio;
      return a.seq > b.seq;
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> heap_;
  uint64_t seq_ = 0;
};

}  // namespace tcsim::sim
