// The .approx instructions (PTX ISA §9.7.3.13-22, §9.7.4.9-10): tcsim's policy is the exact value
// rounded to the destination (docs/approx_ops.md). Checked here against Boost.Multiprecision:
//  - the deterministic double-precision functions of sim/exec/approx_math.h (exp2, log2, sin, cos,
//    tanh) and their constants (pi/2 in three parts, 2/pi, ln 2, log2 e);
//  - every instruction on random inputs: within the PTX ISA's documented bound of the exact value
//    (and, for the correctly rounded cases, equal to it);
//  - the special-value tables of each section, .ftz, div.approx's large-divisor rule, the 1.11.20
//    forms of rcp/rsqrt.approx.ftz.f64;
//  - LaunchResult::approx_ops lists the forms that ran (and only those).
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <random>

#include <boost/math/constants/constants.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <fmt/format.h>

#include "sim/exec/approx_math.h"
#include "tests/sim/harness.h"

using namespace tcsim;
using Big = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<200, boost::multiprecision::digit_base_2>,
                                          boost::multiprecision::et_off>;

namespace {

float f32(uint32_t b) { return std::bit_cast<float>(b); }
uint32_t b32(float f) { return std::bit_cast<uint32_t>(f); }
double ulp_f32(double v) {  // ulp of an f32 of magnitude |v| (subnormal spacing below 2^-126)
  int e;
  std::frexp(std::fabs(v), &e);
  return std::ldexp(1.0, std::max(e - 24, -149));
}

}  // namespace

TEST_CASE("approx_math: constants equal the high-precision values they stand for") {
  const auto& c = sim::approx::constants();
  const Big p = boost::math::constants::pi<Big>();
  const Big pio2 = p / 2;
  CHECK(Big(c.pio2_1) == Big(static_cast<double>(pio2)));
  CHECK(Big(c.pio2_2) == Big(static_cast<double>(Big(pio2 - c.pio2_1))));
  CHECK(Big(c.pio2_3) == Big(static_cast<double>(Big(pio2 - c.pio2_1 - c.pio2_2))));
  CHECK(abs(pio2 - c.pio2_1 - c.pio2_2 - c.pio2_3) < Big(1e-48));
  CHECK(c.two_over_pi == static_cast<double>(Big(2 / p)));
  CHECK(c.ln2 == static_cast<double>(Big(log(Big(2)))));
  CHECK(c.log2e == static_cast<double>(Big(1 / log(Big(2)))));
}

TEST_CASE("approx_math: exp2/log2/tanh relative error < 1e-14, sin/cos absolute error < 1e-15") {
  std::mt19937_64 g(42);
  std::uniform_real_distribution<double> u(-1, 1);
  double e_exp = 0, e_log = 0, e_tanh = 0, e_sin = 0, e_cos = 0;
  for (int i = 0; i < 4000; ++i) {
    const double x = u(g) * (i % 3 == 0 ? 126 : i % 3 == 1 ? 8 : 0.01);
    const Big bx(x);
    e_exp = std::max(e_exp, static_cast<double>(abs(Big(sim::approx::exp2(x)) / exp(bx * log(Big(2))) - 1)));
    e_tanh = std::max(e_tanh, x == 0 ? 0.0 : static_cast<double>(abs(Big(sim::approx::tanh(x)) / tanh(bx) - 1)));
    const double xs = u(g) * (i % 2 ? 6.3 : 315);  // [-2pi, 2pi] and [-100pi, 100pi]
    e_sin = std::max(e_sin, static_cast<double>(abs(Big(sim::approx::sin(xs)) - sin(Big(xs)))));
    e_cos = std::max(e_cos, static_cast<double>(abs(Big(sim::approx::cos(xs)) - cos(Big(xs)))));
    const double xl = std::ldexp(1.0 + std::fabs(u(g)), static_cast<int>(u(g) * 140));
    e_log = std::max(e_log, static_cast<double>(abs(Big(sim::approx::log2(xl)) / (log(Big(xl)) / log(Big(2))) - 1)));
  }
  // Near 1, log2 is tiny: its absolute error is what matters.
  double a_log = 0;
  for (int i = 1; i < 2000; ++i) {
    const double x = 1 + (i - 1000) * 0x1p-20;
    a_log = std::max(a_log, static_cast<double>(abs(Big(sim::approx::log2(x)) - log(Big(x)) / log(Big(2)))));
  }
  MESSAGE("max errors: exp2 " << e_exp << ", log2 " << e_log << " (abs near 1: " << a_log << "), tanh " << e_tanh
                              << ", sin " << e_sin << ", cos " << e_cos);
  CHECK(e_exp < 1e-14);
  CHECK(e_log < 1e-14);
  CHECK(a_log < 1e-16);
  CHECK(e_tanh < 1e-14);
  CHECK(e_sin < 1e-15);
  CHECK(e_cos < 1e-15);
  CHECK(sim::approx::exp2(-1074) == std::ldexp(1.0, -1074));
  CHECK(sim::approx::exp2(1024) == INFINITY);
  CHECK(std::signbit(sim::approx::sin(-0.0)));
}

