// A host program for the Hopper GEMMs of kernels/hopper (their kernels, unmodified): the nine
// warp-specialised TMA + mbarrier + wgmma GEMMs (gemm_ws.cuh: bf16 and e4m3, f32 and bf16 D, B
// K- or MN-major, 2-CTA clusters with TMA multicast, FP8 promotion) and the two cp.async +
// ldmatrix + mma.sync GEMMs, each on one problem, through the CUDA runtime: cudaMalloc, tensor maps
// from the driver entry point, cudaFuncSetAttribute, cudaLaunchKernelEx (clusters), and a host
// reference. It is what `tcsim capture` records on the H200 (kernels/host/golden/README.md): the
// replays in tcsim must equal the GPU's outputs bit for bit.
//
//   hopper_gemm [NAME]      all GEMMs, or those whose name contains NAME
//
// Inputs: bf16 uniform in [-1, 1], e4m3 and f16 as kernels/hopper/README.md says ([-2, 2], [-1, 1]).
// Check: |D - exact| <= tol * sum |a_k b_k| per element, tol 2^-12 for f32 accumulation of bf16/f16,
// 2^-8 for e4m3 (wgmma accumulates fp8 with less than f32 precision), plus 2^-8 |exact| for a bf16 D
// (kernels/hopper/reference.py's tolerances). Exit 0: all within tolerance; 1: a mismatch.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../hopper/gemm_bf16.cu"
#include "../hopper/gemm_cluster.cu"
#include "../hopper/gemm_e4m3.cu"
#include "../hopper/gemm_mma_sync.cu"
#include "host_util.h"

namespace {

enum class In { Bf16, E4m3, F16 };
enum class Out { F32, Bf16 };
using TmaKernel = void (*)(CUtensorMap, CUtensorMap, CUtensorMap, float*, uint32_t, uint32_t, uint32_t);
using MmaKernel = void (*)(const uint16_t*, const uint16_t*, float*, uint32_t, uint32_t, uint32_t);

struct Case {
  const char* name;
  TmaKernel tma;       // warp-specialised TMA GEMM, or
  MmaKernel mma;       // mma.sync GEMM
  uint32_t M, N, K;
  In in;
  Out out;
  bool b_kn;           // B stored [K][N]
  uint32_t bn;         // tile N
  uint32_t cluster;    // 1 or 2 (vertically adjacent tiles share B)
  uint32_t ctas;       // persistent CTAs (a multiple of the cluster)
  uint32_t smem;       // dynamic shared memory
};

const Case kCases[] = {
    {"gemm_bf16_ws", gemm_bf16_ws, nullptr, 256, 256, 256, In::Bf16, Out::F32, false, 128, 1, 3, cfg::Bf16::kSmemBytes},
    {"gemm_bf16_ws_bf16out", gemm_bf16_ws_bf16out, nullptr, 256, 256, 192, In::Bf16, Out::Bf16, false, 128, 1, 3,
     cfg::Bf16Out::kSmemBytes},
    {"gemm_bf16_ws_n256", gemm_bf16_ws_n256, nullptr, 256, 512, 128, In::Bf16, Out::F32, false, 256, 1, 3,
     cfg::Bf16N256::kSmemBytes},
    {"gemm_bf16_ws_bmn", gemm_bf16_ws_bmn, nullptr, 256, 256, 192, In::Bf16, Out::F32, true, 128, 1, 3,
     cfg::Bf16BMn::kSmemBytes},
    {"gemm_bf16_ws_cluster2", gemm_bf16_ws_cluster2, nullptr, 512, 256, 128, In::Bf16, Out::F32, false, 128, 2, 2,
     cfg::Bf16C2::kSmemBytes},
    {"gemm_e4m3_ws", gemm_e4m3_ws, nullptr, 256, 256, 256, In::E4m3, Out::F32, false, 128, 1, 3, cfg::E4m3::kSmemBytes},
    {"gemm_e4m3_ws_promote", gemm_e4m3_ws_promote, nullptr, 256, 256, 512, In::E4m3, Out::F32, false, 128, 1, 3,
     cfg::E4m3Promote::kSmemBytes},
    {"gemm_e4m3_ws_bf16out", gemm_e4m3_ws_bf16out, nullptr, 256, 256, 256, In::E4m3, Out::Bf16, false, 128, 1, 2,
     cfg::E4m3Bf16Out::kSmemBytes},
    {"gemm_e4m3_ws_cluster2", gemm_e4m3_ws_cluster2, nullptr, 512, 256, 256, In::E4m3, Out::Bf16, false, 128, 2, 2,
     cfg::E4m3C2::kSmemBytes},
    {"gemm_mma_bf16_tn", nullptr, gemm_mma_bf16_tn, 128, 192, 160, In::Bf16, Out::F32, false, 64, 1, 0, 0},
    {"gemm_mma_f16_nn", nullptr, gemm_mma_f16_nn, 192, 128, 96, In::F16, Out::F32, true, 64, 1, 0, 0},
};

float decode(In t, uint16_t v) {
  switch (t) {
    case In::Bf16: return host::bf16_value(v);
    case In::F16: return __half2float(__ushort_as_half(v));
    case In::E4m3: return __half2float(__half(__nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(v), __NV_E4M3)));
  }
  return 0;
}

uint16_t encode(In t, float x) {
  switch (t) {
    case In::Bf16: return __bfloat16_as_ushort(__float2bfloat16_rn(x));
    case In::F16: return __half_as_ushort(__float2half_rn(x));
    case In::E4m3: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
  }
  return 0;
}

