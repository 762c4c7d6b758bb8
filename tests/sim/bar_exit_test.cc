// CTA barriers with exited threads, against the H200 (kernels/probes/results/h200-2026-12-02-bar-exit/
// r.txt): the probe kernel kernels/probes/barrier/bar_exit.cu, compiled by nvcc 13.0 for sm_90a
// (bar_exit_sm90a.ptx beside it), runs every case in tcsim. Where the GPU completed the barrier,
// tcsim must finish with the same warps past it; where the GPU hung, tcsim must end with a deadlock
// report (or, for the control whose other warps spin forever, a livelock report or the watchdog)
// instead of hanging.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

const std::string kProbe = TCSIM_SOURCE_DIR "/kernels/probes/barrier/bar_exit_sm90a.ptx";
const std::string kResult = TCSIM_SOURCE_DIR "/kernels/probes/results/h200-2026-12-02-bar-exit/r.txt";

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The case table of bar_exit.cu, in its order: form, count, stay, half, late_ns, rounds, forever.
struct Case {
  const char* name;
  int32_t v[7];
};
const Case kCases[] = {
    {"bar0_nocount_exit4", {0, 0, 4, 0, 0, 1, 0}},
    {"barrier0_nocount_exit4", {4, 0, 4, 0, 0, 1, 0}},
    {"bar1_128_exit4_control", {2, 128, 4, 0, 0, 1, 0}},
    {"bar1_128_exit6", {2, 128, 2, 0, 0, 1, 0}},
    {"bar1_256_exit4", {2, 256, 4, 0, 0, 1, 0}},
    {"bar1_192_exit4", {2, 192, 4, 0, 0, 1, 0}},
    {"bar0_256_exit4", {1, 256, 4, 0, 0, 1, 0}},
    {"barrier1_256_exit4", {3, 256, 4, 0, 0, 1, 0}},
    {"bar1_256_exit4_2rounds", {2, 256, 4, 0, 0, 2, 0}},
    {"bar1_256_exit4_late1ms", {2, 256, 4, 0, 1000000, 1, 0}},
    {"bar0_nocount_exit4_late1ms", {0, 0, 4, 0, 1000000, 1, 0}},
    {"bar1_256_halflanes", {2, 256, 8, 1, 0, 1, 0}},
    {"bar1_128_halflanes", {2, 128, 8, 1, 0, 1, 0}},
    {"bar1_256_spin_control", {2, 256, 4, 0, 0, 1, 1}},
};

}  // namespace

TEST_CASE("CTA barriers with exited threads: every case of the H200 probe, same outcome") {
  // name -> (verdict, passed)
  std::map<std::string, std::pair<std::string, std::string>> hw;
  std::istringstream in(slurp(kResult));
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string name, verdict, passed;
    if (ls >> name >> verdict >> passed && passed.starts_with("passed=")) hw[name] = {verdict, passed.substr(7)};
  }
  REQUIRE(hw.size() == std::size(kCases));
  sim::DeviceOptions o;
  o.max_steps = 20'000'000;  // the spin control ends in the watchdog sooner than with the defaults
  o.max_warp_steps = 4'000'000;
  for (const Case& c : kCases) {
    CAPTURE(c.name);
    REQUIRE(hw.count(c.name));
    test::Harness h(isa::Arch::Sm90a, o);
    h.load(slurp(kProbe), "bar_exit_sm90a.ptx");
    const uint64_t s = h.zeros(8 * 4 + 16 * 8);
    test::Params p;
    p.add(s);
    struct {
      uint64_t name = 0;
      int32_t v[7];
      int32_t pad = 0;
    } arg;
    std::copy(std::begin(c.v), std::end(c.v), arg.v);
    p.raw(&arg, sizeof arg, 8);
    std::string error;
    try {
      h.launch("_Z15bar_exit_kernelPV6Shared4Case", {1, 1, 1}, {256, 1, 1}, p);
    } catch (const sim::SimError& e) {
      error = e.what();
    }
    std::string passed;
    for (int32_t x : h.download<int32_t>(s, 8)) passed += std::to_string(x);
    if (hw[c.name].first == "PASS") {
      CHECK(error == "");
      CHECK(passed == hw[c.name].second);
    } else {
      REQUIRE(hw[c.name].first == "HANG");
      if (c.v[6]) {
        // Its other warps spin on a flag: a livelock report, or the watchdog if it comes first.
        CHECK((error.find("livelock") != std::string::npos || error.find("watchdog") != std::string::npos));
      } else {
        CHECK(error.find("deadlock") != std::string::npos);
        // The report says why: the count needs threads that have exited.
        CHECK(error.find("can never complete") != std::string::npos);
      }
      CHECK(passed == hw[c.name].second);
    }
  }
}