namespace {

// One f32 .approx instruction on random inputs: within `bound(x, exact, result)` of the exact value.
template <class Exact, class Bound>
void check_f32(const std::string& instr, float lo, float hi, Exact exact, Bound ok, int* identical_out = nullptr) {
  std::mt19937_64 g(std::hash<std::string>{}(instr));
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<test::Row> rows;
  for (int i = 0; i < 3000; ++i) rows.push_back({b32(u(g)), b32(u(g)), 0, 0});
  const auto got = test::eval32(instr, rows);
  int bad = 0, cr = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const float x = f32(static_cast<uint32_t>(rows[i][0])), y = f32(static_cast<uint32_t>(rows[i][1]));
    const Big e = exact(Big(x), Big(y));
    const float r = f32(got[i]);
    cr += r == static_cast<float>(static_cast<double>(e));
    if (!ok(static_cast<double>(e), static_cast<double>(r)) && bad++ < 3)
      FAIL_CHECK(fmt::format("{}: x = {:a} y = {:a}: tcsim {:a}, exact {:a}", instr, x, y, r, static_cast<double>(e)));
  }
  CHECK(bad == 0);
  MESSAGE(instr << ": " << cr << " of " << rows.size() << " equal the correctly rounded value");
  if (identical_out) *identical_out = cr;
}

}  // namespace

