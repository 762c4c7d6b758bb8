// The launch spec's random generator (`"init": {"random": ...}`): counter-based, so element i's
// value depends only on (seed, i) — never on the buffer's size, the order of generation or the
// machine — and the same code runs in tcsim and tcsim-hw (this library is shared by both).
//
// Algorithm (documented in docs/launch_spec.md "Initialisation"; the tests pin values for fixed seeds):
//   mix64(z)        = splitmix64's finaliser (Steele, Lea, Flood, "Fast splittable pseudorandom
//                     number generators", OOPSLA 2014; the constants of Vigna's splitmix64.c):
//                       z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//                       z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//                       z =  z ^ (z >> 31)
//   key(seed, i)    = mix64(seed + (i + 1) * G),  G = 0x9E3779B97F4A7C15   (all arithmetic mod 2^64)
//                     i.e. the i-th output of splitmix64 seeded with `seed`;
//   draw(seed,i,k)  = mix64(key(seed, i) + (k + 1) * G)
//                     i.e. the k-th output of splitmix64 seeded with key(seed, i).
//   unit(x)         = (x >> 11) * 2^-53, a double in [0, 1) (exact: 53 bits).
// Draw k = 0 serves `uniform` and `bits`; `normal` uses k = 0, 1, 2, ... (a rejection method).
#pragma once
#include <cstdint>

namespace tcsim::spec::rng {

inline constexpr uint64_t kGamma = 0x9E3779B97F4A7C15ull;

constexpr uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
constexpr uint64_t key(uint64_t seed, uint64_t i) { return mix64(seed + (i + 1) * kGamma); }
constexpr uint64_t draw(uint64_t seed, uint64_t i, uint64_t k) {
  return mix64(key(seed, i) + (k + 1) * kGamma);
}
constexpr double unit(uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53; }

// Natural logarithm from IEEE basic operations only (frexp, +, -, *, /: all exactly specified),
// so it is the same on every libm: x = m * 2^e with m in [sqrt(1/2), sqrt(2)),
// ln m = 2 atanh(t), t = (m-1)/(m+1), |t| < 0.1716, summed to t^25 (the next term is < 2^-70).
// Within 2 ulp of the true value for positive finite x (tested against std::log); only its
// determinism matters here. x <= 0 is not accepted (returns -inf for 0, NaN below).
double portable_log(double x);

// A standard normal value for element i: Marsaglia's polar method on draws k = 0,1 / 2,3 / ...
// (u, v uniform in (-1, 1); accept 0 < s = u^2 + v^2 < 1; result u * sqrt(-2 ln(s) / s), the
// second value of the pair is discarded so elements stay independent). After 1024 rejected pairs
// (probability 0.2146^1024) the result is 0.
double standard_normal(uint64_t seed, uint64_t i);

}  // namespace tcsim::spec::rng
