// PTX ISA §9.7.13 Parallel Synchronization and Communication: match.sync (§9.7.13.9),
// redux.sync (§9.7.13.10), elect.sync (§9.7.13.11)
//   match.any.sync.type  d, a, membermask;          .type = { .b32, .b64 }
//   match.all.sync.type  d{|p}, a, membermask;
//   redux.sync.op.type   dst, src, membermask;      .op = { .add, .min, .max }, .type = { .u32, .s32 }
//   redux.sync.op.b32    dst, src, membermask;      .op = { .and, .or, .xor }
//   redux.sync.op{.abs}{.NaN}.f32 dst, src, membermask;   .op = { .min, .max }   (sm_100a)
//   elect.sync           d|p, membermask;           (d may be _)
// Each waits until every non-exited thread of membermask has executed it (the group parks, like
// vote.sync / shfl.sync) and then combines the values of those threads, the participants:
//  - match.any: d = the participants whose a equals this thread's a.
//  - match.all: d = the participants and p = true if all their a are equal, else d = 0, p = false.
//  - redux: the reduction over the participants (.add wraps to 32 bits). .f32: min/max with
//    +0 > -0; .abs reduces |x|; without .NaN NaN inputs are ignored (the result is the canonical NaN
//    0x7fffffff only when every input is NaN), with .NaN any NaN input gives the canonical NaN.
//  - elect: the leader is the participant with the lowest lane id — "the same leader thread is
//    elected for the same membermask every time"; the H200 elects the lowest lane (kernels/basic
//    warp_vote golden: lane 0 of a full mask, lane 1 of the odd lanes). d = its lane id in every
//    participant, p = true in the leader only.
// A thread outside its own membermask is undefined behaviour in the PTX ISA: reported.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdint>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::OperandKind;
using isa::ptx::Type;

// The union of the executing threads' membermasks, each checked to contain its own thread; true
// when the group must wait for member threads that are neither here nor exited.
bool members(ExecCtx& c, const ExecInstr& in, const char* what, uint32_t* part) {
  const uint64_t* mm = c.src(c.op(in, 0).ref);
  uint32_t u = 0;
  for_lanes(c.mask, [&](int i) {
    const uint32_t m = static_cast<uint32_t>(mm[i]);
    if (!(m >> i & 1))
      c.fail(i, fmt::format("{}: the executing thread is not in its membermask 0x{:08x} (undefined behaviour)", what, m));
    u |= m;
  });
  if (u & c.warp->valid() & ~c.warp->exited() & ~c.group_mask) {
    c.flow = Flow::WaitSync;
    return false;
  }
  *part = u & c.mask;
  return true;
}

inline void set_pred(ExecCtx& c, Ref p, uint32_t value) {
  uint32_t& w = c.preds[p];
  w = (w & ~c.mask) | (value & c.mask);
}

// ---- match ----------------------------------------------------------------------------------
// o[0] d, o[1] a, o[2] p (predicate sink when absent); aux: 64-bit a.

template <bool All, bool Wide>
void exec_match(ExecCtx& c, const ExecInstr& in) {
  uint32_t part;
  if (!members(c, in, "match.sync", &part)) return;
  const uint64_t* a = c.src(in.o[1]);
  auto val = [&](int i) { return Wide ? a[i] : (a[i] & 0xffffffffu); };
  uint64_t* d = c.dst(in.o[0]);
  if constexpr (All) {
    const uint64_t v0 = val(__builtin_ctz(part));
    bool same = true;
    for_lanes(part, [&](int i) { same = same && val(i) == v0; });
    for_lanes(c.mask, [&](int i) { d[i] = same ? part : 0; });
    set_pred(c, in.o[2], same ? ~0u : 0u);
  } else {
    uint64_t v[32];
    for_lanes(part, [&](int i) { v[i] = val(i); });
    for_lanes(c.mask, [&](int i) {
      uint32_t m = 0;
      for_lanes(part, [&](int j) { m |= (v[j] == v[i] ? 1u : 0u) << j; });
      d[i] = m;
    });
  }
}

// ---- redux ----------------------------------------------------------------------------------
// o[0] dst, o[1] src; aux: the operation.

enum class RedOp : uint8_t { Add, MinU, MaxU, MinS, MaxS, And, Or, Xor, MinF, MaxF };

