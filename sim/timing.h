// Functional-mode latencies: the number of cycles after an issue before the same warp may issue
// again, per timing class (isa/ptx/opcodes.def). Small fixed values: functional mode orders events
// on the one clock but does not model pipelines (the timing model replaces this table later).
#pragma once
#include <cstdint>

#include "isa/ptx/opcodes.h"
#include "sim/cycles.h"

namespace tcsim::sim {

// Source for every value: assumed (functional mode); chosen so that memory operations and
// double-precision/transcendental ops cost a little more than ALU ops, nothing more.
inline Cycles functional_latency(uint8_t timing_class) {
  using T = isa::ptx::Timing;
  switch (static_cast<T>(timing_class)) {
    case T::Fp64: return Cycles(2);
    case T::Sfu: return Cycles(2);
    case T::Memory: return Cycles(4);
    case T::Atomic: return Cycles(4);
    default: return Cycles(1);
  }
}

// Cycles from the last arrival at a CTA barrier until the waiting warps may issue (assumed).
inline constexpr Cycles kBarrierReleaseLatency{1};

}  // namespace tcsim::sim
