// Cycle counts of the tensor-core pipeline (sim/units/tensor_core.h). Data with sources; the
// functional machine needs only their order of magnitude (completion events at plausible times);
// a timing model will replace them with measured values.
#pragma once
#include <cstdint>

#include "isa/mma_kind.h"

namespace tcsim::sim::tc_timing {

// Multiply-adds per cycle per SM of a dense tcgen05.mma, by kind.
// Source: B200 dense tensor throughput (NVIDIA Blackwell datasheet: 2.25 PFLOPS dense FP16/BF16,
// 4.5 PFLOPS FP8/INT8, 9 PFLOPS FP4; TF32 half of FP16) over 148 SMs at ~1.9 GHz gives ~4000
// FP16 MACs/cycle/SM; rounded to powers of two. Assumed, not measured.
constexpr uint32_t macs_per_cycle(isa::MmaKind k) {
  switch (k) {
    case isa::MmaKind::TF32: return 2048;
    case isa::MmaKind::F16: return 4096;
    case isa::MmaKind::F8F6F4:
    case isa::MmaKind::I8:
    case isa::MmaKind::MXF8F6F4: return 8192;
    case isa::MmaKind::MXF4:
    case isa::MmaKind::MXF4NVF4: return 16384;
  }
  return 4096;
}

// Cycles from issue until the pipeline starts the operation (assumed).
inline constexpr uint64_t kIssueLatency = 8;
// Cycles from the end of an operation's work until its results are in TMEM (assumed).
inline constexpr uint64_t kDrainLatency = 32;
// tcgen05.cp: bytes of shared memory read per cycle (assumed: 128 B/cycle, one smem line).
inline constexpr uint64_t kCopyBytesPerCycle = 128;
// tcgen05.shift: cycles of work (assumed).
inline constexpr uint64_t kShiftWork = 16;
// tcgen05.commit: cycles from the last tracked completion to the mbarrier arrive (assumed).
inline constexpr uint64_t kCommitLatency = 1;

}  // namespace tcsim::sim::tc_timing
