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

namespace {

// Why an argument needs its alignment: the first field (depth first) that needs it.
std::string align_reason(const ArgSpec& a, const std::string& where) {
  switch (a.kind) {
    case ArgKind::TensorMap: return fmt::format("{} is a tensor map (CUtensorMap is alignas(64))", where);
    case ArgKind::Buffer: return fmt::format("{} is a pointer", where);
    case ArgKind::Scalar: return fmt::format("{} is a scalar of {} bytes", where, a.size());
    case ArgKind::Bytes: return fmt::format("{} is bytes", where);
    case ArgKind::Struct:
      for (size_t i = 0; i < a.fields.size(); ++i)
        if (a.fields[i].align() == a.align())
          return align_reason(a.fields[i], fmt::format("its field at offset {} {}", a.fields[i].field_offset,
                                                       a.fields[i].describe()));
      return "it is a struct";
  }
  return "?";
}

}  // namespace

void check_args(const LaunchSpec& spec, std::string_view kernel, std::span<const ParamInfo> params) {
  if (spec.args.size() != params.size())
    throw spec_error(spec.path, "args",
                     fmt::format("kernel '{}' has {} parameter{} ({}), but the spec gives {} argument{}",
                                 kernel, params.size(), params.size() == 1 ? "" : "s",
                                 list_params(params), spec.args.size(), spec.args.size() == 1 ? "" : "s"));
  for (size_t i = 0; i < params.size(); ++i) {
    const ArgSpec& a = spec.args[i];
    const ParamInfo& p = params[i];
    if (a.size() != p.size)
      throw spec_error(spec.path, fmt::format("args[{}]", i),
                       fmt::format("kernel '{}' parameter {} '{}' is {} bytes, but {} is {} bytes{}",
                                   kernel, i, p.name, p.size, a.describe(), a.size(),
                                   a.kind == ArgKind::Scalar && p.size <= 8
                                       ? " (give a scalar of the parameter's size)"
                                       : ""));
    const uint32_t palign = p.align ? p.align : 1;
    if (palign % a.align() != 0)
      throw spec_error(spec.path, fmt::format("args[{}]", i),
                       fmt::format("kernel '{}' parameter {} '{}' ({} bytes) is aligned to {} bytes, but {} needs "
                                   "{}-byte alignment ({}): the parameter is not the type the spec describes{}",
                                   kernel, i, p.name, p.size, palign, a.describe(), a.align(),
                                   align_reason(a, "it"),
                                   a.kind == ArgKind::Scalar ? " (give it as {\"bytes\": ...} or a struct)" : ""));
  }
}

void pack_arg(const ArgSpec& a, const ArgValues& values, std::span<std::byte> dst) {
  if (dst.size() != a.size())
    throw SpecError(fmt::format("{}: internal: packing {} bytes into {}", a.json_path, a.size(), dst.size()));
  switch (a.kind) {
    case ArgKind::Buffer: {
      const uint64_t addr = values.buffer_address(a);
      std::memcpy(dst.data(), &addr, 8);
      return;
    }
    case ArgKind::TensorMap: {
      const std::vector<std::byte> tm = values.tensor_map_bytes(a);
      if (tm.size() != 128)
        throw SpecError(fmt::format("{}: internal: tensor map \"{}\" encoded to {} bytes, not 128", a.json_path,
                                    a.name, tm.size()));
      std::memcpy(dst.data(), tm.data(), 128);
      return;
    }
    case ArgKind::Scalar: std::memcpy(dst.data(), &a.scalar_bits, a.size()); return;
    case ArgKind::Bytes:
      // No bytes: both pointers may be null, and memcpy with a null pointer is undefined even for 0
      // bytes (C11 7.24.1p2). The spec parser refuses an empty "bytes", other callers need not.
      if (!a.bytes.empty()) std::memcpy(dst.data(), a.bytes.data(), a.bytes.size());
      return;
    case ArgKind::Struct:
      std::fill(dst.begin(), dst.end(), std::byte{0});
      for (const ArgSpec& f : a.fields) pack_arg(f, values, dst.subspan(f.field_offset, f.size()));
      return;
  }
}

std::vector<std::byte> pack_arg(const ArgSpec& a, const ArgValues& values) {
  std::vector<std::byte> b(a.size());
  pack_arg(a, values, b);
  return b;
}

std::vector<std::byte> build_param_buffer(const LaunchSpec& spec, std::string_view kernel,
                                          std::span<const ParamInfo> params, const ArgValues& values) {
  check_args(spec, kernel, params);
  const ParamLayout l = layout_params(params, std::string(kernel));
  std::vector<std::byte> buf(l.total);
  for (size_t i = 0; i < params.size(); ++i)
    pack_arg(spec.args[i], values, std::span<std::byte>(buf).subspan(l.offsets[i], params[i].size));
  return buf;
}

}  // namespace tcsim::spec
