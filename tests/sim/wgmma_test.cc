// wgmma.mma_async on the simulated clock (sim/units/wgmma_unit.h): operands through descriptors
// and canonical layouts, the accumulator fragment, scale-d, groups and wait_group, the checker
// reports and the errors. Truth: exact integer arithmetic (small integers in bf16, so every
// product and partial sum is exact and the result does not depend on the accumulation model), the
// shared-memory images written here from the PTX ISA's canonical-layout formulas (§9.7.15.5.1.2,
// docs/smem_layouts.md §4) and the accumulator fragment of §9.7.15.5.1.1 — not from isa/layouts. The
// full layout / type / shape matrix is judged by the H200 goldens of kernels/hopper.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

uint16_t bf16(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return static_cast<uint16_t>(b >> 16);  // exact for the small integers used here
}

enum class Layout { KNone, K128, MNNone };

struct Operand {
  Layout layout;
  uint32_t start;  // byte offset in the image (the kernel adds the shared base)
  uint32_t lbo, sbo;
  uint32_t base_offset = 0;
};

// Byte offset of element (r, k) (r along M/N, k along K) of a bf16 operand (PTX ISA
// §9.7.15.5.1.2.1 canonical layouts, written out as byte arithmetic).
uint32_t place(const Operand& o, uint32_t r, uint32_t k) {
  switch (o.layout) {
    case Layout::KNone: {
      const uint32_t kb = 2 * k;
      return o.start + (r / 8) * o.sbo + (r % 8) * 16 + (kb / 16) * o.lbo + kb % 16;
    }
    case Layout::K128: {
      const uint32_t a = o.start + (r / 8) * o.sbo + (r % 8) * 128 + 2 * k;
      return a ^ ((((a >> 7) - o.base_offset) & 7) << 4);  // 128B swizzle (§5.5.7)
    }
    case Layout::MNNone: {
      const uint32_t rb = 2 * r;
      return o.start + (rb / 16) * o.sbo + (k / 8) * o.lbo + (k % 8) * 16 + rb % 16;
    }
  }
  return 0;
}

// sm_90 matrix descriptor (§9.7.15.5.1.2.2) without the start address's shared base.
uint64_t desc(const Operand& o) {
  const uint64_t swz = o.layout == Layout::K128 ? 1 : 0;
  return uint64_t{(o.start >> 4) & 0x3fff} | uint64_t{(o.lbo >> 4) & 0x3fff} << 16 |
         uint64_t{(o.sbo >> 4) & 0x3fff} << 32 | uint64_t{o.base_offset & 7} << 49 | swz << 62;
}

// Accumulator element i of thread t of the warpgroup (§9.7.15.5.1.1, m64nNk16 f32 D).
std::pair<int, int> acc_rc(int t, int i) {
  const int w = t / 32, g = (t % 32) / 4, q = t % 4;
  return {16 * w + g + 8 * ((i >> 1) & 1), 8 * (i >> 2) + 2 * q + (i & 1)};
}

struct Case {
  int n = 16;
  Operand a{Layout::KNone, 0, 128, 256};
  Operand b{Layout::KNone, 4096, 128, 256};
  bool trans_b = false;
  int threads = 128;
  // (const char*: GCC 12's -Wrestrict misfires on short std::string assignments at -O3)
  const char* scale_d = "1";
  const char* before_mma = "";    // PTX inserted before wgmma.fence (after the C loads)
  const char* after_commit = "";  // PTX between commit_group and wait_group
  bool fence = true;
  bool diverge = false;      // predicate the fence on tid < 16 (warp 0 diverges)
  bool desc_per_warp = false;
};

