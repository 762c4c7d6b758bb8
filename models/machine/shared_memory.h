// A CTA's shared memory as the GPU lays it out and addresses it (PTX ISA §5.1.7 "Distributed shared
// memory", §6.4.1 "Generic addressing"). PTX leaves the numbers to the implementation; these are
// the H200's, measured (kernels/cluster/smem_addr.cu, smem_sregs.cu goldens) and read from ptxas
// 13.0's SASS for sm_90a and sm_100a (kernels/probes/results/h200-2026-12-01-machine/sass_addr.txt);
// docs/shared_memory.md has the evidence.
//
//   32-bit shared address (.shared::cta and .shared::cluster alike):
//     31            24 23                                0
//    +----------------+-----------------------------------+
//    | cluster rank   | offset in that CTA's shared memory |     SASS: LEA R, SR_CgaCtaId, off, 0x18
//    +----------------+-----------------------------------+
//   A CTA's own addresses carry its own rank (%cluster_ctarank), so `a & ~(1 << 24)` is the even
//   CTA of a pair and `(a & 0x00ffffff) | r << 24` is CTA r's copy (exactly what mapa returns).
//   Generic address of shared memory: window_hi(32) : shared address(32) (SR_SWINHI : address).
//
//   offset:  0x000 .. 0x3ff   system reserve (%reserved_smem_offset_begin .. _cap)
//            0x400 ..         static variables in declaration order, each at its alignment
//            0x400 + align_up(static end, A)   an extern (dynamic) array declared with alignment A
//   The CTA occupies reserve + static bytes + dynamic bytes, where "static bytes" (what ptxas -v
//   reports) is the static end rounded up to the largest alignment of any extern .shared array of
//   the module (every kernel of the module, whether it uses the array or not).
#pragma once
#include <cstdint>

#include "models/machine/machine_config.h"

namespace tcsim::models {

// ---- the 32-bit shared address ----
inline constexpr uint32_t kSmemRankShift = 24;
inline constexpr uint32_t kSmemOffsetMask = (1u << kSmemRankShift) - 1;
constexpr uint32_t smem_rank(uint32_t addr) { return addr >> kSmemRankShift; }
constexpr uint32_t smem_offset(uint32_t addr) { return addr & kSmemOffsetMask; }
constexpr uint32_t smem_address(uint32_t rank, uint32_t offset) {
  return rank << kSmemRankShift | (offset & kSmemOffsetMask);
}
// mapa (PTX ISA §9.7.9.23) as the H200 computes it: the offset kept, the rank field replaced by the
// low 8 bits of `rank`, no range check (mapa of rank 255 in a cluster of 2 returns 0xff000000 | offset).
constexpr uint32_t smem_mapa(uint32_t addr, uint32_t rank) { return smem_address(rank & 0xff, smem_offset(addr)); }

// ---- the layout of one CTA ----
struct SmemLayout {
  uint32_t reserved = 0;       // bytes of system reserve at offset 0
  uint32_t static_end = 0;     // end of the static variables, relative to `reserved`
  uint32_t static_bytes = 0;   // static_end rounded up to the largest extern alignment (ptxas -v)
  uint32_t dynamic_bytes = 0;  // the launch's dynamic shared memory
  uint32_t granularity = 1;

  // Offset of static variable storage that the binder placed at `rel` (0-based, declaration order).
  uint32_t static_offset(uint32_t rel) const { return reserved + rel; }
  // Offset of an extern .shared array declared with alignment `align`.
  uint32_t dynamic_offset(uint32_t align) const {
    const uint32_t a = align ? align : 1;
    return reserved + (static_end + a - 1) / a * a;
  }
  // %total_smem_size: static + dynamic bytes rounded up to the allocation granularity.
  uint32_t total_smem_size() const {
    return (static_bytes + dynamic_bytes + granularity - 1) / granularity * granularity;
  }
  // %aggr_smem_size: reserve + static + dynamic bytes.
  uint32_t aggr_smem_size() const { return reserved + static_bytes + dynamic_bytes; }
  // One past the last byte a CTA may touch: the reserve plus %total_smem_size (the H200 faults on a
  // TMA box that ends beyond it: kernels/tma/README.md; it also bounds generic accesses in tcsim).
  uint32_t limit() const { return reserved + total_smem_size(); }
  // Bytes the CTA takes from its SM's shared memory (residency): %aggr_smem_size rounded up to the
  // allocation granularity.
  uint32_t cta_bytes() const { return (aggr_smem_size() + granularity - 1) / granularity * granularity; }
};

// static_end: end of the variables the binder laid out from 0; max_extern_align: largest alignment
// of an extern .shared array of the module (0 when it has none).
inline SmemLayout smem_layout(const MachineConfig& m, uint32_t static_end, uint32_t max_extern_align,
                              uint32_t dynamic_bytes) {
  SmemLayout l;
  l.reserved = m.reserved_smem_per_cta;
  l.static_end = static_end;
  const uint32_t a = max_extern_align ? max_extern_align : 1;
  l.static_bytes = (static_end + a - 1) / a * a;
  l.dynamic_bytes = dynamic_bytes;
  l.granularity = m.smem_alloc_granularity;
  return l;
}

}  // namespace tcsim::models
