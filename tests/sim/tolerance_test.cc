// What the hardware tolerates (docs/hardware_tolerance.md): the findings of severity `tolerated`
// and the .sync.aligned reconvergence, on hand-written PTX. Every rule has a test that fires it and a
// clean twin; the served behaviour (which address, which value) is checked against the SASS-derived
// rule in that document, computed here independently.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

struct Run {
  std::string error;
  std::vector<std::string> findings;
  std::vector<uint32_t> out;
};

Run run(const std::string& body, uint32_t threads = 32, const std::string& decls = "") {
  const std::string ptx = test::ptx_header() + ".visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<80>;\n"
                          " .reg .b64 %rd<16>;\n .reg .pred %p<8>;\n .shared .align 8 .b64 bar;\n"
                          " .shared .align 4 .b32 slot;\n" + decls + " ld.param.u64 %rd15, [out];\n" + body +
                          "\n ret;\n}\n";
  Run r;
  test::Harness h;
  try {
    h.load(ptx, "tol.ptx");
    const uint64_t out = h.zeros(4096);
    auto res = h.launch("k", {1, 1, 1}, {threads, 1, 1}, test::Params().add(out));
    r.findings = res.finding_lines();
    r.out = h.download<uint32_t>(out, 1024);
  } catch (const sim::SimError& e) {
    r.error = e.what();
  }
  return r;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& x : v)
    if (x.find(s) != std::string::npos) return true;
  return false;
}

const char* kGenericSlot = " cvta.shared.u64 %rd1, slot;\n";        // %rd1: generic address of slot
const char* kSharedSlot = " mov.u32 %r1, slot;\n cvt.u64.u32 %rd2, %r1;\n";  // %rd2: its shared address

}  // namespace

TEST_CASE("tcgen05.alloc: a generic address given to .shared::cta, and a shared address to the generic form") {
  const std::string tail = " ld.shared.u32 %r9, [slot];\n tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r9, 32;\n";
  SUBCASE("the forms as the ISA has them: no finding") {
    Run r = run(std::string(kGenericSlot) + kSharedSlot +
                " tcgen05.alloc.cta_group::1.sync.aligned.b32 [%rd1], 32;\n" + tail +
                " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;\n" + tail);
    CHECK(r.error == "");
    CHECK(r.findings.empty());
  }
  SUBCASE(".shared::cta with a generic address: its low 32 bits (the SASS is STS of the low word)") {
    Run r = run(std::string(kGenericSlot) + " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%rd1], 32;\n" +
                tail);
    CHECK(r.error == "");
    REQUIRE(r.findings.size() == 1);
    CHECK(has(r.findings, "[tolerated] generic-address-as-shared"));
    CHECK(has(r.findings, "tcgen05.alloc dst: the shared-memory address operand holds the generic address 0x7ffe"));
  }
  SUBCASE("the generic form with a 32-bit shared address (zero-extended)") {
    Run r = run(std::string(kSharedSlot) + " tcgen05.alloc.cta_group::1.sync.aligned.b32 [%rd2], 32;\n" + tail);
    CHECK(r.error == "");
    REQUIRE(r.findings.size() == 1);
    CHECK(has(r.findings, "[tolerated] shared-address-as-generic"));
  }
  SUBCASE("a global pointer stays an error") {
    Run r = run(" tcgen05.alloc.cta_group::1.sync.aligned.b32 [%rd15], 32;\n" + tail);
    CHECK(r.error.find("tcgen05.alloc dst: the generic address 0x7f") != std::string::npos);
    CHECK(r.error.find("is not in shared memory") != std::string::npos);
  }
}

