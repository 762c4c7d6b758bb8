// Helpers shared by the tcgen05 family files (sim/exec/tcgen05_*.cc): the .cta_group modifier and
// its kernel-wide rule, warp-collective (.sync.aligned) operand checks, lane selection.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "isa/descriptors/smem_desc.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/element_format.h"
#include "isa/ptx/ir.h"
#include "sim/cta.h"
#include "sim/exec/bind.h"
#include "sim/exec/exec.h"
#include "sim/exec/warp_collective.h"
#include "sim/sm.h"
#include "sim/units/smem_origin.h"
#include "sim/units/tensor_core.h"
#include "sim/warp.h"

namespace tcsim::sim::tcgen05 {

// The .cta_group::N of a tcgen05 instruction (1 or 2; `required`: the form must state it). Also
// enforces, at load, that every tcgen05 instruction of the kernel function uses the same value
// (PTX ISA §9.7.16.7.1, §9.7.16.8-12: "all the tcgen05 instructions in a kernel must specify the
// same value of .cta_group").
int bind_cta_group(BindCtx& b, bool required = true);

// .sync.aligned (PTX ISA §9.7.16.7.1, §9.7.16.8.3-5): every thread of the warp executes the
// instruction convergently. False when the group parked to wait for the rest of the warp (return at
// once: the instruction runs again with the whole warp); fails naming the lanes that exited or are
// predicated off (sim/exec/warp_collective.h).
inline bool await_converged_warp(ExecCtx& c, const char* what) {
  return sim::await_converged_warp(c, what, "PTX ISA §9.7.16.7.1, §9.7.16.8");
}

// The value of a source that every executing lane must agree on (e.g. taddr, nCols).
uint32_t uniform_u32(ExecCtx& c, Ref r, const char* what, const char* section);

// Bits of ExecInstr::aux shared by several tcgen05 forms.
inline uint64_t aux_cta_group(int cg) { return cg == 2 ? 1 : 0; }
inline int cta_group_of(uint64_t aux) { return (aux & 1) ? 2 : 1; }

// The shared-memory window of a CTA (PTX ISA §5.1.3, §6.4.1.1): shared::cta / shared::cluster
// addresses of the own CTA and generic addresses in the shared window -> a CTA offset, or fails.
// The operand is read as the hardware reads it (sim/memory/shared_operand.h: its low 32 bits).
uint32_t shared_offset(ExecCtx& c, int lane, uint64_t addr, uint32_t size, bool generic, const char* what);

// The write-after-read rule of §9.7.16.6.4 pattern (e) for an asynchronous tcgen05 operation
// (`what`: tcgen05.mma / .cp / .shift) that writes `writes` of `cta`'s Tensor Memory (unit `u`):
// a tcgen05.ld of any warp of the CTA that reads those cells and was not yet waited for with
// tcgen05.wait::ld is the finding tcgen05-war-ld. Returns true when it reported.
bool check_ld_war(ExecCtx& c, int lane, TensorCore& u, const Cta& cta, const TmemRange& writes, const char* what);

// The swizzle-bug diagnosis (tcgen05_mma_diagnose.cc): when operand `name` ("A"/"B") of a
// tcgen05.mma was loaded into `cta`'s shared memory by TMA, checks that `plan` (rows x K element
// locations from descriptor `raw`) reads a consistent tile, else reports the first misread element,
// the tensor map TMA wrote it with (its launch-spec name and swizzle field) and the descriptor field
// whose change fixes it (the finding tcgen05-descriptor-misread). The verdict is judged once per
// descriptor value and operand of the CTA (`seen`); every MMA that misreads counts in the finding of
// its (instruction, operand), and the report text is built only for the occurrences kept in full.
void diagnose_operand(ExecCtx& c, int lane, const Cta& cta, const char* name, uint64_t raw, isa::Arch arch,
                      isa::Major major, isa::ElementFormat fmt, uint32_t rows, uint32_t K,
                      const std::vector<isa::SmemLocation>& plan, std::map<std::pair<uint64_t, char>, bool>& seen);

// Whether `plan` misreads what TMA wrote (false also when the origin of some element is unknown).
bool misreads(const SmemOrigin& o, const char* name, isa::Major major, isa::ElementFormat fmt, uint32_t rows,
              uint32_t K, const std::vector<isa::SmemLocation>& plan);

// Its report, without a running kernel: the text for `plan` over the origin map `o` of a CTA with
// `smem` bytes of shared memory, or empty when every element is read where TMA put it (or the
// origin of some element is unknown). `tensor_map`: how to name the map TMA used ("tensor map `tmA`"),
// or empty.
std::string misread_report(const SmemOrigin& o, uint32_t smem, const char* name, uint64_t raw, isa::Arch arch,
                          isa::Major major, isa::ElementFormat fmt, uint32_t rows, uint32_t K,
                          const std::vector<isa::SmemLocation>& plan, const std::string& tensor_map = "");

// PTX ISA section strings used in several messages.
inline constexpr const char* kSecAlloc = "PTX ISA §9.7.16.7.1";
inline constexpr const char* kSecLdSt = "PTX ISA §9.7.16.8.3-4";

}  // namespace tcsim::sim::tcgen05
