// tcgen05.mma on hand-written PTX, without mbarriers (the kernel sleeps past the completion): the
// operands are shared-memory images the host lays out with the canonical-layout formulas of
// docs/smem_layouts.md §4 written out here (independently of isa/layouts), with small integers so that
// every product and sum is exact and the reference is plain integer arithmetic. Also: the
// completion is an event on the simulated clock (a load before it reads the old TMEM contents and
// is reported), and a bad instruction descriptor is reported at issue with the rule.
#include <doctest/doctest.h>

#include <cstring>

#include <fmt/format.h>

#include "tests/sim/harness.h"

// GCC 12 reports a false stringop-overflow inside Params::add (vector::resize) once inlined here.
#pragma GCC diagnostic ignored "-Wstringop-overflow"

using namespace tcsim;

namespace {

uint16_t bf16_of_int(int v) {  // small integers are exact in bf16
  float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}

// K-major SWIZZLE_128B tile of bf16 (docs/smem_layouts.md §4): element (r, k) at
// (r/8)*1024 + (r%8)*128 + 2k, then bits 4-6 ^= bits 7-9 of the (1024-aligned) address.
uint32_t sw128_offset(uint32_t r, uint32_t k) {
  const uint32_t a = (r / 8) * 1024 + (r % 8) * 128 + 2 * k;
  return a ^ (((a >> 7) & 7) << 4);
}

// smem descriptor (Table 40): start >> 4 | LBO >> 4 << 16 | SBO >> 4 << 32 | 1 << 46 | layout << 61.
uint64_t desc(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t layout) {
  return uint64_t{start >> 4} | uint64_t{lbo >> 4} << 16 | uint64_t{sbo >> 4} << 32 | uint64_t{1} << 46 |
         uint64_t{layout} << 61;
}

// One CTA of 128 threads: copies `img` into shared memory (`tile`, 1024-aligned), warp 0 allocates
// 64 columns, thread 0 issues one MMA (descriptors relative to `tile`), everyone sleeps `sleep` ns
// (or not), fences and reads D (64 columns of its lane quarter) into out[128][64].
std::string kernel_ptx(bool a_from_tmem, bool ashift = false) {
  std::string regs;
  for (int j = 0; j < 64; ++j) regs += fmt::format("{}%v{}", j ? "," : "", j);
  std::string stores;
  for (int j = 0; j < 64; ++j) stores += fmt::format("  st.global.u32 [%rd9+{}], %v{};\n", 4 * j, j);
  std::string a_st;
  if (a_from_tmem) {
    // A row m = lane m in columns 32..39 (8 columns = 16 bf16), packed 2 per cell, low half = even
    // k (docs/tensor_memory.md §1); the host passes the row words in `aw` (128 x 8 u32).
    a_st = R"(
  ld.param.u64 %rd10, [aw];
  mul.wide.u32 %rd11, %r0, 32;
  add.u64 %rd10, %rd10, %rd11;
  ld.global.v4.u32 {%a0,%a1,%a2,%a3}, [%rd10];
  ld.global.v4.u32 {%a4,%a5,%a6,%a7}, [%rd10+16];
  add.u32 %r20, %r9, 32;
  tcgen05.st.sync.aligned.32x32b.x8.b32 [%r20], {%a0,%a1,%a2,%a3,%a4,%a5,%a6,%a7};
  tcgen05.wait::st.sync.aligned;
)";
  }
  return test::ptx_header() + R"(
.visible .entry k(.param .u64 img, .param .u32 img_words, .param .u64 out, .param .u64 adesc,
                  .param .u64 bdesc, .param .u32 idesc, .param .u32 sleep, .param .u64 aw)
{
  .reg .b32 %r<40>;
  .reg .b32 %v<64>;
  .reg .b32 %a<8>;
  .reg .b64 %rd<16>;
  .reg .pred %p<4>;
  .shared .align 1024 .b8 tile[32768];
  .shared .align 4 .b32 slot;
  mov.u32 %r0, %tid.x;
  ld.param.u64 %rd1, [img];
  ld.param.u32 %r1, [img_words];
  mov.u32 %r2, tile;
  mov.u32 %r3, %r0;
$Lcopy:
  setp.ge.u32 %p1, %r3, %r1;
  @%p1 bra $Ldone;
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.u32 %r4, [%rd3];
  shl.b32 %r5, %r3, 2;
  add.u32 %r5, %r5, %r2;
  st.shared.u32 [%r5], %r4;
  add.u32 %r3, %r3, 128;
  bra $Lcopy;
$Ldone:
  fence.proxy.async.shared::cta;
  shr.u32 %r6, %r0, 5;
  setp.eq.u32 %p0, %r6, 0;
  @!%p0 bra $L1;
  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 64;
  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
$L1:
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  ld.shared.u32 %r7, [slot];
  shl.b32 %r8, %r6, 21;
  add.u32 %r9, %r7, %r8;
)" + a_st + R"(
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  setp.eq.u32 %p2, %r0, 0;
  @!%p2 bra $L2;
  ld.param.u64 %rd4, [adesc];
  ld.param.u64 %rd5, [bdesc];
  ld.param.u32 %r10, [idesc];
  shr.u32 %r11, %r2, 4;
  cvt.u64.u32 %rd6, %r11;
  add.u64 %rd4, %rd4, %rd6;
  add.u64 %rd5, %rd5, %rd6;
  add.u32 %r21, %r7, 32;
  setp.ne.u32 %p3, %r0, 0;
  )" + (ashift ? "tcgen05.mma.cta_group::1.kind::f16.ashift [%r7], [%r21], %rd5, %r10, %p3;"
        : a_from_tmem ? "tcgen05.mma.cta_group::1.kind::f16 [%r7], [%r21], %rd5, %r10, %p3;"
                    : "tcgen05.mma.cta_group::1.kind::f16 [%r7], %rd4, %rd5, %r10, %p3;") + R"(
