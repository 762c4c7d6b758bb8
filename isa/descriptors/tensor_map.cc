// cuTensorMapEncodeTiled parameters and rules (CUDA driver API, cuda.h 13.0), and tcsim's 128-byte
// tensor map encoding (layout in tensor_map.h).
#include "isa/descriptors/tensor_map.h"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

namespace tcsim::isa {
namespace {

constexpr std::string_view kSec = "CUDA Driver API cuTensorMapEncodeTiled (cuda.h 13.0)";
constexpr std::string_view kSecEnc = "tcsim tensor map encoding (isa/descriptors/tensor_map.h)";
// Rules settled by the H200's driver where the documentation is wrong or silent
// (kernels/tma/facts/tensor_map_edges.json, results in kernels/tma/README.md "Facts settled").
constexpr std::string_view kSecH200 =
    "CUDA Driver API cuTensorMapEncodeTiled as the driver behaves (measured on H200, driver 580.159.04, 2026-11-30)";

struct DTypeRow {
  TensorMapDataType type;
  std::string_view name;
  std::string_view cuda_name;
  int global_bits;
  int smem_bits;
  bool is_float;
};
constexpr DTypeRow kDTypes[] = {
    {TensorMapDataType::UInt8, "u8", "UINT8", 8, 8, false},
    {TensorMapDataType::UInt16, "u16", "UINT16", 16, 16, false},
    {TensorMapDataType::UInt32, "u32", "UINT32", 32, 32, false},
    {TensorMapDataType::Int32, "i32", "INT32", 32, 32, false},
    {TensorMapDataType::UInt64, "u64", "UINT64", 64, 64, false},
    {TensorMapDataType::Int64, "i64", "INT64", 64, 64, false},
    {TensorMapDataType::Float16, "f16", "FLOAT16", 16, 16, true},
    {TensorMapDataType::Float32, "f32", "FLOAT32", 32, 32, true},
    {TensorMapDataType::Float64, "f64", "FLOAT64", 64, 64, true},
    {TensorMapDataType::BFloat16, "bf16", "BFLOAT16", 16, 16, true},
    {TensorMapDataType::Float32Ftz, "f32_ftz", "FLOAT32_FTZ", 32, 32, true},
    {TensorMapDataType::TFloat32, "tf32", "TFLOAT32", 32, 32, true},
    {TensorMapDataType::TFloat32Ftz, "tf32_ftz", "TFLOAT32_FTZ", 32, 32, true},
    // Packed types are not "floating-point data types" for OOB NaN fill (the driver doc excludes them).
    {TensorMapDataType::U4x16Align8B, "16u4_align8b", "16U4_ALIGN8B", 4, 4, false},
    {TensorMapDataType::U4x16Align16B, "16u4_align16b", "16U4_ALIGN16B", 4, 8, false},
    {TensorMapDataType::U6x16Align16B, "16u6_align16b", "16U6_ALIGN16B", 6, 8, false},
};
// Buffer dtype names of LAUNCH_SPEC.md accepted as tensor map types (same element size).
struct Alias {
  std::string_view name;
  TensorMapDataType type;
};
constexpr Alias kAliases[] = {
    {"i8", TensorMapDataType::UInt8},    {"e4m3", TensorMapDataType::UInt8},  {"e5m2", TensorMapDataType::UInt8},
    {"e2m3", TensorMapDataType::UInt8},  {"e3m2", TensorMapDataType::UInt8},  {"e2m1x2", TensorMapDataType::UInt8},
    {"ue8m0", TensorMapDataType::UInt8}, {"ue4m3", TensorMapDataType::UInt8}, {"i16", TensorMapDataType::UInt16},
};

const DTypeRow& dtype_row(TensorMapDataType t) {
  for (const DTypeRow& r : kDTypes)
    if (r.type == t) return r;
  return kDTypes[0];  // unreachable for a valid enumerator
}
bool dtype_valid(unsigned v) { return v <= static_cast<unsigned>(TensorMapDataType::U6x16Align16B); }

template <class E, std::size_t N>
std::optional<E> parse_name(const std::array<std::string_view, N>& names, std::string_view s) {
  for (std::size_t i = 0; i < N; ++i) {
    const std::string_view n = names[i];
    if (n.size() == s.size() && std::equal(n.begin(), n.end(), s.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return static_cast<E>(i);
  }
  return std::nullopt;
}
constexpr std::array<std::string_view, 7> kSwizzleNames{"none", "32B", "64B", "128B", "128B_atom_32B",
                                                        "128B_atom_32B_flip_8B", "128B_atom_64B"};
constexpr std::array<std::string_view, 3> kInterleaveNames{"none", "16B", "32B"};
constexpr std::array<std::string_view, 4> kL2Names{"none", "64B", "128B", "256B"};
constexpr std::array<std::string_view, 2> kOobNames{"none", "nan"};

std::string_view cu_swizzle(TensorMapSwizzle s) {
  constexpr std::string_view n[] = {"CU_TENSOR_MAP_SWIZZLE_NONE", "CU_TENSOR_MAP_SWIZZLE_32B",
                                    "CU_TENSOR_MAP_SWIZZLE_64B", "CU_TENSOR_MAP_SWIZZLE_128B",
                                    "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B", "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B",
                                    "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B"};
  return n[static_cast<int>(s)];
}
std::string cu_dtype(TensorMapDataType t) { return fmt::format("CU_TENSOR_MAP_DATA_TYPE_{}", dtype_row(t).cuda_name); }

int swizzle_span(TensorMapSwizzle s) {
  switch (s) {
    case TensorMapSwizzle::None: return 0;
    case TensorMapSwizzle::B32: return 32;
    case TensorMapSwizzle::B64: return 64;
    default: return 128;  // the 128B* modes
  }
}

bool is_align16b(TensorMapDataType t) {
  return t == TensorMapDataType::U4x16Align16B || t == TensorMapDataType::U6x16Align16B;
}

// Little-endian word access (the encoding is defined byte by byte, whatever the host).
uint64_t load64(std::span<const uint8_t> b, std::size_t word) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[word * 8 + static_cast<std::size_t>(i)];
  return v;
}
void store64(TensorMapBytes& b, std::size_t word, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[word * 8 + static_cast<std::size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}
uint64_t fnv1a64(std::span<const uint8_t> bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

constexpr std::size_t kWordAddr = 1, kWordDims = 2, kWordStrides = 7, kWordBox = 11, kWordEstride = 12,
                      kWordChecksum = 15;

}  // namespace

int tensor_map_global_bits(TensorMapDataType t) { return dtype_row(t).global_bits; }
int tensor_map_smem_bits(TensorMapDataType t) { return dtype_row(t).smem_bits; }
bool tensor_map_is_float(TensorMapDataType t) { return dtype_row(t).is_float; }
bool tensor_map_is_packed(TensorMapDataType t) {
  return t == TensorMapDataType::U4x16Align8B || t == TensorMapDataType::U4x16Align16B ||
         t == TensorMapDataType::U6x16Align16B;
}

Violations validate_tensor_map(const TensorMapParams& p, Arch arch) {
  Violations out;
  auto add = [&](std::string msg) { out.push_back({std::string(kSec), std::move(msg)}); };
  auto add_h200 = [&](std::string msg) { out.push_back({std::string(kSecH200), std::move(msg)}); };
  const bool sm90 = arch == Arch::Sm90a;
  if (!dtype_valid(static_cast<unsigned>(p.data_type))) {
    add(fmt::format("tensorDataType {} is not a CUtensorMapDataType (0-15)", static_cast<unsigned>(p.data_type)));
    return out;
  }
  if (static_cast<unsigned>(p.interleave) > 2 || static_cast<unsigned>(p.swizzle) > 6 ||
      static_cast<unsigned>(p.l2_promotion) > 3 || static_cast<unsigned>(p.oob_fill) > 1) {
    add("interleave, swizzle, l2Promotion and oobFill must be CUtensorMapInterleave / CUtensorMapSwizzle / "
        "CUtensorMapL2promotion / CUtensorMapFloatOOBfill values");
    return out;
  }
  const TensorMapDataType t = p.data_type;
  const std::string tname = cu_dtype(t);
  const bool packed16 = is_align16b(t);
  const bool none_il = p.interleave == TensorMapInterleave::None;

  // tensorRank
  if (p.rank == 0 || p.rank > kTensorMapMaxRank) {
    add(fmt::format("tensorRank must be non-zero and less than or equal to the maximum supported dimensionality "
                    "of 5 (tensorRank is {})",
                    p.rank));
    return out;  // the arrays cannot be read
  }
  // sm_90: the packed types and the 128B_ATOM swizzles are sm_100 features. The H200's driver
  // rejects maps that meet every documented rule: 16U4_ALIGN16B (e40), 16U4_ALIGN8B (e46),
  // 16U6_ALIGN16B + SWIZZLE_128B (e49), and u8 maps with each 128B_ATOM mode (e52-e54).
  if (sm90 && tensor_map_is_packed(t))
    add_h200(fmt::format("tensorDataType {} is not supported on sm_90: the H200's driver rejects the packed "
                         "16U4_ALIGN8B, 16U4_ALIGN16B and 16U6_ALIGN16B types (CUDA_ERROR_INVALID_VALUE) even when "
                         "every documented rule holds; they need sm_100a",
                         tname));
  if (sm90 && (p.swizzle == TensorMapSwizzle::B128Atom32B || p.swizzle == TensorMapSwizzle::B128Atom32BFlip8B ||
               p.swizzle == TensorMapSwizzle::B128Atom64B))
    add_h200(fmt::format("swizzle {} is not supported on sm_90: the H200's driver rejects the 128B_ATOM_32B, "
                         "128B_ATOM_32B_FLIP_8B and 128B_ATOM_64B swizzles (CUDA_ERROR_INVALID_VALUE); they need "
                         "sm_100a (legal on sm_90: NONE, 32B, 64B, 128B)",
                         cu_swizzle(p.swizzle)));
  if (!none_il && p.rank < 3)
    add(fmt::format("if interleave is not CU_TENSOR_MAP_INTERLEAVE_NONE, tensorRank must additionally be greater "
                    "than or equal to 3 (tensorRank is {})",
                    p.rank));

  // globalAddress
  if (p.global_address % 16 != 0)
    add(fmt::format("globalAddress, which specifies the starting address of the memory region described, must be "
                    "16 byte aligned (0x{:x})",
                    p.global_address));
  else if (p.interleave == TensorMapInterleave::B32 && p.global_address % 32 != 0)
    add(fmt::format("when interleave is CU_TENSOR_MAP_INTERLEAVE_32B, globalAddress must be 32 byte aligned (0x{:x})",
                    p.global_address));
  else if (packed16 && p.global_address % 32 != 0)
    add(fmt::format("when tensorDataType is {}, globalAddress must be 32 byte aligned (0x{:x})", tname, p.global_address));

  // globalDim
  for (uint32_t i = 0; i < p.rank; ++i)
    if (p.global_dim[i] == 0 || p.global_dim[i] > (uint64_t{1} << 32))
      add(fmt::format("globalDim[{}] = {}: globalDim must be non-zero and less than or equal to 2^32", i, p.global_dim[i]));
  if (packed16 && p.global_dim[0] % 128 != 0)
    add(fmt::format("when tensorDataType is {}, globalDim[0] must be a multiple of 128 (globalDim[0] = {})", tname,
                    p.global_dim[0]));
  if (t == TensorMapDataType::U4x16Align8B && p.global_dim[0] % 2 != 0)
    add(fmt::format("when tensorDataType is {}, globalDim[0] must be a multiple of 2 (globalDim[0] = {})", tname,
                    p.global_dim[0]));

  // globalStrides (rank - 1 of them)
  for (uint32_t i = 0; i + 1 < p.rank; ++i) {
    const uint64_t s = p.global_strides[i];
    if (s % 16 != 0 || s >= (uint64_t{1} << 40))
      add(fmt::format("globalStrides[{}] = {}: globalStrides must be a multiple of 16 and less than 2^40", i, s));
    else if (p.interleave == TensorMapInterleave::B32 && s % 32 != 0)
      add(fmt::format("globalStrides[{}] = {}: when interleave is CU_TENSOR_MAP_INTERLEAVE_32B, the strides must be a "
                      "multiple of 32",
                      i, s));
    else if (packed16 && s % 32 != 0)
      add(fmt::format("globalStrides[{}] = {}: when tensorDataType is {}, the strides must be a multiple of 32", i, s,
                      tname));
  }

  // boxDim
  for (uint32_t i = 0; i < p.rank; ++i)
    if (p.box_dim[i] == 0 || p.box_dim[i] > 256)
      add(fmt::format("boxDim[{}] = {}: boxDim must be non-zero and less than or equal to 256", i, p.box_dim[i]));
  const uint64_t inner_bits_global = uint64_t{p.box_dim[0]} * static_cast<uint64_t>(tensor_map_global_bits(t));
  if (none_il && p.box_dim[0] != 0 && inner_bits_global % 128 != 0)
    add(fmt::format("when interleave is CU_TENSOR_MAP_INTERLEAVE_NONE, boxDim[0] * elementSizeInBytes(tensorDataType) "
                    "must be a multiple of 16 bytes (boxDim[0] = {}, {} bits per element: {} bytes)",
                    p.box_dim[0], tensor_map_global_bits(t), static_cast<double>(inner_bits_global) / 8.0));
  // The documentation states the 16-byte inner-box rule for INTERLEAVE_NONE only; the driver applies
  // it to interleaved maps too (e34: INTERLEAVE_16B with an 8-byte inner box rejected; e33: 16 B and
  // e58: 64 B accepted).
  if (!none_il && p.box_dim[0] != 0 && inner_bits_global % 128 != 0)
    add_h200(fmt::format("boxDim[0] * elementSizeInBytes(tensorDataType) must be a multiple of 16 bytes for an "
                         "interleaved map too (boxDim[0] = {}, {} bits per element: {} bytes)",
                         p.box_dim[0], tensor_map_global_bits(t), static_cast<double>(inner_bits_global) / 8.0));
  {
    uint64_t box_bytes = static_cast<uint64_t>(tensor_map_smem_bits(t));
    for (uint32_t i = 0; i < p.rank; ++i) box_bytes *= p.box_dim[i];
    box_bytes /= 8;
    if (box_bytes > kTensorMapMaxBoxBytes)
      add_h200(fmt::format("the box holds {} bytes (boxDim {}): the driver rejects boxes larger than shared memory "
                           "(a 256 KiB box is refused; tcsim's limit: {} bytes, the most shared memory a CTA can have)",
                           box_bytes, [&] {
                             std::string d;
                             for (uint32_t i = 0; i < p.rank; ++i) d += fmt::format("{}{}", i ? " x " : "", p.box_dim[i]);
                             return d;
                           }(),
                           kTensorMapMaxBoxBytes));
  }
  if (packed16 && p.box_dim[0] != 128)
    add(fmt::format("when tensorDataType is {}, boxDim[0] must be 128 (boxDim[0] = {})", tname, p.box_dim[0]));

  // elementStrides
  for (uint32_t i = 0; i < p.rank; ++i)
    if (p.element_strides[i] == 0 || p.element_strides[i] > 8)
      add(fmt::format("elementStrides[{}] = {}: elementStrides must be non-zero and less than or equal to 8", i,
                      p.element_strides[i]));

  // interleave x swizzle x type
  if (none_il && p.swizzle != TensorMapSwizzle::None) {
    const uint64_t inner_bytes = uint64_t{p.box_dim[0]} * static_cast<uint64_t>(tensor_map_smem_bits(t)) / 8;
    const int span = swizzle_span(p.swizzle);
    if (inner_bytes > static_cast<uint64_t>(span))
      add(fmt::format("when interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and swizzle is not CU_TENSOR_MAP_SWIZZLE_NONE, "
                      "the bounding box inner dimension (boxDim[0] * element size = {} bytes) must be less than or "
                      "equal to the swizzle size: {} requires <= {}",
                      inner_bytes, cu_swizzle(p.swizzle), span));
  }
  if (t == TensorMapDataType::U6x16Align16B && !none_il)
    add(fmt::format("tensorDataType of {} requires interleave to be CU_TENSOR_MAP_INTERLEAVE_NONE", tname));
  // The documentation: INTERLEAVE_32B requires SWIZZLE_32B. The H200's driver also accepts SWIZZLE_64B
  // (e29); the other modes with INTERLEAVE_32B are not measured and stay rejected.
  if (p.interleave == TensorMapInterleave::B32 && p.swizzle != TensorMapSwizzle::B32 &&
      !(sm90 && p.swizzle == TensorMapSwizzle::B64))
    add(fmt::format("when interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B{} "
                    "(swizzle is {})",
                    sm90 ? " (or CU_TENSOR_MAP_SWIZZLE_64B, which the H200's driver accepts too)" : "",
                    cu_swizzle(p.swizzle)));
  if (t == TensorMapDataType::U6x16Align16B &&
      !(p.swizzle == TensorMapSwizzle::None || p.swizzle == TensorMapSwizzle::B128 ||
        p.swizzle == TensorMapSwizzle::B128Atom32B || p.swizzle == TensorMapSwizzle::B128Atom64B))
    add(fmt::format("when the tensorDataType is {}, only the following swizzle modes are supported: NONE, 128B, "
                    "128B_ATOM_32B (load & store), 128B_ATOM_64B (store only); swizzle is {}",
                    tname, cu_swizzle(p.swizzle)));
  if (t == TensorMapDataType::U4x16Align16B &&
      !(p.swizzle == TensorMapSwizzle::None || p.swizzle == TensorMapSwizzle::B128 ||
        p.swizzle == TensorMapSwizzle::B128Atom32B))
    add(fmt::format("when the tensorDataType is {}, only the following swizzle modes are supported: NONE, 128B, "
                    "128B_ATOM_32B (load only); swizzle is {}",
                    tname, cu_swizzle(p.swizzle)));

  // oobFill
  if (p.oob_fill == TensorMapOobFill::NanRequestZeroFma && !tensor_map_is_float(t))
    add(fmt::format("CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when tensorDataType represents "
                    "a floating-point data type, and not with the packed 16U4/16U6 types (tensorDataType is {})",
                    tname));
  return out;
}

Violations tensor_map_warnings(const TensorMapParams& p) {
  Violations out;
  if (p.rank < 2 || p.rank > kTensorMapMaxRank || !dtype_valid(static_cast<unsigned>(p.data_type))) return out;
  // globalStrides[0] = globalDim[0] * elementSize + padding[0];
  // globalStrides[i] = globalStrides[i-1] * (globalDim[i] + padding[i])  (paddings >= 0)
  uint64_t need_bits = p.global_dim[0] * static_cast<uint64_t>(tensor_map_global_bits(p.data_type));
  uint64_t need = (need_bits + 7) / 8;
  for (uint32_t i = 0; i + 1 < p.rank; ++i) {
    if (p.global_strides[i] < need)
      out.push_back({std::string(kSec),
                     fmt::format("globalStrides[{}] = {} is smaller than the extent of the lower dimensions ({} bytes): "
                                 "dimensions overlap (the documented recurrence has each stride include the previous "
                                 "dimension's stride)",
                                 i, p.global_strides[i], need)});
    const uint64_t dim = p.global_dim[i + 1];
    need = (dim != 0 && p.global_strides[i] > UINT64_MAX / dim) ? UINT64_MAX : p.global_strides[i] * dim;
  }
  return out;
}

Violations validate_tensor_map_use(const TensorMapParams& p, TmaDirection dir) {
  Violations out;
  if (dir == TmaDirection::Load && p.data_type == TensorMapDataType::U6x16Align16B &&
      p.swizzle == TensorMapSwizzle::B128Atom64B)
    out.push_back({std::string(kSec), "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B supports CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B "
                                      "for stores only, this map is used by a load"});
  if (dir == TmaDirection::Store && p.data_type == TensorMapDataType::U4x16Align16B)
    out.push_back({std::string(kSec), "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B supports loads only (swizzle NONE, 128B, "
                                      "128B_ATOM_32B: load only), this map is used by a store"});
  return out;
}

Expected<TensorMapBytes> encode_tensor_map(const TensorMapParams& p, Arch arch) {
  Violations v = validate_tensor_map(p, arch);
  if (!v.empty()) {
    std::string msg = v.front().to_string();
    if (v.size() > 1) msg += fmt::format(" (and {} more)", v.size() - 1);
    return Error{msg};
  }
  TensorMapBytes b{};
  TensorMapHeaderBits h;
  h.set_magic(kTensorMapMagic);
  h.set_version(kTensorMapVersion);
  h.set_data_type(static_cast<uint64_t>(p.data_type));
  h.set_rank(p.rank);
  h.set_interleave(static_cast<uint64_t>(p.interleave));
  h.set_swizzle(static_cast<uint64_t>(p.swizzle));
  h.set_l2_promotion(static_cast<uint64_t>(p.l2_promotion));
  h.set_oob_fill(static_cast<uint64_t>(p.oob_fill));
  store64(b, 0, h.raw);
  store64(b, kWordAddr, p.global_address);
  uint64_t box = 0, estride = 0;
  for (uint32_t i = 0; i < p.rank; ++i) {
    store64(b, kWordDims + i, p.global_dim[i]);
    if (i + 1 < p.rank) store64(b, kWordStrides + i, p.global_strides[i]);
    box |= uint64_t{p.box_dim[i]} << (12 * i);
    estride |= uint64_t{p.element_strides[i]} << (8 * i);
  }
  store64(b, kWordBox, box);
  store64(b, kWordEstride, estride);
  store64(b, kWordChecksum, fnv1a64(std::span<const uint8_t>(b.data(), 120)));
  return b;
}

Expected<TensorMapParams> decode_tensor_map(std::span<const uint8_t> bytes, Arch arch) {
  auto fail = [](std::string msg) { return Error{fmt::format("{} [{}]", msg, kSecEnc)}; };
  if (bytes.size() != kTensorMapBytes)
    return fail(fmt::format("a tensor map is {} bytes, got {}", kTensorMapBytes, bytes.size()));
  TensorMapHeaderBits h{load64(bytes, 0)};
  if (h.magic() != kTensorMapMagic)
    return fail(fmt::format("not a tcsim-encoded tensor map (magic 0x{:08x}, expected 0x{:08x}); tcsim accepts only "
                            "maps built by its cuTensorMapEncodeTiled emulation",
                            h.magic(), kTensorMapMagic));
  if (h.version() != kTensorMapVersion)
    return fail(fmt::format("tensor map format version {} is not supported (expected {})", h.version(), kTensorMapVersion));
  const uint64_t sum = fnv1a64(bytes.first(120));
  if (load64(bytes, kWordChecksum) != sum)
    return fail(fmt::format("tensor map checksum mismatch (stored 0x{:016x}, computed 0x{:016x}): the 128 bytes were "
                            "modified after encoding",
                            load64(bytes, kWordChecksum), sum));
  if (h.reserved_bits() || load64(bytes, 13) || load64(bytes, 14))
    return fail("reserved bits of the tensor map are set");
  if (!dtype_valid(static_cast<unsigned>(h.data_type())) || h.interleave() > 2 || h.swizzle() > 6 || h.l2_promotion() > 3)
    return fail("tensor map holds an out-of-range enum value");
  TensorMapParams p;
  p.data_type = static_cast<TensorMapDataType>(h.data_type());
  p.rank = static_cast<uint32_t>(h.rank());
  p.interleave = static_cast<TensorMapInterleave>(h.interleave());
  p.swizzle = static_cast<TensorMapSwizzle>(h.swizzle());
  p.l2_promotion = static_cast<TensorMapL2Promotion>(h.l2_promotion());
  p.oob_fill = static_cast<TensorMapOobFill>(h.oob_fill());
  if (p.rank == 0 || p.rank > kTensorMapMaxRank) return fail(fmt::format("tensor map rank {} is not 1-5", p.rank));
  p.global_address = load64(bytes, kWordAddr);
  const uint64_t box = load64(bytes, kWordBox), estride = load64(bytes, kWordEstride);
  for (uint32_t i = 0; i < kTensorMapMaxRank; ++i) {
    const uint64_t dim = load64(bytes, kWordDims + i);
    const uint64_t stride = i < 4 ? load64(bytes, kWordStrides + i) : 0;
    const uint32_t bx = static_cast<uint32_t>((box >> (12 * i)) & 0xFFF);
    const uint32_t es = static_cast<uint32_t>((estride >> (8 * i)) & 0xFF);
    if (i < p.rank) {
      p.global_dim[i] = dim;
      p.box_dim[i] = bx;
      p.element_strides[i] = es;
      if (i + 1 < p.rank) p.global_strides[i] = stride;
      else if (stride) return fail("tensor map has a stride beyond rank - 1");
    } else if (dim || stride || bx || es) {
      return fail(fmt::format("tensor map has entries beyond its rank {}", p.rank));
    }
  }
  if ((box >> 60) || (estride >> 40)) return fail("reserved bits of the tensor map are set");
  Violations v = validate_tensor_map(p, arch);
  if (!v.empty()) return Error{v.front().to_string()};
  return p;
}

Expected<TensorMapBytes> tensor_map_replace(std::span<const uint8_t> bytes, TensorMapField field, uint32_t ord,
                                            uint64_t value) {
  auto fail = [](std::string msg) { return Error{fmt::format("{} [{}]", msg, kSecEnc)}; };
  if (bytes.size() != kTensorMapBytes)
    return fail(fmt::format("a tensor map is {} bytes, got {}", kTensorMapBytes, bytes.size()));
  TensorMapHeaderBits h{load64(bytes, 0)};
  if (h.magic() != kTensorMapMagic || h.version() != kTensorMapVersion)
    return fail("tensormap.replace on 128 bytes that are not a tcsim-encoded tensor map (built by its "
                "cuTensorMapEncodeTiled emulation)");
  if (load64(bytes, kWordChecksum) != fnv1a64(bytes.first(120)))
    return fail("tensormap.replace on a tensor map whose bytes were modified by other means than tensormap.replace "
                "(checksum mismatch)");
  TensorMapBytes b{};
  std::copy(bytes.begin(), bytes.end(), b.begin());
  const uint32_t rank = static_cast<uint32_t>(h.rank());
  auto bad_ord = [&](const char* name, uint32_t limit, const char* what) -> std::optional<Error> {
    if (ord < limit) return std::nullopt;
    return fail(fmt::format("tensormap.replace.{}: ord {} is not {} of the rank-{} map (PTX ISA §9.7.9.27)", name, ord,
                            what, rank));
  };
  // The field3 codes (PTX ISA §9.7.9.27, table "Tensormap new_val validity"; LLVM's NVVM enums
  // TensormapElemType / TensormapInterleaveLayout / TensormapSwizzleMode / TensormapSwizzleAtomicity,
  // which ptxas-verified LLVM prints as these immediates, list the same codes); a code the table does
  // not list for the field, or one tcsim's encoding cannot hold, is refused here.
  auto bad_code = [&](const char* name, const char* legal) {
    return fail(fmt::format("tensormap.replace.{}: new_val {} is not a code of the field (PTX ISA §9.7.9.27 table "
                            "\"Tensormap new_val validity\": {})",
                            name, value, legal));
  };
  switch (field) {
    case TensorMapField::GlobalAddress: store64(b, kWordAddr, value); break;
    case TensorMapField::GlobalDim:
      if (auto e = bad_ord("global_dim", rank, "a dimension")) return *e;
      store64(b, kWordDims + ord, value);
      break;
    case TensorMapField::Rank: {
      // new_val = rank - 1 (PTX ISA §9.7.9.27: the field uses zero-based numbering). tcsim's
      // encoding keeps the entries beyond the rank zero: lowering the rank clears them (the GPU
      // ignores them), so raising it again needs the new dimensions replaced before a copy uses
      // the map (a zero extent / box is then reported by the decoder's validation).
      if (value >= kTensorMapMaxRank)
        return fail(fmt::format("tensormap.replace.rank: new_val {} means rank {}; a tensor map has rank 1-5 (new_val "
                                "0-4: PTX ISA §9.7.9.27, new_val = rank - 1)",
                                value, value + 1));
      const uint32_t nr = static_cast<uint32_t>(value) + 1;
      h.set_rank(nr);
      store64(b, 0, h.raw);
      uint64_t box = load64(b, kWordBox), es = load64(b, kWordEstride);
      for (uint32_t i = nr; i < kTensorMapMaxRank; ++i) {
        store64(b, kWordDims + i, 0);
        box &= ~(uint64_t{0xFFF} << (12 * i));
        es &= ~(uint64_t{0xFF} << (8 * i));
      }
      for (uint32_t i = nr - 1; i < 4; ++i) store64(b, kWordStrides + i, 0);
      store64(b, kWordBox, box);
      store64(b, kWordEstride, es);
      break;
    }
    case TensorMapField::BoxDim: {
      if (auto e = bad_ord("box_dim", rank, "a dimension")) return *e;
      if (value > 0xFFF)
        return fail(fmt::format("tensormap.replace.box_dim: new_val {} does not fit tcsim's 12-bit box field (the "
                                "driver allows 1-256 elements per dimension)",
                                value));
      const uint64_t box = load64(b, kWordBox) & ~(uint64_t{0xFFF} << (12 * ord));
      store64(b, kWordBox, box | value << (12 * ord));
      break;
    }
    case TensorMapField::ElementStride: {
      if (auto e = bad_ord("element_stride", rank, "a dimension")) return *e;
      if (value > 0xFF)
        return fail(fmt::format("tensormap.replace.element_stride: new_val {} does not fit tcsim's 8-bit field (the "
                                "driver allows 1-8)",
                                value));
      const uint64_t es = load64(b, kWordEstride) & ~(uint64_t{0xFF} << (8 * ord));
      store64(b, kWordEstride, es | value << (8 * ord));
      break;
    }
    case TensorMapField::GlobalStride:
      // ord names the stride between elements of dimension ord + 1 (dimension 0 is dense), in bytes.
      if (auto e = bad_ord("global_stride", rank - 1, "a stride (dimensions 1..rank-1, ord = dimension - 1)"))
        return *e;
      store64(b, kWordStrides + ord, value);
      break;
    case TensorMapField::ElemType: {
      // PTX codes 0-15: .u8 .u16 .u32 .s32 .u64 .s64 .f16 .f32 .f32.ftz .f64 .bf16 .tf32 .tf32.ftz
      // .b4x16 .b4x16_p64 .b6x16_p32. The order differs from CUtensorMapDataType (which has FLOAT64
      // before BFLOAT16 and FLOAT32_FTZ): translate.
      static constexpr TensorMapDataType kPtxElemType[16] = {
          TensorMapDataType::UInt8,       TensorMapDataType::UInt16,       TensorMapDataType::UInt32,
          TensorMapDataType::Int32,       TensorMapDataType::UInt64,       TensorMapDataType::Int64,
          TensorMapDataType::Float16,     TensorMapDataType::Float32,      TensorMapDataType::Float32Ftz,
          TensorMapDataType::Float64,     TensorMapDataType::BFloat16,     TensorMapDataType::TFloat32,
          TensorMapDataType::TFloat32Ftz, TensorMapDataType::U4x16Align8B, TensorMapDataType::U4x16Align16B,
          TensorMapDataType::U6x16Align16B};
      if (value > 15)
        return bad_code("elemtype", "0 .u8, 1 .u16, 2 .u32, 3 .s32, 4 .u64, 5 .s64, 6 .f16, 7 .f32, 8 .f32.ftz, 9 "
                                    ".f64, 10 .bf16, 11 .tf32, 12 .tf32.ftz, 13 .b4x16, 14 .b4x16_p64, 15 .b6x16_p32");
      h.set_data_type(static_cast<uint64_t>(kPtxElemType[value]));
      store64(b, 0, h.raw);
      break;
    }
    case TensorMapField::Interleave:
      // 0 no interleave, 1 16B, 2 32B: the CUtensorMapInterleave values.
      if (value > 2) return bad_code("interleave_layout", "0 none, 1 16B, 2 32B");
      h.set_interleave(value);
      store64(b, 0, h.raw);
      break;
    case TensorMapField::FillMode:
      // 0 zero fill, 1 OOB-NaN fill: the CUtensorMapFloatOOBfill values.
      if (value > 1) return bad_code("fill_mode", "0 zero fill, 1 OOB-NaN fill");
      h.set_oob_fill(value);
      store64(b, 0, h.raw);
      break;
    case TensorMapField::SwizzleMode:
    case TensorMapField::SwizzleAtomicity: {
      // PTX splits CUtensorMapSwizzle in two: the swizzle span (.swizzle_mode: 0 none, 1 32B, 2 64B,
      // 3 128B, 4 96B) and the chunk moved (.swizzle_atomicity: 0 16B, 1 32B, 2 32B + 8B flip,
      // 3 64B). tcsim stores the CUtensorMapSwizzle value, so an atomicity other than 16B exists
      // only with the 128B span (128B_ATOM_32B / _32B_FLIP_8B / _64B, the only such driver modes).
      uint64_t mode = 0, atom = 0;
      switch (static_cast<TensorMapSwizzle>(h.swizzle())) {
        case TensorMapSwizzle::None: mode = 0; break;
        case TensorMapSwizzle::B32: mode = 1; break;
        case TensorMapSwizzle::B64: mode = 2; break;
        case TensorMapSwizzle::B128: mode = 3; break;
        case TensorMapSwizzle::B128Atom32B: mode = 3; atom = 1; break;
        case TensorMapSwizzle::B128Atom32BFlip8B: mode = 3; atom = 2; break;
        case TensorMapSwizzle::B128Atom64B: mode = 3; atom = 3; break;
      }
      const char* name = field == TensorMapField::SwizzleMode ? "swizzle_mode" : "swizzle_atomicity";
      if (field == TensorMapField::SwizzleMode) {
        if (value == 4)
          return fail("tensormap.replace.swizzle_mode: new_val 4 (96B swizzle) is an sm_103a mode tcsim does not "
                      "implement (PTX ISA §9.7.9.27)");
        if (value > 4) return bad_code(name, "0 none, 1 32B, 2 64B, 3 128B, 4 96B");
        mode = value;
      } else {
        if (value > 3) return bad_code(name, "0 16B, 1 32B, 2 32B + 8B flip, 3 64B");
        atom = value;
      }
      if (atom != 0 && mode != 3)
        return fail(fmt::format("tensormap.replace.{}: swizzle atomicity {} with {} swizzle has no CUtensorMapSwizzle "
                                "value, which tcsim's encoding holds (atomicity 32B, 32B + 8B flip and 64B exist with "
                                "the 128B span only); replace .swizzle_mode with 3 (128B) first",
                                name, atom == 1 ? "32B" : atom == 2 ? "32B + 8B flip" : "64B",
                                mode == 0 ? "no" : mode == 1 ? "32B" : "64B"));
      static constexpr TensorMapSwizzle k128[4] = {TensorMapSwizzle::B128, TensorMapSwizzle::B128Atom32B,
                                                   TensorMapSwizzle::B128Atom32BFlip8B, TensorMapSwizzle::B128Atom64B};
      const TensorMapSwizzle ns = mode == 0   ? TensorMapSwizzle::None
                                  : mode == 1 ? TensorMapSwizzle::B32
                                  : mode == 2 ? TensorMapSwizzle::B64
                                              : k128[atom];
      h.set_swizzle(static_cast<uint64_t>(ns));
      store64(b, 0, h.raw);
      break;
    }
  }
  store64(b, kWordChecksum, fnv1a64(std::span<const uint8_t>(b.data(), 120)));
  return b;
}

std::string_view tensor_map_dtype_name(TensorMapDataType t) { return dtype_row(t).name; }

std::optional<TensorMapDataType> parse_tensor_map_dtype(std::string_view s) {
  std::string lower(s);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const DTypeRow& r : kDTypes)
    if (r.name == lower) return r.type;
  for (const Alias& a : kAliases)
    if (a.name == lower) return a.type;
  return std::nullopt;
}

std::string_view tensor_map_swizzle_name(TensorMapSwizzle s) { return kSwizzleNames[static_cast<std::size_t>(s)]; }
std::optional<TensorMapSwizzle> parse_tensor_map_swizzle(std::string_view s) {
  return parse_name<TensorMapSwizzle>(kSwizzleNames, s);
}
std::string_view tensor_map_interleave_name(TensorMapInterleave i) { return kInterleaveNames[static_cast<std::size_t>(i)]; }
std::optional<TensorMapInterleave> parse_tensor_map_interleave(std::string_view s) {
  return parse_name<TensorMapInterleave>(kInterleaveNames, s);
}
std::string_view tensor_map_l2_promotion_name(TensorMapL2Promotion l) { return kL2Names[static_cast<std::size_t>(l)]; }
std::optional<TensorMapL2Promotion> parse_tensor_map_l2_promotion(std::string_view s) {
  return parse_name<TensorMapL2Promotion>(kL2Names, s);
}
std::string_view tensor_map_oob_fill_name(TensorMapOobFill o) { return kOobNames[static_cast<std::size_t>(o)]; }
std::optional<TensorMapOobFill> parse_tensor_map_oob_fill(std::string_view s) {
  return parse_name<TensorMapOobFill>(kOobNames, s);
}

}  // namespace tcsim::isa
