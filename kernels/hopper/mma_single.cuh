// The single-instruction mma.sync kernel template (issue 6: "mma.sync m16n8k8/k16/k32 and the Ampere
// shapes nvcc emits").
//
// Four warps; warp w computes rows [w*M, (w+1)*M) of D = A * B + C with `ksteps` chained mma.sync
// (the D of one step is the C of the next). Fragments are loaded straight from global memory with
// ordinary loads, one 32-bit (f64: 64-bit) unit per register, by the fragment formulas of
// common/mma_fragments.h:
//   A: (4M) x (K*ksteps), row-major; B: N x (K*ksteps), each column's K contiguous ("col");
//   C, D: (4M) x N row-major. Sub-byte elements are packed along K, lowest bits first (s4/u4:
//   two per byte, b1: eight per byte), so the global rows are those of the registers.
// Arguments: A, B, C, D (device pointers), ksteps (1..8; must be 1 when C and D types differ).
#pragma once
#include <cstdint>

#include "common/mma_fragments.h"
#include "common/mma_ops.h"

namespace hopper {

template <class T>
__device__ __forceinline__ T load_unit(const uint8_t* p) {
  return *reinterpret_cast<const T*>(p);
}

template <class Op>
__device__ void mma_single(const uint8_t* __restrict__ gA, const uint8_t* __restrict__ gB,
                           const uint8_t* __restrict__ gC, uint8_t* __restrict__ gD, uint32_t ksteps) {
  using Unit = typename Op::Unit;  // uint32_t, or double for f64
  constexpr uint32_t M = Op::kM, N = 8, kUnits = Op::kKUnits, kUB = sizeof(Unit);
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (blockDim.x != 128 || blockDim.y != 1 || blockDim.z != 1 || ksteps < 1 || ksteps > 8 ||
      (ksteps > 1 && !Op::kChainable))
    __trap();
  const uint32_t row_bytes = kUnits * kUB * ksteps;
  const uint8_t* a_rows = gA + (size_t)warp * M * row_bytes;

  // C: element i -> (row, col) of the warp's M x 8 tile; f16 C: two elements per register.
  typename Op::CReg c[Op::kCRegs];
  typename Op::DReg d[Op::kDRegs];
  constexpr uint32_t kCPer = Op::kCElems / Op::kCRegs, kDPer = Op::kCElems / Op::kDRegs;
#pragma unroll
  for (uint32_t r = 0; r < Op::kCRegs; ++r) {
    const AccCoord e = mma_acc_elem(M, lane, r * kCPer);
    c[r] = *reinterpret_cast<const typename Op::CReg*>(gC + ((warp * M + e.row) * N + e.col) * Op::kCBytes);
  }
#pragma unroll 1
  for (uint32_t s = 0; s < ksteps; ++s) {
    Unit a[Op::kARegs], b[Op::kBRegs];
#pragma unroll
    for (uint32_t j = 0; j < Op::kARegs; ++j) {
      const FragCoord f = mma_a_frag(Op::kARegs, lane, j);
      a[j] = load_unit<Unit>(a_rows + f.row * row_bytes + (s * kUnits + f.unit) * kUB);
    }
#pragma unroll
    for (uint32_t j = 0; j < Op::kBRegs; ++j) {
      const FragCoord f = mma_b_frag(lane, j);
      b[j] = load_unit<Unit>(gB + f.row * row_bytes + (s * kUnits + f.unit) * kUB);
    }
    Op::mma(d, a, b, c);
    if constexpr (Op::kChainable) {
#pragma unroll
      for (uint32_t r = 0; r < Op::kCRegs; ++r) c[r] = d[r];
    }
  }
#pragma unroll
  for (uint32_t r = 0; r < Op::kDRegs; ++r) {
    const AccCoord e = mma_acc_elem(M, lane, r * kDPer);
    *reinterpret_cast<typename Op::DReg*>(gD + ((warp * M + e.row) * N + e.col) * Op::kDBytes) = d[r];
  }
}

}  // namespace hopper

#define HOPPER_MMA_SINGLE_KERNEL(name, Op)                                                                \
  extern "C" __global__ void __launch_bounds__(128, 1)                                                   \
      name(const uint8_t* __restrict__ A, const uint8_t* __restrict__ B, const uint8_t* __restrict__ C,   \
           uint8_t* __restrict__ D, uint32_t ksteps) {                                                   \
    hopper::mma_single<Op>(A, B, C, D, ksteps);                                                          \
  }
