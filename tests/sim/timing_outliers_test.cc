// The H200 timing mechanisms of kernels/ubench/outliers.cu (docs/timing_model.md "Issue" and
// "Global atomics"), end to end on the h200 profile:
//  - a 32-bit div/rem whose register divisor was just computed pays pipe.idiv.divisor_latency on
//    top of pipe.idiv.latency (the SASS computes the divisor's reciprocal first); one whose divisor
//    has long been ready does not (ptxas hoists or schedules the reciprocal early);
//  - scalar f16 atomic adds (a CAS loop on the aligned 32-bit word in SASS) on one word serialise at
//    atom.emulated_same_word_ns each, and the two halves of one 32-bit word are one word; the
//    queue is GPU-wide (sim/timing/atomic_words.h): CTAs on other SMs and partitions wait too;
//  - load hoisting (sim/timing/load_hoist.h): shared stores of loaded values do not wait for the
//    loads one by one, unless something that reads shared memory comes between them;
//  - a CTA's own shared memory costs smem.latency whatever its cluster rank, another CTA's (DSMEM)
//    dsmem.remote_latency (the rank is in bits 24..31 of the shared address,
//    models/machine/shared_memory.h).
// The expected differences come from the profile, so they follow an edit of it; what is checked is
// the mechanism (which instructions pay, and how the cost scales), not a constant.
#include <doctest/doctest.h>

#include <string>
#include <vector>

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

// A cluster of 2 CTAs of one warp: lane 0 of each times 16 dependent shared loads (the loaded zero
// is added to the next address) of its own buffer, or with `remote` the peer's (mapa), and writes
// the cycles to out[rank].
std::string smem_chain(bool remote) {
  std::string body;
  for (int i = 0; i < 16; ++i)
    body += std::string(remote ? "  ld.shared::cluster.u32" : "  ld.shared.u32") + " %r6, [%r5];\n  add.u32 %r5, %r4, %r6;\n";
  return R"(
.visible .entry chain(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 buf[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, buf;
  mov.u32 %r3, 0;
  st.shared.u32 [%r2], %r3;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  xor.b32 %r7, %r1, 1;
)" + std::string(remote ? "  mapa.shared::cluster.u32 %r4, %r2, %r7;\n" : "  mov.u32 %r4, %r2;\n") + R"(  mov.u32 %r5, %r4;
  mov.u64 %rd2, %clock64;
)" + body + R"(  mov.u64 %rd3, %clock64;
  sub.s64 %rd4, %rd3, %rd2;
  cvt.u64.u32 %rd5, %r6;
  add.s64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd7, %rd1, %rd6;
  st.global.u64 [%rd7], %rd4;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  ret;
}
)";
}

// Cycles of the chain in the CTA of rank 0 and of rank 1.
std::vector<uint64_t> run_smem_chain(bool remote) {
  test::Harness h(isa::Arch::Sm90a);
  h.load(test::ptx_header("sm_90a") + smem_chain(remote));
  const uint64_t out = h.zeros(16);
  h.launch("chain", {2, 1, 1}, {32, 1, 1}, test::Params().add(out), 0, {2, 1, 1});
  return h.download<uint64_t>(out, 2);
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

TEST_CASE("shared loads cost smem.latency in every CTA of a cluster and dsmem.remote_latency from the peer") {
  const auto& p = models::timing::builtin("h200");
  const std::vector<uint64_t> own = run_smem_chain(false), peer = run_smem_chain(true);
  // The same chain in rank 0 and rank 1 (its own memory either way): the same cycles.
  CHECK(own[0] == own[1]);
  CHECK(peer[0] == peer[1]);
  // Each of the 16 loads waits for the previous one: the peer's memory costs the difference.
  for (int r = 0; r < 2; ++r)
    CHECK(static_cast<double>(peer[r]) - static_cast<double>(own[r]) ==
          doctest::Approx(16 * (p.dsmem_remote_latency - p.smem_latency)).epsilon(0.05));
}
