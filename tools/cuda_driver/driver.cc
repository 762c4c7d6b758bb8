#include "tools/cuda_driver/driver.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "models/machine/machine_config.h"
#include "tools/cuda_driver/fatbin.h"
#include "tools/spec/params.h"
#include "tools/spec/spec_error.h"

namespace tcsim::cudrv {
namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

bool parse_u64(const char* s, uint64_t& out) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s, &end, 0);
  if (errno || !end || *end || end == s) return false;
  out = v;
  return true;
}

}  // namespace

Driver& Driver::get() {
  // Never destroyed: cudart calls the driver from its own exit handlers.
  static Driver* d = new Driver();
  return *d;
}

Driver::Driver() {
  trace_ = env("TCSIM_CUDA_TRACE") != nullptr;
  report_ = env("TCSIM_CUDA_REPORT") != nullptr;
}

CUresult Driver::init() {
  if (initialized_) return CUDA_SUCCESS;
  sim::DeviceOptions o;
  if (const char* a = env("TCSIM_ARCH")) {
    const auto arch = isa::parse_arch(a);
    if (!arch || *arch == isa::Arch::Sm100f)
      return fail(CUDA_ERROR_NO_DEVICE, fmt::format("TCSIM_ARCH={}: not a device tcsim models (sm_100a: a B200, "
                                                    "sm_90a: an H200)", a));
    arch_ = *arch;
  }
  struct {
    const char* name;
    uint64_t* dst;
  } nums[] = {{"TCSIM_SEED", &o.seed}, {"TCSIM_MAX_STEPS", &o.max_steps}};
  for (auto& n : nums)
    if (const char* v = env(n.name); v && !parse_u64(v, *n.dst))
      return fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}={}: not a non-negative integer", n.name, v));
  if (const char* v = env("TCSIM_THREADS")) {
    uint64_t t = 0;
    if (!parse_u64(v, t) || t > 4096)
      return fail(CUDA_ERROR_INVALID_VALUE, fmt::format("TCSIM_THREADS={}: not a thread count", v));
    o.host_threads = static_cast<unsigned>(t);
  }
  if (o.seed) o.schedule = sim::Schedule::Random;
  props_ = &device_props(arch_);
  try {
    device_ = std::make_unique<sim::Device>(arch_, o);
  } catch (const std::exception& e) {
    return fail(CUDA_ERROR_OUT_OF_MEMORY, fmt::format("cannot create the simulated device: {}", e.what()));
  }
  primary_.primary = true;
  primary_.id = next_id();
  initialized_ = true;
  note(fmt::format("cuInit: simulated {} ({})", props_->name, isa::arch_name(arch_)));
  return CUDA_SUCCESS;
}

CUresult Driver::fail(CUresult r, const std::string& msg) {
  std::fprintf(stderr, "tcsim-cuda: %s\n", msg.c_str());
  return r;
}

CUresult Driver::not_supported(std::string_view call, std::string_view why) {
  return fail(CUDA_ERROR_NOT_SUPPORTED,
              fmt::format("{} is not supported by tcsim{}{} (CUDA_ERROR_NOT_SUPPORTED)", call, why.empty() ? "" : ": ", why));
}

void Driver::report(const std::string& msg) const {
  if (report_) std::fprintf(stderr, "tcsim-cuda: %s\n", msg.c_str());
}

void Driver::note(const std::string& msg) {
  if (trace_) std::fprintf(stderr, "tcsim-cuda: trace: %s\n", msg.c_str());
}

// --- contexts ---------------------------------------------------------------------------------

std::vector<Context*>& Driver::ctx_stack() {
  thread_local std::vector<Context*> stack;
  return stack;
}

Context* Driver::current() {
  auto& s = ctx_stack();
  return s.empty() ? nullptr : s.back();
}

CUresult Driver::need_context(Context*& out, bool quiet) {
  out = current();
  if (!out && quiet) return CUDA_ERROR_INVALID_CONTEXT;
  if (!out) return fail(CUDA_ERROR_INVALID_CONTEXT, "no current context (call cuCtxCreate, or cuDevicePrimaryCtxRetain "
                                                    "and cuCtxSetCurrent, first)");
  if (out->primary && !out->active)
    return fail(CUDA_ERROR_INVALID_CONTEXT, "the current context is the primary context, which is not retained");
  return CUDA_SUCCESS;
}

