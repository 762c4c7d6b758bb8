// A launch spec's `tensor_maps` entry: exactly the arguments of cuTensorMapEncodeTiled (CUDA
// Driver API "Tensor Map Object Management"; ref/tma-mbarrier.md §3.2), named as in the JSON.
// The enumerators keep cuda.h's numeric values (CUtensorMapDataType, CUtensorMapInterleave,
// CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill) so the hardware runner can
// cast them; tools/tcsim-hw checks that with static_asserts against cuda.h.
//
// This file only names and parses the values; the driver's validity rules live in
// isa/descriptors (validate_tensor_map) and, on hardware, in the driver itself.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcsim::spec {

//  X(ident, JSON name, cuda.h value, bytes per element (0: packed sub-byte type))
#define TCSIM_TM_DTYPES(X)                       \
  X(UInt8,         "u8",            0,  1)       \
  X(UInt16,        "u16",           1,  2)       \
  X(UInt32,        "u32",           2,  4)       \
  X(Int32,         "i32",           3,  4)       \
  X(UInt64,        "u64",           4,  8)       \
  X(Int64,         "i64",           5,  8)       \
  X(Float16,       "f16",           6,  2)       \
  X(Float32,       "f32",           7,  4)       \
  X(Float64,       "f64",           8,  8)       \
  X(BFloat16,      "bf16",          9,  2)       \
  X(Float32Ftz,    "f32_ftz",       10, 4)       \
  X(TFloat32,      "tf32",          11, 4)       \
  X(TFloat32Ftz,   "tf32_ftz",      12, 4)       \
  X(U4x16Align8B,  "16u4_align8b",  13, 0)       \
  X(U4x16Align16B, "16u4_align16b", 14, 0)       \
  X(U6x16Align16B, "16u6_align16b", 15, 0)

enum class TmDataType : uint8_t {
#define TCSIM_X(id, name, value, bytes) id = value,
  TCSIM_TM_DTYPES(TCSIM_X)
#undef TCSIM_X
};

enum class TmInterleave : uint8_t { None = 0, B16 = 1, B32 = 2 };
enum class TmSwizzle : uint8_t {
  None = 0, B32 = 1, B64 = 2, B128 = 3, B128Atom32B = 4, B128Atom32BFlip8B = 5, B128Atom64B = 6
};
enum class TmL2Promotion : uint8_t { None = 0, B64 = 1, B128 = 2, B256 = 3 };
enum class TmOobFill : uint8_t { None = 0, NanRequestZeroFma = 1 };

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

// Names as the JSON spells them; parse_* return nullopt for an unknown name, legal_* list them.
std::string_view tm_dtype_name(TmDataType t);
std::optional<TmDataType> parse_tm_dtype(std::string_view s);  // also accepts byte-type aliases
std::string legal_tm_dtypes();
uint32_t tm_dtype_bytes(TmDataType t);  // 0 for the packed sub-byte types
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
