// Modules, libraries, kernels and their attributes (CUDA Driver API "Module Management", "Library
// Management", "Execution Control"). A module is PTX the simulator parsed and bound; fat binaries
// and cubins are unpacked by fatbin.h (the PTX for the simulated device's architecture is chosen;
// SASS cannot run). JIT options are accepted and ignored: there is no JIT (PTX runs as it is).
#include <fstream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "tools/cuda_driver/driver.h"
#include "tools/cuda_driver/fatbin.h"

using namespace tcsim::cudrv;

namespace {

CUresult check_module(Driver& drv, const void* h, Module*& m, const char* call) {
  m = static_cast<Module*>(const_cast<void*>(h));
  if (!drv.valid(drv.modules, h)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, fmt::format("{}: invalid module/library handle", call));
  return CUDA_SUCCESS;
}

CUresult read_file(Driver& drv, const char* path, std::string& out, const char* call) {
  if (!path) return CUDA_ERROR_INVALID_VALUE;
  std::ifstream f(path, std::ios::binary);
  if (!f) return drv.fail(CUDA_ERROR_FILE_NOT_FOUND, fmt::format("{}: cannot open {}", call, path));
  out.assign(std::istreambuf_iterator<char>(f), {});
  out.push_back('\0');  // PTX text must end in NUL (cuModuleLoadData)
  return CUDA_SUCCESS;
}

CUresult load(Driver& drv, const void* image, const char* what, bool library, Module*& out) {
  Context* c = nullptr;
  if (!library)
    if (CUresult r = drv.need_context(c)) return r;
  if (CUresult r = drv.load_module(image, what, library, out)) return r;
  // Loaded explicitly, a module without usable PTX is an error now (cudart's registrations load
  // lazily, and report it when the kernel is first used: dark_api.cc).
  if (!out->sim) {
    const std::string why = out->no_ptx_reason;
    drv.modules.erase(out);
    out = nullptr;
    return drv.fail(CUDA_ERROR_NO_BINARY_FOR_GPU, fmt::format("{}: {}", what, why));
  }
  return CUDA_SUCCESS;
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuModuleLoadData(CUmodule* mod, const void* image) {
  TCSIM_CU_ENTER();
  if (!mod) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = load(drv, image, "cuModuleLoadData", false, m)) return r;
  *mod = reinterpret_cast<CUmodule>(m);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* mod, const void* image, unsigned int, CUjit_option*, void**) {
  return cuModuleLoadData(mod, image);
}

TCSIM_CU_API CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* mod, const void* fatbin) { return cuModuleLoadData(mod, fatbin); }

TCSIM_CU_API CUresult CUDAAPI cuModuleLoad(CUmodule* mod, const char* path) {
  TCSIM_CU_ENTER();
  if (!mod) return CUDA_ERROR_INVALID_VALUE;
  std::string data;
  if (CUresult r = read_file(drv, path, data, "cuModuleLoad")) return r;
  Module* m = nullptr;
  if (CUresult r = load(drv, data.data(), path, false, m)) return r;
  *mod = reinterpret_cast<CUmodule>(m);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuModuleUnload(CUmodule mod) {
  TCSIM_CU_ENTER();
  Module* m = nullptr;
  if (CUresult r = check_module(drv, mod, m, "cuModuleUnload")) return r;
  return drv.unload_module(m);
}

TCSIM_CU_API CUresult CUDAAPI cuModuleGetFunction(CUfunction* f, CUmodule mod, const char* name) {
  TCSIM_CU_ENTER();
  if (!f || !name) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = check_module(drv, mod, m, "cuModuleGetFunction")) return r;
  Function* fn = nullptr;
  if (CUresult r = drv.get_function(m, name, fn)) return r;
  *f = reinterpret_cast<CUfunction>(fn);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int* count, CUmodule mod) {
  TCSIM_CU_ENTER();
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = check_module(drv, mod, m, "cuModuleGetFunctionCount")) return r;
  *count = static_cast<unsigned>(m->functions.size());
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction* fns, unsigned int n, CUmodule mod) {
  TCSIM_CU_ENTER();
  if (!fns) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = check_module(drv, mod, m, "cuModuleEnumerateFunctions")) return r;
  unsigned i = 0;
  for (auto& [name, f] : m->functions)
    if (i < n) fns[i++] = reinterpret_cast<CUfunction>(f.get());
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUmodule mod, const char* name) {
  TCSIM_CU_ENTER();
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = check_module(drv, mod, m, "cuModuleGetGlobal")) return r;
  if (!m->sim) return drv.fail(CUDA_ERROR_NO_BINARY_FOR_GPU, fmt::format("variable {}: {}", name, m->no_ptx_reason));
  try {
    const tcsim::sim::SymbolInfo s = drv.device().symbol(*m->sim, name);
    if (dptr) *dptr = s.address;
    if (bytes) *bytes = s.size;
  } catch (const std::exception& e) {
    return drv.fail(CUDA_ERROR_NOT_FOUND, fmt::format("cuModuleGetGlobal: {}", e.what()));
  }
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  TCSIM_CU_ENTER();
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  *mode = CU_MODULE_LAZY_LOADING;  // cudart's registered modules are parsed when first used
  return CUDA_SUCCESS;
}

