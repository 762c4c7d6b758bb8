// machine_shape.cu — the GPU's SM / TPC / GPC shape and cluster residency as the driver and the
// hardware report them (a host program, built and run on the device by run_machine.sh; the results
// are committed under kernels/probes/results/ and become the H200 row of models/machine/).
//
// Prints, one fact per line (grep-able; machine_shape.py parses them):
//   DEVICE   name=... sms=... cc=... driver=... runtime=... smem_per_sm=... smem_optin=...
//            reserved_smem_per_block=... max_blocks_per_sm=... max_threads_per_sm=... regs_per_sm=...
//   OCC      block=<threads> dyn=<bytes> cluster=<k> blocks_per_sm=<n> max_active_clusters=<m>
//            (cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaOccupancyMaxActiveClusters)
//   POTENTIAL block=<threads> dyn=<bytes> max_cluster_size=<k>   (cudaOccupancyMaxPotentialClusterSize)
//   PLACE    cluster=<k> grid=<ctas> coresident=<all CTAs saw each other 0/1> clusters=<smid,smid,...;...>
//            (one launch of max_active_clusters(k) clusters, one CTA per SM, every CTA spinning until
//            all have arrived or 20 ms passed; the SMs of each cluster, in rank order)
//   WAVE     cluster=<k> grid=<ctas> first_wave=<CTAs that were resident together>
//            (a launch of one cluster more than max_active_clusters: how many ran at once)
//   GPC      <i> sms=<count> ids=<smid,...>   (union of SMs that ever shared a cluster: one GPC each)
//   TPC      pairs=<2-CTA clusters on SMs {2t, 2t+1}> of <clusters>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#define CK(x)                                                                                    \
  do {                                                                                           \
    cudaError_t e_ = (x);                                                                        \
    if (e_ != cudaSuccess) {                                                                     \
      std::printf("ERROR %s: %s (%s:%d)\n", #x, cudaGetErrorString(e_), __FILE__, __LINE__);     \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Every CTA: record %smid, %cluster_ctarank, the cluster id; arrive; spin until `total` CTAs
// arrived or `timeout_ns` passed; record how many had arrived when it stopped.
__global__ void place(unsigned* counter, unsigned* info, unsigned total, unsigned long long timeout_ns) {
  extern __shared__ unsigned char dyn[];
  if (threadIdx.x != 0) return;
  unsigned smid, nsmid, rank, cid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  dyn[0] = 1;
  atomicAdd(counter, 1u);
  const unsigned long long t0 = gtimer();
  unsigned seen = 0;
  for (;;) {
    seen = atomicAdd(counter, 0u);
    if (seen >= total || gtimer() - t0 > timeout_ns) break;
    __nanosleep(1000);
  }
  unsigned* o = info + blockIdx.x * 5;
  o[0] = smid;
  o[1] = rank;
  o[2] = cid;
  o[3] = seen;
  o[4] = nsmid;
}

struct Config {
  int block;
  int dyn;
};

static int max_active_clusters(int k, const Config& c) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = k;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(k * 64, 1, 1);
  cfg.blockDim = dim3(c.block, 1, 1);
  cfg.dynamicSmemBytes = c.dyn;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  int n = -1;
  cudaError_t e = cudaOccupancyMaxActiveClusters(&n, place, &cfg);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return n;
}

static int find(std::vector<int>& p, int x) { return p[x] == x ? x : p[x] = find(p, p[x]); }

// Launches `nclusters` clusters of k CTAs; returns per CTA {smid, rank, cluster, seen}.
static std::vector<unsigned> launch(int k, int nclusters, const Config& c, unsigned long long timeout_ns) {
  const int grid = k * nclusters;
  unsigned *counter, *info;
  CK(cudaMalloc(&counter, 4));
  CK(cudaMalloc(&info, grid * 20));
  CK(cudaMemset(counter, 0, 4));
  CK(cudaMemset(info, 0xff, grid * 20));
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = k;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.gridDim = dim3(grid, 1, 1);
  cfg.blockDim = dim3(c.block, 1, 1);
  cfg.dynamicSmemBytes = c.dyn;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CK(cudaLaunchKernelEx(&cfg, place, counter, info, (unsigned)grid, timeout_ns));
  CK(cudaDeviceSynchronize());
  std::vector<unsigned> h(grid * 5);
  CK(cudaMemcpy(h.data(), info, grid * 20, cudaMemcpyDeviceToHost));
  CK(cudaFree(counter));
  CK(cudaFree(info));
  return h;
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  std::printf("DEVICE name=\"%s\" sms=%d cc=%d.%d driver=%d runtime=%d smem_per_sm=%zu smem_optin=%zu "
              "smem_per_block=%zu reserved_smem_per_block=%zu max_blocks_per_sm=%d max_threads_per_sm=%d "
              "regs_per_sm=%d l2=%d cluster_launch=%d\n",
              p.name, p.multiProcessorCount, p.major, p.minor, drv, rt, p.sharedMemPerMultiprocessor,
              p.sharedMemPerBlockOptin, p.sharedMemPerBlock, p.reservedSharedMemPerBlock,
              p.maxBlocksPerMultiProcessor, p.maxThreadsPerMultiProcessor, p.regsPerMultiprocessor, p.l2CacheSize,
              p.clusterLaunch);
  CK(cudaFuncSetAttribute(place, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(place, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p.sharedMemPerBlockOptin));
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, place));
  std::printf("KERNEL place regs=%d static_smem=%zu\n", fa.numRegs, fa.sharedSizeBytes);

  const int optin = (int)p.sharedMemPerBlockOptin;
  const Config configs[] = {{128, 0},     {32, 0},       {1024, 0},    {512, 0},      {128, 48 * 1024},
                            {128, 100 * 1024}, {128, 110 * 1024}, {128, 120 * 1024}, {256, 60 * 1024},
                            {128, 200 * 1024}, {128, optin}};
  for (const Config& c : configs) {
    int bps = -1;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, place, c.block, c.dyn) != cudaSuccess) cudaGetLastError();
    for (int k = 1; k <= 16; ++k)
      std::printf("OCC block=%d dyn=%d cluster=%d blocks_per_sm=%d max_active_clusters=%d\n", c.block, c.dyn, k, bps,
                  max_active_clusters(k, c));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1024, 1, 1);
    cfg.blockDim = dim3(c.block, 1, 1);
    cfg.dynamicSmemBytes = c.dyn;
    int pot = -1;
    if (cudaOccupancyMaxPotentialClusterSize(&pot, place, &cfg) != cudaSuccess) cudaGetLastError();
    std::printf("POTENTIAL block=%d dyn=%d max_cluster_size=%d\n", c.block, c.dyn, pot);
  }

  // Placement with one CTA per SM (the opt-in maximum of shared memory).
  const Config one{128, optin};
  const int kIds = 1024;  // %smid values need not be below the SM count
  std::vector<int> parent(kIds);
  std::set<int> seen_sms;
  std::iota(parent.begin(), parent.end(), 0);
  int tpc_pairs = 0, tpc_total = 0;
  for (int rep = 0; rep < 3; ++rep) {
    for (int k = 1; k <= 16; ++k) {
      const int m = max_active_clusters(k, one);
      if (m <= 0) {
        std::printf("PLACE cluster=%d max_active_clusters=%d (skipped)\n", k, m);
        continue;
      }
      std::vector<unsigned> h = launch(k, m, one, 20000000ull);
      const int grid = k * m;
      bool all = true;
      std::map<unsigned, std::vector<std::pair<unsigned, unsigned>>> by_cluster;
      for (int i = 0; i < grid; ++i) {
        all = all && h[i * 5 + 3] >= (unsigned)grid;
        by_cluster[h[i * 5 + 2]].push_back({h[i * 5 + 1], h[i * 5 + 0]});
        if (h[i * 5] < (unsigned)kIds) seen_sms.insert((int)h[i * 5]);
      }
      if (rep == 0 && k == 1) {
        unsigned lo = ~0u, hi = 0;
        std::set<unsigned> ids;
        for (int i = 0; i < grid; ++i) {
          lo = std::min(lo, h[i * 5]);
          hi = std::max(hi, h[i * 5]);
          ids.insert(h[i * 5]);
        }
        std::printf("SMID nsmid=%u min=%u max=%u distinct=%zu ctas=%d\n", h[4], lo, hi, ids.size(), grid);
      }
      if (rep == 0) std::printf("PLACE cluster=%d grid=%d coresident=%d clusters=", k, grid, all ? 1 : 0);
      bool first = true;
      for (auto& [cid, v] : by_cluster) {
        std::sort(v.begin(), v.end());
        if (rep == 0) {
          std::printf("%s", first ? "" : ";");
          for (size_t j = 0; j < v.size(); ++j) std::printf("%s%u", j ? "," : "", v[j].second);
        }
        first = false;
        for (size_t j = 1; j < v.size(); ++j) {
          if (v[j].second < (unsigned)kIds && v[0].second < (unsigned)kIds)
            parent[find(parent, (int)v[j].second)] = find(parent, (int)v[0].second);
        }
        if (k == 2 && v.size() == 2) {
          ++tpc_total;
          const unsigned a = std::min(v[0].second, v[1].second), b = std::max(v[0].second, v[1].second);
          tpc_pairs += (a % 2 == 0 && b == a + 1);
        }
      }
      if (rep == 0) std::printf("\n");
      if (rep == 0) {
        // One cluster more than can be resident: how many CTAs ran together (the first wave).
        std::vector<unsigned> w = launch(k, m + 1, one, 2000000ull);
        unsigned best = ~0u;  // the first wave stops at its time-out seeing only itself
        for (int i = 0; i < (m + 1) * k; ++i) best = std::min(best, w[i * 5 + 3]);
        std::printf("WAVE cluster=%d grid=%d first_wave=%u max_active_clusters=%d\n", k, (m + 1) * k, best, m);
      }
    }
  }
  std::map<int, std::vector<int>> gpcs;
  for (int s : seen_sms) gpcs[find(parent, s)].push_back(s);
  std::vector<std::vector<int>> list;
  for (auto& [r, v] : gpcs) list.push_back(v);
  std::sort(list.begin(), list.end());
  for (size_t i = 0; i < list.size(); ++i) {
    std::printf("GPC %zu sms=%zu ids=", i, list[i].size());
    for (size_t j = 0; j < list[i].size(); ++j) std::printf("%s%d", j ? "," : "", list[i][j]);
    std::printf("\n");
  }
  std::printf("TPC pairs=%d of %d\n", tpc_pairs, tpc_total);

  // Two CTAs per SM (half the shared memory each): do the two CTAs of a 2-cluster share an SM?
  const Config two{128, optin / 2 - 1024};
  const int m2 = max_active_clusters(2, two);
  if (m2 > 0) {
    std::vector<unsigned> h = launch(2, m2, two, 20000000ull);
    std::map<unsigned, std::vector<unsigned>> by;
    for (int i = 0; i < 2 * m2; ++i) by[h[i * 5 + 2]].push_back(h[i * 5 + 0]);
    int same = 0, pair = 0;
    for (auto& [c, v] : by)
      if (v.size() == 2) {
        same += v[0] == v[1];
        pair += std::min(v[0], v[1]) % 2 == 0 && std::max(v[0], v[1]) == std::min(v[0], v[1]) + 1;
      }
    std::printf("TWO_PER_SM cluster=2 clusters=%d same_sm=%d tpc_pair=%d\n", m2, same, pair);
  }
  return 0;
}
