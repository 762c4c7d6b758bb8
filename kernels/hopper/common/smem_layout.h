// Canonical shared-memory layouts of wgmma operands, the swizzle, and the 64-bit matrix descriptor
// (PTX ISA 9.2 §9.7.15.5.1.2 "Shared memory matrix layout", §9.7.15.5.1.2.2 "Matrix descriptor";
// docs/smem_layouts.md §2-§5).
//
// Plain C++ (host and device): the single-instruction wgmma kernels place their operands with these
// functions, and kernels/hopper/layout_check.cc proves on the host that what the descriptor tells
// the tensor core to read (the PTX canonical layout tables, evaluated independently) is exactly
// what these functions wrote.
//
// Units: every address and stride is in bytes. An operand is a matrix of R rows along M or N
// ("MN") by K columns, element size E bytes (b1 operands are handled as bytes: E = 1, 32 per
// K-step). One wgmma K-step always covers 32 bytes of K (f16/bf16 k16, tf32 k8, 8-bit k32, b1
// k256), so a chain of S K-steps covers 32*S bytes of K.
//
//  K-major (K contiguous), no swizzle: "core matrices" of 8 rows x 16 bytes (128 contiguous bytes)
//    addr(r, kb) = start + (r/8)*SBO + (r%8)*16 + (kb/16)*LBO + kb%16        (kb = k*E)
//    LBO: next core matrix along K; SBO: next 8-row group along MN. K-step s starts at 2*s*LBO.
//  K-major, swizzle W (32/64/128 bytes): atoms of 8 rows x W bytes, rows contiguous
//    addr(r, kb) = start + (kb/W)*KA + (r/8)*SBO + (r%8)*W + kb%W
//    LBO unused (encoded 1 as CUTLASS does); SBO: next 8-row group; KA (not a descriptor field):
//    next atom along K. K-step s starts at (32s/W)*KA + 32s%W: inside an atom the start moves by
//    32 bytes and the tensor core applies the XOR to the address it computes.
//  MN-major (MN contiguous; 16-bit types only), no swizzle: core matrices of 8 K-rows x 16 bytes
//    addr(r, k) = start + (rb/16)*SBO + (k/8)*LBO + (k%8)*16 + rb%16         (rb = r*E)
//    LBO: next core matrix along K; SBO: next 16 bytes along MN. K-step s starts at 2*s*LBO.
//  MN-major, swizzle W: atoms of 8 K-rows x W bytes
//    addr(r, k) = start + (rb/W)*LBO + (k/8)*SBO + (k%8)*W + rb%W
//    LBO: next atom along MN; SBO: next 8 K-rows. K-step s starts at 2*s*SBO.
//    (LBO and SBO swap roles between no-swizzle and swizzled MN-major: docs/smem_layouts.md §3.)
//
// Swizzle: an XOR of address bits [4, 4+b) with bits [7, 7+b), b = 1/2/3 for 32B/64B/128B, i.e.
// 16-byte chunk c of 128-byte line L goes to chunk c ^ (L mod 2^b) (§9.7.15.5.1.2, Table "swizzle
// modes"). The phase used is ((addr >> 7) - base_offset) mod 2^b: measured on the H200 for 128B
// (docs/smem_layouts.md §5); for 64B/32B assumed to follow the same rule. Data written with
// base_offset 0 is swizzled on absolute address bits (what TMA writes); "anchored" data has its
// pattern start at the tile start P and is read with base_offset = (P >> 7) & 7.
#pragma once
#include <cstdint>

#ifndef HOPPER_HD
#if defined(__CUDACC__)
#define HOPPER_HD __host__ __device__ __forceinline__
#else
#define HOPPER_HD inline
#endif
#endif

