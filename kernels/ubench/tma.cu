// tma.cu — the TMA engine (PTX ISA §9.7.9.25.5.2 cp.async.bulk.tensor, §9.7.9.25.4.1 cp.async.bulk,
// §9.7.13.15 mbarrier complete_tx):
//   tma,load_<KB>KiB_l2.latency / load_<KB>KiB_hbm.latency   one thread issues one 2D tile load
//         (bf16, 128B swizzle, 64 x rows) and waits on its mbarrier; issue -> phase complete, cycles;
//         the l2 case re-reads one tile, the hbm case reads tiles of a 1 GiB tensor after an L2 flush
//   tma,bulk_4KiB_l2.latency      cp.async.bulk (1D) global -> shared, 4 KiB
//   tma,store_16KiB.read_latency / .latency   cp.async.bulk.tensor store + commit_group, then
//         wait_group.read 0 (source read) and wait_group 0 (writes done)
//   tma,hbm_depthD.bw             all SMs, one CTA each, D loads of 16 KiB in flight per SM,
//         distinct tiles of the 1 GiB tensor: GB/s (bytes landed in shared memory)
//   tma,l2_depthD.bw              the same over an 8 MiB (L2-resident) part of the tensor
//   tma,one_sm_l2.bytes_per_clk   one CTA alone, 8 x 16 KiB in flight, L2-resident
//   tma,one_sm_l2_rowsR_depthD.bytes_per_clk   the same with a box of R rows (R x 128 B: 4, 8, 16 KiB)
//         and D loads in flight (2, 4, 8, 16 for the smaller boxes): one SM's fill rate by copy size
//   tma,multicastC.bytes_per_clk_per_sm   clusters of C CTAs, each loads 1/C of a 16 KiB tile with
//         .multicast::cluster to all C, 4 stages, L2-resident; bytes landed per SM per clock
//   tma,cluster_nomcC.bytes_per_clk_per_sm  the same clusters, each CTA loading the whole tile itself
#include <cudaTypedefs.h>

#include "kernels/ubench/ubench.cuh"

namespace ub {
namespace {

__device__ __forceinline__ uint32_t sa(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void wait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n\t.reg .pred p;\n"
      "W:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W;\n\t}" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void wait_cluster(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n\t.reg .pred p;\n"
      "W:\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1;\n\t@!p bra W;\n\t}" ::"r"(bar),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap* m, int x, int y, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(m), "r"(x), "r"(y), "r"(bar)
      : "memory");
}
__device__ __forceinline__ void tma_load_mc(uint32_t dst, const CUtensorMap* m, int x, int y, uint32_t bar, uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], "
      "[%4], %5;" ::"r"(dst),
      "l"(m), "r"(x), "r"(y), "r"(bar), "h"(mask)
      : "memory");
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

constexpr uint32_t kCols = 8192;     // bf16 elements per row (16 KiB)
constexpr uint32_t kRows = 65536;    // 1 GiB
constexpr uint32_t kTilesX = kCols / 64;

// One tile load at a time: per-load latency into out[i].
__global__ void k_tma_lat(const __grid_constant__ CUtensorMap m, uint32_t bytes, int n, int same_tile, uint64_t* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x) return;
  uint8_t* buf = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem) + 1023) & ~uintptr_t(1023));
  const uint32_t b = sa(&bar);
  mbar_init(b, 1);
  fence_init();
  const uint32_t rows = bytes / 128;
  for (int i = 0; i < n; ++i) {
    const int t = same_tile ? 0 : i * 37;
    const int x = (t % kTilesX) * 64, y = (t / kTilesX) * rows % kRows;
    expect_tx(b, bytes);
    const uint64_t t0 = clock64_();
    tma_load(sa(buf), &m, x, y, b);
    wait(b, i & 1);
    const uint64_t t1 = clock64_();
    out[i] = t1 - t0;
  }
}

__global__ void k_bulk_lat(const uint8_t* src, int n, uint64_t* out) {
  __shared__ __align__(128) uint8_t buf[4096];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x) return;
  const uint32_t b = sa(&bar);
  mbar_init(b, 1);
  fence_init();
  for (int i = 0; i < n; ++i) {
    expect_tx(b, 4096);
    const uint64_t t0 = clock64_();
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 4096, [%2];" ::"r"(sa(buf)),
                 "l"(src), "r"(b)
                 : "memory");
    wait(b, i & 1);
    out[i] = clock64_() - t0;
  }
}

