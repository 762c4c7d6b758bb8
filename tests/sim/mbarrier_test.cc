// The mbarrier object's rules (PTX ISA §9.7.13.15), first on the object alone with hand-worked
// states (each CHECK's comment gives the arithmetic), then through PTX on the simulator: waits that
// suspend on the simulated clock, remote arrivals, the misuse reports and the deadlock report.
#include <doctest/doctest.h>

#include <string>

#include "models/machine/machine_config.h"
#include "sim/units/mbarrier.h"
#include "tests/sim/harness.h"

using namespace tcsim;
using sim::Mbarrier;
using sim::MbarrierError;

namespace {

struct State {
  uint32_t phase, expected, pending;
  int32_t tx;
};
void check_state(const Mbarrier& b, State s) {
  CHECK(b.phase == s.phase);
  CHECK(b.expected == s.expected);
  CHECK(b.pending == s.pending);
  CHECK(b.tx == s.tx);
}

}  // namespace

TEST_CASE("mbarrier object: init ranges (§9.7.13.15.9)") {
  // count must lie in [1, 2^20 - 1].
  CHECK_THROWS_AS(Mbarrier::make(0x40, 0), MbarrierError);
  CHECK_THROWS_AS(Mbarrier::make(0x40, 1u << 20), MbarrierError);
  check_state(Mbarrier::make(0x40, (1u << 20) - 1), {0, (1u << 20) - 1, (1u << 20) - 1, 0});
  check_state(Mbarrier::make(0x40, 3), {0, 3, 3, 0});
}

TEST_CASE("mbarrier object: arrivals complete a phase and reload the pending count (§9.7.13.15.6, .13)") {
  Mbarrier b = Mbarrier::make(0x10, 3);
  uint64_t tok = 0;
  CHECK_FALSE(b.arrive(1, 0, false, false, &tok));  // 3 - 1 = 2 pending
  check_state(b, {0, 3, 2, 0});
  // The token is the object before the arrive: pending 3, expected 3, phase 0, tag (0x10>>3)+1 = 3.
  CHECK(tok == (3ull | 3ull << 20 | 0ull << 40 | 3ull << 44));
  CHECK(b.arrive(2, 0, false, false, nullptr));  // 2 - 2 = 0 and tx 0: phase 0 completes
  check_state(b, {1, 3, 3, 0});                   // phase 1, pending reloaded to expected 3
  // More arrivals than pending: the pending count would fall below zero.
  CHECK_THROWS_WITH_AS(b.arrive(4, 0, false, false, nullptr), doctest::Contains("exceeds the 3 pending"), MbarrierError);
  CHECK_THROWS_WITH_AS(b.arrive(0, 0, false, false, nullptr), doctest::Contains("outside [1, 2^20 - 1]"), MbarrierError);
  check_state(b, {1, 3, 3, 0});  // a failed arrive changes nothing
}

TEST_CASE("mbarrier object: the tx-count gates completion and may go negative (§9.7.13.15.1, .11, .12)") {
  Mbarrier b = Mbarrier::make(0x8, 1);
  CHECK_FALSE(b.arrive(1, 4096, false, false, nullptr));  // arrive.expect_tx: tx 4096, pending 0
  check_state(b, {0, 1, 0, 4096});
  CHECK_FALSE(b.complete_tx(1024));  // 4096 - 1024 = 3072 still expected
  check_state(b, {0, 1, 0, 3072});
  CHECK(b.complete_tx(3072));        // tx 0 and pending 0: phase 0 completes
  check_state(b, {1, 1, 1, 0});
  // complete_tx before expect_tx: -16, the arrive leaves the phase open; expect_tx(16) closes it.
  CHECK_FALSE(b.complete_tx(16));
  CHECK_FALSE(b.arrive(1, 0, false, false, nullptr));
  check_state(b, {1, 1, 0, -16});
  CHECK(b.expect_tx(16));
  check_state(b, {2, 1, 1, 0});
  // Range: |tx| <= 2^20 - 1. 2^20 - 1 fits, one more overflows.
  CHECK_FALSE(b.expect_tx((1u << 20) - 1));
  CHECK_THROWS_WITH_AS(b.expect_tx(1), doctest::Contains("overflows the tx-count"), MbarrierError);
  CHECK_FALSE(b.complete_tx((1u << 20) - 1));  // back to 0 (pending 1: no completion)
  CHECK_FALSE(b.complete_tx((1u << 20) - 1));  // -(2^20 - 1): the lower limit, still legal
  CHECK_THROWS_WITH_AS(b.complete_tx(1), doctest::Contains("below -(2^20 - 1)"), MbarrierError);
  CHECK_THROWS_WITH_AS(b.expect_tx(1u << 20), doctest::Contains("outside [0, 2^20 - 1]"), MbarrierError);
}