TEST_CASE("mbarrier and tcgen05.commit: generic and shared barrier addresses read by their low 32 bits") {
  // One thread: init the barrier (count 1) in one form, arrive in another, wait in a third, store the
  // phase seen. A commit with nothing in flight arrives at once (count 1 again for the second phase).
  auto body = [](const std::string& init_addr_form, const std::string& arrive, const std::string& wait) {
    return std::string(" cvta.shared.u64 %rd3, bar;\n mov.u32 %r3, bar;\n cvt.u64.u32 %rd4, %r3;\n") +
           " mov.u32 %r0, %tid.x;\n setp.ne.u32 %p0, %r0, 0;\n @%p0 bra $Lend;\n" + init_addr_form + arrive + wait +
           " selp.u32 %r5, 1, 0, %p1;\n st.global.u32 [%rd15], %r5;\n$Lend:\n";
  };
  SUBCASE("clean forms") {
    Run r = run(body(" mbarrier.init.shared::cta.b64 [%r3], 1;\n", " mbarrier.arrive.b64 %rd5, [%rd3];\n",
                     " mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r3], 0;\n"));
    CHECK(r.error == "");
    CHECK(r.findings.empty());
    CHECK(r.out[0] == 1);
  }
  SUBCASE("init .shared::cta with a generic address, arrive generic with a shared address, try_wait both") {
    Run r = run(body(" mbarrier.init.shared::cta.b64 [%rd3], 1;\n", " mbarrier.arrive.b64 %rd5, [%rd4];\n",
                     " mbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd3], 0;\n"));
    CHECK(r.error == "");
    CHECK(r.out[0] == 1);  // the phase completed: all three named the same barrier
    CHECK(has(r.findings, "[tolerated] generic-address-as-shared"));
    CHECK(has(r.findings, "[tolerated] shared-address-as-generic"));
    CHECK(has(r.findings, "mbarrier.init: the shared-memory address operand holds the generic address"));
  }
  SUBCASE("tcgen05.commit: .shared::cluster with a generic address, and the generic form with a shared one") {
    Run r = run(body(" mbarrier.init.shared::cta.b64 [%r3], 2;\n",
                     " tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%rd3];\n"
                     " tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%rd4];\n",
                     "$Lw:\n mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r3], 0;\n @!%p1 bra $Lw;\n"));
    CHECK(r.error == "");
    CHECK(r.out[0] == 1);  // both commits arrived on the barrier
    CHECK(has(r.findings, "[tolerated] generic-address-as-shared"));
    CHECK(has(r.findings, "[tolerated] shared-address-as-generic"));
    CHECK(has(r.findings, "tcgen05.commit"));
  }
}

TEST_CASE("tcgen05.mma: enable-input-d as an integer immediate (ptxas: 0 is false, anything else true)") {
  // D (one column block) is C = 5 in every cell; A = B = 0 (shared memory zeroed): D = 0 * 0 + (enable ? 5 : 0).
  auto body = [](const std::string& enable) {
    return std::string(" mov.u32 %r0, %tid.x;\n"
                       " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n"
                       " ld.shared.u32 %r1, [slot];\n mov.u32 %r5, 0x40a00000;\n"
                       " tcgen05.st.sync.aligned.32x32b.x8.b32 [%r1], {%r5,%r5,%r5,%r5,%r5,%r5,%r5,%r5};\n"
                       " tcgen05.wait::st.sync.aligned;\n tcgen05.fence::before_thread_sync;\n"
                       " mov.u32 %r3, bar;\n setp.eq.u32 %p0, %r0, 0;\n"
                       " @%p0 mbarrier.init.shared::cta.b64 [%r3], 1;\n"
                       // idesc: bf16 x bf16 -> f32, M = 64 (M>>4 = 4 at bit 24), N = 8 (N>>3 = 1 at bit 17)
                       " mov.u32 %r4, 0x04020490;\n"
                       // the operands: the zeroed tile (A = B = 0), made visible to the async proxy
                       " mov.u32 %r7, tile;\n shl.b32 %r8, %r0, 6;\n add.u32 %r8, %r7, %r8;\n"
                       " st.shared.v4.u32 [%r8], {0, 0, 0, 0};\n st.shared.v4.u32 [%r8+16], {0, 0, 0, 0};\n"
                       " st.shared.v4.u32 [%r8+32], {0, 0, 0, 0};\n st.shared.v4.u32 [%r8+48], {0, 0, 0, 0};\n"
                       " fence.proxy.async.shared::cta;\n bar.sync 0;\n"
                       // descriptors: start = tile, LBO 16, SBO 128, fixed 0b001 at bit 46, no swizzle
                       " shr.u32 %r7, %r7, 4;\n cvt.u64.u32 %rd8, %r7;\n or.b64 %rd6, %rd8, 0x0000400800010000;\n"
                       " @%p0 tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd6, %rd6, %r4, ") +
           enable + ";\n @%p0 tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r3];\n" +
           "$Lw:\n mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r3], 0;\n @!%p1 bra $Lw;\n"
           " tcgen05.fence::after_thread_sync;\n tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r6}, [%r1];\n"
           " tcgen05.wait::ld.sync.aligned;\n mul.wide.u32 %rd7, %r0, 4;\n add.u64 %rd7, %rd15, %rd7;\n"
           " st.global.u32 [%rd7], %r6;\n tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\n";
  };
  const std::string decls = " .shared .align 1024 .b8 tile[2048];\n";
  SUBCASE("0: the old D is not read") {
    Run r = run(body("0"), 32, decls);
    REQUIRE(r.error == "");
    CHECK(r.out[0] == 0u);
    CAPTURE(r.findings.size() > 1 ? r.findings[1] : std::string());
    REQUIRE(r.findings.size() == 1);
    CHECK(has(r.findings, "[tolerated] tcgen05-mma-imm-enable-input-d"));
    CHECK(has(r.findings, "enable-input-d is the integer immediate 0 instead of a predicate; ptxas reads it as false"));
  }
  SUBCASE("1: D accumulates") {
    Run r = run(body("1"), 32, decls);
    REQUIRE(r.error == "");
    CHECK(r.out[0] == 0x40a00000u);  // 5.0f
    CHECK(has(r.findings, "ptxas reads it as true"));
  }
  SUBCASE("a predicate: no finding") {
    Run r = run(" setp.ne.u32 %p3, 1, 0;\n" + body("%p3"), 32, decls);
    REQUIRE(r.error == "");
    CHECK(r.out[0] == 0x40a00000u);
    CHECK(r.findings.empty());
  }
}