template <RedOp Op>
void exec_redux(ExecCtx& c, const ExecInstr& in) {
  uint32_t part;
  if (!members(c, in, "redux.sync", &part)) return;
  const uint64_t* a = c.src(in.o[1]);
  uint32_t r = 0;
  switch (Op) {
    case RedOp::Add: for_lanes(part, [&](int i) { r += static_cast<uint32_t>(a[i]); }); break;
    case RedOp::And: r = ~0u; for_lanes(part, [&](int i) { r &= static_cast<uint32_t>(a[i]); }); break;
    case RedOp::Or: for_lanes(part, [&](int i) { r |= static_cast<uint32_t>(a[i]); }); break;
    case RedOp::Xor: for_lanes(part, [&](int i) { r ^= static_cast<uint32_t>(a[i]); }); break;
    case RedOp::MinU: r = ~0u; for_lanes(part, [&](int i) { r = std::min(r, static_cast<uint32_t>(a[i])); }); break;
    case RedOp::MaxU: for_lanes(part, [&](int i) { r = std::max(r, static_cast<uint32_t>(a[i])); }); break;
    case RedOp::MinS: {
      int32_t s = INT32_MAX;
      for_lanes(part, [&](int i) { s = std::min(s, static_cast<int32_t>(a[i])); });
      r = static_cast<uint32_t>(s);
      break;
    }
    case RedOp::MaxS: {
      int32_t s = INT32_MIN;
      for_lanes(part, [&](int i) { s = std::max(s, static_cast<int32_t>(a[i])); });
      r = static_cast<uint32_t>(s);
      break;
    }
    case RedOp::MinF:
    case RedOp::MaxF: {
      const bool abs = in.flags & 1, nan_mode = in.flags & 2;
      // Ordering key of a non-NaN f32: -0 below +0, magnitudes ordered by their codes.
      auto key = [](uint32_t x) { return (x >> 31) ? 0x7fffffffu - (x & 0x7fffffffu) : 0x80000000u + x; };
      bool any = false, nan_seen = false;
      uint32_t best = 0;
      for_lanes(part, [&](int i) {
        uint32_t x = static_cast<uint32_t>(a[i]);
        if (abs) x &= 0x7fffffffu;
        if ((x & 0x7fffffffu) > 0x7f800000u) {
          nan_seen = true;
          return;
        }
        if (!any || (Op == RedOp::MaxF ? key(x) > key(best) : key(x) < key(best))) best = x;
        any = true;
      });
      r = (!any || (nan_mode && nan_seen)) ? 0x7fffffffu : best;
      break;
    }
  }
  uint64_t* d = c.dst(in.o[0]);
  for_lanes(c.mask, [&](int i) { d[i] = r; });
}

// ---- elect ----------------------------------------------------------------------------------
// o[0] d (the sink slot for _), o[1] p.

void exec_elect(ExecCtx& c, const ExecInstr& in) {
  uint32_t part;
  if (!members(c, in, "elect.sync", &part)) return;
  const int leader = __builtin_ctz(part);  // part contains at least the executing thread
  uint64_t* d = c.dst(in.o[0]);
  for_lanes(c.mask, [&](int i) { d[i] = static_cast<uint32_t>(leader); });
  set_pred(c, in.o[1], 1u << leader);
}

void push_membermask(BindCtx& b, int i) {
  ExecOperand m;
  m.ref = b.src(i, Type::B32);
  b.out.first_op = b.push(m);
  b.out.nops = 1;
}

void bind_match(BindCtx& b) {
  b.only_mods({Mod::any, Mod::all, Mod::sync});
  if (!b.has(Mod::sync)) b.fail("match needs .sync (match.any.sync / match.all.sync, PTX ISA §9.7.13.9)");
  if (b.has(Mod::any) == b.has(Mod::all)) b.fail("match needs exactly one of .any, .all");
  const Type t = b.type(0);
  if (b.in.ntypes != 1 || (t != Type::B32 && t != Type::B64)) b.fail("match.sync takes .b32 or .b64");
  const bool all = b.has(Mod::all), wide = t == Type::B64;
  const isa::ptx::Operand& d0 = b.operand(0);
  b.out.o[2] = 0;  // predicate sink
  if (d0.kind == OperandKind::Pair) {
    if (!all) b.fail("match.any has no predicate output (d|p is match.all's form)");
    b.out.o[0] = b.dst_of(d0.elems[0], 32);
    b.out.o[2] = b.pred_dst_of(d0.elems[1]);
  } else {
    b.out.o[0] = b.dst(0, 32);
  }
  b.out.o[1] = b.src(1, t);
  push_membermask(b, 2);
  b.out.fn = all ? (wide ? &exec_match<true, true> : &exec_match<true, false>)
                 : (wide ? &exec_match<false, true> : &exec_match<false, false>);
}

