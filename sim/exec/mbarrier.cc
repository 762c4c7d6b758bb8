// PTX ISA §9.7.13.15 Parallel Synchronization and Communication: mbarrier
//   mbarrier.init{.shared{::cta}}.b64 [addr], count;                                   §9.7.13.15.9
//   mbarrier.inval{.shared{::cta}}.b64 [addr];                                         §9.7.13.15.10
//   mbarrier.expect_tx{.sem}{.scope}{.space}.b64 [addr], txCount;                      §9.7.13.15.11
//   mbarrier.complete_tx{.sem}{.scope}{.space}.b64 [addr], txCount;                    §9.7.13.15.12
//       .sem = { .relaxed }, .scope = { .cta, .cluster }, .space = { .shared{::cta}, .shared::cluster }
//   mbarrier.arrive{.sem}{.scope}{.shared{::cta}}.b64 state, [addr]{, count};          §9.7.13.15.13
//   mbarrier.arrive{.sem}{.scope}.shared::cluster.b64 _, [addr]{, count};
//   mbarrier.arrive.expect_tx{.sem}{.scope}{.shared{::cta}}.b64 state, [addr], txCount;
//   mbarrier.arrive.expect_tx{.sem}{.scope}.shared::cluster.b64 _, [addr], txCount;
//   mbarrier.arrive.noComplete{.release}{.cta}{.shared{::cta}}.b64 state, [addr], count;
//       .sem = { .release, .relaxed }, .scope = { .cta, .cluster }
//   mbarrier.arrive_drop{...} — the same forms, also lowering the expected count      §9.7.13.15.14
//   mbarrier.test_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 p, [addr], state|phaseParity;  §9.7.13.15.16
//   mbarrier.try_wait{.parity}{.sem}{.scope}{.shared{::cta}}.b64 p, [addr], state|phaseParity{, suspendTimeHint};
//       .sem = { .acquire, .relaxed }, .scope = { .cta, .cluster }
//   mbarrier.pending_count.b64 count, state;                                           §9.7.13.15.17
// Without a state space the address is generic and must fall in the executing CTA's .shared::cta
// window; .shared::cluster (arrive, expect_tx, complete_tx only) reaches any CTA of the cluster. The
// hardware takes the operand's low 32 bits either way (sim/memory/shared_operand.h): a generic
// address given to a .shared form, or a shared address given to a generic form, works there and is
// a finding here.
// The object's rules live in sim/units/mbarrier.{h,cc}; this file decodes the forms and runs them
// per thread, in lane order.
//
// try_wait suspends the thread on the simulated clock (no host spinning): until the phase
// completes, or until suspendTimeHint nanoseconds pass. Without a hint the PTX ISA allows a
// "system-dependent time limit"; tcsim's limit is the completion itself, so a wait that can never
// be satisfied leaves the warp blocked and the launch reports the deadlock with the barrier's state.
// A hinted wait in a retry loop on such a barrier ends the same way: after
// MbarrierUnit::kMaxFruitlessTimedWaits timed suspensions without an update, the hint is no longer
// honoured (the ISA allows it: the hint "may be used"), and a test_wait polling loop suspends after
// kMaxFruitlessPolls False results (see MbarrierUnit::keep_returning).
// fence.mbarrier_init (§9.7.13.4) is bound by the fence family: tcsim's mbarrier.init is visible to
// the whole cluster at once, so the fence orders nothing further.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/checker/race.h"
#include "sim/address_space.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "models/machine/machine_config.h"
#include "sim/memory/access.h"
#include "sim/memory/dsmem.h"
#include "sim/memory/shared_operand.h"
#include "sim/units/mbarrier.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::Scope;
using isa::ptx::Sem;
using isa::ptx::Space;
using isa::ptx::Type;

// aux bits
constexpr uint64_t kCount = 1u << 8;       // explicit count operand
constexpr uint64_t kExpectTx = 1u << 9;    // .expect_tx: the operand is txCount, count 1
constexpr uint64_t kNoComplete = 1u << 10;
constexpr uint64_t kDrop = 1u << 11;       // arrive_drop
constexpr uint64_t kParity = 1u << 12;
constexpr uint64_t kHint = 1u << 13;
constexpr uint64_t kSink = 1u << 14;

Space space_of(const ExecInstr& in) { return static_cast<Space>(in.aux & 0xff); }

