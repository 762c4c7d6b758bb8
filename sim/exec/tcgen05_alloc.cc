// PTX ISA §9.7.16.7.1 Tensor Memory allocation and management (§9.7.16.1.2, §9.7.16.5):
//   tcgen05.alloc.cta_group.sync.aligned{.shared::cta}.b32  [dst], nCols;
//   tcgen05.dealloc.cta_group.sync.aligned.b32              taddr, nCols;
//   tcgen05.relinquish_alloc_permit.cta_group.sync.aligned;
//   .cta_group = { .cta_group::1, .cta_group::2 }
//
// Rules encoded (each reported with the instruction's line, CTA and warp):
//   * nCols is a power of two in [32, 512]; columns are allocated for all 128 lanes.
//   * .sync.aligned: the whole warp, converged, with the same nCols / dst / taddr (lanes that
//     diverged earlier are waited for: sim/exec/warp_collective.h).
//   * dst: a generic address in the shared window or a .shared::cta address; the other kind is a
//     finding and served by its low 32 bits (sim/memory/shared_operand.h).
//   * one warp performs every allocation and deallocation of a CTA (cta_group::1): another warp's
//     alloc/dealloc is the finding tcgen05-alloc-warp and goes ahead (the hardware tolerates it).
//     relinquish_alloc_permit is not restricted to that warp by the ISA text: no finding.
//   * tcgen05.alloc after tcgen05.relinquish_alloc_permit by the CTA is undefined behaviour: a
//     finding (tcgen05-alloc-after-relinquish); tcsim allocates.
//   * alloc blocks while the SM's Tensor Memory has too few free columns (Flow::WaitAsync, woken by a
//     dealloc or a CTA's exit on that SM); if nothing can ever free them, the launch's deadlock
//     report says which warp waits for how many columns and who holds them.
//   * the address of the allocation (lane 0, first column) is written to shared memory at dst.
//   * cta_group::2: one warp in each CTA of the CTA pair (%cluster_ctarank differing in bit 0,
//     §9.7.16.5.1) executes it; the first to arrive waits for the other; both CTAs get the same
//     column range in their own SM's Tensor Memory (one d-tmem address serves the pair MMA).
//   * dealloc frees exactly an allocation made by the CTA; cta_group::2 dealloc waits for the
//     peer's warp as alloc does (§9.7.16.5 Table 47/48).
//   * "the number of columns allocated should not increase between two allocations" is a
//     "should": reported as a warning.
//   * columns still allocated when the CTA exits: a finding (tcgen05-columns-leaked, sim/cta.cc);
//     tcsim frees them (sim/units/tensor_core.cc on_cta_exit).
#include <bit>

#include "sim/checker/race.h"
#include "sim/report/report.h"
#include "sim/exec/lane_ops.h"
#include "sim/exec/tcgen05_common.h"
#include "sim/memory/access.h"

