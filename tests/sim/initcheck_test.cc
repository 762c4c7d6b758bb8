// initcheck of global memory (`uninitialised-global-read`, sim/checker/global_init.h) and
// intra-warp write conflicts (`warp-write-conflict`, sim/checker/warp_conflict.h), each on a
// hand-written kernel that breaks the rule at a known line and clean twins that do not. The truth
// is the rule: a cuMemAlloc'd byte is undefined until the host or a kernel writes it (PTX ISA §5.1.4
// global state space; the driver API leaves a fresh allocation's contents undefined), and two lanes
// are two threads whose weak writes of one location race (PTX ISA §8.7.1).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tests/sim/finding_helpers.h"
#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

using test::all_lines;
using test::groups;
using test::line_of;

// One thread per u32 element: out[i] = in[i] + 1 (ld.global, then st.global).
const std::string kCopy = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  add.u32 %r3, %r2, 1;
  st.global.u32 [%rd5], %r3;
  ret;
}
)";

}  // namespace

TEST_CASE("uninitialised-global-read: a load of malloc'd bytes nothing wrote, once per site with the buffer "
          "and byte offset; the copied and host-written twins are clean") {
  test::Harness h(isa::Arch::Sm90a);
  h.load(kCopy, "m.ptx");
  const int ld = line_of(kCopy, "ld.global.u32");
  {
    const uint64_t in = h.dev.malloc(128), out = h.zeros(128);
    h.dev.name_allocation(in, "buffer in");
    const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(in).add(out));
    INFO(all_lines(r));
    const auto g = groups(r, "uninitialised-global-read");
    REQUIRE(g.size() == 1);
    CHECK(g[0]->site.ptx_line == static_cast<uint32_t>(ld));
    CHECK(g[0]->count == 32);  // every lane, one group
    REQUIRE(!g[0]->first.empty());
    CHECK(g[0]->first[0].detail.find("byte 0 of buffer in") != std::string::npos);
    CHECK(g[0]->first[0].lane == 0);
    CHECK(r.findings.size() == 1);  // nothing else
  }
  {  // copied in: clean
    const uint64_t in = h.upload(std::vector<uint32_t>(32, 7)), out = h.zeros(128);
    const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(in).add(out));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
  {  // a memset the fresh zero pages already hold (a launch spec's zero buffer): clean
    const uint64_t in = h.dev.malloc(128), out = h.zeros(128);
    h.dev.host_wrote(in, 128);
    const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(in).add(out));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
}

TEST_CASE("uninitialised-global-read: per byte — half the buffer copied, the first byte of the other half is named") {
  test::Harness h(isa::Arch::Sm90a);
  h.load(kCopy, "m.ptx");
  const uint64_t in = h.dev.malloc(128), out = h.zeros(128);
  const std::vector<uint32_t> half(16, 1);
  h.dev.copy_to_device(in, half.data(), 64);
  const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(in).add(out));
  INFO(all_lines(r));
  const auto g = groups(r, "uninitialised-global-read");
  REQUIRE(g.size() == 1);
  CHECK(g[0]->count == 16);  // lanes 16-31
  REQUIRE(!g[0]->first.empty());
  CHECK(g[0]->first[0].lane == 16);
  CHECK(g[0]->first[0].detail.find("byte 64 of allocation #1") != std::string::npos);
}

TEST_CASE("uninitialised-global-read: bytes a kernel stored count as written, in the same launch and the next") {
  // Thread i stores buf[i], then (after bar.sync) reads buf[31 - i]: written by another warp of the
  // same CTA in this quantum (the partition's own stores) — clean. A second launch reads them
  // again (committed) — clean. A third kernel reads bytes past what was stored — reported.
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 buf, .param .u64 out, .param .u32 skew)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [buf];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r6, [skew];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r1;
  bar.sync 0;
  sub.u32 %r2, 63, %r1;
  add.u32 %r2, %r2, %r6;
  mul.wide.u32 %rd5, %r2, 4;
  add.s64 %rd6, %rd1, %rd5;
  ld.global.u32 %r3, [%rd6];
  add.s64 %rd7, %rd2, %rd3;
  st.global.u32 [%rd7], %r3;
  ret;
}
)";
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "m.ptx");
  const uint64_t buf = h.dev.malloc(512), out = h.zeros(256);
  {
    const auto r = h.launch("k", {1, 1, 1}, {64, 1, 1}, test::Params().add(buf).add(out).add(uint32_t{0}));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
    CHECK(h.download<uint32_t>(out, 64)[0] == 63);
  }
  {
    const auto r = h.launch("k", {1, 1, 1}, {64, 1, 1}, test::Params().add(buf).add(out).add(uint32_t{0}));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
  {  // skew 64: reads buf[64..127], never written
    const auto r = h.launch("k", {1, 1, 1}, {64, 1, 1}, test::Params().add(buf).add(out).add(uint32_t{64}));
    INFO(all_lines(r));
    const auto g = groups(r, "uninitialised-global-read");
    REQUIRE(g.size() == 1);
    CHECK(g[0]->count == 64);
    CHECK(g[0]->site.ptx_line == static_cast<uint32_t>(line_of(ptx, "ld.global.u32")));
  }
}

