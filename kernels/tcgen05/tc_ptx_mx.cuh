// Inline-PTX wrappers for the tcgen05 forms of block scaling, sparsity, weight-stationary
// collectors, the tcgen05.cp shapes that load scale factors and metadata, and cluster launch
// control: one function per PTX form, each with its syntax and PTX ISA section (9.2 numbering).
// Companion of tc_ptx.cuh (the dense forms). Device-only; sm_100a.
#pragma once

#include <cstdint>

#include "tc_ptx.cuh"

namespace tck {

// ------------------------------------------------------------------------------------------------
// Block-scaled tcgen05.mma (§9.7.16.10.9.1, §9.7.16.10.7):
//   tcgen05.mma.cta_group.kind.block_scale{.scale_vectorsize}
//       [d-tmem], a-desc | [a-tmem], b-desc, idesc, [scale-A-tmem], [scale-B-tmem], enable-input-d;
// The kind and the scale vector size are part of the instruction: `variant` picks one of the ten
// legal spellings at run time (Table 57: mxf8f6f4 1X; mxf4 2X, the default; mxf4nvf4 2X or 4X,
// always explicit; .block32 / .block16 are the sm_100f spellings of 1X/2X and 4X).
enum : uint32_t {
  kBsMxf8Default = 0,  // .kind::mxf8f6f4.block_scale                (1X)
  kBsMxf8X1 = 1,       // .kind::mxf8f6f4.block_scale.scale_vec::1X
  kBsMxf8Block32 = 2,  // .kind::mxf8f6f4.block_scale.block32
  kBsMxf4Default = 3,  // .kind::mxf4.block_scale                    (2X)
  kBsMxf4X2 = 4,       // .kind::mxf4.block_scale.scale_vec::2X
  kBsMxf4Block32 = 5,  // .kind::mxf4.block_scale.block32
  kBsNvf4X2 = 6,       // .kind::mxf4nvf4.block_scale.scale_vec::2X
  kBsNvf4Block32 = 7,  // .kind::mxf4nvf4.block_scale.block32
  kBsNvf4X4 = 8,       // .kind::mxf4nvf4.block_scale.scale_vec::4X
  kBsNvf4Block16 = 9,  // .kind::mxf4nvf4.block_scale.block16
  kBsVariants = 10,
};

// Scale factors per row of A / column of B of one MMA (1X 1, 2X 2, 4X 4; Table 56).
__host__ __device__ __forceinline__ constexpr uint32_t bs_nsf(uint32_t variant) {
  return variant <= kBsMxf8Block32 ? 1u : variant <= kBsNvf4Block32 ? 2u : 4u;
}
// K of one MMA: 32 for mxf8f6f4, 64 for mxf4 / mxf4nvf4 (dense; §9.7.16.2.2).
__host__ __device__ __forceinline__ constexpr uint32_t bs_kstep(uint32_t variant) {
  return variant <= kBsMxf8Block32 ? 32u : 64u;
}

#define TCK_BS_KQ_0 "mxf8f6f4.block_scale"
#define TCK_BS_KQ_1 "mxf8f6f4.block_scale.scale_vec::1X"
#define TCK_BS_KQ_2 "mxf8f6f4.block_scale.block32"
#define TCK_BS_KQ_3 "mxf4.block_scale"
#define TCK_BS_KQ_4 "mxf4.block_scale.scale_vec::2X"
#define TCK_BS_KQ_5 "mxf4.block_scale.block32"
#define TCK_BS_KQ_6 "mxf4nvf4.block_scale.scale_vec::2X"
#define TCK_BS_KQ_7 "mxf4nvf4.block_scale.block32"
#define TCK_BS_KQ_8 "mxf4nvf4.block_scale.scale_vec::4X"
#define TCK_BS_KQ_9 "mxf4nvf4.block_scale.block16"

#define TCK_BS_SS(CGS, KQ)                                                                       \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::" CGS ".kind::" KQ                             \
               " [%0], %1, %2, %3, [%5], [%6], en;\n\t}"                                         \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en), "r"(sfa), "r"(sfb) : "memory");
#define TCK_BS_TS(CGS, KQ)                                                                       \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::" CGS ".kind::" KQ                             \
               " [%0], [%1], %2, %3, [%5], [%6], en;\n\t}"                                       \
               :: "r"(d), "r"(a), "l"(b), "r"(idesc), "r"(en), "r"(sfa), "r"(sfb) : "memory");
