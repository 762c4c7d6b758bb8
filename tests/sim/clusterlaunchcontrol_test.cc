// clusterlaunchcontrol.try_cancel / query_cancel (PTX ISA §9.7.13; sim/units/cluster_launch_control.h):
//   * the persistent GEMM of kernels/tcgen05/gemm_clc.cu (one CTA per tile, one CTA per SM, the rest
//     stolen): D is exact, every tile is computed exactly once, the CTAs that never started are the
//     ones whose tiles were stolen, and the assignment of tiles to CTAs, the steal counts, D and the
//     cycle count are the same with 1 and 4 host threads;
//   * .multicast::cluster::all: every CTA of the requesting cluster gets the same response and its
//     own complete-tx; a canceled cluster never runs; no two requests cancel the same cluster;
//   * a try_cancel after the CTA observed a failed response is reported (undefined behaviour).
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

uint16_t bf16_of_int(int v) {  // small integers are exact in bf16
  const float f = static_cast<float>(v);
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return static_cast<uint16_t>(w >> 16);
}

struct ClcRun {
  std::vector<float> d;
  std::vector<uint32_t> owner, steals;
  uint64_t cycles = 0;
};

constexpr uint32_t kM = 1280, kN = 2048, kK = 64;  // 10 x 16 = 160 tiles on 148 SMs

int a_val(uint32_t m, uint32_t k) { return static_cast<int>((m * 7 + k * 3) % 5) - 2; }
int b_val(uint32_t n, uint32_t k) { return static_cast<int>((n * 5 + k * 11) % 5) - 2; }

ClcRun run_clc(unsigned host_threads) {
  sim::DeviceOptions o;
  o.host_threads = host_threads;
  test::Harness h(isa::Arch::Sm100a, o);
  h.load(read_file(TCSIM_SOURCE_DIR "/kernels/tcgen05/gemm_clc.ptx"), "gemm_clc.ptx");
  std::vector<uint16_t> a(size_t{kM} * kK), b(size_t{kN} * kK);
  for (uint32_t m = 0; m < kM; ++m)
    for (uint32_t k = 0; k < kK; ++k) a[m * kK + k] = bf16_of_int(a_val(m, k));
  for (uint32_t n = 0; n < kN; ++n)
    for (uint32_t k = 0; k < kK; ++k) b[n * kK + k] = bf16_of_int(b_val(n, k));
  const uint32_t tiles = (kM / 128) * (kN / 128);
  const uint64_t A = h.upload(a), B = h.upload(b), D = h.zeros(size_t{kM} * kN * 4);
  const uint64_t owner = h.upload(std::vector<uint32_t>(tiles, 0xffffffffu));
  const uint64_t steals = h.upload(std::vector<uint32_t>(tiles, 0xffffffffu));
  test::Params p;
  p.add(A).add(B).add(D).add(owner).add(steals).add(kM).add(kN).add(kK);
  const auto r = h.launch("gemm_clc_bf16_f32", {kN / 128, kM / 128, 1}, {128, 1, 1}, p, 120 * 1024);
  ClcRun out;
  out.d = h.download<float>(D, size_t{kM} * kN);
  out.owner = h.download<uint32_t>(owner, tiles);
  out.steals = h.download<uint32_t>(steals, tiles);
  out.cycles = r.cycles;
  return out;
}

}  // namespace

TEST_CASE("a CLC-scheduled persistent GEMM: exact, every tile once, the same assignment with 1 and 4 host threads") {
  const ClcRun one = run_clc(1), four = run_clc(4);
  const uint32_t tiles = (kM / 128) * (kN / 128);
  // D = A * B^T exactly.
  int bad = 0;
  for (uint32_t m = 0; m < kM; m += 37)
    for (uint32_t n = 0; n < kN; ++n) {
      int s = 0;
      for (uint32_t k = 0; k < kK; ++k) s += a_val(m, k) * b_val(n, k);
      bad += one.d[size_t{m} * kN + n] != static_cast<float>(s);
    }
  CHECK(bad == 0);
  // Every tile computed, by itself or by a CTA that started; the others never ran.
  uint32_t stolen = 0, launched = 0, steal_sum = 0;
  for (uint32_t t = 0; t < tiles; ++t) {
    REQUIRE(one.owner[t] < tiles);
    if (one.owner[t] != t) {
      ++stolen;
      CHECK(one.steals[t] == 0xffffffffu);  // the canceled CTA never started
      CHECK(one.steals[one.owner[t]] != 0xffffffffu);
    }
    if (one.steals[t] != 0xffffffffu) ++launched, steal_sum += one.steals[t];
  }
  CHECK(stolen > 0);
  CHECK(stolen == steal_sum);
  CHECK(launched + stolen == tiles);
  CHECK(launched <= 148);
  // Deterministic with any number of host threads.
  CHECK(one.owner == four.owner);
  CHECK(one.steals == four.steals);
  CHECK(one.d == four.d);
  CHECK(one.cycles == four.cycles);
}

