// Blackwell GEMMs written the way production sm_100a kernels are: warp-specialised, persistent,
// TMA-fed, tcgen05.mma with the accumulator in TMEM, double-buffered accumulators, mbarrier rings.
//
//   D[M][N] = A[M][K] * B[N][K]^T        A, B K-major in global memory (row-major A, "TN" GEMM)
//
// Roles (192 threads, 6 warps):
//   warp 0     TMA producer: one elected lane fills a STAGES-deep shared-memory ring
//              (full[s] <- arrive.expect_tx + TMA complete_tx; waits empty[s]);
//   warp 1     MMA issuer: allocates 512 TMEM columns (two accumulators of 256 columns); one elected
//              lane waits full[s], issues 4 tcgen05.mma per stage (K = 128 bytes = 4 x 32 B), commits
//              empty[s] when they finish, and commits tmem_full[b] after a tile's last stage;
//   warps 2-5  epilogue: wait tmem_full[b], tcgen05.ld the accumulator (warp w reaches lanes
//              32*(w%4).. only, §9.7.16.8.1), store D, arrive tmem_empty[b] so the MMA warp can
//              reuse the buffer while they drain the other one.
// Persistent: each CTA (each CTA pair for the 2-CTA kernels) walks tiles tile, tile + #clusters, ...
//
// CTA-pair kernels (*_2cta, cluster (2,1,1), tcgen05 cta_group::2): a pair computes a 256 x 256
// tile with M=256 N=256 MMAs issued by the even (leader) CTA; each CTA TMA-loads its own 128 rows of
// A and its own 128 rows of B into its own shared memory (same offsets in both CTAs), signalling the
// leader's full barrier (cp.async.bulk.tensor .cta_group::2); the leader's commits multicast to both
// CTAs' barriers; each CTA's epilogue drains its own TMEM (D rows 128v..128v+127, layout A) and
// arrives on the leader's tmem_empty.
//
// `bug` (kernel argument, README "swizzle-bug demo"): 0 = correct; 1 = A and B descriptors say
// SWIZZLE_NONE although TMA wrote 128B-swizzled tiles; 2 = SBO 512 instead of 1024.
#include <cuda.h>

#include <cstdint>

#include "tc_ptx.cuh"
#include "umma_layout.h"

