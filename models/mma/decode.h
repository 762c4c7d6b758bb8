// Operand decoding for the MMA fast path: element code -> (class, sign, nominal exponent,
// integer significand), exactly as models/formats' unpack() defines it, but table-driven for the
// narrow formats (one 256-entry table per format) and branch-light for the IEEE-style ones, so a
// tile of operands decodes in a few cycles per element. The zero-operand rule of the datapath
// (docs/mma_numerics.md §3, probe Q20) is folded into the exponent a zero gets here, so the
// accumulation loop needs no special case for zeros. Std-only (nvcc compiles it).
#pragma once
#include <array>
#include <cstdint>

#include "models/formats/format.h"
#include "models/mma/numerics.h"

namespace tcsim::models::mma {

// value = (neg ? -1 : 1) * sig * 2^(exp - frac_bits), frac_bits fixed per format.
struct Elem {
  int32_t exp;  // nominal (unbiased, clamped to emin for subnormals); the zero rule's value for zeros
  int32_t sig;  // magnitude, hidden bit included
  uint8_t cls;  // FpClass
  uint8_t neg;  // sign bit (also for zeros and infinities)
};

class Decoder {
 public:
  Decoder() = default;
  // `zero_exp` is the exponent a zero gets (kSkipExp: none). Integer types s8/u8 decode to their
  // value (exp 0, frac_bits 0).
  Decoder(DType t, int zero_exp);
  // e4m3 / e5m2 codes decoded as the f16 values F2FP.F16.E4M3/E5M2 converts them to (exact:
  // every fp8 value is an f16 value): f16 nominal exponents (an e4m3 subnormal is a normal f16),
  // 10 fraction bits, emin -14. The operands of the emulated mma.sync fp8 (Structure::F16Halves).
  static Decoder fp8_as_f16(DType t, int zero_exp);

  Elem operator()(uint32_t code) const {
    switch (kind_) {
      case Kind::Table: return table_[code & 0xff];
      case Kind::F32: return ieee(code, 8, 23, 127);
      case Kind::TF32: return ieee(code >> 13, 8, 10, 127);  // bits 12..0 ignored (PTX §9.7.15.5.2)
      case Kind::BF16: return ieee(code & 0xffff, 8, 7, 127);
      case Kind::F16: return ieee(code & 0xffff, 5, 10, 15);
    }
    return {};
  }
  DType type() const { return type_; }
  int frac_bits() const { return frac_bits_; }
  int emin() const { return emin_; }

 private:
  enum class Kind : uint8_t { Table, F32, TF32, BF16, F16 };
  Elem ieee(uint32_t code, int eb, int mb, int bias) const {
    const uint32_t mant = code & ((1u << mb) - 1);
    const uint32_t e = (code >> mb) & ((1u << eb) - 1);
    const uint8_t neg = (code >> (eb + mb)) & 1;
    if (e == (1u << eb) - 1)
      return {0, 0, static_cast<uint8_t>(mant ? FpClass::NaN : FpClass::Inf), neg};
    if (e == 0) {
      if (mant == 0) return {zero_exp_, 0, static_cast<uint8_t>(FpClass::Zero), neg};
      return {1 - bias, static_cast<int32_t>(mant), static_cast<uint8_t>(FpClass::Subnormal), neg};
    }
    return {static_cast<int32_t>(e) - bias, static_cast<int32_t>(mant | (1u << mb)),
            static_cast<uint8_t>(FpClass::Normal), neg};
  }

  Kind kind_ = Kind::Table;
  DType type_ = DType::F32;
  int frac_bits_ = 0;
  int emin_ = 0;
  int zero_exp_ = kSkipExp;
  std::array<Elem, 256> table_{};
};

// The exponent a zero A/B operand of format t gets under the datapath's zero rule.
int zero_operand_exp(const Numerics& n, DType t);

}  // namespace tcsim::models::mma
