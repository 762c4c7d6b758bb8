// Block-scaled Blackwell GEMMs written the way production sm_100a FP8/FP4 kernels are (DeepGEMM's
// SM100 FP8 main loop, CUTLASS's block-scaled collectives: own code): warp-specialised, persistent,
// TMA-fed, scale factors loaded into TMEM by tcgen05.cp, tcgen05.mma .block_scale.
//
//   D[M][N] = (A ⊙ SFA)[M][K] * ((B ⊙ SFB)[N][K])^T    A, B K-major; every scale covers `blk` K
//
//   gemm_mxfp8_f32, gemm_mxfp8_f32_2cta  kind::mxf8f6f4 e4m3 x e4m3, UE8M0 scales per 32 K (1X)
//   gemm_nvfp4_f32                       kind::mxf4nvf4 e2m1 x e2m1, UE4M3 scales per 16 K (.block16)
//
// Scale factors in global memory (the MN-major packed form DeepGEMM uses): SFA is [K/(4 blk)][M]
// 32-bit words, word (w, m) holding the scales of row m for the K blocks 4w .. 4w+3 (byte j = block
// 4w+j); SFB likewise [K/(4 blk)][N]. A stage (K tile of 128 bytes per row: 128 e4m3, 256 e2m1)
// needs `kSfWords` words per row (mxfp8 1, nvfp4 4).
//
// Roles (224 threads, 7 warps):
//   warp 0     TMA producer: A, B and the stage's scale-factor words (SFA: 128 rows, SFB: 128
//              columns; 2-D boxes of words) into a STAGES-deep ring, full[s] <- expect_tx;
//   warp 1     MMA issuer: allocates 512 TMEM columns (two 128-column accumulators, then the scale
//              factors); per stage waits sf_full[s], copies the stage's scale factors into TMEM with
//              tcgen05.cp.32x128b.warpx4 (all four sub-partitions), issues 4 block-scaled MMAs (MMA j
//              reads word (j*nsf)/4 at SF_ID (j*nsf)%4: four 1X MMAs or one 4X MMA per word), commits
//              empty[s]; after a tile's last stage commits tmem_full[b];
//   warps 2-5  epilogue: wait tmem_full[b], tcgen05.ld their lane quarter, store D, arrive tmem_empty[b];
//   warp 6     scale-factor transposer: waits full[s], turns each 128-word column of the stage's
//              scale factors from MN order into the layout tcgen05.cp .32x128b.warpx4 needs (word
//              4*l + i <- word 32*i + l: CUTLASS's 512-byte chunk, byte 16*(m%32) + 4*(m/32) + j),
//              fence.proxy.async, arrives sf_full[s] (the leader's, for a CTA pair).
// The cp -> mma order needs no wait: both are issued by one thread (a pipelined pair, §9.7.16.6.2);
// the next stage's cp overwrites the same TMEM columns only after this stage's MMAs read them.
// CTA pairs (cta_group::2, cluster (2,1,1)): M = 256 MMAs by the leader; each CTA loads its 128 rows
// of A, its 64 rows of B, the scale factors of its own rows of A and of all 128 columns of B (each
// CTA's tensor core multiplies its rows by every column), the leader's cp.cta_group::2 copies both
// CTAs' chunks into both TMEMs.
#include <cuda.h>

#include <cstdint>

#include "tc_ptx.cuh"
#include "tc_ptx_mx.cuh"
#include "umma_layout.h"

