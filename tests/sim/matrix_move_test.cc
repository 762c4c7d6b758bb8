// ldmatrix / stmatrix / movmatrix (sim/exec/matrix_move.cc), one warp. Truth: the PTX ISA's
// description (§9.7.14.5.15-.17): matrix i's row r comes from the address held by thread 8i + r;
// thread t receives, in register i, row t/4 columns 2(t%4), 2(t%4)+1 (low half first), or with
// .trans the transposed matrix's elements (rows 2(t%4), 2(t%4)+1 of column t/4). Elements here
// carry their coordinates (matrix*1000 + row*10 + col) so every misplacement is visible. The
// kernels/hopper ldst_matrix goldens judge the same against the H200.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

uint16_t val(int m, int r, int c) { return static_cast<uint16_t>(m * 1000 + r * 10 + c); }

// Row r of matrix m sits at 16-byte slot perm(8m + r) of the tile (scattered, so the per-thread
// row addresses matter).
int perm(int i) { return (i * 13 + 5) % 32; }

std::string kernel(const std::string& instr, int num) {
  std::string regs, st;
  for (int i = 0; i < num; ++i) {
    regs += fmt::format("{}%v{}", i ? ", " : "", i);
    st += fmt::format("  st.global.u32 [%rd4+{}], %v{};\n", 4 * i, i);
  }
  return test::ptx_header("sm_90a") + fmt::format(R"(
.visible .entry k(.param .u64 ptile, .param .u64 pout)
{{
  .reg .b32 %r<16>;
  .reg .b32 %v<4>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 tile[512];
  ld.param.u64 %rd1, [ptile];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %laneid;
  mov.u32 %r2, tile;
  // copy the 512-byte tile: 16 bytes per thread
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd5, %rd1, %rd3;
  ld.global.v4.u32 {{%r4, %r5, %r6, %r7}}, [%rd5];
  shl.b32 %r8, %r1, 4;
  add.u32 %r9, %r2, %r8;
  st.shared.v4.u32 [%r9], {{%r4, %r5, %r6, %r7}};
  bar.warp.sync 0xffffffff;
  // this thread's row address: slot (13 t + 5) % 32
  mul.lo.u32 %r10, %r1, 13;
  add.u32 %r10, %r10, 5;
  rem.u32 %r10, %r10, 32;
  shl.b32 %r10, %r10, 4;
  add.u32 %r11, %r2, %r10;
  mul.wide.u32 %rd6, %r1, {stride};
  add.s64 %rd4, %rd2, %rd6;
  {instr}
{st}  ret;
}}
)",
                                                  fmt::arg("stride", 4 * num), fmt::arg("instr", fmt::format(fmt::runtime(instr), regs)),
                                                  fmt::arg("st", st));
}

std::vector<uint16_t> tile_image() {
  std::vector<uint16_t> t(256, 0xeeee);
  for (int m = 0; m < 4; ++m)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) t[perm(8 * m + r) * 8 + c] = val(m, r, c);
  return t;
}

}  // namespace

TEST_CASE("ldmatrix .x1/.x2/.x4, with and without .trans") {
  for (int num : {1, 2, 4})
    for (bool trans : {false, true}) {
      CAPTURE(num);
      CAPTURE(trans);
      const std::string instr = fmt::format("ldmatrix.sync.aligned.m8n8.x{}{}.shared.b16 {{{{{{}}}}}}, [%r11];", num,
                                            trans ? ".trans" : "");
      test::Harness h(isa::Arch::Sm90a);
      h.load(kernel(instr, num), "ldmatrix.ptx");
      const uint64_t dt = h.upload(tile_image()), dout = h.zeros(32 * 4 * num);
      h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(dt).add(dout));
      const auto out = h.download<uint32_t>(dout, size_t(32) * num);
      for (int t = 0; t < 32; ++t)
        for (int i = 0; i < num; ++i) {
          const int g = t / 4, q = t % 4;
          const uint32_t want = trans ? (uint32_t{val(i, 2 * q, g)} | uint32_t{val(i, 2 * q + 1, g)} << 16)
                                      : (uint32_t{val(i, g, 2 * q)} | uint32_t{val(i, g, 2 * q + 1)} << 16);
          CHECK(out[size_t(t) * num + i] == want);
        }
    }
}