// The kernel: copy a shared-memory image from global, load C into the accumulators (thread t,
// element i at c[t * N/2 + i]), one wgmma, store D the same way. %f200 is a scratch register the
// inserted code may use; it is stored to early[t].
std::string kernel(const Case& k) {
  const int nr = k.n / 2;
  std::string regs, ld, st;
  for (int i = 0; i < nr; ++i) {
    regs += fmt::format("{}%f{}", i ? ", " : "", i);
    ld += fmt::format("  ld.global.f32 %f{}, [%rd9+{}];\n", i, 4 * i);
    st += fmt::format("  st.global.f32 [%rd10+{}], %f{};\n", 4 * i, i);
  }
  const std::string trans = k.trans_b ? "1" : "0";
  return test::ptx_header("sm_90a") + fmt::format(R"(
.visible .entry k(.param .u64 pimg, .param .u64 nbytes, .param .u64 pout, .param .u64 pc, .param .u64 da,
                  .param .u64 db, .param .u64 pearly)
{{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<20>;
  .reg .f32 %f<201>;
  .shared .align 1024 .b8 smem[16384];
  ld.param.u64 %rd1, [pimg];
  ld.param.u64 %rd16, [nbytes];
  cvt.u32.u64 %r1, %rd16;
  ld.param.u64 %rd2, [pout];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [da];
  ld.param.u64 %rd5, [db];
  ld.param.u64 %rd12, [pearly];
  mov.u32 %r2, %tid.x;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r5, smem;
$Lcopy:
  setp.ge.u32 %p1, %r3, %r1;
  @%p1 bra $Lcopied;
  cvt.u64.u32 %rd6, %r3;
  add.s64 %rd7, %rd1, %rd6;
  ld.global.u32 %r4, [%rd7];
  add.u32 %r6, %r5, %r3;
  st.shared.u32 [%r6], %r4;
  add.u32 %r3, %r3, {threads4};
  bra $Lcopy;
$Lcopied:
  fence.proxy.async.shared::cta;
  bar.sync 0;
  shr.u32 %r7, %r5, 4;
  cvt.u64.u32 %rd11, %r7;
  add.s64 %rd4, %rd4, %rd11;
  add.s64 %rd5, %rd5, %rd11;
  {per_warp}
  mul.wide.u32 %rd8, %r2, {nbytes_c};
  add.s64 %rd9, %rd3, %rd8;
  add.s64 %rd10, %rd2, %rd8;
{ld}  mov.f32 %f200, 0f00000000;
  setp.lt.u32 %p2, %r2, 16;
{before}
  {fence_guard}{fence}
  wgmma.mma_async.sync.aligned.m64n{n}k16.f32.bf16.bf16 {{{regs}}}, %rd4, %rd5, {scale_d}, 1, 1, 0, {trans};
  wgmma.commit_group.sync.aligned;
{after}
  wgmma.wait_group.sync.aligned 0;
{st}  mul.wide.u32 %rd13, %r2, 4;
  add.s64 %rd14, %rd12, %rd13;
  st.global.f32 [%rd14], %f200;
  ret;
}}
)",
                                                  fmt::arg("threads4", 4 * k.threads), fmt::arg("nbytes_c", 4 * nr),
                                                  fmt::arg("ld", ld), fmt::arg("st", st), fmt::arg("n", k.n),
                                                  fmt::arg("regs", regs), fmt::arg("scale_d", k.scale_d),
                                                  fmt::arg("trans", trans), fmt::arg("before", k.before_mma),
                                                  fmt::arg("after", k.after_commit),
                                                  fmt::arg("fence", k.fence ? "wgmma.fence.sync.aligned;" : ""),
                                                  fmt::arg("fence_guard", k.diverge ? "@%p2 " : ""),
                                                  fmt::arg("per_warp", k.desc_per_warp
                                                                           ? "shr.u32 %r8, %r2, 5;\n  cvt.u64.u32 %rd15, %r8;\n  add.s64 %rd5, %rd5, %rd15;"
                                                                           : ""));
}

struct Result {
  std::vector<float> d, early, want, c;
  sim::LaunchResult launch;
};

