// A kernel fault under libtcsim-cuda: reported once with the PTX line, CTA, warp and lane, returned
// by the synchronising call as the CUresult the GPU gives (CUDA_ERROR_ILLEGAL_ADDRESS), and sticky:
// every later call that touches the context returns it too (CUDA Driver API, "Error Handling").
// Its own executable: the fault ends the process's context.
#include <cuda.h>
#include <doctest/doctest.h>

#include "tests/cuda_driver/ptx_kernels.h"

TEST_CASE("an out-of-bounds kernel: ILLEGAL_ADDRESS at the synchronisation, then sticky") {
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  CUcontext ctx;
  REQUIRE(cuCtxCreate(&ctx, nullptr, 0, 0) == CUDA_SUCCESS);
  CUmodule mod;
  REQUIRE(cuModuleLoadData(&mod, tcsim::test::kDriverTestPtx) == CUDA_SUCCESS);
  CUfunction f;
  REQUIRE(cuModuleGetFunction(&f, mod, "saxpy") == CUDA_SUCCESS);
  CUdeviceptr x, y;
  REQUIRE(cuMemAlloc(&x, 64) == CUDA_SUCCESS);
  REQUIRE(cuMemAlloc(&y, 64) == CUDA_SUCCESS);
  float a = 1;
  unsigned n = 256;  // 16 floats allocated
  void* p[] = {&a, &x, &y, &n};
  // The launch itself is accepted (it runs at the next synchronisation, like on a GPU).
  CHECK(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, nullptr, p, nullptr) == CUDA_SUCCESS);
  CHECK(cuCtxSynchronize() == CUDA_ERROR_ILLEGAL_ADDRESS);
  CHECK(cuMemcpyHtoD(x, &a, 4) == CUDA_ERROR_ILLEGAL_ADDRESS);
  CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, p, nullptr) == CUDA_ERROR_ILLEGAL_ADDRESS);
  CHECK(cuStreamSynchronize(nullptr) == CUDA_ERROR_ILLEGAL_ADDRESS);
}
