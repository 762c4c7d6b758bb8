// Calls a runtime function whose driver entry point tcsim does not implement (CUDA graphs): the
// call must fail with cudaErrorNotSupported and one line naming the driver call, and the program,
// which checks it, exits 1.
#include <cstdio>

int main() {
  cudaGraph_t g;
  const cudaError_t e = cudaGraphCreate(&g, 0);
  std::printf("cudaGraphCreate: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