void bind_redux(BindCtx& b) {
  b.only_mods({Mod::add, Mod::min, Mod::max, Mod::and_, Mod::or_, Mod::xor_, Mod::abs, Mod::NaN});
  const Type t = b.type(0);
  if (b.in.ntypes != 1) b.fail("redux.sync needs one type");
  const int nops = b.has(Mod::add) + b.has(Mod::min) + b.has(Mod::max) + b.has(Mod::and_) + b.has(Mod::or_) +
                   b.has(Mod::xor_);
  if (nops != 1) b.fail("redux.sync needs exactly one of .add .min .max .and .or .xor");
  const bool bitwise = b.has(Mod::and_) || b.has(Mod::or_) || b.has(Mod::xor_);
  if ((b.has(Mod::abs) || b.has(Mod::NaN)) && t != Type::F32) b.fail(".abs and .NaN apply to redux.sync .f32 only");
  ExecFn fn = nullptr;
  if (t == Type::F32) {
    if (!b.has(Mod::min) && !b.has(Mod::max)) b.fail("redux.sync .f32 takes .min or .max (PTX ISA §9.7.13.10)");
    const std::string& tgt = b.m.target;
    const bool sm100a = tgt.rfind("sm_10", 0) == 0 && (tgt.back() == 'a' || tgt.back() == 'f');
    if (!sm100a) b.fail(fmt::format("redux.sync .f32 requires sm_100a (the module targets {})", tgt));
    fn = b.has(Mod::max) ? &exec_redux<RedOp::MaxF> : &exec_redux<RedOp::MinF>;
    b.out.flags = (b.has(Mod::abs) ? 1 : 0) | (b.has(Mod::NaN) ? 2 : 0);
  } else if (bitwise) {
    if (t != Type::B32) b.fail("redux.sync .and/.or/.xor take .b32 (PTX ISA §9.7.13.10)");
    fn = b.has(Mod::and_) ? &exec_redux<RedOp::And> : b.has(Mod::or_) ? &exec_redux<RedOp::Or> : &exec_redux<RedOp::Xor>;
  } else {
    if (t != Type::U32 && t != Type::S32) b.fail("redux.sync .add/.min/.max take .u32 or .s32 (PTX ISA §9.7.13.10)");
    const bool s = t == Type::S32;
    fn = b.has(Mod::add) ? &exec_redux<RedOp::Add>
         : b.has(Mod::min) ? (s ? &exec_redux<RedOp::MinS> : &exec_redux<RedOp::MinU>)
                           : (s ? &exec_redux<RedOp::MaxS> : &exec_redux<RedOp::MaxU>);
  }
  b.out.fn = fn;
  b.out.o[0] = b.dst(0, 32);
  b.out.o[1] = b.src(1, t);
  push_membermask(b, 2);
}

void bind_elect(BindCtx& b) {
  b.only_mods({});
  if (b.in.ntypes != 0) b.fail("elect.sync takes no type");
  const isa::ptx::Operand& d0 = b.operand(0);
  if (d0.kind != OperandKind::Pair) b.fail("elect.sync needs a predicate destination: elect.sync d|p, membermask");
  b.out.o[0] = b.dst_of(d0.elems[0], 32);
  b.out.o[1] = b.pred_dst_of(d0.elems[1]);
  push_membermask(b, 1);
  b.out.fn = exec_elect;
}

}  // namespace

void bind_warp_misc(BindCtx& b) {
  using isa::ptx::Op;
  switch (b.in.op) {
    case Op::match_sync: return bind_match(b);
    case Op::redux_sync: return bind_redux(b);
    case Op::elect_sync: return bind_elect(b);
    default: b.fail("internal: not a warp_misc row");
  }
}

}  // namespace tcsim::sim
