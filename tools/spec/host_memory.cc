// Host memory available to the process (host_memory.h).
#include "tools/spec/host_memory.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "tools/spec/input_file.h"
#include "tools/spec/spec_error.h"

namespace tcsim::spec {
namespace {

// The first number in a small procfs/sysfs file; nullopt-like 0 with ok=false when absent or "max".
bool read_number(const char* path, uint64_t* v) {
  std::ifstream f(path);
  std::string s;
  if (!(f >> s) || s == "max") return false;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(s.c_str(), &end, 10);
  if (end == s.c_str()) return false;
  *v = x;
  return true;
}

uint64_t meminfo_available() {
  std::ifstream f("/proc/meminfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream is(line.substr(13));
    uint64_t kb = 0;
    if (is >> kb) return kb * 1024;
  }
  return 0;
}

}  // namespace

uint64_t host_memory_available() {
  uint64_t avail = meminfo_available();
  auto limit_by = [&](uint64_t lim, uint64_t used) {
    if (lim >= (uint64_t{1} << 60)) return;  // "no limit" as a huge number (cgroup v1)
    const uint64_t left = lim > used ? lim - used : 0;
    avail = avail ? std::min(avail, left) : left;
  };
  uint64_t lim = 0, used = 0;
  if (read_number("/sys/fs/cgroup/memory.max", &lim) && read_number("/sys/fs/cgroup/memory.current", &used))
    limit_by(lim, used);
  else if (read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes", &lim) &&
           read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes", &used))
    limit_by(lim, used);
  return avail;
}

void check_host_memory(uint64_t need, const std::string& file, const std::string& json_path,
                       const std::string& what) {
  uint64_t avail = 0;
  if (const char* o = std::getenv("TCSIM_HOST_MEMORY_BYTES")) avail = std::strtoull(o, nullptr, 10);
  else avail = host_memory_available();
  if (avail == 0 || need <= avail) return;
  throw spec_error(file, json_path,
                   fmt::format("{} needs {} of host memory, but this host has {} available (tcsim keeps "
                               "device memory in host memory)", what, format_bytes(need), format_bytes(avail)));
}

}  // namespace tcsim::spec
