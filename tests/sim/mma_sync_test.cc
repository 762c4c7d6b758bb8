// mma.sync (sim/exec/mma.cc): fragments and arithmetic of representative forms, one warp each.
// Truth: the per-element fragment tables of the PTX ISA figures (§9.7.14.5.7-.13, written out
// element by element here, independently of mma.cc's per-register formulas), exact integer
// arithmetic (wrapping / .satfinite clamping, popcounts), small integers in float formats (every
// product and sum exact), and one hand-worked f64 value that tells a fused chain from a rounded
// product. The full list of forms is judged bit for bit by the 100 H200 goldens of kernels/hopper.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

struct RC {
  int r, c;
};
using ElemMap = std::function<RC(int lane, int i)>;  // element i of a thread -> (row, col)

struct Form {
  std::string ptx;  // "m16n8k16.row.col.f32.f16.f16.f32"
  int m, n, k;
  int abits, bbits;  // element bits
  int na, nb, nc;    // registers per thread
  int acc_bits;      // 32 (f32/s32), 16 (f16 pairs), 64 (f64)
  ElemMap a, b, c;   // a: (row m, col k); b: (row k, col n); c: (row m, col n)
};

int g_(int lane) { return lane >> 2; }
int q_(int lane) { return lane & 3; }

// One warp: registers loaded from per-thread arrays (a: na words, b: nb, c: nc), one mma, D stored.
std::string kernel(const Form& f) {
  const bool wide = f.abits == 64;
  const std::string rt = wide ? "b64" : "b32", ct = f.acc_bits == 64 ? "b64" : "b32";
  const int rw = wide ? 8 : 4, cw = f.acc_bits == 64 ? 8 : 4;
  std::string body, dl, al, bl, cl;
  auto load = [&](const char* reg, const char* base, int n, int w, const std::string& t, std::string& list) {
    for (int i = 0; i < n; ++i) {
      body += fmt::format("  ld.global.{} %{}{}, [{}+{}];\n", t, reg, i, base, w * i);
      list += fmt::format("{}%{}{}", i ? ", " : "", reg, i);
    }
  };
  load("a", "%rd5", f.na, rw, rt, al);
  load("b", "%rd6", f.nb, rw, rt, bl);
  load("c", "%rd7", f.nc, cw, ct, cl);
  std::string st;
  for (int i = 0; i < f.nc; ++i) {
    dl += fmt::format("{}%d{}", i ? ", " : "", i);
    st += fmt::format("  st.global.{} [%rd8+{}], %d{};\n", ct, cw * i, i);
  }
  return test::ptx_header("sm_90a") + fmt::format(R"(
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{{
  .reg .b32 %r<4>;
  .reg .b64 %rd<16>;
  .reg .{rt} %a<16>;
  .reg .{rt} %b<8>;
  .reg .{ct} %c<8>;
  .reg .{ct} %d<8>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [pd];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd9, %r1, {sa};
  add.s64 %rd5, %rd1, %rd9;
  mul.wide.u32 %rd9, %r1, {sb};
  add.s64 %rd6, %rd2, %rd9;
  mul.wide.u32 %rd9, %r1, {sc};
  add.s64 %rd7, %rd3, %rd9;
  add.s64 %rd8, %rd4, %rd9;
{body}  mma.sync.aligned.{form} {{{dl}}}, {{{al}}}, {{{bl}}}, {{{cl}}};
{st}  ret;
}}
)",
                                                  fmt::arg("rt", rt), fmt::arg("ct", ct), fmt::arg("sa", rw * f.na),
                                                  fmt::arg("sb", rw * f.nb), fmt::arg("sc", cw * f.nc),
                                                  fmt::arg("body", body), fmt::arg("form", f.ptx), fmt::arg("dl", dl),
                                                  fmt::arg("al", al), fmt::arg("bl", bl), fmt::arg("cl", cl),
                                                  fmt::arg("st", st));
}

