// f16/bf16 arithmetic (PTX ISA §9.7.4), half comparisons (§9.7.7) and the mixed-precision forms
// (§9.7.5) run on the simulator and compared with an independent reference: Boost.Multiprecision
// computes the exact value of a+b, a-b, a*b, a*b+c, and the expected code is the nearest of the
// format's codes found by a binary search over the (monotonic) positive codes and an exact
// comparison with the two neighbours — no shared code with the simulator's rounding (half_util.h).
// Inputs: uniform random codes (NaN, inf, subnormals, zeros of both signs), operands with close
// exponents (frequent ties), products that are exact midpoints plus or minus a tiny c, and values
// near the overflow threshold; the tests count the ties they met so the hard cases cannot vanish.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <random>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;
using Big = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<600, boost::multiprecision::digit_base_2>,
                                          boost::multiprecision::et_off>;

namespace {

struct Fmt {
  const char* ptx;       // "f16" / "bf16"
  int mant;              // explicit fraction bits
  int bias;
  uint16_t max_finite;   // largest finite positive code
  uint16_t inf;
};
const Fmt kF16{"f16", 10, 15, 0x7bff, 0x7c00};
const Fmt kBF16{"bf16", 7, 127, 0x7f7f, 0x7f80};

bool is_nan(const Fmt& f, uint16_t c) { return (c & 0x7fff) > f.inf; }
bool is_inf(const Fmt& f, uint16_t c) { return (c & 0x7fff) == f.inf; }

// Exact value of a finite code (field arithmetic, written from the format definition).
Big value(const Fmt& f, uint16_t c) {
  const int e = (c & 0x7fff) >> f.mant;
  const uint32_t m = c & ((1u << f.mant) - 1);
  Big v = e == 0 ? Big(m) * boost::multiprecision::ldexp(Big(1), 1 - f.bias - f.mant)
                 : Big((1u << f.mant) | m) * boost::multiprecision::ldexp(Big(1), e - f.bias - f.mant);
  return (c & 0x8000) ? Big(-v) : v;
}

// Round-to-nearest-even of an exact nonzero value: the neighbours by binary search.
uint16_t round_rn(const Fmt& f, const Big& x) {
  const bool neg = x < 0;
  const Big ax = neg ? Big(-x) : x;
  const uint16_t s = neg ? 0x8000 : 0;
  // Overflow: |x| >= max + ulp(max)/2 (the tie goes to the even neighbour, the infinity code).
  const Big maxv = value(f, f.max_finite), ulp = maxv - value(f, f.max_finite - 1);
  if (ax >= maxv + ulp / 2) return s | f.inf;
  uint16_t lo = 0, hi = f.max_finite;  // largest code with value <= ax
  while (lo < hi) {
    const uint16_t mid = static_cast<uint16_t>((lo + hi + 1) / 2);
    if (value(f, mid) <= ax) lo = mid;
    else hi = mid - 1;
  }
  if (value(f, lo) == ax) return s | lo;
  const uint16_t up = lo + 1;
  const Big dl = ax - value(f, lo), du = value(f, up) - ax;
  if (dl < du) return s | lo;
  if (du < dl) return s | up;
  return s | ((lo & 1) ? up : lo);
}

enum class Op { Add, Sub, Mul, Fma };

// The expected result code (canonical NaN 0x7fff for NaN results, H200 rule) and whether the exact
// value was a tie.
uint16_t reference(const Fmt& f, Op op, uint16_t a, uint16_t b, uint16_t c, bool* tie) {
  *tie = false;
  if (is_nan(f, a) || is_nan(f, b) || (op == Op::Fma && is_nan(f, c))) return 0x7fff;
  if (op == Op::Sub) b ^= 0x8000;
  const bool ia = is_inf(f, a), ib = is_inf(f, b), ic = op == Op::Fma && is_inf(f, c);
  const bool sa = a >> 15, sb = b >> 15, sc = c >> 15;
  if (op == Op::Add || op == Op::Sub) {
    if (ia && ib) return sa == sb ? a : 0x7fff;
    if (ia || ib) return ia ? a : b;
  }
  if (op == Op::Mul || op == Op::Fma) {
    const bool za = (a & 0x7fff) == 0, zb = (b & 0x7fff) == 0;
    if ((ia && zb) || (ib && za)) return 0x7fff;
    const bool pinf = ia || ib, ps = sa != sb;
    if (op == Op::Mul && pinf) return (ps ? 0x8000 : 0) | f.inf;
    if (op == Op::Fma) {
      if (pinf && ic) return ps == sc ? c : 0x7fff;
      if (pinf) return (ps ? 0x8000 : 0) | f.inf;
      if (ic) return c;
    }
  }
  Big x;
  bool zero_neg = false;  // the sign of an exact zero (IEEE 754 §6.3, round to nearest)
  switch (op) {
    case Op::Add: case Op::Sub: x = value(f, a) + value(f, b); zero_neg = sa && sb; break;
    case Op::Mul: x = value(f, a) * value(f, b); zero_neg = sa != sb; break;
    case Op::Fma: {
      const Big p = value(f, a) * value(f, b);
      x = p + value(f, c);
      zero_neg = (p == 0 ? (sa != sb) : p < 0) && sc;
      break;
    }
  }
  if (x == 0) return zero_neg ? 0x8000 : 0;
  const uint16_t r = round_rn(f, x);
  if (!is_inf(f, r)) {
    const Big ax = x < 0 ? Big(-x) : x;
    const uint16_t m = r & 0x7fff;
    if (m > 0 && m < f.max_finite) {
      const Big lo = value(f, m - 1), hi = value(f, m + 1), v = value(f, m);
      *tie = (ax - lo) * 2 == v - lo || (hi - ax) * 2 == hi - v;
    }
  }
  return r;
}

uint16_t random_code(std::mt19937_64& g, const Fmt& f, int mode, uint16_t like) {
  std::uniform_int_distribution<uint32_t> u16(0, 0xffff);
  const uint16_t r = static_cast<uint16_t>(u16(g));
  if (mode == 0) return r;                                         // anything
  const int ebits = 15 - f.mant;
  const int emax = (1 << ebits) - 2;
  if (mode == 1) {                                                 // exponent close to `like`'s
    const int e = ((like & 0x7fff) >> f.mant) + static_cast<int>(u16(g) % 9) - 4;
    const int ec = e < 0 ? 0 : e > emax ? emax : e;
    return static_cast<uint16_t>((r & 0x8000) | (ec << f.mant) | (r & ((1u << f.mant) - 1)));
  }
  if (mode == 2) return static_cast<uint16_t>((r & 0x8000) | (r & ((1u << f.mant) - 1)));  // subnormal
  return static_cast<uint16_t>((r & 0x8000) | ((emax - static_cast<int>(u16(g) % 2)) << f.mant) |
                               (r & ((1u << f.mant) - 1)));  // top two binades
}

const char* op_name(Op op) { return op == Op::Add ? "add" : op == Op::Sub ? "sub" : op == Op::Mul ? "mul" : "fma.rn"; }

void check_arith(const Fmt& f, Op op, bool x2) {
  std::mt19937_64 g(0x5eed + static_cast<int>(op) * 7 + (f.mant == 7) * 131 + x2);
  std::vector<test::Row> rows;
  for (int i = 0; i < 6000; ++i) {
    const int mode = i % 4;
    uint16_t a[2], b[2], c[2];
    for (int k = 0; k < 2; ++k) {
      a[k] = random_code(g, f, mode == 3 ? 3 : mode == 2 ? 2 : 0, 0);
      b[k] = random_code(g, f, mode, a[k]);
      c[k] = random_code(g, f, mode == 1 ? 1 : mode, static_cast<uint16_t>(a[k] + b[k]));
      if (op == Op::Fma && i % 8 == 5) {
        // Exact midpoint products: a = 1.5 * 2^e (sign and exponent kept, top fraction bit only), so
        // a*b has two more significant bits than b and is often a midpoint; c tiny or zero.
        const uint32_t frac = (1u << f.mant) - 1;
        a[k] = static_cast<uint16_t>((a[k] & ~frac) | (1u << (f.mant - 1)));
        c[k] = static_cast<uint16_t>((c[k] & 0x8000u) | (i % 16 == 5 ? 0 : 1));
      }
    }
    rows.push_back({uint64_t{a[1]} << 16 | a[0], uint64_t{b[1]} << 16 | b[0], uint64_t{c[1]} << 16 | c[0], 0});
  }
  const std::string ty = x2 ? std::string(f.ptx) + "x2" : f.ptx;
  const std::string ops = op == Op::Fma ? (x2 ? "%y0, %x0, %x1, %x2" : "%w0, %h0, %h1, %h2") : (x2 ? "%y0, %x0, %x1" : "%w0, %h0, %h1");
  const std::string body = fmt::format("{}.{} {};\n {}", op_name(op), ty, ops, x2 ? "cvt.u64.u32 %o0, %y0;" : "cvt.u64.u16 %o0, %w0;");
  CAPTURE(body);
  const auto got = test::eval(body, rows);
  int fails = 0, ties = 0;
  for (size_t i = 0; i < rows.size(); ++i)
    for (int k = 0; k < (x2 ? 2 : 1); ++k) {
      auto lane = [&](uint64_t v) { return static_cast<uint16_t>(v >> (16 * k)); };
      bool tie;
      const uint16_t want = reference(f, op, lane(rows[i][0]), lane(rows[i][1]), lane(rows[i][2]), &tie);
      ties += tie;
      const uint16_t have = lane(got[i][0]);
      if (have != want && fails++ < 5)
        FAIL_CHECK(fmt::format("{} lane {}: a 0x{:04x} b 0x{:04x} c 0x{:04x}: simulator 0x{:04x}, exact 0x{:04x}", body, k,
                               lane(rows[i][0]), lane(rows[i][1]), lane(rows[i][2]), have, want));
    }
  CHECK(fails == 0);
  if (op != Op::Mul || f.mant == 7) CHECK(ties > 20);  // ties occurred (f16 products rarely tie)
  MESSAGE(body << ": " << rows.size() * (x2 ? 2 : 1) << " results, " << ties << " ties");
}

}  // namespace

