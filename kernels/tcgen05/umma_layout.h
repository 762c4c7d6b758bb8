// Canonical shared-memory operand layouts, descriptors and TMEM data-path maps for tcgen05.mma,
// written from the PTX ISA rules (9.2 numbering; docs/smem_layouts.md and docs/tensor_memory.md §1 paraphrase them):
//   §9.7.16.3   canonical layouts (K-major / MN-major, swizzle none/32B/64B/128B/128B-base-32B)
//   §9.7.16.4.1 shared-memory matrix descriptor (Table 40)
//   §9.7.16.4.2 instruction descriptor, kinds f16/tf32/f8f6f4/i8 (Table 42)
//   §9.7.16.10.5 data-path layouts of D (and A) in tensor memory (layouts A, B, D, E, F, G)
// Host and device code: the kernels place operands with it, and layout_selfcheck.cc checks it on
// the host against worked encodings and an independent reading of the descriptor.
//
// Everything is in bytes and "chunks" (16-byte units: one row of a core matrix). Per MMA, every
// kind consumes 32 bytes of K per row (f16 K=16 x 2 B, tf32 K=8 x 4 B, 8-bit K=32 x 1 B, and fp6/fp4
// K=32 in the padded 16-elements-per-16-B format of §9.7.16.10.4.4): two chunks along K.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define TCK_HD __host__ __device__ __forceinline__ constexpr
#else
#define TCK_HD constexpr inline
#endif