// The barrier a lane names: its CTA and .shared::cta offset. The operand is read as the hardware
// reads it, by its low 32 bits (sim/memory/shared_operand.h): a generic address in the shared window
// where a state space is given, or a 32-bit shared address without one, is a finding, not a stop.
mem::SharedTarget target(ExecCtx& c, const ExecInstr& in, int lane, bool cluster_ok, const char* what) {
  const Space sp = space_of(in);
  const bool generic = sp == Space::Generic;
  const uint64_t a = mem::shared_operand(c, lane, mem::lane_address(c, c.op(in, 0), lane), generic, what);
  // A generic address of a peer's barrier reaches it, like .shared::cluster, for the operations
  // that may act remotely (the H200 completes the peer's phase: smem_probe m9).
  if (generic && cluster_ok) return mem::resolve_cluster_shared(c, lane, a, what);
  if (sp == Space::SharedCluster && cluster_ok) return mem::resolve_cluster_shared(c, lane, a, what);
  // §9.7.13.15: .shared::cta addresses (and generic ones of init/inval/wait) name the executing CTA's
  // own barriers.
  return {c.cta, mem::own_shared_offset(c, lane, a, what), c.cta->cluster_rank(), false};
}

// Runs a unit call for one lane, attaching the lane to its faults.
template <class F>
auto per_lane(int lane, F&& f) {
  try {
    return f();
  } catch (const SimFault& e) {
    if (e.lane >= 0) throw;
    throw SimFault(lane, e.what());
  }
}

uint32_t u32(ExecCtx& c, Ref r, int lane) { return static_cast<uint32_t>(c.src(r)[lane]); }

void exec_init(ExecCtx& c, const ExecInstr& in) {
  for_lanes(c.mask, [&](int lane) {
    const mem::SharedTarget t = target(c, in, lane, false, "mbarrier.init");
    per_lane(lane, [&] { t.cta->mbarriers().init(t.offset, u32(c, in.o[1], lane), c.now); });
  });
}

void exec_inval(ExecCtx& c, const ExecInstr& in) {
  for_lanes(c.mask, [&](int lane) {
    const mem::SharedTarget t = target(c, in, lane, false, "mbarrier.inval");
    per_lane(lane, [&] { t.cta->mbarriers().inval(t.offset, c.now); });
  });
}

void exec_arrive(ExecCtx& c, const ExecInstr& in) {
  const char* what = in.aux & kDrop ? "mbarrier.arrive_drop" : "mbarrier.arrive";
  uint64_t* d = c.dst(in.o[0]);
  for_lanes(c.mask, [&](int lane) {
    const mem::SharedTarget t = target(c, in, lane, true, what);
    uint32_t count = 1, tx = 0;
    if (in.aux & kExpectTx) tx = u32(c, in.o[1], lane);
    else if (in.aux & kCount) count = u32(c, in.o[1], lane);
    race::mbarrier_arrive(c, *t.cta, t.offset);  // release (sim/checker/race.h)
    const uint64_t token = per_lane(lane, [&] {
      return t.cta->mbarriers().arrive(t.offset, count, tx, (in.aux & kDrop) != 0, (in.aux & kNoComplete) != 0,
                                       c.cta->cluster_rank(), what, c.now + Cycles(c.release));
    });
    if (!(in.aux & kSink)) d[lane] = token;
  });
}

void exec_expect_tx(ExecCtx& c, const ExecInstr& in) {
  for_lanes(c.mask, [&](int lane) {
    const mem::SharedTarget t = target(c, in, lane, true, "mbarrier.expect_tx");
    per_lane(lane, [&] { t.cta->mbarriers().expect_tx(t.offset, u32(c, in.o[1], lane), c.now); });
  });
}

void exec_complete_tx(ExecCtx& c, const ExecInstr& in) {
  for_lanes(c.mask, [&](int lane) {
    const mem::SharedTarget t = target(c, in, lane, true, "mbarrier.complete_tx");
    // .relaxed only (§9.7.13.15.12): no release clock.
    per_lane(lane, [&] { t.cta->mbarriers().complete_tx(t.offset, u32(c, in.o[1], lane), nullptr,
                                                        "mbarrier.complete_tx", c.now); });
  });
}

// test_wait / try_wait for one lane: true when complete; else *addr/*phase say what to wait for.
bool test_lane(ExecCtx& c, const ExecInstr& in, int lane, uint32_t* off, uint32_t* phase) {
  const mem::SharedTarget t = target(c, in, lane, false, "mbarrier wait");
  *off = t.offset;
  const uint32_t thread = c.warp->id() * 32 + static_cast<uint32_t>(lane);
  MbarrierUnit& u = t.cta->mbarriers();
  return per_lane(lane, [&] {
    return (in.aux & kParity) ? u.test_parity(t.offset, u32(c, in.o[1], lane), thread, phase, c.now)
                              : u.test_state(t.offset, c.src(in.o[1])[lane], thread, phase, c.now);
  });
}

