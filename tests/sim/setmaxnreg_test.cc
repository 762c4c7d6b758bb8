// setmaxnreg (sim/exec/setmaxnreg.cc): the per-CTA register pool, .inc blocking until a .dec frees
// registers, the rules and their errors. Truth: PTX ISA §9.7.19.7 and ptxas 13.0's behaviour (its
// messages for illegal counts; "setmaxnreg ignored" without a register bound at entry; the entry
// count of ptxas -v for .maxntid/.minnctapersm).
#include <doctest/doctest.h>

#include <string>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// 256 threads = 2 warpgroups; .maxntid 256 with .minnctapersm 2: 128 registers per thread at entry
// (65536 / 512). Warpgroup 1 asks for `inc` registers first; warpgroup 0 sleeps, writes 42 to a
// shared flag, then releases down to `dec`. Warpgroup 1 reads the flag after its .inc: 42 only if
// the .inc waited for the .dec.
std::string kernel(int inc, int dec, const std::string& directives = ".maxntid 256, 1, 1\n.minnctapersm 2") {
  return test::ptx_header("sm_90a") + ".visible .entry k(.param .u64 pout)\n" + directives + R"(
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b32 flag;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 128;
  @%p1 bra $Lproducer;
  setmaxnreg.inc.sync.aligned.u32 )" + std::to_string(inc) + R"(;
  ld.volatile.shared.u32 %r2, [flag];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
$Lproducer:
  nanosleep.u32 2000;
  st.volatile.shared.u32 [flag], 42;
  setmaxnreg.dec.sync.aligned.u32 )" + std::to_string(dec) + R"(;
  ret;
}
)";
}

}  // namespace

TEST_CASE("setmaxnreg.inc waits until a .dec returns registers to the CTA's pool") {
  test::Harness h(isa::Arch::Sm90a);
  h.load(kernel(192, 64), "smr.ptx");  // warpgroup 1 needs 4 x 32 x 64 registers; warpgroup 0 frees exactly that
  const uint64_t out = h.zeros(256 * 4);
  h.launch("k", {1, 1, 1}, {256, 1, 1}, test::Params().add(out));
  const auto v = h.download<uint32_t>(out, 256);
  for (int t = 128; t < 256; ++t) CHECK(v[t] == 42u);
}

TEST_CASE("setmaxnreg: a pool that can never satisfy the .inc deadlocks, reported") {
  test::Harness h(isa::Arch::Sm90a);
  h.load(kernel(200, 64), "smr.ptx");  // needs 72 x 128 registers, only 64 x 128 are freed
  CHECK_THROWS_WITH_AS(h.launch("k", {1, 1, 1}, {256, 1, 1}, test::Params().add(h.zeros(1024))),
                       doctest::Contains("deadlock"), sim::SimError);
}

TEST_CASE("setmaxnreg rules: .inc below / .dec above the current count; counts ptxas rejects") {
  {
    test::Harness h(isa::Arch::Sm90a);
    h.load(kernel(96, 64), "smr.ptx");  // 96 < 128 at entry
    CHECK_THROWS_WITH_AS(h.launch("k", {1, 1, 1}, {256, 1, 1}, test::Params().add(h.zeros(1024))),
                         doctest::Contains("holds 128 registers per thread; .inc must not go below"),
                         sim::SimError);
  }
  {
    test::Harness h(isa::Arch::Sm90a);
    h.load(kernel(128, 160), "smr.ptx");
    CHECK_THROWS_WITH_AS(h.launch("k", {1, 1, 1}, {256, 1, 1}, test::Params().add(h.zeros(1024))),
                         doctest::Contains(".dec must not go above that count"), sim::SimError);
  }
  test::Harness h(isa::Arch::Sm90a);
  CHECK_THROWS_WITH_AS(h.load(kernel(20, 64), "smr.ptx"), doctest::Contains("imm-reg-count 20 is out of range"), sim::SimError);
  CHECK_THROWS_WITH_AS(h.load(kernel(36, 64), "smr.ptx"), doctest::Contains("must be a multiple of 8"), sim::SimError);
}

TEST_CASE("setmaxnreg without a register bound at entry is ignored, as ptxas does (info C7508)") {
  test::Harness h(isa::Arch::Sm90a);
  h.load(kernel(200, 64, ".maxntid 256, 1, 1"), "smr.ptx");  // no .minnctapersm: no entry count
  const uint64_t out = h.zeros(256 * 4);
  h.launch("k", {1, 1, 1}, {256, 1, 1}, test::Params().add(out));
  const auto v = h.download<uint32_t>(out, 256);
  CHECK(v[200] == 0u);  // the .inc did not wait for the producer
}