TEST_CASE("half arithmetic: add/sub/mul/fma.rn on f16, bf16 and x2 equal exact rounding") {
  for (const Fmt* f : {&kF16, &kBF16})
    for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Fma})
      for (bool x2 : {false, true}) check_arith(*f, op, x2);
}

TEST_CASE("half arithmetic: .ftz, .sat, .relu, .oob and NaN results") {
  // f16 2^-24 (0x0001, subnormal) + 2^-14 (0x0400, smallest normal) = 0x0401; with .ftz the
  // subnormal input is flushed: 0x0400. 0x0200 * 0x3800 (0.5) = 0x0100 (subnormal) -> .ftz 0.
  auto one = [](const std::string& instr, uint16_t a, uint16_t b, uint16_t c = 0) {
    return static_cast<uint16_t>(test::eval(instr + "\n cvt.u64.u16 %o0, %w0;", {{a, b, c, 0}})[0][0]);
  };
  CHECK(one("add.f16 %w0, %h0, %h1;", 0x0001, 0x0400) == 0x0401);
  CHECK(one("add.ftz.f16 %w0, %h0, %h1;", 0x0001, 0x0400) == 0x0400);
  CHECK(one("mul.f16 %w0, %h0, %h1;", 0x0200, 0x3800) == 0x0100);
  CHECK(one("mul.ftz.f16 %w0, %h0, %h1;", 0x0200, 0x3800) == 0x0000);
  CHECK(one("mul.ftz.f16 %w0, %h0, %h1;", 0x8200, 0x3800) == 0x8000);  // sign-preserving
  // .sat: 0.75 + 0.5 -> 1.0; -0.5 + 0.25 -> +0; NaN -> +0; -0 -> +0.
  CHECK(one("add.sat.f16 %w0, %h0, %h1;", 0x3a00, 0x3800) == 0x3c00);
  CHECK(one("add.sat.f16 %w0, %h0, %h1;", 0xb800, 0x3400) == 0x0000);
  CHECK(one("add.sat.f16 %w0, %h0, %h1;", 0x7e00, 0x3400) == 0x0000);
  CHECK(one("mul.sat.f16 %w0, %h0, %h1;", 0x8000, 0x3c00) == 0x0000);
  // .relu: 1.5*-2 + 1 = -2 -> +0; -0 -> +0; NaN -> canonical 0x7fff; 2*2 + 1 = 5 (0x4500).
  CHECK(one("fma.rn.relu.f16 %w0, %h0, %h1, %h2;", 0x3e00, 0xc000, 0x3c00) == 0x0000);
  CHECK(one("fma.rn.relu.f16 %w0, %h0, %h1, %h2;", 0x8000, 0x3c00, 0x8000) == 0x0000);
  CHECK(one("fma.rn.relu.bf16 %w0, %h0, %h1, %h2;", 0x7fc1, 0x3f80, 0x3f80) == 0x7fff);
  CHECK(one("fma.rn.relu.f16 %w0, %h0, %h1, %h2;", 0x4000, 0x4000, 0x3c00) == 0x4500);
  // .oob: an OOB-NaN operand (assumed 0x7fff) forces +0; any other NaN gives the canonical NaN.
  CHECK(one("fma.rn.oob.f16 %w0, %h0, %h1, %h2;", 0x7fff, 0x4000, 0x3c00) == 0x0000);
  CHECK(one("fma.rn.oob.f16 %w0, %h0, %h1, %h2;", 0x4000, 0x4000, 0x7fff) == 0x0000);
  CHECK(one("fma.rn.oob.f16 %w0, %h0, %h1, %h2;", 0x7e01, 0x4000, 0x3c00) == 0x7fff);
  CHECK(one("fma.rn.oob.relu.bf16 %w0, %h0, %h1, %h2;", 0x3f80, 0xc000, 0x3f80) == 0x0000);  // 1*-2+1 = -1 -> relu
  // NaN results are canonical whatever the payload and sign: -NaN + 1 and inf - inf.
  CHECK(one("add.f16 %w0, %h0, %h1;", 0xfe12, 0x3c00) == 0x7fff);
  CHECK(one("sub.bf16 %w0, %h0, %h1;", 0x7f80, 0x7f80) == 0x7fff);
  // x2: lanes are independent (lane 1 overflows to inf: 0x7bff + 0x7bff).
  CHECK(test::eval32("add.f16x2 %y0, %x0, %x1;", {{0x7bff3c00, 0x7bff3c00, 0, 0}})[0] == 0x7c004000u);
}

