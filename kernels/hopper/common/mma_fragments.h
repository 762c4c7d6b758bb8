// Register fragments of the warp-level mma.sync shapes Hopper runs (PTX ISA 9.2 §9.7.14.5.x; the
// figures are images — these formulas are the CUTLASS SM80/SM89/SM90 MMA_Traits layouts
// (mma_traits_sm80.hpp etc.), decoded in kernels/hopper/README.md, and layout_check.cc proves
// each one covers its matrix exactly once). Plain C++ for host and device.
//
// Every mma.sync fragment is regular in "units": 32 bits of K (2 f16/bf16, 1 tf32, 4 8-bit,
// 8 4-bit, 32 1-bit elements), or 64 bits for f64. With g = lane / 4 and q = lane % 4:
//   A (M x K, row-major), nA registers, one unit each:
//     nA == 1 (M = 8):      row = g,                 unit = q
//     nA == 2 (M = 16):     row = g + 8j,            unit = q
//     nA >= 4 (M = 16):     row = g + 8(j & 1),      unit = q + 4(j >> 1)
//   B (K x N, "col": stored N-major, each column's K contiguous), nB registers:
//                           col = g,                 unit = q + 4j
//   C/D (M x N): element i of the thread (f16 C/D: two per .f16x2 register, low half first)
//     M = 16: row = g + 8(i >> 1), col = 2q + (i & 1)        (i = 0..3)
//     M = 8:  row = g,             col = 2q + i              (i = 0..1)
// Inside a 32-bit unit, element e occupies bits [e*bits, (e+1)*bits) (a0 in the low bits).
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

struct FragCoord {
  uint32_t row, unit;  // A: (row, K unit); B: (N column, K unit)
};
struct AccCoord {
  uint32_t row, col;
};

HOPPER_HD FragCoord mma_a_frag(uint32_t n_regs, uint32_t lane, uint32_t j) {
  const uint32_t g = lane / 4, q = lane % 4;
  if (n_regs == 1) return {g, q};
  if (n_regs == 2) return {g + 8 * j, q};
  return {g + 8 * (j & 1), q + 4 * (j >> 1)};
}

HOPPER_HD FragCoord mma_b_frag(uint32_t lane, uint32_t j) { return {lane / 4, lane % 4 + 4 * j}; }

HOPPER_HD AccCoord mma_acc_elem(uint32_t m, uint32_t lane, uint32_t i) {
  const uint32_t g = lane / 4, q = lane % 4;
  if (m == 16) return {g + 8 * (i >> 1), 2 * q + (i & 1)};
  return {g, 2 * q + i};
}

// wgmma (§9.7.15.5.1.1, docs/mma_fragments.md §2), thread t of the warpgroup, w = t / 32:
//   D: accumulator pair p: row 16w + g + 8(p & 1), columns 8(p >> 1) + 2q + {0, 1}
//   A in registers: register j: row 16w + g + 8(j & 1), bytes [4q + 16(j >> 1), +4) of the
//   K-step's 32 bytes (the same in bytes for f16/bf16, tf32, 8-bit and b1).
HOPPER_HD AccCoord wgmma_acc_pair(uint32_t t, uint32_t p) {
  const uint32_t w = t / 32, g = (t % 32) / 4, q = t % 4;
  return {16 * w + g + 8 * (p & 1), 8 * (p >> 1) + 2 * q};
}
HOPPER_HD FragCoord wgmma_a_frag(uint32_t t, uint32_t j) {  // unit = 4-byte word of the 32-byte K-step
  const uint32_t w = t / 32, g = (t % 32) / 4, q = t % 4;
  return {16 * w + g + 8 * (j & 1), q + 4 * (j >> 1)};
}

}  // namespace hopper
