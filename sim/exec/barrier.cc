// PTX ISA §9.7.13 Parallel Synchronization and Communication: bar, barrier, bar.warp.sync
//   bar{.cta}.sync a{, b};     barrier{.cta}.sync{.aligned} a{, b};
//   bar{.cta}.arrive a, b;     barrier{.cta}.arrive{.aligned} a, b;
//   bar.warp.sync membermask;
// a: barrier 0..15; b: thread count (a multiple of 32; all threads of the CTA when absent). A warp
// arrives once all its non-exited threads executed the barrier; .sync waits for the other
// participating warps, .arrive does not (PTX ISA §9.7.13.1). Bookkeeping: sim/cta.cc.
// bar.warp.sync waits until every non-exited thread of membermask has reached it.
// (bar.red / barrier.red are Todo rows of the same section.)
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

void bind_barrier(BindCtx& b) {
  using isa::ptx::Op;
  switch (b.in.op) {
    case Op::bar_sync:
    case Op::barrier_sync:
      b.only_mods({Mod::aligned, Mod::cta});
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
      b.out.fn = exec_bar_arrive;
      b.out.o[0] = b.src(0, Type::U32);
      b.out.o[1] = b.src(1, Type::U32);
      return;
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
