#include "sim/exec/tcgen05_common.h"

#include "isa/ptx/dump.h"
#include "sim/address_space.h"
#include "sim/memory/dsmem.h"
#include "sim/memory/shared_operand.h"
#include "sim/report/report.h"

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
  // The operand as the hardware reads it: its low 32 bits (sim/memory/shared_operand.h).
  addr = mem::shared_operand(c, lane, addr, generic, what);
  const uint32_t off = mem::own_shared_offset(c, lane, addr, what);
  if (uint64_t{off} + size > c.cta->smem_bytes() || (off & (size - 1)))
    c.fail(lane, fmt::format("{}: shared address 0x{:x} ({} bytes) is outside this CTA's shared memory [0x{:x}, "
                             "0x{:x}) or not {}-byte aligned",
                             what, addr, size, mem::own_shared_address(*c.cta, 0),
                             mem::own_shared_address(*c.cta, c.cta->smem_bytes()), size));
  return off;
}

bool check_ld_war(ExecCtx& c, int lane, TensorCore& u, const Cta& cta, const TmemRange& writes, const char* what) {
  TcCtaState* st = u.find_cta(cta);
  if (!st) return false;
  for (size_t w = 0; w < st->warps.size(); ++w) {
    const TcWarpState& ws = st->warps[w];
    for (const TmemRange& r : ws.ld_ranges)
      if (r.overlaps(writes)) {
        report(c, Rule::TmemMmaWarLd, lane, [&] {
          return fmt::format("{} overwrites TMEM cells that warp {} of {} reads with tcgen05.ld ({}) not yet waited "
                             "for with tcgen05.wait::ld: a write-after-read hazard (PTX ISA §9.7.16.6.4 pattern "
                             "(e), §9.7.16.6.4.5: a register dependency orders no memory access)",
                             what, w, cta.name(), site_of(*c.launch, ws.ld_src).str());
        }, ws.ld_src);
        return true;
      }
  }
  return false;
}

}  // namespace tcsim::sim::tcgen05