// A (64 x 16) and B (N x 16): small integers; C: integers; D = A B^T + C exactly.
Result run(const Case& k) {
  std::vector<float> A(64 * 16), B(size_t(k.n) * 16), C(64 * size_t(k.n));
  for (int r = 0; r < 64; ++r)
    for (int kk = 0; kk < 16; ++kk) A[r * 16 + kk] = float((r * 7 + kk * 3) % 7 - 3);
  for (int r = 0; r < k.n; ++r)
    for (int kk = 0; kk < 16; ++kk) B[r * 16 + kk] = float((r * 5 + kk * 11) % 5 - 2);
  for (size_t i = 0; i < C.size(); ++i) C[i] = float(int(i % 13) - 6);
  std::vector<uint8_t> img(16384, 0x55);
  auto put = [&](const Operand& o, uint32_t r, uint32_t kk, float v) {
    // A case whose descriptors place an operand outside shared memory (the error tests) has
    // elements past the host image: they are not written (the simulator must report the read).
    const uint32_t at = place(o, r, kk);
    if (size_t(at) + 2 > img.size()) return;
    const uint16_t x = bf16(v);
    std::memcpy(&img[at], &x, 2);
  };
  for (uint32_t r = 0; r < 64; ++r)
    for (uint32_t kk = 0; kk < 16; ++kk) put(k.a, r, kk, A[r * 16 + kk]);
  for (uint32_t r = 0; r < uint32_t(k.n); ++r)
    for (uint32_t kk = 0; kk < 16; ++kk) put(k.b, r, kk, B[r * 16 + kk]);
  const int nr = k.n / 2;
  std::vector<float> cfrag(size_t(k.threads) * nr);
  for (int t = 0; t < k.threads; ++t)
    for (int i = 0; i < nr; ++i) {
      auto [row, col] = acc_rc(t, i);
      cfrag[size_t(t) * nr + i] = row < 64 ? C[size_t(row) * k.n + col] : 0.f;
    }
  test::Harness h(isa::Arch::Sm90a);
  h.load(kernel(k), "wgmma_test.ptx");
  const uint64_t dimg = h.upload(img), dc = h.upload(cfrag), dout = h.zeros(cfrag.size() * 4),
                 dearly = h.zeros(size_t(k.threads) * 4);
  Result res;
  res.launch = h.launch("k", {1, 1, 1}, {uint32_t(k.threads), 1, 1},
                        test::Params().add(dimg).add(uint64_t(img.size())).add(dout).add(dc).add(desc(k.a)).add(desc(k.b)).add(dearly));
  const auto dfrag = h.download<float>(dout, cfrag.size());
  res.early = h.download<float>(dearly, size_t(k.threads));
  res.d.assign(C.size(), NAN);
  res.want.resize(C.size());
  res.c = C;
  for (int t = 0; t < k.threads; ++t)
    for (int i = 0; i < nr; ++i) {
      auto [row, col] = acc_rc(t, i);
      res.d[size_t(row) * k.n + col] = dfrag[size_t(t) * nr + i];
    }
  for (int r = 0; r < 64; ++r)
    for (int col = 0; col < k.n; ++col) {
      float s = std::string_view(k.scale_d) == "0" ? 0.f : C[size_t(r) * k.n + col];
      for (int kk = 0; kk < 16; ++kk) s += A[r * 16 + kk] * B[col * 16 + kk];
      res.want[size_t(r) * k.n + col] = s;
    }
  return res;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) {
    s += x;
    s += '\n';
  }
  return s;
}

}  // namespace

TEST_CASE("wgmma m64nNk16 bf16: D = A B^T + C exactly, K-major / 128B-swizzled / MN-major operands") {
  Case k;
  SUBCASE("A and B K-major, no swizzle (LBO = next core matrix along K, SBO = next 8 rows)") {}
  SUBCASE("A and B K-major, 128B swizzle (SBO 1024, LBO unused), N = 24") {
    k.n = 24;
    k.a = {Layout::K128, 0, 16, 1024};
    k.b = {Layout::K128, 8192, 16, 1024};
  }
  SUBCASE("A K-major 128B at +384 with the pattern anchored at the tile (base offset 3)") {
    k.a = {Layout::K128, 384, 16, 1024, 3};
    k.b = {Layout::KNone, 12288, 128, 256};
  }
  SUBCASE("B MN-major, no swizzle (imm-trans-b 1: SBO = next 8 N, LBO = next 8 K)") {
    k.b = {Layout::MNNone, 8192, 256, 128};
    k.trans_b = true;
  }
  const Result r = run(k);
  CHECK(r.launch.findings.empty());
  for (size_t i = 0; i < r.d.size(); ++i) {
    CAPTURE(i);
    REQUIRE(r.d[i] == r.want[i]);
  }
}

