// Clusters and distributed shared memory through PTX (PTX ISA §5.1.7, §9.7.9.23-24, §9.7.13.3,
// §9.7.13.15 remote arrivals): every expected value is worked by hand in the comments; the
// corpora kernels/cluster/* are the H200-judged end-to-end tests.
#include <doctest/doctest.h>

#include <string>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

std::string kernel(const std::string& body) {
  return test::ptx_header("sm_90a") + ".shared .align 8 .b64 bar[2];\n.shared .align 4 .b32 buf[32];\n" + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  mov.u32 %r4, bar;
  mov.u32 %r5, buf;
  mov.u32 %r6, %ctaid.x;
)" + body + "\n  ret;\n}\n";
}

struct Run {
  std::vector<uint32_t> out;
  sim::LaunchResult r;
};

Run run(const std::string& ptx, sim::Dim3 grid, sim::Dim3 cluster, uint32_t threads = 32, uint32_t words = 256) {
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "cl.ptx");
  const uint64_t d = h.zeros(words * 4);
  Run r;
  r.r = h.launch("k", grid, {threads, 1, 1}, test::Params().add(d), 0, cluster);
  r.out = h.download<uint32_t>(d, words);
  return r;
}

std::string error_of(const std::string& ptx, sim::Dim3 grid, sim::Dim3 cluster, uint32_t threads = 32) {
  try {
    run(ptx, grid, cluster, threads);
  } catch (const sim::SimError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("DSMEM: a ring through mapa + st.shared::cluster, barrier.cluster, getctarank, generic mapa") {
  // 2 clusters of 4 CTAs. Thread t of rank r stores 100*r + t into buf[t] of rank (r+1)%4, then
  // barrier.cluster; each thread reads its own buf[t] (written by the left neighbour (r+3)%4:
  // 100*((r+3)%4) + t) and, through a generic mapa into rank (r+2)%4, that CTA's buf[t]
  // (written by rank (r+1)%4: 100*((r+1)%4) + t). out[ctaid*64 + t] = own read, out[ctaid*64 + 32 + t] = peer read; out[512 + ctaid] = getctarank
  // of the mapa'd address of rank (r+1)%4 (thread 0).
  const std::string body = R"(
  add.u32 %r7, %r2, 1;
  rem.u32 %r7, %r7, %r3;                      // right neighbour
  shl.b32 %r8, %r1, 2;
  add.u32 %r9, %r5, %r8;                      // &buf[t] (shared::cta)
  mapa.shared::cluster.u32 %r10, %r9, %r7;
  mul.lo.u32 %r11, %r2, 100;
  add.u32 %r11, %r11, %r1;
  st.shared::cluster.u32 [%r10], %r11;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  ld.shared.u32 %r12, [%r9];
  add.u32 %r13, %r2, 2;
  rem.u32 %r13, %r13, %r3;
  cvt.u64.u32 %rd3, %r9;
  cvta.shared.u64 %rd2, %rd3;                 // generic &buf[t]
  mapa.u64 %rd4, %rd2, %r13;
  ld.u32 %r14, [%rd4];
  getctarank.u64 %r15, %rd4;
  mul.lo.u32 %r16, %r6, 64;
  add.u32 %r16, %r16, %r1;
  mul.wide.u32 %rd5, %r16, 4;
  add.u64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r12;
  st.global.u32 [%rd6+128], %r14;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Lend;
  getctarank.shared::cluster.u32 %r17, %r10;
  mul.wide.u32 %rd7, %r6, 4;
  add.u64 %rd8, %rd1, %rd7;
  st.global.u32 [%rd8+2048], %r17;
  st.global.u32 [%rd8+2080], %r15;
$Lend:
  barrier.cluster.arrive;
  barrier.cluster.wait;
)";
  const Run r = run(kernel(body), {8, 1, 1}, {4, 1, 1}, 32, 600);
  for (uint32_t cta = 0; cta < 8; ++cta) {
    const uint32_t rank = cta % 4;
    CAPTURE(cta);
    for (uint32_t t = 0; t < 32; ++t) {
      CHECK(r.out[cta * 64 + t] == 100 * ((rank + 3) % 4) + t);
      CHECK(r.out[cta * 64 + 32 + t] == 100 * ((rank + 1) % 4) + t);
    }
    CHECK(r.out[512 + cta] == (rank + 1) % 4);  // getctarank(mapa(.., right)) = right
    CHECK(r.out[520 + cta] == (rank + 2) % 4);  // getctarank of the generic mapa into r+2
  }
  CHECK(r.r.findings.empty());
}

TEST_CASE("remote mbarrier arrive: every CTA of the cluster arrives on rank 0's barrier") {
  // Rank 0 initialises bar with count 4 (the cluster size) and makes the init visible with a
  // cluster barrier; thread 0 of every rank r stores r+1 into rank 0's buf[r] and arrives
  // (.release.cluster, .shared::cluster, sink) on rank 0's bar; rank 0 waits on parity 0 and
  // writes buf[0..3] = 1,2,3,4 and their sum 10. A final cluster barrier keeps rank 0's shared
  // memory alive until everyone is done.
  const std::string body = R"(
  setp.ne.u32 %p1, %r1, 0;
  setp.ne.u32 %p2, %r2, 0;
  or.pred %p3, %p1, %p2;
  @%p3 bra $Linit_done;
  mbarrier.init.shared::cta.b64 [%r4], 4;
  fence.mbarrier_init.release.cluster;
$Linit_done:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  @%p1 bra $Lafter_arrive;
  mov.u32 %r20, 0;
  mapa.shared::cluster.u32 %r21, %r4, %r20;   // rank 0's bar
  shl.b32 %r22, %r2, 2;
  add.u32 %r23, %r5, %r22;
  mapa.shared::cluster.u32 %r24, %r23, %r20;  // rank 0's buf[r]
  add.u32 %r25, %r2, 1;
  st.shared::cluster.u32 [%r24], %r25;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r21];
$Lafter_arrive:
  @%p2 bra $Lend;
$Lwait:
  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p4, [%r4], 0;
  @!%p4 bra $Lwait;
  @%p1 bra $Lend;
  ld.shared.u32 %r30, [buf];
  ld.shared.u32 %r31, [buf+4];
  ld.shared.u32 %r32, [buf+8];
  ld.shared.u32 %r33, [buf+12];
  add.u32 %r34, %r30, %r31;
  add.u32 %r34, %r34, %r32;
  add.u32 %r34, %r34, %r33;
  st.global.u32 [%rd1], %r30;
  st.global.u32 [%rd1+4], %r31;
  st.global.u32 [%rd1+8], %r32;
  st.global.u32 [%rd1+12], %r33;
  st.global.u32 [%rd1+16], %r34;
$Lend:
  barrier.cluster.arrive;
  barrier.cluster.wait;
)";
  const Run r = run(kernel(body), {4, 1, 1}, {4, 1, 1}, 64);
  CHECK(r.out[0] == 1);
  CHECK(r.out[1] == 2);
  CHECK(r.out[2] == 3);
  CHECK(r.out[3] == 4);
  CHECK(r.out[4] == 10);
  CHECK(r.r.findings.empty());
}

