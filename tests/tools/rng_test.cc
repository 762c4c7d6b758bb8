// The launch spec's random generator (tools/spec/rng.h): fixed values for fixed seeds, so a
// change of algorithm cannot slip through, and the documented algorithm checked against an
// independent implementation.
//
// Expected values were computed once with a 10-line Python transcription of the algorithm in
// rng.h using Python's arbitrary-precision integers (mix64 masked to 64 bits, key = mix64(seed +
// (i+1)*G), draw = mix64(key + (k+1)*G)) — not with this C++ code.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "tools/spec/rng.h"

namespace rng = tcsim::spec::rng;

TEST_CASE("rng: key(seed, i) is splitmix64's published sequence") {
  // Vigna's splitmix64.c seeded with 1234567: the widely used test vector of the generator.
  CHECK(rng::key(1234567, 0) == 6457827717110365317ull);
  CHECK(rng::key(1234567, 1) == 3203168211198807973ull);
  CHECK(rng::key(1234567, 2) == 9817491932198370423ull);
}

TEST_CASE("rng: draw(seed, i, k) fixed values (seed 42, k = 0)") {
  CHECK(rng::draw(42, 0, 0) == 0x57e1faba65107204ull);
  CHECK(rng::draw(42, 1, 0) == 0xfc991bca1a1aa1aeull);
  CHECK(rng::draw(42, 2, 0) == 0x0018a66858653d4bull);
  CHECK(rng::draw(42, 3, 0) == 0x3304d23db2a8b503ull);
}

TEST_CASE("rng: unit() is exact and in [0, 1)") {
  CHECK(rng::unit(0) == 0.0);
  CHECK(rng::unit(~0ull) == 1.0 - 0x1p-53);
  CHECK(rng::unit(1ull << 63) == 0.5);
}

TEST_CASE("rng: portable_log agrees with std::log within 2 ulp") {
  for (double x : {1e-300, 1e-10, 0.001, 0.3, 0.5, 0.70710678, 0.7071068, 0.99999, 1.0, 1.00001,
                   1.41421, 2.0, 3.0, 10.0, 12345.678, 1e10, 1e300}) {
    const double a = rng::portable_log(x), b = std::log(x);
    CHECK(std::fabs(a - b) <= 2 * std::fabs(std::nextafter(b, 2 * b + 1) - b) + 1e-300);
  }
  for (int i = 1; i < 20000; ++i) {  // dense sweep over (0, 1), where the normal method uses it
    const double x = i / 20000.0;
    const double a = rng::portable_log(x), b = std::log(x);
    REQUIRE(std::fabs(a - b) <= 4e-16 * std::fabs(b) + 1e-300);
  }
  CHECK(rng::portable_log(1.0) == 0.0);
  CHECK(std::isinf(rng::portable_log(0.0)));
  CHECK(std::isnan(rng::portable_log(-1.0)));
}

TEST_CASE("rng: standard_normal matches the independent transcription") {
  // Python with math.log (a different log, so agreement is to ~1e-15, not bit-exact).
  const double expect[] = {0.47111722690856467, -1.4036824206587075, -1.4896498866908825,
                           1.5366381039278114};
  for (int i = 0; i < 4; ++i) CHECK(rng::standard_normal(5, i) == doctest::Approx(expect[i]).epsilon(1e-14));
}

TEST_CASE("rng: standard_normal moments over 200000 draws") {
  double s = 0, s2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double z = rng::standard_normal(9, i);
    s += z;
    s2 += z * z;
  }
  const double mean = s / n, var = s2 / n - mean * mean;
  CHECK(std::fabs(mean) < 0.01);  // 4.5 sigma of the sample mean
  CHECK(std::fabs(var - 1) < 0.015);
}
