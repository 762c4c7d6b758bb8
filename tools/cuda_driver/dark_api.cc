// cuGetExportTable: the private tables the CUDA runtime asks the driver for, by UUID. They are
// undocumented; what each slot does is as the ZLUDA project documents it (docs/cuda_driver.md
// "cudart's private tables", which also lists what cudart 13.0 was observed to request and call).
// A table or slot tcsim does not know is refused / answered with one line naming it
// (CUDA_ERROR_NOT_SUPPORTED), never a crash. TCSIM_CUDA_TRACE=1 logs every request.
#include <nettle/hmac.h>
#include <nettle/md2.h>
#include <nettle/nettle-meta.h>
#include <pthread.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <utility>
#include <string>

#include <fmt/format.h>

#include "tools/cuda_driver/driver.h"

using namespace tcsim::cudrv;

namespace {

using Uuid = std::array<uint8_t, 16>;

std::string uuid_text(const uint8_t* b) {
  std::string s;
  for (int i = 0; i < 16; ++i) s += fmt::format("{:02x}", b[i]);
  return s;
}

// --- slots whose meaning is not known: say so when called ---------------------------------

template <int T, int S>
CUresult CUDAAPI unknown_slot() {
  static const char* const names[] = {"CUDART_INTERFACE",       "TOOLS_RUNTIME_CALLBACK_HOOKS", "CONTEXT_LOCAL_STORAGE",
                                      "TOOLS_TLS",              "CONTEXT_CHECKS",               "CTX_CREATE_BYPASS",
                                      "HEAP_ACCESS",            "DEVICE_EXTENDED_RT"};
  Driver::get().not_supported(fmt::format("slot {} of cudart's private table {}", S, names[T]),
                              "its meaning is unknown (docs/cuda_driver.md \"cudart's private tables\")");
  return CUDA_ERROR_NOT_SUPPORTED;
}

template <int T, int... S>
void fill_unknown(void** table, std::integer_sequence<int, S...>) {
  ((table[S] = table[S] ? table[S] : reinterpret_cast<void*>(&unknown_slot<T, S>)), ...);
}

// --- CUDART_INTERFACE {6bd5fb6c-5bf4-e74a-8987-d93912fd9df9} --------------------------------
// cudart registers each fat binary of the program through these: the module is created here
// (its PTX parsed now), and a missing PTX is reported when a kernel of it is first used.

CUresult register_fatbin(const void* image, CUmodule* out, const char* how) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  if (!drv.initialized()) return CUDA_ERROR_NOT_INITIALIZED;
  if (!out || !image) return CUDA_ERROR_INVALID_VALUE;
  Module* m = nullptr;
  if (CUresult r = drv.load_module(image, how, false, m)) return r;
  *out = reinterpret_cast<CUmodule>(m);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cudart_get_module(CUmodule* out, const void* wrapper) {
  return register_fatbin(wrapper, out, "a fat binary registered by the CUDA runtime");
}

CUresult CUDAAPI cudart_primary_context(CUcontext* pctx, CUdevice dev) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  if (!drv.initialized()) return CUDA_ERROR_NOT_INITIALIZED;
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  *pctx = reinterpret_cast<CUcontext>(&drv.primary());  // the handle, not retained
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cudart_get_module_ext1(CUmodule* out, const void* wrapper, void* a3, void* a4, unsigned a5) {
  if (a3 || a4 || a5) return Driver::get().not_supported("registering a fat binary with extra arguments (CUDART_INTERFACE slot 6)");
  return register_fatbin(wrapper, out, "a fat binary registered by the CUDA runtime");
}

void CUDAAPI cudart_slot7(size_t) {}

CUresult CUDAAPI cudart_get_module_ext2(const void* fatbin, CUmodule* out, void* a3, void* a4, unsigned a5) {
  if (a3 || a4 || a5) return Driver::get().not_supported("registering a fat binary with extra arguments (CUDART_INTERFACE slot 8)");
  return register_fatbin(fatbin, out, "a fat binary registered by the CUDA runtime");
}

CUresult CUDAAPI cudart_load_compilers() { return CUDA_SUCCESS; }  // no JIT compilers: PTX runs as it is

void* g_cudart_interface[13] = {reinterpret_cast<void*>(sizeof(void*) * 13),
                                reinterpret_cast<void*>(&cudart_get_module),
                                reinterpret_cast<void*>(&cudart_primary_context),
                                nullptr, nullptr, nullptr,
                                reinterpret_cast<void*>(&cudart_get_module_ext1),
                                reinterpret_cast<void*>(&cudart_slot7),
                                reinterpret_cast<void*>(&cudart_get_module_ext2),
                                nullptr, nullptr, nullptr,
                                reinterpret_cast<void*>(&cudart_load_compilers)};

// --- TOOLS_RUNTIME_CALLBACK_HOOKS {a094798c-2e74-2e74-93f2-0800200c0a66} --------------------
// Two buffers the runtime writes tool-callback state into.

uint32_t g_tools_buffer1[1024];
uint32_t g_tools_buffer2[14];

void CUDAAPI tools_buffer1(void** p, size_t* n) {
  *p = g_tools_buffer1;
  *n = std::size(g_tools_buffer1);
}
void CUDAAPI tools_buffer2(void** p, size_t* n) {
  *p = g_tools_buffer2;
  *n = std::size(g_tools_buffer2);
}

void* g_tools_hooks[7] = {reinterpret_cast<void*>(sizeof(void*) * 7), nullptr, reinterpret_cast<void*>(&tools_buffer1),
                          nullptr, nullptr, nullptr, reinterpret_cast<void*>(&tools_buffer2)};

// --- CONTEXT_LOCAL_STORAGE_INTERFACE_V0301 {c693336e-1121-df11-a8c3-68f355d89593} -----------
// The runtime keeps its per-context state here (the destructor runs when the context goes).

using ClsDtor = void (*)(CUcontext, void*, void*);

// NULL: the current context (none yet is a normal answer when the runtime probes: no message).
CUresult cls_context(Driver& drv, CUcontext c, Context*& out) {
  out = c ? reinterpret_cast<Context*>(c) : drv.current();
  if (!out) return CUDA_ERROR_INVALID_CONTEXT;
  return drv.valid_context(out) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult CUDAAPI cls_put(CUcontext c, void* key, void* value, ClsDtor dtor) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  Context* ctx = nullptr;
  if (CUresult r = cls_context(drv, c, ctx)) return r;
  ctx->cls[key] = {value, dtor};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cls_delete(CUcontext c, void* key) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  Context* ctx = nullptr;
  if (CUresult r = cls_context(drv, c, ctx)) return r;
  ctx->cls.erase(key);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cls_get(void** value, CUcontext c, void* key) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  Context* ctx = nullptr;
  if (CUresult r = cls_context(drv, c, ctx)) return r;
  auto it = ctx->cls.find(key);
  if (it == ctx->cls.end()) return CUDA_ERROR_INVALID_HANDLE;
  *value = it->second.value;
  return CUDA_SUCCESS;
}

void* g_cls[4] = {reinterpret_cast<void*>(&cls_put), reinterpret_cast<void*>(&cls_delete), reinterpret_cast<void*>(&cls_get),
                  nullptr};

// --- TOOLS_TLS {42d85a81-23f6-cb47-8298-f6e78a3aecdc}: only its size is read ----------------

void* g_tools_tls[4] = {reinterpret_cast<void*>(sizeof(void*) * 4), nullptr, nullptr, nullptr};

// --- CONTEXT_CHECKS {263e8860-7cd2-6143-92f6-bbd5006dfa7e} ----------------------------------

CUresult CUDAAPI context_check(CUcontext, uint32_t* r1, const void** r2) {
  if (r1) *r1 = 0;
  if (r2) *r2 = nullptr;
  return CUDA_SUCCESS;
}
uint32_t CUDAAPI context_check3() { return 0; }

void* g_context_checks[4] = {reinterpret_cast<void*>(sizeof(void*) * 4), nullptr, reinterpret_cast<void*>(&context_check),
                             reinterpret_cast<void*>(&context_check3)};

// --- INTEGRITY_CHECK {d4082055-bde6-704b-8d34-ba123c66e1f2} ---------------------------------
// The runtime checks that it talks to a real driver: slot 1 must return HMAC-MD2 (RFC 2104 over
// RFC 1319) under a fixed key of a record of the process, the tables and the devices, which the
// runtime computes too and compares (docs/cuda_driver.md "The integrity check", from ZLUDA).

CUresult CUDAAPI integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]);