TEST_CASE("f32 .approx instructions stay within the PTX ISA's documented bounds of the exact value") {
  const Big ln2 = log(Big(2));
  // ex2: 2 ulp (§9.7.3.21).
  check_f32("ex2.approx.f32 %y0, %x0;", -140, 127,
            [&](Big x, Big) { return exp(x * ln2); }, [](double e, double r) { return std::fabs(r - e) <= 2 * ulp_f32(e); });
  // lg2: 2^-22 absolute in (0.5, 2), 2^-22 relative elsewhere (§9.7.3.20).
  // (Plain variables, not a structured binding: clang 14 cannot capture one in a lambda.)
  for (const auto& range : {std::pair{0.5f, 2.0f}, std::pair{1e-30f, 1e30f}}) {
    const float lo = range.first, hi = range.second;
    check_f32("lg2.approx.f32 %y0, %x0;", lo, hi, [&](Big x, Big) { return log(x) / ln2; },
              [&](double e, double r) { return std::fabs(r - e) <= std::ldexp(1.0, -22) * (lo == 0.5f ? 1 : std::fabs(e)); });
  }
  // sin/cos: 2^-20.5 absolute on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi] (§9.7.3.18-19).
  for (float range : {6.28f, 314.0f}) {
    const double b = range < 7 ? std::pow(2.0, -20.5) : std::pow(2.0, -14.7);
    check_f32("sin.approx.f32 %y0, %x0;", -range, range, [](Big x, Big) { return sin(x); },
              [&](double e, double r) { return std::fabs(r - e) <= b; });
    check_f32("cos.approx.ftz.f32 %y0, %x0;", -range, range, [](Big x, Big) { return cos(x); },
              [&](double e, double r) { return std::fabs(r - e) <= b; });
  }
  // tanh: 2^-11 relative (§9.7.3.22); rsqrt: 2^-22.9 relative; sqrt: 2^-23 relative; rcp: 1 ulp;
  // div.approx / div.full: 2 ulp (§9.7.3.8, 13, 15, 16).
  check_f32("tanh.approx.f32 %y0, %x0;", -12, 12, [](Big x, Big) { return tanh(x); },
            [](double e, double r) { return std::fabs(r - e) <= std::ldexp(std::fabs(e), -11); });
  check_f32("rsqrt.approx.f32 %y0, %x0;", 1e-30f, 1e30f, [](Big x, Big) { return 1 / sqrt(x); },
            [](double e, double r) { return std::fabs(r - e) <= std::pow(2.0, -22.9) * std::fabs(e); });
  check_f32("sqrt.approx.f32 %y0, %x0;", 0, 1e30f, [](Big x, Big) { return sqrt(x); },
            [](double e, double r) { return std::fabs(r - e) <= std::ldexp(std::fabs(e), -23); });
  check_f32("rcp.approx.f32 %y0, %x0;", -1e30f, 1e30f, [](Big x, Big) { return 1 / x; },
            [](double e, double r) { return std::fabs(r - e) <= ulp_f32(e); });
  check_f32("div.approx.f32 %y0, %x0, %x1;", -1e15f, 1e15f, [](Big x, Big y) { return x / y; },
            [](double e, double r) { return std::fabs(r - e) <= 2 * ulp_f32(e); });
  check_f32("div.full.ftz.f32 %y0, %x0, %x1;", -1e30f, 1e30f, [](Big x, Big y) { return x / y; },
            [](double e, double r) { return std::fabs(r - e) <= 2 * ulp_f32(e); });
}

