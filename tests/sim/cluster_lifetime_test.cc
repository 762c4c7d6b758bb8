// A CTA's exit and its peers' accesses to its shared memory (docs/cluster_lifetime.md, sim/cluster.h):
// an access ordered before the exit through an mbarrier phase (the 2-SM TMA pattern) is not
// reported; an access nothing orders before the exit — before the exit or after it — is the
// tolerated finding dsmem-exit-unordered at the accessing instruction, and the kernel runs to its
// end as it does on the GPU. Expected values are hand-worked in the comments.
#include <doctest/doctest.h>

#include <string>

#include "isa/descriptors/tensor_map.h"
#include "sim/report/rules.h"
#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

struct Run {
  std::vector<uint32_t> out;
  sim::LaunchResult r;
};

// One thread per CTA, a cluster of 2. Global tensor: 128 u8 elements, byte j = j; the map's box
// is 64 elements (64 bytes), so each load moves 64 bytes.
Run run(const std::string& body) {
  const std::string ptx = test::ptx_header() + R"(
.shared .align 128 .b8 buf[64];
.shared .align 8 .b64 bar;
.visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<64>;
  .reg .b64 %rd<8>;
  mov.u64 %rd1, tmap;
  cvta.param.u64 %rd2, %rd1;
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r4, bar;
  mov.u32 %r5, buf;
  mul.wide.u32 %rd4, %r2, 64;
  add.u64 %rd5, %rd3, %rd4;
)" + body + R"(
  ret;
}
)";
  test::Harness h;
  h.load(ptx, "lifetime.ptx");
  std::vector<uint8_t> g(128);
  for (int j = 0; j < 128; ++j) g[j] = static_cast<uint8_t>(j);
  isa::TensorMapParams m;
  m.data_type = isa::TensorMapDataType::UInt8;
  m.rank = 1;
  m.global_address = h.upload(g);
  m.global_dim[0] = 128;
  m.box_dim[0] = 64;
  m.element_strides[0] = 1;
  const auto bytes = isa::encode_tensor_map(m);
  REQUIRE(bytes);
  const uint64_t d = h.zeros(128);
  Run r;
  r.r = h.launch("k", {2, 1, 1}, {1, 1, 1}, test::Params().raw(bytes->data(), bytes->size(), 64).add(d), 0, {2, 1, 1});
  r.out = h.download<uint32_t>(d, 32);
  return r;
}

// Stores buf (16 words) to out[16 * rank ..].
std::string store_buf() {
  std::string s;
  for (int i = 0; i < 16; ++i)
    s += "  ld.shared.u32 %r10, [buf+" + std::to_string(4 * i) + "];\n  st.global.u32 [%rd5+" + std::to_string(4 * i) +
         "], %r10;\n";
  return s;
}

uint32_t word_at(uint32_t j) { return j | (j + 1) << 8 | (j + 2) << 16 | (j + 3) << 24; }

// Rank 0's bar expects 2 arrivals (so it never completes here); %p2: this is rank 0.
const char* kInit2 = R"(
  mbarrier.init.shared::cta.b64 [%r4], 2;
  fence.mbarrier_init.release.cluster;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  setp.eq.u32 %p2, %r2, 0;
)";

const char* kInit = R"(
  mbarrier.init.shared::cta.b64 [%r4], 1;
  fence.mbarrier_init.release.cluster;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  setp.eq.u32 %p2, %r2, 0;
)";

}  // namespace

TEST_CASE("2-SM TMA: the odd CTA's load signals the leader's barrier, the leader waits and exits: no report") {
  // Both CTAs load their 64 bytes into their own buf with .cta_group::2 and rank 0's bar (mapa):
  // rank 0 expects 128 bytes and waits for phase 0, then arrives on rank 1's bar (remote, released)
  // and exits without a cluster barrier; rank 1 waits for that arrival, then exits. Rank 1's access
  // to rank 0's bar (its copy's complete_tx) is ordered before rank 0's exit by rank 0's wait on
  // the phase it completed; rank 0's arrive on rank 1's bar is ordered before rank 1's exit by
  // rank 1's wait. Rank r's buf holds bytes 64r..64r+63: out[16r + i] = word_at(64r + 4i).
  const std::string body = std::string(kInit) + R"(
  @%p2 mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r4], 128;
  mov.u32 %r20, 0;
  mapa.shared::cluster.u32 %r21, %r4, %r20;
  shl.b32 %r22, %r2, 6;
  cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2 [%r5], [%rd2, {%r22}], [%r21];
