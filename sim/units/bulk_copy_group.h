// Bulk async-groups (PTX ISA §9.7.9.25.6.1 cp.async.bulk.commit_group, §9.7.9.25.6.2
// cp.async.bulk.wait_group): per thread, the bulk operations with .bulk_group completion that were
// issued since the last commit form the next group when it commits (possibly an empty one);
// wait_group N returns once at most the N most recent groups are pending, wait_group.read N once
// their source reads are done (the source shared memory may then be reused, the writes may still be
// in flight).
//
// Every operation's completion cycle is fixed when it is issued (the engines post their effects
// then), so a group is just two cycles — all its writes done, all its reads done — and a wait is a
// sleep until the latest such cycle among the groups it waits for. Groups complete in commit order
// as far as a waiter can tell (a later group may finish first; wait_group N waits for every older
// group either way).
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/cycles.h"

namespace tcsim::sim::tma {

class BulkGroups {
 public:
  // A bulk operation of `thread` whose source reads finish at `read_done` and whose writes land at
  // `done` (read_done <= done).
  void add(uint32_t thread, Cycles done, Cycles read_done);
  void commit(uint32_t thread, Cycles now);
  // The cycle at which wait_group{.read} N of `thread` may return (<= now: at once).
  Cycles wait_until(uint32_t thread, uint32_t n, bool read) const;
  // Groups of `thread` committed and not yet known complete at `now` (for reports).
  uint32_t pending(uint32_t thread, Cycles now) const;
  // Operations issued but never committed, over all threads (a bulk_group op nobody commits can
  // never be waited for: reported at exit).
  uint32_t uncommitted(uint32_t thread) const;

 private:
  struct Group {
    Cycles done, read_done;
  };
  struct Thread {
    Group open{};         // the operations since the last commit
    uint32_t open_ops = 0;
    std::deque<Group> committed;
  };
  Thread& at(uint32_t thread);
  std::vector<Thread> threads_;
};

}  // namespace tcsim::sim::tma
