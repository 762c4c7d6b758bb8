// cp.async (sim/exec/cp_async.cc): asynchronous landing on the simulated clock, per-thread groups,
// src-size zero fill, ignore-src, and the errors. Truth: the PTX ISA's rules (§9.7.9.25.3):
// shared memory holds the old bytes until the copy completes; wait_group N returns when at most N
// most recent groups are pending; the bytes past src-size are zeros.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// 128 threads; thread t copies 16 bytes src[16t..] to buf[16t..] in group 0 and src[2048 + 16t..]
// to buf2[16t..] in group 1; `mid` PTX runs between the copies and the final wait_all. Outputs:
// out[t] = (buf word 0 read right after issuing, buf word 0 after wait_group 1, buf2 word 0 after
// wait_all, buf word 3 after wait_all).
std::string kernel(const std::string& copy0) {
  return test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 psrc, .param .u64 pout)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .shared .align 16 .b8 buf[2048];
  .shared .align 16 .b8 buf2[2048];
  ld.param.u64 %rd1, [psrc];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, buf;
  add.u32 %r4, %r3, %r2;
  mov.u32 %r5, buf2;
  add.u32 %r6, %r5, %r2;
  st.shared.v4.u32 [%r4], {7, 7, 7, 7};
  st.shared.v4.u32 [%r6], {7, 7, 7, 7};
  cvt.u64.u32 %rd3, %r2;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd4, 2048;
  and.b32 %r13, %r1, 15;
  )" + copy0 + R"(
  cp.async.commit_group;
  cp.async.cg.shared.global [%r6], [%rd5], 16;
  cp.async.commit_group;
  ld.shared.u32 %r7, [%r4];
  cp.async.wait_group 1;
  ld.shared.u32 %r8, [%r4];
  cp.async.wait_all;
  ld.shared.u32 %r9, [%r6];
  ld.shared.u32 %r10, [%r4+12];
  mul.wide.u32 %rd6, %r1, 16;
  add.s64 %rd7, %rd2, %rd6;
  st.global.v4.u32 [%rd7], {%r7, %r8, %r9, %r10};
  ret;
}
)";
}

struct Out {
  uint32_t early, after_group0, group1, word3;
};

std::vector<Out> run(const std::string& copy0) {
  std::vector<uint32_t> src(1024);
  for (uint32_t i = 0; i < src.size(); ++i) src[i] = 0x10000 + i;
  test::Harness h(isa::Arch::Sm90a);
  h.load(kernel(copy0), "cp_async.ptx");
  const uint64_t ds = h.upload(src), dout = h.zeros(128 * 16);
  h.launch("k", {1, 1, 1}, {128, 1, 1}, test::Params().add(ds).add(dout));
  const auto v = h.download<uint32_t>(dout, 128 * 4);
  std::vector<Out> r(128);
  for (int t = 0; t < 128; ++t) r[t] = {v[4 * t], v[4 * t + 1], v[4 * t + 2], v[4 * t + 3]};
  return r;
}

}  // namespace

TEST_CASE("cp.async lands later; wait_group 1 covers the older group; wait_all covers everything") {
  const auto r = run("cp.async.ca.shared.global [%r4], [%rd4], 16;");
  for (uint32_t t = 0; t < 128; ++t) {
    CHECK(r[t].early == 7u);                        // still the old bytes right after the issue
    CHECK(r[t].after_group0 == 0x10000 + 4 * t);    // group 0 complete after wait_group 1
    CHECK(r[t].group1 == 0x10000 + 512 + 4 * t);    // group 1 after wait_all
    CHECK(r[t].word3 == 0x10000 + 4 * t + 3);
  }
}

TEST_CASE("cp.async src-size: bytes past it are zero; ignore-src: all zero") {
  SUBCASE("src-size = t % 16 bytes") {
    const auto r = run("cp.async.cg.shared.global [%r4], [%rd4], 16, %r13;");
    for (uint32_t t = 0; t < 128; ++t) {
      const uint32_t n = t % 16;  // bytes kept from the source
      const uint32_t w0 = 0x10000 + 4 * t, w3 = 0x10000 + 4 * t + 3;
      auto keep = [](uint32_t w, int first_byte, uint32_t n) {
        uint32_t r = 0;
        for (int b = 0; b < 4; ++b)
          if (uint32_t(first_byte + b) < n) r |= w & (0xffu << (8 * b));
        return r;
      };
      CHECK(r[t].after_group0 == keep(w0, 0, n));
      CHECK(r[t].word3 == keep(w3, 12, n));
    }
  }
  SUBCASE("ignore-src predicate true for odd threads") {
    const auto r = run("{\n .reg .pred q;\n and.b32 %r14, %r1, 1;\n setp.ne.u32 q, %r14, 0;\n"
                       " cp.async.ca.shared.global [%r4], [%rd4], 16, q;\n }");
    for (uint32_t t = 0; t < 128; ++t) CHECK(r[t].after_group0 == (t % 2 ? 0u : 0x10000 + 4 * t));
  }
}

