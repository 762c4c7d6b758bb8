// Tensor maps (CUDA Driver API "Tensor Map Object Management") and error strings ("Error
// Handling"). cuTensorMapEncodeTiled is tcsim's one implementation of the driver's rules and
// encoding (isa/descriptors/tensor_map.h), the same that `tcsim run` applies to a launch spec's
// tensor_maps: the 128 bytes it writes are what the simulator's TMA engine reads.
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "isa/descriptors/tensor_map.h"
#include "tools/cuda_driver/driver.h"

using namespace tcsim::cudrv;
namespace isa = tcsim::isa;

TCSIM_CU_API CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap* map, CUtensorMapDataType dtype, cuuint32_t rank, void* address,
                                                     const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                                                     const cuuint32_t* elem_strides, CUtensorMapInterleave interleave,
                                                     CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  TCSIM_CU_ENTER();
  if (!map || !dims || !box || !elem_strides || (rank > 1 && !strides))
    return drv.fail(CUDA_ERROR_INVALID_VALUE, "cuTensorMapEncodeTiled: a required pointer argument is NULL");
  if (rank < 1 || rank > static_cast<cuuint32_t>(isa::kTensorMapMaxRank))
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuTensorMapEncodeTiled: tensorRank {} (legal: 1-5)", rank));
  // Enum values are cuda.h's (isa/descriptors/tensor_map.h); out-of-range ones are rejected by
  // validate_tensor_map with the rule they break.
  isa::TensorMapParams p;
  p.data_type = static_cast<isa::TensorMapDataType>(dtype);
  p.rank = rank;
  p.global_address = reinterpret_cast<uint64_t>(address);
  for (cuuint32_t i = 0; i < rank; ++i) {
    p.global_dim[i] = dims[i];
    p.box_dim[i] = box[i];
    p.element_strides[i] = elem_strides[i];
    if (i + 1 < rank) p.global_strides[i] = strides[i];
  }
  p.interleave = static_cast<isa::TensorMapInterleave>(interleave);
  p.swizzle = static_cast<isa::TensorMapSwizzle>(swizzle);
  p.l2_promotion = static_cast<isa::TensorMapL2Promotion>(l2);
  p.oob_fill = static_cast<isa::TensorMapOobFill>(oob);
  if (static_cast<unsigned>(dtype) > 15 || static_cast<unsigned>(interleave) > 2 || static_cast<unsigned>(swizzle) > 6 ||
      static_cast<unsigned>(l2) > 3 || static_cast<unsigned>(oob) > 1)
    return drv.fail(CUDA_ERROR_INVALID_VALUE,
                    fmt::format("cuTensorMapEncodeTiled: an enum argument is out of range (dtype {}, interleave {}, swizzle {}, "
                                "l2Promotion {}, oobFill {})", static_cast<int>(dtype), static_cast<int>(interleave),
                                static_cast<int>(swizzle), static_cast<int>(l2), static_cast<int>(oob)));
  const isa::Violations v = isa::validate_tensor_map(p, drv.arch());
  if (!v.empty()) {
    std::string why;
    for (const auto& x : v) why += (why.empty() ? "" : "; ") + x.to_string();
    return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuTensorMapEncodeTiled: rejected: {}", why));
  }
  const auto bytes = isa::encode_tensor_map(p, drv.arch());
  if (!bytes) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuTensorMapEncodeTiled: {}", bytes.error().message));
  static_assert(sizeof(CUtensorMap) == isa::kTensorMapBytes);
  std::memcpy(map, bytes->data(), bytes->size());
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuTensorMapReplaceAddress(CUtensorMap* map, void* address) {
  TCSIM_CU_ENTER();
  if (!map) return CUDA_ERROR_INVALID_VALUE;
  const std::span<const uint8_t> in(reinterpret_cast<const uint8_t*>(map), sizeof *map);
  const auto edited = isa::tensor_map_replace(in, isa::TensorMapField::GlobalAddress, 0, reinterpret_cast<uint64_t>(address));
  if (!edited) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuTensorMapReplaceAddress: {}", edited.error().message));
  const auto check = isa::decode_tensor_map(*edited, drv.arch());
  if (!check) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuTensorMapReplaceAddress: {}", check.error().message));
  std::memcpy(map, edited->data(), edited->size());
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuTensorMapEncodeIm2col(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                                      const cuuint64_t*, const int*, const int*, cuuint32_t, cuuint32_t,
                                                      const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                                      CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  TCSIM_CU_ENTER();
  return drv.not_supported("cuTensorMapEncodeIm2col",
                           "the simulator's TMA implements tile mode only (sim/exec/cp_async_bulk_tensor.cc: im2col load "
                           "modes are not implemented), so no im2col map could be used");
}

// --- error strings ----------------------------------------------------------------------------

namespace {

struct ErrorName {
  CUresult code;
  const char* name;
};
constexpr ErrorName kErrors[] = {
#define TCSIM_CURESULT(name, value) {static_cast<CUresult>(value), #name},
#include "tools/cuda_driver/error_names.inc"
#undef TCSIM_CURESULT
};

const char* error_name(CUresult r) {
  for (const auto& e : kErrors)
    if (e.code == r) return e.name;
  return nullptr;
}

// "CUDA_ERROR_INVALID_VALUE" -> "invalid value": the code's name in words.
const char* error_words(CUresult r) {
  static std::map<int, std::string> cache;  // under the driver lock
  auto it = cache.find(static_cast<int>(r));
  if (it != cache.end()) return it->second.c_str();
  const char* n = error_name(r);
  if (!n) return nullptr;
  std::string_view s(n);
  if (s == "CUDA_SUCCESS") s = "no error";
  else if (s.starts_with("CUDA_ERROR_")) s.remove_prefix(11);
  std::string w(s);
  for (char& c : w) c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return cache.emplace(static_cast<int>(r), std::move(w)).first->second.c_str();
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuGetErrorName(CUresult r, const char** s) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  *s = error_name(r);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

TCSIM_CU_API CUresult CUDAAPI cuGetErrorString(CUresult r, const char** s) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> lock(Driver::get().mu);
  *s = error_words(r);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
