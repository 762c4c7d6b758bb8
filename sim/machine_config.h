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

// Host-memory guard, not a hardware number: resident CTAs of one SM may hold at most this many
// bytes of simulated registers (PTX virtual registers, 8 bytes x 32 lanes each per warp). Unoptimised
// (-G) code declares thousands of registers; without the cap a full machine would need gigabytes.
// Lowers occupancy (timing) for such kernels only; never blocks a launch (one CTA always fits).
inline constexpr uint64_t kMaxRegisterBytesPerSm = uint64_t{4} << 20;

const MachineConfig& machine_config(isa::Arch arch);

}  // namespace tcsim::sim
