// cp.async.bulk.tensor loads with .cta_group::2 (sim/exec/cp_async_bulk_tensor.cc): the
// complete_tx goes to an mbarrier in the destination CTA or its peer in the CTA pair (cluster ranks
// 2i, 2i+1), and with .multicast::cluster to each destination's pair member with the parity of the
// CTA holding mbar (PTX ISA §9.7.9.25.5.2). Expected values are hand-worked in the comments. A wrong
// barrier choice leaves some CTA waiting forever, which the simulator reports as a deadlock
// (SimError), so every scenario below fails if the completion goes anywhere else.
#include <doctest/doctest.h>

#include <string>

#include "isa/descriptors/tensor_map.h"
#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// One thread per CTA. The global tensor: 256 u8 elements, byte j = j; the map's box: 64 elements
// (64 bytes, no swizzle), so every load moves 64 bytes (tx = 64).
//   1. thread initialises its `bar` (count 1); <expect> (an arrive.expect_tx on some ranks);
//      cluster barrier (the inits are visible cluster-wide);
//   2. <issue> (the loads), then <wait> (try_wait on parity 0 on some ranks);
//   3. cluster barrier; every rank r stores its buf (16 words) to out[16r..16r+15] and whether its
//      own bar completed phase 0 to out[64 + r]: 1 on the ranks that waited for it (%p2), else
//      test_wait.parity 0 (a second wait on a parity already seen would be a stale-parity wait).
std::string kernel(const std::string& expect, const std::string& issue, const std::string& wait) {
  std::string k = test::ptx_header() + R"(
.shared .align 128 .b8 buf[64];
.shared .align 8 .b64 bar;
.visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b16 %rs<4>;
  .reg .b32 %r<64>;
  .reg .b64 %rd<8>;
  mov.u64 %rd1, tmap;
  cvta.param.u64 %rd2, %rd1;
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r4, bar;
  mov.u32 %r5, buf;
  and.b32 %r6, %r2, 1;
  mbarrier.init.shared::cta.b64 [%r4], 1;
  fence.mbarrier_init.release.cluster;
)" + expect + R"(
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
)" + issue + wait + R"(
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  mul.wide.u32 %rd4, %r2, 64;
  add.u64 %rd5, %rd3, %rd4;
)";
  for (int i = 0; i < 16; ++i)
    k += "  ld.shared.u32 %r10, [buf+" + std::to_string(4 * i) + "];\n  st.global.u32 [%rd5+" + std::to_string(4 * i) +
         "], %r10;\n";
  k += R"(
  mov.u32 %r11, 1;
  @%p2 bra $Lflag;
  mbarrier.test_wait.parity.shared::cta.b64 %p5, [%r4], 0;
  selp.u32 %r11, 1, 0, %p5;
$Lflag:
  mul.wide.u32 %rd6, %r2, 4;
  add.u64 %rd7, %rd3, %rd6;
  st.global.u32 [%rd7+256], %r11;
  ret;
}
)";
  return k;
}

// try_wait loop on parity 0 of the own bar, for the ranks where %p2 holds.
const char* kWaitIfP2 = R"(
  @!%p2 bra $Lwaited;
$Lwait:
  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p4, [%r4], 0;
  @!%p4 bra $Lwait;
$Lwaited:
)";

struct Run {
  std::vector<uint32_t> out;
  sim::LaunchResult r;
};

Run run(const std::string& ptx, uint32_t cluster) {
  test::Harness h;
  h.load(ptx, "tma_cg2.ptx");
  std::vector<uint8_t> g(256);
  for (int j = 0; j < 256; ++j) g[j] = static_cast<uint8_t>(j);
  isa::TensorMapParams m;
  m.data_type = isa::TensorMapDataType::UInt8;
  m.rank = 1;
  m.global_address = h.upload(g);
  m.global_dim[0] = 256;
  m.box_dim[0] = 64;
  m.element_strides[0] = 1;
  const auto bytes = isa::encode_tensor_map(m);
  REQUIRE(bytes);
  const uint64_t d = h.zeros(80 * 4);
  Run r;
  r.r = h.launch("k", {cluster, 1, 1}, {1, 1, 1}, test::Params().raw(bytes->data(), bytes->size(), 64).add(d), 0,
                 {cluster, 1, 1});
  r.out = h.download<uint32_t>(d, 80);
  return r;
}

