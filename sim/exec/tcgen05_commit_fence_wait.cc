// PTX ISA §9.7.16.12.1 tcgen05.commit, §9.7.16.11.1 tcgen05.fence, §9.7.16.8.5 tcgen05.wait:
//   tcgen05.commit.cta_group.completion_mechanism{.shared::cluster}{.multicast}.b64 [mbar] {, ctaMask};
//     .completion_mechanism = { .mbarrier::arrive::one }   .multicast = { .multicast::cluster }
//   tcgen05.fence::before_thread_sync;   tcgen05.fence::after_thread_sync;
//   tcgen05.wait::ld.sync.aligned;       tcgen05.wait::st.sync.aligned;
//
// commit: the mbarrier (or, with .multicast::cluster, the mbarrier at the same shared-memory offset
// in every CTA of the cluster whose bit is set in the 16-bit ctaMask) receives one arrive-on when
// every asynchronous tcgen05 operation (mma, cp, shift) this thread issued before the commit has
// completed. It is an EventPriority::MbarrierUpdate event at that cycle, so the operations' data
// has landed first. commit implies tcgen05.fence::before_thread_sync (§9.7.16.6.4.2).
//
// fence::after_thread_sync is recorded per warp: the checker (tcgen05_ld_st.cc) uses it for the
// mma -> ld chain. fence::before_thread_sync orders nothing more in the functional machine
// (operations already complete in issue order).
//
// wait::ld ends the TMEM hazard window of the warp's pending tcgen05.ld (their registers hold the
// values from the issue on, §9.7.16.6.4.5); wait::st ends the hazard window of the warp's tcgen05.st.
#include "sim/exec/lane_ops.h"
#include "sim/exec/tcgen05_common.h"
#include "sim/memory/access.h"
#include "sim/partition.h"
#include "sim/units/mbarrier_seam.h"
#include "sim/units/tensor_core_timing.h"

namespace tcsim::sim {
namespace {

using namespace tcgen05;
using isa::ptx::Mod;
using isa::ptx::Op;

void exec_wait_ld(ExecCtx& c, const ExecInstr&) {
  if (!await_converged_warp(c, "tcgen05.wait::ld")) return;
  c.sm->tensor_core().cta(*c.cta).warp(c.warp->id()).ld_ranges.clear();
}

void exec_wait_st(ExecCtx& c, const ExecInstr&) {
  if (!await_converged_warp(c, "tcgen05.wait::st")) return;
  c.sm->tensor_core().cta(*c.cta).warp(c.warp->id()).st_ranges.clear();
}

void exec_fence_after(ExecCtx& c, const ExecInstr&) {
  TcWarpState& ws = c.sm->tensor_core().cta(*c.cta).warp(c.warp->id());
  ws.last_fence_after = c.now;
  ws.fenced_after = true;
}

void exec_fence_before(ExecCtx&, const ExecInstr&) {}

// aux: bit 0 cta_group::2, bit 1 multicast, bit 2 generic address (no state space given).
void exec_commit(ExecCtx& c, const ExecInstr& in) {
  const int cg = cta_group_of(in.aux);
  const bool multicast = (in.aux >> 1) & 1;
  tc_note_cta_group(c, in, cg);
  TensorCore& tc = c.sm->tensor_core();
  TcCtaState& st = tc.cta(*c.cta);
  const ExecOperand& a = c.op(in, 0);
  for_lanes(c.mask, [&](int lane) {
    const uint64_t addr = mem::lane_address(c, a, lane);
    const uint32_t thread = c.warp->id() * 32 + static_cast<uint32_t>(lane);
    const Cycles when = max(c.now + Cycles(tc_timing::kCommitLatency),
                            st.thread_last_done[thread] + Cycles(tc_timing::kCommitLatency));
    std::vector<uint32_t> ranks;
    if (multicast) {
      const uint32_t mask = static_cast<uint32_t>(c.src(in.o[0])[lane]) & 0xffffu;
      for (uint32_t r = 0; r < 16; ++r)
        if (mask >> r & 1) ranks.push_back(r);
    }
    MbarrierTarget t = resolve_mbarrier(c, lane, addr, (in.aux >> 2) & 1, "tcgen05.commit");
    post_mbarrier_arrivals(c, lane, t, multicast, ranks, when, in.src, "tcgen05.commit");
  });
}

}  // namespace

void bind_tcgen05_commit_fence_wait(BindCtx& b) {
  switch (b.in.op) {
    case Op::tcgen05_wait_ld:
    case Op::tcgen05_wait_st:
      b.only_mods({Mod::sync, Mod::aligned});
      if (!b.has(Mod::sync) || !b.has(Mod::aligned)) b.fail("tcgen05.wait must be .sync.aligned (PTX ISA §9.7.16.8.5)");
      b.out.fn = b.in.op == Op::tcgen05_wait_ld ? exec_wait_ld : exec_wait_st;
      return;
    case Op::tcgen05_fence_before:
      b.only_mods({});
      b.out.fn = exec_fence_before;
      return;
    case Op::tcgen05_fence_after:
      b.only_mods({});
      b.out.fn = exec_fence_after;
      return;
    case Op::tcgen05_commit: {
      const int cg = bind_cta_group(b);
      b.only_mods({Mod::cta_group_1, Mod::cta_group_2, Mod::mbarrier_arrive_one, Mod::multicast_cluster});
      if (!b.has(Mod::mbarrier_arrive_one))
        b.fail("tcgen05.commit needs the completion mechanism .mbarrier::arrive::one (PTX ISA §9.7.16.12.1)");
      if (b.type(0) != isa::ptx::Type::B64) b.fail("tcgen05.commit takes a .b64 mbarrier (PTX ISA §9.7.16.12.1)");
      const bool mc = b.has(Mod::multicast_cluster);
      const isa::ptx::Space sp = b.in.space();
      if (sp != isa::ptx::Space::Generic && sp != isa::ptx::Space::SharedCluster)
        b.fail("tcgen05.commit's mbarrier is in .shared::cluster (or a generic address; PTX ISA §9.7.16.12.1)");
      if (b.nops() != (mc ? 2u : 1u))
        b.fail(mc ? "tcgen05.commit.multicast::cluster takes [mbar] and a 16-bit ctaMask (PTX ISA §9.7.16.12.1)"
                  : "tcgen05.commit takes one operand, [mbar] (ctaMask only with .multicast::cluster)");
      b.out.first_op = b.push(b.address(0, sp));
      if (mc) b.out.o[0] = b.src(1, isa::ptx::Type::B16);
      b.out.aux = aux_cta_group(cg) | (mc ? 2u : 0u) | (sp == isa::ptx::Space::Generic ? 4u : 0u);
      b.out.fn = exec_commit;
      return;
    }
    default:
      b.fail("internal: not a tcgen05 commit/fence/wait row");
  }
}

}  // namespace tcsim::sim