// Packs element codes (row-major matrices of `bits`-wide codes) into per-thread registers.
std::vector<uint64_t> pack(const std::vector<uint64_t>& m, int cols, int nregs, int bits, int reg_bits, const ElemMap& map) {
  std::vector<uint64_t> out(size_t(32) * nregs, 0);
  const int per_reg = reg_bits / bits;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < nregs * per_reg; ++i) {
      const RC x = map(lane, i);
      const uint64_t code = m[size_t(x.r) * cols + x.c] & (bits == 64 ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1));
      out[size_t(lane) * nregs + i / per_reg] |= code << (bits * (i % per_reg));
    }
  return out;
}

// Runs form f on matrices of codes A (m x k), B (k x n), C (m x n); returns D codes (m x n).
std::vector<uint64_t> run(const Form& f, const std::vector<uint64_t>& A, const std::vector<uint64_t>& B,
                          const std::vector<uint64_t>& C) {
  const int rb = f.abits == 64 ? 64 : 32;
  const int cbits = f.acc_bits, creg = f.acc_bits == 64 ? 64 : 32;
  auto pa = pack(A, f.k, f.na, f.abits, rb, f.a);
  auto pb = pack(B, f.n, f.nb, f.bbits, rb, f.b);
  auto pc = pack(C, f.n, f.nc, cbits, creg, f.c);
  test::Harness h(isa::Arch::Sm90a);
  h.load(kernel(f), "mma_test.ptx");
  auto up = [&](const std::vector<uint64_t>& v, int bits) {
    if (bits == 64) return h.upload(v);
    return h.upload(std::vector<uint32_t>(v.begin(), v.end()));
  };
  const uint64_t da = up(pa, rb), db = up(pb, rb), dc = up(pc, creg);
  const size_t dbytes = size_t(32) * f.nc * (creg / 8);
  const uint64_t dd = h.zeros(dbytes);
  h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(da).add(db).add(dc).add(dd));
  std::vector<uint64_t> regs(size_t(32) * f.nc);
  if (creg == 64) {
    regs = h.download<uint64_t>(dd, regs.size());
  } else {
    auto w = h.download<uint32_t>(dd, regs.size());
    regs.assign(w.begin(), w.end());
  }
  std::vector<uint64_t> D(size_t(f.m) * f.n, ~uint64_t{0});
  const int per_reg = creg / cbits;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < f.nc * per_reg; ++i) {
      const RC x = f.c(lane, i);
      const uint64_t v = regs[size_t(lane) * f.nc + i / per_reg] >> (cbits * (i % per_reg));
      D[size_t(x.r) * f.n + x.c] = cbits == 64 ? v : v & ((uint64_t{1} << cbits) - 1);
    }
  return D;
}

uint64_t f32c(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}
uint64_t f16c(float x) {  // exact small integers only
  if (x == 0) return 0;
  const bool neg = x < 0;
  float a = std::fabs(x);
  int e = 0;
  while (a >= 2) a /= 2, ++e;
  const uint32_t mant = static_cast<uint32_t>((a - 1) * 1024);
  return (neg ? 0x8000u : 0u) | uint32_t(e + 15) << 10 | mant;
}
uint64_t e4m3c(int x) {  // exact small integers |x| <= 8
  if (x == 0) return 0;
  const bool neg = x < 0;
  int a = std::abs(x), e = 0;
  while (a >= 2 * (1 << e)) ++e;
  const uint32_t mant = static_cast<uint32_t>((a - (1 << e)) * 8 / (1 << e));
  return (neg ? 0x80u : 0u) | uint32_t(e + 7) << 3 | mant;
}

// The C/D layouts (§9.7.14.5.8 Figures): M = 16: row g + 8(i >> 1), col 2q + (i & 1); M = 8: row g, col 2q + i.
RC c16(int l, int i) { return {g_(l) + 8 * (i >> 1), 2 * q_(l) + (i & 1)}; }
RC c8(int l, int i) { return {g_(l), 2 * q_(l) + i}; }

}  // namespace