__global__ void k_tma_store(const __grid_constant__ CUtensorMap m, int n, uint64_t* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  uint8_t* buf = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem) + 1023) & ~uintptr_t(1023));
  for (int i = threadIdx.x; i < 16384; i += blockDim.x) buf[i] = uint8_t(i);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x) return;
  for (int i = 0; i < n; ++i) {
    const uint64_t t0 = clock64_();
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" ::"l"(&m), "r"(64 * (i % 8)),
                 "r"(128 * i), "r"(sa(buf))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    const uint64_t t1 = clock64_();
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    const uint64_t t2 = clock64_();
    out[2 * i] = t1 - t0;
    out[2 * i + 1] = t2 - t0;
  }
}

// Streams `iters` tiles of 16 KiB through `depth` stages. tile_mask limits the tiles to an
// L2-resident part of the tensor (0: all).
// `box_bytes`: the bytes one load lands (the map's box), at most 16 KiB; stages stay 16 KiB apart.
__global__ void k_tma_stream(const __grid_constant__ CUtensorMap m, int depth, int iters, uint32_t tile_mod, uint64_t* out,
                             uint32_t box_bytes = 16384) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bars[16];
  if (threadIdx.x) return;
  uint8_t* buf = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem) + 1023) & ~uintptr_t(1023));
  const uint32_t stride = box_bytes < 16384 && depth > 8 ? box_bytes : 16384;  // 16 stages: packed
  for (int s = 0; s < depth; ++s) mbar_init(sa(&bars[s]), 1);
  fence_init();
  const uint32_t total_tiles = kTilesX * (kRows / 128);
  const uint32_t mod = tile_mod ? tile_mod : total_tiles;
  auto issue = [&](int k) {
    const int s = k % depth;
    const uint32_t t = (blockIdx.x + uint32_t(k) * gridDim.x) % mod;
    expect_tx(sa(&bars[s]), box_bytes);
    tma_load(sa(buf + s * stride), &m, (t % kTilesX) * 64, (t / kTilesX) * 128, sa(&bars[s]));
  };
  const uint64_t t0 = clock64_();
  for (int k = 0; k < depth && k < iters; ++k) issue(k);
  for (int k = 0; k < iters; ++k) {
    wait(sa(&bars[k % depth]), (k / depth) & 1);
    if (k + depth < iters) issue(k + depth);
  }
  out[blockIdx.x] = clock64_() - t0;
}

// Clusters of C: each CTA loads rows [r*128/C, (r+1)*128/C) of a 16 KiB tile and multicasts it
// (mc = 1), or every CTA loads the whole tile itself (mc = 0).
__global__ void k_tma_cluster(const __grid_constant__ CUtensorMap m_slice, const __grid_constant__ CUtensorMap m_full,
                              int csize, int mc, int iters, uint32_t tile_mod, uint64_t* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bars[4];
  uint8_t* buf = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(smem) + 1023) & ~uintptr_t(1023));
  const uint32_t rank = cluster_rank();
  const int depth = 4;
  if (threadIdx.x == 0) {
    for (int s = 0; s < depth; ++s) mbar_init(sa(&bars[s]), 1);
    fence_init();
  }
  __syncthreads();
  cluster_sync();
  const uint64_t t0 = clock64_();
  if (threadIdx.x == 0) {
    const uint32_t cluster = blockIdx.x / csize, nclusters = gridDim.x / csize;
    const uint32_t slice = 16384 / csize;
    auto issue = [&](int k) {
      const int s = k % depth;
      const uint32_t t = (cluster + uint32_t(k) * nclusters) % tile_mod;
      const int x = (t % kTilesX) * 64, y = (t / kTilesX) * 128;
      expect_tx(sa(&bars[s]), 16384);
      if (mc)
        tma_load_mc(sa(buf + s * 16384 + rank * slice), &m_slice, x, y + rank * (128 / csize), sa(&bars[s]),
                    uint16_t((1u << csize) - 1));
      else
        tma_load(sa(buf + s * 16384), &m_full, x, y, sa(&bars[s]));
    };
    for (int k = 0; k < depth && k < iters; ++k) issue(k);
    for (int k = 0; k < iters; ++k) {
      wait_cluster(sa(&bars[k % depth]), (k / depth) & 1);
      if (k + depth < iters) issue(k + depth);
    }
  }
  __syncthreads();
  const uint64_t t1 = clock64_();
  cluster_sync();
  if (threadIdx.x == 0) out[blockIdx.x] = t1 - t0;
}