namespace {

// One try_cancel .multicast::cluster::all per cluster of 2 (from rank 0); every CTA waits for its
// own complete-tx and writes resp[ctaid.x] = canceled ? first ctaid.x : 0xfffffffe, and ran[ctaid.x]
// = 1. 120 KiB of dynamic shared memory: one CTA per SM.
const char* kMulticast = R"(
.visible .entry clc_multicast(.param .u64 resp_out, .param .u64 ran_out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .reg .b128 %q<2>;
  .shared .align 16 .b8 resp[16];
  .shared .align 8 .b64 bar;
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %cluster_ctarank;
  setp.eq.u32 %p0, %r0, 0;
  @!%p0 bra $L1;
  mbarrier.init.shared::cta.b64 [bar], 1;
  fence.mbarrier_init.release.cluster;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], 16;
$L1:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  setp.eq.u32 %p1, %r1, 0;
  and.pred %p2, %p0, %p1;
  @%p2 clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [resp], [bar];
$Lw:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [bar], 0;
  @!%p3 bra $Lw;
  @!%p0 bra $L2;
  ld.shared.b128 %q0, [resp];
  clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p4, %q0;
  mov.u32 %r2, 0xfffffffe;
  @%p4 clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %r2, %q0;
  mov.u32 %r3, %ctaid.x;
  mul.wide.u32 %rd2, %r3, 4;
  ld.param.u64 %rd3, [resp_out];
  add.s64 %rd4, %rd3, %rd2;
  st.global.u32 [%rd4], %r2;
  ld.param.u64 %rd5, [ran_out];
  add.s64 %rd6, %rd5, %rd2;
  mov.u32 %r4, 1;
  st.global.u32 [%rd6], %r4;
$L2:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  ret;
}
)";

}  // namespace

TEST_CASE("try_cancel .multicast::cluster::all: both CTAs of the cluster see one response; canceled clusters never run") {
  for (unsigned threads : {1u, 4u}) {
    CAPTURE(threads);
    sim::DeviceOptions o;
    o.host_threads = threads;
    test::Harness h(isa::Arch::Sm100a, o);
    h.load(test::ptx_header() + kMulticast);
    constexpr uint32_t kCtas = 400;
    const uint64_t resp = h.upload(std::vector<uint32_t>(kCtas, 0xffffffffu));
    const uint64_t ran = h.zeros(kCtas * 4);
    h.launch("clc_multicast", {kCtas, 1, 1}, {32, 1, 1}, test::Params().add(resp).add(ran), 120 * 1024, {2, 1, 1});
    const auto r = h.download<uint32_t>(resp, kCtas);
    const auto x = h.download<uint32_t>(ran, kCtas);
    std::set<uint32_t> canceled;
    uint32_t ran_count = 0;
    for (uint32_t c = 0; c < kCtas; c += 2) {
      CHECK(x[c] == x[c + 1]);
      if (!x[c]) continue;  // a canceled cluster: neither CTA ran
      ran_count += 2;
      CHECK(r[c] == r[c + 1]);  // the same response in both CTAs
      if (r[c] != 0xfffffffeu) {
        CHECK(r[c] % 2 == 0);  // the first CTA of a cluster
        CHECK(canceled.insert(r[c]).second);  // no cluster canceled twice
      }
    }
    for (uint32_t c : canceled) CHECK(x[c] == 0);  // canceled clusters never ran
    CHECK(!canceled.empty());
    CHECK(ran_count + 2 * canceled.size() == kCtas);
  }
}

TEST_CASE("try_cancel after a failed response is reported; get_first_ctaid of a failed response too") {
  test::Harness h;
  h.load(test::ptx_header() + R"(
.visible .entry clc_twice(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .b128 %q<2>;
  .shared .align 16 .b8 resp[16];
  .shared .align 8 .b64 bar;
  mbarrier.init.shared::cta.b64 [bar], 1;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], 16;
  clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [resp], [bar];
$Lw:
  mbarrier.try_wait.parity.shared::cta.b64 %p0, [bar], 0;
  @!%p0 bra $Lw;
  ld.shared.b128 %q0, [resp];
  clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %q0;
  clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r0, %r1, %r2, _}, %q0;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], 16;
  clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [resp], [bar];
$Lw2:
  mbarrier.try_wait.parity.shared::cta.b64 %p0, [bar], 1;
  @!%p0 bra $Lw2;
  selp.u32 %r3, 1, 0, %p1;
  ld.param.u64 %rd2, [out];
  st.global.u32 [%rd2], %r3;
  ret;
}
)");
  const uint64_t out = h.upload(std::vector<uint32_t>{7});
  const auto r = h.launch("clc_twice", {1, 1, 1}, {1, 1, 1}, test::Params().add(out));
  CHECK(h.download<uint32_t>(out, 1)[0] == 0);  // nothing to cancel in a grid of one
  std::set<std::string> rules;
  for (const auto& g : r.findings) rules.insert(std::string(sim::rule_info(g.rule).id));
  CHECK(rules.count("clc-try-cancel-after-failure") == 1);
  CHECK(rules.count("clc-first-ctaid-of-failure") == 1);
}
