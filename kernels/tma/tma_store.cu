// tma_store.cu — a TMA epilogue: tiles come in by TMA load, threads rewrite them in shared memory
// with generic stores, and TMA stores (cp.async.bulk.tensor ... global.shared::cta.bulk_group) put
// them back, double-buffered, with bulk async-groups tracking when a buffer may be reused.
// Tiles on the tensor's far edges hang outside it: their loads are zero-filled and their stores
// are clipped to the tensor (§5.5.3.3; the H200 writes whole 16-byte chunks of a row: README.md).
//
// Families: cp.async.bulk.tensor.{1..5}d load (mbarrier::complete_tx::bytes) and store
// (.global.shared::cta.tile.bulk_group), cp.async.bulk.commit_group, cp.async.bulk.wait_group.read 1
// and wait_group 0, fence.proxy.async.shared::cta between the generic rewrite and the async-proxy
// store, mbarrier phase parity over a 2-buffer ring. PTX ISA §9.7.9.25.5.2, §9.7.9.25.6, §9.7.13.4.
// Specs: tma_store_{1d,2d_sw128,2d_sw32,2d_sw64,3d,4d,5d}.json.
//
// The tensor is covered by a grid of n[0] x ... x n[Rank-1] tiles (tile t has coordinates
// t_d * box_d); CTA b handles tiles b, b + gridDim.x, .... Every byte of every tile is XORed with
// 0x5A, so the expected output is: every in-bounds element of `dst` = the `src` element ^ 0x5A..5A
// (bytewise), the stride padding keeps its initial value beyond the row's last 16-byte chunk.
#include "async_util.cuh"

namespace {

constexpr uint32_t kBuffers = 2;

template <int Rank>
__device__ void tile_coords(uint32_t t, const uint32_t (&n)[5], const uint32_t (&box)[5], int32_t (&c)[Rank]) {
  for (int d = 0; d < Rank; ++d) {
    c[d] = static_cast<int32_t>((t % n[d]) * box[d]);
    t /= n[d];
  }
}

template <int Rank>
__device__ void store_kernel(const CUtensorMap& tm_src, const CUtensorMap& tm_dst, uint32_t tile_bytes,
                             const uint32_t (&n)[5], const uint32_t (&box)[5]) {
  extern __shared__ uint8_t dsmem[];
  __shared__ uint64_t full[kBuffers];
  uint8_t* base = tk::align_smem(dsmem, 1024);
  const uint32_t pitch = (tile_bytes + 1023) & ~1023u;  // each buffer starts a swizzle repeat

  uint32_t tiles = 1;
  for (int d = 0; d < Rank; ++d) tiles *= n[d];

  if (threadIdx.x == 0) {
    for (uint32_t b = 0; b < kBuffers; ++b) ptx::mbarrier_init(&full[b], 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();

  uint32_t i = 0;  // local iteration: buffer i % 2, its barrier's phase i / 2
  for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x, ++i) {
    const uint32_t b = i % kBuffers;
    uint8_t* buf = base + b * pitch;
    int32_t c[Rank];
    tile_coords<Rank>(t, n, box, c);

    if (threadIdx.x == 0) {
      // The store issued from this buffer two tiles ago must have finished *reading* it before the
      // next load overwrites it: at most one (the newest) bulk group may still be reading.
      ptx::cp_async_bulk_wait_group_read(ptx::n32_t<1>());
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[b], tile_bytes);
      ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, buf, &tm_src, c, &full[b]);
    }
    tk::wait_parity(&full[b], (i / kBuffers) & 1);

    // Rewrite the tile in place: the swizzle is a permutation of whole 16-byte chunks, so a
    // bytewise transform is layout-independent.
    for (uint32_t k = threadIdx.x; k < tile_bytes / 16; k += blockDim.x) {
      uint4 v = reinterpret_cast<uint4*>(buf)[k];
      v.x ^= 0x5A5A5A5Au; v.y ^= 0x5A5A5A5Au; v.z ^= 0x5A5A5A5Au; v.w ^= 0x5A5A5A5Au;
      reinterpret_cast<uint4*>(buf)[k] = v;
    }
    // Generic-proxy writes -> async-proxy reads: every writer fences, then the block syncs.
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();

    if (threadIdx.x == 0) {
      ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tm_dst, c, buf);
      ptx::cp_async_bulk_commit_group();
    }
  }
  // Shared memory must outlive the reads of the last stores; wait for them to complete entirely.
  if (threadIdx.x == 0) ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
}

}  // namespace

#define TMA_STORE_ENTRY(N)                                                                         \
  extern "C" __global__ void tma_store_##N##d(                                                     \
      const __grid_constant__ CUtensorMap tm_src, const __grid_constant__ CUtensorMap tm_dst,      \
      uint32_t tile_bytes, uint32_t n0, uint32_t n1, uint32_t n2, uint32_t n3, uint32_t n4,         \
      uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3, uint32_t b4) {                           \
    const uint32_t n[5] = {n0, n1, n2, n3, n4};                                                    \
    const uint32_t box[5] = {b0, b1, b2, b3, b4};                                                  \
    store_kernel<N>(tm_src, tm_dst, tile_bytes, n, box);                                           \
  }

TMA_STORE_ENTRY(1)
TMA_STORE_ENTRY(2)
TMA_STORE_ENTRY(3)
TMA_STORE_ENTRY(4)
TMA_STORE_ENTRY(5)
