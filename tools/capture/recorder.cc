#include "tools/capture/recorder.h"

#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "isa/ptx/parser.h"
#include "tools/cuda_driver/fatbin.h"
#include "tools/spec/npy.h"
#include "tools/spec/output_dir.h"
#include "tools/spec/params.h"

namespace tcsim::capture {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

struct Recorder::Pending {
  unsigned index = 0;
  std::string dir, kernel;
  json spec;
  struct Buf {
    std::string name;
    uint64_t base, size;
    spec::SpecDType dtype;
  };
  std::vector<Buf> bufs;
};

namespace {

std::string hex(const uint8_t* p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += fmt::format("{:02x}", p[i]);
  return s;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return b;
}

// The buffer dtype a tensor map's element type suggests (LAUNCH_SPEC.md buffer dtypes).
spec::SpecDType buffer_dtype(spec::TmDataType t) {
  using T = spec::TmDataType;
  switch (t) {
    case T::UInt16: return spec::SpecDType::U16;
    case T::UInt32: return spec::SpecDType::U32;
    case T::Int32: return spec::SpecDType::I32;
    case T::UInt64: return spec::SpecDType::U64;
    case T::Int64: return spec::SpecDType::I64;
    case T::Float16: return spec::SpecDType::F16;
    case T::Float32:
    case T::Float32Ftz:
    case T::TFloat32:
    case T::TFloat32Ftz: return spec::SpecDType::F32;
    case T::Float64: return spec::SpecDType::F64;
    case T::BFloat16: return spec::SpecDType::BF16;
    default: return spec::SpecDType::U8;
  }
}

}  // namespace

Recorder& Recorder::get() {
  static Recorder* r = new Recorder();  // never destroyed: the program's exit handlers may still call in
  return *r;
}

void Recorder::note(const std::string& what) { std::fprintf(stderr, "tcsim-capture: %s\n", what.c_str()); }

void Recorder::init(const NextDriver& next, std::string dir) {
  next_ = next;
  dir_ = std::move(dir);
  std::error_code ec;
  fs::create_directories(fs::path(dir_) / "modules", ec);
  if (ec) {
    note(fmt::format("cannot create {}: {}; nothing is captured", dir_, ec.message()));
    dir_.clear();
    return;
  }
  if (next_.device_get_attribute) {
    next_.device_get_attribute(&cc_major_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0);
    next_.device_get_attribute(&cc_minor_, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0);
  }
  char name[256] = {};
  if (next_.device_get_name) next_.device_get_name(name, sizeof name, 0);
  gpu_ = name;
  if (next_.driver_get_version) next_.driver_get_version(&driver_version_);
}

std::string Recorder::arch_name() const {
  if (cc_major_ == 9) return "sm_90a";
  if (cc_major_ == 10 && cc_minor_ == 3) return "sm_103a";
  if (cc_major_ == 10) return "sm_100a";
  return fmt::format("sm_{}{}", cc_major_, cc_minor_);
}

void Recorder::on_alloc(CUdeviceptr base, size_t bytes) { allocs_[base] = bytes; }
void Recorder::on_free(CUdeviceptr base) { allocs_.erase(base); }

void Recorder::on_module(const void* handle, const void* image, bool is_library, const std::string& origin) {
  if (!active() || !handle || !image) return;
  Module m;
  m.is_library = is_library;
  const auto* b = static_cast<const uint8_t*>(image);
  uint32_t magic = 0;
  std::memcpy(&magic, b, 4);
  if (magic == cudrv::kFatbinWrapperMagic) {
    std::memcpy(&b, static_cast<const uint8_t*>(image) + 8, sizeof b);
    std::memcpy(&magic, b, 4);
  }
  if (magic == cudrv::kFatbinMagic) {
    std::string err, why;
    const auto fb = cudrv::parse_fatbin(b, UINT64_MAX, err);
    const auto arch = isa::parse_arch(arch_name());
    if (!fb) m.note = err;
    else if (!arch) m.note = fmt::format("tcsim models no {} device", arch_name());
    else if (const cudrv::FatbinEntry* e = cudrv::select_ptx(*fb, *arch, why)) {
      m.ptx = e->payload;
      m.target = e->target;
    } else {
      m.note = why;
    }
  } else if (std::memcmp(b, "\x7f" "ELF", 4) == 0) {
    m.note = "the module is a cubin (SASS only): no PTX to replay";
  } else {
    m.ptx = reinterpret_cast<const char*>(b);
  }
  if (!m.ptx.empty()) {
    auto ir = isa::ptx::parse(m.ptx, "captured");
    if (!ir) {
      m.note = "its PTX does not parse: " + ir.error().message;
      m.ptx.clear();
    } else {
      if (m.target.empty()) m.target = ir->target;
      m.ir = std::move(*ir);
      m.file = fmt::format("modules/module{}.{}.ptx", ++module_count_, m.target.empty() ? "unknown" : m.target);
      std::ofstream(fs::path(dir_) / m.file, std::ios::binary) << m.ptx;
    }
  }
  if (m.ptx.empty()) note(fmt::format("{}: its launches cannot be captured: {}", origin, m.note));
  modules_[handle] = std::move(m);
}

void Recorder::on_unload(const void* handle) { modules_.erase(handle); }

void Recorder::on_function(const void* function, const void* module, const std::string& name) {
  if (function) functions_[function] = {module, name};
}

void Recorder::on_kernel_function(const void* function, const void* kernel) {
  auto it = functions_.find(kernel);
  if (function && it != functions_.end()) functions_[function] = it->second;
}

void Recorder::on_tensor_map(const CUtensorMap& map, const spec::TensorMapSpec& params, uint64_t address) {
  TensorMap t;
  std::memcpy(t.bytes.data(), &map, 128);
  t.params = params;
  t.address = address;
  tensor_maps_.push_back(std::move(t));
}

void Recorder::on_tensor_map_address(const CUtensorMap& before, const CUtensorMap& after, uint64_t address) {
  for (auto& t : tensor_maps_)
    if (std::memcmp(t.bytes.data(), &before, 128) == 0) {
      TensorMap n = t;
      std::memcpy(n.bytes.data(), &after, 128);
      n.address = address;
      tensor_maps_.push_back(std::move(n));
      return;
    }
}

Recorder::PendingPtr Recorder::before_launch(const LaunchInfo& l) {
  if (!active()) return nullptr;
  const unsigned index = ++launch_count_;
  auto skip = [&](const std::string& kernel, const std::string& why) -> PendingPtr {
    note(fmt::format("launch {} ({}) is not captured: {}", index, kernel, why));
    launches_.push_back(json{{"index", index}, {"kernel", kernel}, {"captured", false}, {"why", why}}.dump());
    finish();
    return nullptr;
  };
  auto fit = functions_.find(l.function);
  if (fit == functions_.end()) {
    const char* name = nullptr;
    if (next_.func_get_name) next_.func_get_name(&name, static_cast<CUfunction>(const_cast<void*>(l.function)));
    return skip(name ? name : "?", "its kernel was not obtained through a call the capture layer sees");
  }
  const Function& fn = fit->second;
  auto mit = modules_.find(fn.module);
  if (mit == modules_.end()) return skip(fn.name, "its module was not loaded through a call the capture layer sees");
  const Module& mod = mit->second;
  if (!mod.ir) return skip(fn.name, mod.note);
  const isa::ptx::Function* entry = mod.ir->find_function(fn.name);
  if (!entry || !entry->is_entry) return skip(fn.name, "no .entry of that name in its PTX");

  // The parameter buffer, laid out as the .entry declares it (tools/spec/params.h).
  std::vector<spec::ParamInfo> params;
  for (uint32_t s : entry->params) {
    const auto& sy = mod.ir->symbols[s];
    params.push_back({sy.name, static_cast<uint32_t>(sy.size), sy.align ? sy.align : 1});
  }
  const spec::ParamLayout layout = spec::layout_params(params, fn.name);
  std::vector<uint8_t> pb(layout.total, 0);
  if (l.extra) {
    const void* buf = nullptr;
    size_t size = 0;
    for (size_t i = 0; l.extra[i] != CU_LAUNCH_PARAM_END && i < 64; i += 2) {
      if (l.extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = l.extra[i + 1];
      if (l.extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = *static_cast<const size_t*>(l.extra[i + 1]);
    }
    if (!buf || size != pb.size()) return skip(fn.name, "its `extra` parameter buffer does not match the .entry");
    std::memcpy(pb.data(), buf, size);
  } else {
    if (!l.kernel_params && !params.empty()) return skip(fn.name, "kernelParams is NULL");
    for (size_t i = 0; i < params.size(); ++i) std::memcpy(pb.data() + layout.offsets[i], l.kernel_params[i], params[i].size);
  }

  if (next_.ctx_synchronize) next_.ctx_synchronize();
  PendingPtr p(new Pending());
  p->index = index;
  p->kernel = fn.name;
  p->dir = fmt::format("launch{:04}", index);
  fs::create_directories(fs::path(dir_) / p->dir);
  // Buffers: the allocations the parameters point into, named by their base (first reference
  // order), with the element type a tensor map over them gives.
  auto buffer_of = [&](uint64_t v, uint64_t& offset) -> const Pending::Buf* {
    auto it = allocs_.upper_bound(v);
    if (it == allocs_.begin()) return nullptr;
    --it;
    if (v - it->first >= std::max<uint64_t>(it->second, 1)) return nullptr;
    offset = v - it->first;
    for (const auto& b : p->bufs)
      if (b.base == it->first) return &b;
    p->bufs.push_back({fmt::format("buf{}", p->bufs.size()), it->first, it->second, spec::SpecDType::U8});
    return &p->bufs.back();
  };
  json tensor_maps = json::object();
  std::map<size_t, std::string> tm_names;  // tensor_maps_ index -> spec name
  // The encoded map these 128 bytes are (the latest encode with exactly these bytes), named in
  // the spec once; nullopt when they are none, or its global address is in no allocation.
  auto tensor_map_at = [&](const uint8_t* bytes) -> std::optional<std::string> {
    for (size_t i = tensor_maps_.size(); i-- > 0;) {
      const TensorMap& t = tensor_maps_[i];
      if (std::memcmp(t.bytes.data(), bytes, 128) != 0) continue;
      if (auto it = tm_names.find(i); it != tm_names.end()) return it->second;
      uint64_t off = 0;
      const Pending::Buf* b = buffer_of(t.address, off);
      if (!b) return std::nullopt;
      const std::string name = fmt::format("tm{}", tm_names.size());
      tm_names[i] = name;
      const auto& q = t.params;
      json m{{"buffer", b->name}};
      if (off) m["offset_bytes"] = off;
      m["dtype"] = std::string(spec::tm_dtype_name(q.dtype));
      m["global_dims"] = q.global_dims;
      m["global_strides_bytes"] = q.global_strides_bytes;
      m["box_dims"] = q.box_dims;
      m["element_strides"] = q.element_strides;
      m["interleave"] = std::string(spec::tm_interleave_name(q.interleave));
      m["swizzle"] = std::string(spec::tm_swizzle_name(q.swizzle));
      m["l2_promotion"] = std::string(spec::tm_l2_promotion_name(q.l2_promotion));
      m["oob_fill"] = std::string(spec::tm_oob_fill_name(q.oob_fill));
      tensor_maps[name] = m;
      const uint32_t es = spec::elem_bytes(buffer_dtype(q.dtype));
      for (auto& x : p->bufs)
        if (x.base == b->base && x.dtype == spec::SpecDType::U8 && x.size % es == 0) x.dtype = buffer_dtype(q.dtype);
      return name;
    }
    return std::nullopt;
  };
  auto pointer_json = [&](const uint8_t* at, json& out) {
    uint64_t v = 0, off = 0;
    std::memcpy(&v, at, 8);
    const Pending::Buf* b = buffer_of(v, off);
    if (!b) return false;
    out["buffer"] = b->name;
    if (off) out["offset_bytes"] = off;
    return true;
  };
  json args = json::array();
  for (size_t i = 0; i < params.size(); ++i) {
    const uint8_t* a = pb.data() + layout.offsets[i];
    const uint32_t n = params[i].size;
    json arg = json::object();
    std::optional<std::string> tm;
    if (n == 8 && pointer_json(a, arg)) {
    } else if (n == 128 && params[i].align >= 64 && (tm = tensor_map_at(a))) {
      arg["tensor_map"] = *tm;
    } else if (n == 1 || n == 2 || n == 4 || n == 8) {
      uint64_t v = 0;
      std::memcpy(&v, a, n);
      arg[n == 1 ? "u8" : n == 2 ? "u16" : n == 4 ? "u32" : "u64"] = fmt::format("0x{:x}", v);
    } else {
      // An aggregate (a Params struct): pointer and tensor-map fields where its words are device
      // addresses / encoded maps, the other non-zero bytes as `bytes` fields (LAUNCH_SPEC.md).
      json fields = json::array();
      std::vector<bool> covered(n, false);
      for (uint32_t o = 0; o + 128 <= n; o += 64)
        if (auto t = tensor_map_at(a + o)) {
          fields.push_back(json{{"offset", o}, {"tensor_map", *t}});
          std::fill(covered.begin() + o, covered.begin() + o + 128, true);
          o += 64;
        }
      for (uint32_t o = 0; o + 8 <= n; o += 8) {
        if (covered[o]) continue;
        json f{{"offset", o}};
        if (pointer_json(a + o, f)) {
          fields.push_back(f);
          std::fill(covered.begin() + o, covered.begin() + o + 8, true);
        }
      }
      // Each stretch of bytes between covered fields, trimmed of zeros (uncovered bytes are zero).
      for (uint32_t o = 0; o < n;) {
        if (covered[o]) {
          ++o;
          continue;
        }
        uint32_t e = o;
        while (e < n && !covered[e]) ++e;
        uint32_t lo = o, hi = e;
        while (lo < hi && a[lo] == 0) ++lo;
        while (hi > lo && a[hi - 1] == 0) --hi;
        if (hi > lo) fields.push_back(json{{"offset", lo}, {"bytes", hex(a + lo, hi - lo)}});
        o = e;
      }
      std::sort(fields.begin(), fields.end(), [](const json& x, const json& y) { return x["offset"] < y["offset"]; });
      arg["struct"] = json{{"size", n}, {"fields", fields}};
    }
    args.push_back(arg);
  }

  // Module variables, as they are now (their PTX initialisers may have been overwritten by the
  // program: cudaMemcpyToSymbol). Ones initialised with addresses stay as their PTX says.
  json symbols = json::object();
  for (const auto& s : mod.ir->symbols) {
    if (s.function >= 0 || (s.space != isa::ptx::Space::Global && s.space != isa::ptx::Space::Const)) continue;
    if (s.is_extern || s.size == 0 || !s.relocs.empty()) continue;
    CUdeviceptr addr = 0;
    size_t bytes = 0;
    CUresult r = CUDA_ERROR_NOT_FOUND;
    if (mod.is_library && next_.library_get_global)
      r = next_.library_get_global(&addr, &bytes, static_cast<CUlibrary>(const_cast<void*>(fn.module)), s.name.c_str());
    else if (next_.module_get_global)
      r = next_.module_get_global(&addr, &bytes, static_cast<CUmodule>(const_cast<void*>(fn.module)), s.name.c_str());
    if (r != CUDA_SUCCESS || bytes != s.size) continue;
    std::vector<uint8_t> data(bytes);
    if (next_.memcpy_dtoh(data.data(), addr, bytes) != CUDA_SUCCESS) continue;
    const std::string file = fmt::format("sym_{}.npy", s.name);
    spec::write_npy((fs::path(dir_) / p->dir / file).string(), "|u1", {bytes}, data.data(), bytes);
    symbols[s.name] = json{{"init", {{"file", file}}}};
  }

  json buffers = json::object();
  json outputs = json::array();
  for (const auto& b : p->bufs) {
    const uint32_t es = spec::elem_bytes(b.dtype);
    std::vector<uint8_t> data(b.size);
    if (next_.memcpy_dtoh(data.data(), b.base, b.size) != CUDA_SUCCESS)
      return skip(fn.name, fmt::format("reading {} ({} bytes) back failed", b.name, b.size));
    const std::string file = fmt::format("in_{}.npy", b.name);
    spec::write_npy((fs::path(dir_) / p->dir / file).string(), std::string(spec::info(b.dtype).npy_descr), {b.size / es},
                    data.data(), b.size);
    buffers[b.name] = json{{"dtype", std::string(spec::name(b.dtype))}, {"shape", {b.size / es}}, {"init", {{"file", file}}}};
    outputs.push_back(b.name);
  }
  json& sp = p->spec;
  sp["ptx"] = "../" + mod.file;
  sp["kernel"] = fn.name;
  sp["arch"] = arch_name();
  sp["grid"] = l.grid;
  sp["block"] = l.block;
  if (l.cluster_given) sp["cluster"] = l.cluster;
  sp["dynamic_smem_bytes"] = l.smem;
  sp["buffers"] = buffers;
  if (!tensor_maps.empty()) sp["tensor_maps"] = tensor_maps;
  sp["args"] = args;
  if (!symbols.empty()) sp["symbols"] = symbols;
  sp["outputs"] = outputs;
  return p;
}

void Recorder::PendingDeleter::operator()(Pending* p) const { delete p; }

void Recorder::after_launch(PendingPtr p, CUresult launch_result) {
  if (!p) return;
  const fs::path d = fs::path(dir_) / p->dir;
  if (launch_result != CUDA_SUCCESS) {
    note(fmt::format("launch {} ({}) failed to launch (CUresult {}): not captured", p->index, p->kernel,
                     static_cast<int>(launch_result)));
    launches_.push_back(json{{"index", p->index}, {"kernel", p->kernel}, {"captured", false},
                             {"why", fmt::format("the launch returned CUresult {}", static_cast<int>(launch_result))}}
                            .dump());
    finish();
    return;
  }
  const CUresult sync = next_.ctx_synchronize ? next_.ctx_synchronize() : CUDA_SUCCESS;
  std::ofstream(d / "spec.json") << p->spec.dump(2) << "\n";
  std::string status = "captured";
  if (sync != CUDA_SUCCESS) {
    status = fmt::format("the kernel failed (CUresult {}): spec and inputs written, no outputs", static_cast<int>(sync));
  } else {
    std::vector<spec::OutputArray> outs;
    for (const auto& b : p->bufs) {
      spec::OutputArray o;
      o.name = b.name;
      o.dtype = b.dtype;
      o.shape = {b.size / spec::elem_bytes(b.dtype)};
      o.data.resize(b.size);
      next_.memcpy_dtoh(o.data.data(), b.base, b.size);
      outs.push_back(std::move(o));
    }
    spec::RunInfo info;
    info.tool = "tcsim capture";
    info.arch = arch_name();
    info.spec = "spec.json";
    info.kernel = p->kernel;
    info.extra = {{"gpu", gpu_}, {"compute_capability", fmt::format("{}.{}", cc_major_, cc_minor_)},
                  {"driver_version", std::to_string(driver_version_)}, {"date", utc_now()}};
    spec::write_output_dir((d / "out").string(), info, outs);
  }
  launches_.push_back(json{{"index", p->index}, {"kernel", p->kernel}, {"captured", status == "captured"},
                           {"dir", p->dir}, {"status", status}}
                          .dump());
  finish();
}

void Recorder::finish() {
  if (!active()) return;
  json j;
  j["tool"] = "tcsim capture";
  j["gpu"] = gpu_;
  j["arch"] = arch_name();
  j["driver_version"] = driver_version_;
  j["date"] = utc_now();
  j["launches"] = json::array();
  for (const auto& l : launches_) j["launches"].push_back(json::parse(l));
  std::ofstream(fs::path(dir_) / "capture.json") << j.dump(2) << "\n";
}

}  // namespace tcsim::capture
