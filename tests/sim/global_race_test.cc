// The global-memory race detector (`global-data-race`, sim/checker/global_race.h), each on a
// hand-written kernel that races at a known line and a clean twin that does not. The truth is the
// PTX ISA memory consistency model: conflicting accesses not ordered by causality order are a data
// race (§8.7.1 "Conflict and data-races", §8.9.2 "Causality Order"); a release store / reduction and
// an acquire load that observes it order the accesses around them (§8.8 "Release and Acquire
// Patterns"); a relaxed store with no fence before it releases nothing.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tests/sim/finding_helpers.h"
#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

std::vector<const sim::FindingGroup*> races(const sim::LaunchResult& r) { return test::groups(r, "global-data-race"); }

using test::all_lines;
using test::line_of;

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// Each thread stores out[TILE * 64 + tid] = ctaid: TILE is %ctaid.x (own tile) or 0 (shared tile).
const std::string kTiles = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, TILE;
  mad.lo.u32 %r4, %r3, 64, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r2;
  ret;
}
)";

// CTA 0 stores row[tid] and publishes flag = 1 (thread 0, after bar.sync) with PUBLISH; CTA 1's
// thread 0 spins with ld.acquire.gpu until it sees the flag, bar.sync, then every thread reads
// row[tid] into out[tid].
const std::string kFlag = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 row, .param .u64 flag, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [row];
  ld.param.u64 %rd2, [flag];
  ld.param.u64 %rd5, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd6, %rd5, %rd3;
  mov.u32 %r2, %ctaid.x;
  setp.eq.u32 %p1, %r1, 0;
  setp.ne.u32 %p2, %r2, 0;
  @%p2 bra CONSUMER;
  add.u32 %r3, %r1, 100;
  st.global.u32 [%rd4], %r3;
  bar.sync 0;
  @!%p1 bra DONE;
  mov.u32 %r4, 1;
  PUBLISH
  bra DONE;
CONSUMER:
  @!%p1 bra WAITED;
SPIN:
  ld.acquire.gpu.global.u32 %r5, [%rd2];
  setp.eq.u32 %p3, %r5, 0;
  @%p3 bra SPIN;
WAITED:
  bar.sync 0;
  ld.global.u32 %r6, [%rd4];
  st.global.u32 [%rd6], %r6;
DONE:
  ret;
}
)";

sim::LaunchResult run_flag(test::Harness& h, const std::string& publish) {
  h.load(replace(kFlag, "PUBLISH", publish), "m.ptx");
  const uint64_t row = h.zeros(256), flag = h.zeros(4), out = h.zeros(256);
  return h.launch("k", {2, 1, 1}, {64, 1, 1}, test::Params().add(row).add(flag).add(out));
}

}  // namespace

TEST_CASE("global-data-race: two CTAs store the same output tile; both sides named; own tiles are clean") {
  test::Harness h(isa::Arch::Sm90a);
  const std::string shared_tile = replace(kTiles, "TILE", "0");
  h.load(shared_tile, "m.ptx");
  const uint64_t out = h.zeros(256);
  const auto r = h.launch("k", {2, 1, 1}, {64, 1, 1}, test::Params().add(out));
  INFO(all_lines(r));
  const auto g = races(r);
  REQUIRE(g.size() == 1);
  const int st = line_of(shared_tile, "st.global.u32");
  CHECK(g[0]->site.ptx_line == static_cast<uint32_t>(st));
  CHECK(g[0]->other.ptx_line == static_cast<uint32_t>(st));
  CHECK(g[0]->count == 64);  // every word of the tile, once
  REQUIRE(!g[0]->first.empty());
  const sim::Finding& f = g[0]->first[0];
  REQUIRE(f.cta.has_value());
  const std::string& d = f.detail;
  // Both sides: the two CTAs, with warp and lane.
  CHECK(d.find("CTA (0,0,0) warp 0 lane 0") != std::string::npos);
  CHECK(d.find("CTA (1,0,0) warp 0 lane 0") != std::string::npos);
  CHECK(r.findings.size() == 1);

  test::Harness clean(isa::Arch::Sm90a);
  clean.load(replace(kTiles, "TILE", "%r2"), "m.ptx");
  const uint64_t out2 = clean.zeros(512);
  const auto r2 = clean.launch("k", {2, 1, 1}, {64, 1, 1}, test::Params().add(out2));
  INFO(all_lines(r2));
  CHECK(r2.findings.empty());
}

