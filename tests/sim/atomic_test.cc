// atom / red (sim/exec/atomic.cc, PTX ISA §9.7.13.5-6) against independent truth:
//  - counting: N threads add 1 to shared counters; the returned old values of one counter must be
//    exactly {0 .. n-1} (each thread saw a distinct intermediate state: atomicity), the totals exact;
//  - hand-worked read-modify-write sequences from the operation definitions of §9.7.13.5
//    (inc/dec wrap rules, signed/unsigned min/max, cas hit and miss, exch, f32/f64/f16x2/bf16 add
//    with exactly representable values), in global and in shared memory;
//  - determinism: the same bits with 1 and 4 host threads (global atomics are applied at the
//    quantum boundary in simulated-time order, sim/memory/rmw_log.h);
//  - red followed by a CTA barrier is performed for every thread after the barrier;
//  - errors: a misaligned atomic names the address; illegal forms are rejected at load.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// Thread i (global id) adds 1 to counter i % 8 and records the old value.
const char* kCount = R"(
.visible .entry count(.param .u64 ctr, .param .u64 olds)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [ctr];
  ld.param.u64 %rd2, [olds];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  and.b32 %r5, %r4, 7;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  atom.global.add.u32 %r6, [%rd4], 1;
  mul.wide.u32 %rd5, %r4, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r6;
  ret;
}
)";

struct CountResult {
  std::vector<uint32_t> ctr, olds;
  uint64_t cycles;
};

CountResult run_count(unsigned host_threads, uint32_t ctas, uint32_t threads) {
  sim::DeviceOptions o;
  o.host_threads = host_threads;
  test::Harness h(isa::Arch::Sm100a, o);
  h.load(test::ptx_header() + kCount);
  const uint32_t n = ctas * threads;
  const uint64_t ctr = h.zeros(32), olds = h.zeros(n * 4);
  auto r = h.launch("count", {ctas, 1, 1}, {threads, 1, 1}, test::Params().add(ctr).add(olds));
  return {h.download<uint32_t>(ctr, 8), h.download<uint32_t>(olds, n), r.cycles};
}

}  // namespace

TEST_CASE("atom.global.add: 8192 threads on 8 counters - exact totals, every intermediate value returned once") {
  const uint32_t ctas = 64, threads = 128, n = ctas * threads;
  const CountResult a = run_count(4, ctas, threads);
  for (uint32_t k = 0; k < 8; ++k) {
    CAPTURE(k);
    CHECK(a.ctr[k] == n / 8);
    std::vector<uint32_t> seen;
    for (uint32_t i = k; i < n; i += 8) seen.push_back(a.olds[i]);
    std::sort(seen.begin(), seen.end());
    std::vector<uint32_t> want(n / 8);
    std::iota(want.begin(), want.end(), 0u);
    CHECK(seen == want);
  }
  // Same bits and the same cycle count with one host thread.
  const CountResult b = run_count(1, ctas, threads);
  CHECK(a.ctr == b.ctr);
  CHECK(a.olds == b.olds);
  CHECK(a.cycles == b.cycles);
}

