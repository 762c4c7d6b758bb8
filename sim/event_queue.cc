#include "sim/event_queue.h"

namespace tcsim::sim {

void EventQueue::post(Cycles when, EventPriority prio, Callback cb) {
  heap_.push(Event{when, prio, seq_++, std::move(cb)});
}

size_t EventQueue::run_due(Cycles now) {
  size_t n = 0;
  while (!heap_.empty() && heap_.top().when <= now) {
    Event e = heap_.top();
    heap_.pop();
    e.cb(e.when);
    ++n;
  }
  return n;
}

}  // namespace tcsim::sim