TEST_CASE("half neg/abs/min/max: PTX ISA §9.7.4.5-8 semantics and the H200's NaN codes") {
  auto one = [](const std::string& instr, uint16_t a, uint16_t b = 0) {
    return static_cast<uint16_t>(test::eval(instr + "\n cvt.u64.u16 %o0, %w0;", {{a, b, 0, 0}})[0][0]);
  };
  CHECK(one("neg.f16 %w0, %h0;", 0x3c00) == 0xbc00);
  CHECK(one("neg.f16 %w0, %h0;", 0x7e55) == 0x7fff);   // H200: canonical NaN (half_math col 12)
  CHECK(one("abs.bf16 %w0, %h0;", 0xff81) == 0x7fff);  // (bf16_math col 11)
  CHECK(one("abs.ftz.f16 %w0, %h0;", 0x83ff) == 0x0000);
  CHECK(one("neg.ftz.f16 %w0, %h0;", 0x03ff) == 0x8000);
  // min/max: a single NaN is ignored; .NaN makes it the result (canonical); -0 < +0.
  CHECK(one("min.f16 %w0, %h0, %h1;", 0x7e00, 0x4000) == 0x4000);
  CHECK(one("max.f16 %w0, %h0, %h1;", 0x4000, 0xfe00) == 0x4000);
  CHECK(one("min.f16 %w0, %h0, %h1;", 0x7e01, 0xfe02) == 0x7fff);
  CHECK(one("min.NaN.bf16 %w0, %h0, %h1;", 0x3f80, 0xffc0) == 0x7fff);
  CHECK(one("min.f16 %w0, %h0, %h1;", 0x0000, 0x8000) == 0x8000);
  CHECK(one("max.f16 %w0, %h0, %h1;", 0x8000, 0x0000) == 0x0000);
  CHECK(one("max.bf16 %w0, %h0, %h1;", 0xc000, 0xbf80) == 0xbf80);
  // .xorsign.abs: magnitude min(|a|, |b|), sign = sign(a) ^ sign(b): min(|-2|, |3|) = 2 -> -2.
  CHECK(one("min.xorsign.abs.f16 %w0, %h0, %h1;", 0xc000, 0x4200) == 0xc000);
  CHECK(one("max.xorsign.abs.f16 %w0, %h0, %h1;", 0xc000, 0xc200) == 0x4200);
  CHECK(one("max.xorsign.abs.NaN.f16 %w0, %h0, %h1;", 0xc000, 0xfe00) == 0x7fff);  // NaN ignores xorsign
  // .ftz flushes a subnormal operand before comparing: min(+sub, -0) = -0 -> flushed +0 vs -0.
  CHECK(one("min.ftz.f16 %w0, %h0, %h1;", 0x0001, 0x8000) == 0x8000);
  CHECK(one("min.ftz.f16 %w0, %h0, %h1;", 0x8001, 0x0002) == 0x8000);
}