$Lwait:
  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p4, [%r4], 0;
  @!%p4 bra $Lwait;
)" + store_buf() + R"(
  @!%p2 bra $Lend;
  mov.u32 %r23, 1;
  mapa.shared::cluster.u32 %r24, %r4, %r23;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r24];
$Lend:
)";
  const Run r = run(body);
  for (uint32_t rank = 0; rank < 2; ++rank)
    for (uint32_t i = 0; i < 16; ++i) CHECK(r.out[16 * rank + i] == word_at(64 * rank + 4 * i));
  for (const auto& w : r.r.finding_lines()) MESSAGE(w);
  CHECK(r.r.findings.empty());
}

TEST_CASE("dsmem-exit-unordered: a peer's remote arrive that nothing orders before the CTA's exit") {
  // Rank 0's bar expects 2 arrivals (it never completes); after the cluster barrier rank 1 arrives
  // on it once (remote) and exits; rank 0 sleeps, then exits without waiting on anything. The
  // arrive lands before rank 0's exit (rank 0 sleeps 2000 ns), but nothing orders it before the
  // exit: one finding at the arrive, by CTA (1,0,0), and the kernel completes (the GPU runs this
  // pattern: docs/cluster_lifetime.md).
  const std::string body = std::string(kInit2) + R"(
  @%p2 bra $Lzero;
  mov.u32 %r20, 0;
  mapa.shared::cluster.u32 %r21, %r4, %r20;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r21];
  bra $Lend;
$Lzero:
  nanosleep.u32 2000;
$Lend:
)";
  const Run r = run(body);
  REQUIRE(r.r.findings.size() == 1);
  const sim::FindingGroup& f = r.r.findings[0];
  CHECK(f.rule == sim::Rule::DsmemExitUnordered);
  CHECK(sim::rule_info(f.rule).severity == sim::Severity::Tolerated);
  CHECK(f.count == 1);
  CHECK(f.site.text.find("mbarrier.arrive.release.cluster.shared::cluster.b64") != std::string::npos);
  REQUIRE(!f.first.empty());
  CHECK(f.first[0].cta.has_value());
  CHECK(f.first[0].cta->x == 1);
  CHECK(f.first[0].detail.find("rank 0 of cluster (0,0,0)) exits at cycle") != std::string::npos);
  CHECK(f.first[0].detail.find("is not ordered before the exit") != std::string::npos);
}

TEST_CASE("dsmem-exit-unordered: a remote arrive after the target CTA exited goes to its kept shared memory") {
  // Rank 0 exits at once after the cluster barrier; rank 1 sleeps past several quantum boundaries
  // (rank 0 is retired from its SM meanwhile), then arrives on rank 0's bar: the finding at the
  // arrive, naming rank 0's exit, and the kernel completes; rank 1's own buf store still happens
  // (out[16] = its first word, 0: buf was never written).
  const std::string body = std::string(kInit2) + R"(
  @%p2 bra $Lend;
  nanosleep.u32 3000;
  mov.u32 %r20, 0;
  mapa.shared::cluster.u32 %r21, %r4, %r20;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r21];
  mov.u32 %r30, 7;
  st.global.u32 [%rd5], %r30;
$Lend:
)";
  const Run r = run(body);
  CHECK(r.out[16] == 7);
  REQUIRE(r.r.findings.size() == 1);
  const sim::FindingGroup& f = r.r.findings[0];
  CHECK(f.rule == sim::Rule::DsmemExitUnordered);
  CHECK(f.site.text.find("mbarrier.arrive.release.cluster.shared::cluster.b64") != std::string::npos);
  REQUIRE(!f.first.empty());
  CHECK(f.first[0].cta.has_value());
  CHECK(f.first[0].cta->x == 1);
  CHECK(f.first[0].detail.find("which exited at cycle") != std::string::npos);
}