namespace tck {

template <Kind K, int CG, uint32_t ATYPE, uint32_t DTYPE, uint32_t IN_BYTES>
struct GemmConfig {
  static constexpr Kind kKind = K;
  static constexpr int kCtaGroup = CG;
  static constexpr uint32_t kThreads = 192;
  static constexpr uint32_t kBlockM = 128;                    // rows of A per CTA
  static constexpr uint32_t kBlockN = 256;                    // D columns per tile (both kernels)
  static constexpr uint32_t kBRows = kBlockN / CG;            // rows of B per CTA
  static constexpr uint32_t kBlockKBytes = 128;               // one 128B swizzle row of K
  static constexpr uint32_t kBlockK = kBlockKBytes / IN_BYTES;
  static constexpr uint32_t kMmaKBytes = 32;                  // every kind: 32 bytes of K per MMA
  static constexpr uint32_t kMmasPerStage = kBlockKBytes / kMmaKBytes;
  static constexpr uint32_t kStages = CG == 1 ? 4 : 6;
  static constexpr uint32_t kABytes = kBlockM * kBlockKBytes;  // 16 KiB
  static constexpr uint32_t kBBytes = kBRows * kBlockKBytes;   // 32 KiB (1 CTA) / 16 KiB (pair)
  static constexpr uint32_t kStageBytes = kABytes + kBBytes;
  static constexpr uint32_t kTmemCols = 512;                   // 2 accumulators x 256 columns
  static constexpr uint32_t kAccCols = 256;
  static constexpr uint32_t kDBytes = DTYPE == 0 ? 2 : 4;      // F16=0: 16-bit D in TMEM cells
  static constexpr uint32_t kIdesc =
      make_idesc(kBlockM * CG, kBlockN, DTYPE, ATYPE, ATYPE, 0, 0, 0, 0, 0);
  static constexpr uint32_t kSmemBytes = kStages * kStageBytes + 1024;  // + alignment slack
};

// Shared-memory descriptor of a TMA-written 128B-swizzled K-major tile of `rows` rows: 8-row atoms
// of 1024 B stacked along M/N (SBO 1024), LBO unused (16 B), base offset 0 (TMA swizzles by absolute
// address). MMA k-step j starts 32*j bytes into the rows (start field + 2*j).
__device__ __forceinline__ uint64_t tile_desc(uint32_t tile, uint32_t bug) {
  const uint32_t lt = bug == 1 ? kSwizzleNone : kSwizzle128B;
  const uint32_t sbo = bug == 2 ? 512u : 1024u;
  return smem_desc_encode(tile, 16, sbo, lt);
}

template <class Cfg>
__device__ void gemm_ws(const CUtensorMap* tmA, const CUtensorMap* tmB, uint8_t* D, uint32_t M,
                        uint32_t N, uint32_t K, uint32_t bug) {
  constexpr int CG = Cfg::kCtaGroup;
  constexpr uint32_t ST = Cfg::kStages;
  extern __shared__ uint8_t smem_dyn[];
  __shared__ alignas(8) uint64_t full_bar[ST], empty_bar[ST], tfull_bar[2], tempty_bar[2];
  __shared__ uint32_t tmem_slot;

  const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
  const uint32_t rank = CG == 2 ? cluster_ctarank() : 0u;
  const uint32_t v = rank & 1u;  // position in the CTA pair
  const bool leader = v == 0;
  const uint32_t base = (smem_u32(smem_dyn) + 1023u) & ~1023u;
  auto tile_a = [&](uint32_t s) { return base + s * Cfg::kStageBytes; };
  auto tile_b = [&](uint32_t s) { return base + s * Cfg::kStageBytes + Cfg::kABytes; };
  auto bar = [](const uint64_t& b) { return smem_u32(&b); };

  const uint32_t tiles_m = M / (Cfg::kBlockM * CG), tiles_n = N / Cfg::kBlockN;
  const uint32_t num_tiles = tiles_m * tiles_n, k_tiles = K / Cfg::kBlockK;
  const uint32_t cluster = blockIdx.x / CG, num_clusters = gridDim.x / CG;
  if (blockDim.x != Cfg::kThreads || M % (Cfg::kBlockM * CG) || N % Cfg::kBlockN ||
      K % Cfg::kBlockK || K == 0 || dynamic_smem_size() < Cfg::kSmemBytes)
    __trap();

  // ---- setup: barriers (one thread), TMEM (the MMA warp), then everyone syncs ----
  if (warp == 0 && lane == 0) {
    for (uint32_t s = 0; s < ST; ++s) {
      mbar_init(bar(full_bar[s]), 1);   // the producer's arrive.expect_tx (+ tx bytes)
      mbar_init(bar(empty_bar[s]), 1);  // the MMA warp's tcgen05.commit
    }
    for (uint32_t b = 0; b < 2; ++b) {
      mbar_init(bar(tfull_bar[b]), 1);        // tcgen05.commit after a tile's last MMA
      mbar_init(bar(tempty_bar[b]), 4u * CG); // one arrive per epilogue warp (of both CTAs)
    }
    fence_mbarrier_init();
  }
  if (warp == 1) {
    tmem_alloc<CG>(smem_u32(&tmem_slot), Cfg::kTmemCols);
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
        const uint32_t m0 = (tile % tiles_m) * Cfg::kBlockM * CG + v * Cfg::kBlockM;
        const uint32_t n0 = (tile / tiles_m) * Cfg::kBlockN + v * Cfg::kBRows;
        for (uint32_t kt = 0; kt < k_tiles; ++kt) {
          mbar_wait(bar(empty_bar[stage]), phase ^ 1u);  // fresh barrier: parity 1 passes
          const int32_t k0 = static_cast<int32_t>(kt * Cfg::kBlockK);
          if constexpr (CG == 1) {
            mbar_arrive_expect_tx(bar(full_bar[stage]), Cfg::kStageBytes);
            tma_load_2d(tile_a(stage), tmA, k0, static_cast<int32_t>(m0), bar(full_bar[stage]));
            tma_load_2d(tile_b(stage), tmB, k0, static_cast<int32_t>(n0), bar(full_bar[stage]));
          } else {
            // Both CTAs' bytes complete on the leader's full barrier; only the leader expects them.
            const uint32_t leader_full = mapa_shared(bar(full_bar[stage]), rank & ~1u);
            if (leader) mbar_arrive_expect_tx(bar(full_bar[stage]), 2u * Cfg::kStageBytes);
            tma_load_2d_cg2(tile_a(stage), tmA, k0, static_cast<int32_t>(m0), leader_full);
            tma_load_2d_cg2(tile_b(stage), tmB, k0, static_cast<int32_t>(n0), leader_full);
          }
          if (++stage == ST) { stage = 0; phase ^= 1u; }
        }
      }
      // Producer tail: wait until the MMA warp has released every stage, so no tcgen05.commit
      // arrive is still in flight towards this CTA's shared memory when it exits.
      for (uint32_t i = 0; i < ST; ++i) {
        mbar_wait(bar(empty_bar[stage]), phase ^ 1u);
        if (++stage == ST) { stage = 0; phase ^= 1u; }
      }
    }
    __syncwarp();
  } else if (warp == 1) {
    // ---- MMA issuer (the leader CTA's for a pair) ----
    if (leader && elect_one()) {
      const uint16_t pair_mask = static_cast<uint16_t>(3u << (rank & ~1u));
      uint32_t stage = 0, phase = 0, acc = 0;
      for (uint32_t tile = cluster; tile < num_tiles; tile += num_clusters, ++acc) {
        const uint32_t b = acc & 1u, acc_phase = (acc >> 1) & 1u;
        mbar_wait(bar(tempty_bar[b]), acc_phase ^ 1u);  // epilogue drained this accumulator
        tc_fence_after();
        const uint32_t d_tmem = tbase + b * Cfg::kAccCols;
        for (uint32_t kt = 0; kt < k_tiles; ++kt) {
          mbar_wait(bar(full_bar[stage]), phase);  // TMA bytes landed
          tc_fence_after();
          const uint64_t da = tile_desc(tile_a(stage), bug), db = tile_desc(tile_b(stage), bug);
          for (uint32_t j = 0; j < Cfg::kMmasPerStage; ++j) {
            const uint64_t step = (j * Cfg::kMmaKBytes) >> 4;  // start address field += 2 per MMA
            mma_ss<Cfg::kKind, CG>(d_tmem, da + step, db + step, Cfg::kIdesc, (kt | j) != 0);
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
    const uint32_t q = warp % 4u;  // lane quarter this warp may access
    uint32_t acc = 0;
    for (uint32_t tile = cluster; tile < num_tiles; tile += num_clusters, ++acc) {
      const uint32_t b = acc & 1u, acc_phase = (acc >> 1) & 1u;
      const uint32_t row = (tile % tiles_m) * Cfg::kBlockM * CG + v * Cfg::kBlockM + 32u * q + lane;
      const uint32_t n0 = (tile / tiles_m) * Cfg::kBlockN;
      mbar_wait(bar(tfull_bar[b]), acc_phase);
      tc_fence_after();
      const uint32_t t_row = tbase + ((32u * q) << 16) + b * Cfg::kAccCols;
      uint8_t* drow = D + (static_cast<uint64_t>(row) * N + n0) * Cfg::kDBytes;
      for (uint32_t c = 0; c < Cfg::kBlockN; c += 32) {
        if constexpr (Cfg::kDBytes == 4) {
          uint32_t r[32];
          tmem_ld_32x32b_x32(t_row + c, r);
          uint4* dst = reinterpret_cast<uint4*>(drow + c * 4u);
          for (uint32_t i = 0; i < 8; ++i) dst[i] = make_uint4(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
        } else {
          uint32_t r[16];  // two f16 per register (.pack::16b)
          tmem_ld_32x32b_x16_pack16(t_row + c, r);
          uint4* dst = reinterpret_cast<uint4*>(drow + c * 2u);
          for (uint32_t i = 0; i < 4; ++i) dst[i] = make_uint4(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
        }
      }
      // Release the accumulator: the loads above completed (wait::ld), order them before the
      // arrive that lets the MMA warp overwrite the buffer (§9.7.16.6.4 pattern e).
      tc_fence_before();
      __syncwarp();
      if (lane == 0) {
        if constexpr (CG == 1) mbar_arrive(bar(tempty_bar[b]));
        else mbar_arrive_cluster(mapa_shared(bar(tempty_bar[b]), rank & ~1u));
      }
    }
  }

  // ---- teardown: every TMEM access of both CTAs is done before the dealloc ----
  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  tc_fence_after();
  if (warp == 1) tmem_dealloc<CG>(tbase, Cfg::kTmemCols);
}

}  // namespace tck

#define TCK_GEMM_ENTRY(NAME, KIND, CG, ATYPE, DTYPE, IN_BYTES)                                  \
  extern "C" __global__ void __launch_bounds__(192, 1)                                          \
      NAME(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,    \
           uint8_t* D, uint32_t M, uint32_t N, uint32_t K, uint32_t bug) {                      \
    tck::gemm_ws<tck::GemmConfig<tck::Kind::KIND, CG, ATYPE, DTYPE, IN_BYTES>>(&tmA, &tmB, D, M, \
                                                                               N, K, bug);      \
  }

// (a) one CTA: bf16 -> f32 and e4m3 -> f32
TCK_GEMM_ENTRY(gemm_bf16_f32, F16, 1, 1, 1, 2)
TCK_GEMM_ENTRY(gemm_e4m3_f32, F8F6F4, 1, 0, 1, 1)
// (b) CTA pair (cta_group::2, cluster of 2)
TCK_GEMM_ENTRY(gemm_bf16_f32_2cta, F16, 2, 1, 1, 2)
TCK_GEMM_ENTRY(gemm_e4m3_f32_2cta, F8F6F4, 2, 0, 1, 1)
// (c) f16 accumulate (f16 x f16 -> f16 D) and integer (s8 x s8 -> s32)
TCK_GEMM_ENTRY(gemm_f16_f16, F16, 1, 0, 0, 2)
TCK_GEMM_ENTRY(gemm_s8_s32, I8, 1, 1, 2, 1)
TCK_GEMM_ENTRY(gemm_f16_f16_2cta, F16, 2, 0, 0, 2)
TCK_GEMM_ENTRY(gemm_s8_s32_2cta, I8, 2, 1, 2, 1)
