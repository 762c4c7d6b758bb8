// Deterministic double-precision exp2, log2, sin, cos, tanh for the .approx instructions; see
// approx_math.h. Only correctly rounded IEEE operations, evaluated in a fixed order (explicit fma
// in every Horner step, so no compiler contraction can change the bits), in the host's default
// round-to-nearest mode (sim/launch.cc enforces it).
#include "sim/exec/approx_math.h"

#include <array>
#include <cmath>
#include <cstdint>

namespace tcsim::sim::approx {
namespace {

// pi/2 as three doubles: pio2_1 = RN(pi/2), pio2_2 = RN(pi/2 - pio2_1), pio2_3 = RN(the rest).
// From pi = 0x3.243F6A8885A308D313198A2E03707344A4093822299F31D0082EFA98EC4E6C89452821E6...;
// the tests recompute them from Boost.Multiprecision's pi.
constexpr double kPio2_1 = 0x1.921fb54442d18p+0;
constexpr double kPio2_2 = 0x1.1a62633145c07p-54;
constexpr double kPio2_3 = -0x1.f1976b7ed8fbcp-110;
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;  // RN(2/pi)
constexpr double kLn2 = 0x1.62e42fefa39efp-1;        // RN(ln 2)
constexpr double kLog2e = 0x1.71547652b82fep+0;      // RN(1/ln 2)

// Taylor coefficients, built at compile time (GCC folds constexpr double arithmetic with IEEE
// round-to-nearest, so these are the same bits on every host).
template <int N>
constexpr std::array<double, N> exp2_coeffs() {  // ln2^k / k!
  std::array<double, N> c{};
  c[0] = 1.0;
  for (int k = 1; k < N; ++k) c[k] = c[k - 1] * kLn2 / k;
  return c;
}
template <int N>
constexpr std::array<double, N> sin_coeffs() {  // (-1)^k / (2k+1)!
  std::array<double, N> c{};
  double f = 1.0;
  for (int k = 0; k < N; ++k) {
    if (k > 0) f *= static_cast<double>((2 * k) * (2 * k + 1));
    c[k] = (k % 2 ? -1.0 : 1.0) / f;
  }
  return c;
}
template <int N>
constexpr std::array<double, N> cos_coeffs() {  // (-1)^k / (2k)!
  std::array<double, N> c{};
  double f = 1.0;
  for (int k = 0; k < N; ++k) {
    if (k > 0) f *= static_cast<double>((2 * k - 1) * (2 * k));
    c[k] = (k % 2 ? -1.0 : 1.0) / f;
  }
  return c;
}
// |f| <= 1/2: the k = 15 term is below 2^-58 of the result.
constexpr auto kExp2 = exp2_coeffs<16>();
// |r| <= pi/4 + a little: the first omitted terms are below 1e-19.
constexpr auto kSin = sin_coeffs<11>();
constexpr auto kCos = cos_coeffs<11>();

template <size_t N>
inline double horner(const std::array<double, N>& c, double x) {
  double p = c[N - 1];
  for (size_t k = N - 1; k-- > 0;) p = std::fma(p, x, c[k]);
  return p;
}

// r = x - k*pi/2 (3-part Cody-Waite with fma: each step one rounding of an O(1) value) and the
// quadrant k mod 4.
inline double reduce(double x, int* quadrant) {
  const double k = std::nearbyint(x * kTwoOverPi);
  double r = std::fma(-k, kPio2_1, x);
  r = std::fma(-k, kPio2_2, r);
  r = std::fma(-k, kPio2_3, r);
  double q = std::fmod(k, 4.0);  // exact
  if (q < 0) q += 4.0;
  *quadrant = static_cast<int>(q);
  return r;
}
inline double sin_poly(double r) { return r * horner(kSin, r * r); }
inline double cos_poly(double r) { return horner(kCos, r * r); }

}  // namespace

const Constants& constants() {
  static const Constants c{kPio2_1, kPio2_2, kPio2_3, kTwoOverPi, kLn2, kLog2e};
  return c;
}

double exp2(double x) {
  if (std::isnan(x)) return x;
  if (x >= 1025.0) return INFINITY;
  if (x <= -1100.0) return 0.0;
  const double n = std::nearbyint(x);
  const double f = x - n;  // exact, |f| <= 1/2
  return std::ldexp(horner(kExp2, f), static_cast<int>(n));
}

double log2(double x) {
  int e;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [1/2, 1)
  if (m < 0x1.6a09e667f3bcdp-1) {  // m < sqrt(1/2): use [sqrt(1/2), sqrt(2))
    m *= 2.0;
    e -= 1;
  }
  // ln m = 2 atanh(s), s = (m - 1)/(m + 1), |s| <= 0.1716: 2 s (1 + z/3 + z^2/5 + ...), z = s^2;
  // m - 1 is exact (Sterbenz). Terms through z^12 (the next is below 1e-19).
  const double s = (m - 1.0) / (m + 1.0);
  const double z = s * s;
  double p = 1.0 / 25.0;
  for (int k = 11; k >= 0; --k) p = std::fma(p, z, 1.0 / (2 * k + 1));
  const double ln_m = 2.0 * s * p;
  return std::fma(ln_m, kLog2e, static_cast<double>(e));
}

double sin(double x) {
  if (x == 0.0) return x;  // keeps -0
  int q;
  const double r = reduce(x, &q);
  switch (q) {
    case 0: return sin_poly(r);
    case 1: return cos_poly(r);
    case 2: return -sin_poly(r);
    default: return -cos_poly(r);
  }
}

double cos(double x) {
  int q;
  const double r = reduce(x, &q);
  switch (q) {
    case 0: return cos_poly(r);
    case 1: return -sin_poly(r);
    case 2: return -cos_poly(r);
    default: return sin_poly(r);
  }
}

double tanh(double x) {
  const double a = std::fabs(x);
  double t;
  if (a < 0x1p-10) {
    const double z = a * a;  // a - a^3/3 + 2a^5/15: the next term is below 2^-60 relative
    t = std::fma(a * z, std::fma(z, 2.0 / 15.0, -1.0 / 3.0), a);
  } else if (a < 0.5) {
    // 1 - 2/(e^2a + 1) would cancel here (relative error ~ 2^-53 / a). Instead: tanh of a / 2^k
    // (< 2^-10) by the series, then k doublings tanh(2y) = 2 tanh(y) / (1 + tanh(y)^2), which do
    // not amplify relative errors ((1 - t^2)/(1 + t^2) <= 1) and add about one rounding each.
    int k = 0;
    double y = a;
    while (y >= 0x1p-10) {
      y *= 0.5;
      ++k;
    }
    const double z = y * y;
    t = std::fma(y * z, std::fma(z, 2.0 / 15.0, -1.0 / 3.0), y);
    for (; k > 0; --k) t = 2.0 * t / std::fma(t, t, 1.0);
  } else if (a > 20.0) {
    t = 1.0;  // 1 - tanh(20) < 2^-57
  } else {
    const double e = exp2(2.0 * a * kLog2e);
    t = 1.0 - 2.0 / (e + 1.0);
  }
  return std::copysign(t, x);
}

}  // namespace tcsim::sim::approx
