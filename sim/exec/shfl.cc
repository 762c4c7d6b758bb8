// PTX ISA §9.7.9 Data Movement and Conversion Instructions: shfl.sync
//   shfl.sync.mode.b32 d[|p], a, b, c, membermask;     .mode = { .up, .down, .bfly, .idx }
// Semantics (PTX ISA shfl.sync pseudocode): lane = %laneid, bval = b[4:0], cval = c[4:0],
// segmask = c[12:8]; maxLane = (lane & segmask) | (cval & ~segmask); minLane = lane & segmask;
//   up:   j = lane - bval;                     pval = j >= maxLane
//   down: j = lane + bval;                     pval = j <= maxLane
//   bfly: j = lane ^ bval;                     pval = j <= maxLane
//   idx:  j = minLane | (bval & ~segmask);     pval = j <= maxLane
// if !pval, j = lane. d = a of lane j; p = pval. The executing threads wait until every non-exited
// thread of membermask has reached this shfl.sync (the thread group parks until they merge).
// Reading lane j that is inactive returns its register value (PTX: unpredictable).
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

enum class Mode { Up, Down, Bfly, Idx };

// True when the group must wait for lanes of `members` that are neither here nor exited.
inline bool must_wait(ExecCtx& c, uint32_t members) {
  const uint32_t missing = members & c.warp->valid() & ~c.warp->exited() & ~c.group_mask;
  return missing != 0;
}

inline uint32_t member_union(ExecCtx& c, Ref r) {
  const uint64_t* m = c.src(r);
  uint32_t u = 0;
  for_lanes(c.mask, [&](int i) { u |= static_cast<uint32_t>(m[i]); });
  return u;
}

template <Mode M>
void exec_shfl(ExecCtx& c, const ExecInstr& in) {
  const Ref mref = c.op(in, 0).ref;
  const uint32_t members = member_union(c, mref);
  for_lanes(c.mask, [&](int i) {
    if (!(static_cast<uint32_t>(c.src(mref)[i]) >> i & 1))
      c.fail(i, fmt::format("shfl.sync: the executing thread is not in its membermask 0x{:08x} (undefined behaviour, "
                            "PTX ISA shfl.sync)", static_cast<uint32_t>(c.src(mref)[i])));
  });
  if (must_wait(c, members)) {
    c.flow = Flow::WaitSync;
    return;
  }
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* bb = c.src(in.o[2]);
  const uint64_t* cc = c.src(in.o[3]);
  uint64_t src[32];
  for (int i = 0; i < 32; ++i) src[i] = a[i];  // d may alias a
  uint32_t pv = 0;
  for_lanes(c.mask, [&](int lane) {
    const uint32_t bval = static_cast<uint32_t>(bb[lane]) & 31;
    const uint32_t cv = static_cast<uint32_t>(cc[lane]);
    const uint32_t cval = cv & 31, seg = (cv >> 8) & 31;
    const int max_lane = static_cast<int>((lane & seg) | (cval & ~seg));
    const int min_lane = static_cast<int>(lane & seg);
    int j = lane;
    bool p = false;
    switch (M) {
      case Mode::Up: j = lane - static_cast<int>(bval); p = j >= max_lane; break;
      case Mode::Down: j = lane + static_cast<int>(bval); p = j <= max_lane; break;
      case Mode::Bfly: j = lane ^ static_cast<int>(bval); p = j <= max_lane; break;
      case Mode::Idx: j = min_lane | static_cast<int>(bval & ~seg); p = j <= max_lane; break;
    }
    if (!p) j = lane;
    d[lane] = src[j & 31] & 0xffffffffu;
    pv |= uint32_t{p} << lane;
  });
  uint32_t& pd = c.preds[static_cast<uint32_t>(in.aux)];  // predicate sink when no |p
  pd = (pd & ~c.mask) | (pv & c.mask);
}

}  // namespace

void bind_shfl(BindCtx& b) {
  b.only_mods({Mod::up, Mod::down, Mod::bfly, Mod::idx});
  if (b.type(0) != Type::B32) b.fail("shfl.sync takes .b32");
  const int n = b.has(Mod::up) + b.has(Mod::down) + b.has(Mod::bfly) + b.has(Mod::idx);
  if (n != 1) b.fail("needs exactly one of .up, .down, .bfly, .idx");
  b.out.fn = b.has(Mod::up) ? &exec_shfl<Mode::Up> : b.has(Mod::down) ? &exec_shfl<Mode::Down>
           : b.has(Mod::bfly) ? &exec_shfl<Mode::Bfly> : &exec_shfl<Mode::Idx>;
  const isa::ptx::Operand& d0 = b.operand(0);
  if (d0.kind == isa::ptx::OperandKind::Pair) {
    b.out.o[0] = b.dst_of(d0.elems[0], 32);
    b.out.aux = b.pred_dst_of(d0.elems[1]);
  } else {
    b.out.o[0] = b.dst(0, 32);
    b.out.aux = 0;  // predicate sink
  }
  b.out.o[1] = b.src(1, Type::B32);
  b.out.o[2] = b.src(2, Type::B32);
  b.out.o[3] = b.src(3, Type::B32);
  ExecOperand m;
  m.ref = b.src(4, Type::B32);
  b.out.first_op = b.push(m);
  b.out.nops = 1;
}

}  // namespace tcsim::sim
