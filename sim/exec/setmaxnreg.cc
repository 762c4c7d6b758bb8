// PTX ISA §9.7.19.7 setmaxnreg (sm_90a):
//   setmaxnreg.action.sync.aligned.u32 imm-reg-count;     .action = { .inc, .dec }
// Register reallocation between the warpgroups of a CTA. The CTA owns a pool of registers; .dec
// lowers the executing warp's per-thread maximum to imm-reg-count and returns the difference
// (x 32 threads) to the pool; .inc raises it, taking registers from the pool, and blocks until the
// pool has enough. The same setmaxnreg is executed by all warps of a warpgroup.
// Rules enforced (each an error naming the line and the values):
//   * imm-reg-count in [24, 256] and a multiple of 8 (ptxas 13.0 rejects anything else at
//     assembly, with these words; checked at load);
//   * .inc never below, .dec never above the warp's current count;
//   * executed by whole, converged warpgroups (4 warps of 32 threads, .sync.aligned).
// The count a warp starts with is what ptxas allocates at entry, which needs the kernel's register
// bound: .maxnreg R gives R; .maxntid T with .minnctapersm C gives floor(65536 / (T rounded up to
// 32 x C) / 8) x 8, at most 255 (ptxas -v 13.0: 384 x 1 -> 168, 384 x 2 -> 80, 128 x 2 -> 255).
// Without them ptxas "ignores setmaxnreg; unable to determine register count at entry" (info
// C7508), and so does tcsim. Register values are unaffected (new registers are undefined anyway).
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "sim/warp.h"
#include "sim/exec/warp_collective.h"

namespace tcsim::sim {

struct RegPool {
  std::vector<uint32_t> count;  // per warp: current per-thread register maximum
  uint64_t free = 0;            // registers in the CTA's pool
};

namespace {

constexpr std::string_view kSec = "PTX ISA §9.7.19.7";

// aux: imm-reg-count (bits 0-15), .inc (bit 16), entry count (bits 32-47).
template <bool Inc>
void exec_setmaxnreg(ExecCtx& c, const ExecInstr& in) {
  const uint32_t want = static_cast<uint32_t>(in.aux & 0xffff);
  const uint32_t entry = static_cast<uint32_t>(in.aux >> 32 & 0xffff);
  Cta& cta = *c.cta;
  const uint32_t w = c.warp->id(), g = w / 4;
  if ((g + 1) * 4 > cta.warps().size() || cta.num_threads() % 128 != 0)
    c.fail(-1, fmt::format("setmaxnreg: warp {} is not in a whole warpgroup (the CTA has {} threads); setmaxnreg is "
                           "executed by all warps of a warpgroup ({})",
                           w, cta.num_threads(), kSec));
  if (c.mask != 0xffffffffu && !await_converged_warp(c, "setmaxnreg.sync.aligned", kSec)) return;  // warp_collective.h
  if (c.mask != 0xffffffffu)
    c.fail(__builtin_ctz(c.mask), fmt::format("setmaxnreg.sync.aligned must be executed by all 32 threads of the warp "
                                              "convergently, but only lanes 0x{:08x} execute it ({})",
                                              c.mask, kSec));
  if (!cta.reg_pool) {
    cta.reg_pool = std::make_shared<RegPool>();
    cta.reg_pool->count.assign(cta.warps().size(), entry);
  }
  RegPool& pool = *cta.reg_pool;
  const uint32_t cur = pool.count[w];
  if (Inc ? want < cur : want > cur)
    c.fail(-1, fmt::format("setmaxnreg.{} {}: warp {} holds {} registers per thread; .{} must {} that count ({})",
                           Inc ? "inc" : "dec", want, w, cur, Inc ? "inc" : "dec",
                           Inc ? "not go below" : "not go above", kSec));
  if (!Inc) {
    pool.free += uint64_t{cur - want} * 32;
    pool.count[w] = want;
    if (cur != want)
      for (auto& other : cta.warps()) other->wake_async();  // an .inc may now proceed
    return;
  }
  const uint64_t need = uint64_t{want - cur} * 32;
  if (pool.free < need) {
    c.flow = Flow::WaitAsync;  // blocks until a .dec returns enough registers (§9.7.19.7)
    return;
  }
  pool.free -= need;
  pool.count[w] = want;
}

void exec_setmaxnreg_ignored(ExecCtx&, const ExecInstr&) {}

// The per-thread register count ptxas allocates at entry, or 0 when it cannot know it.
uint32_t entry_registers(const isa::ptx::PerfDirectives& p) {
  if (p.maxnreg) return std::min<uint32_t>(p.maxnreg, 255);
  if (p.maxntid[0] && p.minnctapersm) {
    const uint64_t threads = uint64_t{p.maxntid[0]} * std::max(1u, p.maxntid[1]) * std::max(1u, p.maxntid[2]);
    const uint64_t per_cta = (threads + 31) / 32 * 32 * p.minnctapersm;
    return static_cast<uint32_t>(std::min<uint64_t>(65536 / per_cta / 8 * 8, 255));
  }
  return 0;
}

}  // namespace

void bind_setmaxnreg(BindCtx& b) {
  using isa::ptx::Mod;
  b.only_mods({Mod::inc, Mod::dec, Mod::sync, Mod::aligned});
  if (b.has(Mod::inc) == b.has(Mod::dec)) b.fail(fmt::format("setmaxnreg needs exactly one of .inc, .dec ({})", kSec));
  if (!b.has(Mod::sync) || !b.has(Mod::aligned)) b.fail(fmt::format("setmaxnreg needs .sync.aligned ({})", kSec));
  if (b.in.ntypes != 1 || b.type(0) != isa::ptx::Type::U32) b.fail(fmt::format("setmaxnreg takes .u32 ({})", kSec));
  const isa::ptx::Operand& o = b.operand(0);
  if (o.kind != isa::ptx::OperandKind::Imm)
    b.fail(fmt::format("imm-reg-count must be an integer constant ({})", kSec));
  const int64_t n = o.imm;
  if (n < 24 || n > 256) b.fail(fmt::format("imm-reg-count {} is out of range: it must be in [24, 256] ({})", n, kSec));
  if (n % 8) b.fail(fmt::format("imm-reg-count {} must be a multiple of 8 ({})", n, kSec));
  // The kernel is the first function laid out (bind_program lays out the entry first).
  const uint32_t entry = entry_registers(b.m.functions[b.prog.funcs.front().isa_index].perf);
  if (entry == 0) {
    // ptxas info C7508: "'setmaxnreg' ignored; unable to determine register count at entry".
    b.out.fn = exec_setmaxnreg_ignored;
    return;
  }
  b.out.aux = static_cast<uint64_t>(n) | (uint64_t{b.has(Mod::inc)} << 16) | (uint64_t{entry} << 32);
  b.out.fn = b.has(Mod::inc) ? &exec_setmaxnreg<true> : &exec_setmaxnreg<false>;
}

}  // namespace tcsim::sim