$L2:
  ld.param.u32 %r12, [sleep];
  setp.eq.u32 %p1, %r12, 0;
  @%p1 bra $L3;
  nanosleep.u32 %r12;
  bar.sync 0;
$L3:
  tcgen05.fence::after_thread_sync;
  tcgen05.ld.sync.aligned.32x32b.x64.b32 {)" + regs + R"(}, [%r9];
  tcgen05.wait::ld.sync.aligned;
  ld.param.u64 %rd7, [out];
  mul.wide.u32 %rd8, %r0, 256;
  add.u64 %rd9, %rd7, %rd8;
)" + stores + R"(
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  @!%p0 bra $L4;
  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r7, 64;
$L4:
  ret;
}
)";
}

struct Run {
  std::vector<float> d;
  std::vector<std::string> warnings;
  uint64_t cycles;
};

constexpr uint32_t kM = 128, kN = 64, kK = 16;

Run run(bool a_tmem, uint32_t idesc, uint32_t sleep, const std::vector<int>& A, const std::vector<int>& B,
        bool ashift = false) {
  // Image: A at 0 (128 rows x 128 B), B at 16384 (64 rows x 128 B), both K-major SWIZZLE_128B.
  std::vector<uint8_t> img(32768, 0);
  for (uint32_t r = 0; r < kM; ++r)
    for (uint32_t k = 0; k < kK; ++k) {
      const uint16_t v = bf16_of_int(A[r * kK + k]);
      std::memcpy(&img[sw128_offset(r, k)], &v, 2);
    }
  for (uint32_t n = 0; n < kN; ++n)
    for (uint32_t k = 0; k < kK; ++k) {
      const uint16_t v = bf16_of_int(B[n * kK + k]);
      std::memcpy(&img[16384 + sw128_offset(n, k)], &v, 2);
    }
  std::vector<uint32_t> words(img.size() / 4), aw(kM * 8);
  std::memcpy(words.data(), img.data(), img.size());
  for (uint32_t r = 0; r < kM; ++r)
    for (uint32_t c = 0; c < 8; ++c)
      aw[r * 8 + c] = bf16_of_int(A[r * kK + 2 * c]) | uint32_t{bf16_of_int(A[r * kK + 2 * c + 1])} << 16;
  test::Harness h;
  h.load(kernel_ptx(a_tmem, ashift), "mma.ptx");
  const uint64_t dimg = h.upload(words), dout = h.zeros(kM * kN * 4), daw = h.upload(aw);
  test::Params p;
  p.add(dimg).add(uint32_t(words.size())).add(dout).add(desc(0, 16, 1024, 2)).add(desc(16384, 16, 1024, 2));
  p.add(idesc).add(sleep).add(daw);
  Run r;
  auto res = h.launch("k", {1, 1, 1}, {128, 1, 1}, p);
  r.warnings = res.finding_lines();
  r.cycles = res.cycles;
  r.d = h.download<float>(dout, kM * kN);
  return r;
}

// kind::f16, bf16 x bf16 -> f32, K-major A and B, M = 128, N = 64 (docs/smem_layouts.md §7 E1 pattern):
// F32 1 << 4 | BF16 1 << 7 | BF16 1 << 10 | (64 >> 3) << 17 | (128 >> 4) << 24.
constexpr uint32_t kIdesc = (1u << 4) | (1u << 7) | (1u << 10) | (8u << 17) | (8u << 24);

}  // namespace

