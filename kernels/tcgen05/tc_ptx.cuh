// Thin inline-PTX wrappers for the instructions the tcgen05 corpus uses: one function per PTX form,
// each headed by its syntax and PTX ISA section (9.2 numbering; docs/tensor_memory.md and
// docs/tma_and_mbarrier.md). Inline PTX rather than a library so the generated PTX shows exactly the
// instruction forms tcsim must execute. Device-only; sm_100a.
#pragma once

#include <cstdint>

namespace tck {

enum class Kind { F16, TF32, F8F6F4, I8 };

// ------------------------------------------------------------------------------------------------
// Shared memory, special registers, clusters (§9.7.9.23 mapa, §9.7.13.3 barrier.cluster).

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ uint32_t dynamic_smem_size() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r));
  return r;
}

__device__ __forceinline__ uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

// mapa.shared::cluster.u32 d, a, rank: the address of the same shared variable in CTA `rank`.
__device__ __forceinline__ uint32_t mapa_shared(uint32_t addr, uint32_t rank) {
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
  return r;
}

// barrier.cluster.arrive.release.aligned + barrier.cluster.wait.acquire.aligned: every thread of
// every CTA of the cluster; the release/acquire pair orders shared-memory and mbarrier.init writes.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
               "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// elect.sync (§9.7.13.14): one lane of the full warp; true in the elected lane.
__device__ __forceinline__ bool elect_one() {
  uint32_t pred = 0;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "elect.sync _|p, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}" : "=r"(pred));
  return pred != 0;
}

// ------------------------------------------------------------------------------------------------
// mbarrier (§9.7.13.15). Addresses are .shared::cta 32-bit addresses unless named *_cluster.

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

// fence.mbarrier_init.release.cluster (§9.7.13.4): makes the inits visible to the cluster
// (tcgen05.commit and TMA complete_tx arrive at cluster scope).
__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

// Remote arrive on a barrier of another CTA of the cluster: the .shared::cluster form must use the
// sink `_` for the state (§9.7.13.15.13).
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar_cluster_addr) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];"
               :: "r"(bar_cluster_addr) : "memory");
}

// expect-tx(bytes) then arrive (§9.7.13.15.13).
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;"
               :: "r"(bar), "r"(bytes) : "memory");
}

// Spin on try_wait.parity until the phase with parity `parity` has completed (§9.7.13.15.16).
// Cluster-scope acquire: the phase may have been completed by the peer CTA's tcgen05.commit or
// TMA complete_tx.
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  // The label is local to the { } block, so every inlined copy may reuse it.
  asm volatile("{\n\t.reg .pred done;\n"
               "TCK_WAIT:\n\t"
               "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], %1;\n\t"
               "@!done bra TCK_WAIT;\n\t}" :: "r"(bar), "r"(parity) : "memory");
}

// ------------------------------------------------------------------------------------------------
// Proxy fence (§9.7.13.4): generic-proxy st.shared of an MMA operand, then the async proxy
// (tcgen05.mma / tcgen05.cp) reads it (§9.7.16.6.5).
__device__ __forceinline__ void fence_proxy_async_smem() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// ------------------------------------------------------------------------------------------------
// TMA tile loads (§9.7.9.25.5.2). `tmap` is the generic address of a __grid_constant__ CUtensorMap.
// c0 is the innermost coordinate.

// cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [map, {c0, c1}], [mbar];
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const void* tmap, int32_t c0, int32_t c1,
                                            uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];"
      :: "r"(dst), "l"(tmap), "r"(c0), "r"(c1), "r"(bar) : "memory");
}

// The CTA-pair form: the data lands in this CTA (dst is a .shared::cta address of the executing
// CTA), the complete_tx goes to `bar_cluster`, which may be the peer CTA's barrier (§9.7.9.25.5.2:
// ".cta_group::2: mbar may be in the destination CTA or its peer").
__device__ __forceinline__ void tma_load_2d_cg2(uint32_t dst, const void* tmap, int32_t c0,
                                                int32_t c1, uint32_t bar_cluster) {
  asm volatile(
      "cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];"
      :: "r"(dst), "l"(tmap), "r"(c0), "r"(c1), "r"(bar_cluster) : "memory");
}

// ------------------------------------------------------------------------------------------------
// tcgen05 allocation (§9.7.16.7.1). Whole warp, .sync.aligned. cta_group::2: one warp in each CTA
// of the pair, collectively.

