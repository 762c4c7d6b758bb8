// The element types a launch spec names for buffers, symbols and outputs (LAUNCH_SPEC.md
// "buffers"), with how each is stored in device memory and in a .npy file.
//
// Storage (LAUNCH_SPEC.md "Output directory"): integers and f16/f32/f64 as themselves, bf16 as
// `<u2` raw bits, every 8-bit float type, ue8m0/ue4m3, the 6-bit types and e2m1x2 as `|u1` raw bits
// (the 6-bit types occupy one byte each, value in bits 5..0; ue4m3 is 7 bits with the byte's MSB
// zero, PTX ISA §5.2.3; e2m1x2 is two fp4 values in one byte, low nibble first).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/dtype.h"

namespace tcsim::spec {

enum class ElemKind : uint8_t {
  SignedInt,
  UnsignedInt,
  Float,    // one value of a models/formats format per element
  Fp4x2,    // two e2m1 values per byte, low nibble first
};

//  X(ident, spec name, bytes, npy descr, kind, models/isa format, value bits)
//  value bits: the bits of an element that carry a value ("bits" random draws are masked to it).
#define TCSIM_SPEC_DTYPES(X)                                              \
  X(I8,     "i8",     1, "|i1", SignedInt,   S8,    8)                    \
  X(U8,     "u8",     1, "|u1", UnsignedInt, U8,    8)                    \
  X(I16,    "i16",    2, "<i2", SignedInt,   S16,   16)                   \
  X(U16,    "u16",    2, "<u2", UnsignedInt, U16,   16)                   \
  X(I32,    "i32",    4, "<i4", SignedInt,   S32,   32)                   \
  X(U32,    "u32",    4, "<u4", UnsignedInt, U32,   32)                   \
  X(I64,    "i64",    8, "<i8", SignedInt,   S64,   64)                   \
  X(U64,    "u64",    8, "<u8", UnsignedInt, U64,   64)                   \
  X(F16,    "f16",    2, "<f2", Float,       F16,   16)                   \
  X(BF16,   "bf16",   2, "<u2", Float,       BF16,  16)                   \
  X(F32,    "f32",    4, "<f4", Float,       F32,   32)                   \
  X(F64,    "f64",    8, "<f8", Float,       F64,   64)                   \
  X(E4M3,   "e4m3",   1, "|u1", Float,       E4M3,  8)                    \
  X(E5M2,   "e5m2",   1, "|u1", Float,       E5M2,  8)                    \
  X(E2M3,   "e2m3",   1, "|u1", Float,       E2M3,  6)                    \
  X(E3M2,   "e3m2",   1, "|u1", Float,       E3M2,  6)                    \
  X(E2M1X2, "e2m1x2", 1, "|u1", Fp4x2,       E2M1,  8)                    \
  X(UE8M0,  "ue8m0",  1, "|u1", Float,       UE8M0, 8)                    \
  X(UE4M3,  "ue4m3",  1, "|u1", Float,       UE4M3, 7)

enum class SpecDType : uint8_t {
#define TCSIM_X(id, name, bytes, descr, kind, fmt, bits) id,
  TCSIM_SPEC_DTYPES(TCSIM_X)
#undef TCSIM_X
};

struct SpecDTypeInfo {
  SpecDType type;
  std::string_view name;
  uint32_t bytes;              // bytes per element in memory and in the .npy file
  std::string_view npy_descr;  // .npy storage type
  ElemKind kind;
  isa::DType format;           // the value format (e2m1x2: E2M1, the format of each nibble)
  int value_bits;
};

inline constexpr SpecDTypeInfo kSpecDTypes[] = {
#define TCSIM_X(id, name, bytes, descr, kind, fmt, bits) \
  {SpecDType::id, name, bytes, descr, ElemKind::kind, isa::DType::fmt, bits},
    TCSIM_SPEC_DTYPES(TCSIM_X)
#undef TCSIM_X
};

constexpr const SpecDTypeInfo& info(SpecDType t) { return kSpecDTypes[static_cast<int>(t)]; }
constexpr std::string_view name(SpecDType t) { return info(t).name; }
constexpr uint32_t elem_bytes(SpecDType t) { return info(t).bytes; }
constexpr bool is_integer(SpecDType t) {
  return info(t).kind == ElemKind::SignedInt || info(t).kind == ElemKind::UnsignedInt;
}

std::optional<SpecDType> parse_spec_dtype(std::string_view s);
std::string legal_spec_dtypes();  // "i8 u8 ... ue4m3", for error messages

}  // namespace tcsim::spec
