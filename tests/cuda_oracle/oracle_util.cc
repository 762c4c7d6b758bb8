#include "oracle_util.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "models/formats/format.h"

namespace oracle {

using tcsim::models::DType;

namespace {

std::string group_digits(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// Targets whose rounding boundaries the structured inputs cover, with their code widths.
struct Target {
  DType type;
  int bits;
};
constexpr Target kTargets[] = {
    {DType::F16, 16}, {DType::BF16, 16}, {DType::E4M3, 8}, {DType::E5M2, 8},
    {DType::E2M3, 6}, {DType::E3M2, 6},  {DType::E2M1, 4},
};

// Calls add(lo, mid, hi) for every finite non-negative value lo of every target, with hi the next
// value up (one ulp of lo's binade above, even where that is past max finite) and mid the tie.
template <class Fn>
void for_each_interval(Fn add) {
  for (const Target& t : kTargets) {
    for (uint64_t c = 0; c < (1ull << (t.bits - 1)); ++c) {
      const tcsim::models::Unpacked u = tcsim::models::unpack(t.type, c);
      if (u.cls == tcsim::models::FpClass::NaN || u.cls == tcsim::models::FpClass::Inf) continue;
      const double lo = tcsim::models::to_double(t.type, c);
      const double ulp = std::ldexp(1.0, u.exp - u.frac_bits);
      add(lo, lo + ulp / 2, lo + ulp);
    }
  }
}

}  // namespace

void Tally::mismatch(uint64_t cuda, uint64_t ours, uint64_t input) {
  if (mismatched_++ < 5) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: input 0x%llx: CUDA 0x%llx, tcsim 0x%llx", what_.c_str(),
                  static_cast<unsigned long long>(input), static_cast<unsigned long long>(cuda),
                  static_cast<unsigned long long>(ours));
    MESSAGE(buf);
  }
}

void Tally::report() const {
  MESSAGE(what_ << ": " << group_digits(compared_) << " comparisons, " << mismatched_ << " mismatches");
  CHECK_MESSAGE(mismatched_ == 0, what_);
}

const std::vector<uint32_t>& f32_structured_inputs() {
  static const std::vector<uint32_t> inputs = [] {
    std::vector<uint32_t> v;
    std::mt19937 rng(20240611);
    const float inf = std::numeric_limits<float>::infinity();
    auto push_both = [&](float f) {
      v.push_back(fbits(f));
      v.push_back(fbits(f) ^ 0x80000000u);
    };
    // Specials: zeros, infinities, NaNs of both signs with several payloads, extremes.
    for (uint32_t u : {0x00000000u, 0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x7fa00000u, 0x7fffffffu,
                       0x7f7fffffu, 0x00800000u, 0x00000001u, 0x007fffffu}) {
      v.push_back(u);
      v.push_back(u | 0x80000000u);
    }
    // Every power of two (incl. subnormal ones) and its neighbours: ue8m0 and f32 boundaries.
    for (int e = -149; e <= 127; ++e) {
      const float p = std::ldexp(1.0f, e);
      push_both(p);
      push_both(std::nextafter(p, inf));
      push_both(std::nextafter(p, 0.0f));
    }
    for_each_interval([&](double lo, double mid, double hi) {
      const float flo = static_cast<float>(lo), fmid = static_cast<float>(mid);
      const float fhi = static_cast<float>(hi);  // 2^128 (past bf16 max) becomes inf: also a test
      push_both(flo);
      push_both(std::nextafter(flo, inf));
      if (flo > 0) push_both(std::nextafter(flo, 0.0f));
      push_both(fmid);
      push_both(std::nextafter(fmid, inf));
      push_both(std::nextafter(fmid, 0.0f));
      push_both(std::nextafter(fhi, 0.0f));
      const uint32_t a = fbits(flo), b = fbits(std::nextafter(fhi, 0.0f));
      if (b > a + 1) push_both(bitsf(a + 1 + rng() % (b - a - 1)));
    });
    return v;
  }();
  return inputs;
}

std::vector<uint32_t> f32_inputs(uint32_t stride, uint32_t n_random) {
  std::vector<uint32_t> v = f32_structured_inputs();
  for (uint64_t u = 0; u < (1ull << 32); u += stride) v.push_back(static_cast<uint32_t>(u));
  std::mt19937 rng(77);
  for (uint32_t i = 0; i < n_random; ++i) v.push_back(static_cast<uint32_t>(rng()));
  return v;
}

std::vector<uint64_t> f64_inputs(uint32_t n_random) {
  std::vector<uint64_t> v;
  std::mt19937_64 rng(4242);
  const double inf = std::numeric_limits<double>::infinity();
  auto push_both = [&](double d) {
    v.push_back(dbits(d));
    v.push_back(dbits(d) ^ (1ull << 63));
  };
  for (uint64_t u : {0x0ull, 0x7ff0000000000000ull, 0x7fefffffffffffffull, 0x0010000000000000ull,
                     0x0000000000000001ull, 0x47efffffe0000000ull /* FLT_MAX */}) {
    push_both(bitsd(u));
  }
  v.push_back(0x7ff8000000000000ull);  // the default quiet NaN
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    push_both(p);
    push_both(std::nextafter(p, inf));
    push_both(std::nextafter(p, 0.0));
  }
  for_each_interval([&](double lo, double mid, double hi) {
    push_both(lo);
    push_both(std::nextafter(lo, inf));
    if (lo > 0) push_both(std::nextafter(lo, 0.0));
    push_both(mid);
    push_both(std::nextafter(mid, inf));  // one double ulp off the tie: catches double rounding
    push_both(std::nextafter(mid, 0.0));
    push_both(std::nextafter(hi, 0.0));
    const uint64_t a = dbits(lo), b = dbits(hi);
    push_both(bitsd(a + 1 + rng() % (b - a - 1)));
  });
  for (uint32_t i = 0; i < n_random; ++i) {
    // Half: exponents in [-160, 140] (the interesting range of every target); half: any pattern.
    uint64_t u = rng();
    if (i % 2 == 0) {
      const uint64_t e = static_cast<uint64_t>(1023 - 160 + static_cast<int>(rng() % 301));
      u = (u & 0x800fffffffffffffull) | (e << 52);
    }
    if (std::isnan(bitsd(u))) u = 0x7ff8000000000000ull;
    v.push_back(u);
  }
  return v;
}

}  // namespace oracle