#define TCK_CG_STR(CG) ((CG) == 1 ? "1" : "2")

template <int CG>
__device__ __forceinline__ void tmem_alloc(uint32_t dst_smem, uint32_t ncols) {
  if constexpr (CG == 1)
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(dst_smem), "r"(ncols) : "memory");
  else
    asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(dst_smem), "r"(ncols) : "memory");
}

template <int CG>
__device__ __forceinline__ void tmem_dealloc(uint32_t taddr, uint32_t ncols) {
  if constexpr (CG == 1)
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                 :: "r"(taddr), "r"(ncols) : "memory");
  else
    asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;"
                 :: "r"(taddr), "r"(ncols) : "memory");
}

template <int CG>
__device__ __forceinline__ void tmem_relinquish() {
  if constexpr (CG == 1)
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  else
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
}

// tcgen05.fence::before_thread_sync / ::after_thread_sync (§9.7.16.11.1).
__device__ __forceinline__ void tc_fence_before() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}
__device__ __forceinline__ void tc_fence_after() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// tcgen05.commit (§9.7.16.12.1): one arrive on `bar` once every prior async tcgen05 op of this
// thread has completed.
template <int CG>
__device__ __forceinline__ void tc_commit(uint32_t bar) {
  if constexpr (CG == 1)
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"(bar) : "memory");
  else
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"(bar) : "memory");
}

// .multicast::cluster: the arrive goes to the barrier at the same offset in every CTA whose
// %cluster_ctarank bit is set in ctaMask.
template <int CG>
__device__ __forceinline__ void tc_commit_multicast(uint32_t bar, uint16_t cta_mask) {
  if constexpr (CG == 1)
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64"
                 " [%0], %1;" :: "r"(bar), "h"(cta_mask) : "memory");
  else
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64"
                 " [%0], %1;" :: "r"(bar), "h"(cta_mask) : "memory");
}

// ------------------------------------------------------------------------------------------------
// tcgen05.ld / tcgen05.st (§9.7.16.8.3-5). Each load is issued together with tcgen05.wait::ld in
// one asm statement, so no compiler scheduling can read the destination registers before the
// wait (§9.7.16.8.5). Every wrapper covers 8 TMEM columns (4 with .pack::16b, see below).
// Thread/register -> (lane, column) maps: docs/tensor_memory.md §3 (and README.md here).

#define TCK_R4(r) "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
#define TCK_R8(r) TCK_R4(r), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])

// 32x32b.x8: thread t <- lane L0+t, columns C0..C0+7.
__device__ __forceinline__ void tmem_ld_32x32b_x8(uint32_t taddr, uint32_t (&r)[8]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8];\n\t"
               "tcgen05.wait::ld.sync.aligned;" : TCK_R8(r) : "r"(taddr) : "memory");
}
// 32x32b.x4.pack::16b: register j <- low halves of columns C0+2j (bits 0-15) and C0+2j+1 (16-31).
__device__ __forceinline__ void tmem_ld_32x32b_x4_pack16(uint32_t taddr, uint32_t (&r)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x4.pack::16b.b32 {%0,%1,%2,%3}, [%4];\n\t"
               "tcgen05.wait::ld.sync.aligned;" : TCK_R4(r) : "r"(taddr) : "memory");
}
// 16x64b.x4: 16 lanes x 2 columns per repetition; 4 repetitions = 8 columns.
__device__ __forceinline__ void tmem_ld_16x64b_x4(uint32_t taddr, uint32_t (&r)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.16x64b.x4.b32 {%0,%1,%2,%3}, [%4];\n\t"
               "tcgen05.wait::ld.sync.aligned;" : TCK_R4(r) : "r"(taddr) : "memory");
}
// 16x128b.x2: 16 lanes x 4 columns per repetition.
__device__ __forceinline__ void tmem_ld_16x128b_x2(uint32_t taddr, uint32_t (&r)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.16x128b.x2.b32 {%0,%1,%2,%3}, [%4];\n\t"
               "tcgen05.wait::ld.sync.aligned;" : TCK_R4(r) : "r"(taddr) : "memory");
}
// 16x256b.x1: 16 lanes x 8 columns.
__device__ __forceinline__ void tmem_ld_16x256b_x1(uint32_t taddr, uint32_t (&r)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.16x256b.x1.b32 {%0,%1,%2,%3}, [%4];\n\t"
               "tcgen05.wait::ld.sync.aligned;" : TCK_R4(r) : "r"(taddr) : "memory");
}
// 16x32bx2.x4 with immHalfSplitoff = 4: threads 0-15 <- columns C0..C0+3 of lanes L0+t,
// threads 16-31 <- columns C0+4..C0+7 of lanes L0+t-16.
__device__ __forceinline__ void tmem_ld_16x32bx2_x4(uint32_t taddr, uint32_t (&r)[4]) {
  asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x4.b32 {%0,%1,%2,%3}, [%4], 4;\n\t"
               "tcgen05.wait::ld.sync.aligned;" : TCK_R4(r) : "r"(taddr) : "memory");
}

