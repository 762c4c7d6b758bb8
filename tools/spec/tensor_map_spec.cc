#include "tools/spec/tensor_map_spec.h"

namespace tcsim::spec {

std::string_view tm_dtype_name(TmDataType t) { return isa::tensor_map_dtype_name(t); }
std::optional<TmDataType> parse_tm_dtype(std::string_view s) { return isa::parse_tensor_map_dtype(s); }

std::string legal_tm_dtypes() {
  std::string r;
  for (int i = 0; i <= static_cast<int>(TmDataType::U6x16Align16B); ++i)
    r += std::string(isa::tensor_map_dtype_name(static_cast<TmDataType>(i))) + ' ';
  // isa's aliases (LAUNCH_SPEC.md buffer types of the same element size).
  return r + "(and, moved as bytes: i8 e4m3 e5m2 e2m3 e3m2 e2m1x2 ue8m0 ue4m3 i16)";
}

uint64_t tm_dim0_bytes(TmDataType t, uint64_t n) {
  return (n * static_cast<uint64_t>(isa::tensor_map_global_bits(t)) + 7) / 8;
}

std::string_view tm_interleave_name(TmInterleave v) { return isa::tensor_map_interleave_name(v); }
std::optional<TmInterleave> parse_tm_interleave(std::string_view s) { return isa::parse_tensor_map_interleave(s); }
std::string_view tm_swizzle_name(TmSwizzle v) { return isa::tensor_map_swizzle_name(v); }
std::optional<TmSwizzle> parse_tm_swizzle(std::string_view s) { return isa::parse_tensor_map_swizzle(s); }
std::string_view tm_l2_promotion_name(TmL2Promotion v) { return isa::tensor_map_l2_promotion_name(v); }
std::optional<TmL2Promotion> parse_tm_l2_promotion(std::string_view s) { return isa::parse_tensor_map_l2_promotion(s); }
std::string_view tm_oob_fill_name(TmOobFill v) { return isa::tensor_map_oob_fill_name(v); }
std::optional<TmOobFill> parse_tm_oob_fill(std::string_view s) { return isa::parse_tensor_map_oob_fill(s); }

}  // namespace tcsim::spec