Context* Driver::create_context(unsigned flags) {
  auto c = std::make_unique<Context>();
  c->flags = flags;
  c->active = true;
  c->id = next_id();
  Context* p = c.get();
  contexts_[p] = std::move(c);
  return p;
}

void Driver::destroy_context(Context* c) {
  flush();
  for (auto& [k, cls] : c->cls)
    if (cls.dtor) cls.dtor(reinterpret_cast<CUcontext>(c), k, cls.value);
  c->cls.clear();
  for (auto& s : ctx_stack())
    if (s == c) s = nullptr;
  std::erase(ctx_stack(), nullptr);
  contexts_.erase(c);
}

bool Driver::stream(CUstream s, Stream*& out) const {
  out = nullptr;
  if (s == nullptr || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD) return true;
  auto it = streams.find(reinterpret_cast<Stream*>(s));
  if (it == streams.end()) return false;
  out = it->first;
  return true;
}

int Driver::smem_optin() const { return static_cast<int>(models::machine_config(arch_).max_smem_per_cta); }

// --- memory -----------------------------------------------------------------------------------

const std::pair<const uint64_t, DeviceAlloc>* Driver::find_device(uint64_t addr) const {
  auto it = device_allocs.upper_bound(addr);
  if (it == device_allocs.begin()) return nullptr;
  --it;
  if (addr - it->first < std::max<uint64_t>(it->second.size, 1)) return &*it;
  return nullptr;
}

const std::pair<const uint64_t, HostAlloc>* Driver::find_host(uint64_t addr) const {
  auto it = host_allocs.upper_bound(addr);
  if (it == host_allocs.begin()) return nullptr;
  --it;
  if (addr - it->first < std::max<uint64_t>(it->second.size, 1)) return &*it;
  return nullptr;
}

bool Driver::is_device_range(uint64_t addr, uint64_t bytes) const {
  const auto* a = find_device(addr);
  return a && bytes <= a->second.size - (addr - a->first);
}

double Driver::copy_ms(uint64_t bytes, bool device_to_device) const {
  // Device-to-device copies read and write device memory: 2 bytes of traffic per byte.
  const double gbps = device_to_device ? props_->dram_gb_per_s / 2 : props_->host_gb_per_s;
  return static_cast<double>(bytes) / (gbps * 1e9) * 1e3;
}

// --- the queue --------------------------------------------------------------------------------

void Driver::enqueue(Stream*, std::string what, std::function<CUresult()> run) {
  queue_.push_back({std::move(what), std::move(run)});
}

CUresult Driver::flush() {
  if (flushing_) return sticky_;  // a host function queued work from inside the queue
  flushing_ = true;
  while (!queue_.empty()) {
    Op op = std::move(queue_.front());
    queue_.pop_front();
    if (sticky_ != CUDA_SUCCESS) continue;  // after a fault the context is unusable, as on a GPU
    const CUresult r = op.run();
    if (r != CUDA_SUCCESS) sticky_ = r;
  }
  flushing_ = false;
  return sticky_;
}

// --- modules ----------------------------------------------------------------------------------