TEST_CASE("global-data-race: a relaxed flag publish does not order the row; st.release and fence + relaxed do") {
  {
    test::Harness h(isa::Arch::Sm90a);
    const auto r = run_flag(h, "st.relaxed.gpu.global.u32 [%rd2], %r4;");
    INFO(all_lines(r));
    const auto g = races(r);
    REQUIRE(g.size() == 1);
    const std::string ptx = replace(kFlag, "PUBLISH", "st.relaxed.gpu.global.u32 [%rd2], %r4;");
    CHECK(g[0]->site.ptx_line == static_cast<uint32_t>(line_of(ptx, "ld.global.u32")));
    CHECK(g[0]->other.ptx_line == static_cast<uint32_t>(line_of(ptx, "st.global.u32 [%rd4]")));
    REQUIRE(!g[0]->first.empty());
    CHECK(g[0]->first[0].cta->x == 1);  // the consumer's read
    CHECK(g[0]->first[0].detail.find("the load by CTA (1,0,0)") != std::string::npos);
    CHECK(g[0]->first[0].detail.find("the store by CTA (0,0,0)") != std::string::npos);
    CHECK(r.findings.size() == 1);
  }
  for (const char* ok : {"st.release.gpu.global.u32 [%rd2], %r4;",
                         "fence.acq_rel.gpu; st.relaxed.gpu.global.u32 [%rd2], %r4;",
                         "red.release.gpu.global.add.u32 [%rd2], %r4;"}) {
    test::Harness h(isa::Arch::Sm90a);
    const auto r = run_flag(h, ok);
    const std::string what = std::string(ok) + "\n" + all_lines(r);
    INFO(what);
    CHECK(r.findings.empty());
  }
}

TEST_CASE("global-data-race: a semaphore incremented without release (relaxed atom, no fence) is reported; with "
          "__threadfence (membar.gl) before it, clean") {
  {
    test::Harness h(isa::Arch::Sm90a);
    const auto r = run_flag(h, "atom.relaxed.gpu.global.add.u32 %r7, [%rd2], %r4;");
    INFO(all_lines(r));
    const auto g = races(r);
    REQUIRE(g.size() == 1);
    CHECK(g[0]->first[0].detail.find("no release") != std::string::npos);
  }
  {
    test::Harness h(isa::Arch::Sm90a);
    const auto r = run_flag(h, "membar.gl; atom.global.add.u32 %r7, [%rd2], %r4;");
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
}

TEST_CASE("global-data-race: two warps of one CTA, store then load of the same word, need bar.sync") {
  // Warp 1 stores buf[lane]; warp 0 loads it (SYNC between: nothing, or bar.sync).
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 buf, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [buf];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  setp.lt.u32 %p1, %r1, 32;
  @!%p1 st.global.u32 [%rd4], %r1;
  SYNC
  @%p1 ld.global.u32 %r3, [%rd4];
  @%p1 st.global.u32 [%rd6], %r3;
  ret;
}
)";
  {
    test::Harness h(isa::Arch::Sm90a);
    const std::string racy = replace(ptx, "SYNC", "");
    h.load(racy, "m.ptx");
    const auto r = h.launch("k", {1, 1, 1}, {64, 1, 1}, test::Params().add(h.zeros(128)).add(h.zeros(256)));
    INFO(all_lines(r));
    const auto g = races(r);
    // Warp 0 runs first in the default order: its load is earlier, warp 1's store races with it.
    REQUIRE(g.size() == 1);
    CHECK(g[0]->first[0].detail.find("CTA (0,0,0) warp 1") != std::string::npos);
    CHECK(g[0]->first[0].detail.find("CTA (0,0,0) warp 0") != std::string::npos);
  }
  {
    test::Harness h(isa::Arch::Sm90a);
    h.load(replace(ptx, "SYNC", "bar.sync 0;"), "m.ptx");
    const auto r = h.launch("k", {1, 1, 1}, {64, 1, 1}, test::Params().add(h.zeros(128)).add(h.zeros(256)));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
}
