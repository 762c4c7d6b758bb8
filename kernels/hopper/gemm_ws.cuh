// A Hopper GEMM written the way production kernels are (CUTLASS's sm90 "warp-specialized
// cooperative" kernel: KernelTmaWarpSpecializedCooperative + PipelineTmaAsync + the GMMA mainloop;
// the same idioms as the public warp-specialised wgmma tutorials). Written for tcsim; no CUTLASS code.
//
//   D[M][N] = sum_k A[M][K] * B[N][K]   (A K-major; B K-major, or MN-major: B stored as [K][N])
//
// * Persistent: gridDim.x CTAs (or clusters) walk the output tiles tile = id, id + count, ...
// * 384 threads = 3 warpgroups. Warpgroup 0 is the producer: it gives registers back
//   (setmaxnreg.dec 40) and one elected thread of its warp 0 streams A and B tiles with TMA
//   (SWIZZLE_128B boxes of 128 bytes of K, i.e. the K-major 128B-swizzle canonical layout) into a
//   kStages-deep ring of shared-memory stages. Warpgroups 1 and 2 are the consumers
//   (setmaxnreg.inc 232): each owns 64 rows of the 128-row tile and runs wgmma m64nBNk* on it.
// * Each stage has a "full" mbarrier (1 arrival: the producer's arrive.expect_tx of the stage's
//   bytes; the TMA complete_tx completes it) and an "empty" mbarrier (one arrival per consumer warp,
//   of every CTA whose producer writes into this stage). Producer: wait empty (parity phase^1) ->
//   arrive.expect_tx full -> TMA A, B. Consumer: wait full (parity phase) -> wgmma.fence -> the
//   k-block's wgmmas (the first of a tile with scale-d 0: no zeroing of the accumulator) ->
//   commit_group -> wait_group 1 -> release the previous k-block's stage (its wgmmas are done).
// * Cluster variant (kClusterM = 2): the two CTAs of a cluster compute vertically adjacent tiles
//   with the same B tile; each loads half of B and multicasts it to both (TMA .multicast::cluster),
//   so each CTA's empty barrier also needs the peer's consumer warps (remote arrive via mapa).
// * FP8 variant with promotion (kPromote = P > 0): the wgmmas accumulate into a temporary
//   accumulator that is added into the main one in f32 every P k-blocks (wgmma e4m3 accumulates
//   with less than f32 precision, PTX §9.7.15.5.2 — CUTLASS's GmmaFP8Accumulation idea).
// * Epilogue: either f32 D written from the accumulator fragment with st.global, or bf16 D:
//   cvt.rn.bf16x2.f32, stmatrix.x4 into a 128B-swizzled staging tile, fence.proxy.async, TMA store
//   (bulk_group; the staging tile is reused after cp.async.bulk.wait_group.read 0).
//
// Requirements (checked, trap otherwise): M % 128 == 0, N % BN == 0, K % BK == 0, K > 0,
// 384 threads, enough dynamic shared memory; kClusterM == 2: (M / 128) even, cluster (2, 1, 1).
#pragma once
#include <cuda.h>  // CUtensorMap

#include <cstdint>

#include "common/ptx.cuh"
#include "common/smem_layout.h"
#include "common/wgmma_ops.h"

namespace hopper {

// stmatrix.sync.aligned.m8n8.x4.shared.b16 (§9.7.14.5.16): lanes 8j..8j+7 give the row addresses
// of matrix j; register j of lane t holds matrix j's row t/4, columns 2(t%4), 2(t%4)+1.
__device__ __forceinline__ void stmatrix_x4(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0), "r"(r1),
               "r"(r2), "r"(r3)
               : "memory");
}

__device__ __forceinline__ void prefetch_tensormap(const void* tmap) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(tmap)) : "memory");
}

template <class Op_, uint32_t kBN_, uint32_t kStages_, bool kBMajorMN_, bool kBf16Out_, uint32_t kClusterM_,
          uint32_t kPromote_>