TEST_CASE("DSMEM misuse: a store into a peer that may exit first, a rank outside the cluster") {
  // Rank 1 stores into rank 0's buf with no cluster barrier; rank 0 exits at once: the store is
  // not ordered before rank 0's exit. The GPU runs such kernels (docs/cluster_lifetime.md): the
  // tolerated finding dsmem-exit-unordered at the store, by rank 1's thread 0, naming rank 0's exit;
  // no error.
  const std::string store = R"(
  setp.ne.u32 %p1, %r2, 1;
  @%p1 bra $Lend;
  nanosleep.u32 1000;
  mov.u32 %r20, 0;
  mapa.shared::cluster.u32 %r21, %r5, %r20;
  st.shared::cluster.u32 [%r21], %r2;
$Lend:
)";
  // (Every lane stores its rank, one value: lanes storing different values to one word would be
  // the finding warp-write-conflict too.)
  const Run late = run(kernel(store), {2, 1, 1}, {2, 1, 1});
  REQUIRE(late.r.findings.size() == 1);
  CHECK(late.r.findings[0].rule == sim::Rule::DsmemExitUnordered);
  CHECK(late.r.findings[0].site.text.find("st.shared::cluster.u32") != std::string::npos);
  REQUIRE(!late.r.findings[0].first.empty());
  CHECK(late.r.findings[0].first[0].detail.find("CTA (0,0,0) (rank 0 of cluster (0,0,0))") != std::string::npos);
  CHECK(late.r.findings[0].first[0].detail.find("exit") != std::string::npos);
  // The same store, and rank 0 waits at a cluster barrier that rank 1 reaches after the store:
  // correct, no error.
  const std::string ok = store + "  barrier.cluster.arrive;\n  barrier.cluster.wait;\n";
  CHECK(error_of(kernel(ok), {2, 1, 1}, {2, 1, 1}) == "(no error)");
  // mapa to rank 2 in a cluster of 2 is bit arithmetic (the H200 returns 0x02000000 | offset:
  // smem_probe_m5); the access through it is the error (the H200 fails the launch: smem_probe_m3).
  const std::string bad_rank = "  mov.u32 %r20, 2;\n  mapa.shared::cluster.u32 %r21, %r5, %r20;\n"
                               "  ld.shared::cluster.u32 %r22, [%r21];\n";
  CHECK(error_of(kernel(bad_rank), {2, 1, 1}, {2, 1, 1}).find("names CTA rank 2, but the cluster has 2 CTAs") !=
        std::string::npos);
}

