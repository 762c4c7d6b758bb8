// libtcsim-cuda's state: the CUDA driver API's objects (contexts, modules, functions, streams,
// events, allocations) over one simulated device (sim::Device, sim/api.h). docs/cuda_driver.md says
// what the library implements and how a CUDA program reaches it.
//
// Execution model. Device work (kernel launches, asynchronous copies and memsets, event records,
// host functions) is queued in issue order, whatever its stream, and runs when the program
// synchronises (a synchronous copy, cu*Synchronize, a stream or event query, cuMemFree, ...). The
// queue runs front to back on the calling thread: one legal serialisation of the program's stream
// order (an event a stream waits on was recorded earlier in issue order), the same on every run.
// Simulated time advances by each kernel's simulated cycles and by each copy's bytes over the
// modelled bandwidth; events record it, so cuEventElapsedTime measures the simulated device.
// A fault in a kernel is printed once and becomes the context's sticky error, as on a GPU.
#pragma once
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "isa/arch.h"
#include "sim/api.h"
#include "tools/cuda_driver/device_props.h"

namespace tcsim::cudrv {

struct Context;
struct Module;

// A kernel of a module: CUfunction and CUkernel are both this object (a CUkernel may be passed
// where a CUfunction is expected: CUDA Driver API, "Library Management").
struct Function {
  Module* module = nullptr;
  std::string name;
  std::vector<sim::ParamInfo> params;
  std::vector<uint32_t> param_offsets;  // in the parameter buffer (tools/spec/params.h layout_params)
  uint32_t param_bytes = 0;
  sim::KernelInfo info;
  // Attributes the program sets (cuFuncSetAttribute).
  int max_dynamic_smem = 48 * 1024;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (the default, 48 KiB on cc 9.0 / 10.0)
  int carveout = -1;                 // CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
  bool non_portable_cluster = false; // CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED
  sim::Dim3 required_cluster{0, 0, 0};  // CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_* (0: not set)
  int cluster_policy = 0;            // CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE
  CUfunc_cache cache_config = CU_FUNC_CACHE_PREFER_NONE;
};

// A loaded module (cuModuleLoad*, a cudart fat binary, or a library: CUlibrary is this object too).
struct Module {
  Context* ctx = nullptr;
  std::string source_name;            // diagnostics: "fatbin 0x... (sm_100a PTX)", a file name
  std::string ptx;                    // the PTX the simulator runs ("" when the image has none)
  std::string no_ptx_reason;          // why there is no PTX (SASS-only fat binary, cubin)
  const sim::Module* sim = nullptr;   // null when there is no PTX
  bool is_library = false;
  std::map<std::string, std::unique_ptr<Function>, std::less<>> functions;
  std::vector<std::string> kernel_names;
};

struct Stream {
  Context* ctx = nullptr;
  unsigned flags = 0;
  int priority = 0;
  unsigned long long id = 0;
};

struct Event {
  Context* ctx = nullptr;
  unsigned flags = 0;
  bool recorded = false;   // cuEventRecord was called
  bool completed = true;   // the record ran (an unrecorded event counts as complete)
  double time_ms = 0;      // simulated device time of the record
};

struct Context {
  int device = 0;
  bool primary = false;
  unsigned flags = 0;
  unsigned long long id = 0;
  int retains = 0;  // primary context reference count (cuDevicePrimaryCtxRetain/Release)
  bool active = false;
  std::map<CUlimit, size_t> limits;
  CUfunc_cache cache_config = CU_FUNC_CACHE_PREFER_NONE;
  // Context-local storage (cudart's private export table, dark_api.cc): key -> value, destructor.
  struct Cls {
    void* value;
    void (*dtor)(CUcontext, void*, void*);
  };
  std::map<void*, Cls> cls;
};

// A device allocation the program made (cuMemAlloc*) or a pinned host range (cuMemHostAlloc,
// cuMemAllocHost, cuMemHostRegister).
struct DeviceAlloc {
  uint64_t size = 0;
  Context* ctx = nullptr;
  unsigned long long id = 0;
};
struct HostAlloc {
  uint64_t size = 0;
  Context* ctx = nullptr;
  unsigned flags = 0;
  bool registered = false;  // cuMemHostRegister: not ours to free
  unsigned long long id = 0;
};

// One queued piece of device work.
struct Op {
  std::string what;             // for messages: "launch of K", "cuMemcpyHtoDAsync", ...
  std::function<CUresult()> run;
};

class Driver {
 public:
  static Driver& get();

  std::recursive_mutex mu;

  // cuInit: configuration from the environment (tcsim exec sets it; docs/cuda_driver.md).
  CUresult init();
  bool initialized() const { return initialized_; }
  isa::Arch arch() const { return arch_; }
  const DeviceProps& props() const { return *props_; }
  sim::Device& device() { return *device_; }
  bool trace() const { return trace_; }

  // Errors: one line on stderr, prefixed "tcsim-cuda: ".
  CUresult fail(CUresult r, const std::string& msg);
  CUresult not_supported(std::string_view call, std::string_view why = {});
  void note(const std::string& msg);  // with TCSIM_CUDA_TRACE only

