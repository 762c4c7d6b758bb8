// tcgen05.mma / wgmma / mma.sync "kinds" (PTX ISA §9.7.16.10 ".kind").
#pragma once
#include <optional>
#include <string_view>

namespace tcsim::isa {

enum class MmaKind { F16, TF32, F8F6F4, I8, MXF8F6F4, MXF4, MXF4NVF4 };

inline constexpr struct {
  MmaKind kind;
  std::string_view name;
} kMmaKinds[] = {
    {MmaKind::F16, "f16"},           {MmaKind::TF32, "tf32"},  {MmaKind::F8F6F4, "f8f6f4"},
    {MmaKind::I8, "i8"},             {MmaKind::MXF8F6F4, "mxf8f6f4"},
    {MmaKind::MXF4, "mxf4"},         {MmaKind::MXF4NVF4, "mxf4nvf4"},
};

constexpr std::string_view kind_name(MmaKind k) {
  for (const auto& e : kMmaKinds)
    if (e.kind == k) return e.name;
  return "?";
}
constexpr std::optional<MmaKind> parse_kind(std::string_view s) {
  for (const auto& e : kMmaKinds)
    if (e.name == s) return e.kind;
  return std::nullopt;
}
constexpr bool is_block_scaled(MmaKind k) {
  return k == MmaKind::MXF8F6F4 || k == MmaKind::MXF4 || k == MmaKind::MXF4NVF4;
}

}  // namespace tcsim::isa