TEST_CASE("mbarrier object: arrive_drop lowers the expected count of later phases (§9.7.13.15.14)") {
  Mbarrier b = Mbarrier::make(0x8, 4);
  CHECK_FALSE(b.arrive(1, 0, true, false, nullptr));  // expected 4 - 1 = 3, pending 4 - 1 = 3
  check_state(b, {0, 3, 3, 0});
  CHECK(b.arrive(3, 0, false, false, nullptr));       // phase 0 completes; phase 1 expects 3
  check_state(b, {1, 3, 3, 0});
  CHECK_THROWS_WITH_AS(b.arrive(4, 0, true, false, nullptr), doctest::Contains("below zero"), MbarrierError);
}

TEST_CASE("mbarrier object: .noComplete must not complete the phase (§9.7.13.15.13)") {
  Mbarrier b = Mbarrier::make(0x8, 2);
  uint64_t tok = 0;
  CHECK_FALSE(b.arrive(1, 0, false, true, &tok));  // pending 2 -> 1: allowed
  CHECK(sim::mbarrier_token_pending(tok) == 2);    // the pending count before the arrive (H200)
  CHECK_THROWS_WITH_AS(b.arrive(1, 0, false, true, nullptr), doctest::Contains("would complete the current phase"),
                       MbarrierError);
  check_state(b, {0, 2, 1, 0});
  // With transaction units still expected the last arrival does not complete the phase: allowed.
  CHECK_FALSE(b.expect_tx(8));
  CHECK_FALSE(b.arrive(1, 0, false, true, nullptr));
  check_state(b, {0, 2, 0, 8});
  // pending_count needs a .noComplete state.
  uint64_t plain = 0;
  Mbarrier c = Mbarrier::make(0x8, 2);
  c.arrive(1, 0, false, false, &plain);
  CHECK_THROWS_WITH_AS(sim::mbarrier_token_pending(plain), doctest::Contains("does not come from"), MbarrierError);
}

TEST_CASE("mbarrier object: parity and state waits (§9.7.13.15.16)") {
  Mbarrier b = Mbarrier::make(0x18, 1);
  uint32_t wf = 99, tp = 0;
  // Phase 0 (parity 0) in progress: parity 0 is not complete, parity 1 names the "preceding" phase.
  CHECK_FALSE(b.parity_complete(0, &wf));
  CHECK(wf == 0);
  CHECK(b.parity_complete(1, &wf));
  uint64_t t0 = 0;
  CHECK(b.arrive(1, 0, false, false, &t0));  // phase 0 completes
  CHECK(b.state_complete(t0, &wf, &tp));
  CHECK(tp == 0);
  uint64_t t1 = 0;
  b.arrive(1, 0, false, false, &t1);         // phase 1 completes: now phase 2
  uint64_t t2 = 0;
  b.expect_tx(4);
  b.arrive(1, 0, false, false, &t2);         // phase 2 stays open (tx 4)
  CHECK_FALSE(b.state_complete(t2, &wf, &tp));
  CHECK(wf == 2);
  CHECK(b.state_complete(t1, &wf, &tp));     // the token of phase 1: complete
  CHECK(tp == 1);
  CHECK_FALSE(b.parity_complete(0, &wf));    // phase 2 (parity 0) in progress
  CHECK(b.parity_complete(1, &wf));          // phase 1 (parity 1) complete
  // A token of another barrier (address 0x20: tag (0x20>>3)+1 = 5 instead of 4).
  Mbarrier other = Mbarrier::make(0x20, 1);
  uint64_t to = 0;
  other.arrive(1, 0, false, false, &to);
  CHECK_THROWS_WITH_AS(b.state_complete(to, &wf, &tp), doctest::Contains("on the one at shared::cta 0x20"), MbarrierError);
}

