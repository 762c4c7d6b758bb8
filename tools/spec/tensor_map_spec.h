// A launch spec's `tensor_maps` entry: exactly the arguments of cuTensorMapEncodeTiled (CUDA
// Driver API "Tensor Map Object Management"; docs/tma_and_mbarrier.md §1), named as in the JSON.
// The vocabulary (enums with cuda.h's values, JSON names, aliases) is isa's
// (isa/descriptors/tensor_map.h); tools/tcsim-hw checks the values against cuda.h with
// static_asserts. The driver's validity rules live in isa (validate_tensor_map, used through
// tensor_map_encode.h) and, on hardware, in the driver itself.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/descriptors/tensor_map.h"

namespace tcsim::spec {

// The enums are isa's (isa/descriptors/tensor_map.h): cuda.h's CUtensorMap* enums, values included.
using TmDataType = isa::TensorMapDataType;
using TmInterleave = isa::TensorMapInterleave;
using TmSwizzle = isa::TensorMapSwizzle;
using TmL2Promotion = isa::TensorMapL2Promotion;
using TmOobFill = isa::TensorMapOobFill;

struct TensorMapSpec {
  std::string name;
  std::string buffer;         // the buffer whose device address is globalAddress
  uint64_t offset_bytes = 0;  // globalAddress = buffer address + offset_bytes (tcsim extension)
  TmDataType dtype = TmDataType::UInt8;
  std::vector<uint64_t> global_dims;          // rank values, innermost first
  std::vector<uint64_t> global_strides_bytes; // rank-1 values: the byte strides of dims 1..rank-1
  std::vector<uint32_t> box_dims;             // rank values
  std::vector<uint32_t> element_strides;      // rank values (default all 1)
  TmInterleave interleave = TmInterleave::None;
  TmSwizzle swizzle = TmSwizzle::None;
  TmL2Promotion l2_promotion = TmL2Promotion::None;
  TmOobFill oob_fill = TmOobFill::None;

  uint32_t rank() const { return static_cast<uint32_t>(global_dims.size()); }
};

// Names as the JSON spells them (isa's tables); parse_* return nullopt for an unknown name.
std::string_view tm_dtype_name(TmDataType t);
std::optional<TmDataType> parse_tm_dtype(std::string_view s);  // also accepts byte-type aliases
std::string legal_tm_dtypes();
// Bytes that `n` elements along dimension 0 occupy in global memory (packed types: 4 or 6 bits each).
uint64_t tm_dim0_bytes(TmDataType t, uint64_t n);

std::string_view tm_interleave_name(TmInterleave v);
std::optional<TmInterleave> parse_tm_interleave(std::string_view s);
std::string_view tm_swizzle_name(TmSwizzle v);
std::optional<TmSwizzle> parse_tm_swizzle(std::string_view s);
std::string_view tm_l2_promotion_name(TmL2Promotion v);
std::optional<TmL2Promotion> parse_tm_l2_promotion(std::string_view s);
std::string_view tm_oob_fill_name(TmOobFill v);
std::optional<TmOobFill> parse_tm_oob_fill(std::string_view s);

}  // namespace tcsim::spec