TEST_CASE("tcgen05.ld after the commit's mbarrier wait without tcgen05.fence::after_thread_sync (the CuTe tutorials)") {
  // D = 0 * 0 + C, C = 5 in every cell (as above, enable-input-d a predicate): the load after the
  // wait reads the completed MMA's 5.0f with or without the fence; without it, the tolerated finding.
  auto body = [](bool fence) {
    return std::string(" mov.u32 %r0, %tid.x;\n setp.ne.u32 %p3, 1, 0;\n"
                       " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n"
                       " ld.shared.u32 %r1, [slot];\n mov.u32 %r5, 0x40a00000;\n"
                       " tcgen05.st.sync.aligned.32x32b.x8.b32 [%r1], {%r5,%r5,%r5,%r5,%r5,%r5,%r5,%r5};\n"
                       " tcgen05.wait::st.sync.aligned;\n tcgen05.fence::before_thread_sync;\n"
                       " mov.u32 %r3, bar;\n setp.eq.u32 %p0, %r0, 0;\n"
                       " @%p0 mbarrier.init.shared::cta.b64 [%r3], 1;\n mov.u32 %r4, 0x04020490;\n"
                       " mov.u32 %r7, tile;\n shl.b32 %r8, %r0, 6;\n add.u32 %r8, %r7, %r8;\n"
                       " st.shared.v4.u32 [%r8], {0, 0, 0, 0};\n st.shared.v4.u32 [%r8+16], {0, 0, 0, 0};\n"
                       " st.shared.v4.u32 [%r8+32], {0, 0, 0, 0};\n st.shared.v4.u32 [%r8+48], {0, 0, 0, 0};\n"
                       " fence.proxy.async.shared::cta;\n bar.sync 0;\n"
                       " shr.u32 %r7, %r7, 4;\n cvt.u64.u32 %rd8, %r7;\n or.b64 %rd6, %rd8, 0x0000400800010000;\n"
                       " @%p0 tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd6, %rd6, %r4, %p3;\n"
                       " @%p0 tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r3];\n"
                       "$Lw:\n mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r3], 0;\n @!%p1 bra $Lw;\n") +
           (fence ? " tcgen05.fence::after_thread_sync;\n" : "") +
           " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r6}, [%r1];\n"
           " tcgen05.wait::ld.sync.aligned;\n mul.wide.u32 %rd7, %r0, 4;\n add.u64 %rd7, %rd15, %rd7;\n"
           " st.global.u32 [%rd7], %r6;\n tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\n";
  };
  const std::string decls = " .shared .align 1024 .b8 tile[2048];\n";
  SUBCASE("no fence: the completed result and the tolerated finding") {
    Run r = run(body(false), 32, decls);
    REQUIRE(r.error == "");
    CHECK(r.out[0] == 0x40a00000u);
    CHECK(r.out[31] == 0x40a00000u);
    REQUIRE(r.findings.size() == 1);
    CHECK(has(r.findings, "[tolerated] tcgen05-missing-fence-after"));
  }
  SUBCASE("with the fence: no finding") {
    Run r = run(body(true), 32, decls);
    REQUIRE(r.error == "");
    CHECK(r.out[0] == 0x40a00000u);
    CHECK(r.findings.empty());
  }
}