int run(const Case& c) {
  const uint32_t eb = c.in == In::E4m3 ? 1 : 2;
  host::Rng rng(std::hash<std::string>{}(c.name));
  const float range = c.in == In::E4m3 ? 2.0f : 1.0f;
  // A [M][K]; B [N][K] or [K][N]; values kept decoded for the reference.
  std::vector<float> a(size_t{c.M} * c.K), b(size_t{c.N} * c.K);
  std::vector<uint8_t> ab(a.size() * eb), bb(b.size() * eb);
  auto fill = [&](std::vector<float>& v, std::vector<uint8_t>& bytes) {
    for (size_t i = 0; i < v.size(); ++i) {
      const uint16_t code = encode(c.in, rng.uniform(-range, range));
      v[i] = decode(c.in, code);
      std::memcpy(bytes.data() + i * eb, &code, eb);
    }
  };
  fill(a, ab);
  fill(b, bb);
  const uint32_t db = c.out == Out::F32 ? 4 : 2;
  void *dA, *dB, *dD;
  HOST_CHECK(cudaMalloc(&dA, ab.size()));
  HOST_CHECK(cudaMalloc(&dB, bb.size()));
  HOST_CHECK(cudaMalloc(&dD, size_t{c.M} * c.N * db));
  HOST_CHECK(cudaMemcpy(dA, ab.data(), ab.size(), cudaMemcpyHostToDevice));
  HOST_CHECK(cudaMemcpy(dB, bb.data(), bb.size(), cudaMemcpyHostToDevice));
  HOST_CHECK(cudaMemset(dD, 0, size_t{c.M} * c.N * db));

  if (c.tma) {
    const CUtensorMapDataType tt = c.in == In::E4m3 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    const uint32_t bk = 128 / eb;  // a 128-byte row of K
    const CUtensorMap tmA = host::tensor_map_2d(dA, tt, eb, c.M, c.K, bk, 128);
    // B boxes: K-major: bk x BN rows (half of them per CTA of a cluster); [K][N]: 64 N x bk K-rows.
    const CUtensorMap tmB = c.b_kn ? host::tensor_map_2d(dB, tt, eb, c.K, c.N, 64, bk)
                                   : host::tensor_map_2d(dB, tt, eb, c.N, c.K, bk, c.bn / c.cluster);
    // D through TMA stores (bf16 D): 64 x 64 boxes; otherwise an unused but valid map.
    const CUtensorMap tmD = c.out == Out::Bf16 ? host::tensor_map_2d(dD, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, c.M, c.N, 64, 64)
                                               : tmA;
    HOST_CHECK(cudaFuncSetAttribute(c.tma, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(c.smem)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(c.ctas);
    cfg.blockDim = dim3(384);
    cfg.dynamicSmemBytes = c.smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = c.cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = c.cluster > 1 ? 1 : 0;
    HOST_CHECK(cudaLaunchKernelEx(&cfg, c.tma, tmA, tmB, tmD, static_cast<float*>(dD), c.M, c.N, c.K));
  } else {
    c.mma<<<dim3(c.N / 64, c.M / 64), 128>>>(static_cast<const uint16_t*>(dA), static_cast<const uint16_t*>(dB),
                                              static_cast<float*>(dD), c.M, c.N, c.K);
    HOST_CHECK(cudaGetLastError());
  }
  HOST_CHECK(cudaDeviceSynchronize());
  std::vector<uint8_t> d(size_t{c.M} * c.N * db);
  HOST_CHECK(cudaMemcpy(d.data(), dD, d.size(), cudaMemcpyDeviceToHost));

  const double tol = c.in == In::E4m3 ? 0x1p-8 : 0x1p-12;
  size_t bad = 0;
  double worst = 0;
  for (uint32_t i = 0; i < c.M; ++i)
    for (uint32_t j = 0; j < c.N; ++j) {
      double ref = 0, mag = 0;
      for (uint32_t k = 0; k < c.K; ++k) {
        const double p = double{a[size_t{i} * c.K + k]} * (c.b_kn ? b[size_t{k} * c.N + j] : b[size_t{j} * c.K + k]);
        ref += p;
        mag += std::fabs(p);
      }
      double got;
      if (c.out == Out::F32) {
        float f;
        std::memcpy(&f, d.data() + (size_t{i} * c.N + j) * 4, 4);
        got = f;
      } else {
        uint16_t h;
        std::memcpy(&h, d.data() + (size_t{i} * c.N + j) * 2, 2);
        got = host::bf16_value(h);
      }
      const double lim = tol * std::max(mag, 1e-30) + (c.out == Out::Bf16 ? 0x1p-8 * std::fabs(ref) : 0);
      worst = std::max(worst, std::fabs(got - ref));
      if (!(std::fabs(got - ref) <= lim) && bad++ < 3) std::printf("  D[%u][%u] = %.9g, exact %.9g\n", i, j, got, ref);
    }
  std::printf("%-24s %4ux%4ux%4u: %s (max |error| %.3g)\n", c.name, c.M, c.N, c.K, bad ? "MISMATCH" : "within tolerance",
              worst);
  HOST_CHECK(cudaFree(dA));
  HOST_CHECK(cudaFree(dB));
  HOST_CHECK(cudaFree(dD));
  return bad ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  cudaDeviceProp prop;
  HOST_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (compute capability %d.%d)\n", prop.name, prop.major, prop.minor);
  if (prop.major != 9) {
    std::printf("these GEMMs need a Hopper (sm_90a) device (tcsim exec --arch sm_90a)\n");
    return 2;
  }
  int failures = 0, ran = 0;
  for (const Case& c : kCases) {
    if (argc > 1 && std::string(c.name).find(argv[1]) == std::string::npos) continue;
    failures += run(c);
    ++ran;
  }
  std::printf("%d of %d GEMMs within tolerance\n", ran - failures, ran);
  return failures ? 1 : 0;
}
