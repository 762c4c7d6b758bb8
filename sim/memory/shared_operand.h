// A shared-memory address operand as the hardware reads it (tcgen05.alloc's [dst], tcgen05.commit's
// [mbar], the mbarrier instructions' [addr]; docs/hardware_tolerance.md): ptxas 13.0 compiles each of
// them, with a state space (.shared::cta / .shared::cluster) or without one (generic), to an
// instruction that takes the 32-bit shared address in the operand's low 32 bits (STS, SYNCS.*,
// UTCBAR), with no check of the high bits. So on the GPU a generic address of shared memory where a
// .shared one is expected works (its low 32 bits are the shared address), and so does a 32-bit
// shared address where a generic one is expected. PTX ISA §6.4.1 leaves both undefined; tcsim
// serves them as the hardware does and records the findings generic-address-as-shared and
// shared-address-as-generic. An address in another generic window (global, local, param) stays an
// error.
#pragma once
#include <cstdint>

#include "sim/exec/exec.h"

namespace tcsim::sim::mem {

// `addr`: the operand of `lane`; `generic`: the instruction names no state space. Returns the
// shared address (.shared::cta, or .shared::cluster where the instruction allows it) the hardware
// uses: the low 32 bits.
uint64_t shared_operand(ExecCtx& c, int lane, uint64_t addr, bool generic, const char* what);

}  // namespace tcsim::sim::mem
