// The deadlock report (sim/deadlock_report.h): identical waits grouped over warps and CTAs, the
// mbarriers nobody will complete named with their state and last update, in a screenful however
// many CTAs deadlock.
#include <doctest/doctest.h>

#include <algorithm>

#include "tests/sim/harness.h"

using namespace tcsim;

TEST_CASE("deadlock report: 64 CTAs waiting on a barrier that misses an arrival fit in a screenful") {
  // Each CTA: thread 0 inits an mbarrier for 2 arrivals, arrives once, and every thread of warp 0
  // waits on it; warps 1-3 wait at bar.sync for warp 0.
  const std::string ptx = test::ptx_header() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 bar;
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, bar;
  setp.ne.u32 %p0, %r0, 0;
  @%p0 bra $Lwait;
  mbarrier.init.shared::cta.b64 [%r1], 2;
  mbarrier.arrive.shared::cta.b64 %rd1, [%r1];
$Lwait:
  setp.ge.u32 %p1, %r0, 32;
  @%p1 bra $Lbar;
$Lspin:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;
  @!%p2 bra $Lspin;
$Lbar:
  bar.sync 0;
  ret;
}
)";
  test::Harness h;
  h.load(ptx, "dl.ptx");
  std::string e;
  try {
    h.launch("k", {64, 1, 1}, {128, 1, 1}, test::Params().add(uint64_t{0}));
  } catch (const sim::SimError& x) {
    e = x.what();
  }
  REQUIRE(e.find("deadlock") != std::string::npos);
  CAPTURE(e);
  CHECK(std::count(e.begin(), e.end(), '\n') < 16);  // a screenful, not 64 CTAs x 4 warps
  CHECK(e.find("64 CTAs (e.g. CTA (0,0,0), last updated at cycle 5): mbarrier at shared::cta") != std::string::npos);
  CHECK(e.find("1 of 2 arrivals pending") != std::string::npos);
  CHECK(e.find("last update: mbarrier.arrive by its own warp 0 at dl.ptx:16") != std::string::npos);
  CHECK(e.find("64 warps (2048 lanes) in 64 CTAs: mbarrier wait on the mbarrier at shared::cta") !=
        std::string::npos);
  CHECK(e.find("192 warps (6144 lanes) in 64 CTAs: waiting at CTA barrier 0 at dl.ptx:24") != std::string::npos);
  CHECK(e.find("64 CTAs (e.g. CTA (0,0,0)): barrier 0: 3 of 4 warps arrived") != std::string::npos);
}
