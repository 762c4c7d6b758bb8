// f32/f64 add, sub, mul, fma, div, rcp, sqrt in every IEEE rounding mode (.rn .rz .rm .rp), run on
// the simulator and compared bit for bit with exact arithmetic: Boost.Multiprecision computes the
// exact (or 3400-bit) value and the expected result is chosen by exact comparison with its
// representable neighbours — independent of the simulator's rounding code and of the host FPU.
// Cases: random operands over the whole exponent range (subnormals, near overflow), ties at every
// magnitude, cancellations, overflow and underflow.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <fmt/format.h>

#include "tests/sim/harness.h"

using namespace tcsim;
using Big = boost::multiprecision::number<
    boost::multiprecision::cpp_bin_float<3400, boost::multiprecision::digit_base_2>,
    boost::multiprecision::et_off>;

namespace {

enum class Mode { RN, RZ, RM, RP };
const char* mode_name(Mode m) { return m == Mode::RN ? "rn" : m == Mode::RZ ? "rz" : m == Mode::RM ? "rm" : "rp"; }

template <class F>
Big big(F f) {
  return Big(static_cast<double>(f));  // f32 and f64 values are exact in double
}

// The correctly rounded F for exact value x in mode m, found by exact comparisons with neighbours.
template <class F>
F round_exact(const Big& x, Mode m, bool zero_negative) {
  if (x == 0) return zero_negative ? F(-0.0) : F(0.0);
  const F maxf = std::numeric_limits<F>::max();
  const Big big_max = big(maxf);
  // The value standing for "infinity" in the RN tie rule: 2^(emax+1).
  const Big big_inf = big_max + Big(big(maxf) - big(std::nextafter(maxf, F(0))));
  const bool neg = x < 0;
  const Big ax = neg ? Big(-x) : x;
  // lo = largest representable <= ax (finite), hi = next up (may be inf).
  F lo;
  if (ax >= big_max) {
    lo = maxf;
  } else {
    lo = static_cast<F>(static_cast<double>(ax));  // a start near ax; then fix up exactly
    if (!(lo >= F(0))) lo = F(0);
    while (big(lo) > ax) lo = std::nextafter(lo, F(0));
    while (lo < maxf && big(std::nextafter(lo, std::numeric_limits<F>::infinity())) <= ax)
      lo = std::nextafter(lo, std::numeric_limits<F>::infinity());
  }
  const F hi = lo == maxf ? std::numeric_limits<F>::infinity() : std::nextafter(lo, std::numeric_limits<F>::infinity());
  const Big bhi = lo == maxf ? big_inf : big(hi);
  F r = lo;
  if (big(lo) == ax) {
    r = lo;
  } else {
    switch (m) {
      case Mode::RZ: r = lo; break;
      case Mode::RM: r = neg ? hi : lo; break;
      case Mode::RP: r = neg ? lo : hi; break;
      case Mode::RN: {
        const Big dl = ax - big(lo), dh = bhi - ax;
        if (dl < dh) r = lo;
        else if (dh < dl) r = hi;
        else r = (std::bit_cast<std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>>(lo) & 1) ? hi : lo;
        break;
      }
    }
  }
  return neg ? -r : r;
}

template <class F>
uint64_t bits_of(F f) {
  if constexpr (sizeof(F) == 4) return std::bit_cast<uint32_t>(f);
  else return std::bit_cast<uint64_t>(f);
}
template <class F>
F from_bits(uint64_t b) {
  if constexpr (sizeof(F) == 4) return std::bit_cast<float>(static_cast<uint32_t>(b));
  else return std::bit_cast<double>(b);
}

// Random finite value with a uniformly random exponent (incl. subnormals) and mantissa.
template <class F>
F random_value(std::mt19937_64& g, int emin, int emax) {
  using U = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  constexpr int mbits = std::numeric_limits<F>::digits - 1;
  const U mant = static_cast<U>(g()) & ((U{1} << mbits) - 1);
  const int e = emin + static_cast<int>(g() % static_cast<uint64_t>(emax - emin + 1));
  F v = std::ldexp(F(1) + std::ldexp(F(mant), -mbits), e);
  if (g() % 8 == 0) v = std::ldexp(F(mant), std::numeric_limits<F>::min_exponent - 1 - mbits);  // subnormal
  return (g() & 1) ? -v : v;
}

enum class Op { Add, Sub, Mul, Fma, Div, Rcp, Sqrt };
const char* op_name(Op o) {
  switch (o) {
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Fma: return "fma";
    case Op::Div: return "div";
    case Op::Rcp: return "rcp";
    case Op::Sqrt: return "sqrt";
  }
  return "?";
}

template <class F>
std::vector<std::array<F, 3>> cases(Op op) {
  std::mt19937_64 g(1234 + static_cast<int>(op));
  constexpr bool f32 = sizeof(F) == 4;
  const int emin = f32 ? -130 : -1030, emax = f32 ? 127 : 1023;
  std::vector<std::array<F, 3>> v;
  for (int i = 0; i < 1500; ++i) {
    F a = random_value<F>(g, emin, emax), b = random_value<F>(g, emin, emax), c = random_value<F>(g, emin, emax);
    if (i % 3 == 0) {  // operands of similar magnitude: carries, cancellation, exact ties
      const int e = static_cast<int>(g() % 40) - 20;
      a = random_value<F>(g, e, e + 2);
      b = random_value<F>(g, e - static_cast<int>(g() % (f32 ? 26 : 55)), e);
      c = -a * b;
    }
    if (op == Op::Sqrt || op == Op::Rcp) b = F(0);
    if (op == Op::Sqrt) a = std::fabs(a);
    if (op != Op::Fma) c = F(0);
    v.push_back({a, b, c});
  }
  // Ties and near-ties: 1 + half an ulp, odd mantissa + half an ulp, at several magnitudes.
  constexpr int p = std::numeric_limits<F>::digits;
  for (int e : {-20, 0, 5, f32 ? 100 : 1000, f32 ? -126 : -1022}) {
    const F one = std::ldexp(F(1), e), half_ulp = std::ldexp(F(1), e - p);
    const F odd = std::nextafter(one, F(2) * one);
    for (F x : {one, odd, -one, -odd}) {
      v.push_back({x, half_ulp, F(0)});
      v.push_back({x, -half_ulp, F(0)});
      v.push_back({x, std::nextafter(half_ulp, F(0)), F(0)});
    }
  }
  // Overflow and underflow.
  const F big_v = std::numeric_limits<F>::max(), tiny = std::numeric_limits<F>::denorm_min();
  v.push_back({big_v, big_v, F(0)});
  v.push_back({-big_v, F(2), F(0)});
  v.push_back({tiny, F(0.5), F(0)});
  v.push_back({tiny, F(-0.5), F(0)});
  v.push_back({std::numeric_limits<F>::min(), F(0.75), F(0)});
  v.push_back({F(1), F(3), F(0)});
  v.push_back({F(2), F(0), F(0)});
  return v;
}

template <class F>
void check_op(Op op, Mode m) {
  constexpr bool f32 = sizeof(F) == 4;
  const char* t = f32 ? "f32" : "f64";
  std::string instr;
  // Operands: %a0 %a1 %a2 as f64 bit patterns or %x0 %x1 %x2 as f32 bit patterns.
  const std::string A = f32 ? "%x0" : "%a0", B = f32 ? "%x1" : "%a1", C = f32 ? "%x2" : "%a2";
  const std::string D = f32 ? "%y0" : "%z0";
  switch (op) {
    case Op::Add: instr = fmt::format("add.{}.{} {}, {}, {};", mode_name(m), t, D, A, B); break;
    case Op::Sub: instr = fmt::format("sub.{}.{} {}, {}, {};", mode_name(m), t, D, A, B); break;
    case Op::Mul: instr = fmt::format("mul.{}.{} {}, {}, {};", mode_name(m), t, D, A, B); break;
    case Op::Fma: instr = fmt::format("fma.{}.{} {}, {}, {}, {};", mode_name(m), t, D, A, B, C); break;
    case Op::Div: instr = fmt::format("div.{}.{} {}, {}, {};", mode_name(m), t, D, A, B); break;
    case Op::Rcp: instr = fmt::format("rcp.{}.{} {}, {};", mode_name(m), t, D, A); break;
    case Op::Sqrt: instr = fmt::format("sqrt.{}.{} {}, {};", mode_name(m), t, D, A); break;
  }
  const auto cs = cases<F>(op);
  std::vector<test::Row> rows;
  for (const auto& c : cs) rows.push_back({bits_of(c[0]), bits_of(c[1]), bits_of(c[2]), 0});
  std::vector<uint64_t> got;
  if (f32) {
    for (uint32_t x : test::eval32(instr, rows)) got.push_back(x);
  } else {
    got = test::eval64(instr, rows);
  }
  int failures = 0;
  for (size_t i = 0; i < cs.size(); ++i) {
    const F a = cs[i][0], b = cs[i][1], c = cs[i][2];
    Big exact;
    // Sign of an exact zero sum (IEEE 754 §6.3): x + x keeps x's sign (also for zeros); otherwise
    // +0, except -0 when rounding toward negative.
    auto sum_zero_sign = [&](bool xneg, bool xzero, bool yneg, bool yzero) {
      return (xzero && yzero && xneg == yneg) ? xneg : m == Mode::RM;
    };
    bool zneg = false;
    switch (op) {
      case Op::Add: exact = big(a) + big(b); zneg = sum_zero_sign(std::signbit(a), a == 0, std::signbit(b), b == 0); break;
      case Op::Sub: exact = big(a) - big(b); zneg = sum_zero_sign(std::signbit(a), a == 0, !std::signbit(b), b == 0); break;
      case Op::Mul: exact = big(a) * big(b); zneg = std::signbit(a) != std::signbit(b); break;
      case Op::Fma: {
        const Big prod = big(a) * big(b);
        exact = prod + big(c);
        zneg = sum_zero_sign(std::signbit(a) != std::signbit(b), prod == 0, std::signbit(c), c == 0);
        break;
      }
      case Op::Div: exact = big(a) / big(b); zneg = std::signbit(a) != std::signbit(b); break;
      case Op::Rcp: exact = Big(1) / big(a); zneg = std::signbit(a); break;
      case Op::Sqrt: exact = sqrt(big(a)); zneg = std::signbit(a); break;
    }
    uint64_t want;
    if (op == Op::Sqrt && a < 0) {
      // sqrt of a negative number: f32 canonical NaN, f64 default NaN (H200 goldens, fp_util.h)
      want = f32 ? 0x7fffffffu : 0xfff8000000000000ull;
    } else if ((op == Op::Div && b == 0) || (op == Op::Rcp && a == 0)) {
      // Division by zero: signed infinity, or the f32 canonical / f64 default NaN for 0/0.
      const bool nan = op == Op::Div && a == 0;
      want = nan ? (f32 ? 0x7fffffffu : 0xfff8000000000000ull)
                 : bits_of(std::copysign(std::numeric_limits<F>::infinity(),
                                         (op == Op::Div ? (std::signbit(a) != std::signbit(b)) : std::signbit(a)) ? F(-1) : F(1)));
    } else {
      want = bits_of(round_exact<F>(exact, m, zneg));
    }
    if (got[i] != want && failures++ < 5)
      FAIL_CHECK(fmt::format("{}.{}.{} a={:a} b={:a} c={:a}: got 0x{:x} want 0x{:x}", op_name(op), mode_name(m), t,
                             static_cast<double>(a), static_cast<double>(b), static_cast<double>(c), got[i], want));
  }
  CHECK(failures == 0);
}

}  // namespace

