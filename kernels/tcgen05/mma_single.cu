// Single-instruction tcgen05.mma kernels: one template, instantiated once per instruction form
// (kind x A source x cta_group, plus .ws), everything else a runtime parameter so one kernel covers
// every shape, type, layout and swizzle of its form. See README.md for the parameter list, the
// launch specs (specs/) and what each spec must produce.
//
// What one launch does (one CTA of 128 threads, or a cluster of 2 for cta_group::2):
//   1. warp 0 allocates TMEM (tcgen05.alloc), thread 0 initialises the completion mbarrier;
//   2. all threads copy A and B from global memory with ORDINARY loads (no TMA, so TMA bugs cannot
//      hide tensor-core bugs) into shared memory in the canonical layout asked for, computing the
//      swizzled addresses themselves (umma_layout.h), then fence.proxy.async;
//      A from tensor memory: tcgen05.st (or tcgen05.cp from a staging tile) instead;
//      optional C: tcgen05.st of C into D (then enable-input-d is true from the first MMA);
//   3. one thread issues the chain of `ksteps` MMAs along K (the leader CTA for cta_group::2),
//      then tcgen05.commit to the mbarrier (multicast to both CTAs for cta_group::2);
//   4. everyone waits on the mbarrier, reads D with tcgen05.ld in the shape asked for, stores it;
//   5. tcgen05.dealloc.
// Global operands are row-major A[M][K] and B[N][K] (K contiguous, whatever the shared-memory
// major-ness), D[M][N] and C[M][N]: D = A * B^T (+ C).
#include <cstdint>

#include "tc_ptx.cuh"
#include "operand_fill.h"
#include "umma_layout.h"

namespace tck {

// Bits of the `flags` parameter.
enum : uint32_t {
  kNegA = 1u << 0,        // idesc bit 13
  kNegB = 1u << 1,        // idesc bit 14
  kSaturate = 1u << 2,    // idesc bit 3 (kind::i8)
  kAccumulateC = 1u << 3, // D := C via tcgen05.st, then every MMA has enable-input-d = true
  kUseScale = 1u << 4,    // the first MMA carries scale-input-d = `scale_d` (f16/tf32)
  kAFillCp = 1u << 5,     // A from TMEM: filled by tcgen05.cp from a staging tile, not tcgen05.st
  kPack16 = 1u << 6,      // 16-bit D read with tcgen05.ld .32x32b.pack::16b
};

// f8f6f4 type codes (Table 42) and their storage.
enum : uint32_t { kE4M3 = 0, kE5M2 = 1, kE2M3 = 3, kE3M2 = 4, kE2M1 = 5 };

// Bits of one element in global memory / in a K-major chunk: 4 and 6 are the f8f6f4 sub-byte types
// (global: e2m1x2 packed two per byte, low nibble first; e2m3/e3m2 one per byte, low 6 bits).
template <Kind K>
__device__ __forceinline__ uint32_t elem_bits(uint32_t type) {
  if constexpr (K == Kind::F16) return 16;
  else if constexpr (K == Kind::TF32) return 32;
  else if constexpr (K == Kind::I8) return 8;
  else return type == kE2M1 ? 4u : (type == kE2M3 || type == kE3M2) ? 6u : 8u;
}

template <Kind K>
__device__ __forceinline__ constexpr uint32_t kstep_elems() {
  return K == Kind::F16 ? 16u : K == Kind::TF32 ? 8u : 32u;
}

__device__ __forceinline__ void st_shared_v4(uint32_t addr, const uint32_t (&w)[4]) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};"
               :: "r"(addr), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]) : "memory");
}

