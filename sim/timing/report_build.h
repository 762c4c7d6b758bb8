// Building the launch's timing report from the SMs' and partitions' counters (sim/timing/report.cc).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/timing/model.h"
#include "sim/timing/report.h"
#include "sim/timing/state.h"

namespace tcsim::sim::timing {

struct RunTotals {
  uint64_t cycles = 0;
  std::vector<const SmTiming*> sms;
  std::vector<const PartitionTiming*> parts;
};

// The kernel's time at the modelled clock (docs/timing_model.md "Clock"): the pinned clock, the
// boost clock, or — tensor-bound — the ramp from boost to the sustained clock. `note` says which.
double kernel_seconds(const Model& M, uint64_t cycles, bool tensor_bound, std::string* note);

TimingReport build_report(const Model& M, const RunTotals& totals);

}  // namespace tcsim::sim::timing
