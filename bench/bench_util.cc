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
  return fmt::format("cpu: {}, {} logical cores, compiler {} {}, {} build", model,
                     std::thread::hardware_concurrency(),
#if defined(__clang__)
                     "clang", __clang_version__,
#else
                     "gcc", __VERSION__,
#endif
                     build);
}

}  // namespace tcsim::bench
