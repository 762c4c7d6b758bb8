// PTX types as an enum generated from types.def (PTX ISA §5.2), with width and kind queries.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace tcsim::isa::ptx {

enum class TypeKind : uint8_t { Bit, Unsigned, Signed, Float, Pred };

enum class Type : uint8_t {
  None,
#define PTX_TYPE(id, sp, bits, kind) id,
#include "isa/ptx/types.def"
#undef PTX_TYPE
};

struct TypeInfo {
  Type type;
  std::string_view name;  // without the leading '.'
  uint16_t bits;
  TypeKind kind;
};

inline constexpr TypeInfo kTypeInfo[] = {
    {Type::None, "", 0, TypeKind::Bit},
#define PTX_TYPE(id, sp, bits, kind) {Type::id, sp, bits, TypeKind::kind},
#include "isa/ptx/types.def"
#undef PTX_TYPE
};

constexpr const TypeInfo& type_info(Type t) { return kTypeInfo[static_cast<int>(t)]; }
constexpr std::string_view type_name(Type t) { return type_info(t).name; }
constexpr int type_bits(Type t) { return type_info(t).bits; }
constexpr TypeKind type_kind(Type t) { return type_info(t).kind; }
constexpr bool is_float(Type t) { return type_kind(t) == TypeKind::Float; }
constexpr bool is_signed(Type t) { return type_kind(t) == TypeKind::Signed; }
constexpr bool is_integer(Type t) {
  return type_kind(t) == TypeKind::Bit || type_kind(t) == TypeKind::Unsigned ||
         type_kind(t) == TypeKind::Signed;
}
// Half-precision family (PTX ISA §9.7.4): scalars and packed pairs of f16/bf16.
constexpr bool is_half(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2;
}

std::optional<Type> parse_type(std::string_view name_without_dot);

}  // namespace tcsim::isa::ptx