// ---- through PTX -------------------------------------------------------------------------------

namespace {

std::string kernel(const std::string& body, const std::string& decls = "") {
  return test::ptx_header("sm_90a") + ".shared .align 8 .b64 bar[4];\n.shared .align 4 .b32 data[64];\n" + decls +
         R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;          // warp
  and.b32 %r3, %r1, 31;         // lane
  mov.u32 %r4, bar;
  mov.u32 %r5, data;
)" + body + "\n  ret;\n}\n";
}

sim::LaunchResult run(const std::string& ptx, uint32_t threads, std::vector<uint32_t>* out = nullptr,
                      sim::DeviceOptions o = {}, uint32_t out_words = 64) {
  test::Harness h(isa::Arch::Sm90a, o);
  h.load(ptx, "mbar.ptx");
  const uint64_t d = h.zeros(out_words * 4);
  auto r = h.launch("k", {1, 1, 1}, {threads, 1, 1}, test::Params().add(d));
  if (out) *out = h.download<uint32_t>(d, out_words);
  return r;
}

std::string error_of(const std::string& ptx, uint32_t threads) {
  try {
    run(ptx, threads);
  } catch (const sim::SimError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("mbarrier PTX: a consumer suspends on the simulated clock until the producer's arrive") {
  // Warp 1 sleeps 20000 ns, writes data and arrives (release); warp 0 waits with try_wait.parity
  // (no hint) and reads the data after the wait (acquire). The waiting warp issues a handful of
  // instructions, not one per cycle: no busy spinning.
  const std::string body = R"(
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Lsync;
  mbarrier.init.shared::cta.b64 [%r4], 1;
$Lsync:
  bar.sync 0;
  setp.eq.u32 %p2, %r2, 1;
  @%p2 bra $Lproducer;
$Lwait:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r4], 0;
  @!%p3 bra $Lwait;
  shl.b32 %r6, %r3, 2;
  add.u32 %r7, %r5, %r6;
  ld.shared.u32 %r8, [%r7];
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  bra $Ldone;
$Lproducer:
  nanosleep.u32 20000;
  shl.b32 %r6, %r3, 2;
  add.u32 %r7, %r5, %r6;
  add.u32 %r8, %r3, 1000;
  st.shared.u32 [%r7], %r8;
  bar.warp.sync -1;
  setp.ne.u32 %p4, %r3, 0;
  @%p4 bra $Ldone;
  mbarrier.arrive.release.cta.shared::cta.b64 %rd4, [%r4];
$Ldone:
)";
  std::vector<uint32_t> out;
  const sim::LaunchResult r = run(kernel(body), 64, &out);
  for (uint32_t l = 0; l < 32; ++l) CHECK(out[l] == 1000 + l);
  CHECK(r.cycles >= 20000);           // the consumer waited for the producer's sleep
  CHECK(r.warp_instructions < 200);   // and did not spin while suspended
  CHECK(r.findings.empty());
}

TEST_CASE("mbarrier PTX: try_wait with a suspend-time hint returns False when the limit expires") {
  // Thread 0: init(1); try_wait.parity(0, 5000 ns) must time out (nothing arrives) after about
  // 5000 ns of simulated time; out[0] = the predicate, out[1] = elapsed cycles >= the hint.
  const std::string body = R"(
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Ldone;
  mbarrier.init.shared::cta.b64 [%r4], 1;
  mov.u64 %rd5, %clock64;
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r4], 0, 5000;
  mov.u64 %rd6, %clock64;
  selp.u32 %r8, 1, 0, %p3;
  st.global.u32 [%rd1], %r8;
  sub.u64 %rd7, %rd6, %rd5;
  cvt.u32.u64 %r9, %rd7;
  st.global.u32 [%rd1+4], %r9;