// Copies rows [row0, row0 + L.rows) of the global operand `g` into the tile at shared address
// `tile` in layout L. `row_of` remaps tile rows (used to stage A for tcgen05.cp by TMEM lane);
// rows it rejects are zero.
template <class RowOf>
__device__ void fill_tile(const OperandLayout& L, uint32_t tile, const uint8_t* g, uint32_t bits,
                          uint32_t row0, RowOf row_of) {
  const uint32_t kt = k_total(L);
  const uint32_t row_bytes = global_row_bytes(bits, kt);
  if (!L.mn_major) {
    const uint32_t kchunks = 2u * L.ksteps;
    for (uint32_t idx = threadIdx.x; idx < L.rows * kchunks; idx += blockDim.x) {
      const uint32_t r = idx / kchunks, kc = idx % kchunks;
      uint32_t w[4] = {0, 0, 0, 0};
      uint32_t src;
      if (row_of(r, &src)) kmajor_chunk(g, bits, row_bytes, row0 + src, kc, w);
      st_shared_v4(swizzle_addr(tile + chunk_offset(L, r, kc), L.lt), w);
    }
  } else {
    const uint32_t rchunks = L.rows * L.ebytes / 16u;
    const uint8_t* gr = g + row0 * row_bytes;
    for (uint32_t idx = threadIdx.x; idx < rchunks * kt; idx += blockDim.x) {
      const uint32_t k = idx / rchunks, rc = idx % rchunks;
      uint32_t w[4];
      mnmajor_chunk(gr, L.ebytes, row_bytes, rc, k, w);
      st_shared_v4(swizzle_addr(tile + chunk_offset(L, rc, k), L.lt), w);
    }
  }
}

struct IdentityRows {
  __device__ bool operator()(uint32_t r, uint32_t* src) const { *src = r; return true; }
};

// Stores one D cell read from TMEM: f16 D keeps its value in the low half of the cell (§9.7.16.10.4.1).
__device__ __forceinline__ void store_d(uint8_t* d, uint32_t dbytes, uint32_t layout, uint32_t n,
                                        uint32_t v, uint32_t lane, uint32_t col, uint32_t val) {
  uint32_t mm, nn;
  if (!d_element(layout, n, v, lane, col, &mm, &nn)) return;
  if (dbytes == 2) reinterpret_cast<uint16_t*>(d)[mm * n + nn] = static_cast<uint16_t>(val);
  else reinterpret_cast<uint32_t*>(d)[mm * n + nn] = val;
}

// Warp w reads its lane quarter [32w, 32w+32) (§9.7.16.8.1) of D's columns in chunks of 8.
// Register maps per shape (t = lane id in the warp, j = register): docs/tensor_memory.md §3.
__device__ void read_d(uint32_t tbase, uint32_t layout, uint32_t n, uint32_t v, uint32_t shape,
                       bool pack16, uint32_t dbytes, uint8_t* d) {
  const uint32_t w = threadIdx.x / 32u, t = threadIdx.x % 32u;
  const uint32_t cols = d_columns(layout, n);
  // Layout F puts rows only in the lower 16 lanes of each quarter: the 16-lane shapes read those.
  const uint32_t halves = layout == kDLayoutF ? 1u : 2u;
#pragma unroll 1
  for (uint32_t c0 = 0; c0 < cols; c0 += 8) {
    if (pack16) {
      uint32_t r[4];
      tmem_ld_32x32b_x4_pack16(tbase + ((32u * w) << 16) + c0, r);
      for (uint32_t j = 0; j < 4; ++j) {
        store_d(d, dbytes, layout, n, v, 32u * w + t, c0 + 2u * j, r[j] & 0xFFFFu);
        store_d(d, dbytes, layout, n, v, 32u * w + t, c0 + 2u * j + 1u, r[j] >> 16);
      }
    } else if (shape == kLd32x32b) {
      uint32_t r[8];
      tmem_ld_32x32b_x8(tbase + ((32u * w) << 16) + c0, r);
      for (uint32_t j = 0; j < 8; ++j) {
        uint32_t lane, col;
        ld_map(kLd32x32b, t, j, &lane, &col);
        store_d(d, dbytes, layout, n, v, 32u * w + lane, c0 + col, r[j]);
      }
    } else {
#pragma unroll 1
      for (uint32_t h = 0; h < halves; ++h) {
        const uint32_t l0 = 32u * w + 16u * h;
        const uint32_t ta = tbase + (l0 << 16) + c0;
        uint32_t r[4];
        if (shape == kLd16x64b) tmem_ld_16x64b_x4(ta, r);
        else if (shape == kLd16x128b) tmem_ld_16x128b_x2(ta, r);
        else if (shape == kLd16x256b) tmem_ld_16x256b_x1(ta, r);
        else tmem_ld_16x32bx2_x4(ta, r);
        for (uint32_t j = 0; j < 4; ++j) {
          uint32_t lane, col;
          ld_map(shape, t, j, &lane, &col);
          store_d(d, dbytes, layout, n, v, l0 + lane, c0 + col, r[j]);
        }
      }
    }
  }
}

