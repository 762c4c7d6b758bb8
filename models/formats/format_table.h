// The format descriptions as one constexpr table, indexed by DType, shared by the decoder
// (format.cc) and the encoder (encode.cc). Internal to models/formats.
//
// Sources: IEEE 754 (f64/f32/f16), bf16 = f32's top half, tf32 = f32 word read with 10 fraction
// bits (PTX ISA §5.2.3 / §9.7.15.5.2 "truncate lower 13 bits"), and PTX ISA §5.2.3 for the
// alternate formats: e4m3 (no inf, NaN = S.1111.111), e5m2 (IEEE-like), e2m3/e3m2/e2m1 (no inf,
// no NaN), ue8m0 (exponent only, 0xff NaN, no zero), ue4m3 (7 bits, 0x7f NaN).
#pragma once
#include <cstddef>

#include "models/formats/format.h"

namespace tcsim::models::detail {

//                 type         e   m  bias  sign   inf    ieeeNaN nan   zero   subn   bits
inline constexpr FormatSpec kSpecs[] = {
    {DType::F64,   11, 52, 1023, true,  true,  true,  -1,   true,  true,  64},
    {DType::F32,    8, 23, 127,  true,  true,  true,  -1,   true,  true,  32},
    {DType::TF32,   8, 10, 127,  true,  true,  true,  -1,   true,  true,  32},
    {DType::F16,    5, 10, 15,   true,  true,  true,  -1,   true,  true,  16},
    {DType::BF16,   8,  7, 127,  true,  true,  true,  -1,   true,  true,  16},
    {DType::E4M3,   4,  3, 7,    true,  false, false, 0x7f, true,  true,  8},
    {DType::E5M2,   5,  2, 15,   true,  true,  true,  -1,   true,  true,  8},
    {DType::E2M3,   2,  3, 1,    true,  false, false, -1,   true,  true,  6},
    {DType::E3M2,   3,  2, 3,    true,  false, false, -1,   true,  true,  6},
    {DType::E2M1,   2,  1, 1,    true,  false, false, -1,   true,  true,  4},
    {DType::UE8M0,  8,  0, 127,  false, false, false, 0xff, false, false, 8},
    {DType::UE4M3,  4,  3, 7,    false, false, false, 0x7f, true,  true,  8},
};
inline constexpr std::size_t kNumFloatFormats = sizeof(kSpecs) / sizeof(kSpecs[0]);

// The table is indexed by the DType enumerator (the float types come first in isa/dtype.h).
constexpr bool specs_indexed_by_dtype() {
  for (std::size_t i = 0; i < kNumFloatFormats; ++i)
    if (static_cast<std::size_t>(kSpecs[i].type) != i) return false;
  return true;
}
static_assert(specs_indexed_by_dtype(), "kSpecs rows must follow the DType enumerator order");

constexpr bool is_float_format(DType t) { return static_cast<std::size_t>(t) < kNumFloatFormats; }

}  // namespace tcsim::models::detail
