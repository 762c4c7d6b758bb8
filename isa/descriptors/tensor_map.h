// CUtensorMap (tiled) parameters: exactly the arguments of the CUDA driver's cuTensorMapEncodeTiled
// (cuda.h 13.0, "Tensor Map Object Management"), its validity rules, and tcsim's own 128-byte
// encoding of a map (the real CUtensorMap layout is undocumented: PTX ISA §5.5.8 calls it opaque).
//
// tcsim tensor map, 128 bytes = 16 little-endian 64-bit words (format version 1):
//
//   word   bits    content
//   0      0-31    magic 0x4D546374 (bytes "tcTM"), so a map tcsim did not write is recognised
//          32-39   format version (1)
//          40-43   data type (CUtensorMapDataType value, 0-15)
//          44-46   rank (1-5)
//          47-48   interleave (CUtensorMapInterleave)
//          49-51   swizzle (CUtensorMapSwizzle)
//          52-53   L2 promotion (CUtensorMapL2promotion)
//          54      OOB fill (CUtensorMapFloatOOBfill)
//          55-63   reserved, 0
//   1              global address
//   2-6            global dims 0-4 (elements; 0 beyond rank)
//   7-10           global strides of dims 1-4, bytes (0 beyond rank-1)
//   11     5 x 12  box dims 0-4 at bits 12*i (0 beyond rank)
//   12     5 x 8   element strides 0-4 at bits 8*i (0 beyond rank)
//   13-14          reserved, 0
//   15             FNV-1a-64 checksum of bytes 0-119
//
// encode_tensor_map refuses parameters cuTensorMapEncodeTiled would refuse; decode_tensor_map
// refuses bytes that are not such an encoding (wrong magic, version or checksum, reserved bits,
// out-of-range enums) as well as an encoding of parameters that break a driver rule.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "isa/arch.h"
#include "isa/descriptors/bitfield.h"
#include "isa/diag.h"

