// libtcsim-cuda through the CUDA driver API, the way a program linked with -lcuda calls it
// (docs/cuda_driver.md). Truths: the CUDA Driver API's documented semantics (return codes,
// attribute meanings, cuGetProcAddress's version rules from cudaTypedefs.h), IEEE float32 arithmetic
// on the host for kernel results, and tcsim's one tensor-map implementation (isa) for the bytes of
// cuTensorMapEncodeTiled. Faults (sticky errors) are in driver_fault_test.cc: they end a context.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "isa/descriptors/tensor_map.h"
#include "tests/cuda_driver/ptx_kernels.h"

namespace {

#define CU(call) REQUIRE_EQ((call), CUDA_SUCCESS)

struct Setup {
  CUcontext ctx = nullptr;
  CUmodule mod = nullptr;
  Setup() {
    CU(cuInit(0));
    CUdevice d;
    CU(cuDeviceGet(&d, 0));
    CU(cuDevicePrimaryCtxRetain(&ctx, d));
    CU(cuCtxSetCurrent(ctx));
    CU(cuModuleLoadData(&mod, tcsim::test::kDriverTestPtx));
  }
};

Setup& setup() {
  static Setup s;
  return s;
}

CUfunction fn(const char* name) {
  CUfunction f = nullptr;
  REQUIRE_EQ(cuModuleGetFunction(&f, setup().mod, name), CUDA_SUCCESS);
  return f;
}

}  // namespace