TEST_CASE("float rounding: f32 ops in every mode equal exact arithmetic") {
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Fma, Op::Div, Op::Rcp, Op::Sqrt})
    for (Mode m : {Mode::RN, Mode::RZ, Mode::RM, Mode::RP}) {
      CAPTURE(op_name(op));
      CAPTURE(mode_name(m));
      check_op<float>(op, m);
    }
}

TEST_CASE("float rounding: f64 ops in every mode equal exact arithmetic") {
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Fma, Op::Div, Op::Rcp, Op::Sqrt})
    for (Mode m : {Mode::RN, Mode::RZ, Mode::RM, Mode::RP}) {
      CAPTURE(op_name(op));
      CAPTURE(mode_name(m));
      check_op<double>(op, m);
    }
}

TEST_CASE("float: .ftz, .sat, canonical NaN, abs/neg/min/max/copysign/testp") {
  auto f = [](float x) { return uint64_t{std::bit_cast<uint32_t>(x)}; };
  const float sub = std::numeric_limits<float>::denorm_min() * 3, mn = std::numeric_limits<float>::min();
  std::vector<test::Row> rows = {
      {f(sub), f(1.0f), 0, 0},                         // subnormal input
      {f(mn), f(0.25f), 0, 0},                          // subnormal result
      {f(0.75f), f(0.5f), 0, 0},                        // .sat: 1.25 -> 1
      {f(-3.0f), f(1.0f), 0, 0},                        // .sat: -2 -> +0
      {0x7fc01234u, f(1.0f), 0, 0},                     // NaN payload input
      {f(-0.0f), f(0.0f), 0, 0},
  };
  // mul.ftz: flush inputs and results.
  auto mulftz = test::eval32("mul.rn.ftz.f32 %y0, %x0, %x1;", rows);
  CHECK(mulftz[0] == 0);              // 3 * 2^-149 * 1 -> input flushed -> +0
  CHECK(mulftz[1] == 0);              // 2^-126 * 0.25 = 2^-128 (subnormal) -> +0
  CHECK(mulftz[4] == 0x7fffffffu);    // NaN -> canonical NaN
  auto mulplain = test::eval32("mul.rn.f32 %y0, %x0, %x1;", rows);
  CHECK(mulplain[0] == 3u);           // subnormal kept: 3 * 2^-149
  CHECK(mulplain[1] == 0x00200000u);  // 2^-128
  auto addsat = test::eval32("add.sat.f32 %y0, %x0, %x1;", rows);
  CHECK(addsat[2] == f(1.0f));
  CHECK(addsat[3] == f(0.0f));
  CHECK(addsat[4] == f(0.0f));        // .sat: NaN -> 0
  // min/max: NaN ignored, -0 < +0; .NaN propagates; xorsign.abs.
  std::vector<test::Row> mm = {{0x7fc00000u, f(2.0f), 0, 0}, {f(-0.0f), f(0.0f), 0, 0}, {f(-3.0f), f(2.0f), 0, 0}};
  auto mn1 = test::eval32("min.f32 %y0, %x0, %x1;", mm);
  CHECK(mn1[0] == f(2.0f));
  CHECK(mn1[1] == f(-0.0f));
  CHECK(mn1[2] == f(-3.0f));
  auto mx1 = test::eval32("max.f32 %y0, %x0, %x1;", mm);
  CHECK(mx1[1] == f(0.0f));
  auto mnan = test::eval32("min.NaN.f32 %y0, %x0, %x1;", mm);
  CHECK(mnan[0] == 0x7fffffffu);
  auto xs = test::eval32("max.xorsign.abs.f32 %y0, %x0, %x1;", mm);
  CHECK(xs[2] == f(-3.0f));  // max(|-3|,|2|) = 3, signs differ -> -3
  auto neg = test::eval32("neg.f32 %y0, %x0;", mm);
  CHECK(neg[2] == f(3.0f));
  auto ab = test::eval32("abs.f32 %y0, %x0;", mm);
  CHECK(ab[2] == f(3.0f));
  auto cs = test::eval32("copysign.f32 %y0, %x0, %x1;", mm);
  CHECK(cs[2] == f(-2.0f));
  std::vector<test::Row> tp = {{f(1.0f), 0, 0, 0}, {f(sub), 0, 0, 0}, {0x7f800000u, 0, 0, 0}, {0x7fc00000u, 0, 0, 0}};
  CHECK(test::evalp("testp.normal.f32 %p0, %x0;", tp) == std::vector<bool>{true, false, false, false});  // zero: below
  CHECK(test::evalp("testp.subnormal.f32 %p0, %x0;", tp) == std::vector<bool>{false, true, false, false});
  CHECK(test::evalp("testp.finite.f32 %p0, %x0;", tp) == std::vector<bool>{true, true, false, false});
  CHECK(test::evalp("testp.infinite.f32 %p0, %x0;", tp) == std::vector<bool>{false, false, true, false});
  CHECK(test::evalp("testp.notanumber.f32 %p0, %x0;", tp) == std::vector<bool>{false, false, false, true});
  CHECK(test::evalp("testp.number.f32 %p0, %x0;", tp) == std::vector<bool>{true, true, true, false});
}

