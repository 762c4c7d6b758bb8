#include "sim/exec/tcgen05_common.h"

#include "isa/ptx/dump.h"
#include "sim/address_space.h"
#include "sim/memory/dsmem.h"

namespace tcsim::sim::tcgen05 {

using isa::ptx::Mod;
using isa::ptx::Op;

namespace {

bool is_tcgen05_with_cta_group(Op op) {
  switch (op) {
    case Op::tcgen05_alloc:
    case Op::tcgen05_dealloc:
    case Op::tcgen05_relinquish_alloc_permit:
    case Op::tcgen05_cp:
    case Op::tcgen05_shift:
    case Op::tcgen05_mma:
    case Op::tcgen05_commit:
      return true;
    default:
      return false;
  }
}

int cta_group_mod(const isa::ptx::Instr& in) {
  if (in.has(Mod::cta_group_1)) return 1;
  if (in.has(Mod::cta_group_2)) return 2;
  return 0;
}

}  // namespace

int bind_cta_group(BindCtx& b, bool required) {
  const int cg = cta_group_mod(b.in);
  if (b.in.has(Mod::cta_group_1) && b.in.has(Mod::cta_group_2))
    b.fail("both .cta_group::1 and .cta_group::2 given");
  if (cg == 0) {
    if (required) b.fail("missing .cta_group::1 or .cta_group::2 (PTX ISA §9.7.16)");
    return 1;
  }
  // The kernel-wide rule, over the function this instruction is in (ptxas reports the same: "uses
  // single CTA and CTA pair granularity").
  for (const isa::ptx::Instr& o : b.f.instrs) {
    if (!is_tcgen05_with_cta_group(o.op)) continue;
    const int ocg = cta_group_mod(o);
    if (ocg != 0 && ocg != cg)
      b.fail(fmt::format("uses .cta_group::{} but line {} (`{}`) uses .cta_group::{}: every tcgen05 "
                         "instruction of a kernel must use the same .cta_group (PTX ISA §9.7.16.7.1, "
                         "§9.7.16.10.9.1, §9.7.16.12.1)",
                         cg, o.loc.line, isa::ptx::dump_instr(b.m, b.f, o), ocg));
  }
  return cg;
}

void require_converged_warp(ExecCtx& c, const char* what) {
  const uint32_t live = c.warp->valid() & ~c.warp->exited();
  if (c.mask == live) return;
  const uint32_t missing = live & ~c.mask;
  c.fail(__builtin_ctz(c.mask),
         fmt::format("{} is .sync.aligned: all threads of the warp must execute it together, but lanes "
                     "0x{:08x} of the warp are not executing it here (diverged, or predicated off){} (PTX "
                     "ISA §9.7.16.7.1, §9.7.16.8)",
                     what, missing,
                     (c.warp->exited() & c.warp->valid()) ? "; exited lanes are undefined behaviour too" : ""));
}

uint32_t uniform_u32(ExecCtx& c, Ref r, const char* what, const char* section) {
  const uint64_t* v = c.src(r);
  const int first = __builtin_ctz(c.mask);
  const uint32_t x = static_cast<uint32_t>(v[first]);
  for_lanes(c.mask, [&](int i) {
    if (static_cast<uint32_t>(v[i]) != x)
      c.fail(i, fmt::format("{} must be the same in every thread of the warp ({}): lane {} has 0x{:x}, lane {} "
                            "has 0x{:x}",
                            what, section, first, x, i, static_cast<uint32_t>(v[i])));
  });
  return x;
}

uint32_t shared_offset(ExecCtx& c, int lane, uint64_t addr, uint32_t size, bool generic, const char* what) {
  if (generic) {
    // ptxas uses the low 32 bits of a generic address as the shared address (SASS: STS / UTCBAR on
    // the low register; docs/shared_memory.md).
    if (addr::classify(addr) != addr::Window::Shared)
      c.fail(lane, fmt::format("{}: generic address 0x{:x} is not in the shared-memory window", what, addr));
    addr = mem::generic_to_shared(addr);
  }
  const uint32_t off = mem::own_shared_offset(c, lane, addr, what);
  if (uint64_t{off} + size > c.cta->smem_bytes() || (off & (size - 1)))
    c.fail(lane, fmt::format("{}: shared address 0x{:x} ({} bytes) is outside this CTA's shared memory [0x{:x}, "
                             "0x{:x}) or not {}-byte aligned",
                             what, addr, size, mem::own_shared_address(*c.cta, 0),
                             mem::own_shared_address(*c.cta, c.cta->smem_bytes()), size));
  return off;
}

}  // namespace tcsim::sim::tcgen05
