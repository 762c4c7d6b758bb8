// cuGetProcAddress (CUDA Driver API "Driver Entry Point Access"): how the CUDA runtime (static or
// shared cudart 12/13) and cuda-python find every driver function. A request names a function, the
// CUDA version the caller was built for, and whether it wants the per-thread-default-stream
// variant; the answer is the newest ABI of that function not newer than the version.
//
// The ABIs that exist come from cudaTypedefs.h (gen_proc_versions.py -> proc_versions.inc). The
// ones libtcsim-cuda implements are the table below, each entry checked at compile time against its
// PFN_ type. A known function or ABI without an implementation resolves to a trampoline that prints
// one line naming it and returns CUDA_ERROR_NOT_SUPPORTED, so a program that calls it fails
// cleanly instead of crashing on a null pointer.
#include <cudaTypedefs.h>

#include <array>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tools/cuda_driver/driver.h"
#include "tools/cuda_driver/legacy_abi.h"

using namespace tcsim::cudrv;

extern "C" CUresult tcsim_cuStreamGetCaptureInfo_v11030(CUstream, CUstreamCaptureStatus*, cuuint64_t*, CUgraph*,
                                                        const CUgraphNode**, size_t*);
extern "C" CUresult tcsim_cuStreamGetCaptureInfo_v10010(CUstream, CUstreamCaptureStatus*, cuuint64_t*);
TCSIM_CU_API CUresult CUDAAPI cuGetExportTable(const void** table, const CUuuid* id);

