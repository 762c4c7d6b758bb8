// Floating-point helpers shared by the float families and cvt:
//  - HostRounding: runs host IEEE arithmetic in a directed rounding mode for one instruction.
//    x86-64 SSE arithmetic (add/sub/mul/div/sqrt, cvtsd2ss) and glibc's fma/fmaf are correctly
//    rounded in the current mode, so the host op computed under the mode IS the exactly rounded
//    result (tests/sim/float_rounding_test.cc checks this against Boost.Multiprecision). Files that
//    use it are compiled with -frounding-math, and `fp_barrier` keeps each op between the mode
//    switches. The mode is restored on scope exit; everything else runs in the default mode, which
//    the launch enforces (sim/launch.cc), so results never depend on the host's ambient FP state.
//  - round_pack: exact rounding of sign * mant * 2^exp to f32/f64 in a chosen mode (conversions).
//  - PTX special cases: NaN results, flush-to-zero, saturation to [0, 1].
#pragma once
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>

#include "isa/ptx/modifiers.h"

namespace tcsim::sim::fp {

enum class Rnd : uint8_t { RN, RZ, RM, RP };

inline Rnd from_ptx(isa::ptx::Rounding r) {
  switch (r) {
    case isa::ptx::Rounding::RZ: case isa::ptx::Rounding::RZI: return Rnd::RZ;
    case isa::ptx::Rounding::RM: case isa::ptx::Rounding::RMI: return Rnd::RM;
    case isa::ptx::Rounding::RP: case isa::ptx::Rounding::RPI: return Rnd::RP;
    default: return Rnd::RN;
  }
}

class HostRounding {
 public:
  explicit HostRounding(Rnd r) : active_(r != Rnd::RN) {
    if (!active_) return;
    saved_ = std::fegetround();
    std::fesetround(r == Rnd::RZ ? FE_TOWARDZERO : r == Rnd::RM ? FE_DOWNWARD : FE_UPWARD);
  }
  ~HostRounding() {
    if (active_) std::fesetround(saved_);
  }
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