// The MMA of step s, in the form the flags ask for.
template <Kind K, bool TS, int CG, bool WS>
__device__ __forceinline__ void issue_mma(uint32_t dt, uint64_t adesc, uint32_t atmem, uint64_t bdesc,
                                          uint32_t idesc, uint32_t en, const uint32_t* mask,
                                          bool scaled, uint32_t scale) {
  if constexpr (WS) {
    const uint64_t zcm = (static_cast<uint64_t>(mask[1]) << 32) | mask[0];
    if (zcm == 0) mma_ws_ss<K>(dt, adesc, bdesc, idesc, en);
    else mma_ws_ss_zcm<K>(dt, adesc, bdesc, idesc, en, zcm);
  } else if constexpr (K == Kind::F16 || K == Kind::TF32) {
    if (scaled) {
      // scale-input-d is an immediate: one instruction per value.
#define TCK_SCALE_CASE(S)                                                            \
  case S:                                                                            \
    if constexpr (TS) mma_ts_scale<K, CG, S>(dt, atmem, bdesc, idesc, en, mask);     \
    else mma_ss_scale<K, CG, S>(dt, adesc, bdesc, idesc, en, mask);                  \
    break;
      switch (scale) {
        TCK_SCALE_CASE(0) TCK_SCALE_CASE(1) TCK_SCALE_CASE(2) TCK_SCALE_CASE(3)
        TCK_SCALE_CASE(4) TCK_SCALE_CASE(5) TCK_SCALE_CASE(6) TCK_SCALE_CASE(7)
        TCK_SCALE_CASE(8) TCK_SCALE_CASE(9) TCK_SCALE_CASE(10) TCK_SCALE_CASE(11)
        TCK_SCALE_CASE(12) TCK_SCALE_CASE(13) TCK_SCALE_CASE(14) TCK_SCALE_CASE(15)
        default: __trap();
      }
#undef TCK_SCALE_CASE
      return;
    }
    if constexpr (TS) mma_ts_mask<K, CG>(dt, atmem, bdesc, idesc, en, mask);
    else mma_ss_mask<K, CG>(dt, adesc, bdesc, idesc, en, mask);
  } else {
    if constexpr (TS) mma_ts_mask<K, CG>(dt, atmem, bdesc, idesc, en, mask);
    else mma_ss_mask<K, CG>(dt, adesc, bdesc, idesc, en, mask);
  }
}

__device__ __forceinline__ uint32_t align_up(uint32_t x, uint32_t a) { return (x + a - 1u) / a * a; }

// Columns to allocate: a power of two in [32, 512] (§9.7.16.7.1). A in TMEM lives at column 256.
__device__ __forceinline__ uint32_t tmem_columns(uint32_t dcols, bool ts) {
  if (ts) return 512;
  uint32_t c = 32;
  while (c < dcols) c *= 2;
  return c;
}