TEST_CASE("stmatrix .x4 (.trans) writes rows at the threads' addresses; movmatrix transposes the fragment") {
  for (bool trans : {false, true}) {
    CAPTURE(trans);
    // Each thread t stores register i = its fragment of matrix i (values as ldmatrix would have
    // loaded from tile_image() without .trans); then the tile is read back.
    const std::string ptx = test::ptx_header("sm_90a") + fmt::format(R"(
.visible .entry k(.param .u64 pfrag, .param .u64 pout)
{{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 tile[512];
  ld.param.u64 %rd1, [pfrag];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %laneid;
  mov.u32 %r2, tile;
  shl.b32 %r8, %r1, 4;
  add.u32 %r9, %r2, %r8;
  st.shared.v4.u32 [%r9], {{0xeeeeeeee, 0xeeeeeeee, 0xeeeeeeee, 0xeeeeeeee}};
  bar.warp.sync 0xffffffff;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v4.u32 {{%r4, %r5, %r6, %r7}}, [%rd4];
  mul.lo.u32 %r10, %r1, 13;
  add.u32 %r10, %r10, 5;
  rem.u32 %r10, %r10, 32;
  shl.b32 %r10, %r10, 4;
  add.u32 %r11, %r2, %r10;
  stmatrix.sync.aligned.m8n8.x4{}.shared.b16 [%r11], {{%r4, %r5, %r6, %r7}};
  bar.warp.sync 0xffffffff;
  ld.shared.v4.u32 {{%r4, %r5, %r6, %r7}}, [%r9];
  add.s64 %rd5, %rd2, %rd3;
  st.global.v4.u32 [%rd5], {{%r4, %r5, %r6, %r7}};
  ret;
}}
)",
                                                                     trans ? ".trans" : "");
    std::vector<uint32_t> frag(32 * 4);
    for (int t = 0; t < 32; ++t)
      for (int i = 0; i < 4; ++i)
        frag[t * 4 + i] = uint32_t{val(i, t / 4, 2 * (t % 4))} | uint32_t{val(i, t / 4, 2 * (t % 4) + 1)} << 16;
    test::Harness h(isa::Arch::Sm90a);
    h.load(ptx, "stmatrix.ptx");
    const uint64_t df = h.upload(frag), dout = h.zeros(512);
    h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(df).add(dout));
    const auto got = h.download<uint16_t>(dout, 256);
    for (int m = 0; m < 4; ++m)
      for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) CHECK(got[perm(8 * m + r) * 8 + c] == (trans ? val(m, c, r) : val(m, r, c)));
  }
  // movmatrix: the fragment of M (row t/4, cols 2(t%4)+{0,1}) becomes the fragment of M^T.
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  movmatrix.sync.aligned.m8n8.trans.b16 %r3, %r2;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}
)";
  std::vector<uint32_t> in(32);
  for (int t = 0; t < 32; ++t) in[t] = uint32_t{val(0, t / 4, 2 * (t % 4))} | uint32_t{val(0, t / 4, 2 * (t % 4) + 1)} << 16;
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "movmatrix.ptx");
  const uint64_t di = h.upload(in), dout = h.zeros(128);
  h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(di).add(dout));
  const auto out = h.download<uint32_t>(dout, 32);
  for (int t = 0; t < 32; ++t)
    CHECK(out[t] == (uint32_t{val(0, 2 * (t % 4), t / 4)} | uint32_t{val(0, 2 * (t % 4) + 1, t / 4)} << 16));
}

TEST_CASE("ldmatrix errors: misaligned row address, generic address outside shared memory") {
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 16 .b8 tile[512];
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, tile;
  add.u32 %r2, %r1, 8;
  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r2];
  ret;
}
.visible .entry g(.param .u64 p)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ldmatrix.sync.aligned.m8n8.x1.b16 {%r3}, [%rd1];
  ret;
}
)";
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "bad.ptx");
  const uint64_t d = h.zeros(256);
  CHECK_THROWS_WITH_AS(h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(d)), doctest::Contains("misaligned shared load of 16 bytes"),
                       sim::SimError);
  CHECK_THROWS_WITH_AS(h.launch("g", {1, 1, 1}, {32, 1, 1}, test::Params().add(d)),
                       doctest::Contains("is not in shared memory"), sim::SimError);
}