struct GemmConfig {
  using Op = Op_;  // the wgmma: m64 x kBN x (32 bytes of K)
  static constexpr uint32_t kBM = 128, kBN = kBN_, kStages = kStages_;
  static constexpr uint32_t kElemBytes = Op::kElemBytes;
  static constexpr uint32_t kBK = 128 / kElemBytes;               // one 128-byte swizzle row of K
  static constexpr uint32_t kKSlices = 128 / 32;                  // wgmmas per k-block
  static constexpr bool kBMajorMN = kBMajorMN_, kBf16Out = kBf16Out_;
  static constexpr uint32_t kClusterM = kClusterM_, kPromote = kPromote_;
  static constexpr uint32_t kABytes = kBM * 128, kBBytes = kBN * 128;  // one stage
  static constexpr uint32_t kEpiBytes = kBf16Out ? 2 * 64 * kBN * 2 : 0;
  static constexpr uint32_t kSmemBytes = 1024 + kStages * (kABytes + kBBytes) + kEpiBytes + 2 * kStages * 8;
  // Empty-barrier arrivals: one per consumer warp (8) of every CTA that writes into the stage.
  static constexpr uint32_t kEmptyArrivals = 8 * kClusterM;
  static_assert(Op::kN == kBN && std::is_same_v<typename Op::Acc, float>, "wgmma shape");
  static_assert(!kBMajorMN || Op::kCanTranspose, "MN-major B needs a 16-bit type");
  static_assert(kBN % 64 == 0 && kBN <= 256, "BN");
  static_assert(kClusterM == 1 || kClusterM == 2, "cluster");
  static_assert(kSmemBytes <= 232448, "shared memory");
};

