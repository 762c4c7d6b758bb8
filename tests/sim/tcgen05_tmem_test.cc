// Tensor Memory: tcgen05.alloc / dealloc / relinquish_alloc_permit and tcgen05.ld / st / wait
// (PTX ISA §9.7.16.7-8) on hand-written PTX. The truth for where each register lands is the
// fragment table of docs/tensor_memory.md §3 (CUTLASS Copy_Traits<SM100_TMEM_LOAD_*>, cross-checked with
// TileLang), written out again below independently of isa/layouts/tmem_ld_st; every rule test
// checks the diagnostic names the rule.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

enum Shape { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };
const char* shape_name(Shape s) {
  switch (s) {
    case S32x32b: return "32x32b";
    case S16x64b: return "16x64b";
    case S16x128b: return "16x128b";
    case S16x256b: return "16x256b";
    case S16x32bx2: return "16x32bx2";
  }
  return "";
}
int regs_per_x1(Shape s) { return s == S16x128b ? 2 : s == S16x256b ? 4 : 1; }

// docs/tensor_memory.md §3 (thread t, register j) -> (lane, logical column), relative to taddr.
void cell_of(Shape s, int t, int j, int split, int* lane, int* col) {
  switch (s) {
    case S32x32b: *lane = t; *col = j; return;
    case S16x64b: *lane = t / 4 + 8 * (t % 2); *col = (t / 2) % 2 + 2 * j; return;
    case S16x128b: *lane = t / 4 + 8 * (j % 2); *col = t % 4 + 4 * (j / 2); return;
    case S16x256b: *lane = t / 4 + 8 * ((j / 2) % 2); *col = 2 * (t % 4) + j % 2 + 8 * (j / 4); return;
    case S16x32bx2: *lane = t % 16; *col = j + (t >= 16 ? split : 0); return;
  }
}

// A kernel: warp 0 allocates 64 columns; every warp writes value (lane << 16 | column) into its
// lane quarter, columns 0..31, with tcgen05.st.32x32b.x32, then loads it back with `shape`.x`num`
// (the 16-lane shapes at both halves of the quarter) and stores the registers to out.
std::string roundtrip_ptx(Shape s, int num, bool pack, int split) {
  const int regs = regs_per_x1(s) * num;
  const int halves = s == S32x32b ? 1 : 2;
  std::string b = test::ptx_header() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<300>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 4 .b32 slot;
  mov.u32 %r0, %tid.x;
  shr.u32 %r1, %r0, 5;
  and.b32 %r2, %r0, 31;
  setp.eq.u32 %p0, %r1, 0;
  @!%p0 bra $L1;
  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 64;
  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
$L1:
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  ld.shared.u32 %r3, [slot];
  shl.b32 %r4, %r1, 21;
  add.u32 %r5, %r3, %r4;
  shl.b32 %r6, %r1, 5;
  add.u32 %r6, %r6, %r2;
  shl.b32 %r6, %r6, 16;
)";
  std::string regs_st;
  for (int c = 0; c < 32; ++c) {
    b += fmt::format("  or.b32 %r{}, %r6, {};\n", 10 + c, c);
    regs_st += fmt::format("{}%r{}", c ? "," : "", 10 + c);
  }
  b += fmt::format("  tcgen05.st.sync.aligned.32x32b.x32.b32 [%r5], {{{}}};\n", regs_st);
  b += "  tcgen05.wait::st.sync.aligned;\n";
  b += "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r0, " + std::to_string(4 * regs * halves) +
       ";\n  add.u64 %rd3, %rd1, %rd2;\n";
  for (int h = 0; h < halves; ++h) {
    std::string dst;
    for (int j = 0; j < regs; ++j) dst += fmt::format("{}%r{}", j ? "," : "", 100 + j);
    b += fmt::format("  add.u32 %r7, %r5, {};\n", h * (16 << 16));
    b += fmt::format("  tcgen05.ld.sync.aligned.{}.x{}{}.b32 {{{}}}, [%r7]{};\n", shape_name(s), num,
                     pack ? ".pack::16b" : "", dst, s == S16x32bx2 ? fmt::format(", {}", split) : "");
    b += "  tcgen05.wait::ld.sync.aligned;\n";
    for (int j = 0; j < regs; ++j) b += fmt::format("  st.global.u32 [%rd3+{}], %r{};\n", 4 * (h * regs + j), 100 + j);
  }
  b += R"(
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  @!%p0 bra $L2;
  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, 64;