// NaN bits and testp as the H200 produces them (kernels/basic goldens f32_rounding, f64_math,
// cvt_float, f32_ftz; rules in sim/exec/fp_util.h and convert.cc).
TEST_CASE("float: H200 NaN rules (f32 canonical, f64 propagation, cvt payloads) and testp.normal of zero") {
  const uint64_t qnan = 0x7ff8000000000000ull, snan = 0x7ff0000000000abcull, one = 0x3ff0000000000000ull;
  const uint64_t inf = 0x7ff0000000000000ull, mone = 0xbff0000000000000ull;
  std::vector<test::Row> rows = {
      {one, snan, qnan, 0},  // first NaN operand is b: quieted, payload kept
      {snan, qnan, one, 0},  // a and b NaN: a wins
      {inf, inf, one, 0},    // inf - inf: invalid
      {0, inf, one, 0},      // 0 * inf: invalid
      {mone, one, one, 0},   // sqrt(-1): invalid
  };
  auto add = test::eval64("add.rn.f64 %z0, %a0, %a1;", rows);
  CHECK(add[0] == 0x7ff8000000000abcull);
  CHECK(add[1] == 0x7ff8000000000abcull);
  auto sub = test::eval64("sub.rz.f64 %z0, %a0, %a1;", rows);
  CHECK(sub[2] == 0xfff8000000000000ull);
  auto mul = test::eval64("mul.rn.f64 %z0, %a0, %a1;", rows);
  CHECK(mul[3] == 0xfff8000000000000ull);
  auto fma = test::eval64("fma.rm.f64 %z0, %a0, %a1, %a2;", rows);
  CHECK(fma[0] == 0x7ff8000000000abcull);
  CHECK(fma[3] == 0xfff8000000000000ull);
  auto sq = test::eval64("sqrt.rn.f64 %z0, %a0;", rows);
  CHECK(sq[1] == 0x7ff8000000000abcull);
  CHECK(sq[4] == 0xfff8000000000000ull);
  auto dv = test::eval64("div.rp.f64 %z0, %a0, %a1;", rows);
  CHECK(dv[0] == 0x7ff8000000000abcull);
  auto mn = test::eval64("min.f64 %z0, %a0, %a1;", rows);
  CHECK(mn[0] == one);                    // one NaN: the other operand
  CHECK(mn[1] == 0x7ff8000000000abcull);  // both NaN: the first, quieted
  auto ng = test::eval64("neg.f64 %z0, %a1;", rows);
  CHECK(ng[0] == 0x7ff8000000000abcull);  // no sign flip on a NaN, quieted
  auto rni = test::eval64("cvt.rni.f64.f64 %z0, %a1;", rows);
  CHECK(rni[0] == 0x7ff8000000000abcull);
  // f32: every NaN result is 0x7fffffff, abs/neg included.
  std::vector<test::Row> f32 = {{0xffc12345u, 0x7f800001u, 0, 0}};
  CHECK(test::eval32("abs.f32 %y0, %x0;", f32)[0] == 0x7fffffffu);
  CHECK(test::eval32("neg.f32 %y0, %x1;", f32)[0] == 0x7fffffffu);
  CHECK(test::eval32("add.rz.f32 %y0, %x0, %x1;", f32)[0] == 0x7fffffffu);
  // cvt to f64 keeps the payload (quieted); .ftz canonicalises the f32 first.
  CHECK(test::eval64("cvt.f64.f32 %z0, %x1;", f32)[0] == 0x7ff8000020000000ull);
  CHECK(test::eval64("cvt.f64.f32 %z0, %x0;", f32)[0] == 0xfff82468a0000000ull);
  CHECK(test::eval64("cvt.ftz.f64.f32 %z0, %x0;", f32)[0] == 0x7fffffffe0000000ull);
  // tf32: .rna truncates the NaN (satfinite then subtracts one tf32 ulp); .rn/.rz give 0x7fffe000.
  std::vector<test::Row> tf = {{0x7fd5244du, 0, 0, 0}, {0xff840cdau, 0, 0, 0}};
  CHECK(test::eval32("cvt.rna.tf32.f32 %y0, %x0;", tf) == std::vector<uint32_t>{0x7fd52000u, 0xff840000u});
  CHECK(test::eval32("cvt.rna.satfinite.tf32.f32 %y0, %x0;", tf) == std::vector<uint32_t>{0x7fd50000u, 0xff83e000u});
  CHECK(test::eval32("cvt.rn.tf32.f32 %y0, %x0;", tf) == std::vector<uint32_t>{0x7fffe000u, 0x7fffe000u});
  // f16 NaN: to f64 the payload is kept and quieted; to f32 the canonical NaN.
  std::vector<test::Row> h = {{0xfd82u, 0, 0, 0}};
  CHECK(test::eval64("cvt.f64.f16 %z0, %h0;", h)[0] == 0xfffe080000000000ull);
  CHECK(test::eval32("cvt.f32.f16 %y0, %h0;", h)[0] == 0x7fffffffu);
  // testp.normal: +-0 count as normal (PTX ISA, confirmed on H200).
  std::vector<test::Row> z = {{0, 0x80000000u, 0, 0}};
  CHECK(test::evalp("testp.normal.f32 %p0, %x0;", z) == std::vector<bool>{true});
  CHECK(test::evalp("testp.normal.f64 %p0, %a1;", {{0, 0x8000000000000000ull, 0, 0}}) == std::vector<bool>{true});
}
