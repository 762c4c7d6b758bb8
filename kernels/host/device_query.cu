// What the driver says about the device, as JSON on stdout: the name, memory, driver version, every
// cuDeviceGetAttribute of cuda.h 13.0, and occupancy answers for a small kernel (blocks per SM,
// resident clusters). Run on the H200 it recorded kernels/host/golden/h200_device.json; run under
// `tcsim exec --arch sm_90a` it must give the same numbers except where tcsim says it differs
// (compare_device.py, CTest kernels_host_device_query_h200).
#include <cuda.h>

#include <cstdio>
#include <string>

__global__ void tiny(int* p) {
  if (p) p[threadIdx.x] = threadIdx.x;
}

namespace {

int clusters(int size, int threads, int smem) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(size);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute a[1];
  a[0].id = cudaLaunchAttributeClusterDimension;
  a[0].val.clusterDim.x = size;
  a[0].val.clusterDim.y = 1;
  a[0].val.clusterDim.z = 1;
  cfg.attrs = a;
  cfg.numAttrs = 1;
  int n = -1;
  const cudaError_t e = cudaOccupancyMaxActiveClusters(&n, tiny, &cfg);
  return e == cudaSuccess ? n : -static_cast<int>(e);
}

}  // namespace

int main() {
  if (cudaFree(nullptr) != cudaSuccess) return 2;  // initialises the runtime and the primary context
  char name[128] = {};
  cuDeviceGetName(name, sizeof name, 0);
  size_t mem = 0;
  cuDeviceTotalMem(&mem, 0);
  int drv = 0;
  cuDriverGetVersion(&drv);
  std::printf("{\n  \"name\": \"%s\",\n  \"total_mem\": %zu,\n  \"driver_version\": %d,\n  \"attributes\": {", name, mem, drv);
  for (int a = 1; a <= CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED; ++a) {
    int v = 0;
    const CUresult r = cuDeviceGetAttribute(&v, static_cast<CUdevice_attribute>(a), 0);
    std::printf("%s\n    \"%d\": %s", a == 1 ? "" : ",", a, r == CUDA_SUCCESS ? std::to_string(v).c_str() : "null");
  }
  std::printf("\n  },\n  \"occupancy\": {");
  cudaFuncSetAttribute(tiny, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  cudaFuncSetAttribute(tiny, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  const int blocks[][2] = {{32, 0}, {128, 0}, {256, 0}, {1024, 0}, {128, 48 * 1024}, {128, 100 * 1024}, {256, 200 * 1024}};
  bool first = true;
  for (const auto& b : blocks) {
    int n = -1;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, tiny, b[0], b[1]);
    std::printf("%s\n    \"blocks_per_sm_t%d_s%d\": %d", first ? "" : ",", b[0], b[1], n);
    first = false;
  }
  const int cl[][3] = {{2, 128, 0}, {4, 128, 0}, {8, 128, 0}, {16, 128, 0}, {2, 1024, 0}, {8, 1024, 0}, {2, 128, 100 * 1024}};
  for (const auto& c : cl) std::printf(",\n    \"clusters_c%d_t%d_s%d\": %d", c[0], c[1], c[2], clusters(c[0], c[1], c[2]));
  std::printf("\n  }\n}\n");
  return 0;
}
