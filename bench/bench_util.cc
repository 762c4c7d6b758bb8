#include "bench/bench_util.h"

#include <fstream>
#include <thread>

#include <fmt/core.h>

namespace tcsim::bench {

std::string machine_context() {
  std::string model = "unknown cpu";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
#ifdef NDEBUG
  const char* build = "release";
#else
  const char* build = "debug";
#endif
  // The load average when the benchmark starts: the machine is shared, and wall times (and, less
  // so, CPU times) depend on what else runs.
  std::string load = "?";
  if (std::ifstream la("/proc/loadavg"); la) {
    double l1 = 0, l5 = 0;
    if (la >> l1 >> l5) load = fmt::format("{:.2f} (1 min) {:.2f} (5 min)", l1, l5);
  }
  return fmt::format("cpu: {}, load average {}, {} logical cores, compiler {} {}, {} build", model, load,
                     std::thread::hardware_concurrency(),
#if defined(__clang__)
                     "clang", __clang_version__,
#else
                     "gcc", __VERSION__,
#endif
                     build);
}

}  // namespace tcsim::bench