$L2:
  ret;
}
)";
  return b;
}

std::string run_error(const std::string& body, const std::string& decls = "", uint32_t threads = 32,
                      std::vector<std::string>* warnings = nullptr) {
  const std::string ptx = test::ptx_header() + ".visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<80>;\n"
                          " .reg .b64 %rd<8>;\n .reg .pred %p<4>;\n .shared .align 4 .b32 slot;\n" + decls + body +
                          "\n ret;\n}\n";
  test::Harness h;
  try {
    h.load(ptx, "t.ptx");
    const uint64_t out = h.zeros(4096);
    auto r = h.launch("k", {1, 1, 1}, {threads, 1, 1}, test::Params().add(out));
    if (warnings) *warnings = r.finding_lines();
  } catch (const sim::SimError& e) {
    return e.what();
  }
  return "";
}

const char* kAlloc32 = " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n ld.shared.u32 %r1, [slot];\n";
const char* kDealloc32 = " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;\n";

}  // namespace

TEST_CASE("tcgen05.ld/st: every shape, .num and pack::16b moves the cells of the fragment table") {
  struct Case {
    Shape s;
    int num;
    bool pack;
    int split;
  };
  const Case cases[] = {{S32x32b, 1, false, 0},  {S32x32b, 8, false, 0},  {S32x32b, 16, true, 0},
                        {S16x64b, 4, false, 0},  {S16x64b, 8, true, 0},   {S16x128b, 2, false, 0},
                        {S16x128b, 4, true, 0},  {S16x256b, 1, false, 0}, {S16x256b, 2, false, 0},
                        {S16x256b, 2, true, 0},  {S16x32bx2, 4, false, 4}, {S16x32bx2, 8, false, 8},
                        {S16x32bx2, 2, true, 6}, {S16x64b, 16, false, 0}, {S32x32b, 32, false, 0}};
  for (const Case& k : cases) {
    CAPTURE(shape_name(k.s));
    CAPTURE(k.num);
    CAPTURE(k.pack);
    test::Harness h;
    h.load(roundtrip_ptx(k.s, k.num, k.pack, k.split), "ldst.ptx");
    const int regs = regs_per_x1(k.s) * k.num, halves = k.s == S32x32b ? 1 : 2;
    const uint64_t out = h.zeros(size_t{128} * regs * halves * 4);
    auto r = h.launch("k", {1, 1, 1}, {128, 1, 1}, test::Params().add(out));
    CHECK(r.findings.empty());
    auto got = h.download<uint32_t>(out, size_t{128} * regs * halves);
    auto value = [](int lane, int col) { return uint32_t(lane) << 16 | uint32_t(col); };
    int bad = 0;
    for (int w = 0; w < 4; ++w)
      for (int t = 0; t < 32; ++t)
        for (int hh = 0; hh < halves; ++hh)
          for (int j = 0; j < regs; ++j) {
            int lane = 0, col = 0;
            cell_of(k.s, t, j, k.split, &lane, &col);
            const int base = 32 * w + 16 * hh;
            uint32_t want;
            if (!k.pack) {
              want = value(base + lane, col);
            } else {  // low half <- logical column 2c, high half <- 2c + 1 (docs/tensor_memory.md §3); the
                      // 16x32bx2 split offset counts physical columns (CUTLASS 16dp32b1x_16b: the
                      // second half starts 2 columns on for .x1)
              int split = 0;
              if (k.s == S16x32bx2 && t >= 16) col -= k.split, split = k.split;
              want = (value(base + lane, 2 * col + split) & 0xffff) | (value(base + lane, 2 * col + 1 + split) & 0xffff) << 16;
            }
            const uint32_t g = got[(size_t(w * 32 + t) * halves + hh) * regs + j];
            if (g != want && bad++ < 5) FAIL_CHECK("warp " << w << " t " << t << " half " << hh << " reg " << j << ": got 0x" << std::hex << g << " want 0x" << want);
          }
    CHECK(bad == 0);
  }
}