TEST_CASE("f32 .approx special values follow the PTX ISA tables") {
  const uint32_t ninf = 0xff800000, pinf = 0x7f800000, nz = 0x80000000, pz = 0, nan = 0x7fc00000, one = 0x3f800000;
  const uint32_t nsub = 0x80000001, psub = 0x00000001, nnorm = 0xc0000000;
  const uint32_t qnan = 0x7fffffff;  // the canonical f32 NaN every NaN result has
  auto run = [](const std::string& instr, uint32_t x) { return test::eval32(instr, {{x, 0, 0, 0}})[0]; };
  struct Case {
    const char* instr;
    uint32_t in, out;
  };
  const Case cases[] = {
      // ex2 (§9.7.3.21): -inf -> +0, +-0 -> 1, +inf -> +inf, NaN -> NaN; .ftz: subnormals -> 1.
      {"ex2.approx.f32 %y0, %x0;", ninf, pz}, {"ex2.approx.f32 %y0, %x0;", nz, one},
      {"ex2.approx.f32 %y0, %x0;", pz, one}, {"ex2.approx.f32 %y0, %x0;", pinf, pinf},
      {"ex2.approx.f32 %y0, %x0;", nan, qnan}, {"ex2.approx.ftz.f32 %y0, %x0;", nsub, one},
      {"ex2.approx.ftz.f32 %y0, %x0;", 0xc3150000, pz},  // 2^-149: subnormal result flushed
      {"ex2.approx.f32 %y0, %x0;", 0xc3150000, 1},       // kept without .ftz
      // lg2 (§9.7.3.20): -inf, -normal -> NaN, +-0 -> -inf, +inf -> +inf; .ftz: subnormal -> -inf.
      {"lg2.approx.f32 %y0, %x0;", ninf, qnan}, {"lg2.approx.f32 %y0, %x0;", nnorm, qnan},
      {"lg2.approx.f32 %y0, %x0;", nz, ninf}, {"lg2.approx.f32 %y0, %x0;", pz, ninf},
      {"lg2.approx.f32 %y0, %x0;", pinf, pinf}, {"lg2.approx.f32 %y0, %x0;", nan, qnan},
      {"lg2.approx.ftz.f32 %y0, %x0;", psub, ninf}, {"lg2.approx.f32 %y0, %x0;", psub, 0xc3150000},  // log2(2^-149)
      // sin/cos (§9.7.3.18-19): +-inf -> NaN, sin(+-0) = +-0, cos(+-0) = 1.
      {"sin.approx.f32 %y0, %x0;", ninf, qnan}, {"sin.approx.f32 %y0, %x0;", nz, nz},
      {"sin.approx.f32 %y0, %x0;", pz, pz}, {"sin.approx.f32 %y0, %x0;", pinf, qnan},
      {"cos.approx.f32 %y0, %x0;", nz, one}, {"cos.approx.f32 %y0, %x0;", pinf, qnan},
      {"sin.approx.ftz.f32 %y0, %x0;", nsub, nz}, {"sin.approx.f32 %y0, %x0;", nsub, nsub},
      // tanh (§9.7.3.22): +-inf -> +-1, +-0 -> +-0, subnormals pass through.
      {"tanh.approx.f32 %y0, %x0;", ninf, 0xbf800000}, {"tanh.approx.f32 %y0, %x0;", pinf, one},
      {"tanh.approx.f32 %y0, %x0;", nz, nz}, {"tanh.approx.f32 %y0, %x0;", psub, psub},
      {"tanh.approx.f32 %y0, %x0;", nan, qnan},
      // rsqrt (§9.7.3.16): -inf, -normal -> NaN, -0 -> -inf, +0 -> +inf, +inf -> +0.
      {"rsqrt.approx.f32 %y0, %x0;", ninf, qnan}, {"rsqrt.approx.f32 %y0, %x0;", nnorm, qnan},
      {"rsqrt.approx.f32 %y0, %x0;", nz, ninf}, {"rsqrt.approx.f32 %y0, %x0;", pz, pinf},
      {"rsqrt.approx.f32 %y0, %x0;", pinf, pz}, {"rsqrt.approx.ftz.f32 %y0, %x0;", nsub, ninf},
      // rcp (§9.7.3.13): -inf -> -0, -0 -> -inf, +0 -> +inf, +inf -> +0.
      {"rcp.approx.f32 %y0, %x0;", ninf, nz}, {"rcp.approx.f32 %y0, %x0;", nz, ninf},
      {"rcp.approx.f32 %y0, %x0;", pz, pinf}, {"rcp.approx.f32 %y0, %x0;", pinf, pz},
      {"rcp.approx.ftz.f32 %y0, %x0;", psub, pinf}, {"rcp.approx.f32 %y0, %x0;", 0x00400000, 0x7f000000},  // 1/2^-127
      // sqrt (§9.7.3.15): -inf, -normal -> NaN, +-0 -> +-0, +inf -> +inf.
      {"sqrt.approx.f32 %y0, %x0;", ninf, qnan}, {"sqrt.approx.f32 %y0, %x0;", nnorm, qnan},
      {"sqrt.approx.f32 %y0, %x0;", nz, nz}, {"sqrt.approx.f32 %y0, %x0;", pinf, pinf},
  };
  for (const Case& c : cases) {
    CAPTURE(c.instr);
    CAPTURE(c.in);
    CHECK(run(c.instr, c.in) == c.out);
  }
  // div.approx: a * (1/b); for 2^126 < |b| < 2^128 a sign-preserving zero, NaN for infinite a.
  auto div = [](uint32_t a, uint32_t b) { return test::eval32("div.approx.f32 %y0, %x0, %x1;", {{a, b, 0, 0}})[0]; };
  CHECK(div(0x40400000, 0x7e800000) == 0x01400000);  // b = 2^126: 1/b = 2^-126 is normal: 3 * 2^-126
  CHECK(div(0x40400000, 0x7f000000) == 0);           // b = 2^127: 1/b subnormal -> 0
  CHECK(div(0xc0400000, 0x7f000000) == 0x80000000);  // sign preserved
  CHECK(div(pinf, 0x7f000000) == qnan);
  CHECK(div(0x40c00000, 0x40000000) == 0x40400000);  // 6 / 2 = 3
}