 private:
  bool active_;
  int saved_ = FE_TONEAREST;
};

// Pins a value in a register at this point of the instruction stream: an arithmetic op whose
// inputs pass through fp_barrier after the mode switch and whose result passes through it before
// the restore cannot be moved outside the HostRounding scope.
template <class T>
inline void fp_barrier(T& v) {
  asm volatile("" : "+x"(v));
}

// NaN results, as the H200 produces them (kernels/basic goldens f32_rounding, f64_math, cvt_float;
// the PTX ISA leaves NaN bits unspecified):
//  - f32 arithmetic (add/sub/mul/fma/div/rcp/sqrt/min/max, abs, neg, cvt to f32 from f32/f64):
//    always the canonical NaN 0x7fffffff.
//  - f64 arithmetic: a NaN operand propagates — the first NaN operand in PTX operand order,
//    quieted (payload kept; sign kept: assumed, the goldens hold no negative f64 NaN inputs);
//    an invalid operation on non-NaN operands (0*inf, inf-inf, 0/0, sqrt(-x)) gives the default
//    NaN 0xfff8000000000000. abs/neg of a NaN quiet it and change no sign bit.
inline constexpr uint32_t kCanonicalNaN32 = 0x7fffffffu;
inline constexpr uint64_t kDefaultNaN64 = 0xfff8000000000000ull;
inline constexpr uint64_t kQuietBit64 = uint64_t{1} << 51;

inline bool is_nan64(uint64_t v) { return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

inline uint64_t canon(float f) { return std::isnan(f) ? kCanonicalNaN32 : std::bit_cast<uint32_t>(f); }

// The f64 result bits of an operation with operands a, b, c (raw bits; n = how many are
// operands) whose host result is r.
inline uint64_t result64(double r, int n, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  if (!std::isnan(r)) [[likely]]
    return std::bit_cast<uint64_t>(r);
  if (is_nan64(a)) return a | kQuietBit64;
  if (n > 1 && is_nan64(b)) return b | kQuietBit64;
  if (n > 2 && is_nan64(c)) return c | kQuietBit64;
  return kDefaultNaN64;
}

// f32 or f64 result bits (see above).
template <class T>
inline uint64_t result(T r, int n, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  if constexpr (sizeof(T) == 4) return canon(r);
  else return result64(r, n, a, b, c);
}

// Flush a subnormal to a zero of the same sign (.ftz, PTX ISA §9.7.3 "subnormal numbers").
inline float ftz(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }
inline double ftz(double d) { return std::fpclassify(d) == FP_SUBNORMAL ? std::copysign(0.0, d) : d; }

// .sat: clamp to [+0.0, 1.0]; NaN -> +0.0 (PTX ISA §9.7.3 "saturation").
template <class T>
inline T sat01(T v) {
  if (std::isnan(v)) return T(0);
  if (v <= T(0)) return T(0);  // also turns -0.0 into +0.0
  if (v > T(1)) return T(1);
  return v;
}

// Rounds (-1)^neg * mant * 2^exp (exact; mant may be 0) to the IEEE format with P significand bits
// (hidden bit included) and E exponent bits, in mode r; returns the bit pattern. `sticky` says the
// exact value has further nonzero bits below mant (only used to break ties/direct rounding).
template <int P, int E>
uint64_t round_pack(bool neg, uint64_t mant, int exp, Rnd r, bool sticky = false) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr int emin = 1 - bias;
  const uint64_t sign = neg ? uint64_t{1} << (P - 1 + E) : 0;
  if (mant == 0 && !sticky) return sign;
  if (mant == 0) {  // only sticky bits: a value below any representable magnitude
    mant = 1;
    exp -= 200;
    sticky = false;
  }
  const int lz = std::countl_zero(mant);
  mant <<= lz;
  exp -= lz;                 // value = mant * 2^exp, mant's bit 63 set
  const int e_msb = exp + 63;  // unbiased exponent of the leading bit
  int keep = P;                // significand bits kept (fewer when subnormal)
  if (e_msb < emin) keep = P - (emin - e_msb);
  uint64_t q;
  bool half_bit, below;
  if (keep <= 0) {
    q = 0;
    half_bit = keep == 0 && (mant >> 63);  // the leading bit is exactly the rounding bit
    below = keep == 0 ? ((mant << 1) != 0 || sticky) : true;
  } else {
    const int shift = 64 - keep;
    q = shift == 64 ? 0 : mant >> shift;
    const uint64_t rem = shift == 0 ? 0 : (shift == 64 ? mant : mant & ((uint64_t{1} << shift) - 1));
    half_bit = shift > 0 && (rem >> (shift - 1) & 1);
    below = shift > 0 && ((rem & ((uint64_t{1} << (shift - 1)) - 1)) != 0 || sticky);
  }
  const bool inexact = half_bit || below;
  bool up = false;
  switch (r) {
    case Rnd::RN: up = half_bit && (below || (q & 1)); break;
    case Rnd::RZ: up = false; break;
    case Rnd::RM: up = neg && inexact; break;
    case Rnd::RP: up = !neg && inexact; break;
  }
  q += up;
  // Compose: the hidden bit of a normal q adds one to the biased exponent field.
  const int biased_minus1 = keep >= P ? e_msb + bias - 1 : 0;
  uint64_t bits = (static_cast<uint64_t>(biased_minus1) << (P - 1)) + q;
  const uint64_t inf = uint64_t{(1u << E) - 1} << (P - 1);
  if (bits >= inf) {  // overflow
    const bool to_inf = r == Rnd::RN || (r == Rnd::RP && !neg) || (r == Rnd::RM && neg);
    bits = to_inf ? inf : inf - 1;
  }
  return sign | bits;
}

inline uint32_t round_to_f32(bool neg, uint64_t mant, int exp, Rnd r, bool sticky = false) {
  return static_cast<uint32_t>(round_pack<24, 8>(neg, mant, exp, r, sticky));
}
inline uint64_t round_to_f64(bool neg, uint64_t mant, int exp, Rnd r, bool sticky = false) {
  return round_pack<53, 11>(neg, mant, exp, r, sticky);
}

// Exact decomposition of a finite double: d = (-1)^neg * mant * 2^exp.
inline void decompose(double d, bool* neg, uint64_t* mant, int* exp) {
  const uint64_t b = std::bit_cast<uint64_t>(d);
  *neg = b >> 63;
  const int be = static_cast<int>(b >> 52 & 0x7ff);
  const uint64_t frac = b & ((uint64_t{1} << 52) - 1);
  if (be == 0) {
    *mant = frac;
    *exp = -1074;
  } else {
    *mant = frac | (uint64_t{1} << 52);
    *exp = be - 1075;
  }
}

}  // namespace tcsim::sim::fp
