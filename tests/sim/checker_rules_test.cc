// Checker rules of the mbarrier (sim/units/mbarrier.cc) and the asynchronous-proxy windows
// (sim/checker/proxy.cc), each on a hand-written kernel that breaks it and a clean twin that does
// not (PTX ISA §9.7.13.15 mbarrier, §9.7.9.25 asynchronous copies). The truth is the rule's text in
// the PTX ISA: the kernels are built so that exactly one rule is broken, at a known line.
#include <doctest/doctest.h>

#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

struct Outcome {
  std::string error;                // the fault's message, or "" when the launch completed
  std::vector<std::string> lines;   // finding lines of a completed launch
};

// One CTA of `threads` threads running `body` with an 8-byte mbarrier `bar` and a 1 KiB `buf`.
Outcome run(const std::string& body, isa::Arch arch = isa::Arch::Sm90a, uint32_t threads = 1) {
  const std::string ptx = test::ptx_header(arch == isa::Arch::Sm90a ? "sm_90a" : "sm_100a") +
                          ".visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<40>;\n .reg .b64 %rd<8>;\n"
                          " .reg .pred %p<4>;\n .shared .align 8 .b64 bar;\n .shared .align 128 .b8 buf[1024];\n"
                          " mov.u32 %r1, bar;\n mov.u32 %r2, buf;\n ld.param.u64 %rd1, [out];\n" +
                          body + "\n ret;\n}\n";
  test::Harness h(arch);
  Outcome o;
  try {
    h.load(ptx, "m.ptx");
    const uint64_t out = h.zeros(4096);
    auto r = h.launch("k", {1, 1, 1}, {threads, 1, 1}, test::Params().add(out));
    o.lines = r.finding_lines();
  } catch (const sim::SimError& e) {
    o.error = e.what();
  }
  return o;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Lines of the body start after the header lines of run(): the header of test::ptx_header plus 10.
int body_line(int i) {
  const std::string h = test::ptx_header("sm_90a");
  int n = 0;
  for (char ch : h) n += ch == '\n';
  return n + 10 + i;
}

}  // namespace

TEST_CASE("checker: mbarrier-uninitialised names the operation and stops; the initialised twin is clean") {
  const Outcome bad = run(" mbarrier.arrive.shared::cta.b64 %rd2, [%r1];\n");
  INFO(bad.error);
  INFO(fmt::format("{}", fmt::join(bad.lines, "\n")));
  CHECK(has(bad.error, "holds no initialised mbarrier (never initialised"));
  CHECK(has(bad.error, fmt::format("[undefined] mbarrier-uninitialised x1 at m.ptx:{}", body_line(1))));
  const Outcome good = run(" mbarrier.init.shared::cta.b64 [%r1], 1;\n mbarrier.arrive.shared::cta.b64 %rd2, [%r1];\n");
  INFO(good.error);
  INFO(fmt::format("{}", fmt::join(good.lines, "\n")));
  CHECK(good.error.empty());
  CHECK(good.lines.empty());
}

TEST_CASE("checker: mbarrier-arrive-overflow for more arrivals than pending; the twin with the right count is clean") {
  const Outcome bad = run(" mbarrier.init.shared::cta.b64 [%r1], 1;\n mbarrier.arrive.shared::cta.b64 %rd2, [%r1], 2;\n");
  INFO(bad.error);
  INFO(fmt::format("{}", fmt::join(bad.lines, "\n")));
  CHECK(has(bad.error, "exceeds the 1 pending arrivals"));
  CHECK(has(bad.error, fmt::format("[undefined] mbarrier-arrive-overflow x1 at m.ptx:{}", body_line(2))));
  const Outcome good = run(" mbarrier.init.shared::cta.b64 [%r1], 2;\n mbarrier.arrive.shared::cta.b64 %rd2, [%r1], 2;\n");
  INFO(good.error);
  INFO(fmt::format("{}", fmt::join(good.lines, "\n")));
  CHECK(good.error.empty());
  CHECK(good.lines.empty());
}