namespace tck {

template <int CG, uint32_t VARIANT, uint32_t ATYPE, uint32_t SCALE_UE8M0>
struct MxGemmConfig {
  static constexpr int kCtaGroup = CG;
  static constexpr uint32_t kVariant = VARIANT;
  static constexpr uint32_t kThreads = 224;
  static constexpr uint32_t kBlockM = 128;                      // rows of A per CTA
  static constexpr uint32_t kBlockN = 128;                      // D columns per tile
  static constexpr uint32_t kBRows = kBlockN / CG;              // rows of B per CTA
  static constexpr uint32_t kBlockKBytes = 128;                 // one 128B swizzle row of K
  static constexpr uint32_t kMmaK = bs_kstep(VARIANT);          // 32 (mxf8f6f4) or 64 (fp4)
  static constexpr uint32_t kBlockK = kMmaK * 4;                // 4 MMAs of 32 bytes per stage
  static constexpr uint32_t kNsf = bs_nsf(VARIANT);
  static constexpr uint32_t kSfWords = 4 * kNsf / 4;            // words per row per stage
  static constexpr uint32_t kStages = 4;
  static constexpr uint32_t kABytes = kBlockM * kBlockKBytes;   // 16 KiB
  static constexpr uint32_t kBBytes = kBRows * kBlockKBytes;
  static constexpr uint32_t kSfaBytes = kSfWords * 128 * 4;     // 128 rows
  static constexpr uint32_t kSfbBytes = kSfWords * 128 * 4;     // 128 columns of B
  static constexpr uint32_t kStageBytes = kABytes + kBBytes + kSfaBytes + kSfbBytes;
  static constexpr uint32_t kAccCols = 128;                     // 2 accumulators
  static constexpr uint32_t kColSfa = 256, kColSfb = kColSfa + 4 * kSfWords;
  static constexpr uint32_t kIdescBase = make_idesc_bs(kBlockM * CG, kBlockN, ATYPE, ATYPE, SCALE_UE8M0, 0, 0, 0, 0);
  static constexpr uint32_t kSmemBytes = kStages * kStageBytes + 1024;
};

__device__ __forceinline__ uint64_t sw128_desc(uint32_t tile) { return smem_desc_encode(tile, 16, 1024, kSwizzle128B); }
// A 512-byte scale-factor chunk for tcgen05.cp .32x128b: 32 rows of 16 bytes, K-major, no swizzle.
__device__ __forceinline__ uint64_t sf_desc(uint32_t chunk) { return smem_desc_encode(chunk, 16, 128, kSwizzleNone); }

__device__ __forceinline__ uint32_t ld_shared_u32(uint32_t a) {
  uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}
__device__ __forceinline__ void st_shared_v4_u32(uint32_t a, uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" :: "r"(a), "r"(x), "r"(y), "r"(z), "r"(w) : "memory");
}

// 3-D tile load of the scale-factor words: box {128 words along MN, kSfWords words along K}.
__device__ __forceinline__ void tma_load_2d_words(uint32_t dst, const void* tmap, int32_t c0, int32_t c1,
                                                  uint32_t bar) {
  tma_load_2d(dst, tmap, c0, c1, bar);
}

template <class Cfg>
__device__ void gemm_mx(const CUtensorMap* tmA, const CUtensorMap* tmB, const CUtensorMap* tmSFA,
                        const CUtensorMap* tmSFB, uint8_t* D, uint32_t M, uint32_t N, uint32_t K) {
  constexpr int CG = Cfg::kCtaGroup;
  constexpr uint32_t ST = Cfg::kStages;
  extern __shared__ uint8_t smem_dyn[];
  __shared__ alignas(8) uint64_t full_bar[ST], sf_full_bar[ST], empty_bar[ST], tfull_bar[2], tempty_bar[2];
  __shared__ uint32_t tmem_slot;

  const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
  const uint32_t rank = CG == 2 ? cluster_ctarank() : 0u;
  const uint32_t v = rank & 1u;
  const bool leader = v == 0;
  const uint32_t base = (smem_u32(smem_dyn) + 1023u) & ~1023u;
  auto tile_a = [&](uint32_t s) { return base + s * Cfg::kStageBytes; };
  auto tile_b = [&](uint32_t s) { return tile_a(s) + Cfg::kABytes; };
  auto tile_sfa = [&](uint32_t s) { return tile_b(s) + Cfg::kBBytes; };
  auto tile_sfb = [&](uint32_t s) { return tile_sfa(s) + Cfg::kSfaBytes; };
  auto bar = [](const uint64_t& b) { return smem_u32(&b); };

  const uint32_t tiles_m = M / (Cfg::kBlockM * CG), tiles_n = N / Cfg::kBlockN;
  const uint32_t num_tiles = tiles_m * tiles_n, k_tiles = K / Cfg::kBlockK;
  const uint32_t cluster = blockIdx.x / CG, num_clusters = gridDim.x / CG;
  if (blockDim.x != Cfg::kThreads || M % (Cfg::kBlockM * CG) || N % Cfg::kBlockN || K % Cfg::kBlockK || K == 0 ||
      dynamic_smem_size() < Cfg::kSmemBytes)
    __trap();

  if (warp == 0 && lane == 0) {
    for (uint32_t s = 0; s < ST; ++s) {
      mbar_init(bar(full_bar[s]), 1);        // the producer's arrive.expect_tx
      mbar_init(bar(sf_full_bar[s]), CG);    // the transposer warp of each CTA of the pair
      mbar_init(bar(empty_bar[s]), 1);       // the MMA warp's tcgen05.commit
    }
    for (uint32_t b = 0; b < 2; ++b) {
      mbar_init(bar(tfull_bar[b]), 1);
      mbar_init(bar(tempty_bar[b]), 4u * CG);
    }
    fence_mbarrier_init();
  }
  if (warp == 1) {
    tmem_alloc<CG>(smem_u32(&tmem_slot), 512);
    tmem_relinquish<CG>();
  }
  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  tc_fence_after();
  const uint32_t tbase = tmem_slot;

  if (warp == 0) {
    // ---- TMA producer ----
    if (elect_one()) {
      uint32_t stage = 0, phase = 0;
      for (uint32_t tile = cluster; tile < num_tiles; tile += num_clusters) {
        const uint32_t mt = (tile % tiles_m) * Cfg::kBlockM * CG, m0 = mt + v * Cfg::kBlockM;
        const uint32_t nt = (tile / tiles_m) * Cfg::kBlockN, n0 = nt + v * Cfg::kBRows;
        for (uint32_t kt = 0; kt < k_tiles; ++kt) {
          mbar_wait(bar(empty_bar[stage]), phase ^ 1u);
          const int32_t kb = static_cast<int32_t>(kt * Cfg::kBlockKBytes);  // K tile in bytes (= tensor-map units)
          const int32_t kw = static_cast<int32_t>(kt * Cfg::kSfWords);      // K tile in scale words
          mbar_arrive_expect_tx(bar(full_bar[stage]), Cfg::kStageBytes);
          tma_load_2d(tile_a(stage), tmA, kb, static_cast<int32_t>(m0), bar(full_bar[stage]));
          tma_load_2d(tile_b(stage), tmB, kb, static_cast<int32_t>(n0), bar(full_bar[stage]));
          tma_load_2d_words(tile_sfa(stage), tmSFA, static_cast<int32_t>(m0), kw, bar(full_bar[stage]));
          tma_load_2d_words(tile_sfb(stage), tmSFB, static_cast<int32_t>(nt), kw, bar(full_bar[stage]));
          if (++stage == ST) { stage = 0; phase ^= 1u; }
        }
      }
      for (uint32_t i = 0; i < ST; ++i) {  // tail: every stage released before exit
        mbar_wait(bar(empty_bar[stage]), phase ^ 1u);
        if (++stage == ST) { stage = 0; phase ^= 1u; }
      }
    }
    __syncwarp();
  } else if (warp == 6) {
    // ---- scale-factor transposer: MN order -> the tcgen05.cp .32x128b chunk layout ----
    uint32_t stage = 0, phase = 0;
    for (uint32_t tile = cluster; tile < num_tiles; tile += num_clusters) {
      for (uint32_t kt = 0; kt < k_tiles; ++kt) {
        mbar_wait(bar(full_bar[stage]), phase);
        for (uint32_t c = 0; c < 2 * Cfg::kSfWords; ++c) {  // SFA words, then SFB words: 128 each
          const uint32_t col = (c < Cfg::kSfWords ? tile_sfa(stage) : tile_sfb(stage)) + (c % Cfg::kSfWords) * 512u;
          uint32_t x[4];
          for (uint32_t i = 0; i < 4; ++i) x[i] = ld_shared_u32(col + 4u * (32u * i + lane));
          __syncwarp();
          st_shared_v4_u32(col + 16u * lane, x[0], x[1], x[2], x[3]);
          __syncwarp();
        }
        fence_proxy_async_smem();  // generic stores -> the async proxy's tcgen05.cp
        __syncwarp();
        if (lane == 0) {
          if constexpr (CG == 1) mbar_arrive(bar(sf_full_bar[stage]));
          else mbar_arrive_cluster(mapa_shared(bar(sf_full_bar[stage]), rank & ~1u));
        }
        if (++stage == ST) { stage = 0; phase ^= 1u; }
      }
    }
  } else if (warp == 1) {
    // ---- MMA issuer (the leader's for a pair) ----
    if (leader && elect_one()) {
      const uint16_t pair_mask = static_cast<uint16_t>(3u << (rank & ~1u));
      uint32_t stage = 0, phase = 0, acc = 0;
      for (uint32_t tile = cluster; tile < num_tiles; tile += num_clusters, ++acc) {
        const uint32_t b = acc & 1u, acc_phase = (acc >> 1) & 1u;
        mbar_wait(bar(tempty_bar[b]), acc_phase ^ 1u);
        tc_fence_after();
        const uint32_t d_tmem = tbase + b * Cfg::kAccCols;
        for (uint32_t kt = 0; kt < k_tiles; ++kt) {
          mbar_wait(bar(sf_full_bar[stage]), phase);  // TMA landed and the chunks are transposed
          tc_fence_after();
          for (uint32_t w = 0; w < Cfg::kSfWords; ++w) {
            tmem_cp_32x128b_warpx4<CG>(tbase + Cfg::kColSfa + 4u * w, sf_desc(tile_sfa(stage) + 512u * w));
            tmem_cp_32x128b_warpx4<CG>(tbase + Cfg::kColSfb + 4u * w, sf_desc(tile_sfb(stage) + 512u * w));
          }
          const uint64_t da = sw128_desc(tile_a(stage)), db = sw128_desc(tile_b(stage));
          for (uint32_t j = 0; j < 4; ++j) {
            const uint32_t w = j * Cfg::kNsf / 4u, id = (j * Cfg::kNsf) % 4u;
            const uint32_t idesc = Cfg::kIdescBase | (id << 4) | (id << 29);  // SFB_ID, SFA_ID
            const uint64_t step = (j * 32u) >> 4;
            if constexpr (CG == 1)
              mma_bs_ss<1>(Cfg::kVariant, d_tmem, da + step, db + step, idesc, (kt | j) != 0,
                           tbase + Cfg::kColSfa + 4u * w, tbase + Cfg::kColSfb + 4u * w);
            else
              mma_bs_ss<2>(Cfg::kVariant, d_tmem, da + step, db + step, idesc, (kt | j) != 0,
                           tbase + Cfg::kColSfa + 4u * w, tbase + Cfg::kColSfb + 4u * w);
          }
          if constexpr (CG == 1) tc_commit<1>(bar(empty_bar[stage]));
          else tc_commit_multicast<2>(bar(empty_bar[stage]), pair_mask);
          if (++stage == ST) { stage = 0; phase ^= 1u; }
        }
        if constexpr (CG == 1) tc_commit<1>(bar(tfull_bar[b]));
        else tc_commit_multicast<2>(bar(tfull_bar[b]), pair_mask);
      }
    }
    __syncwarp();
  } else {
    // ---- epilogue warps 2..5 ----
    const uint32_t q = warp % 4u;
    uint32_t acc = 0;
    for (uint32_t tile = cluster; tile < num_tiles; tile += num_clusters, ++acc) {
      const uint32_t b = acc & 1u, acc_phase = (acc >> 1) & 1u;
      const uint32_t row = (tile % tiles_m) * Cfg::kBlockM * CG + v * Cfg::kBlockM + 32u * q + lane;
      const uint32_t n0 = (tile / tiles_m) * Cfg::kBlockN;
      mbar_wait(bar(tfull_bar[b]), acc_phase);
      tc_fence_after();
      const uint32_t t_row = tbase + ((32u * q) << 16) + b * Cfg::kAccCols;
      uint8_t* drow = D + (static_cast<uint64_t>(row) * N + n0) * 4u;
      for (uint32_t c = 0; c < Cfg::kBlockN; c += 32) {
        uint32_t r[32];
        tmem_ld_32x32b_x32(t_row + c, r);
        uint4* dst = reinterpret_cast<uint4*>(drow + c * 4u);
        for (uint32_t i = 0; i < 8; ++i) dst[i] = make_uint4(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
      }
      tc_fence_before();
      __syncwarp();
      if (lane == 0) {
        if constexpr (CG == 1) mbar_arrive(bar(tempty_bar[b]));
        else mbar_arrive_cluster(mapa_shared(bar(tempty_bar[b]), rank & ~1u));
      }
    }
  }

  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  tc_fence_after();
  if (warp == 1) tmem_dealloc<CG>(tbase, 512);
}

}  // namespace tck

#define TCK_MX_GEMM_ENTRY(NAME, CG, VARIANT, ATYPE, UE8M0)                                               \
  extern "C" __global__ void __launch_bounds__(224, 1)                                                  \
      NAME(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,            \
           const __grid_constant__ CUtensorMap tmSFA, const __grid_constant__ CUtensorMap tmSFB,        \
           uint8_t* D, uint32_t M, uint32_t N, uint32_t K) {                                            \
    tck::gemm_mx<tck::MxGemmConfig<CG, VARIANT, ATYPE, UE8M0>>(&tmA, &tmB, &tmSFA, &tmSFB, D, M, N, K); \
  }

// MXFP8: kind::mxf8f6f4.block_scale.scale_vec::1X, e4m3 (code 0), UE8M0.
TCK_MX_GEMM_ENTRY(gemm_mxfp8_f32, 1, tck::kBsMxf8X1, 0, 1)
TCK_MX_GEMM_ENTRY(gemm_mxfp8_f32_2cta, 2, tck::kBsMxf8X1, 0, 1)
// NVFP4: kind::mxf4nvf4.block_scale.block16, e2m1 (code 1), UE4M3.
TCK_MX_GEMM_ENTRY(gemm_nvfp4_f32, 1, tck::kBsNvf4Block16, 1, 0)