template <Kind K, bool TS, int CG, bool WS>
__device__ void mma_single(const uint8_t* A, const uint8_t* B, const uint8_t* C, uint8_t* D,
                           uint32_t M, uint32_t N, uint32_t ksteps, uint32_t atype,
                           uint32_t btype, uint32_t dtype, uint32_t a_major, uint32_t b_major,
                           uint32_t a_layout, uint32_t b_layout, uint32_t variant, uint32_t flags,
                           uint32_t scale_d, uint32_t ld_shape, const uint32_t* mask) {
  extern __shared__ uint8_t smem_dyn[];
  __shared__ alignas(8) uint64_t mma_done;  // completion mbarrier (same offset in both CTAs)
  __shared__ uint32_t tmem_slot;            // tcgen05.alloc writes the TMEM address here

  const uint32_t warp = threadIdx.x / 32u;
  const uint32_t rank = CG == 2 ? cluster_ctarank() : 0u;
  const uint32_t v = rank & 1u;  // position in the CTA pair
  const bool leader = v == 0;

  // Operand tiles of this CTA: for cta_group::2 each CTA holds M/2 rows of A and N/2 rows of B
  // at the same shared-memory offsets (§9.7.16.10, CTA pair).
  const uint32_t abits = elem_bits<K>(atype), bbits = elem_bits<K>(btype);
  const uint32_t a_eb = abits >= 8 ? abits / 8u : 1u, b_eb = bbits >= 8 ? bbits / 8u : 1u;
  const uint32_t arows = M / CG, brows = N / CG;
  const OperandLayout LA = make_operand_layout(a_layout, a_major, arows, a_eb, kstep_elems<K>(),
                                               ksteps, variant & 1u);
  const OperandLayout LB = make_operand_layout(b_layout, b_major, brows, b_eb, kstep_elems<K>(),
                                               ksteps, (variant >> 1) & 1u);
  const uint32_t layout = d_layout(M, CG, WS ? 1u : 0u);
  // tcgen05.cp exists here only as cta_group::1 (a kernel must not mix cta_group values).
  const bool a_cp = TS && CG == 1 && (flags & kAFillCp);
  // The tcgen05.cp staging tile: 128 lanes x 32 B per step, K-major, no swizzle.
  const OperandLayout LS = make_operand_layout(kSwizzleNone, 0, 128, a_eb, kstep_elems<K>(),
                                               ksteps, 0);

  const uint32_t base = align_up(smem_u32(smem_dyn), 1024);
  const uint32_t tile_a = base;
  const uint32_t tile_b = tile_a + align_up(TS ? (a_cp ? LS.bytes : 0u) : LA.bytes, 1024);
  const uint32_t smem_end = tile_b + LB.bytes;
  if (blockDim.x != 128 || smem_end > smem_u32(smem_dyn) + dynamic_smem_size()) __trap();
  if constexpr (CG == 2) {
    uint32_t n;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    if (n != 2) __trap();
  }

  const uint32_t dcols = d_columns(layout, N);
  const uint32_t ncols = tmem_columns(dcols, TS);
  const uint32_t a_col = 256;
  if (warp == 0) {
    tmem_alloc<CG>(smem_u32(&tmem_slot), ncols);
    tmem_relinquish<CG>();
  }
  if (threadIdx.x == 0) {
    mbar_init(smem_u32(&mma_done), 1);
    fence_mbarrier_init();
  }

  // Operands into shared memory, by ordinary loads and stores.
  const uint32_t kt = ksteps * kstep_elems<K>();
  if constexpr (!TS) fill_tile(LA, tile_a, A, abits, v * arows, IdentityRows{});
  if (a_cp) {
    fill_tile(LS, tile_a, A, abits, 0, [layout, v](uint32_t lane, uint32_t* m) {
      return a_row_of_lane(layout, v, lane, m);
    });
  }
  fill_tile(LB, tile_b, B, bbits, v * brows, IdentityRows{});
  fence_proxy_async_smem();  // generic st.shared -> async-proxy reads by tcgen05.mma / .cp

  // Everyone sees the allocation (and the peer's barrier) before TMEM is touched.
  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  tc_fence_after();
  const uint32_t tbase = tmem_slot;
  const uint32_t lane0 = (32u * warp) << 16;

  bool stored = false;
  if (TS && !a_cp) {  // A rows into TMEM lanes with tcgen05.st.32x32b
    const uint32_t row_bytes = global_row_bytes(abits, kt);
    uint32_t m;
    const bool has = a_row_of_lane(layout, v, 32u * warp + threadIdx.x % 32u, &m);
#pragma unroll 1
    for (uint32_t s = 0; s < ksteps; ++s) {
      uint32_t w[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      if (has) a_tmem_words(A, abits, row_bytes, m, s, w);
      tmem_st_32x32b_x8(tbase + lane0 + a_col + 8u * s, w);
    }
    stored = true;
  }
  const uint32_t dbytes = dtype == 0 ? 2u : 4u;  // F16=0 is the only 16-bit D
  if (flags & kAccumulateC) {  // D := C, cell by cell through the data-path layout
    const uint32_t lane = 32u * warp + threadIdx.x % 32u;
#pragma unroll 1
    for (uint32_t c0 = 0; c0 < dcols; c0 += 8) {
      uint32_t w[8];
      for (uint32_t j = 0; j < 8; ++j) {
        uint32_t mm, nn;
        w[j] = 0;
        if (d_element(layout, N, v, lane, c0 + j, &mm, &nn))
          w[j] = dbytes == 2 ? reinterpret_cast<const uint16_t*>(C)[mm * N + nn]
                             : reinterpret_cast<const uint32_t*>(C)[mm * N + nn];
      }
      tmem_st_32x32b_x8(tbase + lane0 + c0, w);
    }
    stored = true;
  }
  if (stored) tmem_wait_st();
  // tcgen05.st by every warp -> tcgen05.mma by one thread (of the leader CTA): the
  // fence::before / barrier / fence::after pattern of §9.7.16.6.4.
  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  tc_fence_after();

  if (leader && threadIdx.x == 0) {
    const uint32_t idesc = make_idesc(M, N, dtype, atype, btype, a_major, b_major, flags & kNegA ? 1u : 0u,
                                      flags & kNegB ? 1u : 0u, flags & kSaturate ? 1u : 0u);
    if constexpr (TS && CG == 1) {  // cp -> mma, same thread: a pipelined pair (§9.7.16.6.2)
#pragma unroll 1
      for (uint32_t s = 0; a_cp && s < ksteps; ++s) {
        const uint64_t sd = smem_desc(LS, tile_a, s);
        if (abits == 4) tmem_cp_128x256b_b4(tbase + a_col + 8u * s, sd);
        else if (abits == 6) tmem_cp_128x256b_b6(tbase + a_col + 8u * s, sd);
        else tmem_cp_128x256b(tbase + a_col + 8u * s, sd);
      }
    }
#pragma unroll 1
    for (uint32_t s = 0; s < ksteps; ++s) {
      const uint32_t en = (s > 0 || (flags & kAccumulateC)) ? 1u : 0u;
      issue_mma<K, TS, CG, WS>(tbase, smem_desc(LA, tile_a, s), tbase + a_col + 8u * s,
                               smem_desc(LB, tile_b, s), idesc, en, mask,
                               s == 0 && (flags & kUseScale), scale_d);
    }
    if constexpr (CG == 2) tc_commit_multicast<2>(smem_u32(&mma_done), uint16_t(3u << (rank & ~1u)));
    else tc_commit<1>(smem_u32(&mma_done));
  }

  mbar_wait(smem_u32(&mma_done), 0);
  tc_fence_after();
  read_d(tbase, layout, N, v, ld_shape, (flags & kPack16) != 0, dbytes, D);

  tc_fence_before();
  if constexpr (CG == 2) cluster_sync(); else __syncthreads();
  if (warp == 0) tmem_dealloc<CG>(tbase, ncols);
}

}  // namespace tck