TEST_CASE("init, version, the device and its attributes") {
  setup();
  int v = 0;
  CU(cuDriverGetVersion(&v));
  CHECK(v == CUDA_VERSION);
  int n = 0;
  CU(cuDeviceGetCount(&n));
  CHECK(n == 1);
  char name[64];
  CU(cuDeviceGetName(name, sizeof name, 0));
  CHECK(std::string(name).find("B200") != std::string::npos);  // the default model
  auto attr = [](CUdevice_attribute a) {
    int x = -1;
    REQUIRE_EQ(cuDeviceGetAttribute(&x, a, 0), CUDA_SUCCESS);
    return x;
  };
  CHECK(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) == 10);
  CHECK(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR) == 0);
  CHECK(attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT) == 148);
  CHECK(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) == 232448);
  CHECK(attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE) == 32);
  CHECK(attr(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH) == 1);
  CHECK(attr(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) == 0);  // not provided by tcsim
  // Every attribute cuda.h 13.0 defines has an answer.
  for (int a = 1; a <= CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED; ++a) {
    int x;
    INFO("attribute " << a);
    CHECK(cuDeviceGetAttribute(&x, static_cast<CUdevice_attribute>(a), 0) == CUDA_SUCCESS);
  }
  int x;
  CHECK(cuDeviceGetAttribute(&x, static_cast<CUdevice_attribute>(9999), 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(cuDeviceGet(reinterpret_cast<CUdevice*>(&x), 1) == CUDA_ERROR_INVALID_DEVICE);
  size_t total = 0;
  CU(cuDeviceTotalMem(&total, 0));
  CHECK(total > (size_t{100} << 30));
}

TEST_CASE("cuGetProcAddress resolves each function by its ABI version") {
  setup();
  void* p = nullptr;
  CUdriverProcAddressQueryResult st;
  // cuCtxCreate: (ctx*, flags, dev) since 3.2, (ctx*, params*, flags, dev) since 12.5.
  CU(cuGetProcAddress("cuCtxCreate", &p, 3020, CU_GET_PROC_ADDRESS_DEFAULT, &st));
  void* v3020 = p;
  CU(cuGetProcAddress("cuCtxCreate", &p, 12080, CU_GET_PROC_ADDRESS_DEFAULT, &st));
  CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS);
  CHECK(p == reinterpret_cast<void*>(&cuCtxCreate_v4));
  CHECK(p != v3020);
  // The 3.2 ABI works: create, then destroy.
  CUcontext c = nullptr;
  CU(reinterpret_cast<PFN_cuCtxCreate_v3020>(v3020)(&c, 0, 0));
  CU(cuCtxDestroy(c));
  CU(cuCtxSetCurrent(setup().ctx));
  // cuMemAlloc: the 64-bit ABI of CUDA 3.2.
  CU(cuGetProcAddress("cuMemAlloc", &p, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
  CHECK(p == reinterpret_cast<void*>(&cuMemAlloc_v2));
  // Per-thread-default-stream request: the same implementation here (one queue).
  CU(cuGetProcAddress("cuLaunchKernel", &p, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
  CHECK(p == reinterpret_cast<void*>(&cuLaunchKernel));
  // Too old a version, and no such function.
  CHECK(cuGetProcAddress("cuLaunchKernel", &p, 3000, CU_GET_PROC_ADDRESS_DEFAULT, &st) == CUDA_ERROR_NOT_FOUND);
  CHECK(st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  CHECK(cuGetProcAddress("cuNoSuchFunction", &p, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st) == CUDA_ERROR_NOT_FOUND);
  CHECK(st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  // A function tcsim does not implement: found, and it says so when called.
  CU(cuGetProcAddress("cuGraphCreate", &p, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
  CHECK(p != nullptr);
  CUgraph g;
  CHECK(reinterpret_cast<PFN_cuGraphCreate_v10000>(p)(&g, 0) == CUDA_ERROR_NOT_SUPPORTED);
  // The exported symbol of an unimplemented function behaves the same (programs linked -lcuda).
  CHECK(cuGraphCreate(&g, 0) == CUDA_ERROR_NOT_SUPPORTED);
}

TEST_CASE("memory: allocations, copies, memsets, pointer attributes") {
  setup();
  size_t free0, total;
  CU(cuMemGetInfo(&free0, &total));
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 1 << 20));
  size_t free1;
  CU(cuMemGetInfo(&free1, &total));
  CHECK(free0 - free1 == (1 << 20));
  CU(cuMemsetD32(d, 0xA5A5A5A5u, 256));
  CU(cuMemsetD8(d + 4, 0x11, 2));
  std::vector<uint32_t> h(256);
  CU(cuMemcpyDtoH(h.data(), d, 1024));
  CHECK(h[0] == 0xA5A5A5A5u);
  CHECK(h[1] == 0xA5A51111u);
  CHECK(h[255] == 0xA5A5A5A5u);
  // 2D: a 4 x 3 block of bytes into a pitched region.
  std::vector<uint8_t> src(12);
  for (int i = 0; i < 12; ++i) src[i] = static_cast<uint8_t>(i + 1);
  CU(cuMemsetD8(d, 0, 4096));
  CUDA_MEMCPY2D c = {};
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = src.data();
  c.srcPitch = 4;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = d;
  c.dstPitch = 256;
  c.dstXInBytes = 8;
  c.dstY = 1;
  c.WidthInBytes = 4;
  c.Height = 3;
  CU(cuMemcpy2D(&c));
  std::vector<uint8_t> back(1024);
  CU(cuMemcpyDtoH(back.data(), d, 1024));
  CHECK(back[256 + 8] == 1);
  CHECK(back[256 + 11] == 4);
  CHECK(back[512 + 8] == 5);
  CHECK(back[768 + 11] == 12);
  CHECK(back[256 + 12] == 0);
  // Device-to-device and unified copies.
  CUdeviceptr d2;
  CU(cuMemAlloc(&d2, 4096));
  CU(cuMemcpyDtoD(d2, d, 1024));
  CU(cuMemcpy(reinterpret_cast<CUdeviceptr>(back.data()), d2, 1024));
  CHECK(back[768 + 11] == 12);
  // Pointer attributes of an interior pointer.
  unsigned type = 0;
  CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 100));
  CHECK(type == CU_MEMORYTYPE_DEVICE);
  CUdeviceptr start = 0;
  size_t size = 0;
  CU(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 100));
  CU(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, d + 100));
  CHECK(start == d);
  CHECK(size == (1 << 20));
  CUdeviceptr base;
  CU(cuMemGetAddressRange(&base, &size, d + 5000));
  CHECK(base == d);
  // Pinned host memory.
  void* pinned = nullptr;
  CU(cuMemHostAlloc(&pinned, 4096, CU_MEMHOSTALLOC_PORTABLE));
  CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(pinned)));
  CHECK(type == CU_MEMORYTYPE_HOST);
  // An unknown pointer: an error for the single query, memory type 0 for the batch one.
  int local = 0;
  CHECK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(&local)) ==
        CUDA_ERROR_INVALID_VALUE);
  CUpointer_attribute attrs[1] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE};
  void* data[1] = {&type};
  CU(cuPointerGetAttributes(1, attrs, data, reinterpret_cast<CUdeviceptr>(&local)));
  CHECK(type == 0);
  // Out of range and double free.
  CHECK(cuMemcpyHtoD(d + (1 << 20) - 2, src.data(), 4) == CUDA_ERROR_INVALID_VALUE);
  CU(cuMemFreeHost(pinned));
  CU(cuMemFree(d2));
  CU(cuMemFree(d));
  CHECK(cuMemFree(d) == CUDA_ERROR_INVALID_VALUE);
}