TEST_CASE("wgmma scale-d: false (0 or a false predicate) ignores C") {
  Case k;
  SUBCASE("immediate 0") { k.scale_d = "0"; }
  SUBCASE("predicate !%p3 with %p3 true") {
    k.scale_d = "!%p3";
    k.before_mma = "  setp.eq.u32 %p3, 0, 0;";
  }
  const Result r = run(k);
  // The expectation without C (run() leaves C out only for the immediate "0").
  std::vector<float> w = r.want;
  if (std::string_view(k.scale_d) != "0")
    for (size_t i = 0; i < w.size(); ++i) w[i] -= r.c[i];
  for (size_t i = 0; i < r.d.size(); ++i) {
    CAPTURE(i);
    REQUIRE(r.d[i] == w[i]);
  }
}

TEST_CASE("wgmma is asynchronous: touching the accumulator before the wait is reported and waits for D, as the GPU") {
  Case k;
  // Read accumulator %f0 right after commit_group: the wgmma has not completed. PTX says the value
  // is undefined (§9.7.15.7.3); the GPU runs ptxas's serialised code and reads D (the H200 gives
  // the exact product for kernels/bugs hw_no_wait_group_0): the checker reports it, the read waits.
  k.after_commit = "  mov.f32 %f200, %f0;";
  const Result r = run(k);
  for (int t = 0; t < 128; ++t) {
    auto [row, col] = acc_rc(t, 0);
    CHECK(r.early[t] == r.d[size_t(row) * k.n + col]);
  }
  for (size_t i = 0; i < r.d.size(); ++i) REQUIRE(r.d[i] == r.want[i]);
  const std::string w = joined(r.launch.finding_lines());
  CHECK(w.find("%f0 is a register of the accumulator of the wgmma.mma_async at wgmma_test.ptx:") != std::string::npos);
  CHECK(w.find("not waited for with wgmma.wait_group") != std::string::npos);
  CHECK(w.find("§9.7.15.7.3") != std::string::npos);
  // One report per warp (4 warps), grouped at the offending instruction's line.
  REQUIRE(r.launch.findings.size() == 1);
  CHECK(r.launch.findings[0].rule == sim::Rule::WgmmaRegisterInFlight);
  CHECK(r.launch.findings[0].count == 4);
  CHECK(r.launch.findings[0].site.text == "mov.f32 %f200, %f0;");
}

TEST_CASE("wgmma.wait_group N waits for all but the N newest groups; covered registers are the program's again") {
  // Two wgmmas into different accumulators, one group each; wait_group 1 covers the first.
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 pout, .param .u64 da, .param .u64 db)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<16>;
  .shared .align 1024 .b8 smem[8192];
  ld.param.u64 %rd1, [pout];
  ld.param.u64 %rd2, [da];
  ld.param.u64 %rd3, [db];
  mov.u32 %r1, smem;
  shr.u32 %r2, %r1, 4;
  cvt.u64.u32 %rd4, %r2;
  add.s64 %rd2, %rd2, %rd4;
  add.s64 %rd3, %rd3, %rd4;
  mov.u32 %r3, %tid.x;
  // A = B = 1.0 (bf16 0x3f80) everywhere: every D element of m64n8k16 is 16 (+ C = 0).
  shl.b32 %r4, %r3, 2;
  add.u32 %r5, %r1, %r4;
  st.shared.u32 [%r5], 0x3f803f80;
  st.shared.u32 [%r5+512], 0x3f803f80;
  st.shared.u32 [%r5+1024], 0x3f803f80;
  st.shared.u32 [%r5+1536], 0x3f803f80;
  st.shared.u32 [%r5+2048], 0x3f803f80;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  wgmma.fence.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f0, %f1, %f2, %f3}, %rd2, %rd3, 0, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f4, %f5, %f6, %f7}, %rd2, %rd3, 0, -1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 1;
  mov.f32 %f8, %f0;
  wgmma.wait_group.sync.aligned 0;
  mul.wide.u32 %rd5, %r3, 8;
  add.s64 %rd6, %rd1, %rd5;
  st.global.v2.f32 [%rd6], {%f8, %f4};
  ret;
}
)";
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "wait.ptx");
  const uint64_t out = h.zeros(128 * 8);
  // A, B: K-major no swizzle, LBO 128, SBO 256; both at offset 0 (B = the first 8 rows of A).
  const uint64_t d = uint64_t{128 >> 4} << 16 | uint64_t{256 >> 4} << 32;
  const auto r = h.launch("k", {1, 1, 1}, {128, 1, 1}, test::Params().add(out).add(d).add(d));
  const auto v = h.download<float>(out, 256);
  for (int t = 0; t < 128; ++t) {
    CHECK(v[2 * t] == 16.0f);
    CHECK(v[2 * t + 1] == -16.0f);  // imm-scale-a = -1
  }
  CHECK(r.findings.empty());  // %f0 read after the wait that covers it: no report
}