TEST_CASE("mma.sync m16n8k16 f16 -> f32: figure fragments, exact small-integer products") {
  Form f{"m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, 16, 16, 4, 2, 4, 32,
         [](int l, int i) { return RC{g_(l) + 8 * ((i >> 1) & 1), 2 * q_(l) + (i & 1) + 8 * (i >> 2)}; },
         [](int l, int i) { return RC{2 * q_(l) + (i & 1) + 8 * (i >> 1), g_(l)}; }, c16};
  std::vector<uint64_t> A(16 * 16), B(16 * 8), C(16 * 8);
  std::vector<int> a(A.size()), b(B.size()), c(C.size());
  for (size_t i = 0; i < A.size(); ++i) A[i] = f16c(float(a[i] = int(i * 7 % 9) - 4));
  for (size_t i = 0; i < B.size(); ++i) B[i] = f16c(float(b[i] = int(i * 5 % 7) - 3));
  for (size_t i = 0; i < C.size(); ++i) C[i] = f32c(float(c[i] = int(i % 11) - 5));
  const auto D = run(f, A, B, C);
  for (int r = 0; r < 16; ++r)
    for (int n = 0; n < 8; ++n) {
      int s = c[r * 8 + n];
      for (int k = 0; k < 16; ++k) s += a[r * 16 + k] * b[k * 8 + n];
      CHECK(D[r * 8 + n] == f32c(float(s)));
    }
}

TEST_CASE("mma.sync m16n8k8 tf32 and m16n8k32 e4m3: exact small integers") {
  SUBCASE("tf32 (A: row g + 8(i & 1), col q + 4(i >> 1); B: row q + 4i, col g)") {
    Form f{"m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, 32, 32, 4, 2, 4, 32,
           [](int l, int i) { return RC{g_(l) + 8 * (i & 1), q_(l) + 4 * (i >> 1)}; },
           [](int l, int i) { return RC{q_(l) + 4 * i, g_(l)}; }, c16};
    std::vector<uint64_t> A(16 * 8), B(8 * 8), C(16 * 8, f32c(0.5f));
    std::vector<int> a(A.size()), b(B.size());
    // Low 13 bits set in the operands: tf32 ignores them (PTX ISA §9.7.15.5.2; H200 Q16).
    for (size_t i = 0; i < A.size(); ++i) A[i] = f32c(float(a[i] = int(i % 5) - 2)) | (a[i] ? 0x1fffu : 0u);
    for (size_t i = 0; i < B.size(); ++i) B[i] = f32c(float(b[i] = int(i % 3) - 1));
    const auto D = run(f, A, B, C);
    for (int r = 0; r < 16; ++r)
      for (int n = 0; n < 8; ++n) {
        float s = 0.5f;
        for (int k = 0; k < 8; ++k) s += float(a[r * 8 + k] * b[k * 8 + n]);
        CHECK(D[r * 8 + n] == f32c(s));
      }
  }
  SUBCASE("e4m3 (A: row g + 8((i >> 2) & 1), col 4q + (i & 3) + 16(i >> 3); B: row 4q + (i & 3) + 16(i >> 2))") {
    Form f{"m16n8k32.row.col.f32.e4m3.e4m3.f32", 16, 8, 32, 8, 8, 4, 2, 4, 32,
           [](int l, int i) { return RC{g_(l) + 8 * ((i >> 2) & 1), 4 * q_(l) + (i & 3) + 16 * (i >> 3)}; },
           [](int l, int i) { return RC{4 * q_(l) + (i & 3) + 16 * (i >> 2), g_(l)}; }, c16};
    std::vector<uint64_t> A(16 * 32), B(32 * 8), C(16 * 8, f32c(-3.0f));
    std::vector<int> a(A.size()), b(B.size());
    for (size_t i = 0; i < A.size(); ++i) A[i] = e4m3c(a[i] = int(i * 3 % 7) - 3);
    for (size_t i = 0; i < B.size(); ++i) B[i] = e4m3c(b[i] = int(i * 5 % 5) - 2);
    const auto D = run(f, A, B, C);
    for (int r = 0; r < 16; ++r)
      for (int n = 0; n < 8; ++n) {
        int s = -3;
        for (int k = 0; k < 32; ++k) s += a[r * 32 + k] * b[k * 8 + n];
        CHECK(D[r * 8 + n] == f32c(float(s)));
      }
  }
}