// One entry per instruction form. Every entry has the same parameter list (README.md).
#define TCK_SINGLE_PARAMS                                                                      \
  const uint8_t *A, const uint8_t *B, const uint8_t *C, uint8_t *D, uint32_t M, uint32_t N,     \
      uint32_t ksteps, uint32_t atype, uint32_t btype, uint32_t dtype, uint32_t a_major,       \
      uint32_t b_major, uint32_t a_layout, uint32_t b_layout, uint32_t variant, uint32_t flags, \
      uint32_t scale_d, uint32_t ld_shape, uint32_t m0, uint32_t m1, uint32_t m2, uint32_t m3,  \
      uint32_t m4, uint32_t m5, uint32_t m6, uint32_t m7
#define TCK_SINGLE_ARGS                                                                        \
  A, B, C, D, M, N, ksteps, atype, btype, dtype, a_major, b_major, a_layout, b_layout, variant, \
      flags, scale_d, ld_shape, mask

#define TCK_SINGLE_ENTRY(NAME, KIND, TS, CG, WS)                                    \
  extern "C" __global__ void __launch_bounds__(128, 1) NAME(TCK_SINGLE_PARAMS) {    \
    const uint32_t mask[8] = {m0, m1, m2, m3, m4, m5, m6, m7};                      \
    tck::mma_single<tck::Kind::KIND, TS, CG, WS>(TCK_SINGLE_ARGS);                  \
  }