void exec_test_wait(ExecCtx& c, const ExecInstr& in) {
  uint32_t r = 0, waiting = 0, wait_off = 0, wait_phase = 0;
  bool one = true;  // all False lanes name one (barrier, phase)
  for_lanes(c.mask, [&](int lane) {
    uint32_t off, phase;
    if (test_lane(c, in, lane, &off, &phase)) {
      r |= 1u << lane;
      return;
    }
    if (waiting && (off != wait_off || phase != wait_phase)) one = false;
    waiting |= 1u << lane;
    wait_off = off;
    wait_phase = phase;
  });
  uint32_t& p = c.pred(in.o[0]);
  p = (p & ~c.mask) | r;
  if (!waiting || !one || c.cta->mbarriers().keep_returning(wait_off, MbarrierUnit::kMaxFruitlessPolls)) return;
  // A polling loop that cannot see progress: the False lanes complete late (True, at the phase's
  // completion), as try_wait without a limit (see MbarrierUnit::keep_returning).
  c.mask = waiting;
  c.flow = Flow::WaitMbarrier;
  c.wait_addr = wait_off;
  c.wait_phase = wait_phase;
  c.wait_pred = in.o[0];
  c.wait_until = Cycles::never();
}

void exec_try_wait(ExecCtx& c, const ExecInstr& in) {
  uint32_t r = 0, waiting = 0;
  uint32_t wait_off = 0, wait_phase = 0;
  uint64_t hint_ns = ~uint64_t{0};
  for_lanes(c.mask, [&](int lane) {
    uint32_t off, phase;
    if (test_lane(c, in, lane, &off, &phase)) {
      r |= 1u << lane;
      return;
    }
    // Lanes waiting on one (barrier, phase) suspend together; a lane waiting on another one returns
    // False at once (try_wait may always return False) and retries.
    if (waiting && (off != wait_off || phase != wait_phase)) return;
    waiting |= 1u << lane;
    wait_off = off;
    wait_phase = phase;
    if (in.aux & kHint) hint_ns = std::min<uint64_t>(hint_ns, u32(c, in.o[2], lane));
  });
  uint32_t& p = c.pred(in.o[0]);
  p = (p & ~c.mask) | r;  // suspended lanes: False until the phase completes
  if (!waiting) return;
  c.mask = waiting;
  c.flow = Flow::WaitMbarrier;
  c.wait_addr = wait_off;
  c.wait_phase = wait_phase;
  c.wait_pred = in.o[0];
  c.wait_until = Cycles::never();
  if ((in.aux & kHint) && c.cta->mbarriers().keep_returning(wait_off, MbarrierUnit::kMaxFruitlessTimedWaits)) {
    // suspendTimeHint: the time limit in nanoseconds (at the machine's clock), at least a cycle.
    const uint64_t cyc = std::max<uint64_t>(1, hint_ns * c.launch->machine->clock_mhz / 1000);
    c.wait_until = c.now + Cycles(cyc);
  }
}

void exec_pending_count(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* s = c.src(in.o[1]);
  for_lanes(c.mask, [&](int lane) {
    try {
      d[lane] = mbarrier_token_pending(s[lane]);
    } catch (const MbarrierError& e) {
      c.fail(lane, e.what());
    }
  });
}

// ---- binding -------------------------------------------------------------------------------------

void check_space(BindCtx& b, bool cluster_ok) {
  const Space sp = b.in.space(0);
  if (b.in.nspaces > 1) b.fail("takes one state space");
  if (sp == Space::Generic || sp == Space::Shared || sp == Space::SharedCta) return;
  if (sp == Space::SharedCluster && cluster_ok) return;
  b.fail(fmt::format("state space .{} is not allowed here (legal: .shared, .shared::cta{})", isa::ptx::space_name(sp),
                     cluster_ok ? ", .shared::cluster" : ""));
}

void check_sem(BindCtx& b, std::initializer_list<Sem> sems) {
  const Sem s = b.in.sem;
  if (s != Sem::None && std::find(sems.begin(), sems.end(), s) == sems.end())
    b.fail(fmt::format("semantics .{} is not allowed here", isa::ptx::sem_name(s)));
  const Scope sc = b.in.scope;
  if (sc != Scope::None && sc != Scope::Cta && sc != Scope::Cluster)
    b.fail(fmt::format("scope .{} is not allowed here (legal: .cta, .cluster)", isa::ptx::scope_name(sc)));
  // §9.7.13.15.13/16: .sem and .scope appear together.
  if ((s == Sem::None) != (sc == Scope::None)) b.fail("the .sem and .scope qualifiers must be given together");
}