CUtensorMap make_map(void* base, uint32_t box_rows, CUtensorMapSwizzle sw = CU_TENSOR_MAP_SWIZZLE_128B) {
  CUtensorMap m;
  const cuuint64_t dims[2] = {kCols, kRows};
  const cuuint64_t strides[1] = {kCols * 2};
  const cuuint32_t box[2] = {64, box_rows};
  const cuuint32_t es[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, base, dims, strides, box, es,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", int(r));
    std::exit(2);
  }
  return m;
}

__global__ void k_flush(const uint4* a, uint64_t n, uint32_t* sinkp) {
  uint32_t acc = 0;
  for (uint64_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc ^= __ldcg(a + i).x;
  sink(acc, 0x12345678u, sinkp);
}

}  // namespace

void run_tma() {
  int sms = 0;
  UB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t bytes = size_t(kCols) * kRows * 2;
  void *T, *F;
  UB_CHECK(cudaMalloc(&T, bytes));
  UB_CHECK(cudaMalloc(&F, bytes));
  UB_CHECK(cudaMemset(T, 0x3c, bytes));
  UB_CHECK(cudaMemset(F, 0x11, bytes));
  uint32_t* sinkp;
  UB_CHECK(cudaMalloc(&sinkp, 64));
  auto flush = [&] { k_flush<<<sms * 4, 512>>>(static_cast<uint4*>(F), bytes / 16, sinkp); sync_check("flush"); };
  Clocks clk(4096);
  const int smem_max = 200 * 1024;  // below 227 KiB minus the kernels' static barriers
  UB_CHECK(cudaFuncSetAttribute(k_tma_lat, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
  UB_CHECK(cudaFuncSetAttribute(k_tma_store, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
  UB_CHECK(cudaFuncSetAttribute(k_tma_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
  UB_CHECK(cudaFuncSetAttribute(k_tma_cluster, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));

  for (uint32_t rows : {32u, 128u, 256u}) {
    const CUtensorMap m = make_map(T, rows);
    const uint32_t b = rows * 128;
    const std::string kb = std::to_string(b / 1024);
    k_tma_lat<<<1, 32, b + 1024>>>(m, b, 16, 1, clk.d);
    sync_check("tma lat l2");
    auto h = clk.get();
    std::vector<double> l2;
    for (int i = 1; i < 16; ++i) l2.push_back(double(h[i]));
    row("tma", "load_" + kb + "KiB_l2.latency", median(l2), "cycles",
        "cp.async.bulk.tensor.2d load (bf16, 128B swizzle, box 64 x " + std::to_string(rows) + ") issue -> mbarrier phase, L2 hit");
    flush();
    k_tma_lat<<<1, 32, b + 1024>>>(m, b, 16, 0, clk.d);
    sync_check("tma lat hbm");
    h = clk.get();
    std::vector<double> hb;
    for (int i = 0; i < 16; ++i) hb.push_back(double(h[i]));
    row("tma", "load_" + kb + "KiB_hbm.latency", median(hb), "cycles",
        "the same, distinct tiles after an L2 flush (HBM)");
  }
  {
    k_bulk_lat<<<1, 32>>>(static_cast<uint8_t*>(T), 16, clk.d);
    sync_check("bulk lat");
    const auto h = clk.get();
    std::vector<double> v;
    for (int i = 1; i < 16; ++i) v.push_back(double(h[i]));
    row("tma", "bulk_4KiB_l2.latency", median(v), "cycles", "cp.async.bulk global -> shared 4 KiB, L2 hit");
  }
  {
    const CUtensorMap m = make_map(T, 128);
    k_tma_store<<<1, 128, 16384 + 1024>>>(m, 16, clk.d);
    sync_check("tma store");
    const auto h = clk.get();
    std::vector<double> r, w;
    for (int i = 1; i < 16; ++i) {
      r.push_back(double(h[2 * i]));
      w.push_back(double(h[2 * i + 1]));
    }
    row("tma", "store_16KiB.read_latency", median(r), "cycles", "tensor store 64 x 128 bf16 + commit -> wait_group.read 0");
    row("tma", "store_16KiB.latency", median(w), "cycles", "the same -> wait_group 0 (writes performed)");
  }
  cudaEvent_t e0, e1;
  UB_CHECK(cudaEventCreate(&e0));
  UB_CHECK(cudaEventCreate(&e1));
  {
    const CUtensorMap m = make_map(T, 128);
    for (int l2 : {0, 1})
      for (int depth : {1, 2, 4, 8}) {
        const int iters = l2 ? 512 : 256;
        const uint32_t mod = l2 ? 512 : 0;  // 512 tiles = 8 MiB
        if (!l2) flush();
        else k_tma_stream<<<sms, 32, 8 * 16384 + 1024>>>(m, depth, 64, mod, clk.d);
        UB_CHECK(cudaEventRecord(e0));
        k_tma_stream<<<sms, 32, 8 * 16384 + 1024>>>(m, depth, iters, mod, clk.d);
        UB_CHECK(cudaEventRecord(e1));
        sync_check("tma stream");
        float ms;
        UB_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        row("tma", std::string(l2 ? "l2" : "hbm") + "_depth" + std::to_string(depth) + ".bw",
            double(sms) * iters * 16384 / (ms * 1e-3) / 1e9, "GB/s",
            std::to_string(sms) + " CTAs (one per SM), " + std::to_string(depth) + " x 16 KiB tile loads in flight each" +
                (l2 ? ", tiles of an 8 MiB (L2-resident) region" : ", distinct tiles of 1 GiB after an L2 flush"));
      }
    k_tma_stream<<<1, 32, 8 * 16384 + 1024>>>(m, 8, 512, 512, clk.d);
    sync_check("one sm");
    row("tma", "one_sm_l2.bytes_per_clk", 512.0 * 16384 / double(clk.get()[0]), "B/clk",
        "one CTA on one SM, 8 x 16 KiB in flight, L2-resident tiles");
    for (uint32_t rows : {32u, 64u, 128u}) {
      const CUtensorMap mb = make_map(T, rows);
      const uint32_t box = rows * 128;
      for (int depth : {2, 4, 8, 16}) {
        if (depth > 8 && rows == 128) continue;  // 16 x 16 KiB does not fit
        k_tma_stream<<<1, 32, 8 * 16384 + 1024>>>(mb, depth, 512, 512, clk.d, box);
        sync_check("one sm sweep");
        row("tma", "one_sm_l2_rows" + std::to_string(rows) + "_depth" + std::to_string(depth) + ".bytes_per_clk",
            512.0 * box / double(clk.get()[0]), "B/clk",
            "one CTA on one SM, " + std::to_string(depth) + " x " + std::to_string(box / 1024) +
                " KiB tile loads in flight (box " + std::to_string(rows) + " rows x 128 B), L2-resident tiles");
      }
    }
  }
  for (int csize : {2, 4})
    for (int mc : {1, 0}) {
      const CUtensorMap slice = make_map(T, 128 / csize), full = make_map(T, 128);
      cudaLaunchConfig_t cfg = {};
      const int nclusters = sms / csize;
      cfg.gridDim = dim3(nclusters * csize);
      cfg.blockDim = dim3(32);
      cfg.dynamicSmemBytes = 4 * 16384 + 1024;
      cudaLaunchAttribute attr[1];
      attr[0].id = cudaLaunchAttributeClusterDimension;
      attr[0].val.clusterDim.x = csize;
      attr[0].val.clusterDim.y = 1;
      attr[0].val.clusterDim.z = 1;
      cfg.attrs = attr;
      cfg.numAttrs = 1;
      const int iters = 512;
      UB_CHECK(cudaLaunchKernelEx(&cfg, k_tma_cluster, slice, full, csize, mc, 64, 512u, clk.d));
      UB_CHECK(cudaLaunchKernelEx(&cfg, k_tma_cluster, slice, full, csize, mc, iters, 512u, clk.d));
      sync_check("tma cluster");
      const auto h = clk.get();
      std::vector<double> v;
      for (int i = 0; i < nclusters * csize; ++i) v.push_back(double(iters) * 16384 / double(h[i]));
      row("tma", std::string(mc ? "multicast" : "cluster_nomc") + std::to_string(csize) + ".bytes_per_clk_per_sm",
          median(v), "B/clk/SM",
          std::string("clusters of ") + std::to_string(csize) +
              (mc ? ", each CTA loads 1/C of a 16 KiB tile multicast to all" : ", each CTA loads the whole tile") +
              ", 4 stages, L2-resident");
    }
  cudaFree(T);
  cudaFree(F);
  cudaFree(sinkp);
}

}  // namespace ub
