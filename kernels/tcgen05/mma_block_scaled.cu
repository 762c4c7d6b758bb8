// Single-instruction block-scaled tcgen05.mma kernels (PTX ISA §9.7.16.10.7, §9.7.16.10.9.1): one
// template instantiated per instruction form (A from shared or tensor memory x cta_group), the kind
// and scale vector size (`variant`, tc_ptx_mx.cuh), shapes, types and the way the scale factors
// reach TMEM runtime parameters. README.md "Block-scaled single-instruction kernels" lists them.
//
// What one launch does (one CTA of 128 threads, or a cluster of 2 for cta_group::2):
//   1. warp 0 allocates all 512 TMEM columns; thread 0 initialises the completion mbarrier;
//   2. all threads copy A and B from global memory with ordinary loads into shared memory in the
//      K-major canonical layout asked for (fp4 of kind::mxf4/mxf4nvf4 two per byte, fp4/fp6 of
//      kind::mxf8f6f4 in the padded 16-per-16-byte format, §9.7.16.10.4), then fence.proxy.async;
//      A from TMEM: tcgen05.st of each row into its data-path lane (8-bit containers for
//      kind::mxf8f6f4, two fp4 per byte for kind::mxf4*), or tcgen05.cp.128x256b (decompressing
//      .b8x16.b4x16_p64 / .b6x16_p32 for fp4 / fp6) from a staging tile;
//   3. the scale factors go to TMEM (sf_mode):
//        0  tcgen05.st by every warp into its own lanes, one 32-bit word of four consecutive scale
//           blocks per row at fixed columns (the published B200 probe writes them this way);
//        2  the same by warp 0 only (the other sub-partitions hold no scale factors: a misuse);
//        1  tcgen05.cp from CUTLASS's scale-factor chunks in shared memory (128 rows x 4 scale
//           blocks = 512 bytes, byte 16*(r%32) + 4*(r/32) + j): .32x128b.warpx4 into all four
//           sub-partitions, and for the CTA-pair M = 128 data path B's scales .64x128b.warpx2::01_23
//           (the left half of N to sub-partitions 0-1, the right half to 2-3);
//      with C: tcgen05.st of C into D;
//   4. one thread (of the even CTA) issues `ksteps` MMAs along K; MMA s reads word (s*nsf)/4 of the
//      scale factors at SF_ID (s*nsf)%4 (DeepGEMM's order: four 1X MMAs, two 2X, one 4X per word),
//      then tcgen05.commit (multicast to both CTAs for cta_group::2);
//   5. everyone waits, reads its lane quarter of D with tcgen05.ld.32x32b, stores D; dealloc.
// Global operands: A[M][K], B[N][K] codes (e2m1 two per byte, low nibble first; e2m3/e3m2 one per
// byte), SFA[M][K/blk], SFB[N][K/blk] scale codes, C and D[M][N] f32: D = (A*sA) (B*sB)^T (+ C).
#include <cstdint>

#include "operand_fill.h"
#include "tc_ptx.cuh"
#include "tc_ptx_mx.cuh"
#include "tile_fill.cuh"
#include "umma_layout.h"

