// PTX ISA §9.7.13 Parallel Synchronization and Communication: bar, barrier, bar.warp.sync
//   bar{.cta}.sync a{, b};     barrier{.cta}.sync{.aligned} a{, b};
//   bar{.cta}.arrive a, b;     barrier{.cta}.arrive{.aligned} a, b;
//   bar{.cta}.red.popc.u32 d, a{, b}, {!}c;   barrier{.cta}.red.popc{.aligned}.u32 d, a{, b}, {!}c;
//   bar{.cta}.red.op.pred  p, a{, b}, {!}c;   barrier{.cta}.red.op{.aligned}.pred  p, a{, b}, {!}c;
//   .op = { .and, .or }
//   bar.warp.sync membermask;
// a: barrier 0..15; b: thread count (a multiple of 32; all threads of the CTA when absent). A warp
// arrives once all its non-exited threads executed the barrier; .sync waits for the other
// participating warps, .arrive does not (PTX ISA §9.7.13.1). Bookkeeping: sim/cta.cc.
// bar.warp.sync waits until every non-exited thread of membermask has reached it.
// bar.red is a barrier that also reduces predicate c over the arriving threads: .popc counts the
// threads with c true, .and / .or say whether all / any did; "once the barrier count is reached,
// the final value is written to the destination register in all threads waiting at the barrier"
// (PTX ISA §9.7.13.1) — Cta::add_reduction collects, Cta::check_complete delivers.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

// The barrier id and count must be the same for all executing threads.
inline uint32_t uniform(ExecCtx& c, Ref r, const char* what) {
  const uint64_t* v = c.src(r);
  const int first = __builtin_ctz(c.mask);
  const uint32_t x = static_cast<uint32_t>(v[first]);
  for_lanes(c.mask, [&](int i) {
    if (static_cast<uint32_t>(v[i]) != x)
      c.fail(i, fmt::format("{} differs across the threads of the warp ({} vs {})", what, static_cast<uint32_t>(v[i]), x));
  });
  return x;
}

inline uint32_t barrier_id(ExecCtx& c, const ExecInstr& in) {
  const uint32_t id = uniform(c, in.o[0], "the barrier id");
  if (id > 15) c.fail(__builtin_ctz(c.mask), fmt::format("barrier id {} is out of range (0..15)", id));
  return id;
}

void exec_bar_sync(ExecCtx& c, const ExecInstr& in) {
  c.target = barrier_id(c, in);
  c.lane_target[0] = in.flags ? uniform(c, in.o[1], "the barrier thread count") : 0;
  if (in.flags && c.lane_target[0] == 0) c.fail(-1, "a barrier thread count of 0");
  c.flow = Flow::WaitBarrier;
}

void exec_bar_arrive(ExecCtx& c, const ExecInstr& in) {
  const uint32_t id = barrier_id(c, in);
  const uint32_t count = uniform(c, in.o[1], "the barrier thread count");
  if (count == 0) c.fail(-1, "bar.arrive needs a non-zero thread count (PTX ISA §9.7.13.1)");
  c.cta->arrive(*c.warp, static_cast<int>(id), c.mask, count, c.now);
}

// o[0]: a (as bar.sync, so barrier_id applies), o[1]: b (flags bit 0), o[2]: c, o[3]: d (register
// slot or predicate); aux: BarRedOp | c negated (bit 8) | predicate destination (bit 9).
void exec_bar_red(ExecCtx& c, const ExecInstr& in) {
  const uint32_t id = barrier_id(c, in);
  const uint32_t count = (in.flags & 1) ? uniform(c, in.o[1], "the barrier thread count") : 0;
  if ((in.flags & 1) && count == 0) c.fail(-1, "a barrier thread count of 0");
  const uint32_t p = c.preds[in.o[2]] ^ ((in.aux >> 8 & 1) ? ~0u : 0u);
  c.cta->add_reduction(*c.warp, static_cast<int>(id), static_cast<BarRedOp>(in.aux & 0xff), c.mask, p, in.o[3],
                       (in.aux >> 9 & 1) != 0);
  c.target = id;
  c.lane_target[0] = count;
  c.flow = Flow::WaitBarrier;
}