TEST_CASE("tcgen05.mma kind::f16 bf16: D = A * B^T exactly, A from shared memory or from TMEM") {
  std::vector<int> A(kM * kK), B(kN * kK);
  for (uint32_t i = 0; i < A.size(); ++i) A[i] = int((i * 7 + 3) % 9) - 4;
  for (uint32_t i = 0; i < B.size(); ++i) B[i] = int((i * 5 + 1) % 7) - 3;
  for (bool a_tmem : {false, true}) {
    CAPTURE(a_tmem);
    Run r = run(a_tmem, kIdesc, 5000, A, B);
    CHECK(r.warnings.empty());
    for (const auto& w : r.warnings) MESSAGE(w);
    int bad = 0;
    for (uint32_t m = 0; m < kM; ++m)
      for (uint32_t n = 0; n < kN; ++n) {
        int want = 0;
        for (uint32_t k = 0; k < kK; ++k) want += A[m * kK + k] * B[n * kK + k];
        if (r.d[m * kN + n] != float(want) && bad++ < 5)
          FAIL_CHECK("D[" << m << "][" << n << "] = " << r.d[m * kN + n] << ", want " << want);
      }
    CHECK(bad == 0);
  }
}

TEST_CASE("tcgen05.mma: the effect lands at completion; an early tcgen05.ld reads stale TMEM and is reported") {
  std::vector<int> A(kM * kK, 1), B(kN * kK, 1);
  Run r = run(false, kIdesc, 0, A, B);
  // TMEM was never written before: the early load sees zeros, not 16.
  CHECK(r.d[0] == 0.0f);
  bool stale = false;
  for (const auto& w : r.warnings) stale = stale || w.find("stale data") != std::string::npos;
  CHECK(stale);
}

TEST_CASE("tcgen05.mma: an illegal instruction descriptor is reported at issue with the rule") {
  std::vector<int> A(kM * kK, 1), B(kN * kK, 1);
  const uint32_t bad_m = (kIdesc & ~(0x1fu << 24)) | (6u << 24);  // M = 96
  try {
    run(false, bad_m, 100, A, B);
    FAIL("no error");
  } catch (const sim::SimError& e) {
    const std::string m = e.what();
    CHECK(m.find("mma.ptx:") != std::string::npos);
    CHECK(m.find("M = 96") != std::string::npos);
    CHECK(m.find("Table 39") != std::string::npos);
  }
}

TEST_CASE("checker: tcgen05-missing-fence-before when the warps that wrote A with tcgen05.st hand it over by bar.sync "
          "without tcgen05.fence::before_thread_sync; the kernel with the fence is clean") {
  std::vector<int> A(kM * kK), B(kN * kK);
  for (uint32_t i = 0; i < A.size(); ++i) A[i] = int(i % 5) - 2;
  for (uint32_t i = 0; i < B.size(); ++i) B[i] = int(i % 3) - 1;
  const std::string clean = kernel_ptx(true);
  // The hand-over after tcgen05.st/wait::st: "fence::before_thread_sync; bar.sync 0; fence::after_thread_sync"
  // before the MMA (the second such block of the kernel).
  const std::string handover = "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n  setp.eq.u32 %p2";
  const size_t at = clean.find(handover);
  REQUIRE(at != std::string::npos);
  std::string buggy = clean;
  buggy.erase(at, std::string("  tcgen05.fence::before_thread_sync;\n").size());
  for (bool bug : {false, true}) {
    CAPTURE(bug);
    test::Harness h;
    h.load(bug ? buggy : clean, "mma.ptx");
    std::vector<uint32_t> words(8192, 0), aw(kM * 8, 0);
    const uint64_t dimg = h.upload(words), dout = h.zeros(kM * kN * 4), daw = h.upload(aw);
    test::Params p;
    p.add(dimg).add(uint32_t(words.size())).add(dout).add(desc(0, 16, 1024, 2)).add(desc(16384, 16, 1024, 2));
    p.add(kIdesc).add(uint32_t(5000)).add(daw);
    const auto r = h.launch("k", {1, 1, 1}, {128, 1, 1}, p);
    const auto lines = r.finding_lines();
    if (!bug) {
      CHECK(lines.empty());
      continue;
    }
    REQUIRE(r.findings.size() == 1);
    const sim::FindingGroup& g = r.findings[0];
    CHECK(g.rule == sim::Rule::TmemMissingFenceBefore);
    CHECK(g.site.text.starts_with("tcgen05.mma.cta_group::1.kind::f16"));
    CHECK(g.other.text.starts_with("tcgen05.st.sync.aligned.32x32b.x8.b32"));  // the access handed over
    CHECK(g.first[0].detail.find("without tcgen05.fence::before_thread_sync") != std::string::npos);
  }
  (void)A;
  (void)B;
}