namespace hopper {

// Swizzle codes used in kernel arguments: log2(W / 16), 0 = none.
enum : uint32_t { kSwzNone = 0, kSwz32B = 1, kSwz64B = 2, kSwz128B = 3 };

HOPPER_HD uint32_t swizzle_bytes(uint32_t swz) { return 16u << swz; }  // 16 for none

// The physical byte address of logical address a under swizzle swz with matrix base offset bo.
HOPPER_HD uint32_t swizzle(uint32_t a, uint32_t swz, uint32_t bo) {
  const uint32_t mask = (1u << swz) - 1u;  // 0 (none), 1, 3, 7
  return a ^ ((((a >> 7) - bo) & mask) << 4);
}

// The wgmma matrix descriptor (§9.7.15.5.1.2.2): bits 0-13 (start & 0x3FFFF) >> 4, 16-29 LBO >> 4,
// 32-45 SBO >> 4, 49-51 base offset, 62-63 swizzle (0 none, 1 128B, 2 64B, 3 32B), all others 0.
HOPPER_HD uint64_t make_wgmma_desc(uint32_t start, uint32_t lbo, uint32_t sbo, uint32_t swz, uint32_t bo) {
  const uint64_t code = swz == kSwzNone ? 0 : 4 - swz;  // 128B -> 1, 64B -> 2, 32B -> 3
  return (uint64_t)((start & 0x3FFFFu) >> 4) | ((uint64_t)((lbo & 0x3FFFFu) >> 4) << 16) |
         ((uint64_t)((sbo & 0x3FFFFu) >> 4) << 32) | ((uint64_t)(bo & 7u) << 49) | (code << 62);
}

// The packed per-operand layout argument of the single-instruction kernels (one u32 each):
//   bit  0     major: 0 K-major, 1 MN-major (wgmma imm-trans = 1)
//   bits 1-2   swizzle: 0 none, 1 32B, 2 64B, 3 128B
//   bit  3     order: 0 = the K-direction stride is the inner one (K-major: core matrices / atoms
//              along K adjacent; MN-major: along K adjacent), 1 = the MN-direction one is
//   bit  4     anchored: 1 = swizzle pattern starts at the tile start (base_offset = (P>>7)&7)
//   bits 8-11  pad: extra units added to both strides (unit: 16 B unswizzled, one atom 8W swizzled)
//   bits 16-31 offset: tile start in bytes from the 1024-aligned region start (16-B multiple;
//              128-B multiple when swizzled)
struct LayoutArg {
  uint32_t major, swz, order, anchored, pad, offset;
};

HOPPER_HD LayoutArg decode_layout_arg(uint32_t v) {
  return LayoutArg{v & 1u, (v >> 1) & 3u, (v >> 3) & 1u, (v >> 4) & 1u, (v >> 8) & 15u, v >> 16};
}

HOPPER_HD uint32_t encode_layout_arg(const LayoutArg& a) {
  return a.major | (a.swz << 1) | (a.order << 3) | (a.anchored << 4) | (a.pad << 8) | (a.offset << 16);
}

// One operand tile in shared memory: R rows along MN by K elements (32*ksteps bytes) of E bytes.
struct CanonTile {
  uint32_t major, swz, bo;
  uint32_t start;       // absolute shared-window address of the tile
  uint32_t lbo, sbo;    // descriptor strides, bytes (K-major swizzled: lbo = 16, unused)
  uint32_t ka;          // K-major swizzled only: next atom along K
  uint32_t rows, e, kbytes;
  uint32_t footprint;   // bytes from the region start to one past the last byte the tile occupies

  // Logical (unswizzled) address of element (r, k), k counted over the whole K chain.
  HOPPER_HD uint32_t addr(uint32_t r, uint32_t k) const {
    const uint32_t w = swizzle_bytes(swz);
    if (major == 0) {
      const uint32_t kb = k * e;
      if (swz == kSwzNone) return start + (r / 8) * sbo + (r % 8) * 16 + (kb / 16) * lbo + kb % 16;
      return start + (kb / w) * ka + (r / 8) * sbo + (r % 8) * w + kb % w;
    }
    const uint32_t rb = r * e;
    if (swz == kSwzNone) return start + (rb / 16) * sbo + (k / 8) * lbo + (k % 8) * 16 + rb % 16;
    return start + (rb / w) * lbo + (k / 8) * sbo + (k % 8) * w + rb % w;
  }
  HOPPER_HD uint32_t phys(uint32_t r, uint32_t k) const { return swizzle(addr(r, k), swz, bo); }

