// Shared-memory operand tiles from global memory by ordinary loads (no TMA, so TMA bugs cannot
// hide tensor-core bugs), for the corpus kernels that build their tiles themselves: K-major
// canonical layouts of umma_layout.h, swizzled addresses computed per 16-byte chunk. Global operands
// are row-major [rows][K]: 8/16/32-bit elements as themselves, e2m3/e3m2 one per byte, e2m1 two per
// byte (operand_fill.h). Device-only.
#pragma once

#include <cstdint>

#include "operand_fill.h"
#include "umma_layout.h"

namespace tck {

__device__ __forceinline__ void st_shared_v4(uint32_t addr, const uint32_t (&w)[4]) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};"
               :: "r"(addr), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]) : "memory");
}
__device__ __forceinline__ void st_shared_u8(uint32_t addr, uint32_t v) {
  asm volatile("st.shared.u8 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
}

// The 16 bytes of chunk kc of K-major row r: dense fp4 (kind::mxf4*) is a plain copy of 32 values.
__device__ __forceinline__ void bs_chunk(const uint8_t* g, bool dense4, uint32_t bits, uint32_t row_bytes, uint32_t r,
                                         uint32_t kc, uint32_t (&w)[4]) {
  if (dense4) {
    const uint8_t* p = g + r * row_bytes + kc * 16u;
    w[0] = ld_u32(p); w[1] = ld_u32(p + 4); w[2] = ld_u32(p + 8); w[3] = ld_u32(p + 12);
    return;
  }
  kmajor_chunk(g, bits, row_bytes, r, kc, w);
}

// Rows [row0, row0 + L.rows) of a global operand with `kt` elements per row into tile `tile`
// (K-major layout L), starting at its 16-byte chunk kc0 along K; `row_of` remaps tile rows (A
// staging for tcgen05.cp by lane), rows it rejects are zero.
template <class RowOf>
__device__ inline void bs_fill(const OperandLayout& L, uint32_t tile, const uint8_t* g, bool dense4, uint32_t bits,
                               uint32_t kt, uint32_t row0, RowOf row_of, uint32_t kc0 = 0) {
  const uint32_t row_bytes = global_row_bytes(bits, kt);
  const uint32_t kchunks = 2u * L.ksteps;
  for (uint32_t idx = threadIdx.x; idx < L.rows * kchunks; idx += blockDim.x) {
    const uint32_t r = idx / kchunks, kc = idx % kchunks;
    uint32_t w[4] = {0, 0, 0, 0};
    uint32_t src;
    if (row_of(r, &src)) bs_chunk(g, dense4, bits, row_bytes, row0 + src, kc0 + kc, w);
    st_shared_v4(swizzle_addr(tile + chunk_offset(L, r, kc), L.lt), w);
  }
}

struct AllRows {
  __device__ bool operator()(uint32_t r, uint32_t* src) const { *src = r; return true; }
};

}  // namespace tck
