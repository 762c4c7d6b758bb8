// Warp-level behaviour: shfl.sync in every mode with clamps, segments and partial member masks
// (expected values from the CUDA __shfl_*_sync definitions with a `width`), vote.sync, activemask,
// bar.warp.sync, and divergence/reconvergence on nasty control flow (cold blocks after the join,
// loops with several exits, continue to an outer loop, brx.idx, divergent calls and recursion,
// an intra-warp spin-wait that needs forward progress, bar.sync reached from both sides of an if).
#include <doctest/doctest.h>

#include <bit>
#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;
using test::Row;

namespace {

// 128 threads; lane = row % 32; %x0 = value, %x1 = b operand.
std::vector<Row> lanes(int n = 128) {
  std::vector<Row> r;
  for (int i = 0; i < n; ++i) r.push_back({uint64_t(1000 + i), 0, 0, 0});
  return r;
}

// CUDA semantics (CUDA C++ Programming Guide, warp shuffle functions), lane l of a `width` segment.
uint32_t cuda_idx(const std::vector<uint32_t>& v, int l, int src, int width) {
  return v[(l / width) * width + (src % width)];
}
uint32_t cuda_up(const std::vector<uint32_t>& v, int l, int delta, int width) {
  return (l % width) - delta >= 0 ? v[l - delta] : v[l];
}
uint32_t cuda_down(const std::vector<uint32_t>& v, int l, int delta, int width) {
  return (l % width) + delta < width ? v[l + delta] : v[l];
}
// "each group of width consecutive threads can access elements from earlier groups ... if they
// attempt to access elements from later groups their own value is returned".
uint32_t cuda_xor(const std::vector<uint32_t>& v, int l, int mask, int width) {
  const int j = (l ^ mask) & 31;
  return (j / width) <= (l / width) ? v[j] : v[l];
}

}  // namespace

TEST_CASE("shfl.sync: every mode, every width, clamp and predicate") {
  const auto rows = lanes();
  std::vector<uint32_t> v;
  for (auto& r : rows) v.push_back(static_cast<uint32_t>(r[0]));
  for (int width : {32, 16, 8, 4, 2, 1}) {
    const uint32_t seg = uint32_t(32 - width) << 8;
    for (int delta : {0, 1, 3, 5, 17, 31}) {
      CAPTURE(width);
      CAPTURE(delta);
      auto idx = test::eval32(fmt::format("shfl.sync.idx.b32 %y0, %x0, {}, {}, -1;", delta, seg | 0x1f), rows);
      auto up = test::eval32(fmt::format("shfl.sync.up.b32 %y0, %x0, {}, {}, -1;", delta, seg), rows);
      auto down = test::eval32(fmt::format("shfl.sync.down.b32 %y0, %x0, {}, {}, -1;", delta, seg | 0x1f), rows);
      auto bfly = test::eval32(fmt::format("shfl.sync.bfly.b32 %y0, %x0, {}, {}, -1;", delta, seg | 0x1f), rows);
      for (int t = 0; t < 128; ++t) {
        const int w = t / 32 * 32, l = t % 32;
        std::vector<uint32_t> warp(v.begin() + w, v.begin() + w + 32);
        REQUIRE(idx[t] == cuda_idx(warp, l, delta, width));
        REQUIRE(up[t] == cuda_up(warp, l, delta, width));
        REQUIRE(down[t] == cuda_down(warp, l, delta, width));
        REQUIRE(bfly[t] == cuda_xor(warp, l, delta, width));
      }
    }
  }
  // Predicate output: down by 4 with clamp 31 -> lanes 28..31 are out of range.
  auto p = test::eval("shfl.sync.down.b32 %y0|%p0, %x0, 4, 31, -1;\n selp.u64 %o0, 1, 0, %p0;", rows);
  for (int t = 0; t < 128; ++t) CHECK(p[t][0] == uint64_t(t % 32 < 28));
  // A clamp value narrower than the warp: idx with c = 7 (no segment mask): j = b <= 7 ? b : lane.
  auto cl = test::eval32("shfl.sync.idx.b32 %y0, %x0, 9, 7, -1;", rows);
  for (int t = 0; t < 128; ++t) CHECK(cl[t] == v[t]);
}