#define TCK_BS_CASE(V, FORM, CGS) \
  case V: FORM(CGS, TCK_BS_KQ_##V) break;
#define TCK_BS_SWITCH(FORM, CGS)                                                                   \
  switch (variant) {                                                                               \
    TCK_BS_CASE(0, FORM, CGS) TCK_BS_CASE(1, FORM, CGS) TCK_BS_CASE(2, FORM, CGS)                  \
    TCK_BS_CASE(3, FORM, CGS) TCK_BS_CASE(4, FORM, CGS) TCK_BS_CASE(5, FORM, CGS)                  \
    TCK_BS_CASE(6, FORM, CGS) TCK_BS_CASE(7, FORM, CGS) TCK_BS_CASE(8, FORM, CGS)                  \
    TCK_BS_CASE(9, FORM, CGS)                                                                      \
    default: __trap();                                                                             \
  }

// A from shared memory (descriptor `a`).
template <int CG>
__device__ __forceinline__ void mma_bs_ss(uint32_t variant, uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
                                          uint32_t en, uint32_t sfa, uint32_t sfb) {
  if constexpr (CG == 1) { TCK_BS_SWITCH(TCK_BS_SS, "1") }
  else { TCK_BS_SWITCH(TCK_BS_SS, "2") }
}
// A from tensor memory (address `a`).
template <int CG>
__device__ __forceinline__ void mma_bs_ts(uint32_t variant, uint32_t d, uint32_t a, uint64_t b, uint32_t idesc,
                                          uint32_t en, uint32_t sfa, uint32_t sfb) {
  if constexpr (CG == 1) { TCK_BS_SWITCH(TCK_BS_TS, "1") }
  else { TCK_BS_SWITCH(TCK_BS_TS, "2") }
}

// The block-scaled instruction descriptor (§9.7.16.4.2, Tables 43/44):
//   bit 2 sparse | 4-5 SFB_ID | 7-9 atype | 10-12 btype (mxf4*: 10-11) | 13, 14 negate A, B
//   | 15, 16 transpose A, B (0 for the 4-bit kinds) | 17-22 N >> 3 | 23 scale type (UE8M0 1, UE4M3 0)
//   | 27-28 M >> 7 | 29-30 SFA_ID | 31 K = 96 (0 here).
// Type codes: mxf8f6f4 E4M3 0, E5M2 1, E2M3 3, E3M2 4, E2M1 5; mxf4/mxf4nvf4 E2M1 1.
__host__ __device__ __forceinline__ constexpr uint32_t make_idesc_bs(uint32_t m, uint32_t n, uint32_t atype,
                                                                     uint32_t btype, uint32_t scale_ue8m0,
                                                                     uint32_t sfa_id, uint32_t sfb_id,
                                                                     uint32_t neg_a, uint32_t neg_b,
                                                                     uint32_t sparse = 0) {
  return ((sparse & 1u) << 2) | ((sfb_id & 3u) << 4) | ((atype & 7u) << 7) | ((btype & 7u) << 10) |
         ((neg_a & 1u) << 13) | ((neg_b & 1u) << 14) | (((n >> 3) & 0x3Fu) << 17) | ((scale_ue8m0 & 1u) << 23) |
         (((m >> 7) & 3u) << 27) | ((sfa_id & 3u) << 29);
}

// ------------------------------------------------------------------------------------------------
// tcgen05.cp shapes (§9.7.16.9.2) from a shared-memory descriptor: .32x128b.warpx4 (32 rows of 16
// bytes, each to lanes r + 32q of the four sub-partitions: how CUTLASS and DeepGEMM load scale
// factors), .64x128b.warpx2::01_23 (rows 0-31 to sub-partitions 0 and 1, rows 32-63 to 2 and 3),
// .64x128b.warpx2::02_13 (rows to lanes r and 64 + r), .128x128b, .4x256b (lane 32r).
template <int CG>
__device__ __forceinline__ void tmem_cp_32x128b_warpx4(uint32_t taddr, uint64_t sdesc) {
  if constexpr (CG == 1)
    asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
  else
    asm volatile("tcgen05.cp.cta_group::2.32x128b.warpx4 [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
}
template <int CG>
__device__ __forceinline__ void tmem_cp_64x128b_warpx2_01_23(uint32_t taddr, uint64_t sdesc) {
  if constexpr (CG == 1)
    asm volatile("tcgen05.cp.cta_group::1.64x128b.warpx2::01_23 [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
  else
    asm volatile("tcgen05.cp.cta_group::2.64x128b.warpx2::01_23 [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
}
template <int CG>
__device__ __forceinline__ void tmem_cp_128x128b(uint32_t taddr, uint64_t sdesc) {
  if constexpr (CG == 1)
    asm volatile("tcgen05.cp.cta_group::1.128x128b [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
  else
    asm volatile("tcgen05.cp.cta_group::2.128x128b [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
}
template <int CG>
__device__ __forceinline__ void tmem_cp_128x256b_cg(uint32_t taddr, uint64_t sdesc) {
  if constexpr (CG == 1)
    asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
  else
    asm volatile("tcgen05.cp.cta_group::2.128x256b [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
}

// 32x32b.x4 store: thread t -> lane L0+t, columns C0..C0+3.
__device__ __forceinline__ void tmem_st_32x32b_x4(uint32_t taddr, const uint32_t (&r)[4]) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x4.b32 [%0], {%1,%2,%3,%4};"
               :: "r"(taddr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
}

// ------------------------------------------------------------------------------------------------
// Sparse tcgen05.mma (§9.7.16.10.9.2): [sp-meta-tmem] after b-desc; the descriptor's sparse bit and
// selector (bits 0-2) say the rest.
//   tcgen05.mma.sp.cta_group.kind [d-tmem], a-desc, b-desc, [sp-meta-tmem], idesc, enable-input-d;
template <Kind K, int CG>
__device__ __forceinline__ void mma_sp_ss(uint32_t d, uint64_t a, uint64_t b, uint32_t meta, uint32_t idesc,
                                          uint32_t en) {
#define TCK_MMA_SP(KS)                                                                             \
  asm volatile(TCK_PRED_EN "tcgen05.mma.sp.cta_group::" CGS ".kind::" KS " [%0], %1, %2, [%5], %3, en;\n\t}" \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en), "r"(meta) : "memory");
  if constexpr (CG == 1) {
#define CGS "1"
    TCK_FOR_KIND(K, TCK_MMA_SP)
#undef CGS
  } else {
#define CGS "2"
    TCK_FOR_KIND(K, TCK_MMA_SP)
#undef CGS
  }
#undef TCK_MMA_SP
}

// ------------------------------------------------------------------------------------------------
// Weight-stationary tcgen05.mma.ws with a B collector buffer (§9.7.16.10.9.3):
//   tcgen05.mma.ws.cta_group::1.kind.collector::bN::{fill,use,lastuse,discard}
//       [d-tmem], a-desc, b-desc, idesc, enable-input-d;
enum : uint32_t { kCollFill = 0, kCollUse = 1, kCollLastuse = 2, kCollDiscard = 3 };
#define TCK_MMA_WS_COLL(KS, USE)                                                                   \
  asm volatile(TCK_PRED_EN "tcgen05.mma.ws.cta_group::1.kind::" KS ".collector::b0::" USE          \
               " [%0], %1, %2, %3, en;\n\t}" :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en) : "memory");
#define TCK_MMA_WS_FILL(KS) TCK_MMA_WS_COLL(KS, "fill")
#define TCK_MMA_WS_USE(KS) TCK_MMA_WS_COLL(KS, "use")
#define TCK_MMA_WS_LASTUSE(KS) TCK_MMA_WS_COLL(KS, "lastuse")
#define TCK_MMA_WS_DISCARD(KS) TCK_MMA_WS_COLL(KS, "discard")
template <Kind K>
__device__ __forceinline__ void mma_ws_b0(uint32_t use, uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
                                          uint32_t en) {
  switch (use) {
    case kCollFill: { TCK_FOR_KIND(K, TCK_MMA_WS_FILL) } break;
    case kCollUse: { TCK_FOR_KIND(K, TCK_MMA_WS_USE) } break;
    case kCollLastuse: { TCK_FOR_KIND(K, TCK_MMA_WS_LASTUSE) } break;
    default: { TCK_FOR_KIND(K, TCK_MMA_WS_DISCARD) } break;
  }
}

// ------------------------------------------------------------------------------------------------
// Cluster launch control (§9.7.13): cancel a cluster that has not started and take its work.
//   clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [addr], [mbar];
//   clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, resp;
//   clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {x, y, z, _}, resp;
__device__ __forceinline__ void clc_try_cancel(uint32_t resp, uint32_t mbar) {
  asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];"
               :: "r"(resp), "r"(mbar) : "memory");
}
// Reads the 16-byte response; true (and the first ctaid of the canceled cluster) when canceled.
__device__ __forceinline__ bool clc_query(uint32_t resp, uint32_t* x, uint32_t* y, uint32_t* z) {
  uint32_t ok = 0;
  asm volatile("{\n\t.reg .b128 r;\n\t.reg .pred p;\n\t"
               "ld.shared.b128 r, [%4];\n\t"
               "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, r;\n\t"
               "selp.u32 %3, 1, 0, p;\n\t"
               "@p clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%0, %1, %2, _}, r;\n\t}"
               : "=r"(*x), "=r"(*y), "=r"(*z), "=r"(ok) : "r"(resp) : "memory");
  return ok != 0;
}

}  // namespace tck