TEST_CASE("modules, functions, globals, attributes") {
  setup();
  unsigned count = 0;
  CU(cuModuleGetFunctionCount(&count, setup().mod));
  CHECK(count == 7);  // the .entry kernels of kDriverTestPtx
  CUfunction f = fn("saxpy");
  size_t off = 0, sz = 0;
  CU(cuFuncGetParamInfo(f, 1, &off, &sz));
  CHECK(off == 8);  // f32 at 0, then the 8-aligned pointer
  CHECK(sz == 8);
  CHECK(cuFuncGetParamInfo(f, 4, &off, &sz) == CUDA_ERROR_INVALID_VALUE);
  const char* name = nullptr;
  CU(cuFuncGetName(&name, f));
  CHECK(std::string(name) == "saxpy");
  int v = 0;
  CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn("smem_kernel")));
  CHECK(v == 1024);
  CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn("smem_kernel")));
  CHECK(v == 256);
  CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, fn("pair_kernel")));
  CHECK(v == 2);
  CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, f));
  CHECK(v == 87);
  CU(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
  CHECK(v == 48 * 1024);
  CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 300000) == CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr g;
  size_t gs = 0;
  CU(cuModuleGetGlobal(&g, &gs, setup().mod, "gvar"));
  CHECK(gs == 16);
  uint32_t gv[4];
  CU(cuMemcpyDtoH(gv, g, 16));
  CHECK(gv[3] == 4);
  CHECK(cuModuleGetGlobal(&g, &gs, setup().mod, "nothere") == CUDA_ERROR_NOT_FOUND);
  CUfunction none;
  CHECK(cuModuleGetFunction(&none, setup().mod, "nothere") == CUDA_ERROR_NOT_FOUND);
  // A cubin holds SASS only; a fat binary without PTX for the device neither.
  const unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
  CUmodule m2;
  CHECK(cuModuleLoadData(&m2, elf) == CUDA_ERROR_NO_BINARY_FOR_GPU);
  CHECK(cuModuleLoadData(&m2, ".version 8.7\n.target sm_100a\n.address_size 64\nbogus;\n") == CUDA_ERROR_INVALID_PTX);
  // Libraries: the same module machinery, context-independent.
  CUlibrary lib;
  CU(cuLibraryLoadData(&lib, tcsim::test::kDriverTestPtx, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUkernel k;
  CU(cuLibraryGetKernel(&k, lib, "cluster_rank"));
  CUfunction kf;
  CU(cuKernelGetFunction(&kf, k));
  CU(cuKernelGetName(&name, k));
  CHECK(std::string(name) == "cluster_rank");
  CU(cuLibraryUnload(lib));
}

TEST_CASE("launches: kernelParams and extra, cluster dimensions, checks, PDL") {
  setup();
  const unsigned n = 1000;
  std::vector<float> x(n), y(n);
  for (unsigned i = 0; i < n; ++i) {
    x[i] = 0.37f * static_cast<float>(i) - 11.0f;
    y[i] = 1.0f / static_cast<float>(i + 3);
  }
  CUdeviceptr dx, dy;
  CU(cuMemAlloc(&dx, n * 4));
  CU(cuMemAlloc(&dy, n * 4));
  CU(cuMemcpyHtoD(dx, x.data(), n * 4));
  CU(cuMemcpyHtoD(dy, y.data(), n * 4));
  float a = 1.75f;
  unsigned nn = n;
  void* params[] = {&a, &dx, &dy, &nn};
  CU(cuLaunchKernel(fn("saxpy"), (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  // The same launch through `extra`: one packed parameter buffer.
  struct {
    float a;
    uint32_t pad;
    CUdeviceptr x, y;
    uint32_t n;
  } packed = {a, 0, dx, dy, n};
  size_t psize = 28;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &psize, CU_LAUNCH_PARAM_END};
  CU(cuLaunchKernel(fn("saxpy"), (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra));
  std::vector<float> out(n);
  CU(cuMemcpyDtoH(out.data(), dy, n * 4));
  for (unsigned i = 0; i < n; ++i) {
    float e = y[i];
    for (int rep = 0; rep < 2; ++rep) {
      volatile float p = a * x[i];  // two roundings, as mul.rn + add.rn
      e = p + e;
    }
    if (out[i] != e) FAIL("y[" << i << "] = " << out[i] << ", expected " << e);
  }
  size_t bad_size = 24;
  void* bad_extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &bad_size, CU_LAUNCH_PARAM_END};
  CHECK(cuLaunchKernel(fn("saxpy"), 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, bad_extra) == CUDA_ERROR_INVALID_VALUE);
  // Shared memory above 48 KiB needs the kernel attribute first.
  CHECK(cuLaunchKernel(fn("saxpy"), 1, 1, 1, 32, 1, 1, 64 * 1024, nullptr, params, nullptr) == CUDA_ERROR_INVALID_VALUE);
  CU(cuFuncSetAttribute(fn("saxpy"), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024));
  CU(cuLaunchKernel(fn("saxpy"), 1, 1, 1, 32, 1, 1, 64 * 1024, nullptr, params, nullptr));
  CHECK(cuLaunchKernel(fn("smem_kernel"), 1, 1, 1, 512, 1, 1, 0, nullptr, params, nullptr) == CUDA_ERROR_INVALID_VALUE);

  // Clusters through cuLaunchKernelEx: rank and size seen by the kernel.
  CUdeviceptr ranks;
  CU(cuMemAlloc(&ranks, 16 * 8));
  void* rp[] = {&ranks};
  CUlaunchAttribute attr[2] = {};
  attr[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr[0].value.clusterDim.x = 4;
  attr[0].value.clusterDim.y = 1;
  attr[0].value.clusterDim.z = 1;
  attr[1].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attr[1].value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig cfg = {};
  cfg.gridDimX = 8;
  cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = 32;
  cfg.blockDimY = cfg.blockDimZ = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 2;
  CU(cuLaunchKernelEx(&cfg, fn("cluster_rank"), rp, nullptr));
  uint32_t hr[16];
  CU(cuMemcpyDtoH(hr, ranks, sizeof hr));
  for (int b = 0; b < 8; ++b) {
    CHECK(hr[2 * b] == static_cast<uint32_t>(b % 4));
    CHECK(hr[2 * b + 1] == 4);
  }
  // 16-CTA clusters are not portable: refused until the kernel allows them.
  attr[0].value.clusterDim.x = 16;
  cfg.gridDimX = 16;
  CHECK(cuLaunchKernelEx(&cfg, fn("cluster_rank"), rp, nullptr) == CUDA_ERROR_INVALID_CLUSTER_SIZE);
  CU(cuFuncSetAttribute(fn("cluster_rank"), CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
  CU(cuLaunchKernelEx(&cfg, fn("cluster_rank"), rp, nullptr));
  attr[0].value.clusterDim.x = 3;  // does not divide the grid of 16
  CHECK(cuLaunchKernelEx(&cfg, fn("cluster_rank"), rp, nullptr) == CUDA_ERROR_INVALID_CLUSTER_SIZE);
  // Compiled cluster dimensions (.reqnctapercluster) apply without an attribute.
  CU(cuLaunchKernel(fn("pair_kernel"), 2, 1, 1, 32, 1, 1, 0, nullptr, rp, nullptr));
  CU(cuMemcpyDtoH(hr, ranks, 4));
  CHECK(hr[0] == 2);
  // PDL's griddepcontrol in a programmatic launch.
  cfg.gridDimX = 1;
  cfg.attrs = &attr[1];
  cfg.numAttrs = 1;
  CU(cuLaunchKernelEx(&cfg, fn("pdl"), rp, nullptr));
  CU(cuMemcpyDtoH(hr, ranks, 4));
  CHECK(hr[0] == 7);
  // An attribute tcsim does not model is refused by name.
  CUlaunchAttribute unknown = {};
  unknown.id = CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE;
  cfg.attrs = &unknown;
  CHECK(cuLaunchKernelEx(&cfg, fn("pdl"), rp, nullptr) == CUDA_ERROR_NOT_SUPPORTED);
  // A module variable read by a kernel.
  CU(cuLaunchKernel(fn("read_gvar"), 1, 1, 1, 1, 1, 1, 0, nullptr, rp, nullptr));
  CU(cuMemcpyDtoH(hr, ranks, 4));
  CHECK(hr[0] == 3);
  CU(cuMemFree(ranks));
  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
}

TEST_CASE("streams and events: work runs at synchronisation, events carry simulated time") {
  setup();
  CUstream s1, s2;
  CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  CU(cuStreamCreateWithPriority(&s2, 0, -3));
  int prio = 0;
  CU(cuStreamGetPriority(s2, &prio));
  CHECK(prio == -3);
  const unsigned n = 4096;
  CUdeviceptr dx, dy;
  CU(cuMemAlloc(&dx, n * 4));
  CU(cuMemAlloc(&dy, n * 4));
  CU(cuMemsetD32(dx, 0x3f800000u, n));  // 1.0f
  CU(cuMemsetD32(dy, 0, n));
  float a = 2.0f;
  unsigned nn = n;
  void* params[] = {&a, &dx, &dy, &nn};
  CUevent e0, e1, e2;
  CU(cuEventCreate(&e0, 0));
  CU(cuEventCreate(&e1, 0));
  CU(cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));
  float* pinned = nullptr;
  CU(cuMemAllocHost(reinterpret_cast<void**>(&pinned), n * 4));
  for (unsigned i = 0; i < n; ++i) pinned[i] = -1.0f;
  CU(cuEventRecord(e0, s1));
  CU(cuLaunchKernel(fn("saxpy"), n / 128, 1, 1, 128, 1, 1, 0, s1, params, nullptr));
  CU(cuEventRecord(e1, s1));
  CU(cuStreamWaitEvent(s2, e1, 0));
  CU(cuMemcpyDtoHAsync(pinned, dy, n * 4, s2));
  // Queued, not run: the pinned destination is untouched until the program synchronises.
  CHECK(pinned[0] == -1.0f);
  CU(cuStreamSynchronize(s2));
  CHECK(pinned[0] == 2.0f);
  CHECK(pinned[n - 1] == 2.0f);
  float ms = 0;
  CU(cuEventElapsedTime(&ms, e0, e1));
  CHECK(ms > 0.0f);
  CHECK(ms < 1.0f);  // a 4096-element saxpy is microseconds on a B200
  CHECK(cuEventElapsedTime(&ms, e0, e2) == CUDA_ERROR_INVALID_HANDLE);
  // A query is a synchronisation point: polling terminates.
  CU(cuLaunchKernel(fn("saxpy"), n / 128, 1, 1, 128, 1, 1, 0, s1, params, nullptr));
  CU(cuEventRecord(e1, s1));
  CHECK(cuEventQuery(e1) == CUDA_SUCCESS);
  CHECK(cuStreamQuery(s1) == CUDA_SUCCESS);
  // Host functions run in stream order.
  static std::vector<int> order;
  order.clear();
  CU(cuLaunchHostFunc(s1, [](void*) { order.push_back(1); }, nullptr));
  CU(cuLaunchHostFunc(s2, [](void*) { order.push_back(2); }, nullptr));
  CU(cuCtxSynchronize());
  CHECK(order == std::vector<int>{1, 2});
  CHECK(cuStreamDestroy(reinterpret_cast<CUstream>(&order)) == CUDA_ERROR_INVALID_HANDLE);
  CU(cuStreamDestroy(s1));
  CU(cuStreamDestroy(s2));
  CU(cuEventDestroy(e0));
  CU(cuEventDestroy(e1));
  CU(cuEventDestroy(e2));
  CU(cuMemFreeHost(pinned));
  CU(cuMemFree(dx));
  CU(cuMemFree(dy));
}

TEST_CASE("tensor maps: the driver's rules and tcsim's one encoding") {
  setup();
  CUdeviceptr d;
  CU(cuMemAlloc(&d, 1 << 20));
  CUtensorMap m;
  const cuuint64_t dims[2] = {512, 256}, strides[1] = {1024};
  const cuuint32_t box[2] = {64, 128}, es[2] = {1, 1};
  CU(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, reinterpret_cast<void*>(d), dims, strides, box, es,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  const auto p = tcsim::isa::decode_tensor_map(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&m), 128));
  REQUIRE(p.has_value());
  CHECK(p->global_address == d);
  CHECK(p->global_dim[0] == 512);
  CHECK(p->global_strides[0] == 1024);
  CHECK(p->box_dim[1] == 128);
  CHECK(p->swizzle == tcsim::isa::TensorMapSwizzle::B128);
  // A stride that is not a multiple of 16 bytes: what cuTensorMapEncodeTiled refuses.
  const cuuint64_t bad_strides[1] = {1000};
  CHECK(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, reinterpret_cast<void*>(d), dims, bad_strides, box, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE);
  CU(cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, reinterpret_cast<void*>(d), dims, strides, box, es,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  CU(cuTensorMapReplaceAddress(&m, reinterpret_cast<void*>(d + 4096)));
  const auto q = tcsim::isa::decode_tensor_map(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&m), 128));
  REQUIRE(q.has_value());
  CHECK(q->global_address == d + 4096);
  const int lower[1] = {0}, upper[1] = {0};
  CHECK(cuTensorMapEncodeIm2col(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, reinterpret_cast<void*>(d), dims, strides, lower, upper,
                                8, 8, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_NOT_SUPPORTED);
  CU(cuMemFree(d));
}

TEST_CASE("occupancy from the simulated SM's limits") {
  setup();
  int blocks = 0;
  // 2048 threads per SM: two 1024-thread CTAs.
  CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn("saxpy"), 1024, 0));
  CHECK(blocks == 2);
  // 32 CTAs per SM at most.
  CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn("saxpy"), 32, 0));
  CHECK(blocks == 32);
  // Shared memory: 233472 bytes per SM, each CTA 100 KiB + the 1 KiB reserve -> 2.
  CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn("saxpy"), 128, 100 * 1024));
  CHECK(blocks == 2);
  CU(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fn("smem_kernel"), 512, 0));
  CHECK(blocks == 0);  // above the kernel's .maxntid 256
  int min_grid = 0, bs = 0;
  CU(cuOccupancyMaxPotentialBlockSize(&min_grid, &bs, fn("smem_kernel"), nullptr, 0, 0));
  CHECK(bs == 256);
  CHECK(min_grid == 8 * 148);
  CUlaunchAttribute attr = {};
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = 2;
  attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
  CUlaunchConfig cfg = {};
  cfg.gridDimX = 2;
  cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = 1024;
  cfg.blockDimY = cfg.blockDimZ = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  int clusters = 0;
  CU(cuOccupancyMaxActiveClusters(&clusters, fn("saxpy"), &cfg));
  CHECK(clusters == 148);  // two 1024-thread CTAs per SM, pairs on distinct SMs of one GPC
}