// 32x32b.x32 (epilogue of the GEMMs): thread t <- lane L0+t, columns C0..C0+31.
__device__ __forceinline__ void tmem_ld_32x32b_x32(uint32_t taddr, uint32_t (&r)[32]) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,"
      "%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, [%32];\n\t"
      "tcgen05.wait::ld.sync.aligned;"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),
        "=r"(r[7]), "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]),
        "=r"(r[14]), "=r"(r[15]), "=r"(r[16]), "=r"(r[17]), "=r"(r[18]), "=r"(r[19]),
        "=r"(r[20]), "=r"(r[21]), "=r"(r[22]), "=r"(r[23]), "=r"(r[24]), "=r"(r[25]),
        "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]), "=r"(r[30]), "=r"(r[31])
      : "r"(taddr) : "memory");
}
// 32x32b.x16.pack::16b: 32 columns of 16-bit D, two per register.
__device__ __forceinline__ void tmem_ld_32x32b_x16_pack16(uint32_t taddr, uint32_t (&r)[16]) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x16.pack::16b.b32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,"
      "%12,%13,%14,%15}, [%16];\n\t"
      "tcgen05.wait::ld.sync.aligned;"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),
        "=r"(r[7]), "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]),
        "=r"(r[14]), "=r"(r[15])
      : "r"(taddr) : "memory");
}

