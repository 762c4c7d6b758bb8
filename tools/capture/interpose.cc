// libtcsim-capture: a libcuda.so.1 that forwards every driver call to the next driver
// (TCSIM_CAPTURE_NEXT: libtcsim-cuda, or a GPU's real libcuda.so.1) and records what a replay
// needs (recorder.h). Every export the real driver has is a forwarder (forward_exports.cc,
// generated); the calls the recorder must see are wrapped here, both under their exported names
// (programs linked with -lcuda) and through cuGetProcAddress (the CUDA runtime, cuda-python).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "tools/capture/recorder.h"

using namespace tcsim::capture;

#define TCSIM_CAP_API extern "C" __attribute__((visibility("default")))

// The forwarders' targets (forward_exports.cc); filled when the library loads.
extern "C" void* tcsim_capture_next[];
extern "C" const char* const tcsim_capture_names[];
extern "C" const unsigned tcsim_capture_count;

namespace {

void* g_next = nullptr;

void say(const std::string& s) { std::fprintf(stderr, "tcsim-capture: %s\n", s.c_str()); }

extern "C" CUresult CUDAAPI missing_in_next() {
  say("the program called a function the next driver does not export");
  return CUDA_ERROR_NOT_FOUND;
}

void* next_sym(const char* name) {
  void* p = g_next ? dlsym(g_next, name) : nullptr;
  return p;
}

__attribute__((constructor)) void load_next() {
  const char* path = std::getenv("TCSIM_CAPTURE_NEXT");
  if (!path || !*path) {
    say("TCSIM_CAPTURE_NEXT is not set (run the program with `tcsim capture -- PROGRAM`)");
  } else if (!(g_next = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
    say(fmt::format("cannot load the driver {}: {}", path, dlerror()));
  }
  for (unsigned i = 0; i < tcsim_capture_count; ++i) {
    void* p = next_sym(tcsim_capture_names[i]);
    tcsim_capture_next[i] = p ? p : reinterpret_cast<void*>(&missing_in_next);
  }
}

// The next driver's function of exported name `name`, typed like `Fn`, looked up once.
template <class Fn>
Fn real(const char* name, Fn& slot) {
  if (!slot) slot = reinterpret_cast<Fn>(next_sym(name));
  return slot;
}

#define TCSIM_REAL(name, ...)                      \
  using T_##name = __VA_ARGS__;                    \
  static T_##name slot_##name = nullptr;           \
  T_##name fn_##name = real(#name, slot_##name);   \
  if (!fn_##name) return CUDA_ERROR_NOT_INITIALIZED

Recorder& rec() { return Recorder::get(); }

void init_recorder() {
  Recorder& r = rec();
  std::lock_guard<std::recursive_mutex> lock(r.mu);
  static bool done = false;
  if (done) return;
  done = true;
  NextDriver n;
  n.ctx_synchronize = reinterpret_cast<decltype(n.ctx_synchronize)>(next_sym("cuCtxSynchronize"));
  n.memcpy_dtoh = reinterpret_cast<decltype(n.memcpy_dtoh)>(next_sym("cuMemcpyDtoH_v2"));
  n.module_get_global = reinterpret_cast<decltype(n.module_get_global)>(next_sym("cuModuleGetGlobal_v2"));
  n.library_get_global = reinterpret_cast<decltype(n.library_get_global)>(next_sym("cuLibraryGetGlobal"));
  n.func_get_name = reinterpret_cast<decltype(n.func_get_name)>(next_sym("cuFuncGetName"));
  n.device_get_name = reinterpret_cast<decltype(n.device_get_name)>(next_sym("cuDeviceGetName"));
  n.device_get_attribute = reinterpret_cast<decltype(n.device_get_attribute)>(next_sym("cuDeviceGetAttribute"));
  n.driver_get_version = reinterpret_cast<decltype(n.driver_get_version)>(next_sym("cuDriverGetVersion"));
  const char* dir = std::getenv("TCSIM_CAPTURE_DIR");
  r.init(n, dir && *dir ? dir : "capture");
  std::atexit([] {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().finish();
  });
}

std::string read_file(const char* path) {
  std::ifstream f(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(f)), {});
  s.push_back('\0');
  return s;
}

}  // namespace

// --- initialisation -----------------------------------------------------------------------------

TCSIM_CAP_API CUresult CUDAAPI cuInit(unsigned int flags) {
  TCSIM_REAL(cuInit, CUresult (*)(unsigned));
  const CUresult r = fn_cuInit(flags);
  if (r == CUDA_SUCCESS) init_recorder();
  return r;
}

// --- memory -------------------------------------------------------------------------------------

TCSIM_CAP_API CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr* p, size_t n) {
  TCSIM_REAL(cuMemAlloc_v2, CUresult (*)(CUdeviceptr*, size_t));
  const CUresult r = fn_cuMemAlloc_v2(p, n);
  if (r == CUDA_SUCCESS) {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_alloc(*p, n);
  }
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr* p, size_t* pitch, size_t w, size_t h, unsigned e) {
  TCSIM_REAL(cuMemAllocPitch_v2, CUresult (*)(CUdeviceptr*, size_t*, size_t, size_t, unsigned));
  const CUresult r = fn_cuMemAllocPitch_v2(p, pitch, w, h, e);
  if (r == CUDA_SUCCESS) {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_alloc(*p, *pitch * h);
  }
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* p, size_t n, unsigned flags) {
  TCSIM_REAL(cuMemAllocManaged, CUresult (*)(CUdeviceptr*, size_t, unsigned));
  const CUresult r = fn_cuMemAllocManaged(p, n, flags);
  if (r == CUDA_SUCCESS) {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_alloc(*p, n);
  }
  return r;
}