$Ldone:
)";
  std::vector<uint32_t> out;
  run(kernel(body), 32, &out);
  CHECK(out[0] == 0);
  // 5000 ns at the H200's 1980 MHz = 9900 cycles (models/machine/machine_table.cc), plus a few of issue.
  const uint32_t limit = 5000 * models::machine_config(isa::Arch::Sm90a).clock_mhz / 1000;
  CHECK(out[1] >= limit);
  CHECK(out[1] <= limit + 8);
}

TEST_CASE("mbarrier PTX: misuse reports name the barrier, its state and the rule") {
  auto one = [](const std::string& b) { return kernel("  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra $Ldone;\n" + b + "\n$Ldone:\n"); };
  // Uninitialised.
  CHECK(error_of(one("mbarrier.arrive.shared::cta.b64 %rd2, [%r4];"), 32).find(
            "holds no initialised mbarrier (never initialised") != std::string::npos);
  // Invalidated, then used.
  CHECK(error_of(one("mbarrier.init.shared::cta.b64 [%r4], 1;\n mbarrier.inval.shared::cta.b64 [%r4];\n"
                     "mbarrier.arrive.shared::cta.b64 %rd2, [%r4];"), 32)
            .find("invalidated by mbarrier.inval at cycle") != std::string::npos);
  // Misaligned (4 mod 8).
  CHECK(error_of(one("add.u32 %r6, %r4, 4;\n mbarrier.init.shared::cta.b64 [%r6], 1;"), 32)
            .find("shared::cta 0x404 is not 8-byte aligned") != std::string::npos);
  // Outside the CTA's shared memory.
  CHECK(error_of(one("mov.u32 %r6, 0x100000;\n mbarrier.init.shared::cta.b64 [%r6], 1;"), 32)
            .find("outside the CTA's") != std::string::npos);
  // A generic address that is not shared memory (a global pointer).
  CHECK(error_of(one("mbarrier.init.b64 [%rd1], 1;"), 32).find("is not in shared memory") != std::string::npos);
  // Count out of range.
  CHECK(error_of(one("mbarrier.init.shared::cta.b64 [%r4], 0;"), 32).find("count 0 is outside [1, 2^20 - 1]") !=
        std::string::npos);
  // Pending count below zero.
  const std::string under = error_of(one("mbarrier.init.shared::cta.b64 [%r4], 2;\n"
                                         "mbarrier.arrive.shared::cta.b64 %rd2, [%r4], 3;"), 32);
  CHECK(under.find("mbarrier at shared::cta 0x400 (phase 0, parity 0, 2 of 2 arrivals pending, tx-count 0)") !=
        std::string::npos);
  CHECK(under.find("exceeds the 2 pending arrivals") != std::string::npos);
  CHECK(under.find("mbar.ptx:") != std::string::npos);  // the PTX line
  // tx-count overflow.
  CHECK(error_of(one("mbarrier.init.shared::cta.b64 [%r4], 1;\n"
                     "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r4], 1048575;\n"
                     "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r4], 1;"), 32)
            .find("overflows the tx-count") != std::string::npos);
  // Re-initialised while a phase is under way.
  CHECK(error_of(one("mbarrier.init.shared::cta.b64 [%r4], 2;\n mbarrier.arrive.shared::cta.b64 %rd2, [%r4];\n"
                     "mbarrier.init.shared::cta.b64 [%r4], 2;"), 32)
            .find("re-initialises the mbarrier at shared::cta 0x400 (phase 0, parity 0, 1 of 2") != std::string::npos);
  // A generic store over a live mbarrier.
  CHECK(error_of(one("mbarrier.init.shared::cta.b64 [%r4], 2;\n st.shared.u32 [%r4], 7;\n"
                     "mbarrier.arrive.shared::cta.b64 %rd2, [%r4];"), 32)
            .find("changed by a non-mbarrier access") != std::string::npos);
  // .noComplete completing the phase.
  CHECK(error_of(one("mbarrier.init.shared::cta.b64 [%r4], 1;\n"
                     "mbarrier.arrive.noComplete.shared::cta.b64 %rd2, [%r4], 1;"), 32)
            .find("would complete the current phase") != std::string::npos);
  // A state token of another barrier.
  CHECK(error_of(one("mbarrier.init.shared::cta.b64 [%r4], 2;\n add.u32 %r6, %r4, 8;\n"
                     "mbarrier.init.shared::cta.b64 [%r6], 2;\n mbarrier.arrive.shared::cta.b64 %rd2, [%r6];\n"
                     "mbarrier.test_wait.shared::cta.b64 %p2, [%r4], %rd2;"), 32)
            .find("not returned by an arrive on this mbarrier but on the one at shared::cta 0x408") != std::string::npos);
}