TEST_CASE("shfl.sync with a partial member mask inside a branch does not wait for the others") {
  // Lanes 0..15 take the branch and shuffle among themselves (membermask 0xffff); lanes 16..31 never
  // reach that shfl.
  auto r = test::eval32(R"(mov.u32 %y1, %laneid;
  mov.u32 %y0, 7;
  setp.lt.u32 %p1, %y1, 16;
  @!%p1 bra $Lskip;
  shfl.sync.idx.b32 %y0, %x0, 3, 31, 0xffff;
$Lskip:)", lanes());
  for (int t = 0; t < 128; ++t) CHECK(r[t] == (t % 32 < 16 ? uint32_t(1000 + t / 32 * 32 + 3) : 7u));
}

TEST_CASE("shfl.sync with the full mask from both sides of a branch: lanes meet at the shfl") {
  // Odd lanes go through a cold block laid out after the join; the shuffle after the join needs all.
  auto r = test::eval32(R"(mov.u32 %y1, %laneid;
  and.b32 %y2, %y1, 1;
  setp.ne.u32 %p1, %y2, 0;
  @%p1 bra $Lcold;
$Ljoin:
  shfl.sync.bfly.b32 %y0, %x0, 1, 31, -1;
  bra.uni $Lend;
$Lcold:
  add.s32 %x0, %x0, 100000;
  bra.uni $Ljoin;
$Lend:)", lanes());
  for (int t = 0; t < 128; ++t) {
    const int partner = t ^ 1;
    CHECK(r[t] == uint32_t(1000 + partner + (partner & 1 ? 100000 : 0)));
  }
}

TEST_CASE("vote.sync all/any/uni/ballot, activemask, bar.warp.sync") {
  auto rows = lanes();
  for (int t = 0; t < 128; ++t) rows[t][1] = (t % 32 == 5 || t >= 96) ? 1 : 0;  // warp 3: all set
  auto r = test::eval(R"(setp.ne.u32 %p1, %x1, 0;
  vote.sync.all.pred %p0, %p1, -1;
  selp.u64 %o0, 1, 0, %p0;
  vote.sync.any.pred %p2, %p1, -1;
  selp.u64 %o1, 1, 0, %p2;
  vote.sync.ballot.b32 %y0, !%p1, -1;
  cvt.u64.u32 %o2, %y0;
  vote.sync.uni.pred %p3, %p1, -1;
  selp.u64 %o3, 1, 0, %p3;)", rows);
  for (int t = 0; t < 128; ++t) {
    const bool w3 = t >= 96;
    CHECK(r[t][0] == uint64_t(w3));
    CHECK(r[t][1] == 1);
    CHECK(r[t][2] == (w3 ? 0 : 0xffffffffu & ~(1u << 5)));
    CHECK(r[t][3] == uint64_t(w3));
  }
  // activemask inside a branch taken by lanes 8..15 only; bar.warp.sync with a partial mask there.
  auto a = test::eval32(R"(mov.u32 %y1, %laneid;
  mov.u32 %y0, 0;
  shr.u32 %y2, %y1, 3;
  setp.ne.u32 %p1, %y2, 1;
  @%p1 bra $Lskip;
  bar.warp.sync 0xff00;
  activemask.b32 %y0;
$Lskip:)", lanes());
  for (int t = 0; t < 128; ++t) CHECK(a[t] == (t % 32 >= 8 && t % 32 < 16 ? 0xff00u : 0u));
}

namespace {

// Runs a one-warp kernel `body` (with registers %r<32>, %p<8>, %rd<8>) that writes its result to
// out[tid] from %r30 and the activemask seen at the end to out[32 + tid].
std::vector<uint32_t> run_warp(const std::string& body, const std::string& funcs = "") {
  test::Harness h;
  h.load(test::ptx_header() + funcs + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<8>;
  mov.u32 %r0, %laneid;
  mov.u32 %r30, 0;
)" + body + R"(
$Lend:
  activemask.b32 %r31;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r30;
  st.global.u32 [%rd3+128], %r31;
  ret;
}
)");
  uint64_t out = h.zeros(256);
  h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(out));
  return h.download<uint32_t>(out, 64);
}