TEST_CASE("the stack limit: cuCtxSetLimit(CU_LIMIT_STACK_SIZE) reaches the simulator") {
  setup();
  size_t v = 0;
  CU(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
  CHECK(v == 1024);  // the driver's default (CUDA Driver API, cuCtxSetLimit)
  // 1000 recursive calls of 32 bytes each (a 16-byte parameter frame and 16 bytes of call overhead,
  // docs/hostile_input.md "Stack") need 32000 bytes: over the default, within 64 KiB. With the
  // default the launch would fail with a stack overflow (a sticky error: driver_fault_test.cc).
  CU(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 64 * 1024));
  CU(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
  CHECK(v == 64 * 1024);
  CUdeviceptr out;
  CU(cuMemAlloc(&out, 4));
  unsigned n = 1000;
  void* params[] = {&out, &n};
  CU(cuLaunchKernel(fn("recurse"), 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  uint32_t got = 0;
  CU(cuMemcpyDtoH(&got, out, 4));
  CHECK(got == 1000);
  // A stack the device cannot reserve for all its threads is refused, the limit unchanged.
  CHECK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, size_t{1} << 30) == CUDA_ERROR_OUT_OF_MEMORY);
  CU(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
  CHECK(v == 64 * 1024);
  CU(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1024));
  CU(cuMemFree(out));
}

TEST_CASE("error names and strings; cudart's private tables") {
  setup();
  const char* s = nullptr;
  CU(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s));
  CHECK(std::string(s) == "CUDA_ERROR_INVALID_VALUE");
  CU(cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &s));
  CHECK(std::string(s) == "illegal address");
  CHECK(cuGetErrorName(static_cast<CUresult>(123456), &s) == CUDA_ERROR_INVALID_VALUE);
  const CUuuid cudart = {{0x6b, static_cast<char>(0xd5), static_cast<char>(0xfb), 0x6c, 0x5b, static_cast<char>(0xf4),
                          static_cast<char>(0xe7), 0x4a, static_cast<char>(0x89), static_cast<char>(0x87),
                          static_cast<char>(0xd9), 0x39, 0x12, static_cast<char>(0xfd), static_cast<char>(0x9d),
                          static_cast<char>(0xf9)}};
  const void* table = nullptr;
  CU(cuGetExportTable(&table, &cudart));
  CHECK(reinterpret_cast<const size_t*>(table)[0] == 13 * sizeof(void*));
  const CUuuid unknown = {{1, 2, 3}};
  CHECK(cuGetExportTable(&table, &unknown) == CUDA_ERROR_INVALID_VALUE);
}