TEST_CASE("barrier.cluster: exited threads do not count; a missing arrival is a deadlock report") {
  // Warp 1 of every CTA exits at once; warp 0 arrives and waits: all non-exited threads arrived.
  const std::string exits = R"(
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $Lend;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  st.global.u32 [%rd1], 7;
$Lend:
)";
  const Run r = run(kernel(exits), {2, 1, 1}, {2, 1, 1}, 64);
  CHECK(r.out[0] == 7);
  // Rank 1 waits on its own mbarrier that nothing completes; rank 0 waits at the cluster barrier.
  const std::string stuck = R"(
  setp.ne.u32 %p1, %r2, 1;
  @%p1 bra $Lrank0;
  mbarrier.init.shared::cta.b64 [%r4], 1;
$Lw:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], 0;
  @!%p2 bra $Lw;
$Lrank0:
  barrier.cluster.arrive;
  barrier.cluster.wait;
)";
  const std::string e = error_of(kernel(stuck), {2, 1, 1}, {2, 1, 1});
  CHECK(e.find("deadlock") != std::string::npos);
  CHECK(e.find("CTA (0,0,0) warp 0 lanes 0-31: barrier.cluster.wait for phase 0 of the cluster barrier") !=
        std::string::npos);
  CHECK(e.find("barrier.cluster of cluster (0,0,0): phase 0, 32 of 64 non-exited threads arrived") != std::string::npos);
  CHECK(e.find("CTA (1,0,0): mbarrier at shared::cta 0x400 (phase 0, parity 0, 1 of 1 arrivals pending, tx-count 0)") !=
        std::string::npos);
  CHECK(e.find("CTA (1,0,0) warp 0 lanes 0-31: mbarrier wait on the mbarrier at shared::cta 0x400") != std::string::npos);
  // barrier.cluster.wait without an arrive.
  CHECK(error_of(kernel("  barrier.cluster.wait;\n"), {2, 1, 1}, {2, 1, 1}).find("without a preceding "
        "barrier.cluster.arrive") != std::string::npos);
}

TEST_CASE("cluster launch errors") {
  CHECK(error_of(kernel(""), {3, 1, 1}, {2, 1, 1}).find("does not divide the grid") != std::string::npos);
}

TEST_CASE("st.async / red.async into a peer complete_tx its mbarrier when the data has landed") {
  // Rank 0: init(bar, 1), buf[2] = 100, buf[3] = 0xF0, cluster barrier, arrive.expect_tx(16).
  // Rank 1 thread 0: st.async.v2 {11, 22} -> buf[0..1] (8 bytes), red.async.add 5 -> buf[2]
  // (4 bytes), red.async.xor 0xFF -> buf[3] (4 bytes): 16 bytes complete the phase. Rank 0 waits
  // (parity 0) and sees 11, 22, 100 + 5 = 105, 0xF0 ^ 0xFF = 0x0F.
  const std::string body = R"(
  setp.ne.u32 %p1, %r1, 0;
  setp.ne.u32 %p2, %r2, 0;
  or.pred %p3, %p1, %p2;
  @%p3 bra $Linit_done;
  mbarrier.init.shared::cta.b64 [%r4], 1;
  st.shared.u32 [buf+8], 100;
  st.shared.u32 [buf+12], 0xF0;
$Linit_done:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  @%p1 bra $Lend;
  @%p2 bra $Lsend;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r4], 16;
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r4], 0;
  ld.shared.u32 %r30, [buf];
  ld.shared.u32 %r31, [buf+4];
  ld.shared.u32 %r32, [buf+8];
  ld.shared.u32 %r33, [buf+12];
  st.global.u32 [%rd1], %r30;
  st.global.u32 [%rd1+4], %r31;
  st.global.u32 [%rd1+8], %r32;
  st.global.u32 [%rd1+12], %r33;
  selp.u32 %r34, 1, 0, %p4;
  st.global.u32 [%rd1+16], %r34;
  bra $Lend;
