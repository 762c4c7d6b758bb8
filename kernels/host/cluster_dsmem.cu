// A host program for the distributed-shared-memory cluster kernel of kernels/cluster/dsmem_exchange.cu
// (unmodified): launched through cudaLaunchKernelEx with cluster dimensions 2x1x1, 2x2x1, 4x1x1 and
// a non-portable 16x1x1 (cudaFuncAttributeNonPortableClusterSizeAllowed), every output checked on
// the host against the formulas in the kernel's header; cudaOccupancyMaxActiveClusters is asked
// first, and a 16-CTA cluster launched without the attribute must be refused.
//
//   cluster_dsmem            exit 0: every shape correct; 1: a wrong output; 2: an API error
#include <cstring>
#include <vector>

#include "../cluster/dsmem_exchange.cu"
#include "host_util.h"

namespace {

struct Shape {
  dim3 grid, cluster;
  bool non_portable;
};

cudaError_t launch(const Shape& s, uint32_t* in, uint32_t* out[6]) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = s.grid;
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = s.cluster.x;
  attr[0].val.clusterDim.y = s.cluster.y;
  attr[0].val.clusterDim.z = s.cluster.z;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, dsmem_exchange, static_cast<const uint32_t*>(in), out[0], out[1], out[2], out[3], out[4],
                            out[5]);
}

// The CTA of cluster rank q in the cluster of CTA (bx, by, bz): its linear block id.
uint32_t block_of_rank(const Shape& s, uint32_t bx, uint32_t by, uint32_t bz, uint32_t q) {
  const dim3 c = s.cluster;
  const uint32_t x = bx / c.x * c.x + q % c.x, y = by / c.y * c.y + q / c.x % c.y, z = bz / c.z * c.z + q / (c.x * c.y);
  return x + s.grid.x * (y + s.grid.y * z);
}

}  // namespace

int main() {
  cudaDeviceProp prop;
  HOST_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s (compute capability %d.%d)\n", prop.name, prop.major, prop.minor);
  const Shape shapes[] = {{dim3(4, 2, 1), dim3(2, 1, 1), false},
                          {dim3(4, 2, 1), dim3(2, 2, 1), false},
                          {dim3(8, 1, 1), dim3(4, 1, 1), false},
                          {dim3(16, 1, 1), dim3(16, 1, 1), true}};
  const uint32_t max_blocks = 16;
  uint32_t* in;
  uint32_t* out[6];
  const size_t sizes[6] = {128, 128, 16, 1, 1, 2};  // words per CTA: peek, peek2, inbox, count, xors, ranks
  HOST_CHECK(cudaMalloc(&in, max_blocks * 128 * 4));
  for (int i = 0; i < 6; ++i) HOST_CHECK(cudaMalloc(&out[i], max_blocks * sizes[i] * 4));
  host::Rng rng(301);
  std::vector<uint32_t> h_in(max_blocks * 128);
  for (auto& v : h_in) v = static_cast<uint32_t>(rng.next());
  HOST_CHECK(cudaMemcpy(in, h_in.data(), h_in.size() * 4, cudaMemcpyHostToDevice));

  // A 16-CTA cluster is not portable: refused until the kernel allows it.
  {
    const cudaError_t e = launch(shapes[3], in, out);
    std::printf("16-CTA cluster without the non-portable attribute: %s\n", cudaGetErrorString(e));
    if (e == cudaSuccess) {
      std::printf("FAIL: the launch was accepted\n");
      return 1;
    }
    (void)cudaGetLastError();
  }
  HOST_CHECK(cudaFuncSetAttribute(dsmem_exchange, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));

  int failures = 0;
  for (const Shape& s : shapes) {
    const uint32_t nblk = s.grid.x * s.grid.y * s.grid.z, n = s.cluster.x * s.cluster.y * s.cluster.z;
    cudaLaunchConfig_t occ = {};
    occ.gridDim = s.grid;
    occ.blockDim = dim3(128);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = s.cluster.x;
    attr[0].val.clusterDim.y = s.cluster.y;
    attr[0].val.clusterDim.z = s.cluster.z;
    occ.attrs = attr;
    occ.numAttrs = 1;
    int active = 0;
    HOST_CHECK(cudaOccupancyMaxActiveClusters(&active, dsmem_exchange, &occ));
    for (int i = 0; i < 6; ++i) HOST_CHECK(cudaMemset(out[i], 0, max_blocks * sizes[i] * 4));
    HOST_CHECK(launch(s, in, out));
    HOST_CHECK(cudaDeviceSynchronize());
    std::vector<uint32_t> h[6];
    for (int i = 0; i < 6; ++i) {
      h[i].resize(nblk * sizes[i]);
      HOST_CHECK(cudaMemcpy(h[i].data(), out[i], h[i].size() * 4, cudaMemcpyDeviceToHost));
    }
    int bad = 0;
    auto expect = [&](const char* what, uint32_t g, uint32_t i, uint32_t got, uint32_t want) {
      if (got != want && bad++ < 5) std::printf("  %s[%u][%u] = 0x%x, expected 0x%x\n", what, g, i, got, want);
    };
    uint32_t xor_all = 0;
    for (uint32_t q = 0; q < n; ++q) xor_all ^= 0x5A5A0000u | q;
    for (uint32_t bz = 0; bz < s.grid.z; ++bz)
      for (uint32_t by = 0; by < s.grid.y; ++by)
        for (uint32_t bx = 0; bx < s.grid.x; ++bx) {
          const uint32_t g = bx + s.grid.x * (by + s.grid.y * bz);
          const dim3 c = s.cluster;
          const uint32_t r = bx % c.x + c.x * (by % c.y + c.y * (bz % c.z));
          const uint32_t right = block_of_rank(s, bx, by, bz, (r + 1) % n), left = block_of_rank(s, bx, by, bz, (r + n - 1) % n);
          for (uint32_t t = 0; t < 128; ++t) {
            expect("peek", g, t, h[0][g * 128 + t], h_in[right * 128 + (5 * t) % 128]);
            expect("peek2", g, t, h[1][g * 128 + t], h_in[left * 128 + t] ^ 0xFFFFu);
          }
          for (uint32_t q = 0; q < 16; ++q) expect("inbox", g, q, h[2][g * 16 + q], q < n ? 0x1000u * (q + 1) + r : 0);
          expect("count", g, 0, h[3][g], r == 0 ? n * 8256 : 0);
          expect("xors", g, 0, h[4][g], xor_all);
          expect("ranks", g, 0, h[5][g * 2], (r + 1) % n);
          expect("ranks", g, 1, h[5][g * 2 + 1], (r + n - 1) % n);
        }
    std::printf("grid (%u,%u,%u) cluster (%u,%u,%u)%s: %d resident clusters at most; %s\n", s.grid.x, s.grid.y, s.grid.z,
                s.cluster.x, s.cluster.y, s.cluster.z, s.non_portable ? " non-portable" : "", active,
                bad ? "MISMATCH" : "every output correct");
    failures += bad != 0;
  }
  return failures ? 1 : 0;
}
