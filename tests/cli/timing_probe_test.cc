// The tcgen05.mma timing against the published B200 single-instruction measurements, end to end:
// kernels/tcgen05/timing_probe.cu runs the published measuring sequence (%clock64, one MMA,
// tcgen05.commit, mbarrier try_wait, %clock64; then a burst of 65 into one accumulator) in tcsim,
// and the cycles it reads must be the published ones (SemiAnalysis microbench-blackwell
// umma_latency: exact to +-1 on every measured point; umma_throughput: II; docs/timing_model.md
// "Tensor cores"). cta_group::1 (one CTA) and cta_group::2 (a CTA pair: the even CTA issues, its
// commit multicasts to both CTAs' barriers).
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <unistd.h>

#include "tests/cli/cli_util.h"
#include "tools/spec/npy.h"

using tcsim::cli::test::run_tcsim;

namespace {

struct Case {
  const char* form;  // ss / ts
  uint32_t m, n;
  double latency;    // published issue -> commit -> try_wait (cycles)
  double ii;         // published cycles per MMA in a burst
};

// Runs every case through kernels/tcgen05/timing_probe.cu (`kernel` + form; `ctas` CTAs in one
// cluster) and checks the latency exactly and the II within `ii_tol` (absolute cycles or relative,
// whichever is larger).
void run_cases(const char* kernel, uint32_t ctas, const Case* cases, size_t count, double ii_abs, double ii_rel) {
  const auto dir = std::filesystem::temp_directory_path() /
                   (std::string("tcsim_timing_probe_") + kernel + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (size_t i = 0; i < count; ++i) {
    const Case& c = cases[i];
    CAPTURE(kernel);
    CAPTURE(c.form);
    CAPTURE(c.m);
    CAPTURE(c.n);
    const std::string name = fmt::format("probe_{}_{}_{}", c.form, c.m, c.n);
    const auto spec = dir / (name + ".json");
    std::ofstream(spec) << fmt::format(
        R"({{"ptx": "{}/kernels/tcgen05/timing_probe.ptx", "kernel": "{}_{}", "arch": "sm_100a",
  "grid": [{}, 1, 1], "block": [128, 1, 1], "cluster": [{}, 1, 1], "dynamic_smem_bytes": 50176,
  "buffers": {{"out": {{"dtype": "u64", "shape": [2], "init": {{"fill": 0}}}}}},
  "args": [{{"buffer": "out"}}, {{"u32": {}}}, {{"u32": {}}}, {{"u32": 65}}], "outputs": ["out"]}})",
        TCSIM_SOURCE_DIR, kernel, c.form, ctas, ctas, c.m, c.n);
    const auto out = dir / name;
    const auto r = run_tcsim("run " + spec.string() + " --out " + out.string());
    REQUIRE_MESSAGE(r.rc == 0, r.out);
    const tcsim::spec::NpyArray a = tcsim::spec::read_npy((out / "out.npy").string());
    REQUIRE(a.data.size() == 16);
    uint64_t t[2];
    std::memcpy(t, a.data.data(), 16);
    CHECK(static_cast<double>(t[0]) == c.latency);
    const double ii = static_cast<double>(t[1] - t[0]) / 64.0;
    CAPTURE(ii);
    CHECK(std::fabs(ii - c.ii) <= std::max(ii_abs, ii_rel * c.ii));
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace

TEST_CASE("timing probe: tcgen05.mma latency and II as published (cta_group::1)") {
  const Case cases[] = {
      {"ss", 128, 256, 264, 128.6}, {"ss", 128, 64, 168, 48.6}, {"ss", 128, 128, 200, 64.6},
      {"ss", 64, 64, 152, 32.6},    {"ss", 64, 256, 248, 128.6}, {"ts", 128, 64, 136, 32.5},
      {"ts", 128, 128, 168, 64.5},  {"ts", 64, 256, 232, 128.5},
  };
  run_cases("tcgen05_probe", 1, cases, std::size(cases), 1.0, 0.0);
}

// The pair: latency 157 + N/4 (SS, M = 128), 170 + N/2 (SS, M = 256), 146 + N/4 (TS, M = 128),
// 138 + N/2 (TS, M = 256), exact; the II within 5%: the published pair rows exceed
// max(tensor time, SMEM time) by 0.6 to 3.7 cycles and the profile's one overhead
// (tcgen05.ii_overhead_cta2) splits that spread (models/timing/b200.txt).
TEST_CASE("timing probe: tcgen05.mma latency and II as published (cta_group::2)") {
  const Case cases[] = {
      {"ss", 128, 64, 173, 25.7},  {"ss", 128, 128, 189, 32.7}, {"ss", 128, 256, 221, 64.7},
      {"ss", 256, 64, 202, 43.7},  {"ss", 256, 128, 234, 64.8}, {"ss", 256, 256, 298, 128.7},
      {"ts", 128, 64, 162, 18.6},  {"ts", 128, 128, 178, 32.7}, {"ts", 128, 256, 210, 64.6},
      {"ts", 256, 64, 170, 32.6},  {"ts", 256, 128, 202, 64.6}, {"ts", 256, 256, 266, 128.6},
  };
  run_cases("tcgen05_probe2", 2, cases, std::size(cases), 1.0, 0.05);
}

// Determinism (sim/README.md "Parallel determinism"): the partitions run in lock-step quanta, so
// the cycles (and the whole timing report) do not depend on the host threads.
TEST_CASE("timing: the same cycles and report with 1 and 4 host threads") {
  for (const char* spec : {"kernels/hopper/specs/bench/gemm_bf16_ws__1024x1024x1024.json", "kernels/tcgen05/gemm_bf16.json"}) {
    CAPTURE(spec);
    const std::string path = std::string(TCSIM_SOURCE_DIR) + "/" + spec;
    const auto one = run_tcsim("run " + path + " --timing-only --host-threads 1");
    const auto four = run_tcsim("run " + path + " --timing-only --host-threads 4");
    REQUIRE_MESSAGE(one.rc == 0, one.out);
    REQUIRE_MESSAGE(four.rc == 0, four.out);
    CHECK(one.out.find(" cycles") != std::string::npos);
    CHECK(one.out == four.out);
  }
}

namespace {
std::string cycles_of(const std::string& out) {
  const size_t at = out.find(" cycles");
  if (at == std::string::npos) return "";
  size_t b = at;
  while (b > 0 && std::isdigit(static_cast<unsigned char>(out[b - 1]))) --b;
  return out.substr(b, at - b);
}
}  // namespace

// --timing-only skips the MMA arithmetic, the output values, the TMA tile copies (sim/units/
// uncopied_smem.h) and (with the operand plans shared per descriptor) nothing the timing reads: the
// cycles equal the full run's, for the main job (cta_group::1, persistent, warp-specialised), the
// 1-CTA and the 2-CTA bench GEMMs, without the fallback (no generic read of a TMA tile).
TEST_CASE("timing: --timing-only gives the full run's cycles") {
  for (const char* spec : {"kernels/tcgen05/gemm_bf16.json", "kernels/tcgen05/specs/gemm/bench_bf16_1024.json",
                           "kernels/tcgen05/specs/gemm/bench_bf16_1024_2cta.json"}) {
    CAPTURE(spec);
    const std::string path = std::string(TCSIM_SOURCE_DIR) + "/" + spec;
    const auto full = run_tcsim("run " + path);
    const auto fast = run_tcsim("run " + path + " --timing-only");
    REQUIRE_MESSAGE(full.rc == 0, full.out);
    REQUIRE_MESSAGE(fast.rc == 0, fast.out);
    CHECK(!cycles_of(full.out).empty());
    CHECK(cycles_of(full.out) == cycles_of(fast.out));
    CHECK(fast.out.find("running the launch again with the TMA copies") == std::string::npos);
  }
}

// A kernel that reads a TMA-loaded word with ld.shared and spins that many times
// (tests/cli/run_data/tma_branch.ptx): --timing-only skipped the copy, the read needs it, the
// launch runs again with the copies and its cycles are the full run's (with the skipped bytes left
// as they were, the spins, and so the cycles, would differ).
TEST_CASE("timing: --timing-only falls back to the TMA copies when the kernel reads the tile") {
  const std::string path = std::string(TCSIM_SOURCE_DIR) + "/tests/cli/run_data/tma_branch.json";
  const auto full = run_tcsim("run " + path);
  const auto fast = run_tcsim("run " + path + " --timing-only");
  REQUIRE_MESSAGE(full.rc == 0, full.out);
  REQUIRE_MESSAGE(fast.rc == 0, fast.out);
  CHECK(fast.out.find("reads shared memory [0x") != std::string::npos);
  CHECK(fast.out.find("running the launch again with the TMA copies") != std::string::npos);
  CHECK(full.out.find("running the launch again") == std::string::npos);
  CHECK(!cycles_of(full.out).empty());
  CHECK(cycles_of(full.out) == cycles_of(fast.out));
}