namespace tcsim::sim {
namespace {

using namespace tcgen05;
using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::Space;

void check_ncols(ExecCtx& c, uint32_t n, const char* what) {
  if (n < 32 || n > 512 || !std::has_single_bit(n))
    c.fail(__builtin_ctz(c.mask), fmt::format("{}: nCols = {} must be a power of two in [32, 512] (32, 64, 128, 256 "
                                              "or 512; PTX ISA §9.7.16.7.1)",
                                              what, n));
}

// "When .cta_group::1 is specified, one warp from the CTA must perform the allocation and
// de-allocation" (§9.7.16.7.1). Public B200 kernels allocate in one warp and free in another, and
// the hardware does it (docs/hardware_tolerance.md): a finding, and the operation goes ahead.
void check_alloc_warp(ExecCtx& c, TcCtaState& st, const char* what) {
  const int w = static_cast<int>(c.warp->id());
  if (st.alloc_warp < 0) {
    st.alloc_warp = w;
    return;
  }
  if (st.alloc_warp != w)
    report(c, Rule::TmemAllocWarp, __builtin_ctz(c.mask), [&] {
      return fmt::format("{} by warp {}, but warp {} made this CTA's first allocation: one warp of the CTA performs "
                         "the allocations and deallocations (PTX ISA §9.7.16.7.1); the hardware does it anyway",
                         what, w, st.alloc_warp);
    });
}

void write_addr(Cta& cta, uint32_t dst, uint32_t taddr) {
  std::memcpy(cta.shared() + dst, &taddr, 4);
  cta.uncopied().clear(dst, 4);
  race::async_wrote(cta, dst, 4);  // the alloc unit's write (sim/checker/race.h)
}

std::string alloc_state(TensorCore& tc) {
  return fmt::format("SM {} has {} of 512 columns free; allocated: {}", tc.sm().id(), tc.tmem().free_columns(),
                     tc.tmem().describe_allocations());
}

// The lowest column range free in both Tensor Memories (cta_group::2 pair allocation).
std::optional<uint32_t> find_pair(Tmem& a, Tmem& b, uint32_t ncols) {
  const uint32_t align = std::min<uint32_t>(ncols, 128);
  for (uint32_t col = 0; col + ncols <= kTmemColumns; col += align) {
    bool ok = true;
    for (const TmemAllocation& x : a.allocations())
      ok = ok && (col + ncols <= x.column || x.column + x.ncols <= col);
    for (const TmemAllocation& x : b.allocations())
      ok = ok && (col + ncols <= x.column || x.column + x.ncols <= col);
    if (ok) return col;
  }
  return std::nullopt;
}

void exec_alloc(ExecCtx& c, const ExecInstr& in) {
  if (!await_converged_warp(c, "tcgen05.alloc")) return;
  const int cg = cta_group_of(in.aux);
  const uint32_t ncols = uniform_u32(c, in.o[0], "nCols of tcgen05.alloc", kSecAlloc);
  const ExecOperand& op = c.op(in, 0);
  const int first = __builtin_ctz(c.mask);
  const uint64_t a = mem::lane_address(c, op, first);
  for_lanes(c.mask, [&](int i) {
    if (mem::lane_address(c, op, i) != a)
      c.fail(i, "the dst address of tcgen05.alloc must be the same in every thread of the warp (PTX ISA §9.7.16.7.1)");
  });
  const uint32_t dst = shared_offset(c, first, a, 4, (in.flags & 1) != 0, "tcgen05.alloc dst");
  check_ncols(c, ncols, "tcgen05.alloc");
  tc_note_cta_group(c, in, cg);
  TensorCore& tc = c.sm->tensor_core();
  TcCtaState& st = tc.cta(*c.cta);
  TcCtaState::AllocRequest& rq = st.alloc;
  if (rq.active && rq.done) {  // completed by the peer CTA's warp while this one waited
    rq = {};
    return;
  }
  if (!rq.active) {  // the first execution (a waiting alloc runs again when woken)
    check_alloc_warp(c, st, "tcgen05.alloc");
    if (st.relinquished)
      report(c, Rule::TmemAllocAfterRelinquish, first, [&] {
        return fmt::format("tcgen05.alloc of {} columns after this CTA executed tcgen05.relinquish_alloc_permit at {}: "
                           "the CTA gave up its right to allocate Tensor Memory (undefined behaviour; tcsim "
                           "allocates)",
                           ncols, site_of(*c.launch, st.relinquish_src).str());
      }, st.relinquish_src);
    if (st.last_alloc_cols && ncols > st.last_alloc_cols)
      report(c, Rule::TmemAllocGrows, first,
                fmt::format("tcgen05.alloc of {} columns after an allocation of {}: the number of columns "
                            "allocated should not increase between two allocations of a CTA (PTX ISA "
                            "§9.7.16.7.1)",
                            ncols, st.last_alloc_cols));
    rq.active = true;
    rq.ncols = ncols;
    rq.dst = dst;
    rq.warp = c.warp;
    rq.cta_group = cg;
  }
  if (cg == 1) {
    if (auto col = tc.tmem().find_free(ncols)) {
      tc.tmem().take(*col, ncols, c.cta);
      write_addr(*c.cta, dst, *col);
      st.last_alloc_cols = ncols;
      rq = {};
      return;
    }
    c.warp->async_wait_reason = fmt::format("tcgen05.alloc waits for {} free Tensor Memory columns: {}", ncols,
                                     alloc_state(tc));
    tc.add_waiter(c.warp);
    c.flow = Flow::WaitAsync;
    return;
  }
  // cta_group::2: the pair allocates together (§9.7.16.7.1, §9.7.16.5 Table 46).
  Cta* peer = peer_cta(*c.cta);
  if (!peer)
    c.fail(-1, fmt::format("tcgen05.alloc.cta_group::2 in {} (cluster rank {}), but its CTA-pair peer (rank {}) is "
                           "not running: the issuer must make sure the peer CTA is launched and participates "
                           "(PTX ISA §9.7.16.5, §9.7.16.7.1)",
                           c.cta->name(), c.cta->cluster_rank(), c.cta->cluster_rank() ^ 1u));
  TensorCore& ptc = peer->sm().tensor_core();
  TcCtaState& ps = ptc.cta(*peer);
  if (!ps.alloc.active || ps.alloc.done) {
    c.warp->async_wait_reason = fmt::format("tcgen05.alloc.cta_group::2 waits for a warp of the peer {} to execute "
                                     "tcgen05.alloc.cta_group::2",
                                     peer->name());
    tc.add_waiter(c.warp);
    c.flow = Flow::WaitAsync;
    return;
  }
  if (ps.alloc.ncols != ncols)
    c.fail(-1, fmt::format("tcgen05.alloc.cta_group::2 of {} columns, but the peer {} asks for {}: the two warps of "
                           "the pair allocate together (PTX ISA §9.7.16.7.1)",
                           ncols, peer->name(), ps.alloc.ncols));
  if (auto col = find_pair(tc.tmem(), ptc.tmem(), ncols)) {
    tc.tmem().take(*col, ncols, c.cta);
    ptc.tmem().take(*col, ncols, peer);
    write_addr(*c.cta, dst, *col);
    write_addr(*peer, ps.alloc.dst, *col);
    st.last_alloc_cols = ps.last_alloc_cols = ncols;
    ps.alloc.done = true;
    ps.alloc.result = *col;
    if (ps.alloc.warp) ps.alloc.warp->wake_async();
    rq = {};
    return;
  }
  c.warp->async_wait_reason = fmt::format("tcgen05.alloc.cta_group::2 waits for {} columns free in both CTAs of the pair: "
                                   "{}; {}",
                                   ncols, alloc_state(tc), alloc_state(ptc));
  tc.add_waiter(c.warp);
  ptc.add_waiter(c.warp);
  c.flow = Flow::WaitAsync;
}

void exec_dealloc(ExecCtx& c, const ExecInstr& in) {
  if (!await_converged_warp(c, "tcgen05.dealloc")) return;
  const int cg = cta_group_of(in.aux);
  const uint32_t taddr = uniform_u32(c, in.o[0], "taddr of tcgen05.dealloc", kSecAlloc);
  const uint32_t ncols = uniform_u32(c, in.o[1], "nCols of tcgen05.dealloc", kSecAlloc);
  check_ncols(c, ncols, "tcgen05.dealloc");
  tc_note_cta_group(c, in, cg);
  TensorCore& tc = c.sm->tensor_core();
  TcCtaState& st = tc.cta(*c.cta);
  if (!st.dealloc.active) check_alloc_warp(c, st, "tcgen05.dealloc");  // once, not per re-execution
  const uint32_t col = taddr & 0xffff;
  auto release = [&](TensorCore& u, const Cta& owner) {
    if ((taddr >> 16) != 0 || !u.tmem().release(col, ncols, &owner))
      c.fail(-1, fmt::format("tcgen05.dealloc of taddr 0x{:08x} (lane {}, column {}), {} columns: {} has no such "
                             "allocation (allocations on SM {}: {}); taddr must be an address returned by "
                             "tcgen05.alloc and nCols its size (PTX ISA §9.7.16.7.1)",
                             taddr, taddr >> 16, col, ncols, owner.name(), u.sm().id(),
                             u.tmem().describe_allocations()));
    u.wake_waiters();
  };
  if (cg == 1) {
    release(tc, *c.cta);
    return;
  }
  TcCtaState::DeallocRequest& rq = st.dealloc;
  if (rq.active && rq.done) {
    rq = {};
    return;
  }
  Cta* peer = peer_cta(*c.cta);
  if (!peer)
    c.fail(-1, fmt::format("tcgen05.dealloc.cta_group::2 in {}, but its CTA-pair peer (cluster rank {}) is not "
                           "running (PTX ISA §9.7.16.5)",
                           c.cta->name(), c.cta->cluster_rank() ^ 1u));
  TensorCore& ptc = peer->sm().tensor_core();
  TcCtaState& ps = ptc.cta(*peer);
  if (!ps.dealloc.active || ps.dealloc.done) {
    rq.active = true;
    rq.taddr = taddr;
    rq.ncols = ncols;
    rq.warp = c.warp;
    c.warp->async_wait_reason = fmt::format("tcgen05.dealloc.cta_group::2 waits for a warp of the peer {} to execute "
                                     "tcgen05.dealloc.cta_group::2 (PTX ISA §9.7.16.5 Table 48: a cluster barrier "
                                     "placed after dealloc in one CTA and before it in the other hangs)",
                                     peer->name());
    tc.add_waiter(c.warp);
    c.flow = Flow::WaitAsync;
    return;
  }
  if (ps.dealloc.taddr != taddr || ps.dealloc.ncols != ncols)
    c.fail(-1, fmt::format("tcgen05.dealloc.cta_group::2 of 0x{:08x} ({} columns), but the peer {} frees 0x{:08x} "
                           "({} columns): the pair deallocates together (PTX ISA §9.7.16.7.1)",
                           taddr, ncols, peer->name(), ps.dealloc.taddr, ps.dealloc.ncols));
  release(tc, *c.cta);
  release(ptc, *peer);
  ps.dealloc.done = true;
  if (ps.dealloc.warp) ps.dealloc.warp->wake_async();
  rq = {};
}

void exec_relinquish(ExecCtx& c, const ExecInstr& in) {
  if (!await_converged_warp(c, "tcgen05.relinquish_alloc_permit")) return;
  tc_note_cta_group(c, in, cta_group_of(in.aux));
  TcCtaState& st = c.sm->tensor_core().cta(*c.cta);
  if (!st.relinquished) st.relinquish_src = in.src;
  st.relinquished = true;
}

}  // namespace

void bind_tcgen05_alloc(BindCtx& b) {
  const int cg = bind_cta_group(b);
  b.out.aux = aux_cta_group(cg);
  switch (b.in.op) {
    case Op::tcgen05_alloc: {
      b.only_mods({Mod::cta_group_1, Mod::cta_group_2, Mod::sync, Mod::aligned});
      const Space sp = b.in.space();
      if (sp != Space::Generic && sp != Space::SharedCta)
        b.fail("tcgen05.alloc writes its result to .shared::cta memory (PTX ISA §9.7.16.7.1)");
      b.need_type({isa::ptx::Type::B32});  // tcgen05.alloc....b32 (PTX ISA §9.7.16.7.1)
      b.out.flags = sp == Space::Generic ? 1 : 0;
      b.out.first_op = b.push(b.address(0, sp));
      b.out.o[0] = b.src(1, isa::ptx::Type::B32);
      b.out.fn = exec_alloc;
      return;
    }
    case Op::tcgen05_dealloc:
      b.only_mods({Mod::cta_group_1, Mod::cta_group_2, Mod::sync, Mod::aligned});
      b.need_type({isa::ptx::Type::B32});
      b.out.o[0] = b.src(0, isa::ptx::Type::B32);
      b.out.o[1] = b.src(1, isa::ptx::Type::B32);
      b.out.fn = exec_dealloc;
      return;
    case Op::tcgen05_relinquish_alloc_permit:
      b.only_mods({Mod::cta_group_1, Mod::cta_group_2, Mod::sync, Mod::aligned});
      b.out.fn = exec_relinquish;
      return;
    default:
      b.fail("internal: not a tcgen05 allocation row");
  }
}

}  // namespace tcsim::sim
