#include "sim/units/bulk_copy_group.h"

#include <algorithm>

namespace tcsim::sim::tma {

BulkGroups::Thread& BulkGroups::at(uint32_t thread) {
  if (threads_.size() <= thread) threads_.resize(thread + 1);
  return threads_[thread];
}

void BulkGroups::add(uint32_t thread, Cycles done, Cycles read_done) {
  Thread& t = at(thread);
  t.open.done = max(t.open.done, done);
  t.open.read_done = max(t.open.read_done, read_done);
  ++t.open_ops;
}

void BulkGroups::commit(uint32_t thread, Cycles now) {
  Thread& t = at(thread);
  // Completed groups are no longer pending: dropping them keeps every wait's answer (wait_group N
  // counts the N most recent *pending* groups) and the history short.
  std::erase_if(t.committed, [&](const Group& g) { return g.done <= now; });
  // An empty group is legal (PTX ISA §9.7.9.25.6.1) and complete at once.
  t.committed.push_back(t.open);
  t.open = Group{};
  t.open_ops = 0;
}

Cycles BulkGroups::wait_until(uint32_t thread, uint32_t n, bool read) const {
  if (thread >= threads_.size()) return Cycles(0);
  const Thread& t = threads_[thread];
  Cycles until(0);
  const size_t k = t.committed.size();
  for (size_t i = 0; i + n < k; ++i) until = max(until, read ? t.committed[i].read_done : t.committed[i].done);
  return until;
}

uint32_t BulkGroups::pending(uint32_t thread, Cycles now) const {
  if (thread >= threads_.size()) return 0;
  uint32_t p = 0;
  for (const Group& g : threads_[thread].committed) p += g.done > now;
  return p;
}

uint32_t BulkGroups::uncommitted(uint32_t thread) const {
  return thread < threads_.size() ? threads_[thread].open_ops : 0;
}

}  // namespace tcsim::sim::tma
