// The smallest CUDA program with its own host code: y = a * x + y on 2^20 floats, checked against
// the host's own fused multiply-add (std::fma and __fmaf_rn round once, the same way), bit for bit.
// Built three times (kernels/host/CMakeLists.txt) with nvcc --compress-mode default (zstd PTX in the
// fat binary), speed (LZ4) and none (raw), so every encoding nvcc writes is read from real output.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __fmaf_rn(a, x[i], y[i]);
}

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = std::ldexp(static_cast<float>(i % 977) - 488.0f, -7);
    y[i] = 1.0f / static_cast<float>(1 + i % 101);
  }
  float *dx, *dy;
  if (cudaMalloc(&dx, n * 4) != cudaSuccess || cudaMalloc(&dy, n * 4) != cudaSuccess) return 2;
  cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * 4, cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(3.25f, dx, dy, n);
  std::vector<float> out(n);
  const cudaError_t e = cudaMemcpy(out.data(), dy, n * 4, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("saxpy: %s\n", cudaGetErrorString(e));
    return 2;
  }
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float want = std::fma(3.25f, x[i], y[i]);
    if (std::memcmp(&out[i], &want, 4) != 0 && bad++ < 3) std::printf("y[%d] = %a, expected %a\n", i, out[i], want);
  }
  std::printf("saxpy of %d floats: %s\n", n, bad ? "MISMATCH" : "all bit-identical to the host's fma");
  return bad ? 1 : 0;
}
