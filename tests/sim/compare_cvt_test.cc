// setp/set/selp/slct with every comparison operator (incl. the unordered ones and NaN/±0 cases),
// and cvt between integer, f32 and f64 types with every rounding mode, saturation and .ftz.
// References: IEEE comparison semantics on the host (PTX ISA Tables 23/24 map one to one), exact
// rounding by hand-worked values (commented), Boost-free here.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "tests/sim/harness.h"

using namespace tcsim;
using test::Row;

namespace {
uint64_t f(float x) { return std::bit_cast<uint32_t>(x); }
uint64_t d(double x) { return std::bit_cast<uint64_t>(x); }
const float kNaN = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST_CASE("setp: integer and float comparison operators") {
  std::vector<Row> ints = {{1, 2, 0, 0}, {2, 2, 0, 0}, {3, 2, 0, 0}, {0xffffffff, 1, 0, 0}};
  CHECK(test::evalp("setp.lt.s32 %p0, %x0, %x1;", ints) == std::vector<bool>{true, false, false, true});
  CHECK(test::evalp("setp.lt.u32 %p0, %x0, %x1;", ints) == std::vector<bool>{true, false, false, false});
  CHECK(test::evalp("setp.lo.u32 %p0, %x0, %x1;", ints) == std::vector<bool>{true, false, false, false});
  CHECK(test::evalp("setp.ls.u32 %p0, %x0, %x1;", ints) == std::vector<bool>{true, true, false, false});
  CHECK(test::evalp("setp.hi.u32 %p0, %x0, %x1;", ints) == std::vector<bool>{false, false, true, true});
  CHECK(test::evalp("setp.hs.u32 %p0, %x0, %x1;", ints) == std::vector<bool>{false, true, true, true});
  CHECK(test::evalp("setp.ge.s32 %p0, %x0, %x1;", ints) == std::vector<bool>{false, true, true, false});
  CHECK(test::evalp("setp.ne.b32 %p0, %x0, %x1;", ints) == std::vector<bool>{true, false, true, true});
  CHECK(test::evalp("setp.eq.s64 %p0, %a0, %a1;", ints) == std::vector<bool>{false, true, false, false});
  // Floats: (1, 2), (2, 2), (NaN, 2), (-0, +0).
  std::vector<Row> fl = {{f(1), f(2), 0, 0}, {f(2), f(2), 0, 0}, {f(kNaN), f(2), 0, 0}, {f(-0.0f), f(0.0f), 0, 0}};
  CHECK(test::evalp("setp.lt.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{true, false, false, false});
  CHECK(test::evalp("setp.ltu.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{true, false, true, false});
  CHECK(test::evalp("setp.eq.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{false, true, false, true});
  CHECK(test::evalp("setp.equ.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{false, true, true, true});
  CHECK(test::evalp("setp.ne.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{true, false, false, false});
  CHECK(test::evalp("setp.neu.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{true, false, true, false});
  CHECK(test::evalp("setp.le.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{true, true, false, true});
  CHECK(test::evalp("setp.leu.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{true, true, true, true});
  CHECK(test::evalp("setp.gt.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{false, false, false, false});
  CHECK(test::evalp("setp.gtu.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{false, false, true, false});
  CHECK(test::evalp("setp.ge.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{false, true, false, true});
  CHECK(test::evalp("setp.geu.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{false, true, true, true});
  CHECK(test::evalp("setp.num.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{true, true, false, true});
  CHECK(test::evalp("setp.nan.f32 %p0, %x0, %x1;", fl) == std::vector<bool>{false, false, true, false});
  std::vector<Row> dl = {{d(1), d(2), 0, 0}, {d(std::nan("")), d(2), 0, 0}};
  CHECK(test::evalp("setp.lt.f64 %p0, %a0, %a1;", dl) == std::vector<bool>{true, false});
  CHECK(test::evalp("setp.ltu.f64 %p0, %a0, %a1;", dl) == std::vector<bool>{true, true});
  // .ftz: a subnormal compares as zero. 1e-40 (subnormal) vs 0: eq only with .ftz.
  std::vector<Row> sub = {{f(1e-40f), f(0.0f), 0, 0}};
  CHECK(test::evalp("setp.eq.f32 %p0, %x0, %x1;", sub) == std::vector<bool>{false});
  CHECK(test::evalp("setp.eq.ftz.f32 %p0, %x0, %x1;", sub) == std::vector<bool>{true});
  // BoolOp with c and the second destination q: p = cmp OP c, q = !cmp OP c.
  std::vector<Row> bo = {{1, 2, 0, 0}, {1, 2, 1, 0}, {3, 2, 1, 0}};
  auto r = test::eval(R"(setp.ne.u32 %p3, %x2, 0;
  setp.lt.and.u32 %p0|%p1, %x0, %x1, %p3;
  selp.u64 %o0, 1, 0, %p0;
  selp.u64 %o1, 1, 0, %p1;
  setp.lt.or.u32 %p2, %x0, %x1, !%p3;
  selp.u64 %o2, 1, 0, %p2;)", bo);
  CHECK(r[0][0] == 0); CHECK(r[0][1] == 0); CHECK(r[0][2] == 1);
  CHECK(r[1][0] == 1); CHECK(r[1][1] == 0); CHECK(r[1][2] == 1);
  CHECK(r[2][0] == 0); CHECK(r[2][1] == 1); CHECK(r[2][2] == 0);
}

TEST_CASE("set, selp, slct") {
  std::vector<Row> r = {{1, 2, 0, 0}, {5, 2, 0, 0}};
  CHECK(test::eval32("set.lt.u32.s32 %y0, %x0, %x1;", r) == std::vector<uint32_t>{0xffffffffu, 0});
  CHECK(test::eval32("set.lt.f32.s32 %y0, %x0, %x1;", r) == std::vector<uint32_t>{0x3f800000u, 0});
  CHECK(test::eval32("setp.lt.s32 %p1, %x0, %x1;\n selp.b32 %y0, 100, 200, %p1;", r) == std::vector<uint32_t>{100, 200});
  std::vector<Row> s = {{10, 20, 0, 0}, {10, 20, 0xffffffff, 0}, {10, 20, f(-0.0f), 0}, {10, 20, f(kNaN), 0}, {10, 20, f(-1.0f), 0}};
  CHECK(test::eval32("slct.u32.s32 %y0, %x0, %x1, %x2;", s) == std::vector<uint32_t>{10, 20, 20, 10, 20});
  CHECK(test::eval32("slct.u32.f32 %y0, %x0, %x1, %x2;", s) == std::vector<uint32_t>{10, 20, 10, 20, 20});
}

TEST_CASE("cvt: integer <-> integer, sign/zero extension and saturation") {
  std::vector<Row> r = {{0x80, 0, 0, 0}, {0x7fffffff, 0, 0, 0}, {0xffffff80, 0, 0, 0}, {0x12345678, 0, 0, 0}};
  CHECK(test::eval32("cvt.s32.s8 %y0, %x0;", r) == std::vector<uint32_t>{0xffffff80u, 0xffffffffu, 0xffffff80u, 0x78});
  CHECK(test::eval32("cvt.u32.u8 %y0, %x0;", r) == std::vector<uint32_t>{0x80, 0xff, 0x80, 0x78});
  CHECK(test::eval32("cvt.sat.s8.s32 %y0, %x0;", r) == std::vector<uint32_t>{0x7f, 0x7f, 0xffffff80u, 0x7f});
  CHECK(test::eval32("cvt.sat.u8.s32 %y0, %x0;", r) == std::vector<uint32_t>{0x80, 0xff, 0, 0xff});
  CHECK(test::eval32("cvt.sat.u16.u32 %y0, %x0;", r) == std::vector<uint32_t>{0x80, 0xffff, 0xffff, 0xffff});
  CHECK(test::eval64("cvt.s64.s32 %z0, %x0;", r) == std::vector<uint64_t>{0x80, 0x7fffffff, 0xffffffffffffff80ull, 0x12345678});
  CHECK(test::eval64("cvt.u64.u32 %z0, %x0;", r) == std::vector<uint64_t>{0x80, 0x7fffffff, 0xffffff80ull, 0x12345678});
  CHECK(test::eval32("cvt.u32.u64 %y0, %a0;", {{0x1234567887654321ull, 0, 0, 0}}) == std::vector<uint32_t>{0x87654321u});
  CHECK(test::eval32("cvt.sat.s32.s64 %y0, %a0;", {{0x1234567887654321ull, 0, 0, 0}, {0xffffffff00000000ull, 0, 0, 0}}) ==
        std::vector<uint32_t>{0x7fffffffu, 0x80000000u});
}

TEST_CASE("cvt: integer -> float in every rounding mode") {
  // 2^24 + 1 = 16777217 is halfway between f32 16777216 and 16777218: rn -> even (16777216).
  // 2^24 + 3 = 16777219 is halfway between 16777218 and 16777220: rn -> even (16777220).
  std::vector<Row> r = {{16777217, 0, 0, 0}, {16777219, 0, 0, 0}, {uint64_t(-16777217) & 0xffffffff, 0, 0, 0}};
  CHECK(test::eval32("cvt.rn.f32.s32 %y0, %x0;", r) == std::vector<uint32_t>{uint32_t(f(16777216.f)), uint32_t(f(16777220.f)), uint32_t(f(-16777216.f))});
  CHECK(test::eval32("cvt.rz.f32.s32 %y0, %x0;", r) == std::vector<uint32_t>{uint32_t(f(16777216.f)), uint32_t(f(16777218.f)), uint32_t(f(-16777216.f))});
  CHECK(test::eval32("cvt.rm.f32.s32 %y0, %x0;", r) == std::vector<uint32_t>{uint32_t(f(16777216.f)), uint32_t(f(16777218.f)), uint32_t(f(-16777218.f))});
  CHECK(test::eval32("cvt.rp.f32.s32 %y0, %x0;", r) == std::vector<uint32_t>{uint32_t(f(16777218.f)), uint32_t(f(16777220.f)), uint32_t(f(-16777216.f))});
  // u64 max -> f32: 2^64 - 1 rounds to 2^64 (rn, rp) or 2^64 - 2^40 (rz, rm).
  std::vector<Row> big = {{0xffffffffffffffffull, 0, 0, 0}};
  CHECK(test::eval32("cvt.rn.f32.u64 %y0, %a0;", big) == std::vector<uint32_t>{0x5f800000u});
  CHECK(test::eval32("cvt.rz.f32.u64 %y0, %a0;", big) == std::vector<uint32_t>{0x5f7fffffu});
  CHECK(test::eval64("cvt.rn.f64.u64 %z0, %a0;", big) == std::vector<uint64_t>{0x43f0000000000000ull});
  CHECK(test::eval64("cvt.rz.f64.u64 %z0, %a0;", big) == std::vector<uint64_t>{0x43efffffffffffffull});
  CHECK(test::eval64("cvt.rn.f64.s64 %z0, %a0;", {{0x8000000000000000ull, 0, 0, 0}}) == std::vector<uint64_t>{0xc3e0000000000000ull});
  CHECK(test::eval64("cvt.rn.f64.s32 %z0, %x0;", {{0xffffffff, 0, 0, 0}}) == std::vector<uint64_t>{d(-1.0)});
}

TEST_CASE("cvt: float -> integer rounding, saturation, NaN, .ftz") {
  std::vector<Row> r = {{f(2.5f), 0, 0, 0}, {f(-2.5f), 0, 0, 0}, {f(3.5f), 0, 0, 0}, {f(1e10f), 0, 0, 0},
                        {f(-1e10f), 0, 0, 0}, {f(kNaN), 0, 0, 0}, {f(-0.7f), 0, 0, 0}};
  CHECK(test::eval32("cvt.rni.s32.f32 %y0, %x0;", r) == std::vector<uint32_t>{2, uint32_t(-2), 4, 0x7fffffff, 0x80000000u, 0, 0xffffffffu});
  CHECK(test::eval32("cvt.rzi.s32.f32 %y0, %x0;", r) == std::vector<uint32_t>{2, uint32_t(-2), 3, 0x7fffffff, 0x80000000u, 0, 0});
  CHECK(test::eval32("cvt.rmi.s32.f32 %y0, %x0;", r) == std::vector<uint32_t>{2, uint32_t(-3), 3, 0x7fffffff, 0x80000000u, 0, 0xffffffffu});
  CHECK(test::eval32("cvt.rpi.s32.f32 %y0, %x0;", r) == std::vector<uint32_t>{3, uint32_t(-2), 4, 0x7fffffff, 0x80000000u, 0, 0});
  CHECK(test::eval32("cvt.rzi.u32.f32 %y0, %x0;", r) == std::vector<uint32_t>{2, 0, 3, 0xffffffffu, 0, 0, 0});
  CHECK(test::eval32("cvt.rni.u8.f32 %y0, %x0;", r) == std::vector<uint32_t>{2, 0, 4, 255, 0, 0, 0});
  CHECK(test::eval64("cvt.rzi.s64.f64 %z0, %a0;", {{d(-9.9e18), 0, 0, 0}, {d(1e300), 0, 0, 0}}) ==
        std::vector<uint64_t>{0x8000000000000000ull, 0x7fffffffffffffffull});
  // .ftz: -1e-40 (subnormal) with rmi -> -1 without ftz, 0 with ftz.
  std::vector<Row> s = {{f(-1e-40f), 0, 0, 0}};
  CHECK(test::eval32("cvt.rmi.s32.f32 %y0, %x0;", s) == std::vector<uint32_t>{0xffffffffu});
  CHECK(test::eval32("cvt.rmi.ftz.s32.f32 %y0, %x0;", s) == std::vector<uint32_t>{0});
}

TEST_CASE("cvt: f64 <-> f32 and same-type rounding") {
  // 1 + 2^-24 + 2^-50 is just above the f32 midpoint 1 + 2^-24: rn -> 1 + 2^-23; exactly the
  // midpoint 1 + 2^-24 -> rn ties to even (1.0).
  const double above = 1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -50), tie = 1.0 + std::ldexp(1.0, -24);
  std::vector<Row> r = {{d(above), 0, 0, 0}, {d(tie), 0, 0, 0}, {d(-tie), 0, 0, 0}, {d(1e300), 0, 0, 0}, {d(1e-50), 0, 0, 0}};
  const uint32_t one = 0x3f800000u, next = 0x3f800001u;
  CHECK(test::eval32("cvt.rn.f32.f64 %y0, %a0;", r) == std::vector<uint32_t>{next, one, 0x80000000u | one, 0x7f800000u, 0});
  CHECK(test::eval32("cvt.rz.f32.f64 %y0, %a0;", r) == std::vector<uint32_t>{one, one, 0x80000000u | one, 0x7f7fffffu, 0});
  CHECK(test::eval32("cvt.rm.f32.f64 %y0, %a0;", r) == std::vector<uint32_t>{one, one, 0x80000000u | next, 0x7f7fffffu, 0});
  CHECK(test::eval32("cvt.rp.f32.f64 %y0, %a0;", r) == std::vector<uint32_t>{next, next, 0x80000000u | one, 0x7f800000u, 1});
  // f64 subnormal boundary into f32 subnormals: 1.5 * 2^-149 -> rn ties to even 2 * 2^-149.
  CHECK(test::eval32("cvt.rn.f32.f64 %y0, %a0;", {{d(1.5 * std::ldexp(1.0, -149)), 0, 0, 0}}) == std::vector<uint32_t>{2});
  CHECK(test::eval64("cvt.f64.f32 %z0, %x0;", {{f(0.1f), 0, 0, 0}}) == std::vector<uint64_t>{d(double(0.1f))});
  CHECK(test::eval32("cvt.rni.f32.f32 %y0, %x0;", {{f(2.5f), 0, 0, 0}, {f(-3.5f), 0, 0, 0}}) ==
        std::vector<uint32_t>{uint32_t(f(2.0f)), uint32_t(f(-4.0f))});
  CHECK(test::eval32("cvt.rzi.f32.f32 %y0, %x0;", {{f(-2.7f), 0, 0, 0}}) == std::vector<uint32_t>{uint32_t(f(-2.0f))});
  CHECK(test::eval32("cvt.sat.f32.f32 %y0, %x0;", {{f(1.5f), 0, 0, 0}, {f(-1.0f), 0, 0, 0}, {f(kNaN), 0, 0, 0}}) ==
        std::vector<uint32_t>{uint32_t(f(1.0f)), 0, 0});
  CHECK(test::eval32("cvt.ftz.f32.f32 %y0, %x0;", {{f(-1e-40f), 0, 0, 0}}) == std::vector<uint32_t>{0x80000000u});
}
