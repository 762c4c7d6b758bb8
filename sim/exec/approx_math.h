// The transcendental functions behind the PTX .approx instructions (float_approx.cc), evaluated
// in double precision with only IEEE basic operations (+, -, *, /, sqrt, fma) in a fixed order, so
// that every machine computes the same bits (glibc's exp2/log2/sin/... pick FMA or non-FMA code
// paths by CPU and are not guaranteed correctly rounded: they could differ in the last double bit
// between hosts). Accuracy: relative error below 1e-14 for exp2/log2/tanh and absolute error below
// 1e-15 for sin/cos on |x| <= 2^20 (tests/sim/float_approx_test.cc measures both against Boost.
// Multiprecision), far inside what rounding to f32/f16/bf16 can see.
//
// Policy (docs/approx_ops.md): an .approx instruction returns its exact mathematical value
// rounded to nearest in the destination format, with the special values of the PTX ISA's tables.
// That is within every documented bound; the GPU's own approximations differ from it in the last
// bits, so outputs of .approx instructions are never bit-exact by construction.
#pragma once

namespace tcsim::sim::approx {

// 2^x for any double x (overflow gives +inf, underflow the correctly scaled subnormal or 0).
double exp2(double x);
// log2(x) for finite x > 0.
double log2(double x);
// sin(x), cos(x) for finite x: Cody-Waite reduction by pi/2 with a 3-double pi/2 (exact to
// 2^-160), then Taylor polynomials on [-pi/4, pi/4].
double sin(double x);
double cos(double x);
// tanh(x) for finite x.
double tanh(double x);

// The constants the reductions use, for the tests to check against high-precision values.
struct Constants {
  double pio2_1, pio2_2, pio2_3;  // pi/2 = pio2_1 + pio2_2 + pio2_3 (+ < 2^-163)
  double two_over_pi;
  double ln2, log2e;
};
const Constants& constants();

}  // namespace tcsim::sim::approx
