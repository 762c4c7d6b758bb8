// Runs one kernel launch to completion on the simulated machine.
//
// Determinism with parallelism: simulated time advances in lock-step quanta of kQuantum cycles.
// Within a quantum each partition (the SMs of one GPC) runs on its own host thread; it sees its own
// global stores at once (StoreOverlay) and nobody else's: global memory is read-only during a
// quantum. At the boundary, serially and in partition order: faults are collected (the earliest
// cycle wins, then the lowest SM), overlays are committed, finished CTAs retire, new CTAs (whole
// clusters, within one GPC) are dispatched in a fixed SM order, and the watchdog and deadlock
// checks run. Results therefore depend only on the inputs, never on host thread count or timing.
// (Global atomics, when they land, are applied at the boundary in (cycle, SM, warp, lane) order;
// the issuing warp blocks until then and receives its value.)
#pragma once
#include <cstdint>

#include "sim/api.h"
#include "sim/launch_state.h"
#include "sim/thread_pool.h"

namespace tcsim::sim {

inline constexpr uint64_t kQuantum = 512;  // cycles; also the cross-GPC visibility latency
// Default watchdog (DeviceOptions::max_steps / max_warp_steps): 2^28 warp-instructions in all
// (about 15 s of simulation on one core), or 2^24 by one warp (about 1 s for a plain spin loop,
// 5 s for a nanosleep polling loop). The largest committed kernels stay far below both: the
// warp-specialised GEMM of kernels/tcgen05 executes under 3 million warp-instructions.
inline constexpr uint64_t kDefaultMaxSteps = uint64_t{1} << 28;
inline constexpr uint64_t kDefaultMaxWarpSteps = uint64_t{1} << 24;

LaunchResult run_launch(LaunchState& L, ThreadPool& pool, const DeviceOptions& opts);

}  // namespace tcsim::sim