// --- libraries (context-independent modules; one device, so a library is a module) ------------

TCSIM_CU_API CUresult CUDAAPI cuLibraryLoadData(CUlibrary* lib, const void* code, CUjit_option*, void**, unsigned int,
                                                CUlibraryOption*, void**, unsigned int) {
  TCSIM_CU_ENTER();
  if (!lib) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = load(drv, code, "cuLibraryLoadData", true, m)) return r;
  *lib = reinterpret_cast<CUlibrary>(m);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary* lib, const char* path, CUjit_option*, void**, unsigned int,
                                                    CUlibraryOption*, void**, unsigned int) {
  TCSIM_CU_ENTER();
  if (!lib) return CUDA_ERROR_INVALID_VALUE;
  std::string data;
  if (CUresult r = read_file(drv, path, data, "cuLibraryLoadFromFile")) return r;
  Module* m = nullptr;
  if (CUresult r = load(drv, data.data(), path, true, m)) return r;
  *lib = reinterpret_cast<CUlibrary>(m);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuLibraryUnload(CUlibrary lib) {
  TCSIM_CU_ENTER();
  Module* m = nullptr;
  if (CUresult r = check_module(drv, lib, m, "cuLibraryUnload")) return r;
  return drv.unload_module(m);
}

TCSIM_CU_API CUresult CUDAAPI cuLibraryGetKernel(CUkernel* k, CUlibrary lib, const char* name) {
  TCSIM_CU_ENTER();
  if (!k || !name) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = check_module(drv, lib, m, "cuLibraryGetKernel")) return r;
  Function* fn = nullptr;
  if (CUresult r = drv.get_function(m, name, fn)) return r;
  *k = reinterpret_cast<CUkernel>(fn);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int* count, CUlibrary lib) {
  return cuModuleGetFunctionCount(count, reinterpret_cast<CUmodule>(lib));
}

TCSIM_CU_API CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel* ks, unsigned int n, CUlibrary lib) {
  return cuModuleEnumerateFunctions(reinterpret_cast<CUfunction*>(ks), n, reinterpret_cast<CUmodule>(lib));
}

TCSIM_CU_API CUresult CUDAAPI cuLibraryGetModule(CUmodule* mod, CUlibrary lib) {
  TCSIM_CU_ENTER();
  if (!mod) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = check_module(drv, lib, m, "cuLibraryGetModule")) return r;
  *mod = reinterpret_cast<CUmodule>(m);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary lib, const char* name) {
  return cuModuleGetGlobal(dptr, bytes, reinterpret_cast<CUmodule>(lib), name);
}