TEST_CASE("rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 use the upper word and return 1.11.20 values") {
  auto run = [](const std::string& instr, uint64_t x) { return test::eval64(instr, {{x, 0, 0, 0}})[0]; };
  // 1/3: the low word of a is ignored; 1/3 = 0x3fd5555555555555 truncated to 20 fraction bits.
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0x4008000012345678ull) == 0x3fd5555500000000ull);
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0xbff0000000000000ull) == 0xbff0000000000000ull);  // -1
  // 1/(1 + 2^-20) = 1 - 2^-20 + 2^-40 - ...: in [0.5, 1) the 20-bit grid is 2^-21: truncated to
  // 0.99999904632568359375 (0x3feffffe00000000).
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0x3ff0000100000000ull) == 0x3feffffe00000000ull);
  // Table (§9.7.3.14): subnormal and zero -> +-inf, +-inf -> +-0, NaN -> 0x7fffffff00000000.
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0x000fffff00000000ull) == 0x7ff0000000000000ull);
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0x8000000000000000ull) == 0xfff0000000000000ull);
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0xfff0000000000000ull) == 0x8000000000000000ull);
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0x7ff8000000000000ull) == 0x7fffffff00000000ull);
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0x7fd0000000000000ull) == 0x0010000000000000ull);  // 1/2^1022 = 2^-1022
  CHECK(run("rcp.approx.ftz.f64 %z0, %a0;", 0x7fe0000000000000ull) == 0);  // 2^-1023 is subnormal: flushed
  // rsqrt.approx.ftz.f64: 1/sqrt(4) = 0.5; -normal -> NaN; -0 -> -inf; +inf -> +0.
  CHECK(run("rsqrt.approx.ftz.f64 %z0, %a0;", 0x4010000000000000ull) == 0x3fe0000000000000ull);
  CHECK(run("rsqrt.approx.ftz.f64 %z0, %a0;", 0xc010000000000000ull) == 0x7fffffff00000000ull);
  CHECK(run("rsqrt.approx.ftz.f64 %z0, %a0;", 0x8000000000000000ull) == 0xfff0000000000000ull);
  CHECK(run("rsqrt.approx.ftz.f64 %z0, %a0;", 0x7ff0000000000000ull) == 0);
  // rsqrt.approx.f64 (full precision, < 2 ulp): 1/sqrt(2).
  const double r = std::bit_cast<double>(run("rsqrt.approx.f64 %z0, %a0;", std::bit_cast<uint64_t>(2.0)));
  CHECK(std::fabs(r - 0.70710678118654752440) <= 2 * std::ldexp(1.0, -53));
}

