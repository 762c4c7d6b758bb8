// PTX ISA §9.7.13 Parallel Synchronization and Communication: vote.sync, activemask
//   vote.sync.mode.pred d, {!}a, membermask;    .mode = { .all, .any, .uni }
//   vote.sync.ballot.b32 d, {!}a, membermask;
//   activemask.b32 d;
// vote.sync reduces predicate a over the non-exited threads of membermask (the executing group
// waits for the others, like shfl.sync): all = every a true, any = some a true, uni = all equal,
// ballot = bit i set iff thread i is in membermask and its a is true. activemask returns the
// threads executing it together (the thread group).
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

enum class VMode { All, Any, Uni, Ballot };

template <VMode M>
void exec_vote(ExecCtx& c, const ExecInstr& in) {
  const uint64_t* mm = c.src(c.op(in, 0).ref);
  uint32_t members = 0;
  for_lanes(c.mask, [&](int i) {
    const uint32_t m = static_cast<uint32_t>(mm[i]);
    if (!(m >> i & 1))
      c.fail(i, fmt::format("vote.sync: the executing thread is not in its membermask 0x{:08x} (undefined behaviour)", m));
    members |= m;
  });
  if (members & c.warp->valid() & ~c.warp->exited() & ~c.group_mask) {
    c.flow = Flow::WaitSync;
    return;
  }
  const uint32_t a = c.preds[in.o[1]] ^ ((in.aux & 1) ? ~0u : 0u);
  const uint32_t part = members & c.mask;  // the participating threads
  const uint32_t t = a & part;
  if constexpr (M == VMode::Ballot) {
    uint64_t* d = c.dst(in.o[0]);
    for_lanes(c.mask, [&](int i) { d[i] = t; });
  } else {
    bool v;
    if (M == VMode::All) v = t == part;
    else if (M == VMode::Any) v = t != 0;
    else v = t == 0 || t == part;
    uint32_t& p = c.preds[in.o[0]];
    p = (p & ~c.mask) | (v ? c.mask : 0);
  }
}

void exec_activemask(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  for_lanes(c.mask, [&](int i) { d[i] = c.group_mask; });
}

}  // namespace

void bind_vote(BindCtx& b) {
  using isa::ptx::Op;
  if (b.in.op == Op::activemask) {
    b.only_mods({});
    if (b.type(0) != Type::B32) b.fail("activemask takes .b32");
    b.out.fn = exec_activemask;
    b.out.o[0] = b.dst(0, 32);
    return;
  }
  b.only_mods({Mod::all, Mod::any, Mod::uni, Mod::ballot});
  const int n = b.has(Mod::all) + b.has(Mod::any) + b.has(Mod::uni) + b.has(Mod::ballot);
  if (n != 1) b.fail("needs exactly one of .all, .any, .uni, .ballot");
  bool neg = false;
  b.out.o[1] = b.pred_src(1, &neg);
  b.out.aux = neg ? 1 : 0;
  ExecOperand m;
  m.ref = b.src(2, Type::B32);
  b.out.first_op = b.push(m);
  b.out.nops = 1;
  if (b.has(Mod::ballot)) {
    if (b.type(0) != Type::B32) b.fail("vote.sync.ballot takes .b32");
    b.out.fn = &exec_vote<VMode::Ballot>;
    b.out.o[0] = b.dst(0, 32);
    return;
  }
  if (b.type(0) != Type::Pred) b.fail("vote.sync.all/.any/.uni take .pred");
  b.out.o[0] = b.pred_dst(0);
  b.out.fn = b.has(Mod::all) ? &exec_vote<VMode::All> : b.has(Mod::any) ? &exec_vote<VMode::Any> : &exec_vote<VMode::Uni>;
}

}  // namespace tcsim::sim