TEST_CASE("wgmma errors name the rule, the line, the warp and the fields") {
  Case k;
  std::string want;
  SUBCASE("a CTA of 96 threads has no whole warpgroup") {
    k.threads = 96;
    want = "a warpgroup is 4 whole warps";
  }
  SUBCASE("diverged warpgroup") {
    k.diverge = true;
    want = "must be executed by all threads of the warpgroup convergently";
  }
  SUBCASE("base offset without swizzle") {
    k.a.base_offset = 3;
    want = "base offset 3 is set with no swizzle";
  }
  SUBCASE("descriptors that differ between the warps of the warpgroup") {
    k.desc_per_warp = true;
    want = "the descriptors must be identical in the whole warpgroup";
  }
  SUBCASE("K-major 128B swizzle: the 32-byte K-step must lie in one 128-byte row, always true; LBO/SBO "
          "placing B outside shared memory") {
    k.b = {Layout::KNone, 4096, 128, 0x3ff0};
    want = "outside the CTA's";
  }
  try {
    run(k);
    FAIL("expected an error containing: " << want);
  } catch (const sim::SimError& e) {
    const std::string m = e.what();
    CHECK_MESSAGE(m.find(want) != std::string::npos, m);
    CHECK_MESSAGE(m.find("wgmma_test.ptx:") != std::string::npos, m);
  }
}

TEST_CASE("wgmma without a preceding wgmma.fence is reported (checker, §9.7.15.7.1)") {
  Case k;
  k.fence = false;
  const Result r = run(k);
  for (size_t i = 0; i < r.d.size(); ++i) REQUIRE(r.d[i] == r.want[i]);
  const std::string w = joined(r.launch.finding_lines());
  CHECK(w.find("without a wgmma.fence") != std::string::npos);
}

TEST_CASE("wgmma binding rejects illegal forms at load with the PTX line") {
  auto load = [](const std::string& instr) {
    const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 a)
{
  .reg .b64 %rd<4>;
  .reg .f32 %f<130>;
  .reg .b32 %r<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [a];
  )" + instr + R"(
  ret;
}
)";
    test::Harness h(isa::Arch::Sm90a);
    h.load(ptx, "bad.ptx");
  };
  auto fails_with = [&](const std::string& instr, const std::string& want) {
    CAPTURE(instr);
    try {
      load(instr);
      FAIL("no error");
    } catch (const sim::SimError& e) {
      const std::string m = e.what();
      CHECK_MESSAGE(m.find(want) != std::string::npos, m);
      CHECK_MESSAGE(m.find("bad.ptx:") != std::string::npos, m);
    }
  };
  fails_with("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 1, 0;",
             "expected 6 operands");
  fails_with("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 2, 1, 0, 0;",
             "imm-scale-a/b must be 1 or -1");
  fails_with("wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {%r0}, %rd1, %rd1, 1;", "N must be 8, 16, 24 or 32..256");
  fails_with("wgmma.mma_async.sync.aligned.m64n8k32.f32.bf16.bf16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;",
             "K must be 16");
  fails_with("wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%f0, %f1, %f2, %f3}, %rd1, %rd1, 1, 1, 1, 0, 0;",
             "d must be a vector of 8 registers");
  // Not on sm_100a.
  const std::string ptx100 = test::ptx_header("sm_100a") + R"(
.visible .entry k()
{
  wgmma.fence.sync.aligned;
  ret;
}
)";
  test::Harness h100(isa::Arch::Sm100a);
  CHECK_THROWS_WITH_AS(h100.load(ptx100, "x.ptx"), doctest::Contains("wgmma exists only on sm_90a"), sim::SimError);
}