TEST_CASE("mma.sync integer forms: s8 .satfinite, s4 x u4 wrap, b1 .xor.popc (exact)") {
  SUBCASE("m16n8k32 s8 .satfinite clamps to INT32_MAX / INT32_MIN") {
    Form f{"m16n8k32.row.col.satfinite.s32.s8.s8.s32", 16, 8, 32, 8, 8, 4, 2, 4, 32,
           [](int l, int i) { return RC{g_(l) + 8 * ((i >> 2) & 1), 4 * q_(l) + (i & 3) + 16 * (i >> 3)}; },
           [](int l, int i) { return RC{4 * q_(l) + (i & 3) + 16 * (i >> 2), g_(l)}; }, c16};
    std::vector<uint64_t> A(16 * 32), B(32 * 8), C(16 * 8);
    for (size_t i = 0; i < A.size(); ++i) A[i] = uint8_t(int8_t(int(i * 37 % 256) - 128));
    for (size_t i = 0; i < B.size(); ++i) B[i] = uint8_t(int8_t(int(i * 91 % 256) - 128));
    for (size_t i = 0; i < C.size(); ++i) C[i] = uint32_t(i % 2 ? INT32_MAX - 1000 : INT32_MIN + 1000);
    const auto D = run(f, A, B, C);
    for (int r = 0; r < 16; ++r)
      for (int n = 0; n < 8; ++n) {
        int64_t s = int32_t(uint32_t(C[r * 8 + n]));
        for (int k = 0; k < 32; ++k) s += int64_t(int8_t(A[r * 32 + k])) * int8_t(B[k * 8 + n]);
        s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
        CHECK(D[r * 8 + n] == uint32_t(int32_t(s)));
      }
  }
  SUBCASE("m16n8k64 s4 x u4 (A: row g + 8((i >> 3) & 1), col 8q + (i & 7) + 32(i >> 4)), wrapping") {
    Form f{"m16n8k64.row.col.s32.s4.u4.s32", 16, 8, 64, 4, 4, 4, 2, 4, 32,
           [](int l, int i) { return RC{g_(l) + 8 * ((i >> 3) & 1), 8 * q_(l) + (i & 7) + 32 * (i >> 4)}; },
           [](int l, int i) { return RC{8 * q_(l) + (i & 7) + 32 * (i >> 3), g_(l)}; }, c16};
    std::vector<uint64_t> A(16 * 64), B(64 * 8), C(16 * 8);
    for (size_t i = 0; i < A.size(); ++i) A[i] = i * 11 % 16;
    for (size_t i = 0; i < B.size(); ++i) B[i] = i * 13 % 16;
    for (size_t i = 0; i < C.size(); ++i) C[i] = uint32_t(INT32_MAX - 100);  // the sums overflow and wrap
    const auto D = run(f, A, B, C);
    for (int r = 0; r < 16; ++r)
      for (int n = 0; n < 8; ++n) {
        uint32_t s = uint32_t(C[r * 8 + n]);
        for (int k = 0; k < 64; ++k) {
          const int av = int(A[r * 64 + k]) >= 8 ? int(A[r * 64 + k]) - 16 : int(A[r * 64 + k]);
          s += uint32_t(av * int(B[k * 8 + n]));
        }
        CHECK(D[r * 8 + n] == s);
      }
  }
  SUBCASE("m8n8k128 b1 .xor.popc (A: row g, col 32q + i; B: row 32q + i, col g; D: M = 8)") {
    Form f{"m8n8k128.row.col.s32.b1.b1.s32.xor.popc", 8, 8, 128, 1, 1, 1, 1, 2, 32,
           [](int l, int i) { return RC{g_(l), 32 * q_(l) + i}; },
           [](int l, int i) { return RC{32 * q_(l) + i, g_(l)}; }, c8};
    std::vector<uint64_t> A(8 * 128), B(128 * 8), C(8 * 8);
    for (size_t i = 0; i < A.size(); ++i) A[i] = (i * 2654435761u >> 7) & 1;
    for (size_t i = 0; i < B.size(); ++i) B[i] = (i * 40503u >> 5) & 1;
    for (size_t i = 0; i < C.size(); ++i) C[i] = uint32_t(i);
    const auto D = run(f, A, B, C);
    for (int r = 0; r < 8; ++r)
      for (int n = 0; n < 8; ++n) {
        uint32_t s = uint32_t(C[r * 8 + n]);
        for (int k = 0; k < 128; ++k) s += uint32_t(A[r * 128 + k] ^ B[k * 8 + n]);
        CHECK(D[r * 8 + n] == s);
      }
  }
}