// 32x32b.x8 store: thread t -> lane L0+t, columns C0..C0+7. Completion: tcgen05.wait::st.
__device__ __forceinline__ void tmem_st_32x32b_x8(uint32_t taddr, const uint32_t (&r)[8]) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], {%1,%2,%3,%4,%5,%6,%7,%8};"
               :: "r"(taddr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]),
                  "r"(r[6]), "r"(r[7]) : "memory");
}
__device__ __forceinline__ void tmem_wait_st() {
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

// ------------------------------------------------------------------------------------------------
// tcgen05.cp (§9.7.16.9.2): 128 lanes x 256 bits from a shared-memory matrix descriptor; the
// decompressing forms expand 16 fp4 (8 B + 8 B pad) / 16 fp6 (12 B + 4 B pad) per 16-B source unit
// into 16 8-bit containers. Issued by one thread; completion through tcgen05.commit.
__device__ __forceinline__ void tmem_cp_128x256b(uint32_t taddr, uint64_t sdesc) {
  asm volatile("tcgen05.cp.cta_group::1.128x256b [%0], %1;" :: "r"(taddr), "l"(sdesc) : "memory");
}
__device__ __forceinline__ void tmem_cp_128x256b_b4(uint32_t taddr, uint64_t sdesc) {
  asm volatile("tcgen05.cp.cta_group::1.128x256b.b8x16.b4x16_p64 [%0], %1;"
               :: "r"(taddr), "l"(sdesc) : "memory");
}
__device__ __forceinline__ void tmem_cp_128x256b_b6(uint32_t taddr, uint64_t sdesc) {
  asm volatile("tcgen05.cp.cta_group::1.128x256b.b8x16.b6x16_p32 [%0], %1;"
               :: "r"(taddr), "l"(sdesc) : "memory");
}

// ------------------------------------------------------------------------------------------------
// tcgen05.mma (§9.7.16.10.9.1). One thread issues; `en` is enable-input-d (false: D = A*B).
// Forms, for A from shared memory (a-desc, 64-bit) or tensor memory ([a-tmem]):
//   tcgen05.mma.cta_group.kind [d], a, b-desc, idesc, enable-input-d;                        (plain)
//   tcgen05.mma.cta_group.kind [d], a, b-desc, idesc, {disable-output-lane}, enable-input-d; (mask)
//   ... , {disable-output-lane}, enable-input-d, scale-input-d;  (kind::f16/tf32 only; immediate)
// disable-output-lane: 4 x b32 for cta_group::1, 8 x b32 for cta_group::2.

#define TCK_KIND_F16 "f16"
#define TCK_KIND_TF32 "tf32"
#define TCK_KIND_F8F6F4 "f8f6f4"
#define TCK_KIND_I8 "i8"

// Expands BODY(KIND_STRING) for the kind K (string literals must be spliced at preprocessing time).
#define TCK_FOR_KIND(K, BODY)                                   \
  if constexpr ((K) == Kind::F16) { BODY(TCK_KIND_F16) }        \
  else if constexpr ((K) == Kind::TF32) { BODY(TCK_KIND_TF32) } \
  else if constexpr ((K) == Kind::F8F6F4) { BODY(TCK_KIND_F8F6F4) } \
  else { BODY(TCK_KIND_I8) }

#define TCK_PRED_EN "{\n\t.reg .pred en;\n\tsetp.ne.b32 en, %4, 0;\n\t"

// --- plain forms (the GEMMs) ---
#define TCK_MMA_SS_PLAIN(KS, CGS)                                                               \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::" CGS ".kind::" KS " [%0], %1, %2, %3, en;\n\t}" \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en) : "memory");
#define TCK_MMA_SS_PLAIN_1(KS) TCK_MMA_SS_PLAIN(KS, "1")
#define TCK_MMA_SS_PLAIN_2(KS) TCK_MMA_SS_PLAIN(KS, "2")

template <Kind K, int CG>
__device__ __forceinline__ void mma_ss(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
                                       uint32_t en) {
  if constexpr (CG == 1) { TCK_FOR_KIND(K, TCK_MMA_SS_PLAIN_1) }
  else { TCK_FOR_KIND(K, TCK_MMA_SS_PLAIN_2) }
}

// --- disable-output-lane forms ---
#define TCK_MASK4_IN "r"(m[0]), "r"(m[1]), "r"(m[2]), "r"(m[3])
#define TCK_MASK8_IN TCK_MASK4_IN, "r"(m[4]), "r"(m[5]), "r"(m[6]), "r"(m[7])
#define TCK_MASK4_STR "{%5, %6, %7, %8}"
#define TCK_MASK8_STR "{%5, %6, %7, %8, %9, %10, %11, %12}"

#define TCK_MMA_MASK_SS_1(KS)                                                                  \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::1.kind::" KS " [%0], %1, %2, %3, "           \
               TCK_MASK4_STR ", en;\n\t}"                                                      \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en), TCK_MASK4_IN : "memory");
#define TCK_MMA_MASK_SS_2(KS)                                                                  \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::2.kind::" KS " [%0], %1, %2, %3, "           \
               TCK_MASK8_STR ", en;\n\t}"                                                      \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en), TCK_MASK8_IN : "memory");
#define TCK_MMA_MASK_TS_1(KS)                                                                  \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::1.kind::" KS " [%0], [%1], %2, %3, "         \
               TCK_MASK4_STR ", en;\n\t}"                                                      \
               :: "r"(d), "r"(a), "l"(b), "r"(idesc), "r"(en), TCK_MASK4_IN : "memory");
#define TCK_MMA_MASK_TS_2(KS)                                                                  \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::2.kind::" KS " [%0], [%1], %2, %3, "         \
               TCK_MASK8_STR ", en;\n\t}"                                                      \
               :: "r"(d), "r"(a), "l"(b), "r"(idesc), "r"(en), TCK_MASK8_IN : "memory");

// A from shared memory (descriptor `a`), with the disable-output-lane vector `m`.
template <Kind K, int CG>
__device__ __forceinline__ void mma_ss_mask(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
                                            uint32_t en, const uint32_t* m) {
  if constexpr (CG == 1) { TCK_FOR_KIND(K, TCK_MMA_MASK_SS_1) }
  else { TCK_FOR_KIND(K, TCK_MMA_MASK_SS_2) }
}
// A from tensor memory (address `a`).
template <Kind K, int CG>
__device__ __forceinline__ void mma_ts_mask(uint32_t d, uint32_t a, uint64_t b, uint32_t idesc,
                                            uint32_t en, const uint32_t* m) {
  if constexpr (CG == 1) { TCK_FOR_KIND(K, TCK_MMA_MASK_TS_1) }
  else { TCK_FOR_KIND(K, TCK_MMA_MASK_TS_2) }
}