TEST_CASE("uninitialised-global-read: atomics read the location (atom.add reported), exch does not; their "
          "writes initialise it") {
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 a, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [out];
  atom.global.exch.b32 %r1, [%rd1], 5;
  atom.global.add.u32 %r2, [%rd1+4], 1;
  st.global.u32 [%rd2], %r2;
  ret;
}
)";
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "m.ptx");
  const uint64_t a = h.dev.malloc(8), out = h.zeros(4);
  {
    const auto r = h.launch("k", {1, 1, 1}, {1, 1, 1}, test::Params().add(a).add(out));
    INFO(all_lines(r));
    const auto g = groups(r, "uninitialised-global-read");
    REQUIRE(g.size() == 1);
    CHECK(g[0]->site.ptx_line == static_cast<uint32_t>(line_of(ptx, "atom.global.add")));
    CHECK(r.findings.size() == 1);
  }
  {  // both words were written by the atomics: clean now
    const auto r = h.launch("k", {1, 1, 1}, {1, 1, 1}, test::Params().add(a).add(out));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
}

TEST_CASE("uninitialised-global-read: a bulk copy (TMA engine) of never-written bytes is reported at the copy; "
          "of copied bytes it is clean") {
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 src)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .shared .align 8 .b64 bar;
  .shared .align 128 .b8 buf[256];
  ld.param.u64 %rd1, [src];
  mov.u32 %r1, bar;
  mov.u32 %r2, buf;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r1], 256;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 256, [%r1];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
  @!%p1 bra WAIT;
  ret;
}
)";
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "m.ptx");
  {
    const uint64_t src = h.dev.malloc(256);
    const auto r = h.launch("k", {1, 1, 1}, {1, 1, 1}, test::Params().add(src));
    INFO(all_lines(r));
    const auto g = groups(r, "uninitialised-global-read");
    REQUIRE(g.size() == 1);
    CHECK(g[0]->site.ptx_line == static_cast<uint32_t>(line_of(ptx, "cp.async.bulk")));
    CHECK(r.findings.size() == 1);
  }
  {
    const uint64_t src = h.zeros(256);
    const auto r = h.launch("k", {1, 1, 1}, {1, 1, 1}, test::Params().add(src));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
}

namespace {

// Every lane stores `value_expr` (a register computed from %r1 = %tid.x) to buf[0] (`space`:
// "shared" or "global"), or with `sem` a morally strong store.
std::string conflict_kernel(const std::string& space, const std::string& value, const std::string& sem = "") {
  return test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 g)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b32 s[32];
  ld.param.u64 %rd1, [g];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, s;
  )" + value + R"(
  mov.u64 %rd2, )" + (space == "shared" ? "0" : "%rd1") + R"(;
  st)" + sem + "." + space + ".u32 [" + (space == "shared" ? "%r2" : "%rd1") + R"(], %r3;
  ret;
}
)";
}

}  // namespace