  // Contexts (per thread: a stack of current contexts, CUDA Driver API "Context Management").
  Context& primary() { return primary_; }
  Context* current();
  std::vector<Context*>& ctx_stack();
  bool valid_context(const Context* c) const {
    return c == &primary_ || (c && contexts_.count(const_cast<Context*>(c)));
  }
  Context* create_context(unsigned flags);
  void destroy_context(Context* c);
  // The context a call works in: the current one, or the error to return.
  // `quiet`: for queries the runtime makes before it has a context (no message).
  CUresult need_context(Context*& out, bool quiet = false);

  // Handles are validated before use: a stale or foreign handle is CUDA_ERROR_INVALID_HANDLE.
  template <class T>
  bool valid(const std::map<T*, std::unique_ptr<T>>& m, const void* h) const {
    return h && m.count(static_cast<T*>(const_cast<void*>(h)));
  }
  std::map<Module*, std::unique_ptr<Module>> modules;
  std::map<Function*, Module*> functions;  // every kernel of every loaded module
  std::map<Stream*, std::unique_ptr<Stream>> streams;
  std::map<Event*, std::unique_ptr<Event>> events;
  // A CUfunction or CUkernel handle (the same object here); null if it is neither.
  Function* function(const void* h) const {
    auto it = functions.find(static_cast<Function*>(const_cast<void*>(h)));
    return it == functions.end() ? nullptr : it->first;
  }
  // Shared memory a CTA may use (static + dynamic), the opt-in maximum.
  int smem_optin() const;
  // The stream a handle names: null for the NULL, legacy and per-thread default streams (all one
  // queue here); false for a handle that is none of these nor a live stream.
  bool stream(CUstream s, Stream*& out) const;

  // Memory.
  std::map<uint64_t, DeviceAlloc> device_allocs;  // base -> allocation
  std::map<uint64_t, HostAlloc> host_allocs;      // host address -> pinned range
  const std::pair<const uint64_t, DeviceAlloc>* find_device(uint64_t addr) const;
  const std::pair<const uint64_t, HostAlloc>* find_host(uint64_t addr) const;
  bool is_device_range(uint64_t addr, uint64_t bytes) const;
  unsigned long long next_id() { return ++ids_; }

  // Modules: from any image cuModuleLoadData accepts (PTX text, fat binary, fat-binary wrapper,
  // cubin). On success the module owns its kernels; a module without PTX loads but its kernels
  // cannot be obtained (cuModuleGetFunction says why).
  CUresult load_module(const void* image, std::string name, bool is_library, Module*& out);
  CUresult unload_module(Module* m);
  CUresult get_function(Module* m, std::string_view name, Function*& out);

  // The work queue.
  void enqueue(Stream* s, std::string what, std::function<CUresult()> run);
  CUresult flush();                     // runs every queued op; returns the sticky error
  CUresult sticky() const { return sticky_; }
  double now_ms() const { return time_ms_; }
  void advance_ms(double ms) { time_ms_ += ms; }
  double copy_ms(uint64_t bytes, bool device_to_device) const;

  // Events: a record was queued / has run (at the simulated time now).
  void mark_event_pending(Event* e) {
    e->recorded = true;
    e->completed = false;
  }
  void complete_event(Event* e) {
    if (!events.count(e)) return;
    e->completed = true;
    e->time_ms = time_ms_;
  }
  // One line per launch on stderr when TCSIM_CUDA_REPORT is set (tcsim exec --report).
  void report(const std::string& msg) const;
  bool reporting() const { return report_; }
  unsigned long long launches = 0;  // launches queued so far (their numbers in reports)

  // Launches: the simulated result of the last launch (tcsim's own report, tcsim exec --report).
  struct LaunchRecord {
    std::string kernel;
    uint64_t cycles = 0;
    uint64_t findings = 0;
  };
  std::vector<LaunchRecord> launch_log;

 private:
  Driver();
  bool initialized_ = false;
  bool trace_ = false;
  bool report_ = false;
  isa::Arch arch_ = isa::Arch::Sm100a;
  const DeviceProps* props_ = nullptr;
  std::unique_ptr<sim::Device> device_;
  Context primary_;
  std::map<Context*, std::unique_ptr<Context>> contexts_;
  std::deque<Op> queue_;
  bool flushing_ = false;
  CUresult sticky_ = CUDA_SUCCESS;
  double time_ms_ = 0;
  unsigned long long ids_ = 0;
  unsigned long long modules_loaded_ = 0;  // numbers the modules' names (module1.sm_100a.ptx, ...)
};

// Every entry point starts with this: the lock, and CUDA_ERROR_NOT_INITIALIZED before cuInit.
#define TCSIM_CU_ENTER()                                      \
  ::tcsim::cudrv::Driver& drv = ::tcsim::cudrv::Driver::get(); \
  std::lock_guard<std::recursive_mutex> drv_lock(drv.mu);     \
  if (!drv.initialized()) return CUDA_ERROR_NOT_INITIALIZED

// Exported symbols carry default visibility; everything else is hidden (CMakeLists.txt).
#define TCSIM_CU_API extern "C" __attribute__((visibility("default")))

}  // namespace tcsim::cudrv