TEST_CASE("tcgen05.alloc/dealloc: the rules of §9.7.16.7.1 are reported") {
  SUBCASE("nCols must be a power of two in [32, 512]") {
    std::string e = run_error(" tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 48;\n");
    CHECK(e.find("nCols = 48 must be a power of two in [32, 512]") != std::string::npos);
    CHECK(e.find("t.ptx:") != std::string::npos);
    e = run_error(" tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 1024;\n");
    CHECK(e.find("nCols = 1024") != std::string::npos);
  }
  SUBCASE("alloc is written to shared memory; ld/st/dealloc work; no warnings") {
    std::vector<std::string> w;
    CHECK(run_error(std::string(kAlloc32) + kDealloc32, "", 32, &w) == "");
    CHECK(w.empty());
  }
  SUBCASE("a CTA that exits holding columns") {
    std::string e = run_error(kAlloc32);
    CHECK(e.find("exits holding Tensor Memory columns 0-31") != std::string::npos);
    CHECK(e.find("§9.7.16.1.2") != std::string::npos);
  }
  SUBCASE("alloc after relinquish_alloc_permit") {
    std::string e = run_error(std::string(kAlloc32) + " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n" +
                              " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n");
    CHECK(e.find("after this CTA executed tcgen05.relinquish_alloc_permit") != std::string::npos);
  }
  SUBCASE("dealloc of something never allocated") {
    std::string e = run_error(std::string(kAlloc32) + " tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 64;\n");
    CHECK(e.find("has no such allocation") != std::string::npos);
    CHECK(e.find("columns 0-31") != std::string::npos);
  }
  SUBCASE("alloc blocks when the columns are short; nothing frees them: deadlock report") {
    std::string e = run_error(
        " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 512;\n"
        " tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n");
    CHECK(e.find("deadlock") != std::string::npos);
    CHECK(e.find("tcgen05.alloc waits for 32 free Tensor Memory columns") != std::string::npos);
    CHECK(e.find("0 of 512 columns free") != std::string::npos);
  }
  SUBCASE("dealloc by another warp than the allocating one: a tolerated finding, the columns are freed") {
    std::vector<std::string> w;
    std::string e = run_error(
        " mov.u32 %r0, %tid.x;\n shr.u32 %r2, %r0, 5;\n setp.eq.u32 %p0, %r2, 0;\n @!%p0 bra $L1;\n" +
            std::string(kAlloc32) + "$L1:\n bar.sync 0;\n @%p0 bra $L2;\n ld.shared.u32 %r1, [slot];\n" + kDealloc32 +
            "$L2:\n",
        "", 64, &w);
    CHECK(e == "");  // no "exits holding Tensor Memory columns": warp 1's dealloc freed them
    REQUIRE(w.size() == 1);
    CHECK(w[0].find("[tolerated] tcgen05-alloc-warp") != std::string::npos);
    CHECK(w[0].find("tcgen05.dealloc by warp 1, but warp 0 made this CTA's first allocation") != std::string::npos);
    CHECK(w[0].find("warp 1 lane 0") != std::string::npos);
  }
  SUBCASE("relinquish_alloc_permit by another warp is not restricted by the ISA: no finding") {
    std::vector<std::string> w;
    std::string e = run_error(
        " mov.u32 %r0, %tid.x;\n shr.u32 %r2, %r0, 5;\n setp.eq.u32 %p0, %r2, 0;\n @!%p0 bra $L1;\n" +
            std::string(kAlloc32) + "$L1:\n bar.sync 0;\n @%p0 bra $L2;\n"
            " tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n$L2:\n bar.sync 0;\n @!%p0 bra $L3;\n" +
            kDealloc32 + "$L3:\n",
        "", 64, &w);
    CHECK(e == "");
    CHECK(w.empty());
  }
  SUBCASE(".sync.aligned: a diverged warp") {
    std::string e = run_error(" mov.u32 %r0, %tid.x;\n setp.lt.u32 %p0, %r0, 16;\n @!%p0 bra $L1;\n" +
                              std::string(kAlloc32) + "$L1:\n");
    CHECK(e.find("is .sync.aligned") != std::string::npos);
  }
  SUBCASE("mixing cta_group::1 and ::2 in a kernel is rejected at load") {
    std::string e = run_error(std::string(kAlloc32) + " tcgen05.dealloc.cta_group::2.sync.aligned.b32 %r1, 32;\n");
    CHECK(e.find("must use the same .cta_group") != std::string::npos);
  }
}

