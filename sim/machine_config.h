// The simulated GPU's shape: SM and GPC counts, per-SM limits, clock. Data, not code (DESIGN.md
// "Data, not code, for the machine's numbers"); every value carries its source.
#pragma once
#include <cstdint>

#include "isa/arch.h"

namespace tcsim::sim {

struct MachineConfig {
  const char* name;
  uint32_t num_sms;
  uint32_t num_gpcs;              // simulation partitions: a GPC's SMs advance together
  uint32_t max_threads_per_sm;
  uint32_t max_ctas_per_sm;
  uint32_t max_warps_per_sm;
  uint32_t smem_per_sm;           // bytes usable by CTAs of one SM
  uint32_t max_smem_per_cta;      // bytes (static + dynamic), the opt-in maximum
  uint32_t clock_mhz;             // for %globaltimer (ns) from cycles
  uint32_t max_cluster_size;      // portable cluster size limit (non-portable 16 needs an attribute)
};

const MachineConfig& machine_config(isa::Arch arch);

}  // namespace tcsim::sim
