// Element types that PTX instructions, descriptors and launch specs name.
// The arithmetic of each type lives in models/formats; this is only the vocabulary.
#pragma once
#include <optional>
#include <string_view>

namespace tcsim::isa {

enum class DType {
  F64, F32, TF32, F16, BF16,
  E4M3, E5M2,          // fp8 (e4m3 is OCP E4M3FN: no inf)
  E2M3, E3M2,          // fp6
  E2M1,                // fp4
  UE8M0, UE4M3,        // block-scale factor types
  S8, U8, S16, U16, S32, U32, S64, U64,
};

struct DTypeInfo {
  DType type;
  std::string_view name;  // spelling used on the command line, in JSON and in launch specs
  int bits;               // storage width of one element (fp6: 6, fp4: 4)
  bool is_float;
};

inline constexpr DTypeInfo kDTypes[] = {
    {DType::F64, "f64", 64, true},    {DType::F32, "f32", 32, true},
    {DType::TF32, "tf32", 32, true},  {DType::F16, "f16", 16, true},
    {DType::BF16, "bf16", 16, true},  {DType::E4M3, "e4m3", 8, true},
    {DType::E5M2, "e5m2", 8, true},   {DType::E2M3, "e2m3", 6, true},
    {DType::E3M2, "e3m2", 6, true},   {DType::E2M1, "e2m1", 4, true},
    {DType::UE8M0, "ue8m0", 8, true}, {DType::UE4M3, "ue4m3", 8, true},
    {DType::S8, "s8", 8, false},      {DType::U8, "u8", 8, false},
    {DType::S16, "s16", 16, false},   {DType::U16, "u16", 16, false},
    {DType::S32, "s32", 32, false},   {DType::U32, "u32", 32, false},
    {DType::S64, "s64", 64, false},   {DType::U64, "u64", 64, false},
};

constexpr const DTypeInfo& dtype_info(DType t) {
  for (const auto& i : kDTypes)
    if (i.type == t) return i;
  return kDTypes[0];  // unreachable: every enumerator has a row
}
constexpr std::string_view dtype_name(DType t) { return dtype_info(t).name; }
constexpr int dtype_bits(DType t) { return dtype_info(t).bits; }

constexpr std::optional<DType> parse_dtype(std::string_view s) {
  for (const auto& i : kDTypes)
    if (i.name == s) return i.type;
  return std::nullopt;
}

}  // namespace tcsim::isa
