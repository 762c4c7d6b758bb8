// How much memory this host can still give the process, and the check that turns a spec asking for
// more (a 1 TiB buffer, a .npy file larger than RAM) into one line naming the spec field, before
// anything is allocated, instead of std::bad_alloc or the kernel's OOM killer mid-run.
#pragma once
#include <cstdint>
#include <string>

namespace tcsim::spec {

// Bytes available to this process now: the smallest of /proc/meminfo's MemAvailable and, inside a
// container, what the cgroup (v2 memory.max - memory.current, or v1 limit - usage) still allows.
// 0 when none of these can be read (then no check is made).
uint64_t host_memory_available();

// SpecError "FILE: PATH: <what> needs <need>, but this host has <available> available" when `need`
// bytes exceed what host_memory_available() reports. TCSIM_HOST_MEMORY_BYTES overrides the figure
// (tests).
void check_host_memory(uint64_t need, const std::string& file, const std::string& json_path,
                       const std::string& what);

}  // namespace tcsim::spec
