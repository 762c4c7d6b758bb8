// The single-instruction wgmma kernel template (issue 6, "kernels/hopper — the corpus and the judge").
//
// One warpgroup (128 threads) computes D = (+-A)(+-B)^T + C for one wgmma.mma_async shape
// m64nNkK, chained over `ksteps` K-steps, with everything but the instruction shape chosen at run
// time from the kernel arguments, so one kernel per (types, N) serves every layout:
//   * A (64 x K*ksteps) and B (N x K*ksteps) are read from global memory with ordinary loads, both
//     K-contiguous ("A row-major, B column-major"), and stored into shared memory with ordinary
//     stores in the canonical layout chosen by layout_a / layout_b (major-ness, swizzle, stride
//     order, padding, tile offset, swizzle anchoring: common/smem_layout.h), the swizzle computed
//     here in device code, so a TMA bug cannot mask a tensor-core bug. Unused bytes of the region
//     are filled with 0x55 first: an operand read from the wrong place shows up as large values.
//   * fence.proxy.async (the writes were generic-proxy, wgmma reads through the async proxy,
//     §9.7.15.4), bar.sync, then per K-step wgmma.fence + wgmma, then commit_group, wait_group 0.
//   * C (64 x N) is loaded into the accumulator fragment first; with flags.scale_d = 0 the first
//     wgmma ignores it (scale-d false, §9.7.15.5.2), so D must not depend on C.
//   * D is stored row-major from the fragment: accumulator pair p of thread t (warp w = t/32,
//     g = lane/4, q = lane%4) holds D[16w + g + 8(p&1)][8(p>>1) + 2q + {0,1}] (§9.7.15.5.1.1,
//     docs/mma_fragments.md §2); f32/s32 D: registers 2p, 2p+1; f16 D: register p (.f16x2, low half first).
//
// Arguments: A, B, C, D (device pointers), layout_a, layout_b (LayoutArg words), flags, ksteps:
//   flags bit 0 scale-d of the first wgmma (later ones always accumulate)
//         bit 1 imm-scale-a = -1      bit 2 imm-scale-b = -1      (floating-point types)
//         bit 3 A from registers (layout_a ignored; fragment loaded from global, §9.7.15.5.1.1;
//               each K-step is then its own wgmma-group, waited for before the next)
//         bit 4 .satfinite            (integer types)
//         bit 5 commit and wait_group 1 after every wgmma (several wgmma-groups in flight)
// An argument the instruction cannot take (MN-major for a non-16-bit type, negation of an integer
// operand, a layout that needs more shared memory than the launch gave, ...) traps: the launch
// fails instead of computing something else.
#pragma once
#include <cstdint>
#include <type_traits>

#include "common/mma_fragments.h"
#include "common/ptx.cuh"
#include "common/smem_layout.h"
#include "common/wgmma_ops.h"

namespace hopper {

enum : uint32_t {
  kFlagScaleD = 1u << 0,
  kFlagNegA = 1u << 1,
  kFlagNegB = 1u << 2,
  kFlagARegs = 1u << 3,
  kFlagSatfinite = 1u << 4,
  kFlagCommitEach = 1u << 5,
  kFlagsKnown = (1u << 6) - 1,
};
constexpr uint32_t kMaxKSteps = 4;
constexpr uint32_t kFillByte = 0x55;

// Pins a register value at this point of the program (CUTLASS's warpgroup_fence_operand): the
// compiler may not move its definition or uses across the wgmma.fence / wait_group around it.
__device__ __forceinline__ void fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }
__device__ __forceinline__ void fence_operand(uint32_t& r) { asm volatile("" : "+r"(r)::"memory"); }

