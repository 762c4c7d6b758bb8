#include "tools/spec/params.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "tools/spec/spec_error.h"

namespace tcsim::spec {
namespace {

std::string list_entries(const std::vector<std::string>& entries) {
  if (entries.empty()) return "the module has no .entry";
  std::string r = "entries: ";
  for (size_t i = 0; i < entries.size(); ++i) r += (i ? ", " : "") + entries[i];
  return r;
}

std::string list_params(std::span<const ParamInfo> params) {
  std::string r;
  for (size_t i = 0; i < params.size(); ++i)
    r += fmt::format("{}{} '{}' ({} bytes)", i ? ", " : "", i, params[i].name, params[i].size);
  return r.empty() ? "none" : r;
}

}  // namespace

std::string resolve_kernel(const LaunchSpec& spec, const std::vector<std::string>& entries) {
  for (const auto& e : entries)
    if (e == spec.kernel) return e;
  std::vector<std::string> hits;
  for (const auto& e : entries)
    if (e.find(spec.kernel) != std::string::npos) hits.push_back(e);
  if (hits.size() == 1) return hits[0];
  if (hits.empty())
    throw spec_error(spec.path, "kernel",
                     fmt::format("no .entry named or containing \"{}\" in {} ({})", spec.kernel,
                                 spec.ptx, list_entries(entries)));
  throw spec_error(spec.path, "kernel",
                   fmt::format("\"{}\" matches {} entries in {}: {}; give the full name", spec.kernel,
                               hits.size(), spec.ptx, fmt::join(hits, ", ")));
}

ParamLayout layout_params(std::span<const ParamInfo> params, const std::string& kernel) {
  ParamLayout l;
  uint64_t off = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    const uint32_t a = params[i].align ? params[i].align : 1;
    if ((a & (a - 1)) != 0)
      throw SpecError(fmt::format("kernel '{}' parameter {} '{}': alignment {} is not a power of two",
                                  kernel, i, params[i].name, a));
    off = (off + a - 1) / a * a;
    l.offsets.push_back(static_cast<uint32_t>(off));
    off += params[i].size;
    if (off > UINT32_MAX) throw SpecError(fmt::format("kernel '{}': parameters exceed 4 GiB", kernel));
  }
  l.total = static_cast<uint32_t>(off);
  return l;
}

void check_args(const LaunchSpec& spec, std::string_view kernel, std::span<const ParamInfo> params) {
  if (spec.args.size() != params.size())
    throw spec_error(spec.path, "args",
                     fmt::format("kernel '{}' has {} parameter{} ({}), but the spec gives {} argument{}",
                                 kernel, params.size(), params.size() == 1 ? "" : "s",
                                 list_params(params), spec.args.size(), spec.args.size() == 1 ? "" : "s"));
  for (size_t i = 0; i < params.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    if (a.size() != params[i].size)
      throw spec_error(spec.path, fmt::format("args[{}]", i),
                       fmt::format("kernel '{}' parameter {} '{}' is {} bytes, but {} is {} bytes{}",
                                   kernel, i, params[i].name, params[i].size, a.describe(), a.size(),
                                   a.kind == ArgKind::Scalar && params[i].size <= 8
                                       ? " (give a scalar of the parameter's size)"
                                       : ""));
  }
}

std::vector<std::byte> build_param_buffer(const LaunchSpec& spec, std::string_view kernel,
                                          std::span<const ParamInfo> params, const ArgValues& values) {
  check_args(spec, kernel, params);
  const ParamLayout l = layout_params(params, std::string(kernel));
  std::vector<std::byte> buf(l.total);
  for (size_t i = 0; i < params.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    std::byte* dst = buf.data() + l.offsets[i];
    switch (a.kind) {
      case ArgKind::Buffer: {
        const uint64_t addr = values.buffer_address(a);
        std::memcpy(dst, &addr, 8);
        break;
      }
      case ArgKind::TensorMap: {
        const std::vector<std::byte> tm = values.tensor_map_bytes(a);
        std::memcpy(dst, tm.data(), std::min<size_t>(tm.size(), 128));
        break;
      }
      case ArgKind::Scalar: std::memcpy(dst, &a.scalar_bits, a.size()); break;
    }
  }
  return buf;
}

}  // namespace tcsim::spec