void expect_converged(const std::vector<uint32_t>& r) {
  for (int l = 0; l < 32; ++l) CHECK_MESSAGE(r[32 + l] == 0xffffffffu, "lane " << l << " activemask 0x" << std::hex << r[32 + l]);
}

}  // namespace

TEST_CASE("reconvergence: if/else with the else block after the join (cold block)") {
  auto r = run_warp(R"(
  and.b32 %r1, %r0, 3;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $Lcold;
  add.s32 %r30, %r0, 1;
$Ljoin:
  activemask.b32 %r29;
  add.s32 %r30, %r30, %r29;
  bra.uni $Lend;
$Lcold:
  mul.lo.s32 %r30, %r0, 3;
  bra.uni $Ljoin;
)");
  for (int l = 0; l < 32; ++l) CHECK(r[l] == uint32_t(((l & 3) == 0 ? 3 * l : l + 1) + 0xffffffffu));
  expect_converged(r);
}

TEST_CASE("reconvergence: loop with two data-dependent exits and a continue") {
  // for (i = 0; ; ++i) { if (i == lane) break; if (i % 3 == 2) continue; acc += i; if (acc > 40) break; }
  auto r = run_warp(R"(
  mov.u32 %r1, 0;
$Lloop:
  setp.eq.u32 %p1, %r1, %r0;
  @%p1 bra $Lexit;
  rem.u32 %r2, %r1, 3;
  setp.eq.u32 %p2, %r2, 2;
  @%p2 bra $Lnext;
  add.s32 %r30, %r30, %r1;
  setp.gt.u32 %p3, %r30, 40;
  @%p3 bra $Lexit;
$Lnext:
  add.s32 %r1, %r1, 1;
  bra.uni $Lloop;
$Lexit:
  activemask.b32 %r28;
  setp.ne.u32 %p4, %r28, -1;
  @%p4 mov.u32 %r30, 999999;
)");
  for (int l = 0; l < 32; ++l) {
    unsigned acc = 0;
    for (unsigned i = 0;; ++i) {
      if (i == unsigned(l)) break;
      if (i % 3 == 2) continue;
      acc += i;
      if (acc > 40) break;
    }
    CHECK(r[l] == acc);
  }
  expect_converged(r);
}

TEST_CASE("reconvergence: nested loops with continue to the outer loop") {
  auto r = run_warp(R"(
  mov.u32 %r1, 0;
$Louter:
  setp.ge.u32 %p1, %r1, 6;
  @%p1 bra $Ldone;
  mov.u32 %r2, 0;
$Linner:
  add.s32 %r3, %r1, %r2;
  and.b32 %r4, %r0, 7;
  setp.eq.u32 %p2, %r3, %r4;
  @%p2 bra $Lcont;
  add.s32 %r30, %r30, 1;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p3, %r2, %r0;
  @%p3 bra $Linner;
$Lcont:
  add.s32 %r1, %r1, 1;
  bra.uni $Louter;
$Ldone:
)");
  for (int l = 0; l < 32; ++l) {
    unsigned acc = 0;
    for (unsigned i = 0; i < 6; ++i) {
      for (unsigned j = 0;;) {
        if (i + j == unsigned(l & 7)) break;
        ++acc;
        ++j;
        if (!(j < unsigned(l))) break;
      }
    }
    CHECK(r[l] == acc);
  }
  expect_converged(r);
}

TEST_CASE("reconvergence: brx.idx four-way switch") {
  auto r = run_warp(R"(
  and.b32 %r1, %r0, 3;
  brx.idx %r1, $Ltable;
$Ltable: .branchtargets $Lc0, $Lc1, $Lc2, $Lc3;
$Lc0:
  mov.u32 %r30, 10;
  bra.uni $Ljoin;
$Lc1:
  mov.u32 %r30, 11;
  bra.uni $Ljoin;
$Lc2:
  mov.u32 %r30, 12;
  bra.uni $Ljoin;
$Lc3:
  mov.u32 %r30, 13;
$Ljoin:
  add.s32 %r30, %r30, %r0;
)");
  for (int l = 0; l < 32; ++l) CHECK(r[l] == uint32_t(10 + (l & 3) + l));
  expect_converged(r);
}