// Double-buffered accumulators (kernels/tcgen05/gemm.cu's persistent GEMM): the other warps hand
// buffer 0 (columns 0-63) over with fence::before_thread_sync + bar.sync, the MMA warp executes
// fence::after_thread_sync, then the others hand buffer 1 (columns 64-127) over as well and the MMA
// warp, without another fence::after_thread_sync, overwrites buffer 0. That is ordered (PTX ISA
// §9.7.16.6.4: buffer 0's accesses -> fence::before -> sync -> fence::after -> MMA); the later
// hand-over of buffer 1 is about other cells. tcgen05-missing-fence-after used one hand-over cycle
// per warp and reported this MMA (bench_bf16_8192: 6839 times); without the first
// fence::after_thread_sync it must still fire.
TEST_CASE("checker: tcgen05-missing-fence-after judges each TMEM cell by its own hand-over (double-buffered "
          "accumulators are clean; without the consumer's fence the rule fires)") {
  std::string ptx = kernel_ptx(false);
  auto replace = [&](const std::string& from, const std::string& to) {
    const size_t at = ptx.find(from);
    REQUIRE(at != std::string::npos);
    ptx.replace(at, from.size(), to);
  };
  replace("[slot], 64;", "[slot], 128;");
  replace("%r7, 64;", "%r7, 128;");
  const std::string handover =
      "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n  setp.eq.u32 %p2";
  const std::string buffers = R"(
  mov.u32 %v0, 1;
  mov.u32 %v1, 2;
  tcgen05.st.sync.aligned.32x32b.x2.b32 [%r9], {%v0, %v1};
  tcgen05.wait::st.sync.aligned;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  FENCE_AFTER
  add.u32 %r22, %r9, 64;
  tcgen05.st.sync.aligned.32x32b.x2.b32 [%r22], {%v0, %v1};
  tcgen05.wait::st.sync.aligned;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  setp.eq.u32 %p2)";
  replace(handover, buffers);
  for (bool fence : {true, false}) {
    CAPTURE(fence);
    std::string text = ptx;
    const size_t at = text.find("FENCE_AFTER");
    text.replace(at, 11, fence ? "tcgen05.fence::after_thread_sync;" : "");
    test::Harness h;
    h.load(text, "mma.ptx");
    std::vector<uint32_t> words(8192, 0), aw(kM * 8, 0);
    const uint64_t dimg = h.upload(words), dout = h.zeros(kM * kN * 4), daw = h.upload(aw);
    test::Params p;
    p.add(dimg).add(uint32_t(words.size())).add(dout).add(desc(0, 16, 1024, 2)).add(desc(16384, 16, 1024, 2));
    p.add(kIdesc).add(uint32_t(5000)).add(daw);
    const auto r = h.launch("k", {1, 1, 1}, {128, 1, 1}, p);
    const auto lines = r.finding_lines();
    for (const auto& l : lines) MESSAGE(l);
    if (fence) {
      CHECK(lines.empty());
      continue;
    }
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].rule == sim::Rule::TmemMissingFenceAfter);
    CHECK(r.findings[0].site.text.starts_with("tcgen05.mma.cta_group::1.kind::f16"));
    CHECK(r.findings[0].other.text.starts_with("tcgen05.st.sync.aligned.32x32b.x2.b32"));
  }
}

// .ashift (PTX ISA §9.7.16.10.9.1): A from TMEM, its rows shifted down by one lane before the
// product. The reading tcsim models (docs/tensor_memory.md §9, UNCONFIRMED on hardware): row m of D
// takes A's row m - 1, row 0 its own; with distinct rows every shifted row changes the exact answer.
TEST_CASE("tcgen05.mma .ashift: row m of D is A's row m - 1 times B (row 0 its own)") {
  std::vector<int> A(kM * kK), B(kN * kK);
  for (uint32_t i = 0; i < A.size(); ++i) A[i] = int((i * 7 + 3 + i / kK) % 9) - 4;
  for (uint32_t i = 0; i < B.size(); ++i) B[i] = int((i * 5 + 1) % 7) - 3;
  Run r = run(true, kIdesc, 5000, A, B, true);
  CHECK(r.warnings.empty());
  for (const auto& w : r.warnings) MESSAGE(w);
  int bad = 0, differs = 0;
  for (uint32_t m = 0; m < kM; ++m)
    for (uint32_t n = 0; n < kN; ++n) {
      const uint32_t src = m == 0 ? 0 : m - 1;
      int want = 0, unshifted = 0;
      for (uint32_t k = 0; k < kK; ++k) {
        want += A[src * kK + k] * B[n * kK + k];
        unshifted += A[m * kK + k] * B[n * kK + k];
      }
      differs += want != unshifted;
      if (r.d[m * kN + n] != float(want) && bad++ < 5)
        FAIL_CHECK("D[" << m << "][" << n << "] = " << r.d[m * kN + n] << ", want " << want);
    }
  CHECK(bad == 0);
  CHECK(differs > 1000);  // the shift is visible: most cells differ from the unshifted product
}
