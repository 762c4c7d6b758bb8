// The timing model of one launch: the GPU's profile (models/timing) turned into the numbers the
// simulator uses per issue (docs/timing_model.md). Built once per launch and shared read-only by
// every partition; this is the one place the simulator reads timing parameters from (the seam):
// no unit has a latency or bandwidth of its own.
#pragma once
#include <cstdint>

#include "models/timing/profile.h"
#include "sim/cycles.h"
#include "sim/timing/instr_timing.h"

namespace tcsim::sim::timing {

// Fixed-point cycles: pipe occupancy and bandwidth queues keep fractions of a cycle (a pipe of
// 124 lanes per SM takes 32 * 4 / 124 = 1.03 cycles per warp instruction).
inline constexpr uint64_t kQ = 16;
constexpr uint64_t to_q(double cycles) { return static_cast<uint64_t>(cycles * kQ + 0.5); }
constexpr Cycles from_q(uint64_t q) { return Cycles((q + kQ - 1) / kQ); }

struct PipeCost {
  uint32_t latency = 1;     // issue to a dependent instruction's issue (cycles)
  uint32_t interval_q = kQ; // the sub-partition's pipe is busy this long per warp instruction
};

// What an atomic costs by its operation and type (kernels/ubench/gaps.cu atom rows): integer
// operations, f32/f16x2/bf16x2 adds and f64 adds are performed by the L2 (each at its own rate on
// one word), cas too; scalar f16/bf16 adds are a load + cas loop in SASS (Emulated16). In shared
// memory every floating-point add is a compare-and-swap loop (ATOMS.CAST.SPIN).
enum class AtomKind : uint8_t { Int, Float, F64, Cas, Emulated16 };

class Model {
 public:
  // `clock_mhz` > 0 pins the clock (bandwidths given in GB/s become bytes per SM cycle at it);
  // otherwise the profile's boost clock.
  Model(const models::timing::Profile& p, double clock_mhz);

  const models::timing::Profile& p;
  double clock_mhz;               // the clock used to convert ns and GB/s into cycles
  bool clock_pinned = false;
  bool steady_clock = false;      // DeviceOptions::steady_clock (set after construction)
  PipeCost pipe[kNumPipes];
  double hbm_bytes_per_clk = 0;   // GPU-wide, per SM cycle
  double l2_bytes_per_clk = 0;
  double atom_same_word_cycles = 0;        // integer operations on one word, per operation
  double atom_float_same_word_cycles = 0;  // f32 / f16x2 / bf16x2 add
  double atom_emulated_same_word_cycles = 0;  // scalar f16 / bf16 add: a CAS loop in SASS
  double atom_f64_same_word_cycles = 0;
  double atom_cas_same_word_cycles = 0;
  // The L2 cycles one atomic operation of `kind` holds its word.
  double atom_word_cycles(AtomKind kind) const {
    switch (kind) {
      case AtomKind::Float: return atom_float_same_word_cycles;
      case AtomKind::Emulated16: return atom_emulated_same_word_cycles;
      case AtomKind::F64: return atom_f64_same_word_cycles;
      case AtomKind::Cas: return atom_cas_same_word_cycles;
      default: return atom_same_word_cycles;
    }
  }

  // A 32-bit div/rem whose register divisor was ready at `divisor_ready` and that issues at `now`:
  // ptxas's sequence (PTX ISA §9.7.1.8 div, §9.7.1.9 rem; SASS I2F.RP, MUFU.RCP, F2I, then the
  // quotient's IMADs) starts with the divisor's reciprocal, which ptxas hoists out of a loop whose
  // divisor is invariant and otherwise schedules as early as the divisor allows. Measured: the
  // quotient alone pipe.idiv.latency, through the divisor that plus pipe.idiv.divisor_latency
  // (kernels/ubench/outliers.cu idiv rows). Extra cycles on top of pipe.idiv.latency.
  uint64_t idiv_divisor_extra(uint64_t divisor_ready, uint64_t now) const {
    const uint64_t d = static_cast<uint64_t>(p.idiv_divisor_latency);
    return divisor_ready + d > now ? divisor_ready + d - now : 0;
  }

  // Cycles of one tcgen05.mma (PTX ISA §9.7.16.10) by the published B200 formulas: the initiation
  // interval (the SM's tensor pipe is busy), the shared-memory port cycles its operand reads take,
  // and the latency from issue to a tcgen05.commit's mbarrier completing, as a try_wait sees it.
  struct Tcgen05Mma {
    double ii;
    double smem_cycles;
    double latency;
  };
  Tcgen05Mma tcgen05_mma(int cta_group, uint32_t m, uint32_t n, bool a_from_tmem) const;
  // A Hopper wgmma m64nNk(32 B) (PTX ISA §9.7.15.5): pipe cycles (II), SMEM cycles, latency.
  struct Wgmma {
    double ii;
    double smem_cycles;
    double latency;
  };
  Wgmma wgmma(uint32_t n, bool a_from_regs) const;
};

}  // namespace tcsim::sim::timing