#define TCSIM_ALLOC_ASYNC(name)                                           \
  TCSIM_CAP_API CUresult CUDAAPI name(CUdeviceptr* p, size_t n, CUstream s) { \
    TCSIM_REAL(name, CUresult (*)(CUdeviceptr*, size_t, CUstream));       \
    const CUresult r = fn_##name(p, n, s);                                \
    if (r == CUDA_SUCCESS) {                                              \
      std::lock_guard<std::recursive_mutex> l(rec().mu);                  \
      rec().on_alloc(*p, n);                                              \
    }                                                                     \
    return r;                                                             \
  }
TCSIM_ALLOC_ASYNC(cuMemAllocAsync)
TCSIM_ALLOC_ASYNC(cuMemAllocAsync_ptsz)

TCSIM_CAP_API CUresult CUDAAPI cuMemFree_v2(CUdeviceptr p) {
  TCSIM_REAL(cuMemFree_v2, CUresult (*)(CUdeviceptr));
  {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_free(p);
  }
  return fn_cuMemFree_v2(p);
}

#define TCSIM_FREE_ASYNC(name)                                   \
  TCSIM_CAP_API CUresult CUDAAPI name(CUdeviceptr p, CUstream s) { \
    TCSIM_REAL(name, CUresult (*)(CUdeviceptr, CUstream));       \
    {                                                            \
      std::lock_guard<std::recursive_mutex> l(rec().mu);         \
      rec().on_free(p);                                          \
    }                                                            \
    return fn_##name(p, s);                                      \
  }
TCSIM_FREE_ASYNC(cuMemFreeAsync)
TCSIM_FREE_ASYNC(cuMemFreeAsync_ptsz)

// --- modules and kernels ------------------------------------------------------------------------

namespace {
void module_loaded(CUresult r, const void* handle, const void* image, bool library, const char* origin) {
  if (r != CUDA_SUCCESS) return;
  std::lock_guard<std::recursive_mutex> l(rec().mu);
  rec().on_module(handle, image, library, origin);
}
}  // namespace

