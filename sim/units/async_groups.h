// Commit/wait groups of asynchronous operations: one tracker for the three kinds the PTX ISA has,
// which share one semantics.
//   cp.async groups      PTX ISA §9.7.9.25.3.2 cp.async.commit_group, §9.7.9.25.3.3 cp.async.wait_group /
//                        cp.async.wait_all; per thread (sim/exec/cp_async.cc)
//   bulk async-groups    PTX ISA §9.7.9.25.6.1 cp.async.bulk.commit_group, §9.7.9.25.6.2
//                        cp.async.bulk.wait_group{.read}; per thread (sim/units/tma_engine.h)
//   wgmma-groups         PTX ISA §9.7.15.7.2 wgmma.commit_group, §9.7.15.7.3 wgmma.wait_group; per
//                        warp of the warpgroup (sim/units/wgmma_unit.cc)
// The operations an owner (a thread, or a warp) issued since its last commit form its next group
// when it commits — possibly an empty one, complete at once. wait_group N returns once every group
// but at most the N most recent ones is complete; the bulk form .read once their source reads are
// done (the source memory may be reused; the writes may still be in flight).
//
// An operation's completion is either known when it is issued (the engine posted its effects for a
// fixed cycle: TMA, bulk copies, cp.async) or reported later by its unit (wgmma, whose start waits
// for all four warps): add() takes the cycles, or Cycles::never() and then complete(). A group is
// complete when each of its operations is. Groups complete in commit order as far as a waiter can
// tell (a later group may finish first; wait_group N waits for every older group either way).
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/cycles.h"

namespace tcsim::sim {

class AsyncGroups {
 public:
  // An operation of `owner` joins its open group; `done` / `read_done`: the cycles its writes land
  // and its source reads finish (read_done <= done), or Cycles::never() for an operation its unit
  // completes with complete(). Returns the operation's number (per owner, counting from 0).
  uint64_t add(uint32_t owner, Cycles done = Cycles::never(), Cycles read_done = Cycles::never());
  // Operation `op` of `owner` (added with Cycles::never()) completed at `now`.
  void complete(uint32_t owner, uint64_t op, Cycles now);
  // The open group of `owner` becomes its newest committed group.
  void commit(uint32_t owner, Cycles now);

  struct Wait {
    bool ready = true;        // every group the wait covers is complete at `now`
    Cycles until;             // if not ready: when they will be (Cycles::never(): when a unit says)
    uint64_t covered = 0;     // once the wait returns, operations [0, covered) of the owner are complete
  };
  // wait_group N (the .read form when `read`) of `owner` at `now`. A ready wait forgets the groups it
  // covered.
  Wait wait(uint32_t owner, uint32_t n, bool read, Cycles now);
  // When every operation `owner` issued so far (committed or not) is complete; Cycles::never() while
  // one waits for complete() (cp.async.mbarrier.arrive: "all prior cp.async operations").
  Cycles all_done(uint32_t owner) const;

 private:
  struct Group {
    uint64_t end = 0;          // one past its last operation
    uint32_t outstanding = 0;  // operations waiting for complete()
    Cycles done{0}, read_done{0};
  };
  struct Owner {
    uint64_t issued = 0;
    uint64_t covered = 0;      // operations a returned wait covered
    Group open;
    std::deque<Group> committed;  // oldest first
  };
  // A program that commits groups forever and never waits keeps at most this many; older complete
  // ones are forgotten (a wait_group N with N >= kMaxGroups then counts them as covered).
  static constexpr size_t kMaxGroups = 1024;
  Owner& at(uint32_t owner);
  static bool complete_at(const Group& g, bool read, Cycles now) {
    return g.outstanding == 0 && (read ? g.read_done : g.done) <= now;
  }
  std::vector<Owner> owners_;
};

}  // namespace tcsim::sim