void* g_integrity[3] = {reinterpret_cast<void*>(sizeof(void*) * 3), reinterpret_cast<void*>(&integrity_check), nullptr};

CUresult CUDAAPI integrity_check(uint32_t version, uint64_t unix_seconds, uint64_t result[2]) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  if (!result) return CUDA_ERROR_INVALID_VALUE;
  drv.note(fmt::format("integrity check, version {}", version));
  // Versions ending in 0 and 1 expect fixed answers.
  if (version % 10 == 0) {
    result[0] = 0x3341181C03CB675Cull;
    result[1] = 0x8ED383AA1F4CD1E8ull;
    return CUDA_SUCCESS;
  }
  if (version % 10 == 1) {
    result[0] = 0x1841181C03CB675Cull;
    result[1] = 0x8ED383AA1F4CD1E8ull;
    return CUDA_SUCCESS;
  }
  static constexpr uint8_t kKey[16] = {0x14, 0x6A, 0xDD, 0xAE, 0x53, 0xA9, 0xA7, 0x52,
                                       0xAA, 0x08, 0x41, 0x36, 0x0B, 0xF5, 0x5A, 0x9F};
  struct Record {  // 48 bytes, no padding
    uint32_t driver_version, version, process, thread;
    const void* cudart_table;
    const void* integrity_table;
    const void* function;
    uint64_t unix_seconds;
  } rec{};
  static_assert(sizeof(Record) == 48);
  int dv = 0;
  cuDriverGetVersion(&dv);
  rec.driver_version = static_cast<uint32_t>(dv);
  rec.version = version;
  rec.process = static_cast<uint32_t>(getpid());
  rec.thread = static_cast<uint32_t>(pthread_self());
  rec.cudart_table = g_cudart_interface;
  rec.integrity_table = g_integrity;
  rec.function = g_integrity[1];
  rec.unix_seconds = unix_seconds;
  struct DeviceRecord {  // 28 bytes
    uint8_t uuid[16];
    int32_t pci_domain, pci_bus, pci_device;
  } dev{};
  static_assert(sizeof(DeviceRecord) == 28);
  CUuuid u;
  cuDeviceGetUuid(&u, 0);
  std::memcpy(dev.uuid, u.bytes, 16);
  cuDeviceGetAttribute(&dev.pci_domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, 0);
  cuDeviceGetAttribute(&dev.pci_bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0);
  cuDeviceGetAttribute(&dev.pci_device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, 0);
  struct md2_ctx outer, inner, state;
  hmac_set_key(&outer, &inner, &state, &nettle_md2, sizeof kKey, kKey);
  hmac_update(&state, &nettle_md2, sizeof rec, reinterpret_cast<const uint8_t*>(&rec));
  hmac_update(&state, &nettle_md2, sizeof dev, reinterpret_cast<const uint8_t*>(&dev));
  uint8_t digest[MD2_DIGEST_SIZE];
  hmac_digest(&outer, &inner, &state, &nettle_md2, sizeof digest, digest);
  std::memcpy(result, digest, 16);
  return CUDA_SUCCESS;
}