void exec_bar_warp_sync(ExecCtx& c, const ExecInstr& in) {
  const uint64_t* mm = c.src(in.o[0]);
  uint32_t members = 0;
  for_lanes(c.mask, [&](int i) {
    const uint32_t m = static_cast<uint32_t>(mm[i]);
    if (!(m >> i & 1))
      c.fail(i, fmt::format("bar.warp.sync: the executing thread is not in membermask 0x{:08x} (undefined behaviour)", m));
    members |= m;
  });
  if (members & c.warp->valid() & ~c.warp->exited() & ~c.group_mask) c.flow = Flow::WaitSync;
}

}  // namespace

// An immediate barrier id must lie in [0, 15] and an immediate thread count must be a positive
// multiple of the warp size (PTX ISA §9.7.13.1 bar/barrier; ptxas rejects others at assembly).
void check_bar_immediates(BindCtx& b, int id_op, int count_op) {
  const auto& id = b.operand(id_op);
  if (id.kind == isa::ptx::OperandKind::Imm && (id.imm < 0 || id.imm > 15))
    b.fail(fmt::format("barrier id {} is outside [0, 15]", id.imm));
  if (count_op < static_cast<int>(b.nops())) {
    const auto& n = b.operand(count_op);
    if (n.kind == isa::ptx::OperandKind::Imm && (n.imm <= 0 || n.imm % 32 != 0))
      b.fail(fmt::format("thread count {} is not a positive multiple of the warp size (32)", n.imm));
  }
}

void bind_barrier(BindCtx& b) {
  using isa::ptx::Op;
  // barrier{.cta}.sync / .arrive / .red take no other scope (PTX ISA §9.7.13.1; ptxas: "Illegal
  // modifier '.sys' for instruction 'bar'").
  if (b.in.scope != isa::ptx::Scope::None && b.in.scope != isa::ptx::Scope::Cta)
    b.fail("bar/barrier take no scope but .cta (PTX ISA §9.7.13.1)");
  switch (b.in.op) {
    case Op::bar_sync:
    case Op::barrier_sync:
      b.only_mods({Mod::aligned, Mod::cta});
      check_bar_immediates(b, 0, 1);
      b.out.fn = exec_bar_sync;
      b.out.o[0] = b.src(0, Type::U32);
      if (b.nops() > 1) {
        b.out.o[1] = b.src(1, Type::U32);
        b.out.flags = 1;
      }
      return;
    case Op::bar_arrive:
    case Op::barrier_arrive:
      b.only_mods({Mod::aligned, Mod::cta});
      check_bar_immediates(b, 0, 1);
      b.out.fn = exec_bar_arrive;
      b.out.o[0] = b.src(0, Type::U32);
      b.out.o[1] = b.src(1, Type::U32);
      return;
    case Op::bar_red:
    case Op::barrier_red: {
      b.only_mods({Mod::aligned, Mod::cta, Mod::popc, Mod::and_, Mod::or_});
      const int nops = b.has(Mod::popc) + b.has(Mod::and_) + b.has(Mod::or_);
      if (nops != 1) b.fail("bar.red needs exactly one of .popc, .and, .or (PTX ISA §9.7.13.1)");
      const bool popc = b.has(Mod::popc);
      if (popc && b.type(0) != Type::U32) b.fail("bar.red.popc takes .u32");
      if (!popc && b.type(0) != Type::Pred) b.fail("bar.red.and / bar.red.or take .pred");
      const BarRedOp op = popc ? BarRedOp::Popc : b.has(Mod::and_) ? BarRedOp::And : BarRedOp::Or;
      bool neg = false;
      b.out.o[3] = popc ? b.dst(0, 32) : b.pred_dst(0);
      b.out.o[0] = b.src(1, Type::U32);
      if (b.nops() == 4) {
        b.out.o[1] = b.src(2, Type::U32);
        b.out.flags = 1;
      }
      b.out.o[2] = b.pred_src(static_cast<int>(b.nops()) - 1, &neg);
      b.out.aux = static_cast<uint64_t>(op) | (neg ? 1u << 8 : 0) | (popc ? 0 : 1u << 9);
      b.out.fn = exec_bar_red;
      return;
    }
    case Op::bar_warp_sync:
      b.only_mods({});
      b.out.fn = exec_bar_warp_sync;
      b.out.o[0] = b.src(0, Type::B32);
      return;
    default:
      b.fail("internal: not a barrier row");
  }
}

}  // namespace tcsim::sim
