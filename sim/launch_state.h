// Read-only facts of one kernel launch, shared by every partition (safe to read in parallel).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/api.h"
#include "models/machine/machine_config.h"
#include "models/machine/shared_memory.h"
#include "sim/memory/global_memory.h"
#include "sim/program.h"

namespace tcsim::sim::timing {
class Model;
}

namespace tcsim::sim::global_race {
class State;
}

namespace tcsim::sim {

using models::MachineConfig;
using models::kMaxRegisterBytesPerSm;

struct LaunchState {
  const Program* prog = nullptr;
  LaunchConfig cfg;
  const MachineConfig* machine = nullptr;
  models::SmemLayout smem;                     // every CTA's shared memory (models/machine/shared_memory.h)
  isa::Arch arch = isa::Arch::Sm100a;          // the modelled architecture (tensor-map rules: TMA)
  GlobalMemory* gm = nullptr;                  // read-only during a quantum
  std::vector<uint8_t> params;                 // kernel parameter buffer
  std::string kernel;                          // .entry name
  std::string ptx_name;                        // source name given to load_ptx
  const std::vector<std::string>* ptx_lines = nullptr;  // PTX text lines, for messages
  uint32_t module_id = 0;
  uint64_t grid_id = 1;
  Dim3 cluster;                                // cluster dims (1,1,1 when none)
  bool explicit_cluster = false;
  bool check = true;                           // DeviceOptions::check (the checker's hazard tracking)
  global_race::State* global_race = nullptr;   // the global race detector (sim/checker/global_race.h), when checking
  bool perturb = false;                        // schedule perturbation (DeviceOptions::schedule)
  uint64_t max_warp_steps = ~uint64_t{0};      // per-warp watchdog (DeviceOptions::max_warp_steps)
  uint32_t stack_size_bytes = 1024;            // cudaLimitStackSize (DeviceOptions::stack_size_bytes)
  uint64_t schedule_seed = 0;
  const timing::Model* timing = nullptr;       // the timing model of this launch (sim/timing/model.h)
  bool timing_only = false;                    // DeviceOptions::timing_only
  bool skip_tma_copies = false;                // timing_only && !DeviceOptions::timing_only_copies
  uint64_t trace_events = 0;                   // DeviceOptions::trace_events
  // The quiet epoch of exact-repeat livelock detection (sim/livelock.h), 0 when none is open. Set by
  // the launch at quantum boundaries only; warps read it while they run.
  uint64_t repeat_epoch = 0;
};

}  // namespace tcsim::sim