void bind_address(BindCtx& b, int i) {
  b.out.first_op = b.push(b.address(i, b.in.space(0)));
  b.out.aux |= static_cast<uint8_t>(b.in.space(0));
}

void need_b64(BindCtx& b) {
  if (b.type(0) != Type::B64) b.fail("needs the type .b64 (the mbarrier object and its state are 64-bit)");
}

}  // namespace

void bind_mbarrier(BindCtx& b) {
  need_b64(b);
  switch (b.in.op) {
    case Op::mbarrier_init:
    case Op::mbarrier_inval:
      b.only_mods({});
      check_space(b, false);
      if (b.in.sem != Sem::None || b.in.scope != Scope::None) b.fail("takes no .sem/.scope");
      bind_address(b, 0);
      if (b.in.op == Op::mbarrier_init) {
        b.out.o[1] = b.src(1, Type::U32);
        b.out.fn = exec_init;
      } else {
        b.out.fn = exec_inval;
      }
      return;
    case Op::mbarrier_expect_tx:
    case Op::mbarrier_complete_tx:
      b.only_mods({});
      check_space(b, true);
      check_sem(b, {Sem::Relaxed});
      bind_address(b, 0);
      b.out.o[1] = b.src(1, Type::U32);
      b.out.fn = b.in.op == Op::mbarrier_expect_tx ? exec_expect_tx : exec_complete_tx;
      return;
    case Op::mbarrier_arrive:
    case Op::mbarrier_arrive_drop: {
      b.only_mods({Mod::expect_tx, Mod::noComplete});
      check_space(b, true);
      check_sem(b, {Sem::Release, Sem::Relaxed});
      const bool expect = b.has(Mod::expect_tx), no_complete = b.has(Mod::noComplete);
      if (expect && no_complete) b.fail(".expect_tx and .noComplete cannot be combined");
      if (no_complete && (b.in.sem == Sem::Relaxed || b.in.scope == Scope::Cluster))
        b.fail(".noComplete takes only .release.cta (PTX ISA §9.7.13.15.13)");
      if (no_complete && b.in.space(0) == Space::SharedCluster) b.fail(".noComplete is not allowed with .shared::cluster");
      const bool remote = b.in.space(0) == Space::SharedCluster;
      const bool sink = b.operand(0).kind == isa::ptx::OperandKind::Sink;
      // §9.7.13.15.13: an arrive on a .shared::cluster barrier returns no state: the sink `_`.
      if (remote && !sink) b.fail("an arrive on a .shared::cluster mbarrier has no state result: its destination must be the sink `_`");
      b.out.o[0] = b.dst(0, 64);
      bind_address(b, 1);
      if (expect || no_complete) {
        if (b.nops() < 3) b.fail(expect ? ".expect_tx needs the txCount operand" : ".noComplete needs the count operand");
      }
      if (b.nops() > 2) {
        b.out.o[1] = b.src(2, Type::U32);
        b.out.aux |= expect ? kExpectTx : kCount;
      }
      if (no_complete) b.out.aux |= kNoComplete;
      if (b.in.op == Op::mbarrier_arrive_drop) b.out.aux |= kDrop;
      if (sink) b.out.aux |= kSink;
      b.out.fn = exec_arrive;
      return;
    }
    case Op::mbarrier_test_wait:
    case Op::mbarrier_try_wait: {
      b.only_mods({Mod::parity});
      check_space(b, false);
      check_sem(b, {Sem::Acquire, Sem::Relaxed});
      const bool parity = b.has(Mod::parity);
      b.out.o[0] = b.pred_dst(0);
      bind_address(b, 1);
      b.out.o[1] = b.src(2, parity ? Type::U32 : Type::B64);
      if (parity) b.out.aux |= kParity;
      if (b.nops() > 3) {
        if (b.in.op == Op::mbarrier_test_wait) b.fail("test_wait takes no suspendTimeHint");
        b.out.o[2] = b.src(3, Type::U32);
        b.out.aux |= kHint;
      }
      b.out.fn = b.in.op == Op::mbarrier_test_wait ? exec_test_wait : exec_try_wait;
      return;
    }
    case Op::mbarrier_pending_count:
      b.only_mods({});
      if (b.in.nspaces || b.in.sem != Sem::None || b.in.scope != Scope::None) b.fail("takes no qualifiers");
      b.out.o[0] = b.dst(0, 32);
      b.out.o[1] = b.src(1, Type::B64);
      b.out.fn = exec_pending_count;
      return;
    default:
      b.not_implemented("this mbarrier-family form");
      return;
  }
}

}  // namespace tcsim::sim
