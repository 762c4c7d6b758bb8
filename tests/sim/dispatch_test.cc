// CTA and cluster placement (sim/launch.cc) against the machine table and the H200's measured
// residency: a cluster's CTAs go to different SMs of one GPC, even-sized clusters take whole TPCs,
// and as many clusters run at once as models::max_active_clusters says (which reproduces the
// H200's cudaOccupancyMaxActiveClusters: tests/models/machine_config_test.cc).
#include <doctest/doctest.h>

#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <string>

#include "models/machine/machine_config.h"
#include "models/machine/shared_memory.h"
#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// Thread 0 of each CTA writes %globaltimer at its start, %smid and %cluster_ctarank; the dynamic
// shared memory of the launch decides how many CTAs an SM holds.
std::string start_kernel(const std::string& target) {
  return test::ptx_header(target) + R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out)
{
  .reg .pred %p1;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u64 %rd2, %globaltimer;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %smid;
  mov.u32 %r4, %cluster_ctarank;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd3, %r2, 16;
  add.u64 %rd4, %rd1, %rd3;
  st.global.u64 [%rd4], %rd2;
  st.global.u32 [%rd4+8], %r3;
  st.global.u32 [%rd4+12], %r4;
  mov.u32 %r5, dyn;
  st.shared.u32 [%r5], %r3;
DONE:
  ret;
}
)";
}

struct Start {
  uint64_t t;
  uint32_t smid, rank;
};

std::vector<Start> run_starts(isa::Arch arch, uint32_t ctas, uint32_t cluster, uint32_t dyn) {
  test::Harness h(arch);
  h.load(start_kernel(arch == isa::Arch::Sm90a ? "sm_90a" : "sm_100a"), "starts.ptx");
  const uint64_t d = h.zeros(ctas * 16);
  h.launch("k", {ctas, 1, 1}, {128, 1, 1}, test::Params().add(d), dyn, {cluster, 1, 1});
  const auto w = h.download<uint32_t>(d, ctas * 4);
  std::vector<Start> r;
  for (uint32_t i = 0; i < ctas; ++i)
    r.push_back({uint64_t{w[4 * i]} | uint64_t{w[4 * i + 1]} << 32, w[4 * i + 2], w[4 * i + 3]});
  return r;
}

}  // namespace

TEST_CASE("B200: a 148-CTA launch of 2-CTA clusters, one CTA per SM, runs in one wave on TPC pairs") {
  // 200 KiB of dynamic shared memory: one CTA per SM. 74 clusters on 74 TPCs all start at once.
  const auto s = run_starts(isa::Arch::Sm100a, 148, 2, 200 * 1024);
  for (const Start& x : s) CHECK(x.t == s[0].t);
  std::set<uint32_t> sms;
  for (uint32_t c = 0; c < 74; ++c) {
    const Start &a = s[2 * c], &b = s[2 * c + 1];
    CHECK(a.rank == 0);
    CHECK(b.rank == 1);
    CHECK(a.smid % 2 == 0);       // rank 0 on the even SM of a TPC,
    CHECK(b.smid == a.smid + 1);  // rank 1 on its pair
    sms.insert(a.smid);
    sms.insert(b.smid);
  }
  CHECK(sms.size() == 148);
  // One cluster more does not fit: the 75th starts after the first wave.
  const auto o = run_starts(isa::Arch::Sm100a, 150, 2, 200 * 1024);
  uint32_t late = 0;
  for (const Start& x : o) late += x.t > o[0].t;
  CHECK(late == 2);
}

TEST_CASE("H200: as many clusters are co-resident as the H200 measured, and one more waits") {
  // kernels/cluster/coresident.cu: every CTA arrives on a counter and polls it until all `total`
  // arrived or the time-out (1 ms here) passed. With one cluster more than fits (227 KiB of dynamic shared memory:
  // one CTA per SM), the first wave times out seeing only itself and the last cluster, run alone
  // afterwards, is the only one that sees everybody (the H200: machine_shape WAVE lines).
  std::ifstream f(std::string(TCSIM_SOURCE_DIR) + "/kernels/cluster/coresident.sm_90a.ptx");
  std::stringstream ptx;
  ptx << f.rdbuf();
  REQUIRE(!ptx.str().empty());
  const models::MachineConfig& m = models::machine_config(isa::Arch::Sm90a);
  const uint32_t dyn = 232448, smem = models::smem_layout(m, 0, 1, dyn).cta_bytes();
  for (uint32_t k : {1u, 2u, 3u, 7u, 16u}) {
    const uint32_t fit = models::max_active_clusters(m, 32, smem, k);
    for (uint32_t extra : {0u, 1u}) {
      const uint32_t n = (fit + extra) * k;
      test::Harness h(isa::Arch::Sm90a);
      h.load(ptx.str(), "coresident.sm_90a.ptx");
      const uint64_t counter = h.zeros(4), seen = h.zeros(n * 4);
      h.launch("coresident", {n, 1, 1}, {32, 1, 1},
               test::Params().add(counter).add(seen).add(n).add(uint64_t{1000000}), dyn, {k, 1, 1});
      const auto v = h.download<uint32_t>(seen, n);
      const uint32_t all = std::accumulate(v.begin(), v.end(), 0u);
      INFO("cluster " << k << ", " << fit + extra << " clusters");
      CHECK(all == (extra ? k : n));
    }
  }
}