TEST_CASE("reconvergence: divergent call with an early return, and divergent recursion depth") {
  const std::string funcs = R"(
.func (.param .b32 rv) f(.param .b32 x)
{
  .reg .pred %q<2>;
  .reg .b32 %s<4>;
  ld.param.b32 %s1, [x];
  setp.lt.u32 %q1, %s1, 8;
  @%q1 bra $Lsmall;
  mul.lo.s32 %s2, %s1, 2;
  st.param.b32 [rv], %s2;
  ret;
$Lsmall:
  add.s32 %s2, %s1, 100;
  st.param.b32 [rv], %s2;
  ret;
}
.func (.param .b32 rv) depth(.param .b32 n)
{
  .reg .pred %q<2>;
  .reg .b32 %s<4>;
  ld.param.b32 %s1, [n];
  setp.eq.u32 %q1, %s1, 0;
  @%q1 bra $Lbase;
  add.s32 %s2, %s1, -1;
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %s2;
  call.uni (r0), depth, (a0);
  ld.param.b32 %s3, [r0];
  }
  add.s32 %s3, %s3, %s1;
  st.param.b32 [rv], %s3;
  ret;
$Lbase:
  st.param.b32 [rv], 0;
  ret;
}
)";
  auto r = run_warp(R"(
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $Lno;
  {
  .param .b32 a;
  .param .b32 b;
  st.param.b32 [a], %r0;
  call (b), f, (a);
  ld.param.b32 %r30, [b];
  }
$Lno:
  activemask.b32 %r27;
  setp.ne.u32 %p2, %r27, -1;
  @%p2 mov.u32 %r30, 777777;
  {
  .param .b32 a;
  .param .b32 b;
  st.param.b32 [a], %r0;
  call (b), depth, (a);
  ld.param.b32 %r26, [b];
  }
  add.s32 %r30, %r30, %r26;
)", funcs);
  for (int l = 0; l < 32; ++l) {
    const unsigned f = (l & 1) ? (l < 8 ? l + 100 : 2 * l) : 0;
    CHECK(r[l] == f + unsigned(l * (l + 1) / 2));
  }
  expect_converged(r);
}

TEST_CASE("independent thread scheduling: intra-warp spin-wait on a flag set by a later-laid-out lane") {
  // Lanes 1..31 spin until lane 0 has set a shared flag; lane 0's store sits after the spin loop in
  // the code, so a strictly min-PC scheduler would starve it; the spin limit lets it run.
  test::Harness h;
  h.load(test::ptx_header() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .u32 flag;
  mov.u32 %r0, %laneid;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 bra $Lsetter;
$Lspin:
  ld.volatile.shared.u32 %r1, [flag];
  setp.eq.u32 %p2, %r1, 0;
  @%p2 bra $Lspin;
  bra.uni $Ldone;
$Lsetter:
  mov.u32 %r2, 42;
  st.volatile.shared.u32 [flag], %r2;
  mov.u32 %r1, 42;
$Ldone:
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)");
  uint64_t out = h.zeros(128);
  h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(out));
  for (uint32_t v : h.download<uint32_t>(out, 32)) CHECK(v == 42);
}

TEST_CASE("bar.sync reached by the two halves of a warp at different bar.sync instructions") {
  auto r = run_warp(R"(
  .shared .align 4 .b8 buf[256];
  mov.u32 %r5, buf;
  shl.b32 %r6, %r0, 2;
  add.s32 %r7, %r5, %r6;
  setp.lt.u32 %p1, %r0, 16;
  @%p1 bra $Llow;
  st.shared.u32 [%r7], %r0;
  bar.sync 0;
  bra.uni $Lafter;
$Llow:
  mul.lo.s32 %r8, %r0, 100;
  st.shared.u32 [%r7], %r8;
  bar.sync 0;
$Lafter:
  xor.b32 %r9, %r0, 16;
  shl.b32 %r10, %r9, 2;
  add.s32 %r11, %r5, %r10;
  ld.shared.u32 %r30, [%r11];
)");
  for (int l = 0; l < 32; ++l) {
    const int p = l ^ 16;
    CHECK(r[l] == uint32_t(p < 16 ? p * 100 : p));
  }
}