TEST_CASE("cp.async errors: alignment, src-size above cp-size, forms rejected at load") {
  auto fails = [](const std::string& copy0, const std::string& want) {
    CAPTURE(copy0);
    CHECK_THROWS_WITH_AS(run(copy0), doctest::Contains(want.c_str()), sim::SimError);
  };
  fails("add.u32 %r12, %r4, 4;\n cp.async.ca.shared.global [%r12], [%rd4], 16;", "is not aligned to the copy size 16");
  fails("add.s64 %rd8, %rd4, 8;\n cp.async.ca.shared.global [%r4], [%rd8], 16;", "is not aligned to the copy size 16");
  fails("cp.async.ca.shared.global [%r4], [%rd4], 8, 12;", "src-size 12 exceeds cp-size 8");
  fails("cp.async.cg.shared.global [%r4], [%rd4], 8;", "cp.async.cg copies 16 bytes only");
  fails("cp.async.ca.shared.global [%r4], [%rd4], 12;", "cp-size 12 is not 4, 8 or 16");
}

// cp.async.mbarrier.arrive.noinc (§9.7.13.15.15): the system arrives on the thread's mbarrier once
// the thread's prior cp.async have completed, and .noinc counts that arrive as one of the phase's
// expected arrivals. 128 threads, mbarrier initialised with 128 and no other arrivals: each thread
// copies 16 bytes, arrives asynchronously, waits for phase 0, then reads the *next* thread's bytes,
// which the completed phase must have made visible (the phase cannot complete before every copy
// landed). Expected: word 0 of thread (t + 1) % 128's source, 0x10000 + 4 ((t + 1) % 128).
TEST_CASE("cp.async.mbarrier.arrive.noinc: the phase completes after every thread's copies landed") {
  auto kernel = [](const std::string& arrive) {
    return test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 psrc, .param .u64 pout)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .shared .align 16 .b8 buf[2048];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [psrc];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %tid.x;
  mov.u32 %r11, bar;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $Lsync;
  mbarrier.init.shared::cta.b64 [%r11], 128;
$Lsync:
  bar.sync 0;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, buf;
  add.u32 %r4, %r3, %r2;
  cvt.u64.u32 %rd3, %r2;
  add.s64 %rd4, %rd1, %rd3;
  cp.async.cg.shared.global [%r4], [%rd4], 16;
  )" + arrive + R"(
$Lwait:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r11], 0;
  @!%p2 bra $Lwait;
  add.u32 %r5, %r1, 1;
  and.b32 %r5, %r5, 127;
  shl.b32 %r6, %r5, 4;
  add.u32 %r7, %r3, %r6;
  ld.shared.u32 %r8, [%r7];
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd2, %rd6;
  st.global.u32 [%rd7], %r8;
  ret;
}
)";
  };
  auto run_arrive = [&](const std::string& arrive) {
    std::vector<uint32_t> src(512);
    for (uint32_t i = 0; i < src.size(); ++i) src[i] = 0x10000 + i;
    test::Harness h(isa::Arch::Sm90a);
    h.load(kernel(arrive), "cp_async_mbarrier.ptx");
    const uint64_t ds = h.upload(src), dout = h.zeros(128 * 4);
    h.launch("k", {1, 1, 1}, {128, 1, 1}, test::Params().add(ds).add(dout));
    return h.download<uint32_t>(dout, 128);
  };
  SUBCASE(".shared::cta address") {
    const auto r = run_arrive("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r11];");
    for (uint32_t t = 0; t < 128; ++t) CHECK(r[t] == 0x10000 + 4 * ((t + 1) % 128));
  }
  SUBCASE("generic address") {
    const auto r = run_arrive("cvta.shared.u64 %rd9, bar;\n cp.async.mbarrier.arrive.noinc.b64 [%rd9];");
    for (uint32_t t = 0; t < 128; ++t) CHECK(r[t] == 0x10000 + 4 * ((t + 1) % 128));
  }
  SUBCASE("without .noinc: reported as not implemented, never silently wrong") {
    CHECK_THROWS_WITH_AS(run_arrive("cp.async.mbarrier.arrive.shared::cta.b64 [%r11];"),
                         doctest::Contains("is not implemented yet"), sim::SimError);
  }
}