TEST_CASE("atom: hand-worked read-modify-write sequences (global and shared)") {
  // Each sequence runs on one 32-bit word in global memory (%rdi5+24: the row's own output area)
  // and on one in shared memory; results packed into %o0..%o3.
  for (const std::string space : {"global", "shared"}) {
    CAPTURE(space);
    const std::string addr = space == "global" ? "[%rdi5+24]" : "[sm]";
    const std::string prelude = ".shared .align 16 .b8 sm[16];\n";
    auto body = [&](const std::string& b) {
      std::string s = b;
      for (size_t p; (p = s.find("@A")) != std::string::npos;) s.replace(p, 2, addr);
      for (size_t p; (p = s.find("@S")) != std::string::npos;) s.replace(p, 2, space);
      return s;
    };
    // inc/dec (§9.7.13.5: inc(r, s) = r >= s ? 0 : r + 1; dec(r, s) = (r == 0 || r > s) ? s : r - 1),
    // bound 3, from 2: inc -> old 2, now 3; inc -> old 3, now 0; dec -> old 0, now 3; dec -> old 3,
    // now 2. Olds 2,3,0,3 and final 2 packed as hex digits: 0x23032.
    {
      const std::string b = body(
          "st.@S.u32 @A, 2;\n atom.@S.inc.u32 %y1, @A, 3;\n atom.@S.inc.u32 %y2, @A, 3;\n"
          " atom.@S.dec.u32 %y3, @A, 3;\n atom.@S.dec.u32 %y4, @A, 3;\n ld.@S.u32 %y5, @A;\n"
          " shl.b32 %y0, %y1, 16;\n shl.b32 %y2, %y2, 12;\n or.b32 %y0, %y0, %y2;\n shl.b32 %y3, %y3, 8;\n"
          " or.b32 %y0, %y0, %y3;\n shl.b32 %y4, %y4, 4;\n or.b32 %y0, %y0, %y4;\n or.b32 %y0, %y0, %y5;\n"
          " cvt.u64.u32 %o0, %y0;");
      auto r = test::eval(b, {{0, 0, 0, 0}}, isa::Arch::Sm100a, prelude);
      CHECK(r[0][0] == 0x23032u);
    }
    // min/max: -5 stored; min.s32 with 3 keeps -5; max.s32 with 3 gives 3; min.u32 with 0xfffffffb
    // keeps 3 (unsigned); max.u32 with 0xfffffffb gives 0xfffffffb. Olds: -5, -5, 3, 3.
    {
      const std::string b = body(
          "st.@S.u32 @A, -5;\n atom.@S.min.s32 %y1, @A, 3;\n atom.@S.max.s32 %y2, @A, 3;\n"
          " atom.@S.min.u32 %y3, @A, 0xfffffffb;\n atom.@S.max.u32 %y4, @A, 0xfffffffb;\n ld.@S.u32 %y5, @A;\n"
          " mov.b64 %o0, {%y1, %y2};\n mov.b64 %o1, {%y3, %y4};\n cvt.u64.u32 %o2, %y5;");
      auto r = test::eval(b, {{0, 0, 0, 0}}, isa::Arch::Sm100a, prelude);
      CHECK(r[0][0] == 0xfffffffbfffffffbull);
      CHECK(r[0][1] == 0x0000000300000003ull);
      CHECK(r[0][2] == 0xfffffffbull);
    }
    // cas hit (7 == 7 -> 9) then miss (9 != 7, stays 9); exch 0x1234 returns 9; and/or/xor (olds
    // kept: the last, 0x235):
    // 0x1234 & 0xff0 = 0x230, | 0x5 = 0x235, ^ 0xfff = 0xdca.
    {
      const std::string b = body(
          "st.@S.u32 @A, 7;\n atom.@S.cas.b32 %y1, @A, 7, 9;\n atom.@S.cas.b32 %y2, @A, 7, 11;\n"
          " atom.@S.exch.b32 %y3, @A, 0x1234;\n atom.@S.and.b32 %y4, @A, 0xff0;\n atom.@S.or.b32 %y4, @A, 5;\n"
          " atom.@S.xor.b32 %y4, @A, 0xfff;\n ld.@S.u32 %y5, @A;\n"
          " mov.b64 %o0, {%y1, %y2};\n mov.b64 %o1, {%y3, %y4};\n cvt.u64.u32 %o2, %y5;");
      auto r = test::eval(b, {{0, 0, 0, 0}}, isa::Arch::Sm100a, prelude);
      CHECK(r[0][0] == 0x0000000900000007ull);
      CHECK(r[0][1] == 0x0000023500000009ull);
      CHECK(r[0][2] == 0xdcau);
    }
    // Floats: 1.5f + 2.25f = 3.75f (0x40700000); f16x2 {1.0, 1.0} + {2.0, -1.0} = {3.0, 0.0}
    // (0x3c003c00 + 0xbc004000 -> 0x00004200); bf16 1.0 + 0.5 = 1.5 (0x3f80 + 0x3f00 -> 0x3fc0).
    {
      const std::string b = body(
          "st.@S.u32 @A, 0x3fc00000;\n atom.@S.add.f32 %y1, @A, 0f40100000;\n ld.@S.u32 %y2, @A;\n"
          " st.@S.u32 @A, 0x3c003c00;\n mov.b32 %y6, 0xbc004000;\n atom.@S.add.noftz.f16x2 %y3, @A, %y6;\n"
          " ld.@S.u32 %y4, @A;\n st.@S.u32 @A, 0;\n mov.b16 %w1, 0x3f00;\n st.@S.u16 @A, 0x3f80;\n"
          " atom.@S.add.noftz.bf16 %w2, @A, %w1;\n ld.@S.u16 %w3, @A;\n"
          " mov.b64 %o0, {%y1, %y2};\n mov.b64 %o1, {%y3, %y4};\n mov.b32 %y5, {%w2, %w3};\n cvt.u64.u32 %o2, %y5;");
      auto r = test::eval(b, {{0, 0, 0, 0}}, isa::Arch::Sm100a, prelude);
      CHECK(r[0][0] == 0x407000003fc00000ull);
      CHECK(r[0][1] == 0x000042003c003c00ull);
      CHECK(r[0][2] == 0x3fc03f80u);
    }
  }
}