  // Start address of K-step s (32 bytes of K per step).
  HOPPER_HD uint32_t step_start(uint32_t s) const {
    const uint32_t w = swizzle_bytes(swz);
    if (major == 0) {
      if (swz == kSwzNone) return start + 2 * s * lbo;
      return start + (32 * s / w) * ka + (32 * s) % w;
    }
    const uint32_t k0 = 32 * s / e;  // first K element of the step (a multiple of 8)
    return start + (k0 / 8) * (swz == kSwzNone ? lbo : sbo);
  }

  // The wgmma matrix descriptor of K-step s.
  HOPPER_HD uint64_t desc(uint32_t s) const { return make_wgmma_desc(step_start(s), lbo, sbo, swz, bo); }
};

HOPPER_HD uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Builds the tile for layout argument la at region_start (1024-aligned), R rows, element E bytes,
// ksteps K-steps. Strides follow la.order and la.pad (see LayoutArg).
HOPPER_HD CanonTile make_canon_tile(const LayoutArg& la, uint32_t region_start, uint32_t rows,
                                    uint32_t e, uint32_t ksteps) {
  CanonTile t{};
  t.major = la.major;
  t.swz = la.swz;
  t.start = region_start + la.offset;
  t.bo = (la.anchored && la.swz != kSwzNone) ? ((t.start >> 7) & 7u) : 0u;
  t.rows = rows;
  t.e = e;
  t.kbytes = 32 * ksteps;
  const uint32_t w = swizzle_bytes(la.swz);
  if (la.swz == kSwzNone) {
    const uint32_t unit = 16, inner = 128 + la.pad * unit;
    // Core-matrix grid: n_mn groups along MN, n_k along K.
    const uint32_t n_mn = la.major == 0 ? ceil_div(rows, 8) : ceil_div(rows * e, 16);
    const uint32_t n_k = la.major == 0 ? t.kbytes / 16 : t.kbytes / e / 8;
    uint32_t k_stride, mn_stride;
    if (la.order == 0) {
      k_stride = inner;
      mn_stride = n_k * k_stride + la.pad * unit;
    } else {
      mn_stride = inner;
      k_stride = n_mn * mn_stride + la.pad * unit;
    }
    t.lbo = k_stride;  // no swizzle: LBO is the K direction for both majors
    t.sbo = mn_stride;
    t.ka = 0;
    t.footprint = (n_mn - 1) * mn_stride + (n_k - 1) * k_stride + 128;
  } else {
    const uint32_t atom = 8 * w, inner = atom + la.pad * atom;
    if (la.major == 0) {
      const uint32_t n_mn = ceil_div(rows, 8), n_k = ceil_div(t.kbytes, w);
      uint32_t k_stride, mn_stride;
      if (la.order == 0) {
        k_stride = inner;
        mn_stride = n_k * k_stride + la.pad * atom;
      } else {
        mn_stride = inner;
        k_stride = n_mn * mn_stride + la.pad * atom;
      }
      t.lbo = 16;  // "not used, assumed 1" for swizzled K-major (§9.7.15.5.1.2.1)
      t.sbo = mn_stride;
      t.ka = k_stride;
      t.footprint = (n_mn - 1) * mn_stride + (n_k - 1) * k_stride + atom;
    } else {
      const uint32_t n_mn = ceil_div(rows * e, w), n_k = t.kbytes / e / 8;
      uint32_t k_stride, mn_stride;
      if (la.order == 0) {
        k_stride = inner;
        mn_stride = n_k * k_stride + la.pad * atom;
      } else {
        mn_stride = inner;
        k_stride = n_mn * mn_stride + la.pad * atom;
      }
      t.lbo = mn_stride;  // swizzled MN-major: LBO is the MN direction (atoms along MN)
      t.sbo = k_stride;   // and SBO the K direction (8 K-rows)
      t.ka = 0;
      t.footprint = (n_mn - 1) * mn_stride + (n_k - 1) * k_stride + atom;
    }
  }
  t.footprint += la.offset;  // counted from the region start
  return t;
}

}  // namespace hopper
