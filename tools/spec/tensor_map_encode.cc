#include "tools/spec/tensor_map_encode.h"

#include <fmt/format.h>

#include "tools/spec/spec_error.h"

// isa/descriptors/tensor_map.h comes from the descriptors work; until it is part of the tree this
// file reports that tensor maps cannot be built (the guard goes once it has landed).
#if __has_include("isa/descriptors/tensor_map.h")
#include "isa/descriptors/tensor_map.h"
#define TCSIM_HAVE_TENSOR_MAP 1
#else
#define TCSIM_HAVE_TENSOR_MAP 0
#endif

namespace tcsim::spec {

#if TCSIM_HAVE_TENSOR_MAP
namespace {

// The spec's enums carry cuda.h's values, as isa's do.
static_assert(static_cast<int>(isa::TensorMapDataType::U6x16Align16B) == static_cast<int>(TmDataType::U6x16Align16B));
static_assert(static_cast<int>(isa::TensorMapSwizzle::B128Atom64B) == static_cast<int>(TmSwizzle::B128Atom64B));
static_assert(static_cast<int>(isa::TensorMapInterleave::B32) == static_cast<int>(TmInterleave::B32));
static_assert(static_cast<int>(isa::TensorMapL2Promotion::L2_256B) == static_cast<int>(TmL2Promotion::B256));
static_assert(static_cast<int>(isa::TensorMapOobFill::NanRequestZeroFma) == static_cast<int>(TmOobFill::NanRequestZeroFma));

isa::TensorMapParams to_params(const TensorMapSpec& t, uint64_t address) {
  isa::TensorMapParams p;
  p.data_type = static_cast<isa::TensorMapDataType>(t.dtype);
  p.rank = t.rank();
  p.global_address = address;
  for (size_t i = 0; i < t.global_dims.size() && i < p.global_dim.size(); ++i) p.global_dim[i] = t.global_dims[i];
  for (size_t i = 0; i < t.global_strides_bytes.size() && i < p.global_strides.size(); ++i)
    p.global_strides[i] = t.global_strides_bytes[i];
  for (size_t i = 0; i < t.box_dims.size() && i < p.box_dim.size(); ++i) p.box_dim[i] = t.box_dims[i];
  for (size_t i = 0; i < t.element_strides.size() && i < p.element_strides.size(); ++i)
    p.element_strides[i] = t.element_strides[i];
  p.interleave = static_cast<isa::TensorMapInterleave>(t.interleave);
  p.swizzle = static_cast<isa::TensorMapSwizzle>(t.swizzle);
  p.l2_promotion = static_cast<isa::TensorMapL2Promotion>(t.l2_promotion);
  p.oob_fill = static_cast<isa::TensorMapOobFill>(t.oob_fill);
  return p;
}

}  // namespace

bool tcsim_tensor_maps_available() { return true; }

std::vector<std::string> tensor_map_violations(const TensorMapSpec& t, uint64_t address) {
  std::vector<std::string> r;
  for (const auto& v : isa::validate_tensor_map(to_params(t, address))) r.push_back(v.to_string());
  return r;
}

std::vector<std::byte> encode_tensor_map_bytes(const TensorMapSpec& t, uint64_t address,
                                               const std::string& spec_file) {
  const std::vector<std::string> v = tensor_map_violations(t, address);
  if (!v.empty())
    throw spec_error(spec_file, "tensor_maps." + t.name,
                     fmt::format("rejected (as cuTensorMapEncodeTiled would): {}", fmt::join(v, "; ")));
  const auto e = isa::encode_tensor_map(to_params(t, address));
  if (!e) throw spec_error(spec_file, "tensor_maps." + t.name, "cannot be encoded: " + e.error().message);
  std::vector<std::byte> b(e->size());
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::byte>((*e)[i]);
  return b;
}

#else

bool tcsim_tensor_maps_available() { return false; }

std::vector<std::string> tensor_map_violations(const TensorMapSpec& t, uint64_t) {
  throw SpecError(fmt::format("tensor_maps.{}: this build of tcsim cannot check tensor maps "
                              "(isa/descriptors/tensor_map.h is not part of it)", t.name));
}

std::vector<std::byte> encode_tensor_map_bytes(const TensorMapSpec& t, uint64_t address, const std::string&) {
  tensor_map_violations(t, address);
  return {};
}

#endif

}  // namespace tcsim::spec