TEST_CASE("checker: mbarrier-tx-range when expect-tx overflows the tx-count; the twin within range is clean") {
  const std::string init = " mbarrier.init.shared::cta.b64 [%r1], 1;\n";
  const Outcome bad = run(init + " mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 600000;\n"
                                 " mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 600000;\n");
  INFO(bad.error);
  INFO(fmt::format("{}", fmt::join(bad.lines, "\n")));
  CHECK(has(bad.error, "overflows the tx-count"));
  CHECK(has(bad.error, fmt::format("[undefined] mbarrier-tx-range x1 at m.ptx:{}", body_line(3))));
  const Outcome good = run(init + " mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 600000;\n"
                                  " mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 600000;\n"
                                  " mbarrier.arrive.shared::cta.b64 %rd2, [%r1];\n");
  INFO(good.error);
  INFO(fmt::format("{}", fmt::join(good.lines, "\n")));
  CHECK(good.error.empty());
  CHECK(good.lines.empty());
}

TEST_CASE("checker: mbarrier-tx-mismatch names both byte counts when more bytes land than expect_tx announced") {
  const std::string init = " mbarrier.init.shared::cta.b64 [%r1], 1;\n mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r1], 16;\n";
  const Outcome bad = run(init + " mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 32;\n");
  INFO(bad.error);
  INFO(fmt::format("{}", fmt::join(bad.lines, "\n")));
  CHECK(bad.error.empty());
  // The mismatch at the complete_tx, and the surplus still counted when the CTA exits.
  REQUIRE(bad.lines.size() == 2);
  CHECK(bad.lines[0].starts_with(fmt::format("[undefined] mbarrier-tx-mismatch at m.ptx:{}", body_line(3))));
  CHECK(has(bad.lines[0], "expect-tx announced 16 bytes, but 32 bytes have landed"));
  CHECK(has(bad.lines[1], "mbarrier-tx-at-exit"));
  const Outcome good = run(init + " mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 16;\n");
  INFO(good.error);
  INFO(fmt::format("{}", fmt::join(good.lines, "\n")));
  CHECK(good.error.empty());
  CHECK(good.lines.empty());
}

TEST_CASE("checker: mbarrier-tx-at-exit names the announced and completed bytes of the phase") {
  const Outcome bad = run(" mbarrier.init.shared::cta.b64 [%r1], 1;\n"
                          " mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r1], 64;\n"
                          " mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r1], 16;\n");
  INFO(bad.error);
  INFO(fmt::format("{}", fmt::join(bad.lines, "\n")));
  CHECK(bad.error.empty());
  REQUIRE(bad.lines.size() == 1);
  CHECK(has(bad.lines[0], "48 transaction units expected that never completed (expect-tx of the phase: 64 bytes, "
                          "completed: 16 bytes)"));
}

TEST_CASE("checker: async-write-while-read when a bulk load refills bytes a bulk store still reads; the twin that "
          "waits with cp.async.bulk.wait_group.read is clean") {
  // Thread 0: bulk store buf[0, 256) -> out, then a bulk load out -> buf[0, 256) on the mbarrier.
  auto body = [](bool wait_read) {
    return std::string(" mov.u32 %r0, %tid.x;\n setp.ne.u32 %p1, %r0, 0;\n @%p1 bra $Ldone;\n"
                       " mbarrier.init.shared::cta.b64 [%r1], 1;\n"
                       " fence.mbarrier_init.release.cluster;\n"
                       " cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r2], 256;\n"
                       " cp.async.bulk.commit_group;\n") +
           (wait_read ? " cp.async.bulk.wait_group.read 0;\n" : "") +
           " mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r1], 256;\n"
           " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 256, [%r1];\n"
           "$Lw:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;\n @!%p2 bra $Lw;\n"
           " cp.async.bulk.wait_group 0;\n$Ldone:\n";
  };
  const Outcome bad = run(body(false));
  INFO(bad.error);
  INFO(fmt::format("{}", fmt::join(bad.lines, "\n")));
  CHECK(bad.error.empty());
  REQUIRE(bad.lines.size() >= 1);
  CHECK(bad.lines[0].starts_with(fmt::format("[undefined] async-write-while-read at m.ptx:{}", body_line(9))));
  CHECK(has(bad.lines[0], "still reads [0x"));
  const Outcome good = run(body(true));
  INFO(good.error);
  INFO(fmt::format("{}", fmt::join(good.lines, "\n")));
  CHECK(good.error.empty());
  CHECK(good.lines.empty());
}