struct Table {
  Uuid id;
  void** slots;
  size_t n;
  const char* name;
};

Table g_tables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9}, g_cudart_interface,
     std::size(g_cudart_interface), "CUDART_INTERFACE"},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66}, g_tools_hooks,
     std::size(g_tools_hooks), "TOOLS_RUNTIME_CALLBACK_HOOKS"},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93}, g_cls, std::size(g_cls),
     "CONTEXT_LOCAL_STORAGE"},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc}, g_tools_tls,
     std::size(g_tools_tls), "TOOLS_TLS"},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2}, g_integrity,
     std::size(g_integrity), "INTEGRITY_CHECK"},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e}, g_context_checks,
     std::size(g_context_checks), "CONTEXT_CHECKS"},
};

void fill_tables() {
  static bool done = false;
  if (done) return;
  done = true;
  fill_unknown<0>(g_cudart_interface, std::integer_sequence<int, 3, 4, 5, 9, 10, 11>{});
  fill_unknown<1>(g_tools_hooks, std::integer_sequence<int, 1, 3, 4, 5>{});
  fill_unknown<2>(g_cls, std::integer_sequence<int, 3>{});
  fill_unknown<4>(g_context_checks, std::integer_sequence<int, 1>{});
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuGetExportTable(const void** table, const CUuuid* id) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  if (!table || !id) return CUDA_ERROR_INVALID_VALUE;
  fill_tables();
  const auto* b = reinterpret_cast<const uint8_t*>(id->bytes);
  for (const Table& t : g_tables)
    if (std::memcmp(t.id.data(), b, 16) == 0) {
      drv.note(fmt::format("cuGetExportTable({}) -> {}", uuid_text(b), t.name));
      *table = t.slots;
      return CUDA_SUCCESS;
    }
  drv.note(fmt::format("cuGetExportTable({}) -> unknown table, refused", uuid_text(b)));
  *table = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}
