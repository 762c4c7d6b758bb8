// cuda_barrier_tma.cu — TMA the way the CUDA C++ Programming Guide teaches it: libcu++'s
// cuda::barrier<thread_scope_block> with cuda::device::barrier_arrive_tx, the
// cuda::device::experimental TMA wrappers (cp_async_bulk_tensor_2d_global_to_shared /
// shared_to_global, fence_proxy_async_shared_cta, commit / wait_group_read), double-buffered so
// tile k+1 is in flight while tile k is processed.
//
// Families (as libcu++ emits them): mbarrier.init; mbarrier.arrive.expect_tx.release.cta
// (arrive_tx), mbarrier.arrive (the others' arrival tokens); mbarrier.try_wait on a state token
// with the %globaltimer / nanosleep back-off of cuda::barrier::wait;
// cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes;
// cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group; fence.proxy.async.shared::cta;
// cp.async.bulk.commit_group / wait_group.read 0. PTX ISA §9.7.13.15, §9.7.9.25.5.2, §9.7.9.25.6.
// Spec: cuda_barrier_tma.json (2 CTAs x 3 tiles).
//
// Tensors `src` and `dst`: u16, 64 columns x 48 rows, box 32 x 16, no swizzle. The 6 tiles are
// numbered t = tx + 2 * ty (tx < 2, ty < 3); CTA b processes tiles t = 3b, 3b+1, 3b+2.
// Expected: dst[y][x] = (src[y][x] * 2 + 1) mod 2^16 everywhere.
#include <cuda/barrier>
#include <utility>

#include "async_util.cuh"

namespace cde = cuda::device::experimental;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

namespace {
constexpr int kBoxX = 32, kBoxY = 16, kTilesX = 2, kTilesPerCta = 3;
constexpr uint32_t kTileBytes = kBoxX * kBoxY * sizeof(uint16_t);
}  // namespace

extern "C" __global__ void cuda_barrier_tma(const __grid_constant__ CUtensorMap tm_src,
                                            const __grid_constant__ CUtensorMap tm_dst) {
  __shared__ alignas(128) uint16_t tile[2][kBoxX * kBoxY];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier bar[2];

  if (threadIdx.x == 0) {
    init(&bar[0], blockDim.x);
    init(&bar[1], blockDim.x);
    cde::fence_proxy_async_shared_cta();  // make the initialised barriers visible to the TMA unit
  }
  __syncthreads();

  auto issue = [&](int k) -> block_barrier::arrival_token {
    const int t = static_cast<int>(blockIdx.x) * kTilesPerCta + k;
    cde::cp_async_bulk_tensor_2d_global_to_shared(&tile[k % 2], &tm_src, (t % kTilesX) * kBoxX,
                                                  (t / kTilesX) * kBoxY, bar[k % 2]);
    return cuda::device::barrier_arrive_tx(bar[k % 2], 1, kTileBytes);
  };

  // Thread 0 arrives (with the transaction bytes) when it issues a load; the others arrive when
  // they come to wait. So thread 0 carries the token of the tile in flight.
  block_barrier::arrival_token next{};
  if (threadIdx.x == 0) next = issue(0);
  for (int k = 0; k < kTilesPerCta; ++k) {
    block_barrier::arrival_token token = threadIdx.x == 0 ? std::move(next) : bar[k % 2].arrive();
    // Buffer (k+1)%2 was released by the wait_group.read at the end of iteration k-1.
    if (threadIdx.x == 0 && k + 1 < kTilesPerCta) next = issue(k + 1);
    bar[k % 2].wait(std::move(token));

    for (int i = threadIdx.x; i < kBoxX * kBoxY; i += blockDim.x)
      tile[k % 2][i] = static_cast<uint16_t>(tile[k % 2][i] * 2 + 1);
    cde::fence_proxy_async_shared_cta();
    __syncthreads();

    if (threadIdx.x == 0) {
      const int t = static_cast<int>(blockIdx.x) * kTilesPerCta + k;
      cde::cp_async_bulk_tensor_2d_shared_to_global(&tm_dst, (t % kTilesX) * kBoxX, (t / kTilesX) * kBoxY,
                                                    &tile[k % 2]);
      cde::cp_async_bulk_commit_group();
      // The next-but-one load reuses this buffer: the store must have read it by then.
      cde::cp_async_bulk_wait_group_read<0>();
    }
    __syncthreads();
  }
}
