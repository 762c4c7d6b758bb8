#include "models/mma/decode.h"

#include <stdexcept>
#include <string>

namespace tcsim::models::mma {

int zero_operand_exp(const Numerics& n, DType t) {
  switch (n.zero_operand) {
    case ZeroExp::Skip: return kSkipExp;
    case ZeroExp::Fixed: return n.zero_operand_exp;
    case ZeroExp::FormatEmin: return format_spec(t).emin();
  }
  return kSkipExp;
}

Decoder::Decoder(DType t, int zero_exp) : type_(t), zero_exp_(zero_exp) {
  switch (t) {
    case DType::F32: kind_ = Kind::F32; frac_bits_ = 23; emin_ = -126; return;
    case DType::TF32: kind_ = Kind::TF32; frac_bits_ = 10; emin_ = -126; return;
    case DType::BF16: kind_ = Kind::BF16; frac_bits_ = 7; emin_ = -126; return;
    case DType::F16: kind_ = Kind::F16; frac_bits_ = 10; emin_ = -14; return;
    case DType::S8:
    case DType::U8:
      kind_ = Kind::Table;
      for (uint32_t c = 0; c < 256; ++c) {
        const int v = t == DType::S8 ? static_cast<int8_t>(c) : static_cast<int>(c);
        const int mag = v < 0 ? -v : v;
        table_[c] = {0, mag, static_cast<uint8_t>(v ? FpClass::Normal : FpClass::Zero),
                     static_cast<uint8_t>(v < 0)};
      }
      return;
    case DType::E4M3:
    case DType::E5M2:
    case DType::E2M3:
    case DType::E3M2:
    case DType::E2M1:
    case DType::UE8M0:
    case DType::UE4M3: {
      // The table is filled from unpack(), the exact decode of models/formats: one definition
      // of every format, and the fast path cannot drift from it.
      kind_ = Kind::Table;
      const FormatSpec& f = format_spec(t);
      frac_bits_ = f.mant_bits;
      emin_ = f.has_zero ? f.emin() : -f.bias;
      for (uint32_t c = 0; c < 256; ++c) {
        const Unpacked u = unpack(t, c);
        Elem e{u.exp, static_cast<int32_t>(u.sig), static_cast<uint8_t>(u.cls),
               static_cast<uint8_t>(u.neg)};
        if (u.cls == FpClass::Zero) e.exp = zero_exp;
        if (u.cls == FpClass::NaN || u.cls == FpClass::Inf) e.exp = e.sig = 0;
        table_[c] = e;
      }
      return;
    }
    default:
      throw std::invalid_argument("no MMA operand decoder for type " +
                                  std::string(isa::dtype_name(t)));
  }
}

}  // namespace tcsim::models::mma
