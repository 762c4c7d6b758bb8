// The execution context handed to every instruction's execute function, and the lane loops they
// use. An execute function runs one instruction for the active lanes of one thread group of one
// warp: it reads sources (32 lanes each), writes results, and reports control-flow effects through
// `flow`; the warp (sim/warp.cc) applies them. Faults throw SimFault; the partition attaches the
// kernel, PTX line, CTA, warp and lane.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/cycles.h"
#include "sim/launch_state.h"
#include "sim/program.h"

namespace tcsim::sim {

class Warp;
class Cta;
class Sm;
class Partition;

// Control-flow effect of an executed instruction on the executing lanes (ExecCtx::mask). Lanes of
// the group whose guard predicate was false always continue at pc + 1.
enum class Flow : uint8_t {
  Next,          // continue at pc + 1
  Branch,        // continue at ExecCtx::target
  PerLane,       // continue at ExecCtx::lane_target[lane] (brx.idx, indirect targets)
  Call,          // call ExecCtx::target (CallSite index); lanes in ExecCtx::lane_target if indirect
  Ret,           // return (exit when at depth 0)
  Exit,          // lanes exit
  WaitSync,      // the group must wait for other lanes of the warp to reach this pc (warp-sync ops)
  WaitBarrier,   // lanes arrived at CTA barrier ExecCtx::target and wait (pc + 1 on release)
  Sleep,         // lanes continue at pc + 1 after ExecCtx::target cycles
  // The group parks at this pc until an asynchronous unit calls Warp::wake_async() (a wgmma or
  // cp.async group completed, registers returned to the setmaxnreg pool); it then executes the
  // instruction again, which passes or parks once more. Units wake only on a state change, so a
  // wait costs one re-execution per relevant event, not a spin.
  WaitAsync,
  // Lanes suspend (pc + 1 on wake-up) until the mbarrier at ExecCtx::wait_addr completes phase
  // ExecCtx::wait_phase (predicate wait_pred set) or ExecCtx::wait_until passes (never: no limit).
  WaitMbarrier,
  // Lanes wait (pc + 1 on wake-up) until the cluster barrier completes phase ExecCtx::wait_phase.
  WaitClusterBarrier,
};

struct SimFault : std::runtime_error {
  SimFault(int lane_, const std::string& what) : std::runtime_error(what), lane(lane_) {}
  int lane;  // -1 = the whole warp
};

struct ExecCtx {
  const Program* prog = nullptr;
  const LaunchState* launch = nullptr;
  Warp* warp = nullptr;
  Cta* cta = nullptr;
  Sm* sm = nullptr;
  Partition* part = nullptr;
  uint64_t* regs = nullptr;
  uint32_t* preds = nullptr;
  const uint64_t* imm = nullptr;
  uint32_t mask = 0;        // lanes executing (group mask & guard)
  uint32_t group_mask = 0;  // lanes of the executing group
  Cycles now;
  Flow flow = Flow::Next;
  uint32_t target = 0;
  uint32_t rpc = 0xffffffffu;  // reconvergence pc of a divergent branch (immediate post-dominator)
  uint32_t lane_target[32];
  // Flow::WaitMbarrier / WaitClusterBarrier: what the lanes wait for.
  uint32_t wait_addr = 0;
  uint32_t wait_phase = 0;
  Ref wait_pred = 0;
  Cycles wait_until = Cycles::never();
  // Timing (sim/timing): set by execute functions whose cost depends on what they did. `latency`:
  // cycles until the destination registers are ready (memory accesses; 0 = the pipe's latency).
  // `busy`: cycles before this warp may issue again (0 = the next cycle).
  uint32_t latency = 0;
  uint32_t busy = 0;
  // Set by the scheduler: cycles of the release fence before this instruction's arrive takes effect
  // (sim/timing/instr_timing.h kFlagReleaseGpu); arrive paths complete at now + release.
  uint32_t release = 0;

  const uint64_t* src(Ref r) const { return (r & kRefImm) ? imm + uint64_t{r & ~kRefImm} * 32 : regs + uint64_t{r} * 32; }
  uint64_t* dst(Ref r) const { return regs + uint64_t{r} * 32; }
  uint32_t& pred(Ref r) const { return preds[r]; }
  const ExecOperand& op(const ExecInstr& in, uint32_t k) const { return prog->operands[in.first_op + k]; }

  [[noreturn]] void fail(int lane, const std::string& what) const { throw SimFault(lane, what); }
  // The checker's hazard tracking is on (DeviceOptions::check; off with `tcsim run --no-check`).
  bool checking() const { return launch->check; }
};

// Runs f(lane) for every lane in `mask`. The full-warp case is a plain counted loop the compiler
// can vectorise; partial masks visit the set bits.
template <class F>
inline void for_lanes(uint32_t mask, F&& f) {
  if (mask == 0xffffffffu) {
    for (int i = 0; i < 32; ++i) f(i);
  } else {
    while (mask) {
      const int i = __builtin_ctz(mask);
      f(i);
      mask &= mask - 1;
    }
  }
}

// Writes r(lane) to d for the active lanes: computes every lane and blends, which vectorises; only
// for side-effect-free computations of sources that are valid in every lane.
template <class F>
inline void blend_lanes(uint32_t mask, uint64_t* d, F&& r) {
  if (mask == 0xffffffffu) {
    for (int i = 0; i < 32; ++i) d[i] = r(i);
  } else {
    while (mask) {
      const int i = __builtin_ctz(mask);
      d[i] = r(i);
      mask &= mask - 1;
    }
  }
}

}  // namespace tcsim::sim