// --- disable-output-lane + scale-input-d (immediate 0..15; kind::f16 and kind::tf32 only) ---
#define TCK_MMA_SCALE_SS_1(KS)                                                                 \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::1.kind::" KS " [%0], %1, %2, %3, "           \
               TCK_MASK4_STR ", en, %9;\n\t}"                                                  \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en), TCK_MASK4_IN, "n"(S) : "memory");
#define TCK_MMA_SCALE_SS_2(KS)                                                                 \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::2.kind::" KS " [%0], %1, %2, %3, "           \
               TCK_MASK8_STR ", en, %13;\n\t}"                                                 \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en), TCK_MASK8_IN, "n"(S) : "memory");
#define TCK_MMA_SCALE_TS_1(KS)                                                                 \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::1.kind::" KS " [%0], [%1], %2, %3, "         \
               TCK_MASK4_STR ", en, %9;\n\t}"                                                  \
               :: "r"(d), "r"(a), "l"(b), "r"(idesc), "r"(en), TCK_MASK4_IN, "n"(S) : "memory");
#define TCK_MMA_SCALE_TS_2(KS)                                                                 \
  asm volatile(TCK_PRED_EN "tcgen05.mma.cta_group::2.kind::" KS " [%0], [%1], %2, %3, "         \
               TCK_MASK8_STR ", en, %13;\n\t}"                                                 \
               :: "r"(d), "r"(a), "l"(b), "r"(idesc), "r"(en), TCK_MASK8_IN, "n"(S) : "memory");

template <Kind K, int CG, int S>
__device__ __forceinline__ void mma_ss_scale(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
                                             uint32_t en, const uint32_t* m) {
  static_assert(K == Kind::F16 || K == Kind::TF32, "scale-input-d: kind::f16 and kind::tf32 only");
  static_assert(S >= 0 && S <= 15, "scale-input-d is an immediate in 0..15");
  if constexpr (CG == 1) { TCK_FOR_KIND(K, TCK_MMA_SCALE_SS_1) }
  else { TCK_FOR_KIND(K, TCK_MMA_SCALE_SS_2) }
}
template <Kind K, int CG, int S>
__device__ __forceinline__ void mma_ts_scale(uint32_t d, uint32_t a, uint64_t b, uint32_t idesc,
                                             uint32_t en, const uint32_t* m) {
  static_assert(K == Kind::F16 || K == Kind::TF32, "scale-input-d: kind::f16 and kind::tf32 only");
  static_assert(S >= 0 && S <= 15, "scale-input-d is an immediate in 0..15");
  if constexpr (CG == 1) { TCK_FOR_KIND(K, TCK_MMA_SCALE_TS_1) }
  else { TCK_FOR_KIND(K, TCK_MMA_SCALE_TS_2) }
}

// --- weight-stationary .ws (§9.7.16.10.9.3): cta_group::1 only; default collector b0::discard;
//     optional 64-bit zero-column-mask descriptor (§9.7.16.4.3). ---
#define TCK_MMA_WS(KS)                                                                         \
  asm volatile(TCK_PRED_EN "tcgen05.mma.ws.cta_group::1.kind::" KS " [%0], %1, %2, %3, en;\n\t}" \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en) : "memory");
#define TCK_MMA_WS_ZCM(KS)                                                                     \
  asm volatile(TCK_PRED_EN "tcgen05.mma.ws.cta_group::1.kind::" KS " [%0], %1, %2, %3, en, %5;\n\t}" \
               :: "r"(d), "l"(a), "l"(b), "r"(idesc), "r"(en), "l"(zcm) : "memory");

template <Kind K>
__device__ __forceinline__ void mma_ws_ss(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
                                          uint32_t en) {
  TCK_FOR_KIND(K, TCK_MMA_WS)
}
template <Kind K>
__device__ __forceinline__ void mma_ws_ss_zcm(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc,
                                              uint32_t en, uint64_t zcm) {
  TCK_FOR_KIND(K, TCK_MMA_WS_ZCM)
}

}  // namespace tck