TEST_CASE("tcgen05.alloc waits for columns another CTA on the same SM frees") {
  // 149 CTAs on 148 SMs: the last shares an SM with an earlier CTA; both want all 512 columns.
  const std::string ptx = test::ptx_header() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b32 slot;
  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 512;
  ld.shared.u32 %r1, [slot];
  nanosleep.u32 2000;
  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 512;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %smid;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r2, 8;
  add.u64 %rd3, %rd1, %rd2;
  add.u32 %r1, %r1, 1;
  st.global.v2.u32 [%rd3], {%r1, %r3};
  ret;
}
)";
  test::Harness h;
  h.load(ptx, "contend.ptx");
  const uint64_t out = h.zeros(149 * 8);
  auto r = h.launch("k", {149, 1, 1}, {32, 1, 1}, test::Params().add(out));
  auto got = h.download<uint32_t>(out, 149 * 2);
  for (int i = 0; i < 149; ++i) CHECK(got[2 * i] == 1);  // every CTA got column 0 (then +1)
  int shared_with = -1;                                   // the last one really shared an SM
  for (int i = 0; i < 148; ++i)
    if (got[2 * i + 1] == got[2 * 148 + 1]) shared_with = i;
  CHECK(shared_with >= 0);
  CHECK(r.cycles > 2000);
}