TEST_CASE("mbarrier PTX: illegal forms are rejected at load") {
  auto load_error = [](const std::string& instr) {
    test::Harness h(isa::Arch::Sm90a);
    try {
      h.load(kernel(instr));
    } catch (const sim::SimError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(load_error("mbarrier.arrive.release.cluster.shared::cluster.b64 %rd2, [%r4];").find("sink `_`") !=
        std::string::npos);
  CHECK(load_error("mbarrier.test_wait.shared::cluster.b64 %p1, [%r4], %rd2;").find(".shared::cluster") !=
        std::string::npos);
  CHECK(load_error("mbarrier.arrive.release.shared::cta.b64 %rd2, [%r4];").find("must be given together") !=
        std::string::npos);
  CHECK(load_error("mbarrier.init.shared::cta.b32 [%r4], 1;").find(".b64") != std::string::npos);
  // test_wait has no suspendTimeHint operand: the row's signature (p,m,a) rejects it at parse time.
  const std::string hint = load_error("mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r4], 0, 10;");
  CHECK(hint.find("too many operands") != std::string::npos);
}

TEST_CASE("mbarrier PTX: checker warnings — lapping, stale parity, transactions left at exit") {
  auto one = [](const std::string& b) { return kernel("  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra $Ldone;\n" + b + "\n$Ldone:\n"); };
  auto warnings = [](const std::string& ptx) {
    std::string all;
    for (const auto& w : run(ptx, 32).finding_lines()) all += w + "\n";
    return all;
  };
  // init(1): arrive completes phase 0; a second arrive lands on phase 1 before any wait saw phase 0.
  const std::string lap = warnings(one("mbarrier.init.shared::cta.b64 [%r4], 1;\n"
                                       "mbarrier.arrive.shared::cta.b64 %rd2, [%r4];\n"
                                       "mbarrier.arrive.shared::cta.b64 %rd2, [%r4];"));
  CHECK(lap.find("arrives on phase 1 before any test_wait/try_wait observed the completion of phase 0") !=
        std::string::npos);
  // The same thread waits twice on parity 0 after phase 0 completed: the second wait is stale.
  const std::string stale = warnings(one("mbarrier.init.shared::cta.b64 [%r4], 1;\n"
                                         "mbarrier.arrive.shared::cta.b64 %rd2, [%r4];\n"
                                         "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], 0;\n"
                                         "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r4], 0;"));
  CHECK(stale.find("satisfied by phase 0, whose completion the same thread (warp 0 lane 0) had already observed") !=
        std::string::npos);
  // complete_tx with nothing expected: tx -64 at exit.
  const std::string tx = warnings(one("mbarrier.init.shared::cta.b64 [%r4], 2;\n"
                                      "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r4], 64;"));
  CHECK(tx.find("at exit the mbarrier at shared::cta 0x400 (phase 0, parity 0, 2 of 2 arrivals pending, tx-count -64) "
                "has 64 more transaction units completed than were expected") != std::string::npos);
  // A correct pipeline warns about nothing (the first test case checks r.findings.empty()).
}

TEST_CASE("mbarrier PTX: a phase that can never complete is a deadlock report naming the waiters and the state") {
  // init(2) with one arrival; every warp waits on parity 0 (kernels/tma/bad/mbarrier_never_completes
  // without the TMA load).
  const std::string body = R"(
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Lsync;
  mbarrier.init.shared::cta.b64 [%r4], 2;
  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r4], 96;
  mbarrier.arrive.shared::cta.b64 %rd2, [%r4];
$Lsync:
  bar.sync 0;
$Lwait:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r4], 0;
  @!%p3 bra $Lwait;
)";
  const std::string e = error_of(kernel(body), 64);
  CHECK(e.find("deadlock") != std::string::npos);
  CHECK(e.find("no asynchronous operation is in flight") != std::string::npos);
  CHECK(e.find("CTA (0,0,0), last updated at cycle 13: mbarrier at shared::cta 0x400 (phase 0, parity 0, 1 of 2 "
               "arrivals pending, tx-count 96); last update: mbarrier.arrive by its own warp 0 at mbar.ptx:") !=
        std::string::npos);
  CHECK(e.find("2 warps (64 lanes) in 1 CTA: mbarrier wait on the mbarrier at shared::cta 0x400 for the completion of "
               "phase 0 at mbar.ptx:") != std::string::npos);
  CHECK(e.find("mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r4], 0;`") != std::string::npos);
}