std::string error_of(const std::string& ptx, uint32_t cluster) {
  try {
    run(ptx, cluster);
  } catch (const sim::SimError& e) {
    return e.what();
  }
  return "";
}

// Little-endian word of the global bytes j..j+3 (byte j = j).
uint32_t word_at(uint32_t j) { return j | (j + 1) << 8 | (j + 2) << 16 | (j + 3) << 24; }

// Rank 0 expects the bytes of both loads (2 x 64 = 128) on its own bar; each rank r loads elements
// 64r..64r+63 into its own buf, signalling rank 0's bar (mapa rank 0).
const char* kPairExpect = R"(
  setp.eq.u32 %p2, %r2, 0;
  @%p2 mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r4], 128;
)";
std::string pair_issue(const std::string& qual) {
  return R"(
  mov.u32 %r20, 0;
  mapa.shared::cluster.u32 %r21, %r4, %r20;
  shl.b32 %r22, %r2, 6;
  cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes)" +
         qual + R"( [%r5], [%rd2, {%r22}], [%r21];
)";
}

}  // namespace

TEST_CASE("tma .cta_group::2: both CTAs of a pair complete_tx on the even CTA's barrier") {
  // Rank 0's bar: 1 arrival + expect_tx 128, then 64 + 64 bytes of complete_tx (its own load and
  // rank 1's, whose mbar operand is rank 0's bar) -> phase 0 completes; rank 0 waits on it.
  // Rank 1's bar gets nothing: test_wait.parity 0 is false there. Buffers: rank r holds bytes
  // 64r..64r+63, so out[16r+i] = word_at(64r + 4i).
  const Run r = run(kernel(kPairExpect, pair_issue(".cta_group::2"), kWaitIfP2), 2);
  for (uint32_t rank = 0; rank < 2; ++rank)
    for (uint32_t i = 0; i < 16; ++i) CHECK(r.out[16 * rank + i] == word_at(64 * rank + 4 * i));
  CHECK(r.out[64] == 1);  // rank 0's bar completed phase 0
  CHECK(r.out[65] == 0);  // rank 1's bar was never signalled
  for (const auto& w : r.r.finding_lines()) MESSAGE(w);
  CHECK(r.r.findings.empty());
}

TEST_CASE("tma .cta_group::2 + .multicast::cluster: each destination signals its pair member of mbar's parity") {
  // Cluster of 4. Rank 0 multicasts elements 64..127 to ranks 0-3 (ctaMask 0xF) with mbar = rank 1's
  // bar (odd parity). The signal for destination r goes to the CTA of r's pair with odd rank:
  //   r=0 -> 1, r=1 -> 1, r=2 -> 3, r=3 -> 3: ranks 1 and 3 receive 2 x 64 = 128 bytes each,
  // which is what they expect (arrive.expect_tx 128) and wait for; ranks 0 and 2 receive nothing.
  // (Signalling every destination's own bar, the ::1 rule, would leave ranks 1 and 3 at 64 of 128
  // bytes: a deadlock.)
  const std::string expect = R"(
  setp.eq.u32 %p2, %r6, 1;
  @%p2 mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r4], 128;
)";
  const std::string issue = R"(
  setp.ne.u32 %p3, %r2, 0;
  @%p3 bra $Lissued;
  mov.u32 %r20, 1;
  mapa.shared::cluster.u32 %r21, %r4, %r20;
  mov.u32 %r22, 64;
  mov.u16 %rs1, 15;
  cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [%r5], [%rd2, {%r22}], [%r21], %rs1;
