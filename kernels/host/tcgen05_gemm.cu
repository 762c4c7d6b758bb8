// A host program for the warp-specialised tcgen05 GEMM of kernels/tcgen05/gemm.cu (its kernels,
// unmodified): D[M][N] = A[M][K] * B[N][K]^T in bf16 -> f32, through the CUDA runtime the way a
// kernel author's own test would do it — cudaMalloc, tensor maps from the driver entry point,
// cudaFuncSetAttribute for 193 KiB of dynamic shared memory, <<<>>> for the one-CTA kernel and
// cudaLaunchKernelEx with a cluster attribute for the CTA-pair kernel, events around the launch,
// and a host reference.
//
//   tcgen05_gemm [M N K] [--2cta] [--random]
//
// Default (exact): A, B small integers in [-3, 3]: every product and partial sum is an integer
// below 2^24, so the exact sum is the only right answer and D must equal the host's integer GEMM
// bit for bit. --random: uniform bf16 in [-1, 1], checked against a double-precision reference
// within 2^-12 * sqrt(K) (relative to the operand scale). Exit 0 on a match, 1 on a mismatch.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../tcgen05/gemm.cu"
#include "host_util.h"

int main(int argc, char** argv) {
  uint32_t M = 256, N = 256, K = 256;
  bool pair = false, random = false;
  std::vector<uint32_t> dims;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--2cta") pair = true;
    else if (a == "--random") random = true;
    else dims.push_back(static_cast<uint32_t>(std::stoul(a)));
  }
  if (dims.size() == 3) {
    M = dims[0];
    N = dims[1];
    K = dims[2];
  }
  cudaDeviceProp prop;
  HOST_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (compute capability %d.%d, %d SMs)\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  if (prop.major != 10) {
    std::printf("this GEMM needs a Blackwell (sm_100a) device\n");
    return 2;
  }
  // Tiles: 128 x 256 per CTA, 256 x 256 per CTA pair; K in 64-element (128-byte) blocks.
  const uint32_t tm = pair ? 256 : 128, tn = 256;
  if (M % tm || N % tn || K % 64 || K == 0) {
    std::printf("M must be a multiple of %u, N of %u, K of 64\n", tm, tn);
    return 2;
  }
  host::Rng rng(random ? 7 : 3);
  std::vector<uint16_t> a(size_t{M} * K), b(size_t{N} * K);
  std::vector<float> af(a.size()), bf(b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    af[i] = random ? host::bf16_value(host::bf16_bits(rng.uniform(-1, 1))) : static_cast<float>(rng.range(-3, 3));
    a[i] = host::bf16_bits(af[i]);
  }
  for (size_t i = 0; i < b.size(); ++i) {
    bf[i] = random ? host::bf16_value(host::bf16_bits(rng.uniform(-1, 1))) : static_cast<float>(rng.range(-3, 3));
    b[i] = host::bf16_bits(bf[i]);
  }
  void *dA, *dB, *dD;
  HOST_CHECK(cudaMalloc(&dA, a.size() * 2));
  HOST_CHECK(cudaMalloc(&dB, b.size() * 2));
  HOST_CHECK(cudaMalloc(&dD, size_t{M} * N * 4));
  HOST_CHECK(cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
  HOST_CHECK(cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
  HOST_CHECK(cudaMemset(dD, 0xff, size_t{M} * N * 4));  // NaN everywhere: an unwritten element shows

  // Boxes: A 64 x 128 (each CTA loads its own 128 rows), B 64 x 256 (one CTA) or 64 x 128 (each CTA
  // of a pair loads half of the 256 columns).
  const CUtensorMap tmA = host::tensor_map_2d(dA, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, M, K, 64, 128);
  const CUtensorMap tmB = host::tensor_map_2d(dB, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, N, K, 64, pair ? 128 : 256);
  const int smem = 197632;  // 4 stages of A and B tiles + barriers (kernels/tcgen05/specs/gemm)
  const uint32_t tiles = (M / tm) * (N / tn);
  const uint32_t units = tiles > 1 ? tiles - 1 : 1;  // fewer CTAs (pairs) than tiles: persistence
  cudaEvent_t start, stop;
  HOST_CHECK(cudaEventCreate(&start));
  HOST_CHECK(cudaEventCreate(&stop));
  HOST_CHECK(cudaEventRecord(start));
  if (!pair) {
    HOST_CHECK(cudaFuncSetAttribute(gemm_bf16_f32, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    gemm_bf16_f32<<<units, 192, smem>>>(tmA, tmB, static_cast<uint8_t*>(dD), M, N, K, 0);
    HOST_CHECK(cudaGetLastError());
  } else {
    HOST_CHECK(cudaFuncSetAttribute(gemm_bf16_f32_2cta, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(2 * units);
    cfg.blockDim = dim3(192);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = 2;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    HOST_CHECK(cudaLaunchKernelEx(&cfg, gemm_bf16_f32_2cta, tmA, tmB, static_cast<uint8_t*>(dD), M, N, K, 0u));
  }
  HOST_CHECK(cudaEventRecord(stop));
  HOST_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  HOST_CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::vector<float> d(size_t{M} * N);
  HOST_CHECK(cudaMemcpy(d.data(), dD, d.size() * 4, cudaMemcpyDeviceToHost));

  size_t bad = 0;
  double worst = 0;
  for (uint32_t i = 0; i < M; ++i)
    for (uint32_t j = 0; j < N; ++j) {
      double ref = 0, mag = 0;
      for (uint32_t k = 0; k < K; ++k) {
        ref += static_cast<double>(af[size_t{i} * K + k]) * bf[size_t{j} * K + k];
        mag += std::fabs(static_cast<double>(af[size_t{i} * K + k]) * bf[size_t{j} * K + k]);
      }
      const double got = d[size_t{i} * N + j];
      const bool ok = random ? std::fabs(got - ref) <= 0x1p-12 * std::max(mag, 1.0) : got == ref;
      worst = std::max(worst, std::fabs(got - ref));
      if (!ok && bad++ < 5) std::printf("D[%u][%u] = %.9g, expected %.9g\n", i, j, got, ref);
    }
  std::printf("%s GEMM %ux%ux%u (%s, %u tiles on %u %s): %s, max |error| %.3g, %.6f ms\n",
              pair ? "CTA-pair tcgen05" : "tcgen05", M, N, K, random ? "random" : "exact", tiles, units,
              pair ? "CTA pairs" : "CTAs", bad ? "MISMATCH" : "all elements correct", worst, ms);
  HOST_CHECK(cudaFree(dA));
  HOST_CHECK(cudaFree(dB));
  HOST_CHECK(cudaFree(dD));
  return bad ? 1 : 0;
}