TEST_CASE("tcgen05.ld/st: lane quarters, allocation bounds, register dependencies") {
  SUBCASE("columns outside the allocation") {
    std::string e = run_error(std::string(kAlloc32) +
                              " add.u32 %r2, %r1, 30;\n tcgen05.ld.sync.aligned.32x32b.x4.b32 {%r5,%r6,%r7,%r8}, [%r2];\n");
    CHECK(e.find("columns 30-33, which are not allocated to this CTA") != std::string::npos);
  }
  SUBCASE("a tcgen05.ld destination holds the loaded value before tcgen05.wait::ld (PTX ISA §9.7.16.6.4.5)") {
    std::vector<std::string> w;
    const std::string body = std::string(kAlloc32) +
                             " mov.u32 %r5, 77;\n tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r5};\n"
                             " tcgen05.wait::st.sync.aligned;\n mov.u32 %r6, 5;\n"
                             " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r6}, [%r1];\n add.u32 %r7, %r6, 1;\n"
                             " tcgen05.wait::ld.sync.aligned;\n add.u32 %r8, %r6, 2;\n"
                             " ld.param.u64 %rd1, [out];\n mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd2, %r0, 8;\n"
                             " add.u64 %rd1, %rd1, %rd2;\n st.global.v2.u32 [%rd1], {%r7, %r8};\n" + kDealloc32;
    const std::string ptx = test::ptx_header() + ".visible .entry k(.param .u64 out)\n{\n .reg .b32 %r<80>;\n"
                            " .reg .b64 %rd<8>;\n .shared .align 4 .b32 slot;\n" + body + "\n ret;\n}\n";
    test::Harness h;
    h.load(ptx, "t.ptx");
    const uint64_t out = h.zeros(32 * 8);
    auto r = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(out));
    auto got = h.download<uint32_t>(out, 64);
    CHECK(got[0] == 78);  // 77 + 1: the register dependency is honoured without the wait
    CHECK(got[1] == 79);
    CHECK(r.findings.empty());  // defined behaviour: no finding
  }
  SUBCASE("an epilogue that never issues tcgen05.wait::ld reads the right values") {
    std::vector<std::string> w;
    std::string e = run_error(std::string(kAlloc32) +
                                  " mov.u32 %r5, 41;\n tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r5};\n"
                                  " tcgen05.wait::st.sync.aligned;\n"
                                  " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r6}, [%r1];\n"
                                  " ld.param.u64 %rd1, [out];\n mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd2, %r0, 4;\n"
                                  " add.u64 %rd1, %rd1, %rd2;\n st.global.u32 [%rd1], %r6;\n" + kDealloc32,
                              "", 32, &w);
    CHECK(e == "");
    CHECK(w.empty());
  }
  SUBCASE("tcgen05.st over cells a not-yet-waited tcgen05.ld reads: write-after-read") {
    std::vector<std::string> w;
    std::string e = run_error(std::string(kAlloc32) +
                                  " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r6}, [%r1];\n mov.u32 %r5, 1;\n"
                                  " tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r5};\n"
                                  " tcgen05.wait::st.sync.aligned;\n" + kDealloc32,
                              "", 32, &w);
    CHECK(e == "");
    REQUIRE(w.size() == 1);
    CHECK(w[0].find("[undefined] tcgen05-war-st") != std::string::npos);
    CHECK(w[0].find("that the tcgen05.ld at t.ptx:") != std::string::npos);
  }
  SUBCASE("with tcgen05.wait::ld between, the same store is clean") {
    std::vector<std::string> w;
    CHECK(run_error(std::string(kAlloc32) +
                        " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r6}, [%r1];\n tcgen05.wait::ld.sync.aligned;\n"
                        " mov.u32 %r5, 1;\n tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r5};\n"
                        " tcgen05.wait::st.sync.aligned;\n" + kDealloc32,
                    "", 32, &w) == "");
    CHECK(w.empty());
  }
  SUBCASE("tcgen05.ld of cells a not-yet-waited tcgen05.st of the warp writes: tcgen05-raw-st-ld") {
    std::vector<std::string> w;
    std::string e = run_error(std::string(kAlloc32) +
                                  " mov.u32 %r5, 1;\n tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], {%r5};\n"
                                  " tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r6}, [%r1];\n"
                                  " tcgen05.wait::ld.sync.aligned;\n tcgen05.wait::st.sync.aligned;\n" + kDealloc32,
                              "", 32, &w);
    CHECK(e == "");
    REQUIRE(w.size() == 1);
    CHECK(w[0].find("[undefined] tcgen05-raw-st-ld") != std::string::npos);
  }
}

// What a warp reads from a lane outside its quarter (§9.7.16.8.1; docs/hardware_tolerance.md: the
// lane field taken modulo 32 inside the warp's own quarter). Every cell holds (lane << 16 | column),
// written by each warp through its own quarter; then each warp loads at a lane field `lane_of(w)`.
std::vector<uint32_t> quarter_probe(const std::string& lane_expr, std::vector<std::string>* w, int shape16 = 0) {
  const std::string ptx = test::ptx_header() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<80>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 4 .b32 slot;
  mov.u32 %r0, %tid.x;
  shr.u32 %r2, %r0, 5;
  and.b32 %r3, %r0, 31;
  setp.eq.u32 %p0, %r2, 0;
  @!%p0 bra $L1;
  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;
$L1:
  bar.sync 0;
  ld.shared.u32 %r1, [slot];
  shl.b32 %r4, %r2, 5;
  add.u32 %r4, %r4, %r3;       // this thread's lane of TMEM
  shl.b32 %r4, %r4, 16;
  shl.b32 %r5, %r2, 21;        // the warp's own quarter
  add.u32 %r5, %r5, %r1;
  tcgen05.st.sync.aligned.32x32b.x1.b32 [%r5], {%r4};
  tcgen05.wait::st.sync.aligned;
  bar.sync 0;
)" + lane_expr + R"(
  shl.b32 %r6, %r6, 16;
  add.u32 %r6, %r6, %r1;
)" + (shape16 ? "  tcgen05.ld.sync.aligned.16x64b.x1.b32 {%r7}, [%r6];\n"
              : "  tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r7}, [%r6];\n") + R"(
  tcgen05.wait::ld.sync.aligned;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r0, 4;
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r7;
  bar.sync 0;
  @!%p0 bra $L2;
  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;
