// Counter-based random operands for the differential runs: every value is a pure function of
// (seed, combination, tile, element), so any mismatch can be regenerated from its printed
// coordinates. Regimes stress one part of the datapath each.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "isa/dtype.h"

namespace probes {

using tcsim::isa::DType;

inline uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// splitmix64 over a counter: draw(i) is independent of every other draw.
struct Stream {
  uint64_t key;
  uint64_t ctr = 0;
  uint64_t next() { return mix(key + 0x9e3779b97f4a7c15ull * ++ctr); }
  uint32_t below(uint32_t n) {  // multiply-shift: no division
    return static_cast<uint32_t>(((next() & 0xffffffffull) * n) >> 32);
  }
  bool chance(uint32_t pct) { return below(100) < pct; }
};

enum Regime : int {
  kUniform,     // every bit pattern (specials included)
  kTypical,     // finite, exponents within a few binades of 1
  kWide,        // finite, any exponent (subnormals included)
  kCancel,      // products cancel in pairs, plus a few stray terms
  kSubnormal,   // exponent fields 0 and 1
  kSparse,      // mostly signed zeros (zero-operand and C=0 rules)
  kSpecials,    // NaN / Inf / -0 sprinkled into typical values
  kMixed,       // each element from a random regime
  kRegimes
};
inline const char* regime_name(int r) {
  static const char* n[] = {"uniform", "typical", "wide", "cancel", "subnormal", "sparse",
                            "specials", "mixed"};
  return n[r];
}

struct Layout {
  int eb, mb, shift;  // exponent bits, mantissa bits, position of the code in the word (tf32)
};
inline Layout layout(DType t) {
  switch (t) {
    case DType::F32: return {8, 23, 0};
    case DType::TF32: return {8, 10, 13};
    case DType::BF16: return {8, 7, 0};
    case DType::F16: return {5, 10, 0};
    case DType::E4M3: return {4, 3, 0};
    case DType::E5M2: return {5, 2, 0};
    case DType::E2M3: return {2, 3, 0};
    case DType::E3M2: return {3, 2, 0};
    case DType::E2M1: return {2, 1, 0};
    default: return {0, 7, 0};
  }
}

inline uint32_t element(Stream& r, DType t, int regime) {
  if (regime == kMixed) regime = static_cast<int>(r.below(kMixed));
  if (t == DType::S8 || t == DType::U8) {
    if (regime == kSparse && r.chance(70)) return 0;
    if (regime == kWide || regime == kSpecials) {  // extremes: 0x80, 0x7f, 0xff, 0x00, 0x01
      static const uint32_t ext[] = {0x80, 0x7f, 0xff, 0x00, 0x01, 0x81, 0xfe};
      return ext[r.below(7)];
    }
    return r.below(256);
  }
  const Layout L = layout(t);
  const uint32_t all1 = (1u << L.eb) - 1, bias = (1u << (L.eb - 1)) - 1;
  // types whose all-ones exponent is Inf/NaN (e4m3: only S.1111.111 is NaN; fp6/fp4: none)
  const bool ieee = t == DType::F32 || t == DType::TF32 || t == DType::BF16 || t == DType::F16 ||
                    t == DType::E5M2;
  const bool has_nan = ieee || t == DType::E4M3;
  const uint32_t top = ieee ? all1 - 1 : all1;
  const bool neg = r.chance(50);
  uint32_t m = r.below(1u << L.mb);
  const uint32_t low = t == DType::TF32 ? r.below(1u << 13) : 0;  // ignored by the MMA
  const auto make = [&](uint32_t e, uint32_t mm) {
    if (t == DType::E4M3 && e == 15 && mm == 7) mm = 6;
    return (((neg ? 1u : 0u) << (L.eb + L.mb)) | (e << L.mb) | mm) << L.shift | low;
  };
  switch (regime) {
    case kUniform: {
      const int bits = 1 + L.eb + L.mb + L.shift;
      return bits >= 32 ? static_cast<uint32_t>(r.next()) : r.below(1u << bits);
    }
    case kWide: return make(r.below(top + 1), m);
    case kSubnormal: return make(r.below(2), m);
    case kSparse:
      if (r.chance(70)) return make(0, 0);
      return make(std::min(top, bias + r.below(3)), m);
    case kSpecials: {
      const uint32_t p = r.below(12);
      if (p == 0 && has_nan)  // NaN (e4m3: only S.1111.111)
        return t == DType::E4M3 ? (neg ? 0xffu : 0x7fu) : make(all1, 1 + r.below((1u << L.mb) - 1));
      if (p == 1 && ieee) return make(all1, 0);
      if (p == 2) return make(0, 0);
      [[fallthrough]];
    }
    default: {  // typical (also the base of cancel)
      const uint32_t span = std::min<uint32_t>(top, 6);
      const uint32_t e = bias >= span / 2 ? bias - span / 2 + r.below(span + 1) : r.below(top + 1);
      return make(std::min(e, top), m);
    }
  }
}

// C / D-typed value (f32 word, f16 code, s32).
inline uint32_t c_value(Stream& r, DType dt, int regime) {
  if (dt == DType::S32) {
    if (regime == kWide || regime == kSpecials || r.chance(10))
      return r.chance(50) ? 0x7fffff00u + r.below(256) : 0x80000000u + r.below(256);
    return static_cast<uint32_t>(r.next());
  }
  if (regime == kSparse || r.chance(5)) return r.chance(50) ? 0 : (dt == DType::F16 ? 0x8000u : 0x80000000u);
  return element(r, dt, regime) & (dt == DType::F16 ? 0xffffu : 0xffffffffu);
}

// One tile's inputs: A M x K row-major, B N x K (column-major K x N), C M x N.
inline void tile_inputs(uint64_t seed, int combo, uint64_t tile, int regime, DType at, DType bt,
                        DType dt, int M, int N, int K, uint32_t* A, uint32_t* B, uint32_t* C) {
  Stream r{mix(seed ^ (uint64_t(combo) << 40) ^ tile)};
  const int eg = regime == kCancel ? kTypical : regime;
  for (int i = 0; i < M * K; ++i) A[i] = element(r, at, eg);
  for (int i = 0; i < N * K; ++i) B[i] = element(r, bt, eg);
  if (regime == kCancel && at == bt) {
    const Layout L = layout(at);
    const uint32_t sign = (at == DType::S8) ? 0 : (1u << (L.eb + L.mb)) << L.shift;
    for (int i = 0; i < M; ++i)
      for (int k = 0; k + 1 < K; k += 2)
        A[i * K + k + 1] = at == DType::S8 ? (0u - A[i * K + k]) & 0xffu : A[i * K + k] ^ sign;
    for (int j = 0; j < N; ++j)
      for (int k = 0; k + 1 < K; k += 2) B[j * K + k + 1] = B[j * K + k];
    for (int s = 0; s < 2 * M; ++s) A[r.below(M * K)] = element(r, at, kWide);
  }
  for (int i = 0; i < M * N; ++i) C[i] = c_value(r, dt, regime == kCancel ? kWide : regime);
}

}  // namespace probes