TEST_CASE("mma.sync m8n8k4 f64 is a fused multiply-add chain") {
  // (1 + 2^-30)^2 - 1 = 2^-29 + 2^-60 exactly (31 significant bits: a double holds it). A fused
  // chain keeps the 2^-60; a rounded product (1 + 2^-29 + 2^-60 -> 1 + 2^-29) would lose it.
  Form f{"m8n8k4.row.col.f64.f64.f64.f64", 8, 8, 4, 64, 64, 1, 1, 2, 64,
         [](int l, int) { return RC{g_(l), q_(l)}; }, [](int l, int) { return RC{q_(l), g_(l)}; }, c8};
  auto bits = [](double d) {
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
  };
  const double x = 1.0 + std::ldexp(1.0, -30);
  std::vector<uint64_t> A(8 * 4, bits(0.0)), B(4 * 8, bits(0.0)), C(8 * 8, bits(-1.0));
  for (int r = 0; r < 8; ++r) A[r * 4 + 2] = bits(x);
  for (int n = 0; n < 8; ++n) B[2 * 8 + n] = bits(x);
  const auto D = run(f, A, B, C);
  for (int i = 0; i < 64; ++i) CHECK(D[i] == bits(std::ldexp(1.0, -29) + std::ldexp(1.0, -60)));
}

TEST_CASE("mma.sync errors: partial warp, illegal forms") {
  // Half a warp executes it: undefined (.aligned), reported.
  const std::string ptx = test::ptx_header("sm_90a") + R"(
.visible .entry k()
{
  .reg .b32 %r<16>;
  .reg .f32 %f<8>;
  .reg .pred %p<2>;
  mov.u32 %r1, %laneid;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f0, %f1, %f2, %f3}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%f4, %f5, %f6, %f7};
  ret;
}
)";
  test::Harness h(isa::Arch::Sm90a);
  h.load(ptx, "partial.ptx");
  CHECK_THROWS_WITH_AS(h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params()),
                       doctest::Contains("must be executed by all 32 threads of the warp convergently"), sim::SimError);
  auto bad = [](const std::string& instr, const std::string& want) {
    CAPTURE(instr);
    const std::string p = test::ptx_header("sm_90a") + ".visible .entry k()\n{\n .reg .b32 %r<16>;\n .reg .f32 %f<8>;\n " +
                          instr + "\n ret;\n}\n";
    test::Harness hh(isa::Arch::Sm90a);
    CHECK_THROWS_WITH_AS(hh.load(p, "bad.ptx"), doctest::Contains(want.c_str()), sim::SimError);
  };
  bad("mma.sync.aligned.m16n8k16.row.col.f16.bf16.bf16.f16 {%r0, %r1}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%r8, %r9};",
      ".bf16 accumulates in .f32 only");
  bad("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%f4, %f5, %f6, %f7};",
      "has 3 registers; this shape and type need 4");
  bad("mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r2, %r3, %r4, %r5}, {%r6, %r7}, {%f4, %f5, %f6, %f7};",
      ".satfinite applies to integer forms only");
  bad("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e5m2.f16 {%f0, %f1, %f2, %f3}, {%r2, %r3}, {%r6}, {%r8, %r9};",
      "C and D types differ");
}