$L2:
  ret;
}
)";
  test::Harness h;
  h.load(ptx, "q.ptx");
  const uint64_t out = h.zeros(128 * 4);
  auto r = h.launch("k", {1, 1, 1}, {128, 1, 1}, test::Params().add(out));
  *w = r.finding_lines();
  return h.download<uint32_t>(out, 128);
}

TEST_CASE("tcgen05.ld outside the warp's lane quarter: served modulo 32 in the own quarter, a finding") {
  std::vector<std::string> w;
  SUBCASE("lane 0 passed by every warp (DeepGEMM-style epilogue): each warp reads its own quarter") {
    auto got = quarter_probe("  mov.u32 %r6, 0;", &w);
    for (uint32_t t = 0; t < 128; ++t) CHECK(got[t] == t << 16);
    REQUIRE(w.size() == 3);  // warps 1, 2, 3 break the rule (warp 0 does not); one site, first three kept
    CHECK(w[0].find("[tolerated] tcgen05-lane-quarter") != std::string::npos);
    CHECK(w[0].find("names lanes 0-31, but warp 1 (warp id % 4 = 1) reaches only lanes 32-63") != std::string::npos);
    CHECK(w[0].find("so lanes 32-63 were accessed") != std::string::npos);
  }
  SUBCASE("lane 128 + 32w (the odd CTA of a pair reading layout A): the own quarter") {
    auto got = quarter_probe("  shl.b32 %r6, %r2, 5;\n  add.u32 %r6, %r6, 128;", &w);
    for (uint32_t t = 0; t < 128; ++t) CHECK(got[t] == t << 16);
    REQUIRE(!w.empty());
    CHECK(w[0].find("names lanes 128-159, but warp 0") != std::string::npos);
  }
  SUBCASE("lane 96 passed by warp 0 reads lane 0 (the public probe's observation)") {
    auto got = quarter_probe("  sub.u32 %r6, 3, %r2;\n  shl.b32 %r6, %r6, 5;", &w);  // warp w passes 32 * (3 - w)
    for (uint32_t t = 0; t < 128; ++t) CHECK(got[t] == t << 16);
    CHECK(w.size() == 3);  // every warp is outside its quarter; the group keeps three
  }
  SUBCASE("the own quarter: no finding") {
    auto got = quarter_probe("  shl.b32 %r6, %r2, 5;", &w);
    for (uint32_t t = 0; t < 128; ++t) CHECK(got[t] == t << 16);
    CHECK(w.empty());
  }
  SUBCASE("rows that run past the quarter wrap inside it: tcgen05-lane-wrap") {
    // 16x64b at lane 24 of the own quarter: lanes 24..39 named; served 24..31 then 0..7 of the quarter.
    auto got = quarter_probe("  shl.b32 %r6, %r2, 5;\n  add.u32 %r6, %r6, 24;", &w, 1);
    REQUIRE(!w.empty());
    CHECK(w[0].find("[undefined] tcgen05-lane-wrap") != std::string::npos);
    // 16x64b: thread t, register 0 reads row t/4 + 8*(t%2) of the shape, column (t/2)%2.
    for (uint32_t t = 0; t < 32; ++t) {
      const uint32_t row = t / 4 + 8 * (t % 2), col = (t / 2) % 2;
      CHECK(got[t] == (col == 0 ? ((24 + row) & 31) << 16 : 0u));  // column 1 was never written
    }
  }
}