$Lissued:
)";
  const Run r = run(kernel(expect, issue, kWaitIfP2), 4);
  for (uint32_t rank = 0; rank < 4; ++rank)
    for (uint32_t i = 0; i < 16; ++i) CHECK(r.out[16 * rank + i] == word_at(64 + 4 * i));
  CHECK(r.out[64] == 0);
  CHECK(r.out[65] == 1);
  CHECK(r.out[66] == 0);
  CHECK(r.out[67] == 1);
  for (const auto& w : r.r.finding_lines()) MESSAGE(w);
  CHECK(r.r.findings.empty());
}

TEST_CASE("tma .cta_group: an mbarrier outside the pair (or in the peer without ::2) is an error") {
  // Without .cta_group::2 (no qualifier, or ::1) rank 1's load may not signal rank 0's bar.
  for (const char* q : {"", ".cta_group::1"}) {
    const std::string e = error_of(kernel(kPairExpect, pair_issue(q), kWaitIfP2), 2);
    CHECK_MESSAGE(e.find("must be in the same CTA as the destination") != std::string::npos, e);
    CHECK_MESSAGE(e.find("with .cta_group::2 it may be in the peer CTA") != std::string::npos, e);
  }
  // Cluster of 4: rank 2 (or 3) loading into its own buf may not signal rank 0's bar even with ::2
  // (rank 2's peer is rank 3 and rank 3's is rank 2).
  const std::string e = error_of(kernel(kPairExpect, pair_issue(".cta_group::2"), kWaitIfP2), 4);
  CHECK_MESSAGE(e.find("must be in the destination CTA") != std::string::npos, e);
  CHECK_MESSAGE(e.find("or its peer (cluster rank ") != std::string::npos, e);
}

TEST_CASE("tma .multicast::cluster: a destination that waited for the bytes may exit without a cluster barrier") {
  // Cluster of 2. Each rank expects 64 bytes on its own bar; rank 0 multicasts elements 64..127 to
  // both ranks (ctaMask 3; without .cta_group each destination signals its own bar). Each rank
  // waits for its bar, stores its buf and exits, with no barrier.cluster after the copy: rank 1
  // exits after rank 0's writes into its shared memory have landed, and its wait observed them
  // (the complete_tx is ordered after the writes), so the exit is ordered after the access — the
  // pattern of the CuTe Blackwell 2-SM tutorials, which pass on B200. The DSMEM exit check must
  // not stop it (it did: "exits while the access of CTA (0,0,0) ... is not ordered before the exit").
  const std::string ptx = test::ptx_header() + R"(
.shared .align 128 .b8 buf[64];
.shared .align 8 .b64 bar;
.visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b16 %rs<4>;
  .reg .b32 %r<64>;
  .reg .b64 %rd<8>;
  mov.u64 %rd1, tmap;
  cvta.param.u64 %rd2, %rd1;
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r4, bar;
  mov.u32 %r5, buf;
  mbarrier.init.shared::cta.b64 [%r4], 1;
  fence.mbarrier_init.release.cluster;
  mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%r4], 64;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  setp.ne.u32 %p3, %r2, 0;
  @%p3 bra $Lissued;
  mov.u32 %r22, 64;
  mov.u16 %rs1, 3;
  cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r5], [%rd2, {%r22}], [%r4], %rs1;
$Lissued:
$Lwait:
  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p4, [%r4], 0;
  @!%p4 bra $Lwait;
  mul.wide.u32 %rd4, %r2, 64;
  add.u64 %rd5, %rd3, %rd4;
  ld.shared.u32 %r10, [buf];
  st.global.u32 [%rd5], %r10;
  ld.shared.u32 %r10, [buf+60];
  st.global.u32 [%rd5+60], %r10;
  ret;
}
)";
  const Run r = run(ptx, 2);
  for (uint32_t rank = 0; rank < 2; ++rank) {
    CHECK(r.out[16 * rank] == word_at(64));
    CHECK(r.out[16 * rank + 15] == word_at(64 + 60));
  }
}
