#include "tools/spec/tensor_map_encode.h"

#include <fmt/format.h>

#include "isa/descriptors/tensor_map.h"
#include "tools/spec/spec_error.h"

namespace tcsim::spec {
namespace {

isa::TensorMapParams to_params(const TensorMapSpec& t, uint64_t address) {
  isa::TensorMapParams p;
  p.data_type = t.dtype;
  p.rank = t.rank();
  p.global_address = address;
  for (size_t i = 0; i < t.global_dims.size() && i < p.global_dim.size(); ++i) p.global_dim[i] = t.global_dims[i];
  for (size_t i = 0; i < t.global_strides_bytes.size() && i < p.global_strides.size(); ++i)
    p.global_strides[i] = t.global_strides_bytes[i];
  for (size_t i = 0; i < t.box_dims.size() && i < p.box_dim.size(); ++i) p.box_dim[i] = t.box_dims[i];
  for (size_t i = 0; i < t.element_strides.size() && i < p.element_strides.size(); ++i)
    p.element_strides[i] = t.element_strides[i];
  p.interleave = t.interleave;
  p.swizzle = t.swizzle;
  p.l2_promotion = t.l2_promotion;
  p.oob_fill = t.oob_fill;
  return p;
}

}  // namespace

std::vector<std::string> tensor_map_violations(const TensorMapSpec& t, uint64_t address, isa::Arch arch) {
  std::vector<std::string> r;
  for (const auto& v : isa::validate_tensor_map(to_params(t, address), arch)) r.push_back(v.to_string());
  return r;
}

std::vector<std::byte> encode_tensor_map_bytes(const TensorMapSpec& t, uint64_t address,
                                               const std::string& spec_file, isa::Arch arch) {
  const std::vector<std::string> v = tensor_map_violations(t, address, arch);
  if (!v.empty())
    throw spec_error(spec_file, "tensor_maps." + t.name,
                     fmt::format("rejected (as cuTensorMapEncodeTiled would): {}", fmt::join(v, "; ")));
  const auto e = isa::encode_tensor_map(to_params(t, address), arch);
  if (!e) throw spec_error(spec_file, "tensor_maps." + t.name, "cannot be encoded: " + e.error().message);
  std::vector<std::byte> b(e->size());
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<std::byte>((*e)[i]);
  return b;
}


}  // namespace tcsim::spec