namespace tcsim::isa {

// CUtensorMapDataType (values as in cuda.h).
enum class TensorMapDataType : uint8_t {
  UInt8 = 0, UInt16, UInt32, Int32, UInt64, Int64, Float16, Float32, Float64, BFloat16,
  Float32Ftz, TFloat32, TFloat32Ftz,
  U4x16Align8B,   // CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B: 16 x U4 packed in 8 bytes, no gaps
  U4x16Align16B,  // CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B: 16 x U4 in 8 bytes + 8-byte gap (smem)
  U6x16Align16B,  // CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B: 16 x U6 in 12 bytes + 4-byte gap (smem)
};
enum class TensorMapInterleave : uint8_t { None = 0, B16, B32 };
enum class TensorMapSwizzle : uint8_t { None = 0, B32, B64, B128, B128Atom32B, B128Atom32BFlip8B, B128Atom64B };
enum class TensorMapL2Promotion : uint8_t { None = 0, L2_64B, L2_128B, L2_256B };
enum class TensorMapOobFill : uint8_t { None = 0, NanRequestZeroFma };

inline constexpr int kTensorMapMaxRank = 5;
inline constexpr std::size_t kTensorMapBytes = 128;
using TensorMapBytes = std::array<uint8_t, kTensorMapBytes>;

// The arguments of cuTensorMapEncodeTiled (entries at index >= rank, or >= rank-1 for strides,
// are ignored by validation and stored as 0).
struct TensorMapParams {
  TensorMapDataType data_type = TensorMapDataType::UInt8;
  uint32_t rank = 1;
  uint64_t global_address = 0;
  std::array<uint64_t, 5> global_dim{};      // elements (packed types: individual U4/U6 values)
  std::array<uint64_t, 4> global_strides{};  // bytes, of dims 1..rank-1
  std::array<uint32_t, 5> box_dim{};         // elements traversed per dimension
  std::array<uint32_t, 5> element_strides{};
  TensorMapInterleave interleave = TensorMapInterleave::None;
  TensorMapSwizzle swizzle = TensorMapSwizzle::None;
  TensorMapL2Promotion l2_promotion = TensorMapL2Promotion::None;
  TensorMapOobFill oob_fill = TensorMapOobFill::None;
  friend bool operator==(const TensorMapParams&, const TensorMapParams&) = default;
};

// Every rule of cuTensorMapEncodeTiled the parameters break, for the driver of `arch`; each message
// quotes the requirement. sm_90a is the H200's driver as measured (driver 580.159.04, 2026-11-30,
// kernels/tma/facts/tensor_map_edges.json: 60 maps): where it contradicts the documentation it wins
// (INTERLEAVE_32B with SWIZZLE_64B accepted; the packed 16U4/16U6 types and the 128B_ATOM swizzles
// rejected), and what the documentation leaves open is settled by it for every arch (an interleaved
// map's inner box is a multiple of 16 bytes too; a 256 KiB box is rejected). The Blackwell arches
// follow the documentation wherever the H200 cannot speak for them.
Violations validate_tensor_map(const TensorMapParams& p, Arch arch = Arch::Sm100a);
// Patterns the documentation describes but the driver is not known to reject (strides that make
// dimensions overlap: "each following dimension specified includes previous dimension stride").
Violations tensor_map_warnings(const TensorMapParams& p);
// Rules that depend on the direction of the copy that uses the map ("Load only" / "Store only"
// swizzles of the packed types).
enum class TmaDirection : uint8_t { Load, Store };
Violations validate_tensor_map_use(const TensorMapParams& p, TmaDirection dir);

Expected<TensorMapBytes> encode_tensor_map(const TensorMapParams& p, Arch arch = Arch::Sm100a);
Expected<TensorMapParams> decode_tensor_map(std::span<const uint8_t> bytes, Arch arch = Arch::Sm100a);

// tensormap.replace (PTX ISA §9.7.9.27) on tcsim's encoding: the field `field` (dimension `ord` for
// the per-dimension fields) of the 128 bytes becomes `value`, the checksum is recomputed. `value` is
// the instruction's new_val as the PTX ISA defines it per field:
//   GlobalAddress  the address;  Rank  rank - 1 ("zero-based numbering");
//   GlobalDim / BoxDim / ElementStride  the value for dimension `ord` (ord < rank);
//   GlobalStride   the byte stride of dimension ord + 1 (ord < rank - 1; CUTLASS's
//                  tma_descriptor_replace_dims_strides passes prob_stride[ord + 1] in bytes);
//   ElemType / Interleave / SwizzleMode / SwizzleAtomicity / FillMode  the codes of the PTX ISA
//                  table "Tensormap new_val validity" (tensor_map.cc lists them).
// Checked here: the map's framing (magic, version, checksum), ord, and that the value fits tcsim's
// encoding (an enum code the table lists, a box dimension < 4096, an element stride < 256, rank
// 1-5). The driver's rules apply when a copy uses the edited map (decode_tensor_map), as on the GPU,
// where a map may pass through invalid states between edits.
enum class TensorMapField : uint8_t {
  GlobalAddress, GlobalDim, Rank, BoxDim, GlobalStride, ElementStride,
  ElemType, Interleave, SwizzleMode, SwizzleAtomicity, FillMode,
};
Expected<TensorMapBytes> tensor_map_replace(std::span<const uint8_t> bytes, TensorMapField field, uint32_t ord,
                                            uint64_t value);

// The largest box (boxDim product x element size, bytes) tcsim lets the driver accept. Measured on
// the H200 (driver 580.159.04, 2026-11-30): a 256 x 16 u8 box (4 KiB, e14) is accepted and a
// 256 x 256 u32 box (256 KiB, e56) rejected, a limit the documentation does not state. Where it lies
// in between is not measured; tcsim puts it at the most shared memory a CTA can have on sm_90 and
// sm_100 (227 KiB = 232448 B, CUDA C Programming Guide, compute capability tables): a larger box
// could never land anywhere. UNCONFIRMED threshold.
inline constexpr uint64_t kTensorMapMaxBoxBytes = 232448;

// Element size: bits per element in global memory (U4: 4, U6: 6) and in shared memory (the
// ALIGN16B types pad 16 values to 16 bytes: 8 bits per element).
int tensor_map_global_bits(TensorMapDataType t);
int tensor_map_smem_bits(TensorMapDataType t);
bool tensor_map_is_float(TensorMapDataType t);
bool tensor_map_is_packed(TensorMapDataType t);

// JSON / launch-spec spellings (LAUNCH_SPEC.md "tensor_maps").
//   dtype: u8 u16 u32 i32 u64 i64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz 16u4_align8b 16u4_align16b
//          16u6_align16b; buffer dtype names are accepted too and map to the type of the same
//          element size (i8 e4m3 e5m2 e2m3 e3m2 e2m1x2 ue8m0 ue4m3 -> u8, i16 -> u16), as CUTLASS
//          encodes fp8 maps with UINT8: TMA moves bytes, only OOB NaN fill looks at the type.
//   swizzle: none 32B 64B 128B 128B_atom_32B 128B_atom_32B_flip_8B 128B_atom_64B
//   interleave: none 16B 32B;  l2_promotion: none 64B 128B 256B;  oob_fill: none nan
std::string_view tensor_map_dtype_name(TensorMapDataType t);
std::optional<TensorMapDataType> parse_tensor_map_dtype(std::string_view s);
std::string_view tensor_map_swizzle_name(TensorMapSwizzle s);
std::optional<TensorMapSwizzle> parse_tensor_map_swizzle(std::string_view s);
std::string_view tensor_map_interleave_name(TensorMapInterleave i);
std::optional<TensorMapInterleave> parse_tensor_map_interleave(std::string_view s);
std::string_view tensor_map_l2_promotion_name(TensorMapL2Promotion l);
std::optional<TensorMapL2Promotion> parse_tensor_map_l2_promotion(std::string_view s);
std::string_view tensor_map_oob_fill_name(TensorMapOobFill o);
std::optional<TensorMapOobFill> parse_tensor_map_oob_fill(std::string_view s);

// Word 0 of the encoding, as data (bitfield.h).
#define TCSIM_TENSOR_MAP_HEADER_FIELDS(X)                         \
  X(magic, 0, 32, "0x4D546374 (\"tcTM\")")                        \
  X(version, 32, 8, "tcsim tensor map format version (1)")        \
  X(data_type, 40, 4, "CUtensorMapDataType")                      \
  X(rank, 44, 3, "tensor rank (1-5)")                             \
  X(interleave, 47, 2, "CUtensorMapInterleave")                   \
  X(swizzle, 49, 3, "CUtensorMapSwizzle")                         \
  X(l2_promotion, 52, 2, "CUtensorMapL2promotion")                \
  X(oob_fill, 54, 1, "CUtensorMapFloatOOBfill")
TCSIM_DEFINE_BITFIELDS(TensorMapHeaderBits, uint64_t, TCSIM_TENSOR_MAP_HEADER_FIELDS);

inline constexpr uint32_t kTensorMapMagic = 0x4D546374;  // "tcTM" little-endian
inline constexpr uint32_t kTensorMapVersion = 1;

}  // namespace tcsim::isa