template <class Cfg>
__device__ void gemm_ws(const CUtensorMap* tmA, const CUtensorMap* tmB, const CUtensorMap* tmD, float* __restrict__ D,
                        uint32_t M, uint32_t N, uint32_t K) {
  using Op = typename Cfg::Op;
  constexpr uint32_t kBM = Cfg::kBM, kBN = Cfg::kBN, kBK = Cfg::kBK, kStages = Cfg::kStages;
  const uint32_t tid = threadIdx.x, wg = tid / 128, warp = tid / 32, lane = tid % 32;

  bool bad = blockDim.x != 384 || blockDim.y != 1 || blockDim.z != 1 || M % kBM != 0 || N % kBN != 0 ||
             K % kBK != 0 || K == 0;
  if constexpr (Cfg::kClusterM == 2) bad |= (M / kBM) % 2 != 0 || gridDim.x % 2 != 0;
  extern __shared__ __align__(16) uint8_t smem_raw[];
  const uint32_t raw = smem_u32(smem_raw);
  const uint32_t base = (raw + 1023u) & ~1023u;  // 128B-swizzled tiles start on 1024-byte lines
  bad |= base + (Cfg::kSmemBytes - 1024) - raw > dynamic_smem_size();
  if (bad) __trap();

  const uint32_t a_smem = base, b_smem = base + kStages * Cfg::kABytes;
  const uint32_t epi_smem = b_smem + kStages * Cfg::kBBytes;
  const uint32_t bars = epi_smem + Cfg::kEpiBytes;
  auto full_bar = [&](uint32_t s) { return bars + 8 * s; };
  auto empty_bar = [&](uint32_t s) { return bars + 8 * (kStages + s); };

  const uint32_t rank = Cfg::kClusterM == 2 ? cluster_ctarank() : 0;
  // Tiles: clusters of kClusterM vertically adjacent tiles, walked persistently.
  const uint32_t m_tiles = M / kBM, n_tiles = N / kBN;
  const uint32_t groups = (m_tiles / Cfg::kClusterM) * n_tiles;
  const uint32_t first = Cfg::kClusterM == 2 ? cluster_id_x() : blockIdx.x;
  const uint32_t step = Cfg::kClusterM == 2 ? ncluster_x() : gridDim.x;
  const uint32_t k_tiles = K / kBK;
  auto tile_origin = [&](uint32_t t, uint32_t& m0, uint32_t& n0) {
    const uint32_t mg = t % (m_tiles / Cfg::kClusterM), n = t / (m_tiles / Cfg::kClusterM);
    m0 = (mg * Cfg::kClusterM + rank) * kBM;
    n0 = n * kBN;
  };

  if (tid == 0) {
    for (uint32_t s = 0; s < kStages; ++s) {
      mbar_init(full_bar(s), 1);
      mbar_init(empty_bar(s), Cfg::kEmptyArrivals);
    }
    fence_mbarrier_init_cluster();
  }
  if constexpr (Cfg::kClusterM == 2)
    cluster_sync();  // the peer's barriers exist before anyone multicasts or arrives remotely
  else
    __syncthreads();

  if (wg == 0) {
    // ------------------------------- producer -------------------------------
    setmaxnreg_dec<40>();
    if (warp == 0 && elect_one()) {
      prefetch_tensormap(tmA);
      prefetch_tensormap(tmB);
      constexpr uint32_t kStageTx = Cfg::kABytes + Cfg::kBBytes;
      uint32_t stage = 0, phase = 0;
      for (uint32_t t = first; t < groups; t += step) {
        uint32_t m0, n0;
        tile_origin(t, m0, n0);
        for (uint32_t kt = 0; kt < k_tiles; ++kt) {
          if constexpr (Cfg::kClusterM == 2)
            mbar_wait_cluster(empty_bar(stage), phase ^ 1);
          else
            mbar_wait(empty_bar(stage), phase ^ 1);  // a fresh barrier passes parity 1 at once
          mbar_arrive_expect_tx(full_bar(stage), kStageTx);
          const uint32_t a_dst = a_smem + stage * Cfg::kABytes, b_dst = b_smem + stage * Cfg::kBBytes;
          tma_load_2d(a_dst, tmA, kt * kBK, m0, full_bar(stage));
          if constexpr (Cfg::kBMajorMN) {
            // B[K][N]: boxes of 64 N (128 bytes) x kBK K-rows, one per 64 columns of the tile.
            for (uint32_t h = 0; h < kBN / 64; ++h)
              tma_load_2d(b_dst + h * kBK * 128, tmB, n0 + 64 * h, kt * kBK, full_bar(stage));
          } else if constexpr (Cfg::kClusterM == 2) {
            // Our half of the B tile, into both CTAs of the cluster at the same offset.
            tma_load_2d_multicast(b_dst + rank * (kBN / 2) * 128, tmB, kt * kBK, n0 + rank * (kBN / 2),
                                  full_bar(stage), 0x3);
          } else {
            tma_load_2d(b_dst, tmB, kt * kBK, n0, full_bar(stage));
          }
          if (++stage == kStages) {
            stage = 0;
            phase ^= 1;
          }
        }
      }
    }
  } else {
    // ------------------------------- consumers -------------------------------
    setmaxnreg_inc<232>();
    const uint32_t c = wg - 1, w = warp % 4, g = lane / 4, q = lane % 4;
    float acc[Op::kRegs];
    float total[Op::kRegs];  // the promoted sum (kPromote > 0 only; otherwise unused)
    uint32_t stage = 0, phase = 0;
    auto release = [&](uint32_t s) {
      // One arrival per warp, after the warp's wgmma.wait_group covering the stage's wgmmas.
      if (lane == 0) mbar_arrive(empty_bar(s));
      if constexpr (Cfg::kClusterM == 2)
        if (lane == 1) mbar_arrive_cluster(empty_bar(s), rank ^ 1);
    };
    for (uint32_t t = first; t < groups; t += step) {
      uint32_t m0, n0;
      tile_origin(t, m0, n0);
      if constexpr (Cfg::kPromote > 0) {
#pragma unroll
        for (uint32_t i = 0; i < Op::kRegs; ++i) total[i] = 0.0f;
      }
      int32_t pending = -1;  // stage whose wgmmas may still be running
#pragma unroll 1
      for (uint32_t kt = 0; kt < k_tiles; ++kt) {
        if constexpr (Cfg::kClusterM == 2)
          mbar_wait_cluster(full_bar(stage), phase);
        else
          mbar_wait(full_bar(stage), phase);
        const uint32_t a_tile = a_smem + stage * Cfg::kABytes + c * 64 * 128;
        const uint32_t b_tile = b_smem + stage * Cfg::kBBytes;
        const bool restart = Cfg::kPromote > 0 ? kt % Cfg::kPromote == 0 : kt == 0;
        wgmma_fence();
#pragma unroll
        for (uint32_t ks = 0; ks < Cfg::kKSlices; ++ks) {
          // A: K-major, 128B swizzle, 8-row groups 1024 B apart; the k-slice moves the start by
          // 32 bytes inside the swizzled row (LBO unused: 16).
          const uint64_t da = make_wgmma_desc(a_tile + 32 * ks, 16, 1024, kSwz128B, 0);
          const uint32_t scale_d = (restart && ks == 0) ? 0u : 1u;
          if constexpr (Cfg::kBMajorMN) {
            // B: MN-major, 128B swizzle: atoms of 8 K-rows x 64 N; LBO = next 64 columns (the
            // next TMA box), SBO = next 8 K-rows; a k-slice of 16 K-rows is 2048 bytes.
            const uint64_t db = make_wgmma_desc(b_tile + 2048 * ks, kBK * 128, 1024, kSwz128B, 0);
            Op::ss_tb(acc, da, db, scale_d);
          } else {
            const uint64_t db = make_wgmma_desc(b_tile + 32 * ks, 16, 1024, kSwz128B, 0);
            Op::ss0(acc, da, db, scale_d);
          }
        }
        wgmma_commit();
        const bool promote = Cfg::kPromote > 0 && (kt % Cfg::kPromote == Cfg::kPromote - 1 || kt + 1 == k_tiles);
        if (promote) {
          wgmma_wait<0>();
          if (pending >= 0) release(pending);
          release(stage);
          pending = -1;
          if constexpr (Cfg::kPromote > 0) {
#pragma unroll
            for (uint32_t i = 0; i < Op::kRegs; ++i) total[i] += acc[i];
          }
        } else {
          wgmma_wait<1>();  // all but this k-block's wgmmas are complete
          if (pending >= 0) release(pending);
          pending = stage;
        }
        if (++stage == kStages) {
          stage = 0;
          phase ^= 1;
        }
      }
      wgmma_wait<0>();
      if (pending >= 0) release(pending);
      const float(&out)[Op::kRegs] = Cfg::kPromote > 0 ? total : acc;

      // ---- epilogue: accumulator pair p holds D[16w + g + 8(p&1)][8(p>>1) + 2q + {0,1}] ----
      if constexpr (!Cfg::kBf16Out) {
#pragma unroll
        for (uint32_t p = 0; p < kBN / 4; ++p) {
          const uint32_t row = m0 + 64 * c + 16 * w + g + 8 * (p & 1), col = n0 + 8 * (p >> 1) + 2 * q;
          *reinterpret_cast<float2*>(D + (size_t)row * N + col) = make_float2(out[2 * p], out[2 * p + 1]);
        }
      } else {
        // Staging tile of this warpgroup: kBN/64 sub-tiles of 64 rows x 64 bf16 (128-byte rows,
        // 128B swizzle on absolute address bits = what the TMA store with SWIZZLE_128B reads).
        const uint32_t stage_tile = epi_smem + c * 64 * kBN * 2;
        if (tid % 128 == 0) bulk_wait_group_read<0>();  // the previous tile's store has read it
        bar_sync(1 + c, 128);
#pragma unroll
        for (uint32_t c16 = 0; c16 < kBN / 16; ++c16) {
          const uint32_t mi = lane / 8, row = 16 * w + lane % 8 + 8 * (mi & 1), col = 16 * c16 + 8 * (mi >> 1);
          const uint32_t addr = swizzle(stage_tile + (col / 64) * 8192 + row * 128 + (col % 64) * 2, kSwz128B, 0);
          // Registers 8c16 + {0,1 | 2,3 | 4,5 | 6,7} are matrices rows 0-7 / 8-15 of columns 0-7,
          // then rows 0-7 / 8-15 of columns 8-15 of the 16x16 block (fragment rows g, g+8).
          const uint32_t i = 8 * c16;
          stmatrix_x4(addr, pack_bf16x2(out[i], out[i + 1]), pack_bf16x2(out[i + 2], out[i + 3]),
                      pack_bf16x2(out[i + 4], out[i + 5]), pack_bf16x2(out[i + 6], out[i + 7]));
        }
        fence_proxy_async_smem();  // generic-proxy stmatrix writes -> async-proxy TMA store reads
        bar_sync(1 + c, 128);
        if (tid % 128 == 0) {
          for (uint32_t h = 0; h < kBN / 64; ++h) tma_store_2d(tmD, n0 + 64 * h, m0 + 64 * c, stage_tile + h * 8192);
          bulk_commit_group();
        }
      }
    }
    if constexpr (Cfg::kBf16Out)
      if (tid % 128 == 0) bulk_wait_group<0>();  // the stores are done before the CTA exits
  }
  if constexpr (Cfg::kClusterM == 2) cluster_sync();  // no CTA leaves while its peer may still signal it
}

}  // namespace hopper

// Kernel parameters: the tensor maps by value (__grid_constant__, as CUTLASS passes them), D (f32
// output; unused with bf16 output, which goes through tmD), and the problem size.
#define HOPPER_GEMM_WS_KERNEL(name, Cfg)                                                                   \
  extern "C" __global__ void __launch_bounds__(384, 1)                                                     \
      name(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,               \
           const __grid_constant__ CUtensorMap tmD, float* __restrict__ D, uint32_t M, uint32_t N, uint32_t K) { \
    hopper::gemm_ws<Cfg>(&tmA, &tmB, &tmD, D, M, N, K);                                                    \
  }