TEST_CASE("mbarrier PTX: a hinted try_wait retry loop on a barrier that never completes ends in the deadlock report") {
  // init(2), nothing arrives; both warps retry try_wait.parity(0) with a 1000 ns hint. After 256
  // fruitless timed suspensions tcsim stops honouring the hint (PTX ISA §9.7.13.15.16: it "may" be
  // used) and the launch reports the deadlock instead of spinning on the simulated clock.
  const std::string body = R"(
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Lsync;
  mbarrier.init.shared::cta.b64 [%r4], 2;
$Lsync:
  bar.sync 0;
$Lwait:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r4], 0, 1000;
  @!%p3 bra $Lwait;
)";
  const std::string e = error_of(kernel(body), 64);
  CHECK(e.find("deadlock") != std::string::npos);
  CHECK(e.find("CTA (0,0,0): mbarrier at shared::cta 0x400 (phase 0, parity 0, 2 of 2 arrivals pending, tx-count 0)") !=
        std::string::npos);
  CHECK(e.find("2 warps (64 lanes) in 1 CTA: mbarrier wait on the mbarrier at shared::cta 0x400") != std::string::npos);
}

TEST_CASE("mbarrier PTX: a test_wait polling loop on a barrier that never completes ends in the deadlock report") {
  // As above with test_wait: after 4096 False polls without an update the polling threads are
  // suspended until the phase completes, which it never does: the deadlock report, not a spin until
  // the 10^9-instruction watchdog.
  const std::string body = R"(
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Lsync;
  mbarrier.init.shared::cta.b64 [%r4], 2;
$Lsync:
  bar.sync 0;
$Lwait:
  mbarrier.test_wait.parity.shared::cta.b64 %p3, [%r4], 0;
  @!%p3 bra $Lwait;
)";
  const std::string e = error_of(kernel(body), 64);
  CHECK(e.find("deadlock") != std::string::npos);
  CHECK(e.find("CTA (0,0,0): mbarrier at shared::cta 0x400 (phase 0, parity 0, 2 of 2 arrivals pending, tx-count 0)") !=
        std::string::npos);
  CHECK(e.find("2 warps (64 lanes) in 1 CTA: mbarrier wait on the mbarrier at shared::cta 0x400 for the completion of "
               "phase 0 at mbar.ptx:") != std::string::npos);
  CHECK(e.find("mbarrier.test_wait.parity.shared::cta.b64 %p3, [%r4], 0;`") != std::string::npos);
  // A poller whose barrier completes late (the producer sleeps 50 us, far beyond 4096 polls) still
  // gets True and the data.
  const std::string late = R"(
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Lsync;
  mbarrier.init.shared::cta.b64 [%r4], 1;
$Lsync:
  bar.sync 0;
  setp.eq.u32 %p2, %r2, 1;
  @%p2 bra $Lproducer;
$Lpoll:
  mbarrier.test_wait.parity.shared::cta.b64 %p3, [%r4], 0;
  @!%p3 bra $Lpoll;
  ld.shared.u32 %r8, [data];
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r8;
  bra $Ldone;
$Lproducer:
  setp.ne.u32 %p4, %r3, 0;
  @%p4 bra $Ldone;
  nanosleep.u32 50000;
  st.shared.u32 [data], 4242;
  mbarrier.arrive.shared::cta.b64 %rd4, [%r4];
$Ldone:
)";
  std::vector<uint32_t> out;
  run(kernel(late), 64, &out);
  for (uint32_t l = 0; l < 32; ++l) CHECK(out[l] == 4242);
}
