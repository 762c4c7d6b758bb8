// Bit-exact multiply-adds per second of whole tcgen05 GEMMs in the simulator (issue 12,
// Performance): the dense bf16 GEMM of kernels/tcgen05/gemm.cu next to the block-scaled GEMMs of
// gemm_mx.cu (MXFP8 e4m3 with UE8M0 scales per 32 K, NVFP4 e2m1 with UE4M3 scales per 16 K), all
// at the same size, run from their bench launch specs exactly as `tcsim run` runs them (TMA,
// mbarrier pipeline, tcgen05.cp of the scale factors, every MMA through models::mma). Each line:
// multiply-adds / wall second and / CPU second of the process (the machine is shared: CPU time is
// the fair per-core measure), and the block-scaled rate as a fraction of the dense one. `--repeat
// N` keeps the fastest of N runs; `--size 2048` runs the 2048^3 specs; `--host-threads N` (default
// 1). `--timing-only 4096,8192` instead times production-size estimates (issue 13): the dense GEMM
// at those sizes with DeviceOptions::timing_only as `tcsim run --timing-only` runs it (TMA tile
// copies skipped, sim/units/uncopied_smem.h), printing CPU and wall seconds and the cycles.
// Prints; asserts nothing.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "bench/bench_util.h"
#include "sim/api.h"
#include "tools/spec/launch_spec.h"
#include "tools/tcsim/sim_backend.h"

using namespace tcsim;

namespace {

double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct Rate {
  double per_core = 0;  // M multiply-adds per CPU second
  bool ok = false;
};

// M, N, K are the first three u32 arguments of every tcgen05 GEMM entry (gemm.cu, gemm_mx.cu).
Rate run_spec(const std::string& path, int repeat, unsigned host_threads) {
  try {
    const spec::LaunchSpec s = spec::load_spec(path);
    std::vector<uint64_t> mnk;
    for (const auto& a : s.args)
      if (a.kind == spec::ArgKind::Scalar && a.scalar == spec::SpecDType::U32) mnk.push_back(a.scalar_bits);
    if (mnk.size() < 3) {
      fmt::print("{}: cannot read M, N, K from the spec's arguments\n", path);
      return {};
    }
    const double macs = double(mnk[0]) * double(mnk[1]) * double(mnk[2]);
    const std::string ptx = spec::read_ptx(s);
    sim::DeviceOptions opts;
    opts.host_threads = host_threads;
    cli::DevicePool pool(opts);
    sim::Device& dev = pool.device(isa::Arch::Sm100a);
    cli::SimBackend backend(dev, s.path, &pool);
    backend.load_module(ptx, s.ptx_path);  // parse + bind outside the timed region
    double best_wall = 0, best_cpu = 0;
    uint64_t cycles = 0;
    for (int r = 0; r < repeat; ++r) {
      const bench::Timer t;
      const double c0 = cpu_seconds();
      cycles = spec::run_spec(s, ptx, backend).outcome.cycles.value_or(0);
      const double cpu = cpu_seconds() - c0, wall = t.seconds();
      if (r == 0 || cpu < best_cpu) best_cpu = cpu, best_wall = wall;
    }
    fmt::print("{:<34} {:>6.2f} G multiply-adds in {:6.2f} s wall, {:6.2f} s CPU: {:7.1f} M/s wall, {:7.1f} M/s per "
               "core (CPU), {} simulated cycles\n",
               s.kernel, macs / 1e9, best_wall, best_cpu, macs / best_wall / 1e6, macs / best_cpu / 1e6, cycles);
    return {macs / best_cpu / 1e6, true};
  } catch (const std::exception& e) {
    fmt::print("{}: not run: {}\n", path, e.what());
    return {};
  }
}

// A --timing-only estimate of one spec, as `tcsim run --timing-only` makes it (the whole spec,
// buffer initialisation included, is timed: that is what a user waits for).
void run_timing_only(const std::string& path, unsigned host_threads) {
  try {
    const spec::LaunchSpec s = spec::load_spec(path);
    const std::string ptx = spec::read_ptx(s);
    sim::DeviceOptions opts;
    opts.host_threads = host_threads;
    opts.timing_only = true;
    bool fell_back = false;
    const bench::Timer t;
    const double c0 = cpu_seconds();
    const spec::RunResult r = cli::run_timing_only_safe(
        opts,
        [&](const sim::DeviceOptions& o) {
          sim::Device dev(isa::Arch::Sm100a, o);
          cli::SimBackend backend(dev, s.path);
          return spec::run_spec(s, ptx, backend);
        },
        [&](const std::string&) { fell_back = true; });
    const double cpu = cpu_seconds() - c0, wall = t.seconds();
    fmt::print("{:<34} --timing-only: {:7.2f} s CPU, {:7.2f} s wall, {} simulated cycles{}\n",
               path.substr(path.rfind('/') + 1), cpu, wall, r.outcome.cycles.value_or(0),
               fell_back ? " (the TMA copies were needed: run twice)" : "");
  } catch (const std::exception& e) {
    fmt::print("{}: FAILED: {}\n", path, e.what());
  }
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 1;
  unsigned host_threads = 1;
  std::string size = "1024";
  std::vector<std::string> estimate;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--timing-only") && i + 1 < argc) {
      for (std::string v = argv[++i]; !v.empty();) {
        const size_t comma = v.find(',');
        estimate.push_back(v.substr(0, comma));
        v = comma == std::string::npos ? "" : v.substr(comma + 1);
      }
    }
    else if (!std::strcmp(argv[i], "--size") && i + 1 < argc) size = argv[++i];
    else if (!std::strcmp(argv[i], "--host-threads") && i + 1 < argc)
      host_threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
    else {
      fmt::print(stderr, "usage: bench_tcgen05_gemm [--repeat N] [--size 1024|2048] [--host-threads N] "
                         "[--timing-only 4096,8192]\n");
      return 2;
    }
  }
  fmt::print("{}\nhost threads {}, best of {}\n", bench::machine_context(), host_threads, repeat);
  const std::string dir = std::string(TCSIM_SOURCE_DIR) + "/kernels/tcgen05/specs/";
  if (!estimate.empty()) {
    for (const std::string& e : estimate) run_timing_only(dir + "gemm/bench_bf16_" + e + ".json", host_threads);
    return 0;
  }
  const Rate dense = run_spec(dir + "gemm/bench_bf16_" + size + ".json", repeat, host_threads);
  for (const char* mx : {"mxfp8_f32", "nvfp4_f32"}) {
    const Rate r = run_spec(dir + "mxgemm/bench_" + mx + "_" + size + ".json", repeat, host_threads);
    if (dense.ok && r.ok)
      fmt::print("  {} / dense bf16 per core: {:.2f} ({})\n", mx, r.per_core / dense.per_core,
                 r.per_core < dense.per_core
                     ? fmt::format("block scaling costs {:.0f}% of the dense rate", 100.0 * (1.0 - r.per_core / dense.per_core))
                     : std::string("no cost: the block-scaled GEMM runs at least at the dense rate"));
  }
  return 0;
}
