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
#pragma once
#include "isa/ptx/ir.h"

namespace tcsim::sim {

// What executing `in` (with at least one active lane) means for livelock detection (Program::progress).
inline constexpr uint8_t kNoProgress = 0;
inline constexpr uint8_t kProgress = 1;  // progress (see above)
inline constexpr uint8_t kPoll = 2;      // a wait: mbarrier test_wait/try_wait, nanosleep (loads: Warp::note_read)
uint8_t progress_kind(const isa::ptx::Instr& in);

// A warp that ran more than this many instructions since its last poll is computing, not spinning:
// while any warp computes, no livelock is reported (a long register-only computation, a delay loop,
// is the watchdog's to judge, sim/launch.h).
inline constexpr uint64_t kComputeStretch = 4096;

}  // namespace tcsim::sim
