// What the binder of tcgen05.mma (tcgen05_mma.cc) hands to its issue (tcgen05_mma_issue.cc): the
// form, packed into ExecInstr::aux, and the operand slots. Internal to the tcgen05.mma family.
#pragma once
#include <cstdint>

#include "isa/arch.h"
#include "isa/legality.h"
#include "isa/mma_kind.h"
#include "sim/exec/exec.h"

namespace tcsim::sim::tcgen05_mma {

// ExecInstr::aux.
enum : uint64_t {
  kAuxCg2 = 1u << 0,
  kAuxWs = 1u << 1,
  kAuxATmem = 1u << 2,
  kAuxDisable = 1u << 3,    // has {disable-output-lane}
  kAuxScale = 1u << 4,      // has scale-input-d (value in bits 8-11)
  kAuxZcm = 1u << 5,        // has zero-column-mask-desc
  kAuxEnableNeg = 1u << 6,  // enable-input-d is !p
  kAuxBlock = 1u << 7,      // .block_scale: [scale-A-tmem], [scale-B-tmem]
  // bits 8-11: scale-input-d; 12-14: kind; 16-19: arch
  kAuxSparse = 1u << 20,     // .sp: [sp-meta-tmem]
  kAuxAshift = 1u << 21,     // .ashift
  kAuxEnableImm = 1u << 22,  // enable-input-d is an immediate (value: bit 23)
  kAuxEnableImmVal = 1u << 23,
  // bits 24-26: scale vector (isa::ScaleVec + 1; 0 = not block-scaled)
  // bits 27-29: collector usage (Collector); bits 30-31: collector buffer (.ws: b0..b3)
  kAuxCollectorB = uint64_t{1} << 32,  // the collector qualifier names a B buffer (.ws)
  // bits 33-36: the PTX operand index of an immediate enable-input-d (for its finding's text)
};
inline uint32_t aux_enable_imm_operand(uint64_t a) { return static_cast<uint32_t>((a >> 33) & 15); }

// Collector usage (§9.7.16.10.9.1 .collector::a, §9.7.16.10.9.3 .collector::bN): no qualifier
// is ::discard.
enum class Collector : uint8_t { Discard, Fill, Use, LastUse };

inline isa::MmaKind aux_kind(uint64_t a) { return isa::MmaKind((a >> 12) & 7); }
inline isa::Arch aux_arch(uint64_t a) { return isa::Arch((a >> 16) & 15); }
inline std::optional<isa::ScaleVec> aux_scale_vec(uint64_t a) {
  const uint64_t v = (a >> 24) & 7;
  if (!v) return std::nullopt;
  return isa::ScaleVec(v - 1);
}
inline Collector aux_collector(uint64_t a) { return Collector((a >> 27) & 7); }
inline uint32_t aux_collector_buffer(uint64_t a) { return static_cast<uint32_t>((a >> 30) & 3); }

// Operand slots (ExecInstr::first_op + i).
enum : uint32_t {
  kOpD = 0,       // [d-tmem] address
  kOpA = 1,       // [a-tmem] address (A from TMEM) or {ref = a-desc}
  kOpB = 2,       // b-desc
  kOpIdesc = 3,
  kOpEnable = 4,  // enable-input-d (predicate)
  kOpZcm = 5,     // zero-column-mask-desc (.ws)
  kOpSfa = 6,     // [scale-A-tmem]
  kOpSfb = 7,     // [scale-B-tmem]
  kOpMeta = 8,    // [sp-meta-tmem]
  kOpDisable = 9, // disable-output-lane words (4 or 8)
};

// Plans one tcgen05.mma of `lane` and issues it to the tensor core (tcgen05_mma_issue.cc).
void issue(ExecCtx& c, const ExecInstr& in, int lane);

}  // namespace tcsim::sim::tcgen05_mma