TEST_CASE(".sync.aligned instructions wait for lanes that diverged earlier, as ptxas's WARPSYNC does") {
  // Lane 0 alone waits (nanosleep: its group is not ready, so the other lanes run ahead through the
  // join), then the whole warp executes tcgen05.ld and tcgen05.dealloc.
  auto diverge = [](int n) {
    return fmt::format(" mov.u32 %r0, %tid.x;\n setp.ne.u32 %p0, %r0, 0;\n @%p0 bra $Ljoin{0};\n"
                       " nanosleep.u32 3000;\n$Ljoin{0}:\n", n);
  };
  const std::string alloc = " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n"
                            " ld.shared.u32 %r1, [slot];\n";
  SUBCASE("tcgen05.ld, tcgen05.wait::ld and tcgen05.dealloc after lane 0 waited alone") {
    Run r = run(alloc + " mov.u32 %r5, 9;\n tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r5};\n"
                        " tcgen05.wait::st.sync.aligned;\n" + diverge(1) +
                " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r6}, [%r1];\n tcgen05.wait::ld.sync.aligned;\n" +
                diverge(2) + " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\n"
                " mul.wide.u32 %rd7, %r0, 4;\n add.u64 %rd7, %rd15, %rd7;\n st.global.u32 [%rd7], %r6;\n");
    REQUIRE(r.error == "");
    CHECK(r.findings.empty());
    for (int t = 0; t < 32; ++t) CHECK(r.out[t] == 9u);
  }
  SUBCASE("mma.sync / ldmatrix style: the same wait for a plain .sync.aligned warp collective") {
    Run r = run(" .reg .b32 %m<4>;\n mov.u32 %r0, %tid.x;\n mov.u32 %r2, mat;\n" + diverge(3) +
                    " ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%m0}, [%r2];\n",
                32, " .shared .align 16 .b8 mat[256];\n");
    CHECK(r.error == "");
  }
  SUBCASE("a lane that exited: an error naming it") {
    Run r = run(alloc + " mov.u32 %r0, %tid.x;\n setp.eq.u32 %p0, %r0, 5;\n @%p0 exit;\n"
                        " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\n");
    CHECK(r.error.find("tcgen05.dealloc must be executed by all 32 threads of the warp convergently (it is "
                       ".sync.aligned), but lanes 5 of the warp have exited") != std::string::npos);
  }
  SUBCASE("lanes parked elsewhere forever: the deadlock report says where") {
    Run r = run(alloc + " mov.u32 %r0, %tid.x;\n mov.u32 %r3, bar;\n setp.eq.u32 %p0, %r0, 0;\n"
                        " @%p0 mbarrier.init.shared::cta.b64 [%r3], 1;\n bar.warp.sync -1;\n"
                        " setp.lt.u32 %p1, %r0, 4;\n @!%p1 bra $Ld;\n"
                        "$Lw:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;\n @!%p2 bra $Lw;\n"
                        "$Ld:\n tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\n");
    CHECK(r.error.find("deadlock") != std::string::npos);
    CHECK(r.error.find("lanes 0-3") != std::string::npos);
    CHECK(r.error.find("lanes 4-31") != std::string::npos);
  }
  SUBCASE("a guard that is not warp-uniform: an error naming the lanes") {
    Run r = run(alloc + " mov.u32 %r0, %tid.x;\n setp.lt.u32 %p0, %r0, 8;\n"
                        " @%p0 tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\n");
    CHECK(r.error.find("lanes 8-31 reach it with a false guard predicate") != std::string::npos);
  }
}
