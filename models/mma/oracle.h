// The exact oracle of the MMA arithmetic (Boost.Multiprecision), written independently of the
// fast path (engine.h): it decodes through models/formats' unpack(), keeps every value as an
// arbitrary-precision dyadic m * 2^e, and rounds with its own code. It gives, for one output:
//   * exact():       the true value of sum_k a_k*b_k*(scales) + C, no rounding at all;
//   * exact_rounded: that value rounded once to D's format (what an ideal unit would return);
//   * model():       the datapath of the parameter row, step by step (per group: maxE, every
//                    truncated term, the integer sum, the rounding), with a printable trace.
// Tests compare the engine with model() on every case ("the engine has a bug" if they differ)
// and model() with exact_rounded ("the model differs from exact": expected, and by how much).
// Only tests and tools include this header (it pulls in Boost.Multiprecision).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <boost/multiprecision/cpp_int.hpp>

#include "models/mma/dot_shape.h"

namespace tcsim::models::mma::oracle {

using BigInt = boost::multiprecision::cpp_int;

// m * 2^e (m == 0 for zero).
struct Dyadic {
  BigInt m;
  int e = 0;
};

enum class Special : uint8_t { None, NaN, PosInf, NegInf };

struct ExactValue {
  Special special = Special::None;
  Dyadic value;  // when special == None
};

struct Inputs {
  const uint32_t* a;
  const uint32_t* b;
  uint32_t c;
  const uint8_t* sa = nullptr;
  const uint8_t* sb = nullptr;
};

ExactValue exact(const DotShape& s, const Inputs& in);

// The exact value rounded once to D's format with the row's final rounding mode.
uint32_t exact_rounded(const DotShape& s, const Inputs& in);

// The datapath model of s.num, step by step. `trace`, if given, receives one line per step.
uint32_t model(const DotShape& s, const Inputs& in, std::vector<std::string>* trace = nullptr);

// Rounds a nonzero dyadic to an IEEE-style format keeping `frac` fraction bits (f32: 23 or 13,
// f16: 10), emin/emax/bias of the stored format; overflow gives Inf for RZ and RN alike.
uint32_t round_dyadic(const Dyadic& v, int frac, int mant_bits, int exp_bits, int bias, Round mode);

}  // namespace tcsim::models::mma::oracle
