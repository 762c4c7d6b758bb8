// The devices libtcsim-cuda presents (cuDeviceGetName, cuDeviceTotalMem, cuDeviceGetAttribute):
// a B200 (sm_100a, the default) or an H200 (sm_90a). The SM count, per-SM limits and clock are the
// simulator's own (sim/machine_config.h: the machine that runs the kernels); the numbers only a
// driver reports are data here (device_props.cc), each with its source. Capabilities tcsim does
// not provide (managed memory, IPC, virtual memory management, ...) are reported absent, so that a
// program that checks before using them takes its fallback path.
#pragma once
#include <cuda.h>

#include <cstdint>
#include <optional>
#include <string>

#include "isa/arch.h"

namespace tcsim::cudrv {

struct DeviceProps {
  const char* name;            // cuDeviceGetName
  int cc_major, cc_minor;
  uint64_t total_mem;          // bytes (cuDeviceTotalMem)
  int memory_clock_khz;        // CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE
  int memory_bus_width;        // bits
  int l2_bytes;                // CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE
  int max_persisting_l2_bytes; // CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE
  int async_engines;           // CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT
  double dram_gb_per_s;        // device memory bandwidth: device-to-device copies (simulated time)
  double host_gb_per_s;        // host <-> device copies (simulated time)
};

const DeviceProps& device_props(isa::Arch arch);

// cuDeviceGetAttribute for the device of `arch`; nullopt for an attribute this driver does not know
// (a newer cuda.h than the one it was built with).
std::optional<int> device_attribute(isa::Arch arch, CUdevice_attribute attr);

}  // namespace tcsim::cudrv