TCK_SINGLE_ENTRY(tc_mma_f16_ss_cg1, F16, false, 1, false)
TCK_SINGLE_ENTRY(tc_mma_f16_ts_cg1, F16, true, 1, false)
TCK_SINGLE_ENTRY(tc_mma_f16_ss_cg2, F16, false, 2, false)
TCK_SINGLE_ENTRY(tc_mma_f16_ts_cg2, F16, true, 2, false)
TCK_SINGLE_ENTRY(tc_mma_tf32_ss_cg1, TF32, false, 1, false)
TCK_SINGLE_ENTRY(tc_mma_tf32_ts_cg1, TF32, true, 1, false)
TCK_SINGLE_ENTRY(tc_mma_tf32_ss_cg2, TF32, false, 2, false)
TCK_SINGLE_ENTRY(tc_mma_tf32_ts_cg2, TF32, true, 2, false)
TCK_SINGLE_ENTRY(tc_mma_f8f6f4_ss_cg1, F8F6F4, false, 1, false)
TCK_SINGLE_ENTRY(tc_mma_f8f6f4_ts_cg1, F8F6F4, true, 1, false)
TCK_SINGLE_ENTRY(tc_mma_f8f6f4_ss_cg2, F8F6F4, false, 2, false)
TCK_SINGLE_ENTRY(tc_mma_f8f6f4_ts_cg2, F8F6F4, true, 2, false)
TCK_SINGLE_ENTRY(tc_mma_i8_ss_cg1, I8, false, 1, false)
TCK_SINGLE_ENTRY(tc_mma_i8_ts_cg1, I8, true, 1, false)
TCK_SINGLE_ENTRY(tc_mma_i8_ss_cg2, I8, false, 2, false)
TCK_SINGLE_ENTRY(tc_mma_i8_ts_cg2, I8, true, 2, false)
TCK_SINGLE_ENTRY(tc_mma_ws_f16_ss, F16, false, 1, true)
TCK_SINGLE_ENTRY(tc_mma_ws_tf32_ss, TF32, false, 1, true)
TCK_SINGLE_ENTRY(tc_mma_ws_f8f6f4_ss, F8F6F4, false, 1, true)
TCK_SINGLE_ENTRY(tc_mma_ws_i8_ss, I8, false, 1, true)
