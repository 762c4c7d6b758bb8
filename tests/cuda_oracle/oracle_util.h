// Shared pieces of the CUDA-oracle tests: CUDA's conversion headers (host code paths, compiled by
// g++ with /usr/local/cuda/include on the include path), a mismatch tally that reports how many
// inputs were compared against which CUDA function, and the input sets.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace oracle {

inline uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }
inline float bitsf(uint32_t u) { return std::bit_cast<float>(u); }
inline uint64_t dbits(double d) { return std::bit_cast<uint64_t>(d); }
inline double bitsd(uint64_t u) { return std::bit_cast<double>(u); }

inline __half half_of(uint16_t c) {
  __half_raw r;
  r.x = c;
  return __half(r);
}
inline uint16_t bits_of(__half h) { return static_cast<__half_raw>(h).x; }
inline __nv_bfloat16 bf16_of(uint16_t c) {
  __nv_bfloat16_raw r;
  r.x = c;
  return __nv_bfloat16(r);
}
inline uint16_t bits_of(__nv_bfloat16 h) { return static_cast<__nv_bfloat16_raw>(h).x; }

// Counts comparisons of one conversion against one CUDA function and reports the first mismatches.
class Tally {
 public:
  explicit Tally(std::string what) : what_(std::move(what)) {}
  void check(uint64_t cuda, uint64_t ours, uint64_t input) {
    ++compared_;
    if (cuda != ours) [[unlikely]] mismatch(cuda, ours, input);
  }
  uint64_t compared() const { return compared_; }
  uint64_t mismatched() const { return mismatched_; }
  // Reports "<what>: N inputs, M mismatches" and fails the test case on any mismatch.
  void report() const;

 private:
  void mismatch(uint64_t cuda, uint64_t ours, uint64_t input);
  std::string what_;
  uint64_t compared_ = 0;
  uint64_t mismatched_ = 0;
};

// f32 inputs: special values; every power of two and its neighbours; for each of f16, bf16, e4m3,
// e5m2, e2m3, e3m2, e2m1 and each of their finite codes: the code's value, the midpoint to the next
// value (the rounding tie), the f32 neighbours of both, the f32 just below the next value and one
// random f32 in between (both signs); then a stride-`stride` sweep over all 2^32 patterns and
// `n_random` random patterns.
std::vector<uint32_t> f32_inputs(uint32_t stride, uint32_t n_random);
// Only the structured part (no sweep, no random patterns).
const std::vector<uint32_t>& f32_structured_inputs();
// The same construction for doubles (ties and their double neighbours, so double rounding shows),
// plus random doubles of moderate and of any magnitude. NaNs: only +0x7ff8000000000000 (CUDA's
// double paths keep NaN sign/payload where tcsim canonicalises; the tests say where they skip it).
std::vector<uint64_t> f64_inputs(uint32_t n_random);

}  // namespace oracle