TEST_CASE("half comparisons: setp/set on f16, bf16 and x2 against decoded values") {
  // Every ordered/unordered comparison on pairs including NaN, infinities, +-0 and subnormals.
  const uint16_t vals[] = {0x0000, 0x8000, 0x0001, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x3c01, 0x0400};
  const char* cmps[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  std::vector<test::Row> rows;
  for (uint16_t a : vals)
    for (uint16_t b : vals) rows.push_back({a, b, 0, 0});
  auto val = [](uint16_t h) {  // f16 decode: (-1)^s * m * 2^(max(e,1) - 25), m with the hidden bit
    const int e = h >> 10 & 0x1f;
    const double mag = e == 31 ? INFINITY : std::ldexp((h & 0x3ff) + (e ? 1024.0 : 0.0), std::max(e, 1) - 25);
    return (h & 0x8000) ? -mag : mag;
  };
  auto ref = [&](const std::string& c, uint16_t a, uint16_t b) {
    const bool nan = (a & 0x7fff) > 0x7c00 || (b & 0x7fff) > 0x7c00;
    const double x = val(a), y = val(b);
    if (c == "num") return !nan;
    if (c == "nan") return nan;
    const bool u = c.size() == 3 && c != "num" && c != "nan";
    if (nan) return u;
    const std::string base = u ? c.substr(0, 2) : c;
    if (base == "eq") return x == y;
    if (base == "ne") return x != y;
    if (base == "lt") return x < y;
    if (base == "le") return x <= y;
    if (base == "gt") return x > y;
    return x >= y;
  };
  for (const char* c : cmps) {
    CAPTURE(c);
    const auto p = test::evalp(fmt::format("setp.{}.f16 %p0, %h0, %h1;", c), rows);
    const auto s = test::eval32(fmt::format("set.{}.u32.f16 %y0, %h0, %h1;", c), rows);
    const auto h = test::eval(fmt::format("set.{}.f16.f16 %w0, %h0, %h1;\n cvt.u64.u16 %o0, %w0;", c), rows);
    for (size_t i = 0; i < rows.size(); ++i) {
      const bool want = ref(c, static_cast<uint16_t>(rows[i][0]), static_cast<uint16_t>(rows[i][1]));
      CHECK(p[i] == want);
      CHECK(s[i] == (want ? 0xffffffffu : 0u));
      CHECK(h[i][0] == (want ? 0x3c00u : 0u));
    }
  }
  // x2: p|q get lanes 0 and 1; set with an x2 destination writes 1.0 per lane, with .u32 0xffff.
  const std::vector<test::Row> r2 = {{0x3c004000, 0x3c003c00, 0, 0}};  // lanes: (2 vs 1), (1 vs 1)
  CHECK(test::eval32("setp.gt.f16x2 %p0|%p1, %x0, %x1;\n selp.u32 %y0, 1, 0, %p0;\n selp.u32 %y1, 2, 0, %p1;\n or.b32 %y0, %y0, %y1;", r2)[0] == 1);
  CHECK(test::eval32("set.ge.f16x2.f16x2 %y0, %x0, %x1;", r2)[0] == 0x3c003c00u);
  CHECK(test::eval32("set.gt.u32.f16x2 %y0, %x0, %x1;", r2)[0] == 0x0000ffffu);
  CHECK(test::eval32("set.gt.u32.bf16x2 %y0, %x0, %x1;", {{0x3f803f80, 0x3f80bf80, 0, 0}})[0] == 0x0000ffffu);
  // set with a half destination and another source type: 2.5f > 1.0f -> 1.0 (bf16 0x3f80).
  CHECK(test::eval("set.gt.bf16.f32 %w0, %x0, %x1;\n cvt.u64.u16 %o0, %w0;", {{0x40200000, 0x3f800000, 0, 0}})[0][0] == 0x3f80u);
  // BoolOp with a negated predicate: (1 < 2) and !true = false -> 0; or -> 0xffff (u16 destination).
  CHECK(test::eval32("setp.eq.u32 %p1, %x2, %x2;\n set.lt.and.u32.f16 %y0, %h0, %h1, !%p1;", {{0x3c00, 0x4000, 5, 0}})[0] == 0u);
  CHECK(test::eval("setp.eq.u32 %p1, %x2, %x2;\n set.lt.or.u16.f16 %w0, %h1, %h0, %p1;\n cvt.u64.u16 %o0, %w0;", {{0x3c00, 0x4000, 5, 0}})[0][0] == 0xffffu);
  // .ftz: a subnormal equals zero.
  CHECK(test::evalp("setp.eq.ftz.f16 %p0, %h0, %h1;", {{0x0001, 0x8000, 0, 0}})[0]);
  CHECK(!test::evalp("setp.eq.f16 %p0, %h0, %h1;", {{0x0001, 0x8000, 0, 0}})[0]);
}

TEST_CASE("mixed precision (sm_100): add/sub/fma.f32.{f16,bf16} are the f32 operation on exact widenings") {
  // fma.rn.f32.f16 1.5 * (2^-24) + 1.0f: the product 1.5 * 2^-24 is exact in f32, 1 + it rounds
  // to 1 + 2^-23 (the tie 1 + 1.5*2^-24 lies above the midpoint 1 + 2^-24). RZ: 1.0.
  const std::vector<test::Row> r = {{0x3e00, 0x0001, 0x3f800000, 0}};
  CHECK(test::eval32("fma.rn.f32.f16 %y0, %h0, %h1, %x2;", r)[0] == 0x3f800001u);
  CHECK(test::eval32("fma.rz.f32.f16 %y0, %h0, %h1, %x2;", r)[0] == 0x3f800000u);
  CHECK(test::eval32("fma.rp.f32.f16 %y0, %h0, %h1, %x2;", r)[0] == 0x3f800001u);
  // add.f32.bf16: bf16 0x3f81 = 1 + 2^-7; + 2^-30 -> RN 0x3f810000, RP 0x3f810001.
  const std::vector<test::Row> q = {{0x3f81, 0, 0x30800000, 0}};
  CHECK(test::eval32("add.f32.bf16 %y0, %h0, %x2;", q)[0] == 0x3f810000u);
  CHECK(test::eval32("add.rp.f32.bf16 %y0, %h0, %x2;", q)[0] == 0x3f810001u);
  CHECK(test::eval32("sub.rm.f32.bf16 %y0, %h0, %x2;", q)[0] == 0x3f80ffffu);
  // .sat: f16 2.0 - 0.5f = 1.5 -> 1.0; NaN -> +0. A NaN result is canonical.
  CHECK(test::eval32("sub.sat.f32.f16 %y0, %h0, %x2;", {{0x4000, 0, 0x3f000000, 0}})[0] == 0x3f800000u);
  CHECK(test::eval32("add.sat.f32.f16 %y0, %h0, %x2;", {{0x7e00, 0, 0x3f000000, 0}})[0] == 0u);
  CHECK(test::eval32("add.f32.f16 %y0, %h0, %x2;", {{0xfe01, 0, 0x3f000000, 0}})[0] == 0x7fffffffu);
}

TEST_CASE("packed f32x2 (sm_100): each lane is the correctly rounded f32 operation") {
  // Lane 0: 1 + 2^-24 is a tie: RN gives the even 1.0, RP 1 + 2^-23. Lane 1: 3 + 0x3eaaaaab
  // (0.3333333432674408) = 3.3333333432674408 lies between 0x40555555 (3.3333332538604736) and
  // 0x40555556 (3.3333334922790527), nearer the first: RN 0x40555555, RP 0x40555556.
  const uint64_t a = uint64_t{0x40400000} << 32 | 0x3f800000, b = uint64_t{0x3eaaaaab} << 32 | 0x33800000;
  auto run = [&](const std::string& op) { return test::eval64(op + " %z0, %a0, %a1;", {{a, b, 0, 0}})[0]; };
  CHECK(run("add.rn.f32x2") == (uint64_t{0x40555555} << 32 | 0x3f800000));
  CHECK(run("add.rp.f32x2") == (uint64_t{0x40555556} << 32 | 0x3f800001));
  // 3 * 0x3eaaaaab = 1.00000002980232... -> RN 1.0 (0x3f800000), RP 0x3f800001.
  CHECK((run("mul.rn.f32x2") >> 32) == 0x3f800000u);
  CHECK((run("mul.rp.f32x2") >> 32) == 0x3f800001u);
  CHECK((run("mul.rz.f32x2") >> 32) == 0x3f800000u);
  // fma: lane 0 = 1 * 2^-24 + c.
  CHECK(test::eval64("fma.rn.ftz.f32x2 %z0, %a0, %a1, %a2;", {{0x3f800000, 0x00000001, 0x3f800000, 0}})[0] == 0x3f800000u);
  CHECK(test::eval64("sub.f32x2 %z0, %a0, %a1;", {{uint64_t{0x7f800000} << 32, uint64_t{0x7f800000} << 32, 0, 0}})[0] ==
        uint64_t{0x7fffffff} << 32);
}
