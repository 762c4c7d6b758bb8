#include "tools/spec/runner.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "tools/spec/buffer_init.h"
#include "tools/spec/npy.h"
#include "tools/spec/host_memory.h"
#include "tools/spec/input_file.h"
#include "tools/spec/spec_error.h"

namespace tcsim::spec {

std::string read_ptx(const LaunchSpec& spec) {
  try {
    return read_regular_file(spec.ptx_path, kMaxPtxBytes);
  } catch (const InputFileError& e) {
    throw spec_error(spec.path, "ptx", fmt::format("cannot read the PTX file \"{}\" (resolved to {}): it {}",
                                                   spec.ptx, spec.ptx_path, e.what()));
  }
}

std::string resolve_arch(const LaunchSpec& spec, const std::string& ptx_text) {
  if (spec.arch) return *spec.arch;
  const std::string t = ptx_target(ptx_text);
  if (t.empty())
    throw spec_error(spec.path, "arch",
                     fmt::format("no \"arch\" given and {} has no .target directive", spec.ptx));
  return t;
}

void check_tensor_map_extent(const LaunchSpec& spec, const TensorMapSpec& t) {
  const BufferSpec* b = spec.find_buffer(t.buffer);
  if (!b) throw spec_error(spec.path, "tensor_maps." + t.name, "no buffer " + t.buffer);
  unsigned __int128 end = t.offset_bytes;
  for (size_t i = 1; i < t.global_dims.size(); ++i)
    if (t.global_dims[i] > 0)
      end += static_cast<unsigned __int128>(t.global_dims[i] - 1) * t.global_strides_bytes[i - 1];
  end += static_cast<unsigned __int128>(tm_dim0_bytes(t.dtype, t.global_dims[0]));
  if (end > b->bytes())
    throw spec_error(spec.path, "tensor_maps." + t.name,
                     fmt::format("the tensor it describes ends {} bytes past the start of buffer "
                                 "\"{}\", which has {} bytes (offset {} + strides x (dims-1) + dim 0 "
                                 "of {} {}-elements)", static_cast<uint64_t>(end), b->name, b->bytes(),
                                 t.offset_bytes, t.global_dims[0], tm_dtype_name(t.dtype)));
}

void check_symbol_file(const InitSpec& init, uint64_t symbol_bytes) {
  const NpyHeader h = read_npy_header(init.file_path);
  const unsigned __int128 bytes = static_cast<unsigned __int128>(h.count()) * h.item_size;
  if (bytes != symbol_bytes)
    throw spec_error(init.spec_file, init.json_path,
                     fmt::format("{} holds {} bytes ({} elements of {} bytes, '{}', shape ({})), but the "
                                 "variable is declared with {} bytes (a file must hold exactly the "
                                 "declaration's bytes, whatever its element type)",
                                 init.file, static_cast<uint64_t>(bytes), h.count(), h.item_size, h.descr,
                                 fmt::join(h.shape, ", "), symbol_bytes));
}

std::vector<std::byte> symbol_file_bytes(const InitSpec& init, uint64_t symbol_bytes) {
  NpyArray a = read_npy(init.file_path);
  if (a.data.size() != symbol_bytes) check_symbol_file(init, symbol_bytes);  // changed since the check
  if (a.data.size() != symbol_bytes)
    throw spec_error(init.spec_file, init.json_path, fmt::format("{} changed while it was read", init.file));
  return std::move(a.data);
}

RunResult run_spec(const LaunchSpec& spec, const std::string& ptx_text, Backend& be) {
  RunResult r;
  be.load_module(ptx_text, spec.ptx_path);
  r.kernel = resolve_kernel(spec, be.kernel_names());
  const std::vector<ParamInfo> params = be.kernel_params(r.kernel);
  check_args(spec, r.kernel, params);  // before any allocation: a bad spec costs nothing

  // Symbols: resolve and check every one before touching memory.
  struct SymbolInit {
    const SymbolSpec* s;
    SymbolRef ref;
    uint64_t count;
  };
  std::vector<SymbolInit> syms;
  for (const auto& s : spec.symbols) {
    SymbolRef ref;
    const std::string p = "symbols." + s.name;
    if (!be.symbol(s.name, ref))
      throw spec_error(spec.path, p, fmt::format("{} declares no .global or .const variable \"{}\"",
                                                 spec.ptx, s.name));
    if (s.init.kind == InitKind::File) {
      // A file is matched by bytes (LAUNCH_SPEC.md "symbols"): nvcc declares most tables as .b8
      // arrays, so the .npy's element type need not be the declaration's.
      check_symbol_file(s.init, ref.size);
      syms.push_back({&s, ref, ref.size});
      continue;
    }
    const uint32_t es = elem_bytes(s.dtype);
    if (ref.size % es != 0)
      throw spec_error(spec.path, p, fmt::format("the variable is {} bytes, not a whole number of {} "
                                                 "elements ({} bytes each){}", ref.size, name(s.dtype), es,
                                                 s.dtype_given ? "" : " (set \"dtype\")"));
    check_init(s.init, s.dtype, ref.size / es);
    syms.push_back({&s, ref, ref.size / es});
  }
  for (const auto& t : spec.tensor_maps) check_tensor_map_extent(spec, t);

  // Host memory before any allocation: the device image of every buffer, the largest initial image
  // while it is copied in, and the outputs read back.
  // A zero image on a backend whose fresh allocations are zero is never built (lazy zero pages).
  auto skip_init = [&](const BufferSpec& b) {
    return b.init.kind == InitKind::Uninitialised || (be.malloc_returns_zeroes() && is_zero_init(b.init, b.dtype));
  };
  uint64_t need = 0, largest = 0;
  for (const auto& b : spec.buffers) {
    need += b.bytes();
    if (!skip_init(b) && !be.host_visible()) largest = std::max(largest, b.bytes());
  }
  for (const auto& n : spec.outputs) need += spec.find_buffer(n)->bytes();
  check_host_memory(need + largest, spec.path, "buffers",
                    fmt::format("the {} buffer{} of this spec", spec.buffers.size(), spec.buffers.size() == 1 ? "" : "s"));

  std::map<std::string, uint64_t> addr;
  for (const auto& b : spec.buffers) {
    const uint64_t a = be.malloc(b.bytes());
    addr[b.name] = a;
    be.name_buffer(a, b.name);
    if (b.init.kind == InitKind::Uninitialised) continue;  // never written by the host
    if (skip_init(b)) {
      be.host_wrote_zeroes(a, b.bytes());  // the zeros are there already: initialised all the same
      continue;
    }
    // Filled in place where the device is host memory (one copy of the buffer, not two).
    if (const std::span<std::byte> dst = be.host_bytes(a, b.bytes()); dst.size() == b.bytes()) {
      fill_init_bytes(b.init, b.dtype, b.count(), dst);
      continue;
    }
    const std::vector<std::byte> init = make_init_bytes(b.init, b.dtype, b.count());
    be.copy_to_device(a, init.data(), init.size());
  }
  for (const auto& s : syms) {
    const std::vector<std::byte> init = s.s->init.kind == InitKind::File
                                            ? symbol_file_bytes(s.s->init, s.ref.size)
                                            : make_init_bytes(s.s->init, s.s->dtype, s.count);
    be.copy_to_device(s.ref.address, init.data(), init.size());
  }
  std::map<std::string, std::vector<std::byte>> maps;
  for (const auto& t : spec.tensor_maps) maps[t.name] = be.encode_tensor_map(t, addr.at(t.buffer) + t.offset_bytes);

  ArgValues values;
  values.buffer_address = [&](const ArgSpec& a) { return addr.at(a.name) + a.offset_bytes; };
  values.tensor_map_bytes = [&](const ArgSpec& a) { return maps.at(a.name); };
  const std::vector<std::byte> pbuf = build_param_buffer(spec, r.kernel, params, values);

  r.outcome = be.launch(r.kernel, spec, pbuf, params);

  for (const auto& n : spec.outputs) {
    const BufferSpec& b = *spec.find_buffer(n);
    OutputArray o;
    o.name = n;
    o.dtype = b.dtype;
    o.shape = b.shape;
    o.data.resize(b.bytes());
    be.copy_from_device(o.data.data(), addr.at(n), o.data.size());
    r.outputs.push_back(std::move(o));
  }
  return r;
}

}  // namespace tcsim::spec