namespace {

struct AbiRow {
  const char* name;
  int version;
  bool per_thread;
  bool superseded;  // an ABI cuda.h no longer declares (32-bit sizes): never implemented here
};
constexpr AbiRow kAbis[] = {
#define TCSIM_PFN(name, ver, pt, old) {#name, ver, pt != 0, old != 0},
#include "tools/cuda_driver/proc_versions.inc"
#undef TCSIM_PFN
};

struct Impl {
  const char* name;
  int version;
  bool per_thread;
  void* fn;
};

// Each implementation is cast to the PFN_ type of its ABI: a signature mismatch does not compile.
#define TCSIM_PROC(name, ver, fn) {#name, ver, false, reinterpret_cast<void*>(static_cast<PFN_##name##_v##ver>(&fn))}
#define TCSIM_PROC_PT(name, ver, sfx, fn) \
  {#name, ver, true, reinterpret_cast<void*>(static_cast<PFN_##name##_v##ver##sfx>(&fn))}

// A superseded ABI (cudaTypedefs.h declares its PFN_ only for the driver's own build) whose
// signature equals a newer one's: checked against the newer type.
#define TCSIM_PROC_SAME(name, ver, same_as, fn) \
  {#name, ver, false, reinterpret_cast<void*>(static_cast<PFN_##name##_v##same_as>(&fn))}

CUresult CUDAAPI get_proc_address_v1(const char* symbol, void** pfn, int version, cuuint64_t flags);

const Impl kImpls[] = {
    TCSIM_PROC(cuGetProcAddress, 12000, cuGetProcAddress_v2),
    TCSIM_PROC(cuGetProcAddress, 11030, get_proc_address_v1),
    TCSIM_PROC(cuGetExportTable, 3000, cuGetExportTable),
    TCSIM_PROC(cuCtxCreate, 12050, cuCtxCreate),
    TCSIM_PROC(cuCtxCreate, 3020, cuCtxCreate_v2),
    TCSIM_PROC(cuCtxDestroy, 4000, cuCtxDestroy),
    TCSIM_PROC(cuCtxGetApiVersion, 3020, cuCtxGetApiVersion),
    TCSIM_PROC(cuCtxGetCacheConfig, 3020, cuCtxGetCacheConfig),
    TCSIM_PROC(cuCtxGetCurrent, 4000, cuCtxGetCurrent),
    TCSIM_PROC(cuCtxGetDevice, 2000, cuCtxGetDevice),
    TCSIM_PROC(cuCtxGetDevice, 13000, cuCtxGetDevice_v2),
    TCSIM_PROC(cuCtxGetExecAffinity, 11040, cuCtxGetExecAffinity),
    TCSIM_PROC(cuCtxGetFlags, 7000, cuCtxGetFlags),
    TCSIM_PROC(cuCtxGetId, 12000, cuCtxGetId),
    TCSIM_PROC(cuCtxGetLimit, 3010, cuCtxGetLimit),
    TCSIM_PROC(cuCtxGetSharedMemConfig, 4020, cuCtxGetSharedMemConfig),
    TCSIM_PROC(cuCtxGetStreamPriorityRange, 5050, cuCtxGetStreamPriorityRange),
    TCSIM_PROC(cuCtxPopCurrent, 4000, cuCtxPopCurrent),
    TCSIM_PROC(cuCtxPushCurrent, 4000, cuCtxPushCurrent),
    TCSIM_PROC(cuCtxResetPersistingL2Cache, 11000, cuCtxResetPersistingL2Cache),
    TCSIM_PROC(cuCtxSetCacheConfig, 3020, cuCtxSetCacheConfig),
    TCSIM_PROC(cuCtxSetCurrent, 4000, cuCtxSetCurrent),
    TCSIM_PROC(cuCtxSetFlags, 12010, cuCtxSetFlags),
    TCSIM_PROC(cuCtxSetLimit, 3010, cuCtxSetLimit),
    TCSIM_PROC(cuCtxSetSharedMemConfig, 4020, cuCtxSetSharedMemConfig),
    TCSIM_PROC(cuCtxSynchronize, 2000, cuCtxSynchronize),
    TCSIM_PROC(cuCtxSynchronize, 13000, cuCtxSynchronize_v2),
    TCSIM_PROC(cuDeviceCanAccessPeer, 4000, cuDeviceCanAccessPeer),
    TCSIM_PROC(cuDeviceComputeCapability, 2000, cuDeviceComputeCapability),
    TCSIM_PROC(cuDeviceGet, 2000, cuDeviceGet),
    TCSIM_PROC(cuDeviceGetAttribute, 2000, cuDeviceGetAttribute),
    TCSIM_PROC(cuDeviceGetByPCIBusId, 4010, cuDeviceGetByPCIBusId),
    TCSIM_PROC(cuDeviceGetCount, 2000, cuDeviceGetCount),
    TCSIM_PROC(cuDeviceGetExecAffinitySupport, 11040, cuDeviceGetExecAffinitySupport),
    TCSIM_PROC(cuDeviceGetName, 2000, cuDeviceGetName),
    TCSIM_PROC(cuDeviceGetP2PAttribute, 8000, cuDeviceGetP2PAttribute),
    TCSIM_PROC(cuDeviceGetPCIBusId, 4010, cuDeviceGetPCIBusId),
    TCSIM_PROC(cuDeviceGetUuid, 9020, cuDeviceGetUuid),
    TCSIM_PROC(cuDeviceGetUuid, 11040, cuDeviceGetUuid),
    TCSIM_PROC(cuDevicePrimaryCtxGetState, 7000, cuDevicePrimaryCtxGetState),
    TCSIM_PROC_SAME(cuDevicePrimaryCtxRelease, 7000, 11000, cuDevicePrimaryCtxRelease),
    TCSIM_PROC(cuDevicePrimaryCtxRelease, 11000, cuDevicePrimaryCtxRelease),
    TCSIM_PROC_SAME(cuDevicePrimaryCtxReset, 7000, 11000, cuDevicePrimaryCtxReset),
    TCSIM_PROC(cuDevicePrimaryCtxReset, 11000, cuDevicePrimaryCtxReset),
    TCSIM_PROC(cuDevicePrimaryCtxRetain, 7000, cuDevicePrimaryCtxRetain),
    TCSIM_PROC_SAME(cuDevicePrimaryCtxSetFlags, 7000, 11000, cuDevicePrimaryCtxSetFlags),
    TCSIM_PROC(cuDevicePrimaryCtxSetFlags, 11000, cuDevicePrimaryCtxSetFlags),
    TCSIM_PROC(cuDeviceTotalMem, 3020, cuDeviceTotalMem),
    TCSIM_PROC(cuDriverGetVersion, 2020, cuDriverGetVersion),
    TCSIM_PROC(cuEventCreate, 2000, cuEventCreate),
    TCSIM_PROC(cuEventDestroy, 4000, cuEventDestroy),
    TCSIM_PROC(cuEventElapsedTime, 2000, cuEventElapsedTime),
    TCSIM_PROC(cuEventElapsedTime, 12080, cuEventElapsedTime),
    TCSIM_PROC(cuEventQuery, 2000, cuEventQuery),
    TCSIM_PROC(cuEventRecord, 2000, cuEventRecord),
    TCSIM_PROC_PT(cuEventRecord, 7000, _ptsz, cuEventRecord),
    TCSIM_PROC(cuEventRecordWithFlags, 11010, cuEventRecordWithFlags),
    TCSIM_PROC_PT(cuEventRecordWithFlags, 11010, _ptsz, cuEventRecordWithFlags),
    TCSIM_PROC(cuEventSynchronize, 2000, cuEventSynchronize),
    TCSIM_PROC(cuFuncGetAttribute, 2020, cuFuncGetAttribute),
    TCSIM_PROC(cuFuncGetModule, 11000, cuFuncGetModule),
    TCSIM_PROC(cuFuncGetName, 12030, cuFuncGetName),
    TCSIM_PROC(cuFuncGetParamInfo, 12040, cuFuncGetParamInfo),
    TCSIM_PROC(cuFuncIsLoaded, 12040, cuFuncIsLoaded),
    TCSIM_PROC(cuFuncLoad, 12040, cuFuncLoad),
    TCSIM_PROC(cuFuncSetAttribute, 9000, cuFuncSetAttribute),
    TCSIM_PROC(cuFuncSetCacheConfig, 3000, cuFuncSetCacheConfig),
    TCSIM_PROC(cuFuncSetSharedMemConfig, 4020, cuFuncSetSharedMemConfig),
    TCSIM_PROC(cuGetErrorName, 6000, cuGetErrorName),
    TCSIM_PROC(cuGetErrorString, 6000, cuGetErrorString),
    TCSIM_PROC(cuInit, 2000, cuInit),
    TCSIM_PROC(cuKernelGetAttribute, 12000, cuKernelGetAttribute),
    TCSIM_PROC(cuKernelGetFunction, 12000, cuKernelGetFunction),
    TCSIM_PROC(cuKernelGetLibrary, 12050, cuKernelGetLibrary),
    TCSIM_PROC(cuKernelGetName, 12030, cuKernelGetName),
    TCSIM_PROC(cuKernelGetParamInfo, 12040, cuKernelGetParamInfo),
    TCSIM_PROC(cuKernelSetAttribute, 12000, cuKernelSetAttribute),
    TCSIM_PROC(cuKernelSetCacheConfig, 12000, cuKernelSetCacheConfig),
    TCSIM_PROC(cuLaunchCooperativeKernel, 9000, cuLaunchCooperativeKernel),
    TCSIM_PROC_PT(cuLaunchCooperativeKernel, 9000, _ptsz, cuLaunchCooperativeKernel),
    TCSIM_PROC(cuLaunchHostFunc, 10000, cuLaunchHostFunc),
    TCSIM_PROC_PT(cuLaunchHostFunc, 10000, _ptsz, cuLaunchHostFunc),
    TCSIM_PROC(cuLaunchKernel, 4000, cuLaunchKernel),
    TCSIM_PROC_PT(cuLaunchKernel, 7000, _ptsz, cuLaunchKernel),
    TCSIM_PROC(cuLaunchKernelEx, 11060, cuLaunchKernelEx),
    TCSIM_PROC_PT(cuLaunchKernelEx, 11060, _ptsz, cuLaunchKernelEx),
    TCSIM_PROC(cuLibraryEnumerateKernels, 12040, cuLibraryEnumerateKernels),
    TCSIM_PROC(cuLibraryGetGlobal, 12000, cuLibraryGetGlobal),
    TCSIM_PROC(cuLibraryGetKernel, 12000, cuLibraryGetKernel),
    TCSIM_PROC(cuLibraryGetKernelCount, 12040, cuLibraryGetKernelCount),
    TCSIM_PROC(cuLibraryGetModule, 12000, cuLibraryGetModule),
    TCSIM_PROC(cuLibraryLoadData, 12000, cuLibraryLoadData),
    TCSIM_PROC(cuLibraryLoadFromFile, 12000, cuLibraryLoadFromFile),
    TCSIM_PROC(cuLibraryUnload, 12000, cuLibraryUnload),
    TCSIM_PROC(cuMemAlloc, 3020, cuMemAlloc),
    TCSIM_PROC(cuMemAllocAsync, 11020, cuMemAllocAsync),
    TCSIM_PROC_PT(cuMemAllocAsync, 11020, _ptsz, cuMemAllocAsync),
    TCSIM_PROC(cuMemAllocHost, 3020, cuMemAllocHost),
    TCSIM_PROC(cuMemAllocPitch, 3020, cuMemAllocPitch),
    TCSIM_PROC(cuMemFree, 3020, cuMemFree),
    TCSIM_PROC(cuMemFreeAsync, 11020, cuMemFreeAsync),
    TCSIM_PROC_PT(cuMemFreeAsync, 11020, _ptsz, cuMemFreeAsync),
    TCSIM_PROC(cuMemFreeHost, 2000, cuMemFreeHost),
    TCSIM_PROC(cuMemGetAddressRange, 3020, cuMemGetAddressRange),
    TCSIM_PROC(cuMemGetInfo, 3020, cuMemGetInfo),
    TCSIM_PROC(cuMemHostAlloc, 2020, cuMemHostAlloc),
    TCSIM_PROC(cuMemHostGetDevicePointer, 3020, cuMemHostGetDevicePointer),
    TCSIM_PROC(cuMemHostGetFlags, 2030, cuMemHostGetFlags),
    TCSIM_PROC(cuMemHostRegister, 6050, cuMemHostRegister),
    TCSIM_PROC(cuMemHostUnregister, 4000, cuMemHostUnregister),
    TCSIM_PROC(cuMemcpy, 4000, cuMemcpy),
    TCSIM_PROC_PT(cuMemcpy, 7000, _ptds, cuMemcpy),
    TCSIM_PROC(cuMemcpy2D, 3020, cuMemcpy2D),
    TCSIM_PROC_PT(cuMemcpy2D, 7000, _ptds, cuMemcpy2D),
    TCSIM_PROC(cuMemcpy2DAsync, 3020, cuMemcpy2DAsync),
    TCSIM_PROC_PT(cuMemcpy2DAsync, 7000, _ptsz, cuMemcpy2DAsync),
    TCSIM_PROC(cuMemcpy2DUnaligned, 3020, cuMemcpy2DUnaligned),
    TCSIM_PROC_PT(cuMemcpy2DUnaligned, 7000, _ptds, cuMemcpy2DUnaligned),
    TCSIM_PROC(cuMemcpy3D, 3020, cuMemcpy3D),
    TCSIM_PROC_PT(cuMemcpy3D, 7000, _ptds, cuMemcpy3D),
    TCSIM_PROC(cuMemcpy3DAsync, 3020, cuMemcpy3DAsync),
    TCSIM_PROC_PT(cuMemcpy3DAsync, 7000, _ptsz, cuMemcpy3DAsync),
    TCSIM_PROC(cuMemcpyAsync, 4000, cuMemcpyAsync),
    TCSIM_PROC_PT(cuMemcpyAsync, 7000, _ptsz, cuMemcpyAsync),
    TCSIM_PROC(cuMemcpyDtoD, 3020, cuMemcpyDtoD),
    TCSIM_PROC_PT(cuMemcpyDtoD, 7000, _ptds, cuMemcpyDtoD),
    TCSIM_PROC(cuMemcpyDtoDAsync, 3020, cuMemcpyDtoDAsync),
    TCSIM_PROC_PT(cuMemcpyDtoDAsync, 7000, _ptsz, cuMemcpyDtoDAsync),
    TCSIM_PROC(cuMemcpyDtoH, 3020, cuMemcpyDtoH),
    TCSIM_PROC_PT(cuMemcpyDtoH, 7000, _ptds, cuMemcpyDtoH),
    TCSIM_PROC(cuMemcpyDtoHAsync, 3020, cuMemcpyDtoHAsync),
    TCSIM_PROC_PT(cuMemcpyDtoHAsync, 7000, _ptsz, cuMemcpyDtoHAsync),
    TCSIM_PROC(cuMemcpyHtoD, 3020, cuMemcpyHtoD),
    TCSIM_PROC_PT(cuMemcpyHtoD, 7000, _ptds, cuMemcpyHtoD),
    TCSIM_PROC(cuMemcpyHtoDAsync, 3020, cuMemcpyHtoDAsync),
    TCSIM_PROC_PT(cuMemcpyHtoDAsync, 7000, _ptsz, cuMemcpyHtoDAsync),
    TCSIM_PROC(cuMemcpyPeer, 4000, cuMemcpyPeer),
    TCSIM_PROC_PT(cuMemcpyPeer, 7000, _ptds, cuMemcpyPeer),
    TCSIM_PROC(cuMemcpyPeerAsync, 4000, cuMemcpyPeerAsync),
    TCSIM_PROC_PT(cuMemcpyPeerAsync, 7000, _ptsz, cuMemcpyPeerAsync),
    TCSIM_PROC(cuMemsetD16, 3020, cuMemsetD16),
    TCSIM_PROC_PT(cuMemsetD16, 7000, _ptds, cuMemsetD16),
    TCSIM_PROC(cuMemsetD16Async, 3020, cuMemsetD16Async),
    TCSIM_PROC_PT(cuMemsetD16Async, 7000, _ptsz, cuMemsetD16Async),
    TCSIM_PROC(cuMemsetD2D16, 3020, cuMemsetD2D16),
    TCSIM_PROC_PT(cuMemsetD2D16, 7000, _ptds, cuMemsetD2D16),
    TCSIM_PROC(cuMemsetD2D16Async, 3020, cuMemsetD2D16Async),
    TCSIM_PROC_PT(cuMemsetD2D16Async, 7000, _ptsz, cuMemsetD2D16Async),
    TCSIM_PROC(cuMemsetD2D32, 3020, cuMemsetD2D32),
    TCSIM_PROC_PT(cuMemsetD2D32, 7000, _ptds, cuMemsetD2D32),
    TCSIM_PROC(cuMemsetD2D32Async, 3020, cuMemsetD2D32Async),
    TCSIM_PROC_PT(cuMemsetD2D32Async, 7000, _ptsz, cuMemsetD2D32Async),
    TCSIM_PROC(cuMemsetD2D8, 3020, cuMemsetD2D8),
    TCSIM_PROC_PT(cuMemsetD2D8, 7000, _ptds, cuMemsetD2D8),
    TCSIM_PROC(cuMemsetD2D8Async, 3020, cuMemsetD2D8Async),
    TCSIM_PROC_PT(cuMemsetD2D8Async, 7000, _ptsz, cuMemsetD2D8Async),
    TCSIM_PROC(cuMemsetD32, 3020, cuMemsetD32),
    TCSIM_PROC_PT(cuMemsetD32, 7000, _ptds, cuMemsetD32),
    TCSIM_PROC(cuMemsetD32Async, 3020, cuMemsetD32Async),
    TCSIM_PROC_PT(cuMemsetD32Async, 7000, _ptsz, cuMemsetD32Async),
    TCSIM_PROC(cuMemsetD8, 3020, cuMemsetD8),
    TCSIM_PROC_PT(cuMemsetD8, 7000, _ptds, cuMemsetD8),
    TCSIM_PROC(cuMemsetD8Async, 3020, cuMemsetD8Async),
    TCSIM_PROC_PT(cuMemsetD8Async, 7000, _ptsz, cuMemsetD8Async),
    TCSIM_PROC(cuModuleEnumerateFunctions, 12040, cuModuleEnumerateFunctions),
    TCSIM_PROC(cuModuleGetFunction, 2000, cuModuleGetFunction),
    TCSIM_PROC(cuModuleGetFunctionCount, 12040, cuModuleGetFunctionCount),
    TCSIM_PROC(cuModuleGetGlobal, 3020, cuModuleGetGlobal),
    TCSIM_PROC(cuModuleGetLoadingMode, 11070, cuModuleGetLoadingMode),
    TCSIM_PROC(cuModuleLoad, 2000, cuModuleLoad),
    TCSIM_PROC(cuModuleLoadData, 2000, cuModuleLoadData),
    TCSIM_PROC(cuModuleLoadDataEx, 2010, cuModuleLoadDataEx),
    TCSIM_PROC(cuModuleLoadFatBinary, 2000, cuModuleLoadFatBinary),
    TCSIM_PROC(cuModuleUnload, 2000, cuModuleUnload),
    TCSIM_PROC(cuOccupancyAvailableDynamicSMemPerBlock, 10020, cuOccupancyAvailableDynamicSMemPerBlock),
    TCSIM_PROC(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050, cuOccupancyMaxActiveBlocksPerMultiprocessor),
    TCSIM_PROC(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, 7000, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags),
    TCSIM_PROC(cuOccupancyMaxActiveClusters, 11070, cuOccupancyMaxActiveClusters),
    TCSIM_PROC(cuOccupancyMaxPotentialBlockSize, 6050, cuOccupancyMaxPotentialBlockSize),
    TCSIM_PROC(cuOccupancyMaxPotentialBlockSizeWithFlags, 7000, cuOccupancyMaxPotentialBlockSizeWithFlags),
    TCSIM_PROC(cuOccupancyMaxPotentialClusterSize, 11070, cuOccupancyMaxPotentialClusterSize),
    TCSIM_PROC(cuPointerGetAttribute, 4000, cuPointerGetAttribute),
    TCSIM_PROC(cuPointerGetAttributes, 7000, cuPointerGetAttributes),
    TCSIM_PROC(cuStreamAddCallback, 5000, cuStreamAddCallback),
    TCSIM_PROC_PT(cuStreamAddCallback, 7000, _ptsz, cuStreamAddCallback),
    TCSIM_PROC(cuStreamCopyAttributes, 11000, cuStreamCopyAttributes),
    TCSIM_PROC_PT(cuStreamCopyAttributes, 11000, _ptsz, cuStreamCopyAttributes),
    TCSIM_PROC(cuStreamCreate, 2000, cuStreamCreate),
    TCSIM_PROC(cuStreamCreateWithPriority, 5050, cuStreamCreateWithPriority),
    TCSIM_PROC(cuStreamDestroy, 4000, cuStreamDestroy),
    TCSIM_PROC(cuStreamGetAttribute, 11000, cuStreamGetAttribute),
    TCSIM_PROC_PT(cuStreamGetAttribute, 11000, _ptsz, cuStreamGetAttribute),
    TCSIM_PROC(cuStreamGetCaptureInfo, 12030, cuStreamGetCaptureInfo),
    TCSIM_PROC_PT(cuStreamGetCaptureInfo, 12030, _ptsz, cuStreamGetCaptureInfo),
    TCSIM_PROC(cuStreamGetCaptureInfo, 11030, tcsim_cuStreamGetCaptureInfo_v11030),
    TCSIM_PROC_PT(cuStreamGetCaptureInfo, 11030, _ptsz, tcsim_cuStreamGetCaptureInfo_v11030),
    TCSIM_PROC(cuStreamGetCaptureInfo, 10010, tcsim_cuStreamGetCaptureInfo_v10010),
    TCSIM_PROC_PT(cuStreamGetCaptureInfo, 10010, _ptsz, tcsim_cuStreamGetCaptureInfo_v10010),
    TCSIM_PROC(cuStreamGetCtx, 9020, cuStreamGetCtx),
    TCSIM_PROC_PT(cuStreamGetCtx, 9020, _ptsz, cuStreamGetCtx),
    TCSIM_PROC(cuStreamGetDevice, 12080, cuStreamGetDevice),
    TCSIM_PROC_PT(cuStreamGetDevice, 12080, _ptsz, cuStreamGetDevice),
    TCSIM_PROC(cuStreamGetFlags, 5050, cuStreamGetFlags),
    TCSIM_PROC_PT(cuStreamGetFlags, 7000, _ptsz, cuStreamGetFlags),
    TCSIM_PROC(cuStreamGetId, 12000, cuStreamGetId),
    TCSIM_PROC_PT(cuStreamGetId, 12000, _ptsz, cuStreamGetId),
    TCSIM_PROC(cuStreamGetPriority, 5050, cuStreamGetPriority),
    TCSIM_PROC_PT(cuStreamGetPriority, 7000, _ptsz, cuStreamGetPriority),
    TCSIM_PROC(cuStreamIsCapturing, 10000, cuStreamIsCapturing),
    TCSIM_PROC_PT(cuStreamIsCapturing, 10000, _ptsz, cuStreamIsCapturing),
    TCSIM_PROC(cuStreamQuery, 2000, cuStreamQuery),
    TCSIM_PROC_PT(cuStreamQuery, 7000, _ptsz, cuStreamQuery),
    TCSIM_PROC(cuStreamSetAttribute, 11000, cuStreamSetAttribute),
    TCSIM_PROC_PT(cuStreamSetAttribute, 11000, _ptsz, cuStreamSetAttribute),
    TCSIM_PROC(cuStreamSynchronize, 2000, cuStreamSynchronize),
    TCSIM_PROC_PT(cuStreamSynchronize, 7000, _ptsz, cuStreamSynchronize),
    TCSIM_PROC(cuStreamWaitEvent, 3020, cuStreamWaitEvent),
    TCSIM_PROC_PT(cuStreamWaitEvent, 7000, _ptsz, cuStreamWaitEvent),
    TCSIM_PROC(cuTensorMapEncodeIm2col, 12000, cuTensorMapEncodeIm2col),
    TCSIM_PROC(cuTensorMapEncodeTiled, 12000, cuTensorMapEncodeTiled),
    TCSIM_PROC(cuTensorMapReplaceAddress, 12000, cuTensorMapReplaceAddress),
};

// --- trampolines for what is not implemented --------------------------------------------------

constexpr size_t kTrampolines = 1024;
std::array<std::string, kTrampolines> g_tramp_names;
std::array<bool, kTrampolines> g_tramp_reported{};
size_t g_tramp_used = 0;

CUresult unsupported_call(size_t i) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  if (!g_tramp_reported[i]) {
    g_tramp_reported[i] = true;
    drv.not_supported(g_tramp_names[i]);
  }
  return CUDA_ERROR_NOT_SUPPORTED;
}

template <size_t I>
CUresult CUDAAPI trampoline() {
  return unsupported_call(I);
}

template <size_t... I>
constexpr std::array<void*, sizeof...(I)> make_trampolines(std::index_sequence<I...>) {
  return {reinterpret_cast<void*>(&trampoline<I>)...};
}
const std::array<void*, kTrampolines> kTrampolineFns = make_trampolines(std::make_index_sequence<kTrampolines>{});

void* trampoline_for(const std::string& what) {
  for (size_t i = 0; i < g_tramp_used; ++i)
    if (g_tramp_names[i] == what) return kTrampolineFns[i];
  if (g_tramp_used == kTrampolines) return nullptr;
  g_tramp_names[g_tramp_used] = what;
  return kTrampolineFns[g_tramp_used++];
}

std::string version_text(int v) { return fmt::format("{}.{}", v / 1000, v % 1000 / 10); }

CUresult resolve(const char* symbol, void** pfn, int version, cuuint64_t flags, CUdriverProcAddressQueryResult* status) {
  Driver& drv = Driver::get();
  std::lock_guard<std::recursive_mutex> lock(drv.mu);
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  auto set_status = [&](CUdriverProcAddressQueryResult s) {
    if (status) *status = s;
  };
  const bool per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
  const AbiRow* best = nullptr;
  bool known = false;
  for (const AbiRow& r : kAbis) {
    if (std::strcmp(r.name, symbol) != 0) continue;
    known = true;
    if (r.version > version) continue;
    // Legacy requests never get a per-thread variant; per-thread requests prefer one.
    if (r.per_thread && !per_thread) continue;
    if (!best || (r.per_thread && !best->per_thread) ||
        (r.per_thread == best->per_thread && r.version > best->version))
      best = &r;
  }
  drv.note(fmt::format("cuGetProcAddress({}, {}, flags {}) -> {}", symbol, version, flags,
                       best ? fmt::format("ABI {}{}", best->version, best->per_thread ? " per-thread" : "") : "none"));
  if (!known) {
    set_status(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    return CUDA_ERROR_NOT_FOUND;
  }
  if (!best) {
    set_status(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    return CUDA_ERROR_NOT_FOUND;
  }
  for (const Impl& i : kImpls)
    if (i.version == best->version && i.per_thread == best->per_thread && std::strcmp(i.name, symbol) == 0) {
      *pfn = i.fn;
      set_status(CU_GET_PROC_ADDRESS_SUCCESS);
      return CUDA_SUCCESS;
    }
  // Known but not implemented: a function that says so when called. A superseded ABI of an
  // implemented function names its version.
  bool has_impl = false;
  for (const Impl& i : kImpls) has_impl |= std::strcmp(i.name, symbol) == 0;
  const std::string what = has_impl ? fmt::format("{} with the ABI of CUDA {}", symbol, version_text(best->version))
                                    : std::string(symbol);
  *pfn = trampoline_for(what);
  if (!*pfn) {
    set_status(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    return CUDA_ERROR_NOT_FOUND;
  }
  set_status(CU_GET_PROC_ADDRESS_SUCCESS);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI get_proc_address_v1(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  return resolve(symbol, pfn, version, flags, nullptr);
}

}  // namespace

TCSIM_CU_API CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int version, cuuint64_t flags,
                                               CUdriverProcAddressQueryResult* status) {
  return resolve(symbol, pfn, version, flags, status);
}

// The CUDA 11.3 entry point under its own name (cuda.h maps cuGetProcAddress to _v2).
#undef cuGetProcAddress
TCSIM_CU_API CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  return resolve(symbol, pfn, version, flags, nullptr);
}
