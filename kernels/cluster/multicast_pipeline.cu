// multicast_pipeline.cu — a cluster-wide TMA pipeline, the shape of a CUTLASS mainloop with a
// multicast operand: every CTA of the cluster needs the same tiles; each CTA's producer loads one
// slice of each tile and multicasts it into the same stage of every CTA. A stage may be refilled
// only when the consumers of *all* CTAs have released it, so every consumer warp arrives remotely
// on the empty barrier of every CTA of the cluster; the empty barriers count n * consumer warps.
//
// Families: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// .multicast::cluster; mbarrier.arrive.release.cluster.shared::cluster (remote, sink _);
// mbarrier.arrive.expect_tx.release.cluster; try_wait.parity (acquire.cluster); elect.sync;
// fence.mbarrier_init.release.cluster; barrier.cluster (start and end); mapa.shared::cluster.
// PTX ISA §9.7.9.25.5.2, §9.7.13.15, §9.7.13.3.
// Specs: multicast_pipeline_2cta.json (2 clusters of 2), multicast_pipeline_4cta.json (1 of 4).
//
// Tensor `a`: u32, 32 columns (128 B rows), SWIZZLE_128B, box 32 columns x (32 / n) rows (one
// slice). Cluster c streams tiles t = c*ntiles + k (rows 32t .. 32t+31), k < ntiles, through a
// 3-stage ring. Consumer warp w (0, 1) of CTA g reads rows 16w .. 16w+15, lane l column l.
// Expected outputs, for every CTA g of cluster c, rank r:
//   copy[g][k][row][l] = a[32(c*ntiles + k) + row][l]    (every CTA got every slice of every tile)
//   sums[g][32w + l]   = sum over k, j < 16 of (k + r + 1) * a[32(c*ntiles + k) + 16w + j][l]  (mod 2^32)
#include "../tma/async_util.cuh"

namespace {

constexpr uint32_t kStages = 3;
constexpr uint32_t kConsumerWarps = 2;
constexpr uint32_t kRows = 32, kRowBytes = 128, kTileBytes = kRows * kRowBytes;

__device__ __forceinline__ uint32_t swizzle128(uint32_t off) { return off ^ (((off >> 7) & 7u) << 4); }

__device__ __forceinline__ void remote_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(bar) : "memory");
}

}  // namespace

extern "C" __global__ void __launch_bounds__(32 * (1 + kConsumerWarps))
multicast_pipeline(const __grid_constant__ CUtensorMap tm_a, uint32_t ntiles, uint32_t* copy, uint32_t* sums) {
  extern __shared__ uint8_t dsmem[];
  __shared__ uint64_t full[kStages], empty[kStages];
  uint8_t* stages = tk::align_smem(dsmem, 1024);

  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t r = ptx::get_sreg_cluster_ctarank(), n = ptx::get_sreg_cluster_nctarank();
  const uint32_t c = ptx::get_sreg_clusterid_x();
  const uint32_t g = blockIdx.x;
  const uint32_t slice_rows = kRows / n, slice_bytes = kTileBytes / n;

  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(&full[s], 1);
      ptx::mbarrier_init(&empty[s], n * kConsumerWarps);
    }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  tk::cluster_sync();  // peers multicast into our stages and arrive on our empty barriers

  if (warp == 0) {
    if (tk::elect_one()) {
      const uint16_t all = static_cast<uint16_t>((1u << n) - 1);
      for (uint32_t k = 0; k < ntiles; ++k) {
        const uint32_t s = k % kStages, round = k / kStages;
        // Acquire at cluster scope: the releases come from consumers in every CTA, and their reads
        // of this stage must be ordered before our multicast overwrites it there.
        tk::wait_parity_cluster(&empty[s], (round & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &full[s],
                                       uint32_t{kTileBytes});
        const int32_t crd[2] = {0, static_cast<int32_t>((c * ntiles + k) * kRows + r * slice_rows)};
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, stages + s * kTileBytes + r * slice_bytes,
                                  &tm_a, crd, &full[s], all);
      }
    }
    __syncwarp();
  } else {
    const uint32_t cw = warp - 1;
    uint32_t acc = 0;
    for (uint32_t k = 0; k < ntiles; ++k) {
      const uint32_t s = k % kStages;
      tk::wait_parity_cluster(&full[s], (k / kStages) & 1);
      const uint8_t* tile = stages + s * kTileBytes;
      for (uint32_t j = 0; j < 16; ++j) {
        const uint32_t row = 16 * cw + j;
        const uint32_t v = *reinterpret_cast<const uint32_t*>(tile + swizzle128(row * kRowBytes + lane * 4));
        copy[((g * ntiles + k) * kRows + row) * 32 + lane] = v;
        acc += (k + r + 1) * v;
      }
      __syncwarp();
      // Release the stage in every CTA whose producer writes into ours (all of them, us included).
      if (lane == 0)
        for (uint32_t q = 0; q < n; ++q) remote_arrive(tk::map_rank(tk::smem_u32(&empty[s]), q));
    }
    sums[g * 32 * kConsumerWarps + cw * 32 + lane] = acc;
  }
  // No CTA may leave while peers can still multicast into it or arrive on its barriers.
  tk::cluster_sync();
}