TEST_CASE("atom: 64-bit forms in global memory - add carries, cas.b64, f64 add") {
  // 0xffffffff + 1 = 0x1_0000_0000 (a 64-bit add carries across the word); cas.b64 hit; f64
  // 0.75 + 2.5 = 3.25 (0x400a000000000000).
  auto r = test::eval(
      "st.global.u64 [%rdi5+24], 0xffffffff;\n atom.global.add.u64 %z1, [%rdi5+24], 1;\n ld.global.u64 %o0, [%rdi5+24];\n"
      " atom.global.cas.b64 %z2, [%rdi5+24], 0x100000000, 0x123456789;\n ld.global.u64 %o1, [%rdi5+24];\n"
      " st.global.f64 [%rdi5+24], 0d3FE8000000000000;\n atom.global.add.f64 %z3, [%rdi5+24], 0d4004000000000000;\n"
      " ld.global.u64 %o2, [%rdi5+24];\n add.u64 %o3, %z1, %z2;",
      {{0, 0, 0, 0}});
  CHECK(r[0][0] == 0x100000000ull);
  CHECK(r[0][1] == 0x123456789ull);
  CHECK(r[0][2] == 0x400a000000000000ull);
  CHECK(r[0][3] == 0xffffffffull + 0x100000000ull);
}

TEST_CASE("atom.global.add.f32 over 4096 threads and red + bar.sync: exact sums") {
  // Thread i adds float(i % 7) to sum[0] (integers: every partial sum is exact in f32, so any
  // order gives the same bits) and red.add.u32 i to sum[1] in its CTA's slot; after bar.sync,
  // thread 0 of each CTA reads its CTA's slot: the reductions of all its threads must be performed.
  test::Harness h;
  h.load(test::ptx_header() + R"(
.visible .entry k(.param .u64 sums, .param .u64 seen)
{
  .reg .b32 %r<12>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [sums];
  ld.param.u64 %rd2, [seen];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  rem.u32 %r5, %r4, 7;
  cvt.rn.f32.u32 %f1, %r5;
  atom.global.add.f32 %f0, [%rd1], %f1;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  red.global.add.u32 [%rd4+4], %r4;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Ldone;
  ld.global.u32 %r6, [%rd4+4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r6;
$Ldone:
  ret;
}
)");
  const uint32_t ctas = 16, threads = 256;
  const uint64_t sums = h.zeros(4 + 4 * ctas), seen = h.zeros(4 * ctas);
  h.launch("k", {ctas, 1, 1}, {threads, 1, 1}, test::Params().add(sums).add(seen));
  auto s = h.download<uint32_t>(sums, 1 + ctas);
  auto v = h.download<uint32_t>(seen, ctas);
  double want = 0;
  for (uint32_t i = 0; i < ctas * threads; ++i) want += i % 7;
  float got;
  std::memcpy(&got, &s[0], 4);
  CHECK(double(got) == want);
  for (uint32_t c = 0; c < ctas; ++c) {
    CAPTURE(c);
    uint32_t cta_sum = 0;
    for (uint32_t t = 0; t < threads; ++t) cta_sum += c * threads + t;
    CHECK(s[1 + c] == cta_sum);
    CHECK(v[c] == cta_sum);
  }
}

TEST_CASE("atom: shared-memory histogram with atom.shared.add, merged with red.global.add") {
  // 2 CTAs x 256 threads; thread t of CTA c bins value (t * 37 + c) % 16 into a shared histogram,
  // then threads 0..15 merge their bin into global memory. Truth: the host's histogram.
  test::Harness h;
  h.load(test::ptx_header() + R"(
.visible .entry hist(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .shared .align 4 .b8 bins[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  setp.lt.u32 %p1, %r1, 16;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, bins;
  add.u32 %r5, %r4, %r3;
  @%p1 st.shared.u32 [%r5], 0;
  bar.sync 0;
  mad.lo.s32 %r6, %r1, 37, %r2;
  and.b32 %r7, %r6, 15;
  shl.b32 %r8, %r7, 2;
  add.u32 %r9, %r4, %r8;
  atom.shared.add.u32 %r10, [%r9], 1;
  bar.sync 0;
  @!%p1 bra $Ldone;
  ld.shared.u32 %r11, [%r5];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  red.global.add.u32 [%rd3], %r11;
$Ldone:
  ret;
}
)");
  const uint64_t out = h.zeros(64);
  h.launch("hist", {2, 1, 1}, {256, 1, 1}, test::Params().add(out));
  auto got = h.download<uint32_t>(out, 16);
  std::vector<uint32_t> want(16, 0);
  for (uint32_t c = 0; c < 2; ++c)
    for (uint32_t t = 0; t < 256; ++t) ++want[(t * 37 + c) % 16];
  CHECK(got == want);
}

TEST_CASE("atom/red errors: misaligned address at run time, illegal forms at load") {
  CHECK_THROWS_WITH_AS(test::eval("atom.global.add.u32 %y1, [%rdi5+2], 1;", {{0, 0, 0, 0}}),
                       doctest::Contains("misaligned"), sim::SimError);
  CHECK_THROWS_WITH_AS(test::eval("red.global.exch.b32 [%rdi5], 1;", {{0, 0, 0, 0}}), doctest::Contains("red"),
                       sim::SimError);
  CHECK_THROWS_WITH_AS(test::eval("atom.global.add.f16x2 %y1, [%rdi5], %y2;", {{0, 0, 0, 0}}),
                       doctest::Contains(".noftz"), sim::SimError);
}
