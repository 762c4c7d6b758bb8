// corpus_timer: runs many launch specs on the GPU in one process, so that one Nsight Compute
// session times them all (kernels/ubench/README.md "Corpus"). Each spec runs exactly as
// `tcsim-hw run` runs it (tools/spec/runner.h over tools/tcsim-hw's CudaBackend: one kernel launch
// per spec), PASSES times over the whole list; before each launch it prints
//   LAUNCH <n> <pass> <spec>
// so the n-th profiled kernel of the ncu report is the n-th LAUNCH line. A spec that fails prints
// `FAILED <n> <spec>: <message>` and the run goes on (its launch number is not used).
//   usage: corpus_timer LIST_FILE PASSES       (LIST_FILE: one spec path per line)
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tools/spec/launch_spec.h"
#include "tools/spec/runner.h"
#include "tools/tcsim-hw/cuda_backend.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: corpus_timer LIST_FILE PASSES\n");
    return 2;
  }
  std::vector<std::string> specs;
  {
    std::ifstream in(argv[1]);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') specs.push_back(line);
  }
  const int passes = std::atoi(argv[2]);
  try {
    // Holds the primary context for the whole run (each spec's backend retains and releases it).
    tcsim::hw::CudaBackend keeper(0);
    fmt::print("# corpus_timer on {} (cc {}, driver API {}), {} specs x {} passes\n", keeper.gpu_name(),
               keeper.compute_capability(), keeper.driver_version(), specs.size(), passes);
    int n = 0;
    for (int pass = 0; pass < passes; ++pass)
      for (const std::string& path : specs) {
        try {
          const tcsim::spec::LaunchSpec s = tcsim::spec::load_spec(path);
          const std::string ptx = tcsim::spec::read_ptx(s);
          tcsim::hw::CudaBackend be(0);
          fmt::print("LAUNCH {} {} {}\n", n, pass, path);
          std::fflush(stdout);
          ++n;
          const tcsim::spec::RunResult r = tcsim::spec::run_spec(s, ptx, be);
          fmt::print("DONE {} {:.4f} ms (events)\n", r.kernel, be.last_elapsed_ms());
        } catch (const std::exception& e) {
          fmt::print("FAILED {} {}: {}\n", n - 1, path, e.what());
        }
        std::fflush(stdout);
      }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corpus_timer: %s\n", e.what());
    return 2;
  }
  return 0;
}
