// sim/timing/model.h: the tcgen05.mma and wgmma cycles the model derives from the profiles, against
// the published B200 burst measurements (SemiAnalysis microbench-blackwell
// umma_latency / umma_throughput, docs/timing_model.md "Tensor core") and the H200's own
// (kernels/ubench/results/h200-2026-12-01 wgmma rows). The numbers below are the measurements,
// not the formulas: a profile edit that breaks a published point fails here.
#include <doctest/doctest.h>

#include <cmath>

#include "models/timing/profile.h"
#include "sim/timing/model.h"

using tcsim::sim::timing::Model;
namespace mt = tcsim::models::timing;

// The latencies are checked end to end by tests/cli/timing_probe_test.cc: kernels/tcgen05/
// timing_probe.cu, the published measuring sequence run in tcsim, must read the published numbers.
TEST_CASE("tcgen05.mma latency grows with N as published (N/2; N/4 for cta_group::2 M = 128)") {
  const Model M(mt::builtin("b200"), 0);
  CHECK(M.tcgen05_mma(1, 128, 256, false).latency - M.tcgen05_mma(1, 128, 64, false).latency == doctest::Approx(96));
  CHECK(M.tcgen05_mma(1, 64, 256, true).latency - M.tcgen05_mma(1, 64, 64, true).latency == doctest::Approx(96));
  CHECK(M.tcgen05_mma(2, 128, 256, false).latency - M.tcgen05_mma(2, 128, 64, false).latency == doctest::Approx(48));
  CHECK(M.tcgen05_mma(2, 256, 256, true).latency - M.tcgen05_mma(2, 256, 64, true).latency == doctest::Approx(96));
}

// II = max(tensor time, SMEM time) + a fixed overhead: within 6% of every published point (the worst:
// cta_group::2 SS M=256 N=80, 43.7 modelled vs 46.1 measured).
TEST_CASE("tcgen05.mma initiation interval within 6% of the published B200 bursts") {
  const Model M(mt::builtin("b200"), 0);
  struct Row {
    int cta_group;
    uint32_t m;
    bool ts;
    double ii[6];  // N = 64, 80, 96, 112, 128, 256
  };
  const uint32_t ns[6] = {64, 80, 96, 112, 128, 256};
  const Row rows[] = {
      {1, 64, false, {32.6, 40.6, 48.6, 56.6, 64.6, 128.6}},
      {1, 128, false, {48.6, 52.6, 56.6, 60.6, 64.6, 128.6}},
      {1, 128, true, {32.5, 40.5, 48.5, 56.5, 64.5, 128.5}},
      {2, 128, false, {25.7, 27.7, 29.7, 30.7, 32.7, 64.7}},
      {2, 256, false, {43.7, 46.1, 50.1, 56.7, 64.8, 128.7}},
      {2, 128, true, {18.6, 20.7, 24.7, 28.7, 32.7, 64.6}},
      {2, 256, true, {32.6, 40.6, 48.6, 56.6, 64.6, 128.6}},
  };
  for (const Row& r : rows)
    for (int i = 0; i < 6; ++i) {
      CAPTURE(r.cta_group);
      CAPTURE(r.m);
      CAPTURE(r.ts);
      CAPTURE(ns[i]);
      const double ii = M.tcgen05_mma(r.cta_group, r.m, ns[i], r.ts).ii;
      CHECK(std::fabs(ii - r.ii[i]) <= 0.06 * r.ii[i]);
    }
}

TEST_CASE("wgmma II and latency match the H200 ubench rows") {
  const Model M(mt::builtin("h200"), 0);
  // ubench wgmma,m64nNk16_bf16_ss.ii: 32, 64, 128 cycles for N = 64, 128, 256.
  CHECK(M.wgmma(64, false).ii == doctest::Approx(32));
  CHECK(M.wgmma(128, false).ii == doctest::Approx(64));
  CHECK(M.wgmma(256, false).ii == doctest::Approx(128));
  CHECK(M.wgmma(256, true).ii == doctest::Approx(128));  // ..._rs.ii 128
  // ubench ..._ss.latency 202, 234, 299 include the fence, commit and wait (a few cycles each).
  CHECK(std::fabs(M.wgmma(64, false).latency - 202) <= 10);
  CHECK(std::fabs(M.wgmma(128, false).latency - 234) <= 10);
  CHECK(std::fabs(M.wgmma(256, false).latency - 299) <= 10);
}

TEST_CASE("--clock-mhz pins the clock: bandwidths become bytes per SM cycle at it") {
  const mt::Profile& p = mt::builtin("h200");
  const Model boost(p, 0), pinned(p, 990);
  CHECK(boost.clock_mhz == doctest::Approx(p.clock_boost_mhz));
  CHECK_FALSE(boost.clock_pinned);
  CHECK(pinned.clock_pinned);
  CHECK(pinned.hbm_bytes_per_clk == doctest::Approx(2 * p.hbm_bandwidth * 1e3 / p.clock_boost_mhz));
}