namespace tck {

enum : uint32_t {
  kBsNegA = 1u << 0,
  kBsNegB = 1u << 1,
  kBsAccumulateC = 1u << 3,
  kBsAFillCp = 1u << 5,      // A in TMEM by tcgen05.cp (cta_group::1), not tcgen05.st
  kBsSfIdInAddr = 1u << 6,   // also put the SF_ID in bits 31:30 of the scale addresses (CUTLASS)
};

// TMEM columns: D at 0, A (from TMEM) at 256, scale_A words at 384 (4 columns each), scale_B
// words at 416 (8 columns each).
constexpr uint32_t kColA = 256, kColSfa = 384, kColSfb = 416;

// Element bits in global memory / shared memory of a block-scaled operand type code.
__device__ __forceinline__ uint32_t bs_bits(uint32_t variant, uint32_t type) {
  if (variant > kBsMxf8Block32) return 4;  // mxf4 kinds: e2m1 only
  return type == 5 ? 4u : (type == 3 || type == 4) ? 6u : 8u;
}

// Word `wd` (scale blocks 4wd .. 4wd+3) of the scale factors of row `r` of a [rows][nblk] array.
__device__ __forceinline__ uint32_t sf_word(const uint8_t* sf, uint32_t nblk, uint32_t r, uint32_t wd) {
  uint32_t w = 0;
  for (uint32_t j = 0; j < 4; ++j) {
    const uint32_t b = 4u * wd + j;
    w |= uint32_t(b < nblk ? sf[r * nblk + b] : 0u) << (8u * j);
  }
  return w;
}

// Which column of B the scale_B cell (lane, column c) of CTA v holds in data-path layout `layout`:
// sub-partitions 2-3 of layout B hold the right half of N.
__device__ __forceinline__ uint32_t sfb_n_of(uint32_t layout, uint32_t n, uint32_t lane, uint32_t c) {
  return 32u * c + lane % 32u + (layout == kDLayoutB && lane >= 64u ? n / 2u : 0u);
}

template <bool TS, int CG>
__device__ void mma_block_scaled(const uint8_t* A, const uint8_t* B, const uint8_t* SFA, const uint8_t* SFB,
                                 const uint8_t* C, uint8_t* D, uint32_t M, uint32_t N, uint32_t ksteps,
                                 uint32_t variant, uint32_t atype, uint32_t btype, uint32_t scale_type,
                                 uint32_t sf_mode, uint32_t flags, uint32_t a_layout, uint32_t b_layout) {
  extern __shared__ uint8_t smem_dyn[];
  __shared__ alignas(8) uint64_t mma_done;
  __shared__ uint32_t tmem_slot;

  const uint32_t warp = threadIdx.x / 32u, t = threadIdx.x % 32u;
  const uint32_t rank = CG == 2 ? cluster_ctarank() : 0u;
  const uint32_t v = rank & 1u;
  const bool leader = v == 0;
  if (variant >= kBsVariants) __trap();
  const bool dense4 = variant > kBsMxf8Block32;
  const uint32_t nsf = bs_nsf(variant), kstep = bs_kstep(variant);
  const uint32_t kt = ksteps * kstep, nblk = ksteps * nsf, blk = kstep / nsf;
  const uint32_t nwords = (nblk + 3u) / 4u;
  const uint32_t abits = bs_bits(variant, atype), bbits = bs_bits(variant, btype);
  const uint32_t arows = M / CG, brows = N / CG;
  const uint32_t layout = d_layout(M, CG, 0);
  const uint32_t dcols = d_columns(layout, N);
  const OperandLayout LA = make_operand_layout(a_layout, 0, arows, 1, kstep, ksteps, 0);
  const OperandLayout LB = make_operand_layout(b_layout, 0, brows, 1, kstep, ksteps, 0);
  const bool a_cp = TS && CG == 1 && (flags & kBsAFillCp);
  const OperandLayout LS = make_operand_layout(kSwizzleNone, 0, 128, 1, kstep, ksteps, 0);

  const uint32_t base = (smem_u32(smem_dyn) + 1023u) / 1024u * 1024u;
  const uint32_t tile_a = base;
  const uint32_t a_bytes = TS ? (a_cp ? LS.bytes : 0u) : LA.bytes;
  const uint32_t tile_b = tile_a + (a_bytes + 1023u) / 1024u * 1024u;
  const uint32_t sf_tile = tile_b + (LB.bytes + 1023u) / 1024u * 1024u;  // scale-factor chunks
  const uint32_t sf_bytes = sf_mode == 1 ? nwords * (512u + 1024u) : 0u;
  if (blockDim.x != 128 || sf_tile + sf_bytes > smem_u32(smem_dyn) + dynamic_smem_size()) __trap();
  if (kColA + 8u * ksteps > kColSfa || kColSfa + 4u * nwords > kColSfb || kColSfb + 8u * nwords > 512u) __trap();
  if constexpr (CG == 2) {
    uint32_t n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    if (n != 2) __trap();
  }

  if (warp == 0) {
    tmem_alloc<CG>(smem_u32(&tmem_slot), 512);
    tmem_relinquish<CG>();
  }
  if (threadIdx.x == 0) {
    mbar_init(smem_u32(&mma_done), 1);
    fence_mbarrier_init();
  }

  if constexpr (!TS) bs_fill(LA, tile_a, A, dense4, abits, kt, v * arows, AllRows{});
  if (a_cp)
    bs_fill(LS, tile_a, A, dense4, abits, kt, 0, [layout, v](uint32_t lane, uint32_t* m) {
      return a_row_of_lane(layout, v, lane, m);
    });
  bs_fill(LB, tile_b, B, dense4, bbits, kt, v * brows, AllRows{});
  if (sf_mode == 1) {
    // CUTLASS scale-factor chunks, per word: 512 bytes of scale_A (this CTA's rows), then scale_B:
    // two 128-column chunks, or for layout B one 64-row image for .64x128b.warpx2::01_23 (row rr,
    // column c holds n = 32c + rr%32 of the left half of N for rr < 32, of the right half above).
    for (uint32_t idx = threadIdx.x; idx < nwords * 128u; idx += blockDim.x) {
      const uint32_t wd = idx / 128u, r = idx % 128u, chunk = sf_tile + wd * 1536u;
      const uint32_t wa = r < arows ? sf_word(SFA, nblk, v * arows + r, wd) : 0u;
      for (uint32_t j = 0; j < 4; ++j) st_shared_u8(chunk + 16u * (r % 32u) + 4u * (r / 32u) + j, wa >> (8u * j));
      if (layout != kDLayoutB) {
        for (uint32_t h = 0; h < 2; ++h) {
          const uint32_t n = 128u * h + r;
          const uint32_t wb = n < N ? sf_word(SFB, nblk, n, wd) : 0u;
          for (uint32_t j = 0; j < 4; ++j)
            st_shared_u8(chunk + 512u + 512u * h + 16u * (r % 32u) + 4u * (r / 32u) + j, wb >> (8u * j));
        }
      } else if (r < 64u) {
        for (uint32_t c = 0; c < 4; ++c) {
          const uint32_t nl = 32u * c + r % 32u, n = nl + (r >= 32u ? N / 2u : 0u);
          const uint32_t wb = nl < dcols ? sf_word(SFB, nblk, n, wd) : 0u;
          for (uint32_t j = 0; j < 4; ++j) st_shared_u8(chunk + 512u + 16u * r + 4u * c + j, wb >> (8u * j));
        }
      }
    }
  }
  fence_proxy_async_smem();

  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  tc_fence_after();
  const uint32_t tbase = tmem_slot;
  const uint32_t lane0 = (32u * warp) << 16;
  const uint32_t lane = 32u * warp + t;

  if (TS && !a_cp) {  // A rows into TMEM lanes (tcgen05.st.32x32b)
    const uint32_t row_bytes = global_row_bytes(abits, kt);
    uint32_t m;
    const bool has = a_row_of_lane(layout, v, lane, &m);
#pragma unroll 1
    for (uint32_t s = 0; s < ksteps; ++s) {
      uint32_t w[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      if (has) {
        if (dense4) {  // two e2m1 per 8-bit container (§9.7.16.10.4.5): the row's bytes
          const uint8_t* p = A + m * row_bytes + s * 32u;
          for (uint32_t j = 0; j < 8; ++j) w[j] = ld_u32(p + 4u * j);
        } else {
          a_tmem_words(A, abits, row_bytes, m, s, w);
        }
      }
      tmem_st_32x32b_x8(tbase + lane0 + kColA + 8u * s, w);
    }
  }
  // sf_mode 2 (the misuse demo): only warp 0 writes its lanes; sub-partitions 1-3 keep zeros.
  if (sf_mode == 0 || (sf_mode == 2 && warp == 0)) {  // scale factors by tcgen05.st into this warp's lanes
#pragma unroll 1
    for (uint32_t wd = 0; wd < nwords; ++wd) {
      uint32_t wa[4], wb[8];
      for (uint32_t c = 0; c < 4; ++c) {
        const uint32_t r = 32u * c + t;
        wa[c] = r < arows ? sf_word(SFA, nblk, v * arows + r, wd) : 0u;
      }
      for (uint32_t c = 0; c < 8; ++c) {
        const uint32_t n = sfb_n_of(layout, N, lane, c);
        wb[c] = 32u * c + t < dcols && n < N ? sf_word(SFB, nblk, n, wd) : 0u;
      }
      tmem_st_32x32b_x4(tbase + lane0 + kColSfa + 4u * wd, wa);
      tmem_st_32x32b_x8(tbase + lane0 + kColSfb + 8u * wd, wb);
    }
  }
  if (flags & kBsAccumulateC) {  // D := C through the data-path layout
#pragma unroll 1
    for (uint32_t c0 = 0; c0 < dcols; c0 += 8) {
      uint32_t w[8];
      for (uint32_t j = 0; j < 8; ++j) {
        uint32_t mm, nn;
        w[j] = d_element(layout, N, v, lane, c0 + j, &mm, &nn) ? reinterpret_cast<const uint32_t*>(C)[mm * N + nn]
                                                              : 0u;
      }
      tmem_st_32x32b_x8(tbase + lane0 + c0, w);
    }
  }
  tmem_wait_st();
  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  tc_fence_after();

  if (leader && threadIdx.x == 0) {
    // cp -> mma, same thread: pipelined (§9.7.16.6.2).
    if (sf_mode == 1) {
#pragma unroll 1
      for (uint32_t wd = 0; wd < nwords; ++wd) {
        const uint32_t chunk = sf_tile + wd * 1536u;
        // K-major, no swizzle: rows of 16 bytes, 8-row core matrices 128 bytes apart (SBO).
        tmem_cp_32x128b_warpx4<CG>(tbase + kColSfa + 4u * wd, smem_desc_encode(chunk, 16, 128, kSwizzleNone));
        if (layout == kDLayoutB) {
          tmem_cp_64x128b_warpx2_01_23<CG>(tbase + kColSfb + 8u * wd,
                                           smem_desc_encode(chunk + 512u, 16, 128, kSwizzleNone));
        } else {
          tmem_cp_32x128b_warpx4<CG>(tbase + kColSfb + 8u * wd, smem_desc_encode(chunk + 512u, 16, 128, kSwizzleNone));
          tmem_cp_32x128b_warpx4<CG>(tbase + kColSfb + 8u * wd + 4u,
                                     smem_desc_encode(chunk + 1024u, 16, 128, kSwizzleNone));
        }
      }
    }
    if constexpr (TS && CG == 1) {
#pragma unroll 1
      for (uint32_t s = 0; a_cp && s < ksteps; ++s) {
        const uint64_t sd = smem_desc(LS, tile_a, s);
        if (abits == 4 && !dense4) tmem_cp_128x256b_b4(tbase + kColA + 8u * s, sd);
        else if (abits == 6) tmem_cp_128x256b_b6(tbase + kColA + 8u * s, sd);
        else tmem_cp_128x256b(tbase + kColA + 8u * s, sd);
      }
    }
    const uint32_t scale_ue8m0 = scale_type ? 1u : 0u;
#pragma unroll 1
    for (uint32_t s = 0; s < ksteps; ++s) {
      const uint32_t wd = s * nsf / 4u, id = (s * nsf) % 4u;
      const uint32_t idesc = make_idesc_bs(M, N, atype, btype, scale_ue8m0, id, id, flags & kBsNegA ? 1u : 0u,
                                           flags & kBsNegB ? 1u : 0u);
      const uint32_t hi = (flags & kBsSfIdInAddr) ? id << 30 : 0u;
      const uint32_t sfa = (tbase + kColSfa + 4u * wd) | hi, sfb = (tbase + kColSfb + 8u * wd) | hi;
      const uint32_t en = (s > 0 || (flags & kBsAccumulateC)) ? 1u : 0u;
      if constexpr (TS) mma_bs_ts<CG>(variant, tbase, tbase + kColA + 8u * s, smem_desc(LB, tile_b, s), idesc, en, sfa, sfb);
      else mma_bs_ss<CG>(variant, tbase, smem_desc(LA, tile_a, s), smem_desc(LB, tile_b, s), idesc, en, sfa, sfb);
    }
    if constexpr (CG == 2) tc_commit_multicast<2>(smem_u32(&mma_done), uint16_t(3u << (rank & ~1u)));
    else tc_commit<1>(smem_u32(&mma_done));
  }

  mbar_wait(smem_u32(&mma_done), 0);
  tc_fence_after();
#pragma unroll 1
  for (uint32_t c0 = 0; c0 < dcols; c0 += 8) {
    uint32_t r[8];
    tmem_ld_32x32b_x8(tbase + lane0 + c0, r);
    for (uint32_t j = 0; j < 8; ++j) {
      uint32_t mm, nn;
      if (d_element(layout, N, v, lane, c0 + j, &mm, &nn)) reinterpret_cast<uint32_t*>(D)[mm * N + nn] = r[j];
    }
  }
  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  if (warp == 0) tmem_dealloc<CG>(tbase, 512);
}

}  // namespace tck

#define TCK_BS_PARAMS                                                                                  \
  const uint8_t *A, const uint8_t *B, const uint8_t *SFA, const uint8_t *SFB, const uint8_t *C, uint8_t *D, \
      uint32_t M, uint32_t N, uint32_t ksteps, uint32_t variant, uint32_t atype, uint32_t btype,       \
      uint32_t scale_type, uint32_t sf_mode, uint32_t flags, uint32_t a_layout, uint32_t b_layout
#define TCK_BS_ARGS A, B, SFA, SFB, C, D, M, N, ksteps, variant, atype, btype, scale_type, sf_mode, flags, a_layout, b_layout

#define TCK_BS_ENTRY(NAME, TS, CG)                                                \
  extern "C" __global__ void __launch_bounds__(128, 1) NAME(TCK_BS_PARAMS) {      \
    tck::mma_block_scaled<TS, CG>(TCK_BS_ARGS);                                   \
  }

TCK_BS_ENTRY(tc_mma_bs_ss_cg1, false, 1)
TCK_BS_ENTRY(tc_mma_bs_ts_cg1, true, 1)
TCK_BS_ENTRY(tc_mma_bs_ss_cg2, false, 2)
TCK_BS_ENTRY(tc_mma_bs_ts_cg2, true, 2)