// Stores the rows x kel operand g (row-major, K contiguous, E-byte elements) into tile t, one
// element per store, at the swizzled address of its canonical-layout position.
template <uint32_t E>
__device__ __forceinline__ void place_operand(const CanonTile& t, const uint8_t* __restrict__ g, uint32_t rows,
                                              uint32_t kel, uint32_t tid) {
#pragma unroll 1
  for (uint32_t i = tid; i < rows * kel; i += 128) {
    const uint32_t r = i / kel, k = i % kel, dst = t.phys(r, k);
    if constexpr (E == 1) {
      asm volatile("st.shared.u8 [%0], %1;" ::"r"(dst), "r"((uint32_t)g[i]) : "memory");
    } else if constexpr (E == 2) {
      const uint16_t v = reinterpret_cast<const uint16_t*>(g)[i];
      asm volatile("st.shared.u16 [%0], %1;" ::"r"(dst), "h"(v) : "memory");
    } else {
      const uint32_t v = reinterpret_cast<const uint32_t*>(g)[i];
      asm volatile("st.shared.u32 [%0], %1;" ::"r"(dst), "r"(v) : "memory");
    }
  }
}

template <class Op>
__device__ void wgmma_single(const uint8_t* __restrict__ gA, const uint8_t* __restrict__ gB,
                             const uint8_t* __restrict__ gC, uint8_t* __restrict__ gD, uint32_t layout_a,
                             uint32_t layout_b, uint32_t flags, uint32_t ksteps) {
  using Acc = typename Op::Acc;
  constexpr uint32_t N = Op::kN, E = Op::kElemBytes;
  constexpr uint32_t kStepElems = 32 / E;  // K elements (bytes for b1) per wgmma
  const uint32_t tid = threadIdx.x;
  const LayoutArg la = decode_layout_arg(layout_a), lb = decode_layout_arg(layout_b);
  const bool a_regs = flags & kFlagARegs;

  // ---- argument checks: anything the instruction cannot express traps ----
  bool bad = blockDim.x != 128 || blockDim.y != 1 || blockDim.z != 1 || ksteps < 1 || ksteps > kMaxKSteps ||
             (flags & ~kFlagsKnown) != 0;
  bad |= ((flags & (kFlagNegA | kFlagNegB)) != 0) && !Op::kCanNegate;
  bad |= ((flags & kFlagSatfinite) != 0) && !Op::kCanSatfinite;
  bad |= (lb.major != 0 || (!a_regs && la.major != 0)) && !Op::kCanTranspose;
  bad |= (la.swz != kSwzNone && la.offset % 128 != 0) || la.offset % 16 != 0;
  bad |= (lb.swz != kSwzNone && lb.offset % 128 != 0) || lb.offset % 16 != 0;
  if (bad) __trap();

  extern __shared__ __align__(16) uint8_t smem_raw[];
  const uint32_t raw = smem_u32(smem_raw);
  const uint32_t region = (raw + 1023u) & ~1023u;  // swizzle atoms repeat at most every 1024 B
  const uint32_t kel = kStepElems * ksteps;        // K elements of the whole chain
  const CanonTile ta = make_canon_tile(la, region, 64, E, ksteps);
  const uint32_t b_region = a_regs ? region : region + ((ta.footprint + 1023u) & ~1023u);
  const CanonTile tb = make_canon_tile(lb, b_region, N, E, ksteps);
  const uint32_t end = b_region + tb.footprint;
  if (end - raw > dynamic_smem_size()) __trap();

  // ---- shared memory: fill, then the operands element by element ----
  {
    const uint32_t fill = kFillByte * 0x01010101u;
#pragma unroll 1
    for (uint32_t a = region + 16 * tid; a < end; a += 16 * 128)
      asm volatile("st.shared.v4.b32 [%0], {%1, %1, %1, %1};" ::"r"(a), "r"(fill) : "memory");
  }
  __syncthreads();
  if (!a_regs) place_operand<E>(ta, gA, 64, kel, tid);
  place_operand<E>(tb, gB, N, kel, tid);
  fence_proxy_async_smem();
  __syncthreads();

  // ---- accumulator <- C; A fragments (register A) ----
  Acc d[Op::kRegs];
  constexpr uint32_t kPairs = N / 4, kRegsPerPair = Op::kRegs / kPairs;  // 2 (f32/s32) or 1 (f16x2)
  // Loaded and stored in the accumulator's own register type (f32 as .f32, the others as .b32),
  // so the compiler never needs copies of them between the wgmma and its wait_group.
  using Pair = std::conditional_t<std::is_same_v<Acc, float>, float2, uint2>;
#pragma unroll
  for (uint32_t p = 0; p < kPairs; ++p) {
    const AccCoord rc = wgmma_acc_pair(tid, p);
    const uint32_t row = rc.row, col = rc.col;
    const uint8_t* src = gC + (row * N + col) * (kRegsPerPair == 2 ? 4 : 2);
    if constexpr (kRegsPerPair == 2) {
      const Pair v = *reinterpret_cast<const Pair*>(src);
      d[2 * p] = v.x;
      d[2 * p + 1] = v.y;
    } else {
      d[p] = *reinterpret_cast<const uint32_t*>(src);
    }
  }
  // ---- the wgmma chain ----
  // A fragment (§9.7.15.5.1.1; the same in 32-bit units for every type): register j of thread t
  // holds row 16w + g + 8(j&1), bytes [4q + 16(j>>1), +4) of the K-step's 32 bytes of K.
  // The loop is not unrolled (one copy of each instruction variant per kernel), so with A in
  // registers the fragment registers are reused: each step waits for the previous wgmma to finish
  // before they are rewritten (touching them earlier is undefined, §9.7.15.7.3).
  // The immediates, as the variant code of common/wgmma_ops.h (0 neg A, 1 neg B, 2 trans A,
  // 3 trans B, 4 satfinite).
  const uint32_t variant = ((flags & kFlagNegA) ? 1u : 0u) | ((flags & kFlagNegB) ? 2u : 0u) |
                           ((!a_regs && la.major) ? 4u : 0u) | (lb.major ? 8u : 0u) |
                           ((flags & kFlagSatfinite) ? 16u : 0u);
  const bool commit_each = flags & kFlagCommitEach;
  const uint32_t row_bytes = kel * E;
#pragma unroll
  for (uint32_t i = 0; i < Op::kRegs; ++i) fence_operand(d[i]);
#pragma unroll 1
  for (uint32_t s = 0; s < ksteps; ++s) {
    uint32_t afrag[4] = {0, 0, 0, 0};
    if (a_regs) {
#pragma unroll
      for (uint32_t j = 0; j < 4; ++j) {
        const FragCoord f = wgmma_a_frag(tid, j);
        afrag[j] = *reinterpret_cast<const uint32_t*>(gA + f.row * row_bytes + 32 * s + 4 * f.unit);
      }
    }
#pragma unroll
    for (uint32_t j = 0; j < 4; ++j) fence_operand(afrag[j]);
    wgmma_fence();  // orders the register writes above before the wgmma reads them (§9.7.15.7.1)
    const uint32_t scale_d = s == 0 ? (flags & kFlagScaleD) : 1u;
    if (a_regs)
      Op::rs(d, afrag, tb.desc(s), scale_d, variant);
    else
      Op::ss(d, ta.desc(s), tb.desc(s), scale_d, variant);
    if (a_regs) {
      wgmma_commit();
      wgmma_wait<0>();
    } else if (commit_each) {
      wgmma_commit();
      wgmma_wait<1>();
    }
  }
  wgmma_commit();
  wgmma_wait<0>();
#pragma unroll
  for (uint32_t i = 0; i < Op::kRegs; ++i) fence_operand(d[i]);

  // ---- D <- accumulator ----
#pragma unroll
  for (uint32_t p = 0; p < kPairs; ++p) {
    const AccCoord rc = wgmma_acc_pair(tid, p);
    const uint32_t row = rc.row, col = rc.col;
    uint8_t* dst = gD + (row * N + col) * (kRegsPerPair == 2 ? 4 : 2);
    if constexpr (kRegsPerPair == 2)
      *reinterpret_cast<Pair*>(dst) = Pair{d[2 * p], d[2 * p + 1]};
    else
      *reinterpret_cast<uint32_t*>(dst) = d[p];
  }
}

}  // namespace hopper

// One kernel per instruction shape and types.
#define HOPPER_WGMMA_SINGLE_KERNEL(name, Op)                                                              \
  extern "C" __global__ void __launch_bounds__(128, 1)                                                   \
      name(const uint8_t* __restrict__ A, const uint8_t* __restrict__ B, const uint8_t* __restrict__ C,   \
           uint8_t* __restrict__ D, uint32_t layout_a, uint32_t layout_b, uint32_t flags, uint32_t ksteps) { \
    hopper::wgmma_single<Op>(A, B, C, D, layout_a, layout_b, flags, ksteps);                             \
  }
