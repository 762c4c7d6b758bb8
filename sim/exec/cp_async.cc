// PTX ISA §9.7.9.25.3 Data movement: cp.async (the per-thread, non-bulk asynchronous copy) and its
// groups (§9.7.9.25.3.2-3):
//   cp.async.ca.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [dst], [src], cp-size{, src-size}{, cache-policy};
//   cp.async.cg.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [dst], [src], 16{, src-size}{, cache-policy};
//   cp.async.ca.shared{::cta}.global{...}                                 [dst], [src], cp-size{, ignore-src}{, cache-policy};
//   cp.async.cg.shared{::cta}.global{...}                                 [dst], [src], 16{, ignore-src}{, cache-policy};
//   cp.async.commit_group;      cp.async.wait_group N;      cp.async.wait_all;
//   cp-size = { 4, 8, 16 } (.cg: 16 only); dst and src aligned to cp-size.
// A copy reads its source when it is issued (src-size bytes, 0 <= src-size <= cp-size; ignore-src
// true reads nothing) and writes cp-size bytes to shared memory after the global read's latency (sim/timing/memory.h; the
// bytes past src-size are zeros), in an AsyncDataLand event: before that, shared memory still
// holds the old bytes. Groups are per thread: commit_group closes the thread's uncommitted copies
// into a group (possibly empty); wait_group N waits until at most the N most recent groups are
// pending; wait_all = commit_group + wait_group 0 (uncommitted copies are not waited for by
// wait_group). Cache hints (.ca/.cg, .L2::*) do not change results: accepted.
//
// PTX ISA §9.7.13.15.15 cp.async.mbarrier.arrive:
//   cp.async.mbarrier.arrive.noinc{.shared{::cta}}.b64 [addr];
// The system performs an arrive-on (count 1 per thread) on the thread's mbarrier once all of the
// thread's prior cp.async operations have completed: here an MbarrierUpdate event at the landing
// cycle of the thread's newest pending copy (after its AsyncDataLand), or the next cycle when none
// is pending, with the issuing thread's release clock. .noinc: the pending count is not raised
// first, so the arrive counts as one of the expected arrivals of the phase. Without .noinc the
// pending count is raised by 1 at issue (a net-zero arrive): that needs an increment operation the
// mbarrier unit (sim/units/mbarrier.h) does not offer yet, so that form binds as not implemented.
#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/checker/race.h"
#include "sim/timing/memory.h"
#include "sim/address_space.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/memory/dsmem.h"
#include "sim/partition.h"
#include "sim/units/async_groups.h"
#include "sim/units/mbarrier.h"
#include "sim/warp.h"