TEST_CASE("warp-write-conflict: lanes storing different values to one word (shared and global); the same value, "
          "distinct words and strong stores are clean") {
  for (const std::string space : {"shared", "global"}) {
    INFO(space);
    test::Harness h(isa::Arch::Sm90a);
    {
      const std::string ptx = conflict_kernel(space, "add.u32 %r3, %r1, 100;");
      h.load(ptx, "m.ptx");
      const uint64_t g = h.zeros(128);
      const auto r = h.launch("k", {1, 1, 1}, {64, 1, 1}, test::Params().add(g));
      INFO(all_lines(r));
      const auto gr = groups(r, "warp-write-conflict");
      REQUIRE(gr.size() == 1);
      CHECK(gr[0]->site.ptx_line == static_cast<uint32_t>(line_of(ptx, "st." + space)));
      CHECK(gr[0]->count == 2);  // once per warp instruction
      REQUIRE(!gr[0]->first.empty());
      CHECK(gr[0]->first[0].detail.find("lanes 0 and 1 of CTA (0,0,0) warp 0 store different values") !=
            std::string::npos);
      CHECK(gr[0]->first[0].detail.find("0x00000064 and 0x00000065") != std::string::npos);
    }
    {  // the same value from every lane
      h.load(conflict_kernel(space, "mov.u32 %r3, 9;"), "m.ptx");
      const uint64_t g = h.zeros(128);
      const auto r = h.launch("k", {1, 1, 1}, {64, 1, 1}, test::Params().add(g));
      INFO(all_lines(r));
      CHECK(groups(r, "warp-write-conflict").empty());
    }
    {  // morally strong stores do not race (PTX ISA §8.7.1)
      h.load(conflict_kernel(space, "add.u32 %r3, %r1, 100;", ".relaxed.cta"), "m.ptx");
      const uint64_t g = h.zeros(128);
      const auto r = h.launch("k", {1, 1, 1}, {64, 1, 1}, test::Params().add(g));
      INFO(all_lines(r));
      CHECK(groups(r, "warp-write-conflict").empty());
    }
  }
}

TEST_CASE("warp-write-conflict: distinct words per lane (any order) are clean; two lanes of a shuffled pattern "
          "colliding are found") {
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 g, .param .u32 mask)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [g];
  ld.param.u32 %r5, [mask];
  mov.u32 %r1, %tid.x;
  xor.b32 %r2, %r1, 21;
  and.b32 %r2, %r2, %r5;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "m.ptx");
  const uint64_t g = h.zeros(128);
  {  // a permutation of the 32 words: no two lanes share one
    const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(g).add(uint32_t{31}));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
  {  // mask 30: lanes l and l^1 collide
    const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(g).add(uint32_t{30}));
    INFO(all_lines(r));
    const auto gr = groups(r, "warp-write-conflict");
    REQUIRE(gr.size() == 1);
    CHECK(gr[0]->count == 1);
  }
}

TEST_CASE("uninitialised-global-read: a device-to-device copy carries which source bytes were written") {
  test::Harness h(isa::Arch::Sm90a);
  h.load(kCopy, "m.ptx");
  const int ld = line_of(kCopy, "ld.global.u32");
  const std::vector<uint32_t> half(16, 1);
  {  // half the source written: the copy's other half is still undefined
    const uint64_t src = h.dev.malloc(128), dst = h.dev.malloc(128), out = h.zeros(128);
    h.dev.name_allocation(dst, "buffer dst");
    h.dev.copy_to_device(src, half.data(), 64);
    h.dev.copy_on_device(dst, src, 128);
    const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(dst).add(out));
    INFO(all_lines(r));
    const auto g = groups(r, "uninitialised-global-read");
    REQUIRE(g.size() == 1);
    CHECK(g[0]->site.ptx_line == static_cast<uint32_t>(ld));
    CHECK(g[0]->count == 16);  // lanes 16-31
    REQUIRE(!g[0]->first.empty());
    CHECK(g[0]->first[0].lane == 16);
    CHECK(g[0]->first[0].detail.find("byte 64 of buffer dst") != std::string::npos);
  }
  {  // overlapping copy within one buffer, shifted up by 64 bytes: bytes 64.. now hold written data
    const uint64_t buf = h.dev.malloc(192), out = h.zeros(128);
    h.dev.copy_to_device(buf, half.data(), 64);
    h.dev.copy_on_device(buf + 64, buf, 128);  // [64, 128) from written [0, 64); [128, 192) from undefined
    const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(buf).add(out));
    INFO(all_lines(r));
    CHECK(r.findings.empty());  // the kernel reads [0, 128): all written
    std::vector<uint32_t> back(48);
    h.dev.copy_from_device(back.data(), buf, 192);
    CHECK(back[16] == 1);  // the data moved too
  }
  {  // a fully written source: clean
    const uint64_t src = h.upload(std::vector<uint32_t>(32, 7)), dst = h.dev.malloc(128), out = h.zeros(128);
    h.dev.copy_on_device(dst, src, 128);
    const auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(dst).add(out));
    INFO(all_lines(r));
    CHECK(r.findings.empty());
  }
}
