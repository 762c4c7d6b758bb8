// Deterministic random and adversarial operand generators for the MMA tests (a counter-based
// splitmix64 stream: same seed, same vectors, on every machine).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "isa/dtype.h"

namespace tcsim::models::mma::testing {

using isa::DType;

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  bool chance(uint32_t percent) { return below(100) < percent; }

 private:
  uint64_t s_;
};

// Input regimes: each stresses one part of the datapath.
enum class Regime : uint8_t {
  Uniform,       // every bit pattern equally likely (specials included)
  Typical,       // finite, exponents near 1.0
  WideSpread,    // finite, exponents over the whole range, subnormals included
  Cancel,        // pairs of products that cancel exactly, plus small terms
  Subnormal,     // exponent field 0 or 1
  Sparse,        // mostly (signed) zeros: zero-operand and C=0 rules
  Specials,      // Inf/NaN/zero sprinkled into typical values
  kCount
};

struct FieldLayout {
  int exp_bits, mant_bits, shift;  // shift: where the code sits in the word (tf32/bf16 words)
  bool has_sign;
};

inline FieldLayout layout(DType t) {
  switch (t) {
    case DType::F32: return {8, 23, 0, true};
    case DType::TF32: return {8, 10, 13, true};
    case DType::BF16: return {8, 7, 0, true};
    case DType::F16: return {5, 10, 0, true};
    case DType::E4M3: return {4, 3, 0, true};
    case DType::E5M2: return {5, 2, 0, true};
    case DType::E2M3: return {2, 3, 0, true};
    case DType::E3M2: return {3, 2, 0, true};
    case DType::E2M1: return {2, 1, 0, true};
    default: return {0, 8, 0, false};  // s8/u8: the byte
  }
}

inline uint32_t make(DType t, bool neg, uint32_t e, uint32_t m) {
  const FieldLayout f = layout(t);
  const uint32_t code = (neg ? 1u << (f.exp_bits + f.mant_bits) : 0) | (e << f.mant_bits) | m;
  return code << f.shift;
}

// One element code of type t in the given regime. tf32 words get random low bits (ignored).
inline uint32_t element(Rng& r, DType t, Regime g) {
  const FieldLayout f = layout(t);
  if (t == DType::S8 || t == DType::U8) return r.below(256);
  const uint32_t emax_field = (1u << f.exp_bits) - 1;
  const uint32_t mant = r.below(1u << f.mant_bits);
  const bool neg = r.chance(50);
  const uint32_t bias = (1u << (f.exp_bits - 1)) - 1;
  // finite exponent fields: 0 .. emax_field-1 for IEEE-style types (all-ones is Inf/NaN);
  // fp6/fp4 and e4m3 use all-ones for finite values too (e4m3 except mantissa 7).
  const bool ieee = t == DType::F32 || t == DType::TF32 || t == DType::BF16 ||
                    t == DType::F16 || t == DType::E5M2;
  const uint32_t top = ieee ? emax_field - 1 : emax_field;
  const auto finite = [&](uint32_t e, uint32_t m) {
    if (t == DType::E4M3 && e == 15 && m == 7) m = 6;
    return make(t, neg, e, m);
  };
  uint32_t low = t == DType::TF32 ? r.below(1u << 13) : 0;
  switch (g) {
    case Regime::Uniform: {
      const int bits = t == DType::TF32 || t == DType::F32 ? 32 : 1 + f.exp_bits + f.mant_bits;
      return bits == 32 ? static_cast<uint32_t>(r.next()) : r.below(1u << bits);
    }
    case Regime::Typical: {
      const uint32_t span = std::min<uint32_t>(top, 4);
      const uint32_t e = bias > span / 2 ? bias - span / 2 + r.below(span + 1) : r.below(top + 1);
      return finite(std::min(e, top), mant) | low;
    }
    case Regime::WideSpread: return finite(r.below(top + 1), mant) | low;
    case Regime::Subnormal: return finite(r.below(2), mant) | low;
    case Regime::Sparse:
      if (r.chance(70)) return make(t, neg, 0, 0) | low;
      return finite(std::min<uint32_t>(top, bias + r.below(3)), mant) | low;
    case Regime::Specials: {
      const uint32_t p = r.below(10);
      if (p == 0 && (ieee || t == DType::E4M3)) {  // NaN
        if (t == DType::E4M3) return make(t, neg, 15, 7);
        return make(t, neg, emax_field, 1 + r.below((1u << f.mant_bits) - 1)) | low;
      }
      if (p == 1 && ieee) return make(t, neg, emax_field, 0);  // Inf
      if (p == 2) return make(t, neg, 0, 0);                   // signed zero
      return finite(std::min<uint32_t>(top, bias + r.below(3)), mant) | low;
    }
    case Regime::Cancel:  // filled pairwise by the caller
    case Regime::kCount: break;
  }
  return finite(bias, mant);
}

struct Vectors {
  std::vector<uint32_t> a, b;
  uint32_t c = 0;
  std::vector<uint8_t> sa, sb;
};

// A whole input set for one output of a K-product MMA. dtype: C's type (F32, F16, S32).
inline Vectors vectors(Rng& r, DType at, DType bt, DType dtype, int k, Regime g, int blocks,
                       DType scale_t) {
  Vectors v;
  const Regime eg = g == Regime::Cancel ? Regime::Typical : g;
  for (int i = 0; i < k; ++i) {
    v.a.push_back(element(r, at, eg));
    v.b.push_back(element(r, bt, eg));
  }
  if (g == Regime::Cancel && at == bt) {
    // a_{2i+1}*b_{2i+1} = -a_{2i}*b_{2i}; then a few entries perturbed by tiny values
    const FieldLayout f = layout(at);
    const uint32_t sign = (1u << (f.exp_bits + f.mant_bits)) << f.shift;
    for (int i = 0; i + 1 < k; i += 2) {
      v.a[i + 1] = v.a[i] ^ sign;
      v.b[i + 1] = v.b[i];
    }
    for (int j = 0; j < 2 && k > 2; ++j) v.a[r.below(k)] = element(r, at, Regime::WideSpread);
  }
  if (dtype == DType::S32) {
    v.c = r.chance(30) ? (r.chance(50) ? 0x7fffff00u + r.below(256) : 0x80000000u + r.below(256))
                       : static_cast<uint32_t>(r.next());
  } else {
    const Regime cg = g == Regime::Cancel ? Regime::WideSpread : g;
    v.c = element(r, dtype, cg);
    if (dtype == DType::F16) v.c &= 0xffff;
    if (r.chance(10)) v.c = r.chance(50) ? 0 : (dtype == DType::F16 ? 0x8000u : 0x80000000u);
  }
  for (int i = 0; i < blocks; ++i) {
    const auto scale = [&]() -> uint8_t {
      if (scale_t == DType::UE8M0) {
        if (r.chance(3)) return 0xff;  // NaN
        if (g == Regime::WideSpread || g == Regime::Uniform) return static_cast<uint8_t>(r.below(256));
        return static_cast<uint8_t>(100 + r.below(56));
      }
      if (r.chance(3)) return 0x7f;   // NaN
      if (r.chance(5)) return 0x00;   // zero scale
      if (r.chance(3)) return static_cast<uint8_t>(0x80 | r.below(0x7f));  // MSB set (ignored)
      return static_cast<uint8_t>(r.below(0x7f));
    };
    v.sa.push_back(scale());
    v.sb.push_back(scale());
  }
  return v;
}

}  // namespace tcsim::models::mma::testing
