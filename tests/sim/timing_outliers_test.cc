// The H200 timing mechanisms of kernels/ubench/outliers.cu (docs/timing_model.md "Issue" and
// "Global atomics"), end to end on the h200 profile:
//  - a 32-bit div/rem whose register divisor was just computed pays pipe.idiv.divisor_latency on
//    top of pipe.idiv.latency (the SASS computes the divisor's reciprocal first); one whose divisor
//    has long been ready does not (ptxas hoists or schedules the reciprocal early);
//  - scalar f16 atomic adds (a CAS loop on the aligned 32-bit word in SASS) on one word serialise at
//    atom.emulated_same_word_ns each, and the two halves of one 32-bit word are one word; the
//    queue is GPU-wide (sim/timing/atomic_words.h): CTAs on other SMs and partitions wait too;
//  - load hoisting (sim/timing/load_hoist.h): shared stores of loaded values do not wait for the
//    loads one by one, unless something that reads shared memory comes between them.
// The expected differences come from the profile, so they follow an edit of it; what is checked is
// the mechanism (which instructions pay, and how the cost scales), not a constant.
#include <doctest/doctest.h>

#include <string>

#include "models/timing/profile.h"
#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

// 32 dependent div.u32: through the dividend (x = x / d) or through the divisor (x = K / x).
std::string div_chain(bool through_divisor) {
  std::string body;
  for (int i = 0; i < 32; ++i)
    body += through_divisor ? "  div.u32 %r1, %r3, %r1;\n" : "  div.u32 %r1, %r1, %r2;\n";
  return R"(
.visible .entry chain(.param .u64 out, .param .u32 d)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r2, [d];
  mov.u32 %r3, 1515870810;
  mov.u32 %r1, %tid.x;
  add.u32 %r1, %r1, 12345;
)" + body + R"(  st.global.u32 [%rd1], %r1;
  ret;
}
)";
}

uint64_t run_chain(bool through_divisor) {
  test::Harness h(isa::Arch::Sm90a);
  h.load(test::ptx_header("sm_90a") + div_chain(through_divisor));
  const uint64_t out = h.zeros(4);
  return h.launch("chain", {1, 1, 1}, {1, 1, 1}, test::Params().add(out).add(uint32_t{1})).cycles;
}

// One warp: lane l adds 1.0 (f16) at base + off(l): `split` puts even lanes on bytes 0-1 and odd
// lanes on bytes 4-5 (two 32-bit words); otherwise on bytes 0-1 and 2-3 (the halves of one word).
const char* kF16 = R"(
.visible .entry f16add(.param .u64 base, .param .u32 stride)
{
  .reg .b16 %h<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [base];
  ld.param.u32 %r1, [stride];
  mov.u32 %r2, %tid.x;
  and.b32 %r3, %r2, 1;
  mul.lo.u32 %r4, %r3, %r1;
  cvt.u64.u32 %rd2, %r4;
  add.s64 %rd3, %rd1, %rd2;
  mov.b16 %h1, 0x3c00;
  atom.global.add.noftz.f16 %h2, [%rd3], %h1;
  cvt.u32.u16 %r5, %h2;
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5+64], %r5;
  ret;
}
)";

uint64_t run_f16(uint32_t stride, uint32_t ctas = 1) {
  test::Harness h(isa::Arch::Sm90a);
  h.load(test::ptx_header("sm_90a") + kF16);
  const uint64_t base = h.zeros(256);
  return h.launch("f16add", {ctas, 1, 1}, {32, 1, 1}, test::Params().add(base).add(stride)).cycles;
}

// One warp: 8 loads of distinct 128-byte lines, each stored to shared memory; `observe` reads the
// stored word back after every store (a shared read: the warp must wait for the store's data).
std::string load_store(bool observe) {
  std::string body;
  for (int k = 0; k < 8; ++k) {
    body += "  ld.global.u32 %r" + std::to_string(10 + k) + ", [%rd3+" + std::to_string(k * 4096) + "];\n";
    body += "  st.shared.u32 [%r4+" + std::to_string(k * 128) + "], %r" + std::to_string(10 + k) + ";\n";
    if (observe) body += "  ld.shared.u32 %r" + std::to_string(20 + k) + ", [%r4+" + std::to_string(k * 128) + "];\n";
  }
  return R"(
.visible .entry ldst(.param .u64 src)
{
  .reg .b32 %r<32>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 buf[1024];
  ld.param.u64 %rd1, [src];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r3, buf;
  shl.b32 %r5, %r1, 2;
  add.s32 %r4, %r3, %r5;
)" + body + R"(  bar.sync 0;
  ret;
}
)";
}

uint64_t run_load_store(bool observe) {
  test::Harness h(isa::Arch::Sm90a);
  h.load(test::ptx_header("sm_90a") + load_store(observe));
  const uint64_t src = h.zeros(8 * 4096);
  return h.launch("ldst", {1, 1, 1}, {32, 1, 1}, test::Params().add(src)).cycles;
}

}  // namespace

TEST_CASE("a div.u32 through its divisor costs pipe.idiv.divisor_latency more than through its dividend") {
  const auto& p = models::timing::builtin("h200");
  const double extra = static_cast<double>(run_chain(true)) - static_cast<double>(run_chain(false));
  // Each of the 32 divisions waits for the previous result as its divisor: the whole reciprocal.
  CHECK(extra == doctest::Approx(32 * p.idiv_divisor_latency).epsilon(0.05));
}

TEST_CASE("scalar f16 atomic adds serialise per 32-bit word at atom.emulated_same_word_ns") {
  const auto& p = models::timing::builtin("h200");
  const double per_op = p.atom_emulated_same_word_ns * p.clock_boost_mhz * 1e-3;
  const uint64_t one_word = run_f16(2), two_words = run_f16(4);
  // 32 operations on one word vs 16 on each of two: 16 operations' time apart.
  CHECK(static_cast<double>(one_word) - static_cast<double>(two_words) == doctest::Approx(16 * per_op).epsilon(0.05));
}

TEST_CASE("scalar f16 atomic adds on one word serialise GPU-wide, across CTAs on other SMs") {
  const auto& p = models::timing::builtin("h200");
  const double per_op = p.atom_emulated_same_word_ns * p.clock_boost_mhz * 1e-3;
  // 4 CTAs of 32 threads on one word: 96 more operations in the word's one queue than 1 CTA.
  const double extra = static_cast<double>(run_f16(0, 4)) - static_cast<double>(run_f16(0, 1));
  CHECK(extra == doctest::Approx(96 * per_op).epsilon(0.1));
}

TEST_CASE("shared stores of loaded values let the loads overlap unless a shared read observes each") {
  const auto& p = models::timing::builtin("h200");
  const uint64_t hoisted = run_load_store(false), observed = run_load_store(true);
  // Observed: the 8 loads one after another; hoisted: they are in flight together.
  CHECK(static_cast<double>(observed) - static_cast<double>(hoisted) > 6 * p.l2_latency);
}