namespace tcsim::sim {


namespace {

// The copies of one cp.async instruction executed by one warp (the data; its groups are in the
// CTA's AsyncGroups tracker, one owner per thread: sim/units/async_groups.h).
struct CpBatch {
  Cycles done;
  uint32_t lanes = 0;
  uint32_t size = 0;  // cp-size
  bool landed = false;
  std::array<uint32_t, 32> dst{};      // shared address
  std::array<std::array<uint8_t, 16>, 32> data{};
};

}  // namespace

struct CpAsyncState {
  std::vector<std::deque<CpBatch>> batches;  // per warp: issued, oldest first
  AsyncGroups groups;                        // per thread (warp * 32 + lane)
};

namespace {

constexpr std::string_view kSec = "PTX ISA §9.7.9.25.3";

CpAsyncState& cp_state(ExecCtx& c) {
  Cta& cta = *c.cta;
  if (!cta.cp_async) {
    cta.cp_async = std::make_shared<CpAsyncState>();
    cta.cp_async->batches.resize(cta.warps().size());
  }
  return *cta.cp_async;
}

uint32_t thread_of(const ExecCtx& c, int lane) { return c.warp->id() * 32 + static_cast<uint32_t>(lane); }

void land(const std::weak_ptr<CpAsyncState>& weak, Cta* cta, uint32_t w) {
  const auto s = weak.lock();
  if (!s) return;
  std::deque<CpBatch>& batches = s->batches[w];
  for (CpBatch& b : batches) {
    if (b.landed) continue;
    uint32_t lanes = b.lanes;
    while (lanes) {
      const int l = __builtin_ctz(lanes);
      lanes &= lanes - 1;
      std::memcpy(cta->shared() + b.dst[l], b.data[l].data(), b.size);
      cta->uncopied().clear(b.dst[l], b.size);
      race::async_wrote(*cta, b.dst[l], b.size);
    }
    b.landed = true;
    break;  // one batch per event, oldest first (equal latencies keep them in order)
  }
  while (!batches.empty() && batches.front().landed) batches.pop_front();
  cta->warps()[w]->wake_async();
}

// aux: cp-size (bits 0-7), operand kind of the 4th operand (bits 8-9: 0 none, 1 src-size,
// 2 ignore-src, 3 ignore-src negated), .cg (bit 10). o[0] = src-size / ignore-src.
void exec_cp_async(ExecCtx& c, const ExecInstr& in) {
  const uint32_t size = static_cast<uint32_t>(in.aux & 0xff);
  const uint32_t kind = static_cast<uint32_t>(in.aux >> 8 & 3);
  const ExecOperand& dst = c.op(in, 0);
  const ExecOperand& src = c.op(in, 1);
  CpAsyncState& st = cp_state(c);
  CpBatch b;
  b.lanes = c.mask;
  uint64_t src_addr[32] = {};
  uint32_t read_lanes = 0;
  b.size = size;
  mem::GlobalCache gc;
  const uint32_t ignore = kind >= 2 ? (c.pred(in.o[0]) ^ (kind == 3 ? 0xffffffffu : 0u)) : 0u;
  for_lanes(c.mask, [&](int lane) {
    const uint64_t da = mem::lane_address(c, dst, lane);
    const uint64_t sa = mem::lane_address(c, src, lane);
    if (da % size) c.fail(lane, fmt::format("cp.async: destination shared address 0x{:x} is not aligned to the copy size {} ({})", da, size, kSec));
    if (sa % size) c.fail(lane, fmt::format("cp.async: source global address 0x{:x} is not aligned to the copy size {} ({})", sa, size, kSec));
    mem::shared_ptr(c, lane, da, size, true, false);  // bounds
    uint32_t n = size;
    if (kind == 1) {
      const uint64_t ss = c.src(in.o[0])[lane] & 0xffffffffu;
      if (ss > size)
        c.fail(lane, fmt::format("cp.async: src-size {} exceeds cp-size {} ({}: src-size must be at most cp-size)", ss,
                                 size, kSec));
      n = static_cast<uint32_t>(ss);
    } else if (ignore >> lane & 1) {
      n = 0;  // ignore-src: the source is not read, zeros are written
    }
    b.data[lane].fill(0);
    if (n) {
      mem::check_global(c, lane, sa, n, false, false, gc);
      c.part->overlay().read(*c.launch->gm, sa, b.data[lane].data(), n);
      src_addr[lane] = sa;
      read_lanes |= 1u << lane;
    }
    b.dst[lane] = mem::own_shared_offset(c, lane, da, "cp.async");
  });
  // The bytes land after the global read (sim/timing/memory.h: L1/L2/HBM), in issue order.
  std::deque<CpBatch>& mine = st.batches[c.warp->id()];
  b.done = c.now + Cycles(timing::global_read_latency(c, src_addr, read_lanes, size, (in.aux >> 10 & 1) != 0));
  if (!mine.empty()) b.done = max(b.done, mine.back().done);
  for_lanes(c.mask, [&](int lane) { st.groups.add(thread_of(c, lane), b.done, b.done); });
  mine.push_back(b);
  std::weak_ptr<CpAsyncState> weak = c.cta->cp_async;
  Cta* cta = c.cta;
  const uint32_t w = c.warp->id();
  c.part->events().post(b.done, EventPriority::AsyncDataLand, [weak, cta, w](Cycles) { land(weak, cta, w); });
}

void commit(ExecCtx& c) {
  AsyncGroups& g = cp_state(c).groups;
  for_lanes(c.mask, [&](int lane) { g.commit(thread_of(c, lane), c.now); });
}

// True when every executing lane has at most `n` pending groups.
bool groups_done(ExecCtx& c, uint32_t n) {
  AsyncGroups& g = cp_state(c).groups;
  bool done = true;
  for_lanes(c.mask, [&](int lane) { done = g.wait(thread_of(c, lane), n, false, c.now).ready && done; });
  return done;
}

void exec_commit(ExecCtx& c, const ExecInstr&) { commit(c); }

void exec_wait_group(ExecCtx& c, const ExecInstr& in) {
  if (!groups_done(c, static_cast<uint32_t>(in.aux))) c.flow = Flow::WaitAsync;  // a landing wakes the warp
}

void exec_wait_all(ExecCtx& c, const ExecInstr&) {
  // wait_all = commit_group + wait_group 0. A re-execution after a wake-up commits again: an empty
  // group, which is never pending, so the net effect is the same.
  commit(c);
  if (!groups_done(c, 0)) c.flow = Flow::WaitAsync;
}

// aux: the state space of [addr] (Generic or Shared).
void exec_mbarrier_arrive(ExecCtx& c, const ExecInstr& in) {
  constexpr const char* kWhat = "cp.async.mbarrier.arrive.noinc";
  const AsyncGroups& groups = cp_state(c).groups;
  const auto sp = static_cast<isa::ptx::Space>(in.aux);
  struct Arrival {
    Cycles when;
    uint32_t addr, count;
  };
  std::vector<Arrival> arrivals;  // lanes with the same (cycle, barrier) merged, in lane order
  for_lanes(c.mask, [&](int lane) {
    uint64_t a = mem::lane_address(c, c.op(in, 0), lane);
    if (sp == isa::ptx::Space::Generic) {
      if (addr::classify(a) != addr::Window::Shared)
        c.fail(lane, fmt::format("{}: the generic address 0x{:x} is not in shared memory (mbarrier objects live in "
                                 ".shared::cta: PTX ISA §9.7.13.15.1)", kWhat, a));
      a = mem::generic_to_shared(a);
    }
    const uint32_t off = mem::own_shared_offset(c, lane, a, kWhat);
    const Cycles when = max(c.now + Cycles(1), groups.all_done(thread_of(c, lane)));
    for (Arrival& r : arrivals)
      if (r.when == when && r.addr == off) {
        ++r.count;
        return;
      }
    arrivals.push_back({when, off, 1});
  });
  const VClock rel = c.cta->cluster().release(c.cta->cluster_rank());
  for (const Arrival& r : arrivals) post_mbarrier_arrive(*c.part, r.when, c.cta->ref(), r.addr, r.count, &rel, kWhat);
}

}  // namespace

void bind_cp_async(BindCtx& b) {
  using isa::ptx::Mod;
  using isa::ptx::Op;
  using isa::ptx::OperandKind;
  using isa::ptx::Space;
  switch (b.in.op) {
    case Op::cp_async: {
      b.only_mods({Mod::ca, Mod::cg, Mod::L2_cache_hint, Mod::L2_64B, Mod::L2_128B, Mod::L2_256B});
      if (b.has(Mod::ca) == b.has(Mod::cg)) b.fail(fmt::format("cp.async needs exactly one of .ca, .cg ({})", kSec));
      if (b.in.nspaces != 2 || !isa::ptx::is_shared(b.in.space(0)) || b.in.space(0) == Space::SharedCluster ||
          b.in.space(1) != Space::Global)
        b.fail(fmt::format("cp.async copies .global to .shared{{::cta}}: write cp.async.ca.shared.global ({})", kSec));
      const bool hint = b.has(Mod::L2_cache_hint);
      if (b.nops() < 3) b.fail("cp.async needs [dst], [src], cp-size");
      const isa::ptx::Operand& sz = b.operand(2);
      if (sz.kind != OperandKind::Imm) b.fail(fmt::format("cp-size must be the constant 4, 8 or 16 ({})", kSec));
      const int64_t size = sz.imm;
      if (size != 4 && size != 8 && size != 16) b.fail(fmt::format("cp-size {} is not 4, 8 or 16 ({})", size, kSec));
      if (b.has(Mod::cg) && size != 16) b.fail(fmt::format("cp.async.cg copies 16 bytes only, not {} ({})", size, kSec));
      size_t nops = b.nops();
      if (hint) {
        if (nops < 4) b.fail(".L2::cache_hint needs a cache-policy operand");
        b.src(static_cast<int>(nops - 1), isa::ptx::Type::B64);  // validated, not used (a hint)
        --nops;
      }
      uint64_t kind = 0;
      if (nops == 4) {
        if (b.is_pred_reg(b.operand(3))) {
          bool neg = false;
          b.out.o[0] = b.pred_src(3, &neg);
          kind = neg ? 3 : 2;
        } else {
          b.out.o[0] = b.src(3, isa::ptx::Type::U32);
          kind = 1;
        }
      } else if (nops != 3) {
        b.fail(fmt::format("cp.async takes [dst], [src], cp-size{{, src-size | ignore-src}}{{, cache-policy}} ({})", kSec));
      }
      b.out.first_op = b.push(b.address(0, Space::Shared));
      b.push(b.address(1, Space::Global));
      b.out.nops = 2;
      // bit 10: .cg (the L1 is bypassed: sim/timing/memory.h)
      b.out.aux = static_cast<uint64_t>(size) | (kind << 8) | (b.has(isa::ptx::Mod::cg) ? 1u << 10 : 0u);
      b.out.fn = exec_cp_async;
      return;
    }
    case Op::cp_async_commit_group:
      b.only_mods({});
      b.out.fn = exec_commit;
      return;
    case Op::cp_async_wait_group: {
      b.only_mods({});
      const isa::ptx::Operand& o = b.operand(0);
      if (o.kind != OperandKind::Imm || o.imm < 0) b.fail(fmt::format("cp.async.wait_group N takes a non-negative constant ({})", kSec));
      b.out.aux = static_cast<uint64_t>(o.imm);
      b.out.fn = exec_wait_group;
      return;
    }
    case Op::cp_async_wait_all:
      b.only_mods({});
      b.out.fn = exec_wait_all;
      return;
    case Op::cp_async_mbarrier_arrive: {
      b.only_mods({Mod::noinc});
      if (b.type(0) != isa::ptx::Type::B64)
        b.fail("cp.async.mbarrier.arrive takes the type .b64 (PTX ISA §9.7.13.15.15)");
      const Space sp = b.in.space(0);  // Generic when none is written
      if (b.in.nspaces > 1 || (sp != Space::Generic && sp != Space::Shared && sp != Space::SharedCta))
        b.fail("cp.async.mbarrier.arrive takes a generic address or one state space, .shared or .shared::cta "
               "(PTX ISA §9.7.13.15.15)");
      if (!b.has(Mod::noinc))
        return b.not_implemented("cp.async.mbarrier.arrive without .noinc raises the mbarrier's pending count at "
                                 "issue, which the mbarrier unit cannot do yet (the .noinc form is modelled)");
      b.out.first_op = b.push(b.address(0, sp));
      b.out.nops = 1;
      b.out.aux = static_cast<uint64_t>(sp);
      b.out.fn = exec_mbarrier_arrive;
      return;
    }
    default:
      b.fail("internal: not a cp_async row");
  }
}

}  // namespace tcsim::sim
