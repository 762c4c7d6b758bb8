#include "tools/spec/rng.h"

#include <cmath>
#include <limits>

namespace tcsim::spec::rng {

double portable_log(double x) {
  if (!(x > 0)) return x == 0 ? -std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1): exact
  if (m < 0.70710678118654752440) {
    m *= 2;  // exact
    e -= 1;
  }
  const double t = (m - 1) / (m + 1);
  const double t2 = t * t;
  // atanh(t) = t (1 + t^2/3 + t^4/5 + ...): Horner from the highest term, fixed length.
  double s = 0;
  for (int n = 25; n >= 3; n -= 2) s = (s + 1.0 / n) * t2;
  const double ln_m = 2 * t * (1 + s);
  // ln 2 split so e * ln2_hi is exact for |e| < 2^11 (ln2_hi has 32 significant bits).
  constexpr double ln2_hi = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000
  constexpr double ln2_lo = 1.90821492927058770002e-10;  // 0x3DEA39EF35793C76
  return (e * ln2_hi + ln_m) + e * ln2_lo;
}

double standard_normal(uint64_t seed, uint64_t i) {
  for (uint64_t k = 0; k < 2048; k += 2) {
    const double u = 2 * unit(draw(seed, i, k)) - 1;
    const double v = 2 * unit(draw(seed, i, k + 1)) - 1;
    const double s = u * u + v * v;
    if (s > 0 && s < 1) return u * std::sqrt(-2 * portable_log(s) / s);
  }
  return 0;
}

}  // namespace tcsim::spec::rng