TEST_CASE("half .approx: ex2 and tanh are truncated exact values; special values per §9.7.4.9-10") {
  auto run = [](const std::string& instr, uint32_t x) { return test::eval32(instr, {{x, 0, 0, 0}})[0]; };
  // f16 2^0.5 = 1.41421356...: truncated 0x3da8 (1.4140625; nearest would be 0x3da8 too), 2^-0.5 =
  // 0.70710678: f16 grid 2^-11 below 1: 0x39a8 (0.70703125) truncated, nearest 0x39a8.
  CHECK(run("ex2.approx.f16x2 %y0, %x0;", 0xb8003800) == 0x39a83da8u);
  // 2^0.333251953125 (f16 0x3555) = 1.25984998...: 1290.086 units of 2^-10 above 0 -> 0x3d0a
  // (truncated and nearest agree); the high lane is 2^0 = 1.
  CHECK(run("ex2.approx.f16x2 %y0, %x0;", 0x3555) == 0x3c003d0au);
  // 2^0.125 (f16 0x3000) = 1.0905077...: 1116.68 units -> truncated 0x3c5c, where nearest is 0x3c5d.
  CHECK(run("ex2.approx.f16x2 %y0, %x0;", 0x3000) == 0x3c003c5cu);
  // Table (ex2.approx.f16): -inf -> +0, +-0 -> 1, +inf -> +inf, NaN -> NaN; 2^16 overflows to +inf.
  CHECK(run("ex2.approx.f16x2 %y0, %x0;", 0x8000fc00) == 0x3c000000u);
  CHECK(run("ex2.approx.f16x2 %y0, %x0;", 0x7e007c00) == 0x7fff7c00u);
  CHECK(run("ex2.approx.f16x2 %y0, %x0;", 0x4c00) == 0x3c007c00u);  // 2^16 = inf; 2^0 = 1
  // bf16 (.ftz): subnormal input -> 1.0 (table), 2^-130 subnormal result -> +0.
  CHECK(run("ex2.approx.ftz.bf16x2 %y0, %x0;", 0x80010001) == 0x3f803f80u);
  CHECK(run("ex2.approx.ftz.bf16x2 %y0, %x0;", 0xc302) == 0x3f800000u);  // 2^-130 -> +0; 2^0 = 1
  // tanh: +-inf -> +-1, +-0 -> +-0, NaN -> canonical; tanh(0.5) = 0.46211715... -> f16 0x3765
  // (0.462158203125 > exact? no: 0x3764 = 0.4619140625 <= exact < 0x3765): truncated 0x3764.
  CHECK(run("tanh.approx.f16x2 %y0, %x0;", 0xfc007c00) == 0xbc003c00u);
  CHECK(run("tanh.approx.bf16x2 %y0, %x0;", 0x80007fc1) == 0x80007fffu);
  CHECK(run("tanh.approx.f16x2 %y0, %x0;", 0x3800) == 0x3764u);
}

TEST_CASE("LaunchResult::approx_ops names the .approx forms that ran, once each") {
  test::Harness h;
  h.load(test::ptx_header() + R"(
.visible .entry k(.param .u64 p, .param .u32 sel)
{
  .reg .b32 %r<4>;
  .reg .b64 %d<2>;
  .reg .pred %q;
  ld.param.u64 %d0, [p];
  ld.param.u32 %r0, [sel];
  mov.f32 %r1, 0f3f800000;
  ex2.approx.ftz.f32 %r2, %r1;
  ex2.approx.ftz.f32 %r2, %r2;
  setp.ne.u32 %q, %r0, 0;
  @%q bra $L;
  sin.approx.f32 %r2, %r1;
$L:
  add.f32 %r2, %r2, %r1;
  st.global.f32 [%d0], %r2;
  ret;
}
)");
  const uint64_t out = h.zeros(4);
  const auto r1 = h.launch("k", {1, 1, 1}, {32, 1, 1}, test::Params().add(out).add(uint32_t{1}));
  CHECK(r1.approx_ops == std::vector<std::string>{"ex2.approx.ftz.f32"});  // sin never ran
  const auto r2 = h.launch("k", {2, 1, 1}, {64, 1, 1}, test::Params().add(out).add(uint32_t{0}));
  CHECK(r2.approx_ops == std::vector<std::string>{"ex2.approx.ftz.f32", "sin.approx.f32"});
}