CUresult Driver::load_module(const void* image, std::string name, bool is_library, Module*& out) {
  out = nullptr;
  if (!image) return fail(CUDA_ERROR_INVALID_VALUE, "module image is NULL");
  const auto* bytes = static_cast<const uint8_t*>(image);
  uint32_t magic = 0;
  std::memcpy(&magic, bytes, 4);
  auto m = std::make_unique<Module>();
  m->is_library = is_library;
  m->ctx = current();
  const unsigned long long index = ++modules_loaded_;
  if (magic == kFatbinWrapperMagic) {
    const uint8_t* data = nullptr;
    std::memcpy(&data, bytes + 8, sizeof data);
    bytes = data;
    if (!bytes) return fail(CUDA_ERROR_INVALID_IMAGE, name + ": fat-binary wrapper without data");
    std::memcpy(&magic, bytes, 4);
  }
  if (magic == kFatbinMagic) {
    std::string err;
    const auto fb = parse_fatbin(bytes, UINT64_MAX, err);
    if (!fb) return fail(CUDA_ERROR_INVALID_IMAGE, name + ": " + err);
    std::string why;
    if (const FatbinEntry* e = select_ptx(*fb, arch_, why)) {
      m->ptx = e->payload;
      m->source_name = fmt::format("module{}.{}.ptx", index, e->target);
    } else {
      m->no_ptx_reason = why;
      m->source_name = fmt::format("module{} ({})", index, name);
    }
  } else if (std::memcmp(bytes, "\x7f" "ELF", 4) == 0) {
    m->no_ptx_reason = fmt::format("the image is a cubin (SASS only); tcsim runs PTX: load the PTX (nvcc -ptx) or a "
                                   "fat binary that holds it (-gencode arch=compute_{0}{1},code=compute_{0}{1})",
                                   arch_sm(arch_), arch_ == isa::Arch::Sm90a ? "a" : "a");
    m->source_name = fmt::format("module{} ({})", index, name);
  } else {
    m->ptx = reinterpret_cast<const char*>(bytes);  // PTX text, NUL-terminated (cuModuleLoadData)
    m->source_name = name.ends_with(".ptx") ? name : fmt::format("module{}.ptx", index);
  }
  if (!m->ptx.empty()) {
    if (const char* dir = env("TCSIM_DUMP_PTX")) {
      std::ofstream f(fmt::format("{}/{}", dir, m->source_name));
      f << m->ptx;
    }
    try {
      m->sim = &device_->load_ptx(m->ptx, m->source_name);
      m->kernel_names = device_->kernel_names(*m->sim);
    } catch (const std::exception& e) {
      return fail(CUDA_ERROR_INVALID_PTX, fmt::format("{}: {}", name, e.what()));
    }
    for (const std::string& k : m->kernel_names) {
      auto f = std::make_unique<Function>();
      f->module = m.get();
      f->name = k;
      f->max_dynamic_smem = static_cast<int>(models::machine_config(arch_).default_max_dynamic_smem);
      try {
        f->params = device_->kernel_params(*m->sim, k);
        f->info = device_->kernel_info(*m->sim, k);
        std::vector<spec::ParamInfo> pi;
        for (const auto& p : f->params) pi.push_back({p.name, p.size, p.align});
        const spec::ParamLayout l = spec::layout_params(pi, k);
        f->param_offsets = l.offsets;
        f->param_bytes = l.total;
      } catch (const std::exception& e) {
        return fail(CUDA_ERROR_INVALID_PTX, fmt::format("{}: kernel {}: {}", name, k, e.what()));
      }
      functions[f.get()] = m.get();
      m->functions[k] = std::move(f);
    }
  }
  note(fmt::format("loaded {} as {}: {}", name, m->source_name,
                   m->sim ? fmt::format("{} kernel(s)", m->kernel_names.size()) : m->no_ptx_reason));
  out = m.get();
  modules[out] = std::move(m);
  return CUDA_SUCCESS;
}

CUresult Driver::unload_module(Module* m) {
  flush();
  for (auto& [n, f] : m->functions) functions.erase(f.get());
  modules.erase(m);  // the simulator keeps the parsed PTX: cheap, and never reachable again
  return CUDA_SUCCESS;
}

CUresult Driver::get_function(Module* m, std::string_view name, Function*& out) {
  out = nullptr;
  if (!m->sim)
    return fail(CUDA_ERROR_NO_BINARY_FOR_GPU, fmt::format("kernel {}: {}", name, m->no_ptx_reason));
  auto it = m->functions.find(name);
  if (it == m->functions.end())
    return fail(CUDA_ERROR_NOT_FOUND, fmt::format("{}: no kernel named {} (its kernels: {})", m->source_name, name,
                                                  m->kernel_names.empty() ? std::string("none")
                                                                          : fmt::format("{}", fmt::join(m->kernel_names, ", "))));
  out = it->second.get();
  return CUDA_SUCCESS;
}

}  // namespace tcsim::cudrv

// The weak exports of unsupported_exports.cc (gen_unsupported_exports.py) end here.
extern "C" int tcsim_cudrv_unsupported_export(const char* name) {
  tcsim::cudrv::Driver& drv = tcsim::cudrv::Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  static std::set<std::string> reported;
  if (reported.insert(name).second) drv.not_supported(name);
  return CUDA_ERROR_NOT_SUPPORTED;
}