namespace tck {

// Layout-type field, descriptor bits 61-63 (Table 40): 3, 5, 7 are invalid.
enum : uint32_t {
  kSwizzleNone = 0,
  kSwizzle128B_Base32B = 1,  // 128B swizzle with 32-B atomicity; MN-major tf32 only (Table 51)
  kSwizzle128B = 2,
  kSwizzle64B = 4,
  kSwizzle32B = 6,
};

// Bytes per row of a swizzle atom ("W"); a no-swizzle core-matrix row is 16 bytes.
TCK_HD uint32_t swizzle_row_bytes(uint32_t lt) {
  switch (lt) {
    case kSwizzle128B:
    case kSwizzle128B_Base32B: return 128;
    case kSwizzle64B: return 64;
    case kSwizzle32B: return 32;
    default: return 16;
  }
}

// K rows per swizzle atom in MN-major layouts: 8, but 4 for 128B-base-32B (CUTLASS
// Layout_MN_SW128_32B_Atom: 128 B x 4 rows; the PTX figure of §9.7.16.3 shows the same).
TCK_HD uint32_t mn_atom_krows(uint32_t lt) { return lt == kSwizzle128B_Base32B ? 4u : 8u; }

// The swizzle as a function of the absolute shared-memory byte address (CuTe
// Swizzle<B,M,S>(a) = a ^ ((a >> S) & (((1 << B) - 1) << M)); same permutation TMA applies, so
// base_offset = 0 for tiles whose pattern is anchored at absolute address bits; §9.7.16.3 tables).
TCK_HD uint32_t swizzle_addr(uint32_t a, uint32_t lt) {
  switch (lt) {
    case kSwizzle32B: return a ^ ((a >> 3) & 0x10u);           // Swizzle<1,4,3>: bit 4 ^= bit 7
    case kSwizzle64B: return a ^ ((a >> 3) & 0x30u);           // Swizzle<2,4,3>: bits 4-5 ^= 7-8
    case kSwizzle128B: return a ^ ((a >> 3) & 0x70u);          // Swizzle<3,4,3>: bits 4-6 ^= 7-9
    case kSwizzle128B_Base32B: return a ^ ((a >> 2) & 0x60u);  // Swizzle<2,5,2>: bits 5-6 ^= 7-8
    default: return a;
  }
}

// Repeat period of the swizzle pattern in bytes (Table 41): tiles are placed at multiples of it.
TCK_HD uint32_t swizzle_repeat_bytes(uint32_t lt) {
  switch (lt) {
    case kSwizzle128B: return 1024;
    case kSwizzle128B_Base32B: return 512;
    case kSwizzle64B: return 512;
    case kSwizzle32B: return 256;
    default: return 128;
  }
}

// One operand tile (A: rows = M of this CTA; B: rows = N of this CTA) for `ksteps` chained MMAs.
// `variant` picks between the two packed orders each canonical layout admits (which of LBO/SBO is
// the small stride), so both descriptor fields get exercised with non-trivial values.
struct OperandLayout {
  uint32_t lt;        // layout type code (above)
  uint32_t mn_major;  // 0: K-major, 1: MN-major (idesc transpose bit = 1)
  uint32_t rows;      // MN extent of the tile
  uint32_t ebytes;    // container bytes per element in a chunk: 1 (8-bit, padded fp6/fp4), 2, 4
  uint32_t kstep;     // K elements per MMA: 16 (f16), 8 (tf32), 32 (f8f6f4, i8)
  uint32_t ksteps;    // chained MMAs along K
  uint32_t lbo;       // leading-dimension byte offset (descriptor bits 16-29, >>4)
  uint32_t sbo;       // stride-dimension byte offset (descriptor bits 32-45, >>4)
  uint32_t katom;     // K-major swizzled: byte distance between consecutive W-byte K atoms
  uint32_t bytes;     // footprint in shared memory
};

TCK_HD uint32_t k_total(const OperandLayout& L) { return L.kstep * L.ksteps; }

// Builds the layout. Requirements (the spec generator only emits legal ones): rows % 8 == 0;
// MN-major: rows * ebytes is a multiple of W (whole swizzle atoms along MN) and ebytes >= 1 real
// byte per element (no fp4/fp6: Table 51 makes 4/6-bit operands K-major only).
TCK_HD OperandLayout make_operand_layout(uint32_t lt, uint32_t mn_major, uint32_t rows,
                                         uint32_t ebytes, uint32_t kstep, uint32_t ksteps,
                                         uint32_t variant) {
  OperandLayout L{lt, mn_major, rows, ebytes, kstep, ksteps, 0, 0, 0, 0};
  const uint32_t w = swizzle_row_bytes(lt);
  if (!mn_major) {
    const uint32_t kbytes = 32u * ksteps;  // K bytes per row
    const uint32_t kchunks = kbytes / 16u;
    if (lt == kSwizzleNone) {
      // ((8,m),(T,2k)) : ((1T,SBO),(1,LBO)) -- core matrices of 8 rows x 16 B, 128 B each.
      if (variant == 0) { L.lbo = 128; L.sbo = kchunks * 128u; }   // K-adjacent core matrices
      else { L.sbo = 128; L.lbo = (rows / 8u) * 128u; }           // MN-adjacent core matrices
      L.bytes = rows * kbytes;
    } else {
      // ((8,m),(T,2k)) : ((W/16*T,SBO),(1,T)) -- rows W bytes apart inside an 8-row atom; the
      // K extent of one MMA (32 B) stays inside one atom row; LBO is unused ("assumed 1" = 16 B).
      const uint32_t katoms = (kbytes + w - 1u) / w;
      L.lbo = 16;
      if (variant == 0) { L.sbo = 8u * w; L.katom = (rows / 8u) * L.sbo; }  // K atoms outermost
      else { L.sbo = katoms * 8u * w; L.katom = 8u * w; }                  // K atoms innermost
      L.bytes = katoms * (rows / 8u) * 8u * w;
    }
  } else {
    const uint32_t rchunks = rows * ebytes / 16u;  // 16-B chunks along MN
    const uint32_t kt = kstep * ksteps;
    if (lt == kSwizzleNone) {
      // ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO)) -- core matrices of T MN-elements x 8 K-rows.
      if (variant == 0) { L.sbo = 128; L.lbo = rchunks * 128u; }     // MN-adjacent core matrices
      else { L.lbo = 128; L.sbo = (kt / 8u) * 128u; }               // K-adjacent core matrices
    } else {
      // ((T,W/16,m),(KR,k)) : ((1,T,LBO),(W/16*T,SBO)) -- atoms of W MN-bytes x KR K-rows.
      const uint32_t kr = mn_atom_krows(lt);
      const uint32_t atom = kr * w;
      if (variant == 0) { L.lbo = atom; L.sbo = (rchunks / (w / 16u)) * atom; }  // MN atoms inner
      else { L.sbo = atom; L.lbo = (kt / kr) * atom; }                          // K groups inner
    }
    L.bytes = rchunks * 16u * kt;
  }
  return L;
}

// Byte offset (before swizzling) of a 16-byte chunk of the tile.
//   K-major:  i = row (M or N index), j = chunk index along K (16 bytes of K each).
//   MN-major: i = chunk index along MN (16 bytes of MN each), j = K index.
TCK_HD uint32_t chunk_offset(const OperandLayout& L, uint32_t i, uint32_t j) {
  const uint32_t w = swizzle_row_bytes(L.lt);
  if (!L.mn_major) {
    if (L.lt == kSwizzleNone) return (i / 8u) * L.sbo + (i % 8u) * 16u + j * L.lbo;
    const uint32_t kb = j * 16u;
    return (kb / w) * L.katom + (i / 8u) * L.sbo + (i % 8u) * w + kb % w;
  }
  if (L.lt == kSwizzleNone) return i * L.sbo + (j / 8u) * L.lbo + (j % 8u) * 16u;
  const uint32_t a = w / 16u, kr = mn_atom_krows(L.lt);
  return (i / a) * L.lbo + (j / kr) * L.sbo + (j % kr) * w + (i % a) * 16u;
}

// Offset of MMA step s's operand from the tile start (what the descriptor's start address moves
// by; CUTLASS's DescriptorIterator adds the same amount >> 4 to the low word).
TCK_HD uint32_t step_offset(const OperandLayout& L, uint32_t s) {
  const uint32_t w = swizzle_row_bytes(L.lt);
  if (!L.mn_major) {
    if (L.lt == kSwizzleNone) return s * 2u * L.lbo;
    const uint32_t kb = s * 32u;
    return (kb / w) * L.katom + kb % w;
  }
  if (L.lt == kSwizzleNone) return s * (L.kstep / 8u) * L.lbo;
  return s * (L.kstep / mn_atom_krows(L.lt)) * L.sbo;
}

// Shared-memory matrix descriptor (§9.7.16.4.1, Table 40):
//   bits 0-13 start>>4 | 16-29 LBO>>4 | 32-45 SBO>>4 | 46-48 fixed 0b001 | 49-51 base offset
//   | 52 LBO mode (0: relative) | 53-60 zero | 61-63 layout type.
// Base offset 0: every tile here is placed so its swizzle pattern is the absolute-address one.
TCK_HD uint64_t smem_desc_encode(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t lt) {
  return static_cast<uint64_t>((start & 0x3FFFFu) >> 4) |
         (static_cast<uint64_t>((lbo & 0x3FFFFu) >> 4) << 16) |
         (static_cast<uint64_t>((sbo & 0x3FFFFu) >> 4) << 32) | (uint64_t{1} << 46) |
         (static_cast<uint64_t>(lt & 7u) << 61);
}

TCK_HD uint64_t smem_desc(const OperandLayout& L, uint32_t tile_addr, uint32_t step) {
  return smem_desc_encode(tile_addr + step_offset(L, step), L.lbo, L.sbo, L.lt);
}

// Instruction descriptor for kinds f16, tf32, f8f6f4, i8 (§9.7.16.4.2, Table 42):
//   bits 0-1 sparsity selector (0) | 2 sparse (0) | 3 saturate | 4-5 dtype | 7-9 atype | 10-12 btype
//   | 13 negate A | 14 negate B | 15 transpose A (M-major) | 16 transpose B (N-major) | 17-22 N>>3
//   | 24-28 M>>4 | 30-31 .ws max B-reuse shift (0).
// Type codes: dtype F16=0 F32=1 S32=2; f16 kind: F16=0 BF16=1; tf32: TF32=2;
// f8f6f4: E4M3=0 E5M2=1 E2M3=3 E3M2=4 E2M1=5; i8: U8=0 S8=1.
TCK_HD uint32_t make_idesc(uint32_t m, uint32_t n, uint32_t dtype, uint32_t atype, uint32_t btype,
                           uint32_t a_mn_major, uint32_t b_mn_major, uint32_t neg_a,
                           uint32_t neg_b, uint32_t saturate) {
  return ((saturate & 1u) << 3) | ((dtype & 3u) << 4) | ((atype & 7u) << 7) |
         ((btype & 7u) << 10) | ((neg_a & 1u) << 13) | ((neg_b & 1u) << 14) |
         ((a_mn_major & 1u) << 15) | ((b_mn_major & 1u) << 16) | (((n >> 3) & 0x3Fu) << 17) |
         (((m >> 4) & 0x1Fu) << 24);
}

// ------------------------------------------------------------------------------------------------
// Data-path layouts of D in tensor memory (§9.7.16.10.5; the figures are images, these formulas
// follow CUTLASS UMMA::tmem_frg / tmem_frg_ws, which run on hardware; docs/tensor_memory.md §1).
enum DLayout : uint32_t {
  kDLayoutA = 0,  // M=256, cta_group::2: CTA v holds rows 128v.. at lanes 0..127
  kDLayoutB = 1,  // M=128, cta_group::2 (2x2): CTA v rows 64v..; lanes 64.. hold columns N/2..
  kDLayoutD = 2,  // M=128, cta_group::1 (and .ws): row m at lane m
  kDLayoutE = 3,  // M=64, .ws (2x2): lanes 64.. hold columns N/2..
  kDLayoutF = 4,  // M=64, cta_group::1 (4x1, half lanes): row m at lane 32*(m/16) + m%16
  kDLayoutG = 5,  // M=32, .ws (1x4): lanes 32q.. hold columns q*N/4..
};

TCK_HD uint32_t d_layout(uint32_t m, uint32_t cta_group, uint32_t ws) {
  if (cta_group == 2) return m == 256 ? kDLayoutA : kDLayoutB;
  if (ws && m == 64) return kDLayoutE;
  if (ws && m == 32) return kDLayoutG;
  return m == 128 ? kDLayoutD : kDLayoutF;
}

// TMEM columns D occupies in each CTA.
TCK_HD uint32_t d_columns(uint32_t layout, uint32_t n) {
  switch (layout) {
    case kDLayoutB:
    case kDLayoutE: return n / 2u;
    case kDLayoutG: return n / 4u;
    default: return n;
  }
}

// Which element D[m][n] the cell (lane, col) of CTA `v` (rank & 1) holds; false if none.
TCK_HD bool d_element(uint32_t layout, uint32_t n_total, uint32_t v, uint32_t lane, uint32_t col,
                      uint32_t* m, uint32_t* n) {
  switch (layout) {
    case kDLayoutA: *m = 128u * v + lane; *n = col; return true;
    case kDLayoutB: *m = 64u * v + lane % 64u; *n = col + (lane / 64u) * (n_total / 2u); return true;
    case kDLayoutD: *m = lane; *n = col; return true;
    case kDLayoutE: *m = lane % 64u; *n = col + (lane / 64u) * (n_total / 2u); return true;
    case kDLayoutF:
      if (lane % 32u >= 16u) return false;
      *m = 16u * (lane / 32u) + lane % 32u; *n = col; return true;
    case kDLayoutG: *m = lane % 32u; *n = col + (lane / 32u) * (n_total / 4u); return true;
    default: return false;
  }
}

// The TMEM lane of D's row m (for layouts whose lanes hold whole rows: A, D, F; B holds the left
// half of the row there). Used for disable-output-lane masks.
TCK_HD uint32_t d_lane_of_row(uint32_t layout, uint32_t m) {
  switch (layout) {
    case kDLayoutA: return m % 128u;
    case kDLayoutB: return m % 64u;
    case kDLayoutF: return 32u * (m / 16u) + m % 16u;
    default: return m;
  }
}

// A in tensor memory ([a-tmem]): which row of A the lane of CTA v holds (same lanes as D's rows;
// cta_group::2 with M=128 duplicates the CTA's 64 rows into lanes 64..127, CUTLASS
// TmemAllocMode::Duplicated). False: the lane holds no row of A (layout F's upper half-lanes).
TCK_HD bool a_row_of_lane(uint32_t layout, uint32_t v, uint32_t lane, uint32_t* m) {
  switch (layout) {
    case kDLayoutA: *m = 128u * v + lane; return true;
    case kDLayoutB: *m = 64u * v + lane % 64u; return true;
    case kDLayoutD: *m = lane; return true;
    case kDLayoutF:
      if (lane % 32u >= 16u) return false;
      *m = 16u * (lane / 32u) + lane % 32u; return true;
    default: return false;
  }
}

// ------------------------------------------------------------------------------------------------
// tcgen05.ld register maps (§9.7.16.8.3, Figures of the 32x32b/16x64b/16x128b/16x256b/16x32bx2
// shapes are images; these are CUTLASS Copy_Traits<SM100_TMEM_LOAD_*> decoded, confirmed for the
// 16x* shapes by TileLang; docs/tensor_memory.md §3). For thread t of the warp and register j of the
// shapes the kernels use (8 columns per instruction), the (lane, column) offset from taddr.
enum : uint32_t { kLd32x32b = 0, kLd16x64b = 1, kLd16x128b = 2, kLd16x256b = 3, kLd16x32bx2 = 4 };

TCK_HD void ld_map(uint32_t shape, uint32_t t, uint32_t j, uint32_t* lane, uint32_t* col) {
  switch (shape) {
    case kLd32x32b:  // .32x32b.x8: 32 lanes x 8 columns, 8 registers
      *lane = t; *col = j; break;
    case kLd16x64b:  // .16x64b.x4: 16 lanes x 2 columns per repetition, 4 registers
      *lane = t / 4u + 8u * (t % 2u); *col = (t / 2u) % 2u + 2u * j; break;
    case kLd16x128b:  // .16x128b.x2: 16 lanes x 4 columns per repetition, 2 registers each
      *lane = t / 4u + 8u * (j % 2u); *col = t % 4u + 4u * (j / 2u); break;
    case kLd16x256b:  // .16x256b.x1: 16 lanes x 8 columns, 4 registers
      *lane = t / 4u + 8u * ((j / 2u) % 2u); *col = 2u * (t % 4u) + j % 2u + 8u * (j / 4u); break;
    default:  // .16x32bx2.x4 with immHalfSplitoff 4: lanes t%16, columns (t/16)*4 + j
      *lane = t % 16u; *col = (t / 16u) * 4u + j; break;
  }
}

TCK_HD uint32_t ld_regs(uint32_t shape) { return shape == kLd32x32b ? 8u : 4u; }
TCK_HD uint32_t ld_lanes(uint32_t shape) { return shape == kLd32x32b ? 32u : 16u; }

}  // namespace tck
