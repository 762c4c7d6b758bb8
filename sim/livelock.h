// Livelock detection: a launch whose warps keep running but in which nothing can change any more.
//
// Progress is anything another thread could observe or wait for: a store to global or shared memory
// (local and parameter stores are private to their thread and do not count), an atomic or
// reduction, a barrier arrival (bar/barrier, barrier.cluster.arrive, mbarrier arrive/expect_tx/
// complete_tx/init), an asynchronous operation issued (cp.async, TMA, st.async, tcgen05.mma/cp/st/
// commit, wgmma) and its completion landing (every event of a partition's queue), a thread exiting,
// a CTA launched, and a read of a clock register (%clock, %clock64, %globaltimer: its value changes
// while a warp waits on it, so a time-out loop is not a livelock). A nanosleep, a load, a
// test_wait/try_wait poll and a branch are not progress.
//
// The launch (sim/launch.cc) counts progress per partition; when none happened for
// DeviceOptions::livelock_cycles simulated cycles (models::kLivelockWindowCycles by default), no
// asynchronous completion is still scheduled anywhere and every live warp waits (blocked, asleep,
// or polling: at most kComputeStretch instructions since its last poll), it ends the launch with a report like the
// deadlock report (spin_report, sim/deadlock_report.h): each group of identical spinning warps with its PTX and
// CUDA line, the loop it runs, the barrier it waits on and what it last read.
//
// Exact repeats (docs/hostile_input.md "Livelock"): the window above needs millions of simulated
// cycles, which take minutes on a full machine of spinning warps. So once nothing but loads and
// branches happened for models::kLivelockRepeatCycles (or the window, when it is shorter) and no
// asynchronous completion is scheduled, the launch opens a quiet epoch (LaunchState::repeat_epoch):
// each warp then records its whole architectural state (Warp::snapshot: registers, predicates,
// thread groups with their pcs, masks, states and reconvergence points, call frames, exited lanes,
// barrier bookkeeping, a count of its writes to its own local and parameter memory) at every
// backward branch and compares it with an earlier one (RepeatDetector, Brent's cycle finding). A
// loads-only loop reads memory nobody changes, so a warp back in an exact earlier state with nothing
// changed in between runs the same instructions forever: when every live warp has repeated a state
// or waits with no time-out, the launch ends with the livelock report at once. A fresh-address load
// is progress for the window but not here (it changes nothing; a loop walking memory changes its
// address registers, so it never repeats). Anything that is progress closes the epoch. An mbarrier
// test_wait/try_wait poll counts as a private write (it advances the barrier's count of fruitless
// polls, sim/warp.cc is_mbarrier_wait), so such loops end in the deadlock report as before.
#pragma once
#include <cstdint>
#include <vector>

#include "isa/ptx/ir.h"

namespace tcsim::sim {

// What executing `in` (with at least one active lane) means for livelock detection (Program::progress).
inline constexpr uint8_t kNoProgress = 0;
inline constexpr uint8_t kProgress = 1;  // progress (see above)
inline constexpr uint8_t kPoll = 2;      // a wait: mbarrier test_wait/try_wait, nanosleep (loads: Warp::note_read)
inline constexpr uint8_t kPrivateStore = 3;  // a store to the thread's own local or parameter memory
uint8_t progress_kind(const isa::ptx::Instr& in);

// A warp that ran more than this many instructions since its last poll is computing, not spinning:
// while any warp computes, no livelock is reported (a long register-only computation, a delay loop,
// is the watchdog's to judge, sim/launch.h).
inline constexpr uint64_t kComputeStretch = 4096;

// A warp whose architectural state is larger than this many 64-bit words is not compared (unoptimised
// code with thousands of registers: the copy would cost as much host memory as its registers); the
// window judges it.
inline constexpr size_t kMaxSnapshotWords = size_t{1} << 13;

// Finds a repeat in the sequence of states one warp passes through at its backward branches within
// one quiet epoch: Brent's algorithm (one saved state, replaced after 1, 2, 4, ... steps), so a
// cycle of L branches after a lead-in of M is found within about 2 max(M, L) + L branches, with one
// saved copy. States are compared word for word: a repeat is exact, never a hash collision.
class RepeatDetector {
 public:
  // `state` is the warp's state at a backward branch during epoch `epoch` (not 0); it may be
  // swapped with the saved one. Returns true when the warp has been in this state before in the
  // epoch (and from then on for the epoch).
  bool observe(uint64_t epoch, std::vector<uint64_t>& state);
  bool repeated(uint64_t epoch) const { return epoch != 0 && epoch_ == epoch && repeated_; }
  // Forgets the saved state: the next observation starts over.
  void restart() { epoch_ = 0; }

 private:
  uint64_t epoch_ = 0;
  std::vector<uint64_t> saved_;
  uint64_t power_ = 1, steps_ = 0;
  bool repeated_ = false;
};

}  // namespace tcsim::sim
