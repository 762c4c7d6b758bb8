// tma_multicast.cu — TMA multicast into every CTA of a 2- or 4-CTA cluster, the way a CUTLASS
// mainloop shares an operand tile across a cluster: each CTA loads one slice of the tile and
// multicasts it to the same shared-memory offset in all CTAs; every CTA's mbarrier expects the
// whole tile's bytes. A second round does the same with the non-tensor bulk copy.
//
// Families: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// .multicast::cluster.L2::cache_hint with a 16-bit ctaMask and a createpolicy.fractional
// .L2::evict_last policy; cp.async.bulk.shared::cluster.global
// .mbarrier::complete_tx::bytes.multicast::cluster; fence.mbarrier_init.release.cluster;
// barrier.cluster.arrive.release.aligned / wait.acquire.aligned; %cluster_ctarank,
// %cluster_nctarank, %clusterid, %nclusterid. PTX ISA §9.7.9.25.5.2, §9.7.9.25.4.1, §9.7.13.3.
// Specs: tma_multicast_2cta.json (cluster 2x1x1), tma_multicast_4cta.json (4x1x1),
// tma_multicast_2x2.json (2x2x1: ranks of a 2-D cluster).
//
// Cluster k (k = clusterid.x + nclusterid.x * clusterid.y) handles tile k: rows
// [k*tile_rows, (k+1)*tile_rows) of tensor `a` (the map's box is [inner, tile_rows / N], one
// slice); CTA r loads slice r (rows k*tile_rows + r*tile_rows/N ...) to offset r * slice_bytes in
// every CTA. The 1-D round: CTA r copies chunk r (vec_chunk bytes at vec + (k*N + r)*vec_chunk) to
// offset r * vec_chunk in every CTA.
//
// Expected outputs, per cluster k and rank r:
//   tiles[k][r][:]  = the shared image of tile k (identical for every r): with the 128B swizzle of
//                     the specs, row j of the tile at bytes [j*128, j*128+128) with its 16-byte
//                     chunk c stored at chunk c ^ (j % 8);
//   vecs[k][r][:]   = vec bytes [k*N*vec_chunk, (k+1)*N*vec_chunk) (identical for every r).
#include "async_util.cuh"

extern "C" __global__ void tma_multicast(const __grid_constant__ CUtensorMap tm_a, uint32_t tile_rows,
                                         uint32_t tile_bytes, const uint8_t* vec, uint32_t vec_chunk,
                                         uint8_t* tiles, uint8_t* vecs) {
  extern __shared__ uint8_t dsmem[];
  __shared__ uint64_t tile_full, vec_full;
  uint8_t* tile = tk::align_smem(dsmem, 1024);
  uint8_t* vbuf = tile + ((tile_bytes + 1023) & ~1023u);

  const uint32_t rank = ptx::get_sreg_cluster_ctarank();
  const uint32_t n = ptx::get_sreg_cluster_nctarank();
  const uint32_t k = ptx::get_sreg_clusterid_x() + ptx::get_sreg_nclusterid_x() * ptx::get_sreg_clusterid_y();
  const uint32_t slice_rows = tile_rows / n, slice_bytes = tile_bytes / n;
  const uint16_t all_ctas = static_cast<uint16_t>((1u << n) - 1);

  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&tile_full, 1);
    ptx::mbarrier_init(&vec_full, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  // Peers' multicasts complete_tx on *our* barriers: they must be initialised cluster-wide first.
  tk::cluster_sync();

  if (threadIdx.x == 0) {
    // Our own expectation covers all N slices; a peer's bytes may land before this arrive, which
    // drives the tx-count negative for a while (legal, §9.7.13.15.1) without completing the phase.
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &tile_full, tile_bytes);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cluster, ptx::space_shared, &vec_full, n * vec_chunk);

    // The tile is read once per cluster: ask L2 to keep it (an L2::cache_hint policy, as CUTLASS's
    // SM90_TMA_LOAD_MULTICAST passes one); a hint only, no effect on the result.
    uint64_t policy;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        ".L2::cache_hint [%0], [%1, {%2, %3}], [%4], %5, %6;"
        :: "r"(tk::smem_u32(tile + rank * slice_bytes)), "l"(&tm_a), "r"(0),
           "r"(static_cast<int32_t>(k * tile_rows + rank * slice_rows)), "r"(tk::smem_u32(&tile_full)),
           "h"(all_ctas), "l"(policy)
        : "memory");
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, vbuf + rank * vec_chunk,
                       vec + static_cast<size_t>(k * n + rank) * vec_chunk, vec_chunk, &vec_full, all_ctas);
  }
  tk::wait_parity_cluster(&tile_full, 0);  // completed by peers' multicasts too
  tk::wait_parity_cluster(&vec_full, 0);

  const size_t cta = static_cast<size_t>(k) * n + rank;
  tk::dump_smem(tile, tiles + cta * tile_bytes, tile_bytes);
  tk::dump_smem(vbuf, vecs + cta * n * vec_chunk, n * vec_chunk);

  // No CTA may exit while multicasts it issued can still be writing into its peers.
  tk::cluster_sync();
}
