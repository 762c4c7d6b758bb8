// Entry points of older ABIs that cuda.h 13 no longer declares (it maps the plain names to the
// newest ABI with macros: cuCtxCreate -> cuCtxCreate_v4). cudart and older programs still ask
// cuGetProcAddress for them by (name, version); proc_address.cc maps each to these.
#pragma once
#include <cuda.h>

extern "C" {
// cuCtxCreate, ABI of CUDA 3.2 (PFN_cuCtxCreate_v3020).
CUresult CUDAAPI cuCtxCreate_v2(CUcontext* pctx, unsigned int flags, CUdevice dev);
}
