// Built SASS-only (-gencode arch=compute_100a,code=sm_100a: no PTX in the fat binary): tcsim cannot
// run it and must say which -gencode adds the PTX. The program checks its launch like any careful
// CUDA program and exits 1 on the error.
#include <cstdio>

__global__ void scale(float* x, float s) { x[threadIdx.x] *= s; }

int main() {
  float* d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(float)) != cudaSuccess) return 2;
  scale<<<1, 32>>>(d, 2.0f);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  std::printf("launch: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