TCSIM_CU_API CUresult CUDAAPI cuKernelGetFunction(CUfunction* f, CUkernel k) {
  TCSIM_CU_ENTER();
  if (!f) return CUDA_ERROR_INVALID_VALUE;
  if (!drv.function(k)) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuKernelGetFunction: invalid kernel handle");
  *f = reinterpret_cast<CUfunction>(k);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuKernelGetLibrary(CUlibrary* lib, CUkernel k) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(k);
  if (!lib || !f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuKernelGetLibrary: invalid kernel handle");
  *lib = reinterpret_cast<CUlibrary>(f->module);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuFuncGetModule(CUmodule* mod, CUfunction fn) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(fn);
  if (!mod || !f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuFuncGetModule: invalid function handle");
  *mod = reinterpret_cast<CUmodule>(f->module);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuFuncGetName(const char** name, CUfunction fn) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(fn);
  if (!name || !f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuFuncGetName: invalid function handle");
  *name = f->name.c_str();
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuKernelGetName(const char** name, CUkernel k) {
  return cuFuncGetName(name, reinterpret_cast<CUfunction>(k));
}

TCSIM_CU_API CUresult CUDAAPI cuFuncGetParamInfo(CUfunction fn, size_t index, size_t* offset, size_t* size) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(fn);
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuFuncGetParamInfo: invalid function handle");
  if (index >= f->params.size()) return CUDA_ERROR_INVALID_VALUE;  // how callers count the parameters
  if (offset) *offset = f->param_offsets[index];
  if (size) *size = f->params[index].size;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuKernelGetParamInfo(CUkernel k, size_t index, size_t* offset, size_t* size) {
  return cuFuncGetParamInfo(reinterpret_cast<CUfunction>(k), index, offset, size);
}

TCSIM_CU_API CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState* state, CUfunction fn) {
  TCSIM_CU_ENTER();
  if (!state || !drv.function(fn)) return CUDA_ERROR_INVALID_HANDLE;
  *state = CU_FUNCTION_LOADING_STATE_LOADED;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuFuncLoad(CUfunction fn) {
  TCSIM_CU_ENTER();
  return drv.function(fn) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

// --- function attributes ----------------------------------------------------------------------

namespace {

uint64_t threads(const tcsim::sim::Dim3& d) { return uint64_t{d.x ? d.x : 1} * (d.y ? d.y : 1) * (d.z ? d.z : 1); }

int max_threads(const Function& f) {
  uint64_t t = 1024;
  if (f.info.maxntid.x) t = std::min(t, threads(f.info.maxntid));
  if (f.info.reqntid.x) t = std::min(t, threads(f.info.reqntid));
  return static_cast<int>(t);
}

CUresult get_attr(Driver& drv, int* v, CUfunction_attribute a, const Function& f) {
  const int optin = drv.smem_optin();
  switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = max_threads(f); break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *v = static_cast<int>(f.info.static_smem_bytes); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *v = 0; break;  // module .const data is not per kernel here
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *v = static_cast<int>(f.info.local_bytes); break;
    // PTX has virtual registers; the count ptxas would allocate is unknown: the .maxnreg bound
    // when the kernel declares one, else 0 (docs/cuda_driver.md "Occupancy").
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *v = static_cast<int>(f.info.maxnreg); break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *v = static_cast<int>(f.info.ptx_version); break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *v = drv.props().cc_major * 10 + drv.props().cc_minor; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *v = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      *v = std::min(f.max_dynamic_smem, optin - static_cast<int>(f.info.static_smem_bytes));
      break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *v = f.carveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *v = f.info.explicitcluster ? 1 : 0; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
      *v = static_cast<int>(f.info.reqnctapercluster.x ? f.info.reqnctapercluster.x : f.required_cluster.x);
      break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
      *v = static_cast<int>(f.info.reqnctapercluster.x ? f.info.reqnctapercluster.y : f.required_cluster.y);
      break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
      *v = static_cast<int>(f.info.reqnctapercluster.x ? f.info.reqnctapercluster.z : f.required_cluster.z);
      break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *v = f.non_portable_cluster ? 1 : 0; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *v = f.cluster_policy; break;
    default:
      return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuFuncGetAttribute: unknown attribute {}", static_cast<int>(a)));
  }
  return CUDA_SUCCESS;
}

CUresult set_attr(Driver& drv, CUfunction_attribute a, int v, Function& f, const char* call) {
  const int optin = drv.smem_optin();
  switch (a) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      if (v < 0 || v + static_cast<int64_t>(f.info.static_smem_bytes) > optin)
        return drv.fail(CUDA_ERROR_INVALID_VALUE,
                        fmt::format("{}: MAX_DYNAMIC_SHARED_SIZE_BYTES {} + {} static bytes of kernel {} exceed the {} "
                                    "bytes a CTA may use", call, v, f.info.static_smem_bytes, f.name, optin));
      f.max_dynamic_smem = v;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      if (v < -1 || v > 100) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: carveout {} (legal: -1..100)", call, v));
      f.carveout = v;  // a hint: the simulated SM always offers its whole shared memory
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
      if (f.info.reqnctapercluster.x)
        return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: kernel {} has compile-time cluster dimensions", call, f.name));
      if (v < 1) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: cluster dimension {}", call, v));
      if (!f.required_cluster.x) f.required_cluster = {1, 1, 1};
      (a == CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH    ? f.required_cluster.x
       : a == CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT ? f.required_cluster.y
                                                        : f.required_cluster.z) = static_cast<uint32_t>(v);
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      f.non_portable_cluster = v != 0;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      f.cluster_policy = v;  // a preference; the simulator places clusters its own deterministic way
      return CUDA_SUCCESS;
    default:
      return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("{}: attribute {} cannot be set", call, static_cast<int>(a)));
  }
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuFuncGetAttribute(int* v, CUfunction_attribute a, CUfunction fn) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(fn);
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuFuncGetAttribute: invalid function handle");
  return get_attr(drv, v, a, *f);
}

TCSIM_CU_API CUresult CUDAAPI cuFuncSetAttribute(CUfunction fn, CUfunction_attribute a, int v) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(fn);
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuFuncSetAttribute: invalid function handle");
  return set_attr(drv, a, v, *f, "cuFuncSetAttribute");
}

TCSIM_CU_API CUresult CUDAAPI cuKernelGetAttribute(int* v, CUfunction_attribute a, CUkernel k, CUdevice dev) {
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncGetAttribute(v, a, reinterpret_cast<CUfunction>(k));
}

TCSIM_CU_API CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute a, int v, CUkernel k, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  Function* f = drv.function(k);
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuKernelSetAttribute: invalid kernel handle");
  return set_attr(drv, a, v, *f, "cuKernelSetAttribute");
}

TCSIM_CU_API CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction fn, CUfunc_cache cfg) {
  TCSIM_CU_ENTER();
  Function* f = drv.function(fn);
  if (!f) return drv.fail(CUDA_ERROR_INVALID_HANDLE, "cuFuncSetCacheConfig: invalid function handle");
  f->cache_config = cfg;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel k, CUfunc_cache cfg, CUdevice dev) {
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  return cuFuncSetCacheConfig(reinterpret_cast<CUfunction>(k), cfg);
}

TCSIM_CU_API CUresult CUDAAPI cuFuncSetSharedMemConfig(CUfunction fn, CUsharedconfig) {
  TCSIM_CU_ENTER();
  return drv.function(fn) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
