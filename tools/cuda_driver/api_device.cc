// Initialisation, version, devices, primary and explicit contexts (CUDA Driver API "Initialization",
// "Version Management", "Device Management", "Primary Context Management", "Context Management").
// One device, ordinal 0.
#include <cstring>

#include <fmt/format.h>

#include "models/machine/machine_config.h"
#include "tools/cuda_driver/legacy_abi.h"
#include "tools/cuda_driver/driver.h"

using namespace tcsim::cudrv;

namespace {

// The driver version reported: the CUDA version whose headers libtcsim-cuda was built with, so a
// runtime of that version accepts it (cudart refuses a driver older than itself).
constexpr int kDriverVersion = CUDA_VERSION;

CUresult check_device(Driver& drv, CUdevice dev) {
  if (dev != 0) return drv.fail(CUDA_ERROR_INVALID_DEVICE, fmt::format("device {} does not exist (tcsim has one device, 0)", dev));
  return CUDA_SUCCESS;
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuInit(unsigned int flags) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  if (flags != 0) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuInit: flags must be 0, not {}", flags));
  return drv.init();
}

TCSIM_CU_API CUresult CUDAAPI cuDriverGetVersion(int* v) {
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  *v = kDriverVersion;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceGet(CUdevice* d, int ordinal) {
  TCSIM_CU_ENTER();
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal != 0) return drv.fail(CUDA_ERROR_INVALID_DEVICE, fmt::format("cuDeviceGet: no device {} (tcsim has one device, 0)", ordinal));
  *d = 0;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceGetCount(int* n) {
  TCSIM_CU_ENTER();
  if (!n) return CUDA_ERROR_INVALID_VALUE;
  *n = 1;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceGetName(char* name, int len, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  std::snprintf(name, static_cast<size_t>(len), "%s", drv.props().name);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceTotalMem(size_t* bytes, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  *bytes = drv.props().total_mem;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceGetAttribute(int* v, CUdevice_attribute attr, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  const auto a = device_attribute(drv.arch(), attr);
  if (!a) return drv.fail(CUDA_ERROR_INVALID_VALUE, fmt::format("cuDeviceGetAttribute: unknown attribute {}", static_cast<int>(attr)));
  *v = *a;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  *major = drv.props().cc_major;
  *minor = drv.props().cc_minor;
  return CUDA_SUCCESS;
}

// A fixed UUID per modelled device, so runs are reproducible: "tcsim" + the arch name, padded.
TCSIM_CU_API CUresult CUDAAPI cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  std::memset(uuid->bytes, 0, sizeof uuid->bytes);
  const std::string s = fmt::format("tcsim-{}", tcsim::isa::arch_name(drv.arch()));
  std::memcpy(uuid->bytes, s.data(), std::min(s.size(), sizeof uuid->bytes));
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceGetPCIBusId(char* id, int len, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!id || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  std::snprintf(id, static_cast<size_t>(len), "00000000:00:00.0");
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice* dev, const char* id) {
  TCSIM_CU_ENTER();
  if (!dev || !id) return CUDA_ERROR_INVALID_VALUE;
  if (std::strcmp(id, "00000000:00:00.0") != 0 && std::strcmp(id, "0000:00:00.0") != 0 && std::strcmp(id, "00:00.0") != 0)
    return drv.fail(CUDA_ERROR_INVALID_DEVICE, fmt::format("cuDeviceGetByPCIBusId: no device at {} (tcsim's device is 00000000:00:00.0)", id));
  *dev = 0;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceCanAccessPeer(int* can, CUdevice dev, CUdevice peer) {
  TCSIM_CU_ENTER();
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  if (CUresult r = check_device(drv, peer)) return r;
  *can = 0;  // a device is not its own peer
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceGetP2PAttribute(int* v, CUdevice_P2PAttribute, CUdevice src, CUdevice dst) {
  TCSIM_CU_ENTER();
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, src)) return r;
  if (CUresult r = check_device(drv, dst)) return r;
  return drv.fail(CUDA_ERROR_INVALID_DEVICE, "cuDeviceGetP2PAttribute: tcsim has one device: no peers");
}

TCSIM_CU_API CUresult CUDAAPI cuDeviceGetExecAffinitySupport(int* pi, CUexecAffinityType, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!pi) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  *pi = 0;
  return CUDA_SUCCESS;
}

// --- primary context --------------------------------------------------------------------------

TCSIM_CU_API CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  Context& p = drv.primary();
  ++p.retains;
  p.active = true;
  *pctx = reinterpret_cast<CUcontext>(&p);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) {
  TCSIM_CU_ENTER();
  if (CUresult r = check_device(drv, dev)) return r;
  Context& p = drv.primary();
  if (p.retains <= 0) return drv.fail(CUDA_ERROR_INVALID_CONTEXT, "cuDevicePrimaryCtxRelease: the primary context is not retained");
  // The primary context stays usable after its last release: its work is finished and the state
  // kept (a GPU driver would destroy and later recreate it; nothing observable is lost here
  // except that the simulated device memory is not reclaimed).
  if (--p.retains == 0) drv.flush();
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  TCSIM_CU_ENTER();
  if (CUresult r = check_device(drv, dev)) return r;
  drv.primary().flags = flags;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  TCSIM_CU_ENTER();
  if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  *flags = drv.primary().flags;
  *active = drv.primary().retains > 0;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) {
  TCSIM_CU_ENTER();
  if (CUresult r = check_device(drv, dev)) return r;
  drv.flush();
  Context& p = drv.primary();
  for (auto& [k, cls] : p.cls)
    if (cls.dtor) cls.dtor(reinterpret_cast<CUcontext>(&p), k, cls.value);
  p.cls.clear();
  p.retains = 0;
  return CUDA_SUCCESS;
}

// --- contexts ---------------------------------------------------------------------------------

namespace {

CUresult check_ctx(Driver& drv, CUcontext c, Context*& out, const char* call) {
  out = reinterpret_cast<Context*>(c);
  // Returned, not printed (--trace prints it): cudart's own teardown queries contexts it has already
  // destroyed (cuCtxGetApiVersion five times at exit) and takes the error in its stride.
  if (!drv.valid_context(out)) {
    drv.note(fmt::format("{}: invalid context handle (CUDA_ERROR_INVALID_CONTEXT)", call));
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  return CUDA_SUCCESS;
}

// The context a call names, or the current one when it passes NULL.
CUresult ctx_or_current(Driver& drv, CUcontext c, Context*& out, const char* call) {
  if (!c) return drv.need_context(out, true);
  return check_ctx(drv, c, out, call);
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuCtxCreate_v2(CUcontext* pctx, unsigned int flags, CUdevice dev) {
  TCSIM_CU_ENTER();
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_device(drv, dev)) return r;
  Context* c = drv.create_context(flags);
  drv.ctx_stack().push_back(c);
  *pctx = reinterpret_cast<CUcontext>(c);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxCreate(CUcontext* pctx, CUctxCreateParams* params, unsigned int flags, CUdevice dev) {
  if (params && (params->numExecAffinityParams > 0 || params->cigParams))
    return Driver::get().not_supported("cuCtxCreate with execution-affinity or CIG parameters");
  return cuCtxCreate_v2(pctx, flags, dev);
}

TCSIM_CU_API CUresult CUDAAPI cuCtxDestroy(CUcontext ctx) {
  TCSIM_CU_ENTER();
  Context* c = nullptr;
  if (CUresult r = check_ctx(drv, ctx, c, "cuCtxDestroy")) return r;
  if (c->primary) return drv.fail(CUDA_ERROR_INVALID_CONTEXT, "cuCtxDestroy: the primary context is released, not destroyed");
  drv.destroy_context(c);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) {
  TCSIM_CU_ENTER();
  Context* c = nullptr;
  if (CUresult r = check_ctx(drv, ctx, c, "cuCtxPushCurrent")) return r;
  drv.ctx_stack().push_back(c);
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxPopCurrent(CUcontext* pctx) {
  TCSIM_CU_ENTER();
  auto& s = drv.ctx_stack();
  if (s.empty()) return drv.fail(CUDA_ERROR_INVALID_CONTEXT, "cuCtxPopCurrent: no current context");
  if (pctx) *pctx = reinterpret_cast<CUcontext>(s.back());
  s.pop_back();
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx) {
  TCSIM_CU_ENTER();
  auto& s = drv.ctx_stack();
  if (!ctx) {
    if (!s.empty()) s.pop_back();
    return CUDA_SUCCESS;
  }
  Context* c = nullptr;
  if (CUresult r = check_ctx(drv, ctx, c, "cuCtxSetCurrent")) return r;
  if (s.empty()) s.push_back(c);
  else s.back() = c;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetCurrent(CUcontext* pctx) {
  TCSIM_CU_ENTER();
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  *pctx = reinterpret_cast<CUcontext>(drv.current());
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetDevice(CUdevice* dev) {
  TCSIM_CU_ENTER();
  if (!dev) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c, true)) return r;
  *dev = c->device;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice* dev, CUcontext ctx) {
  TCSIM_CU_ENTER();
  if (!dev) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = ctx_or_current(drv, ctx, c, "cuCtxGetDevice")) return r;
  *dev = c->device;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetFlags(unsigned int* flags) {
  TCSIM_CU_ENTER();
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c, true)) return r;
  *flags = c->flags;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxSetFlags(unsigned int flags) {
  TCSIM_CU_ENTER();
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  c->flags = flags;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long* id) {
  TCSIM_CU_ENTER();
  if (!id) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = ctx_or_current(drv, ctx, c, "cuCtxGetId")) return r;
  *id = c->id;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxSynchronize(void) {
  TCSIM_CU_ENTER();
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  return drv.flush();
}

TCSIM_CU_API CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx) {
  TCSIM_CU_ENTER();
  Context* c = nullptr;
  if (CUresult r = ctx_or_current(drv, ctx, c, "cuCtxSynchronize")) return r;
  return drv.flush();
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetLimit(size_t* v, CUlimit limit) {
  TCSIM_CU_ENTER();
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c, true)) return r;
  if (auto it = c->limits.find(limit); it != c->limits.end()) {
    *v = it->second;
    return CUDA_SUCCESS;
  }
  // The driver's defaults (CUDA Driver API, cuCtxSetLimit).
  switch (limit) {
    case CU_LIMIT_STACK_SIZE: *v = 1024; break;
    case CU_LIMIT_PRINTF_FIFO_SIZE: *v = 1 << 20; break;
    case CU_LIMIT_MALLOC_HEAP_SIZE: *v = 8 << 20; break;
    case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: *v = 2; break;
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: *v = 2048; break;
    case CU_LIMIT_MAX_L2_FETCH_GRANULARITY: *v = 32; break;
    case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: *v = 0; break;
    default: return drv.fail(CUDA_ERROR_UNSUPPORTED_LIMIT, fmt::format("cuCtxGetLimit: unknown limit {}", static_cast<int>(limit)));
  }
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t v) {
  TCSIM_CU_ENTER();
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  if (static_cast<int>(limit) < 0 || limit > CU_LIMIT_PERSISTING_L2_CACHE_SIZE)
    return drv.fail(CUDA_ERROR_UNSUPPORTED_LIMIT, fmt::format("cuCtxSetLimit: unknown limit {}", static_cast<int>(limit)));
  if (limit == CU_LIMIT_STACK_SIZE) {
    // The driver reserves the stack for every thread the device can hold at once and fails with
    // CUDA_ERROR_OUT_OF_MEMORY when that does not fit (CUDA Driver API, cuCtxSetLimit); the
    // simulator takes it as sim::LaunchConfig::stack_size_bytes (api_launch.cc).
    const tcsim::models::MachineConfig& m = tcsim::models::machine_config(drv.arch());
    const uint64_t threads = uint64_t{m.num_sms} * m.max_threads_per_sm;
    if (v > 0xffffffffu || v * threads > drv.props().total_mem)
      return drv.fail(CUDA_ERROR_OUT_OF_MEMORY,
                      fmt::format("cuCtxSetLimit(CU_LIMIT_STACK_SIZE, {}): {} threads x {} bytes of stack exceed the "
                                  "device's {} bytes", v, threads, v, drv.props().total_mem));
  }
  c->limits[limit] = v;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache* cfg) {
  TCSIM_CU_ENTER();
  if (!cfg) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c, true)) return r;
  *cfg = c->cache_config;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache cfg) {
  TCSIM_CU_ENTER();
  Context* c = nullptr;
  if (CUresult r = drv.need_context(c)) return r;
  c->cache_config = cfg;  // a preference: the simulator's L1/shared split does not depend on it
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig* cfg) {
  TCSIM_CU_ENTER();
  if (!cfg) return CUDA_ERROR_INVALID_VALUE;
  *cfg = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig) {
  TCSIM_CU_ENTER();
  return CUDA_SUCCESS;  // ignored on cc >= 5.0 GPUs too (CUDA Driver API, cuCtxSetSharedMemConfig)
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetApiVersion(CUcontext ctx, unsigned int* v) {
  TCSIM_CU_ENTER();
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  Context* c = nullptr;
  if (CUresult r = ctx_or_current(drv, ctx, c, "cuCtxGetApiVersion")) return r;
  *v = 3020;  // the context API version of every context since CUDA 3.2
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  TCSIM_CU_ENTER();
  // cc 9.0 and 10.0 GPUs report [0, -5] (greatest priority -5); the simulator runs streams in
  // issue order whatever their priority.
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return CUDA_SUCCESS;
}

TCSIM_CU_API CUresult CUDAAPI cuCtxResetPersistingL2Cache(void) {
  TCSIM_CU_ENTER();
  return CUDA_SUCCESS;  // tcsim models no L2 persistence: nothing to reset
}

TCSIM_CU_API CUresult CUDAAPI cuCtxGetExecAffinity(CUexecAffinityParam*, CUexecAffinityType) {
  TCSIM_CU_ENTER();
  return drv.not_supported("cuCtxGetExecAffinity");
}