TCSIM_CAP_API CUresult CUDAAPI cuModuleLoadData(CUmodule* m, const void* image) {
  TCSIM_REAL(cuModuleLoadData, CUresult (*)(CUmodule*, const void*));
  const CUresult r = fn_cuModuleLoadData(m, image);
  module_loaded(r, m ? *m : nullptr, image, false, "cuModuleLoadData");
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* m, const void* image, unsigned n, CUjit_option* o, void** v) {
  TCSIM_REAL(cuModuleLoadDataEx, CUresult (*)(CUmodule*, const void*, unsigned, CUjit_option*, void**));
  const CUresult r = fn_cuModuleLoadDataEx(m, image, n, o, v);
  module_loaded(r, m ? *m : nullptr, image, false, "cuModuleLoadDataEx");
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* m, const void* image) {
  TCSIM_REAL(cuModuleLoadFatBinary, CUresult (*)(CUmodule*, const void*));
  const CUresult r = fn_cuModuleLoadFatBinary(m, image);
  module_loaded(r, m ? *m : nullptr, image, false, "cuModuleLoadFatBinary");
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuModuleLoad(CUmodule* m, const char* path) {
  TCSIM_REAL(cuModuleLoad, CUresult (*)(CUmodule*, const char*));
  const CUresult r = fn_cuModuleLoad(m, path);
  if (r == CUDA_SUCCESS && path) {
    const std::string data = read_file(path);
    module_loaded(r, *m, data.data(), false, path);
  }
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuModuleUnload(CUmodule m) {
  TCSIM_REAL(cuModuleUnload, CUresult (*)(CUmodule));
  {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_unload(m);
  }
  return fn_cuModuleUnload(m);
}

TCSIM_CAP_API CUresult CUDAAPI cuLibraryLoadData(CUlibrary* lib, const void* code, CUjit_option* jo, void** jv, unsigned jn,
                                                 CUlibraryOption* lo, void** lv, unsigned ln) {
  TCSIM_REAL(cuLibraryLoadData, CUresult (*)(CUlibrary*, const void*, CUjit_option*, void**, unsigned, CUlibraryOption*, void**, unsigned));
  const CUresult r = fn_cuLibraryLoadData(lib, code, jo, jv, jn, lo, lv, ln);
  module_loaded(r, lib ? *lib : nullptr, code, true, "cuLibraryLoadData");
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary* lib, const char* path, CUjit_option* jo, void** jv, unsigned jn,
                                                     CUlibraryOption* lo, void** lv, unsigned ln) {
  TCSIM_REAL(cuLibraryLoadFromFile, CUresult (*)(CUlibrary*, const char*, CUjit_option*, void**, unsigned, CUlibraryOption*, void**, unsigned));
  const CUresult r = fn_cuLibraryLoadFromFile(lib, path, jo, jv, jn, lo, lv, ln);
  if (r == CUDA_SUCCESS && path) {
    const std::string data = read_file(path);
    module_loaded(r, *lib, data.data(), true, path);
  }
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuLibraryUnload(CUlibrary lib) {
  TCSIM_REAL(cuLibraryUnload, CUresult (*)(CUlibrary));
  {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_unload(lib);
  }
  return fn_cuLibraryUnload(lib);
}

TCSIM_CAP_API CUresult CUDAAPI cuModuleGetFunction(CUfunction* f, CUmodule m, const char* name) {
  TCSIM_REAL(cuModuleGetFunction, CUresult (*)(CUfunction*, CUmodule, const char*));
  const CUresult r = fn_cuModuleGetFunction(f, m, name);
  if (r == CUDA_SUCCESS) {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_function(*f, m, name);
  }
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuLibraryGetKernel(CUkernel* k, CUlibrary lib, const char* name) {
  TCSIM_REAL(cuLibraryGetKernel, CUresult (*)(CUkernel*, CUlibrary, const char*));
  const CUresult r = fn_cuLibraryGetKernel(k, lib, name);
  if (r == CUDA_SUCCESS) {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_function(*k, lib, name);
  }
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuKernelGetFunction(CUfunction* f, CUkernel k) {
  TCSIM_REAL(cuKernelGetFunction, CUresult (*)(CUfunction*, CUkernel));
  const CUresult r = fn_cuKernelGetFunction(f, k);
  if (r == CUDA_SUCCESS) {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_kernel_function(*f, k);
  }
  return r;
}

namespace {
void enumerated(const void* owner, void* const* handles, unsigned n) {
  static CUresult (*get_name)(const char**, CUfunction) = nullptr;
  if (!get_name) get_name = reinterpret_cast<CUresult (*)(const char**, CUfunction)>(next_sym("cuFuncGetName"));
  std::lock_guard<std::recursive_mutex> l(rec().mu);
  for (unsigned i = 0; i < n && get_name; ++i) {
    const char* name = nullptr;
    if (get_name(&name, static_cast<CUfunction>(handles[i])) == CUDA_SUCCESS && name) rec().on_function(handles[i], owner, name);
  }
}
}  // namespace

TCSIM_CAP_API CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel* ks, unsigned n, CUlibrary lib) {
  TCSIM_REAL(cuLibraryEnumerateKernels, CUresult (*)(CUkernel*, unsigned, CUlibrary));
  const CUresult r = fn_cuLibraryEnumerateKernels(ks, n, lib);
  if (r == CUDA_SUCCESS) enumerated(lib, reinterpret_cast<void* const*>(ks), n);
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction* fs, unsigned n, CUmodule m) {
  TCSIM_REAL(cuModuleEnumerateFunctions, CUresult (*)(CUfunction*, unsigned, CUmodule));
  const CUresult r = fn_cuModuleEnumerateFunctions(fs, n, m);
  if (r == CUDA_SUCCESS) enumerated(m, reinterpret_cast<void* const*>(fs), n);
  return r;
}

// --- tensor maps --------------------------------------------------------------------------------

TCSIM_CAP_API CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap* map, CUtensorMapDataType dtype, cuuint32_t rank, void* addr,
                                                      const cuuint64_t* dims, const cuuint64_t* strides, const cuuint32_t* box,
                                                      const cuuint32_t* es, CUtensorMapInterleave il, CUtensorMapSwizzle sw,
                                                      CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {
  TCSIM_REAL(cuTensorMapEncodeTiled, CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                          const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                          CUtensorMapL2promotion, CUtensorMapFloatOOBfill));
  const CUresult r = fn_cuTensorMapEncodeTiled(map, dtype, rank, addr, dims, strides, box, es, il, sw, l2, oob);
  if (r == CUDA_SUCCESS && rank >= 1 && rank <= 5) {
    tcsim::spec::TensorMapSpec t;
    t.dtype = static_cast<tcsim::spec::TmDataType>(dtype);
    for (cuuint32_t i = 0; i < rank; ++i) {
      t.global_dims.push_back(dims[i]);
      t.box_dims.push_back(box[i]);
      t.element_strides.push_back(es[i]);
      if (i + 1 < rank) t.global_strides_bytes.push_back(strides[i]);
    }
    t.interleave = static_cast<tcsim::spec::TmInterleave>(il);
    t.swizzle = static_cast<tcsim::spec::TmSwizzle>(sw);
    t.l2_promotion = static_cast<tcsim::spec::TmL2Promotion>(l2);
    t.oob_fill = static_cast<tcsim::spec::TmOobFill>(oob);
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_tensor_map(*map, t, reinterpret_cast<uint64_t>(addr));
  }
  return r;
}

TCSIM_CAP_API CUresult CUDAAPI cuTensorMapReplaceAddress(CUtensorMap* map, void* addr) {
  TCSIM_REAL(cuTensorMapReplaceAddress, CUresult (*)(CUtensorMap*, void*));
  const CUtensorMap before = map ? *map : CUtensorMap{};
  const CUresult r = fn_cuTensorMapReplaceAddress(map, addr);
  if (r == CUDA_SUCCESS) {
    std::lock_guard<std::recursive_mutex> l(rec().mu);
    rec().on_tensor_map_address(before, *map, reinterpret_cast<uint64_t>(addr));
  }
  return r;
}

// --- launches -----------------------------------------------------------------------------------

namespace {
template <class Call>
CUresult recorded_launch(const LaunchInfo& info, Call&& call) {
  Recorder& r = rec();
  std::lock_guard<std::recursive_mutex> l(r.mu);
  auto p = r.before_launch(info);
  const CUresult res = call();
  r.after_launch(std::move(p), res);
  return res;
}

using LaunchFn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                              void**, void**);
using LaunchExFn = CUresult (*)(const CUlaunchConfig*, CUfunction, void**, void**);
using CoopFn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**);

LaunchInfo info_of(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem,
                   void** params, void** extra) {
  LaunchInfo i;
  i.function = f;
  i.grid = {gx, gy, gz};
  i.block = {bx, by, bz};
  i.smem = smem;
  i.kernel_params = params;
  i.extra = extra;
  return i;
}

LaunchInfo info_of(const CUlaunchConfig* c, CUfunction f, void** params, void** extra) {
  LaunchInfo i = info_of(f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ,
                         c->sharedMemBytes, params, extra);
  for (unsigned a = 0; a < c->numAttrs; ++a)
    if (c->attrs[a].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      i.cluster = {c->attrs[a].value.clusterDim.x, c->attrs[a].value.clusterDim.y, c->attrs[a].value.clusterDim.z};
      i.cluster_given = true;
    }
  return i;
}
}  // namespace

#define TCSIM_LAUNCH(name)                                                                                             \
  TCSIM_CAP_API CUresult CUDAAPI name(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,  \
                                      unsigned bz, unsigned smem, CUstream s, void** params, void** extra) {           \
    TCSIM_REAL(name, LaunchFn);                                                                                        \
    return recorded_launch(info_of(f, gx, gy, gz, bx, by, bz, smem, params, extra),                                    \
                           [&] { return fn_##name(f, gx, gy, gz, bx, by, bz, smem, s, params, extra); });              \
  }
TCSIM_LAUNCH(cuLaunchKernel)
TCSIM_LAUNCH(cuLaunchKernel_ptsz)

#define TCSIM_LAUNCH_EX(name)                                                                        \
  TCSIM_CAP_API CUresult CUDAAPI name(const CUlaunchConfig* c, CUfunction f, void** params, void** extra) { \
    TCSIM_REAL(name, LaunchExFn);                                                                    \
    if (!c) return fn_##name(c, f, params, extra);                                                   \
    return recorded_launch(info_of(c, f, params, extra), [&] { return fn_##name(c, f, params, extra); }); \
  }
TCSIM_LAUNCH_EX(cuLaunchKernelEx)
TCSIM_LAUNCH_EX(cuLaunchKernelEx_ptsz)

#define TCSIM_LAUNCH_COOP(name)                                                                                        \
  TCSIM_CAP_API CUresult CUDAAPI name(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,  \
                                      unsigned bz, unsigned smem, CUstream s, void** params) {                         \
    TCSIM_REAL(name, CoopFn);                                                                                          \
    return recorded_launch(info_of(f, gx, gy, gz, bx, by, bz, smem, params, nullptr),                                  \
                           [&] { return fn_##name(f, gx, gy, gz, bx, by, bz, smem, s, params); });                     \
  }
TCSIM_LAUNCH_COOP(cuLaunchCooperativeKernel)
TCSIM_LAUNCH_COOP(cuLaunchCooperativeKernel_ptsz)

// --- cuGetProcAddress: the wrapped functions through the runtime's lookups ---------------------

extern "C" CUresult CUDAAPI tcsim_capture_get_proc_v1(const char*, void**, int, cuuint64_t);

namespace {

enum class Pt : uint8_t { Legacy, PerThread, Any };
struct Wrapped {
  const char* name;   // what cuGetProcAddress is asked for
  int min_version;    // the ABI the wrapper implements, from this CUDA version on
  Pt pt;              // which request flags it answers
  void* wrapper;
};

#define W(name, ver, pt, fn) {#name, ver, Pt::pt, reinterpret_cast<void*>(&fn)}
const Wrapped kWrapped[] = {
    W(cuGetProcAddress, 12000, Any, cuGetProcAddress_v2),
    W(cuGetProcAddress, 11030, Any, tcsim_capture_get_proc_v1),
    W(cuInit, 2000, Any, cuInit),
    W(cuMemAlloc, 3020, Any, cuMemAlloc_v2),
    W(cuMemAllocPitch, 3020, Any, cuMemAllocPitch_v2),
    W(cuMemAllocManaged, 6000, Any, cuMemAllocManaged),
    W(cuMemAllocAsync, 11020, PerThread, cuMemAllocAsync_ptsz),
    W(cuMemAllocAsync, 11020, Any, cuMemAllocAsync),
    W(cuMemFree, 3020, Any, cuMemFree_v2),
    W(cuMemFreeAsync, 11020, PerThread, cuMemFreeAsync_ptsz),
    W(cuMemFreeAsync, 11020, Any, cuMemFreeAsync),
    W(cuModuleLoadData, 2000, Any, cuModuleLoadData),
    W(cuModuleLoadDataEx, 2010, Any, cuModuleLoadDataEx),
    W(cuModuleLoadFatBinary, 2000, Any, cuModuleLoadFatBinary),
    W(cuModuleLoad, 2000, Any, cuModuleLoad),
    W(cuModuleUnload, 2000, Any, cuModuleUnload),
    W(cuLibraryLoadData, 12000, Any, cuLibraryLoadData),
    W(cuLibraryLoadFromFile, 12000, Any, cuLibraryLoadFromFile),
    W(cuLibraryUnload, 12000, Any, cuLibraryUnload),
    W(cuModuleGetFunction, 2000, Any, cuModuleGetFunction),
    W(cuLibraryGetKernel, 12000, Any, cuLibraryGetKernel),
    W(cuKernelGetFunction, 12000, Any, cuKernelGetFunction),
    W(cuLibraryEnumerateKernels, 12040, Any, cuLibraryEnumerateKernels),
    W(cuModuleEnumerateFunctions, 12040, Any, cuModuleEnumerateFunctions),
    W(cuTensorMapEncodeTiled, 12000, Any, cuTensorMapEncodeTiled),
    W(cuTensorMapReplaceAddress, 12000, Any, cuTensorMapReplaceAddress),
    W(cuLaunchKernel, 7000, PerThread, cuLaunchKernel_ptsz),
    W(cuLaunchKernel, 4000, Any, cuLaunchKernel),
    W(cuLaunchKernelEx, 11060, PerThread, cuLaunchKernelEx_ptsz),
    W(cuLaunchKernelEx, 11060, Any, cuLaunchKernelEx),
    W(cuLaunchCooperativeKernel, 9000, PerThread, cuLaunchCooperativeKernel_ptsz),
    W(cuLaunchCooperativeKernel, 9000, Any, cuLaunchCooperativeKernel),
};
#undef W

void* wrapper_for(const char* symbol, int version, cuuint64_t flags) {
  const bool pt = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
  for (const Wrapped& w : kWrapped) {
    if (std::strcmp(w.name, symbol) != 0 || version < w.min_version) continue;
    if (w.pt == Pt::PerThread && !pt) continue;
    return w.wrapper;
  }
  return nullptr;
}

}  // namespace

TCSIM_CAP_API CUresult CUDAAPI cuGetProcAddress_v2(const char* symbol, void** pfn, int version, cuuint64_t flags,
                                                   CUdriverProcAddressQueryResult* status) {
  TCSIM_REAL(cuGetProcAddress_v2, CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*));
  const CUresult r = fn_cuGetProcAddress_v2(symbol, pfn, version, flags, status);
  if (r == CUDA_SUCCESS && pfn && *pfn && symbol)
    if (void* w = wrapper_for(symbol, version, flags)) *pfn = w;
  return r;
}

extern "C" CUresult CUDAAPI tcsim_capture_get_proc_v1(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, nullptr);
}

#undef cuGetProcAddress  // cuda.h maps it to _v2: this is the CUDA 11.3 entry point
TCSIM_CAP_API CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  return cuGetProcAddress_v2(symbol, pfn, version, flags, nullptr);
}
