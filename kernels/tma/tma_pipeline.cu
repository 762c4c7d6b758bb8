// tma_pipeline.cu — a warp-specialised, multi-stage TMA pipeline, the shape of every Hopper and
// Blackwell GEMM mainloop: one producer warp (one elected lane issues the TMA loads) and four
// consumer warps, synchronised by two rings of mbarriers — full[s] (producer -> consumers, completed
// by the TMA's transaction bytes) and empty[s] (consumers -> producer, one arrive per consumer
// warp) — with the phase parity flipping every time the ring wraps.
//
// Families: elect.sync; mbarrier.init, arrive.expect_tx, arrive (release.cta), try_wait.parity
// with and without a suspend-time hint, test_wait.parity (spin), inval;
// cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes with the 128B
// swizzle; cp.async.bulk.prefetch.tensor.2d.L2.global.tile; ld.shared of the swizzled tile with
// the XOR undone by hand; bar.warp.sync.
// PTX ISA §9.7.13.15 (mbarrier), §9.7.13.14 (elect.sync), §9.7.9.25.5.2, §5.5.7 (swizzle).
// Spec: tma_pipeline.json (2 CTAs x 12 tiles through a 4-stage ring: the parity flips 3 times).
//
// Tensor `a`: u32, 32 columns (128 B rows), box 32 x 32 rows, SWIZZLE_128B. CTA b consumes tiles
// t = b*ntiles + k, k = 0..ntiles-1 (rows 32t .. 32t+31). Consumer warp w (0..3) reads rows
// 8w..8w+7 of each tile, lane l column l.
// Expected outputs:
//   copy[32t + row][l] = a[32t + row][l]         for every tile t of every CTA (an identity copy);
//   sums[b][32w + l]   = sum over k, j of (k + 1) * a[32(b*ntiles + k) + 8w + j][l]   (mod 2^32).
#include "async_util.cuh"

namespace {

constexpr uint32_t kStages = 4;
constexpr uint32_t kConsumerWarps = 4;
constexpr uint32_t kRows = 32, kRowBytes = 128;
constexpr uint32_t kTileBytes = kRows * kRowBytes;  // 4096: four 1024-byte swizzle repeats

// SWIZZLE_128B on an offset from a 1024-aligned base: 16-byte chunk c of 128-byte line r is stored
// at chunk c ^ (r % 8) (PTX ISA §5.5.7; docs/smem_layouts.md §5).
__device__ __forceinline__ uint32_t swizzle128(uint32_t off) { return off ^ (((off >> 7) & 7u) << 4); }

}  // namespace

extern "C" __global__ void __launch_bounds__(32 * (1 + kConsumerWarps))
tma_pipeline(const __grid_constant__ CUtensorMap tm_a, uint32_t ntiles, uint32_t* copy, uint32_t* sums) {
  extern __shared__ uint8_t dsmem[];
  __shared__ uint64_t full[kStages], empty[kStages];
  uint8_t* stages = tk::align_smem(dsmem, 1024);

  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(&full[s], 1);                 // the producer's arrive.expect_tx
      ptx::mbarrier_init(&empty[s], uint32_t{kConsumerWarps});  // one arrive per consumer warp
    }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();

  if (warp == 0) {
    // Producer. A fresh barrier is in phase 0, so waiting for parity 1 (the "preceding" phase)
    // succeeds at once: the first round of empty slots needs no consumer release.
    if (tk::elect_one()) {
      for (uint32_t k = 0; k < ntiles; ++k) {
        const uint32_t s = k % kStages, round = k / kStages;
        tk::wait_parity(&empty[s], (round & 1) ^ 1);
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], uint32_t{kTileBytes});
        const int32_t c[2] = {0, static_cast<int32_t>((blockIdx.x * ntiles + k) * kRows)};
        ptx::cp_async_bulk_tensor(ptx::space_shared, ptx::space_global, stages + s * kTileBytes, &tm_a, c, &full[s]);
        // Warm L2 with the tile the next round of this stage will load (no completion, a hint).
        if (k + kStages < ntiles) {
          const int32_t y = static_cast<int32_t>((blockIdx.x * ntiles + k + kStages) * kRows);
          asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];"
                       :: "l"(&tm_a), "r"(0), "r"(y) : "memory");
        }
      }
    }
  } else {
    const uint32_t cw = warp - 1;
    uint32_t acc = 0;
    for (uint32_t k = 0; k < ntiles; ++k) {
      const uint32_t s = k % kStages, parity = (k / kStages) & 1;
      // Four ways to wait for the same phase, one per consumer warp.
      switch (cw) {
        case 0: tk::wait_parity_hint(&full[s], parity, 1000); break;   // try_wait, 1 us hint
        case 1: tk::wait_parity_hint(&full[s], parity, 0x10000); break;
        case 2: tk::wait_parity(&full[s], parity); break;              // try_wait, no hint
        default: tk::spin_parity(&full[s], parity); break;             // test_wait spin
      }
      const uint8_t* tile = stages + s * kTileBytes;
      const uint32_t t = blockIdx.x * ntiles + k;
      for (uint32_t j = 0; j < 8; ++j) {
        const uint32_t row = 8 * cw + j;
        const uint32_t v = *reinterpret_cast<const uint32_t*>(tile + swizzle128(row * kRowBytes + lane * 4));
        copy[(t * kRows + row) * 32 + lane] = v;
        acc += (k + 1) * v;
      }
      // The whole warp has read the slot; one lane releases it.
      __syncwarp();
      if (lane == 0) ptx::mbarrier_arrive(&empty[s]);
    }
    sums[blockIdx.x * 32 * kConsumerWarps + cw * 32 + lane] = acc;
  }

  __syncthreads();
  if (threadIdx.x == 0) {
    for (uint32_t s = 0; s < kStages; ++s) {
      asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(tk::smem_u32(&full[s])) : "memory");
      asm volatile("mbarrier.inval.shared::cta.b64 [%0];" :: "r"(tk::smem_u32(&empty[s])) : "memory");
    }
  }
}
