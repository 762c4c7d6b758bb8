// cvt.pack (sim/exec/cvt_pack.cc, PTX ISA §9.7.9.22) and cvt.rs (sim/exec/convert.cc, §9.7.9.21,
// sm_100a) through the simulator, on hand-worked values: operand order, clamping, the c operand's
// bits above the packed pair, and the random-bits operand of the stochastic forms (the rounding
// itself is tested in tests/models/format_cvt_rs_test.cc).
#include <doctest/doctest.h>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {
uint32_t run1(const std::string& body) { return test::eval32(body, {{0, 0, 0, 0}})[0]; }
}  // namespace

TEST_CASE("cvt.pack.sat: clamp a and b to the narrow type; ta above tb; c fills the upper bits") {
  // s8: clamp(300) = 127 = 0x7f, clamp(-200) = -128 = 0x80; d = { c[15:0] = 0x5678, 0x7f, 0x80 }.
  CHECK(run1("mov.u32 %y1, 300;\n mov.u32 %y2, -200;\n mov.u32 %y3, 0x12345678;\n"
             " cvt.pack.sat.s8.s32.b32 %y0, %y1, %y2, %y3;") == 0x56787f80u);
  // u8: clamp(-1) = 0, clamp(256) = 255.
  CHECK(run1("mov.u32 %y1, -1;\n mov.u32 %y2, 256;\n cvt.pack.sat.u8.s32.b32 %y0, %y1, %y2, 0;") == 0x000000ffu);
  // u16 (no c): clamp(70000) = 0xffff in d[31:16], clamp(-5) = 0 in d[15:0].
  CHECK(run1("mov.u32 %y1, 70000;\n mov.u32 %y2, -5;\n cvt.pack.sat.u16.s32 %y0, %y1, %y2;") == 0xffff0000u);
  // s16: 0x8000 for -40000 below, 0x1234 kept.
  CHECK(run1("mov.u32 %y1, 0x1234;\n mov.u32 %y2, -40000;\n cvt.pack.sat.s16.s32 %y0, %y1, %y2;") == 0x12348000u);
  // s4: [-8, 7]: clamp(9) = 7, -3 = 0xd -> 0x7d; d[31:8] = c[23:0] = 0xcdef01.
  CHECK(run1("mov.u32 %y1, 9;\n mov.u32 %y2, -3;\n mov.u32 %y3, 0xabcdef01;\n"
             " cvt.pack.sat.s4.s32.b32 %y0, %y1, %y2, %y3;") == 0xcdef017du);
  // u2: clamp(5) = 3, 1 -> 0b1101; c = 0.
  CHECK(run1("mov.u32 %y1, 5;\n mov.u32 %y2, 1;\n cvt.pack.sat.u2.s32.b32 %y0, %y1, %y2, 0;") == 0xdu);
}

TEST_CASE("cvt.rs (sm_100a): a to the upper lane, rbits split per operand") {
  // bf16x2: a = 0x3f808001 discards 0x8001: rbits[31:16] = 0x7fff carries (0x3f81), b = 1.0 exact.
  CHECK(run1("mov.b32 %y1, 0x3f808001;\n mov.b32 %y2, 0x3f800000;\n mov.b32 %y3, 0x7fff0000;\n"
             " cvt.rs.bf16x2.f32 %y0, %y1, %y2, %y3;") == 0x3f813f80u);
  CHECK(run1("mov.b32 %y1, 0x3f808001;\n mov.b32 %y2, 0x3f800000;\n mov.b32 %y3, 0x7ffe0000;\n"
             " cvt.rs.bf16x2.f32 %y0, %y1, %y2, %y3;") == 0x3f803f80u);
  // e4m3x4 {a, b, e, f} = {1.0625 + 2^-23, 1.0, 0, 2.0}: a's top-16 discarded bits 0x8000 carry with
  // r = 0x8000 -> 0x39; d = 0x39 0x38 0x00 0x40.
  CHECK(run1("mov.b32 %y1, 0x3f880001;\n mov.b32 %y2, 0x3f800000;\n mov.b32 %y3, 0;\n mov.b32 %y4, 0x40000000;\n"
             " mov.b32 %y5, 0x80000000;\n cvt.rs.satfinite.e4m3x4.f32 %y0, {%y1, %y2, %y3, %y4}, %y5;") == 0x39380040u);
}