$Lsend:
  mov.u32 %r20, 0;
  mapa.shared::cluster.u32 %r21, %r4, %r20;
  mapa.shared::cluster.u32 %r22, %r5, %r20;
  st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u32 [%r22], {11, 22}, [%r21];
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r22+8], 5, [%r21];
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.xor.b32 [%r22+12], 0xFF, [%r21];
$Lend:
  barrier.cluster.arrive;
  barrier.cluster.wait;
)";
  const Run r = run(kernel(body), {2, 1, 1}, {2, 1, 1}, 32);
  CHECK(r.out[0] == 11);
  CHECK(r.out[1] == 22);
  CHECK(r.out[2] == 105);
  CHECK(r.out[3] == 0x0F);
  CHECK(r.out[4] == 1);
  CHECK(r.r.findings.empty());
  // The mbarrier in another CTA than the destination.
  const std::string wrong = R"(
  setp.ne.u32 %p2, %r2, 1;
  @%p2 bra $Lend;
  mov.u32 %r20, 0;
  mapa.shared::cluster.u32 %r22, %r5, %r20;
  st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r22], 1, [%r4];
$Lend:
  barrier.cluster.arrive;
  barrier.cluster.wait;
)";
  CHECK(error_of(kernel(wrong), {2, 1, 1}, {2, 1, 1}).find("must be in the same CTA as the destination") !=
        std::string::npos);
}

TEST_CASE("shared addresses carry the cluster rank in bits 24-31 (the H200's encoding)") {
  // The kernel's .shared variables: bar (16 bytes, align 8) at 0x400 after the 1 KiB reserve, buf
  // at 0x410 (models/machine/shared_memory.h). Thread 0 of CTA c (rank r of 2) writes:
  //   out[c*8+0] = mov of buf        = r << 24 | 0x410
  //   out[c*8+1] = cvta.to.shared of cvta.shared of it (the low 32 bits round-trip)
  //   out[c*8+2] = mapa(buf, 255)    = 0xff000410 (no range check)
  //   out[c*8+3] = getctarank(buf & ~(1 << 24)) = 0 (the even CTA of the pair)
  //   out[c*8+4] = isspacep.shared::cta of the peer's generic address = 0, out[c*8+5] ::cluster = 1
  //   out[c*8+6] = ld.shared::cluster [buf & ~(1 << 24)]: rank 0's buf[0] = 0x500 (rank 0 stored it)
  const std::string body = R"(
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Lskip;
  setp.eq.u32 %p2, %r2, 0;
  mov.u32 %r7, 0x500;
  @%p2 st.shared.u32 [buf], %r7;
$Lskip:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  @%p1 bra $Lend;
  mul.wide.u32 %rd2, %r6, 32;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  cvt.u64.u32 %rd4, %r5;
  cvta.shared.u64 %rd5, %rd4;
  cvta.to.shared.u64 %rd6, %rd5;
  cvt.u32.u64 %r8, %rd6;
  st.global.u32 [%rd3+4], %r8;
  mov.u32 %r9, 255;
  mapa.shared::cluster.u32 %r10, %r5, %r9;
  st.global.u32 [%rd3+8], %r10;
  and.b32 %r11, %r5, 0xFEFFFFFF;
  getctarank.shared::cluster.u32 %r12, %r11;
  st.global.u32 [%rd3+12], %r12;
  xor.b32 %r13, %r2, 1;
  mapa.u64 %rd7, %rd5, %r13;
  isspacep.shared::cta %p3, %rd7;
  selp.u32 %r14, 1, 0, %p3;
  st.global.u32 [%rd3+16], %r14;
  isspacep.shared::cluster %p4, %rd7;
  selp.u32 %r15, 1, 0, %p4;
  st.global.u32 [%rd3+20], %r15;
  ld.shared::cluster.u32 %r16, [%r11];
  st.global.u32 [%rd3+24], %r16;
$Lend:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
)";
  const Run r = run(kernel(body), {2, 1, 1}, {2, 1, 1});
  for (uint32_t c = 0; c < 2; ++c) {
    CAPTURE(c);
    CHECK(r.out[c * 8 + 0] == (c << 24 | 0x410));
    CHECK(r.out[c * 8 + 1] == (c << 24 | 0x410));
    CHECK(r.out[c * 8 + 2] == 0xff000410u);
    CHECK(r.out[c * 8 + 3] == 0);
    CHECK(r.out[c * 8 + 4] == 0);
    CHECK(r.out[c * 8 + 5] == 1);
    CHECK(r.out[c * 8 + 6] == 0x500);
  }
  // A .shared::cta access through the peer's address is an error naming both ranks (the H200 raises
  // an illegal-instruction error: kernels/cluster/bad/smem_probe_m0).
  const std::string bad = "  xor.b32 %r7, %r5, 0x1000000;\n  ld.shared::cta.u32 %r8, [%r7];\n";
  CHECK(error_of(kernel(bad), {2, 1, 1}, {2, 1, 1}).find("names CTA rank 1, the executing CTA is rank 0") !=
        std::string::npos);
}
