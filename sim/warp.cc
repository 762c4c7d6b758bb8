// Warp execution: thread-group selection (min-PC reconvergence, see warp.h), guard predicates,
// control-flow effects, the call ABI (per-lane stack frames, parameter copies, registers saved
// per activation for recursive functions), exit and barrier waits.
#include "sim/warp.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "isa/ptx/dump.h"
#include "sim/address_space.h"
#include "sim/cta.h"
#include "sim/exec/warp_collective.h"
#include "sim/livelock.h"
#include "sim/partition.h"
#include "sim/sm.h"

namespace tcsim::sim {

using isa::ptx::SReg;

namespace {

// An mbarrier test_wait/try_wait poll that returns False advances the barrier's count of fruitless
// polls (sim/units/mbarrier.h MbarrierUnit::keep_returning), state outside the warp that decides
// when the warp is suspended: exact-repeat detection (sim/livelock.h) counts every such poll as a
// change of the warp's state, so a polling loop never repeats and ends in the deadlock report with
// the barrier's state instead.
bool is_mbarrier_wait(const Program& prog, uint32_t pc) {
  const isa::ptx::Op op = prog.instr_of(prog.code[pc]).op;
  return op == isa::ptx::Op::mbarrier_test_wait || op == isa::ptx::Op::mbarrier_try_wait;
}

}  // namespace

Warp::Warp(Cta& cta, uint32_t id, uint32_t valid_mask, const LaunchState& L)
    : cta_(&cta), id_(id), valid_(valid_mask), prog_(L.prog), stack_limit_(L.stack_size_bytes), step_limit_(L.max_warp_steps) {
  const Program& prog = *prog_;
  regs_.assign(size_t{prog.num_slots} * 32, 0);
  preds_.assign(prog.num_preds, 0);
  groups_.push_back(ThreadGroup::make(prog.funcs[prog.entry].entry_pc, valid_mask, 0, GroupState::Ready));
  tm_.ready.assign(size_t{prog.num_slots} + prog.num_preds, 0);
  tm_.producer.assign(size_t{prog.num_slots} + prog.num_preds, 0);
  if (prog.uses_local) {
    for (int l = 0; l < 32; ++l)
      if (valid_mask >> l & 1) local_[l].assign(prog.funcs[prog.entry].frame_size, 0);
  }
  // Per-warp-constant special registers live in hidden slots (PTX ISA chapter 10).
  const Dim3 nt = L.cfg.block, nc = L.cfg.grid, cl = L.cluster;
  const Dim3 ctaid = cta.ctaid();
  for (SReg s : prog.used_sregs) {
    const Ref slot = prog.sreg_slot[static_cast<size_t>(s)];
    if (isa::ptx::sreg_info(s).type == isa::ptx::Type::Pred) {
      if (s == SReg::is_explicit_cluster) preds_[slot] = L.explicit_cluster ? 0xffffffffu : 0;
      continue;
    }
    uint64_t* d = regs_.data() + uint64_t{slot} * 32;
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t t = id * 32 + lane;  // linear thread index in the CTA
      uint64_t v = 0;
      switch (s) {
        case SReg::tid_x: v = t % nt.x; break;
        case SReg::tid_y: v = (t / nt.x) % nt.y; break;
        case SReg::tid_z: v = t / (nt.x * nt.y); break;
        case SReg::ntid_x: v = nt.x; break;
        case SReg::ntid_y: v = nt.y; break;
        case SReg::ntid_z: v = nt.z; break;
        case SReg::laneid: v = lane; break;
        case SReg::warpid: v = id; break;
        case SReg::nwarpid: v = L.machine->max_warps_per_sm; break;
        case SReg::ctaid_x: v = ctaid.x; break;
        case SReg::ctaid_y: v = ctaid.y; break;
        case SReg::ctaid_z: v = ctaid.z; break;
        case SReg::nctaid_x: v = nc.x; break;
        case SReg::nctaid_y: v = nc.y; break;
        case SReg::nctaid_z: v = nc.z; break;
        case SReg::smid: v = cta.sm().id(); break;
        case SReg::nsmid: v = L.machine->num_sms; break;
        case SReg::gridid: v = L.grid_id; break;
        case SReg::clusterid_x: v = cta.cluster_id().x; break;
        case SReg::clusterid_y: v = cta.cluster_id().y; break;
        case SReg::clusterid_z: v = cta.cluster_id().z; break;
        case SReg::nclusterid_x: v = nc.x / cl.x; break;
        case SReg::nclusterid_y: v = nc.y / cl.y; break;
        case SReg::nclusterid_z: v = nc.z / cl.z; break;
        case SReg::cluster_ctaid_x: v = cta.cluster_ctaid().x; break;
        case SReg::cluster_ctaid_y: v = cta.cluster_ctaid().y; break;
        case SReg::cluster_ctaid_z: v = cta.cluster_ctaid().z; break;
        case SReg::cluster_nctaid_x: v = cl.x; break;
        case SReg::cluster_nctaid_y: v = cl.y; break;
        case SReg::cluster_nctaid_z: v = cl.z; break;
        case SReg::cluster_ctarank: v = cta.cluster_rank(); break;
        case SReg::cluster_nctarank: v = cl.x * cl.y * cl.z; break;
        case SReg::lanemask_eq: v = 1u << lane; break;
        case SReg::lanemask_le: v = lane == 31 ? 0xffffffffu : (2u << lane) - 1; break;
        case SReg::lanemask_lt: v = (1u << lane) - 1; break;
        case SReg::lanemask_ge: v = 0xffffffffu << lane; break;
        case SReg::lanemask_gt: v = lane == 31 ? 0 : 0xffffffffu << (lane + 1); break;
        case SReg::dynamic_smem_size: v = L.cfg.dynamic_smem_bytes; break;
        // The H200's values (kernels/cluster smem_sregs_* goldens; models/machine/shared_memory.h):
        // total = static + dynamic bytes rounded up to 128, aggr = reserve + static + dynamic; the
        // reserve is [0, 0x400) with begin 0, end 0x120, cap 0x400, and offsets _0 = _1 = 0.
        case SReg::total_smem_size: v = L.smem.total_smem_size(); break;
        case SReg::aggr_smem_size: v = L.smem.aggr_smem_size(); break;
        case SReg::reserved_smem_offset_begin:
        case SReg::reserved_smem_offset_0:
        case SReg::reserved_smem_offset_1: v = 0; break;
        case SReg::reserved_smem_offset_end: v = L.machine->reserved_smem_end; break;
        case SReg::reserved_smem_offset_cap: v = L.smem.reserved; break;
        case SReg::current_graph_exec: v = 0; break;
        default: v = 0; break;
      }
      d[lane] = v;
    }
  }
  // Shared variables' values: offset plus the CTA's own rank field (Program::smem_value_slots).
  for (const Program::SharedValueSlot& sv : prog.smem_value_slots) {
    uint64_t v = models::smem_address(cta.cluster_rank(), sv.offset);
    if (sv.bits < 64) v &= (uint64_t{1} << sv.bits) - 1;
    uint64_t* d = regs_.data() + uint64_t{sv.slot} * 32;
    for (uint32_t lane = 0; lane < 32; ++lane) d[lane] = v;
  }
}

bool Warp::has_ready_group_slow(Cycles now) {
  bool woke = false, ready = false;
  for (ThreadGroup& g : groups_) {
    // A nanosleep ends, or a try_wait's suspend-time limit expires (its predicate stays false).
    if ((g.state == GroupState::Sleeping || g.state == GroupState::AtMbarrier) && g.wake_at <= now) {
      g.state = GroupState::Ready;
      woke = true;
    }
    ready = ready || g.state == GroupState::Ready;
  }
  if (woke) normalize();
  return ready;
}

void Warp::extend_sleep(uint32_t lane, Cycles t) {
  for (ThreadGroup& g : groups_)
    if (g.state == GroupState::Sleeping && (g.mask >> lane & 1)) g.wake_at = max(g.wake_at, t);
}

Cycles Warp::next_wake() const {
  Cycles t = Cycles::never();
  for (const ThreadGroup& g : groups_)
    if (g.state == GroupState::Sleeping || g.state == GroupState::AtMbarrier) t = min(t, g.wake_at);
  return t;
}

// Greatest call depth first, then lowest pc; a group standing at its reconvergence point waits
// there while another group of the warp can still run (soft convergence barrier: it never blocks
// progress), and goes on alone — dropping that point — when nothing else can.
ThreadGroup* Warp::select() {
  if (groups_.size() == 1) {
    ThreadGroup& g = groups_[0];
    if (g.state != GroupState::Ready) return nullptr;
    while (g.at_rpc()) --g.nrpc;
    return &g;
  }
  for (int pass = 0; pass < 3; ++pass) {
    ThreadGroup* best = nullptr;
    for (ThreadGroup& g : groups_) {
      if (g.state != GroupState::Ready || (pass < 2 && g.yielded) || (pass == 0 && g.at_rpc())) continue;
      if (!best || g.depth > best->depth || (g.depth == best->depth && g.pc < best->pc)) best = &g;
    }
    if (best) {
      while (best->at_rpc()) --best->nrpc;
      return best;
    }
    if (pass == 1)
      for (ThreadGroup& g : groups_) g.yielded = false;  // every ready group yielded: start over
  }
  return nullptr;
}

const ExecInstr* Warp::peek() {
  ThreadGroup* g = select();
  return g ? &prog_->code[g->pc] : nullptr;
}

uint8_t Warp::step(ExecCtx& ctx) {
  ThreadGroup* g = select();
  const size_t gi = static_cast<size_t>(g - groups_.data());
  const uint32_t pc = g->pc;
  const ExecInstr& in = prog_->code[pc];
  current_ = &in;
  uint32_t mask = g->mask;
  if (in.guard != kNoGuard) {
    const uint32_t p = preds_[in.guard & ~kGuardNegated];
    mask &= (in.guard & kGuardNegated) ? ~p : p;
  }
  ctx.warp = this;
  ctx.regs = regs_.data();
  ctx.preds = preds_.data();
  ctx.mask = mask;
  ctx.group_mask = g->mask;
  ctx.flow = Flow::Next;
  if (++issued_ > step_limit_) [[unlikely]]
    ctx.part->note_warp_over_limit(this);  // the launch reports it at the quantum's end
  thread_instrs_ += static_cast<uint64_t>(__builtin_popcount(mask));
  if (reg_watch && reg_watch(ctx, in)) [[unlikely]]
    ctx.flow = Flow::WaitAsync;  // retried when the asynchronous operation completes
  else if (mask) {
    in.fn(ctx, in);
    // Livelock detection (sim/livelock.h).
    if (const uint8_t k = prog_->progress[pc]) [[unlikely]] {
      if (k == kProgress) ctx.part->note_progress();
      else if (k == kPrivateStore) ++private_writes_;
      else {
        note_poll();
        if (is_mbarrier_wait(*prog_, pc)) ++private_writes_;
      }
    }
  }
  if (groups_.size() > 1 && prog_->timing[g->pc].pipe == timing::Pipe::Atomic) g->polled = true;
  if (ctx.flow == Flow::Next && groups_.size() == 1) {
    ++groups_[0].pc;  // the common case: one converged group, straight-line code
  } else {
    apply_flow(ctx, gi, in);
  }
  return in.timing;
}

void Warp::apply_flow(ExecCtx& ctx, size_t gi, const ExecInstr& in) {
  const uint32_t pc = groups_[gi].pc;
  const uint32_t exec = ctx.mask;
  const uint32_t rest = groups_[gi].mask & ~exec;
  const uint16_t depth = groups_[gi].depth;
  const ThreadGroup parent = groups_[gi];
  auto add_group = [&](uint32_t gpc, uint32_t m, uint16_t d, GroupState st) {
    if (!m) return;
    ThreadGroup g = ThreadGroup::make(gpc, m, d, st);
    g.rpc = parent.rpc;
    g.nrpc = parent.nrpc;
    groups_.push_back(g);
  };
  // A divergent branch: both sides remember where they should meet again.
  auto push_rpc = [&](ThreadGroup& g) {
    if (ctx.rpc == 0xffffffffu || (g.nrpc && g.rpc[g.nrpc - 1] == ctx.rpc)) return;
    if (g.nrpc < ThreadGroup::kMaxRpc) g.rpc[g.nrpc++] = ctx.rpc;
  };
  bool state_change = ctx.flow != Flow::Next;
  bool backward = false;  // a backward branch taken by some lane (exact-repeat detection)
  switch (ctx.flow) {
    case Flow::Next:
      groups_[gi].pc = pc + 1;
      break;
    case Flow::Branch: {
      const uint32_t target = ctx.target;
      if (exec != 0 && target <= pc) {
        loop_from_ = target;
        loop_to_ = pc;
        backward = true;
      }
      if (exec == 0) {
        groups_[gi].pc = pc + 1;
      } else if (rest == 0) {
        ThreadGroup& g = groups_[gi];
        g.pc = target;
        if (target <= pc && groups_.size() > 1) {
          // A loop iteration while other groups wait: after kSpinLimit of them, let the others run
          // (forward progress for intra-warp spin locks; PTX ISA §9.5, independent scheduling).
          // A loop that ran an atomic (a lock-acquire loop: atom.cas/exch until it wins) yields
          // after kSpinYield iterations when another group waits at its reconvergence point: that
          // group (the lock holder) then goes on alone to release the lock, as the H200 hands
          // kernels/basic warp_lock's locks over in ~280 cycles each, not after thousands of tries.
          bool holder_waits = false;
          for (const ThreadGroup& o : groups_)
            holder_waits = holder_waits || (&o != &g && o.state == GroupState::Ready && g.polled);
          g.polled = false;
          if (++g.spin > (holder_waits ? kSpinYield : kSpinLimit)) {
            g.spin = 0;
            g.yielded = true;
          }
          state_change = false;
        }
      } else {
        groups_[gi].mask = rest;
        groups_[gi].pc = pc + 1;
        push_rpc(groups_[gi]);
        add_group(target, exec, depth, GroupState::Ready);
        push_rpc(groups_.back());
      }
      break;
    }
    case Flow::PerLane: {
      groups_[gi].mask = rest;
      groups_[gi].pc = pc + 1;
      const size_t first_new = groups_.size();
      uint32_t left = exec;
      while (left) {
        const uint32_t t = ctx.lane_target[__builtin_ctz(left)];
        backward = backward || t <= pc;
        uint32_t m = 0;
        for (uint32_t l = left; l; l &= l - 1)
          if (ctx.lane_target[__builtin_ctz(l)] == t) m |= 1u << __builtin_ctz(l);
        add_group(t, m, depth, GroupState::Ready);
        left &= ~m;
      }
      if (groups_.size() - first_new + (rest ? 1 : 0) > 1) {
        if (rest) push_rpc(groups_[gi]);
        for (size_t k = first_new; k < groups_.size(); ++k) push_rpc(groups_[k]);
      }
      break;
    }
    case Flow::Call:
      ++private_writes_;
      do_call(ctx, gi, in);
      break;
    case Flow::Ret:
      ++private_writes_;
      do_ret(ctx, gi);
      break;
    case Flow::Exit:
      groups_[gi].mask = rest;
      groups_[gi].pc = pc + 1;
      lanes_exit(ctx, exec);
      break;
    case Flow::WaitSync:
      if (rest) {
        groups_[gi].mask = rest;
        groups_[gi].pc = pc + 1;
        add_group(pc, exec, depth, GroupState::AtWarpSync);
      } else {
        groups_[gi].state = GroupState::AtWarpSync;
      }
      break;
    case Flow::WaitBarrier: {
      const int b = static_cast<int>(ctx.target);
      groups_[gi].pc = pc + 1;
      if (rest) {
        groups_[gi].mask = rest;
        add_group(pc + 1, exec, depth, GroupState::AtBarrier);
        groups_.back().barrier = static_cast<uint8_t>(b);
      } else {
        groups_[gi].state = GroupState::AtBarrier;
        groups_[gi].barrier = static_cast<uint8_t>(b);
      }
      normalize();
      // Arrive after the lanes are marked as waiting: the arrival may complete the barrier and
      // release them at once.
      cta_->arrive(*this, b, exec, ctx.lane_target[0], ctx.now);
      return;
    }
    case Flow::WaitAsync:
      if (rest) {
        groups_[gi].mask = rest;
        groups_[gi].pc = pc + 1;
        add_group(pc, exec, depth, GroupState::AtAsyncWait);
      } else {
        groups_[gi].state = GroupState::AtAsyncWait;
      }
      break;
    case Flow::Sleep:
      timed_ = timed_ || groups_.size() > 1 || rest;
      groups_[gi].pc = pc + 1;
      if (rest) {
        groups_[gi].mask = rest;
        add_group(pc + 1, exec, depth, GroupState::Sleeping);
        groups_.back().wake_at = ctx.now + Cycles(ctx.target);
      } else {
        groups_[gi].state = GroupState::Sleeping;
        groups_[gi].wake_at = ctx.now + Cycles(ctx.target);
      }
      break;
    case Flow::WaitMbarrier:
    case Flow::WaitClusterBarrier: {
      const GroupState st = ctx.flow == Flow::WaitMbarrier ? GroupState::AtMbarrier : GroupState::AtClusterBarrier;
      groups_[gi].pc = pc + 1;
      ThreadGroup* g = &groups_[gi];
      if (rest) {
        groups_[gi].mask = rest;
        add_group(pc + 1, exec, depth, st);
        g = &groups_.back();
      } else {
        g->state = st;
      }
      g->wait_addr = ctx.wait_addr;
      g->wait_phase = ctx.wait_phase;
      g->wait_pred = ctx.wait_pred;
      g->wake_at = ctx.wait_until;
      timed_ = timed_ || (!g->wake_at.is_never() && groups_.size() > 1);
      break;
    }
  }
  if (state_change)
    for (ThreadGroup& g : groups_) g.yielded = false;
  normalize();
  if (backward && ctx.launch->repeat_epoch) [[unlikely]]
    note_backward_branch(ctx.launch->repeat_epoch);
}

bool Warp::blocked_forever() const {
  for (const ThreadGroup& g : groups_) {
    switch (g.state) {
      case GroupState::AtBarrier: case GroupState::AtWarpSync: case GroupState::AtAsyncWait:
      case GroupState::AtClusterBarrier:
        break;
      case GroupState::AtMbarrier:
        if (!g.wake_at.is_never()) return false;
        break;
      case GroupState::Ready: case GroupState::Sleeping:
        return false;
    }
  }
  return true;
}

void Warp::snapshot(std::vector<uint64_t>& out) const {
  out.clear();
  out.insert(out.end(), regs_.begin(), regs_.end());
  for (size_t i = 0; i < preds_.size(); i += 2)
    out.push_back(preds_[i] | (i + 1 < preds_.size() ? uint64_t{preds_[i + 1]} << 32 : 0));
  out.push_back(exited_ | uint64_t{valid_} << 32);
  out.push_back(private_writes_);
  out.push_back(groups_.size());
  for (const ThreadGroup& g : groups_) {
    out.push_back(g.pc | uint64_t{g.mask} << 32);
    out.push_back(g.depth | uint64_t{static_cast<uint8_t>(g.state)} << 16 | uint64_t{g.barrier} << 24 |
                  uint64_t{g.yielded} << 32 | uint64_t{g.polled} << 33 | uint64_t{g.nrpc} << 40);
    out.push_back(g.spin);
    for (uint8_t k = 0; k < g.nrpc; ++k) out.push_back(g.rpc[k]);
    // A ready group's wake time is stale; a waiting group's wait is part of its state (a sleeping
    // or timed-out one is never snapshotted: note_backward_branch).
    if (g.state == GroupState::AtMbarrier || g.state == GroupState::AtClusterBarrier)
      out.push_back(g.wait_addr | uint64_t{g.wait_phase} << 32), out.push_back(g.wait_pred);
  }
  for (int l = 0; l < 32; ++l) {
    out.push_back(frame_[l] | uint64_t{rec_stack_[l]} << 32);
    out.push_back(calls_[l].size());
    for (const LaneFrame& f : calls_[l]) {
      out.push_back(f.nrpc | uint64_t{f.return_pc} << 32);
      out.push_back(f.call_site | uint64_t{f.callee} << 32);
      out.push_back(f.caller_base);
    }
  }
  for (int b = 0; b < 16; ++b) out.push_back(bar_arrived_[b] | uint64_t{bar_counted_[b]} << 32);
}

void Warp::note_backward_branch(uint64_t epoch) {
  // Only a state that alone decides what the warp does next: no group asleep or in a timed wait
  // (its wake-up time would decide when it runs again), and no timed wait since the saved state
  // while another group could run (sim/livelock.h).
  if (regs_.size() > kMaxSnapshotWords) return;
  if (timed_) {
    timed_ = false;
    repeat_.restart();
  }
  for (const ThreadGroup& g : groups_)
    if (g.state == GroupState::Sleeping || (g.state == GroupState::AtMbarrier && !g.wake_at.is_never())) {
      repeat_.restart();
      return;
    }
  thread_local std::vector<uint64_t> state;
  snapshot(state);
  repeat_.observe(epoch, state);
}

void Warp::normalize() {
  // Drop empty groups; merge groups that stand at the same (pc, depth) in compatible states.
  for (size_t i = 0; i < groups_.size();) {
    if (groups_[i].mask == 0) {
      groups_.erase(groups_.begin() + static_cast<long>(i));
      continue;
    }
    bool merged = false;
    for (size_t j = 0; j < i; ++j) {
      ThreadGroup& a = groups_[j];
      const ThreadGroup& b = groups_[i];
      if (a.pc != b.pc || a.depth != b.depth) continue;
      // (A group parked at an async wait merges too: the merged group re-executes the wait.)
      auto reevaluated = [](GroupState s) {
        return s == GroupState::Ready || s == GroupState::AtWarpSync || s == GroupState::AtAsyncWait;
      };
      const bool sync_or_ready = reevaluated(a.state) && reevaluated(b.state);
      const bool same_barrier = a.state == GroupState::AtBarrier && b.state == GroupState::AtBarrier &&
                                a.barrier == b.barrier;
      if (!sync_or_ready && !same_barrier) continue;
      a.mask |= b.mask;
      // Merging at a warp-sync point re-evaluates it with the larger mask.
      if (sync_or_ready) a.state = GroupState::Ready;
      a.spin = 0;
      // Reconverged: keep the common reconvergence points; the one reached here is done.
      uint8_t k = 0;
      while (k < a.nrpc && k < b.nrpc && a.rpc[k] == b.rpc[k]) ++k;
      a.nrpc = k;
      while (a.at_rpc()) --a.nrpc;
      groups_.erase(groups_.begin() + static_cast<long>(i));
      merged = true;
      break;
    }
    if (!merged) ++i;
  }
}

void Warp::lanes_exit(ExecCtx& ctx, uint32_t lanes) {
  exited_ |= lanes;
  ctx.part->note_progress();
  for (ThreadGroup& g : groups_) {
    g.mask &= ~lanes;
    // A group parked at a warp-sync op may have been waiting for these lanes: re-evaluate.
    if (g.state == GroupState::AtWarpSync) g.state = GroupState::Ready;
  }
  for (int l = 0; l < 32; ++l)
    if (lanes >> l & 1) {
      calls_[l].clear();
      std::vector<uint8_t>().swap(local_[l]);
    }
  normalize();
  cta_->on_exit(*this, ctx.now);
}

void Warp::wake_async() {
  bool any = false;
  for (ThreadGroup& g : groups_)
    if (g.state == GroupState::AtAsyncWait) {
      g.state = GroupState::Ready;
      any = true;
    }
  async_wait_reason.clear();
  if (any) normalize();
}

void Warp::release_barrier(int b, Cycles ready) {
  for (ThreadGroup& g : groups_)
    if (g.state == GroupState::AtBarrier && g.barrier == b) g.state = GroupState::Ready;
  ready_at_ = max(ready_at_, ready);
  bar_arrived_[b] = 0;
  bar_counted_[b] = false;
  normalize();
}

uint32_t Warp::wake_waiters(GroupState st, uint32_t addr, uint32_t completed, Cycles ready) {
  uint32_t woke = 0;
  for (ThreadGroup& g : groups_) {
    if (g.state != st || g.wait_phase >= completed) continue;
    if (st == GroupState::AtMbarrier) {
      if (g.wait_addr != addr) continue;
      preds_[g.wait_pred] |= g.mask;  // try_wait returns True: the phase completed
    }
    g.state = GroupState::Ready;
    woke |= g.mask;
  }
  if (woke) {
    ready_at_ = max(ready_at_, ready);
    normalize();
  }
  return woke;
}

uint8_t* Warp::local_ptr(ExecCtx& ctx, int lane, uint64_t addr, uint32_t size) {
  if (addr + size > prog_->max_local_per_lane || addr + size < addr)
    ctx.fail(lane, fmt::format("local memory access at local address 0x{:x} ({} bytes) is beyond the "
                               "{}-byte per-thread stack",
                               addr, size, prog_->max_local_per_lane));
  std::vector<uint8_t>& m = local_[lane];
  if (addr + size > m.size()) m.resize(std::max<uint64_t>(addr + size, m.size() * 2), 0);
  return m.data() + addr;
}

void Warp::do_call(ExecCtx& ctx, size_t gi, const ExecInstr& in) {
  const CallSite& cs = prog_->call_sites[ctx.target];
  const uint32_t pc = groups_[gi].pc;
  const uint32_t exec = ctx.mask;
  const uint32_t rest = groups_[gi].mask & ~exec;
  const uint16_t depth = groups_[gi].depth;
  const ThreadGroup caller_rpc = groups_[gi];
  groups_[gi].mask = rest;
  groups_[gi].pc = pc + 1;
  const FunctionLayout& caller = prog_->funcs[cs.caller];
  uint32_t left = exec;
  while (left) {
    const int lane = __builtin_ctz(left);
    left &= left - 1;
    const uint32_t callee_idx = cs.callee >= 0 ? static_cast<uint32_t>(cs.callee) : ctx.lane_target[lane];
    const FunctionLayout& callee = prog_->funcs[callee_idx];
    if (!callee.has_body)
      ctx.fail(lane, fmt::format("call to '{}', which is declared but not defined in this module "
                                 "(of the device runtime's functions tcsim provides vprintf only)",
                                 callee.name));
    if (cs.arg_off.size() != callee.param_off.size())
      ctx.fail(lane, fmt::format("call passes {} parameters but '{}' takes {}", cs.arg_off.size(),
                                 callee.name, callee.param_off.size()));
    if (callee.recursive) {
      // What ptxas cannot size statically runs on the cudaLimitStackSize stack: a call past it is an
      // error (on the GPU, a stack overflow), not unbounded host memory.
      rec_stack_[lane] += callee.stack_bytes;
      if (rec_stack_[lane] > stack_limit_)
        ctx.fail(lane, fmt::format("stack overflow: the call to '{}' at call depth {} needs {} bytes of recursive "
                                   "activations, over the per-thread stack of {} bytes (cudaLimitStackSize; "
                                   "cudaDeviceSetLimit / DeviceOptions::stack_size_bytes raises it)",
                                   callee.name, calls_[lane].size() + 1, rec_stack_[lane], stack_limit_));
    }
    const uint32_t old_base = frame_[lane];
    const uint32_t new_base = old_base + caller.frame_size;
    uint8_t* frame = local_ptr(ctx, lane, new_base, std::max<uint32_t>(callee.frame_size, 1));
    const uint8_t* caller_frame = local_[lane].data() + old_base;
    for (size_t k = 0; k < cs.arg_off.size(); ++k)
      std::memcpy(frame + callee.param_off[k], caller_frame + cs.arg_off[k],
                  std::min(cs.arg_size[k], callee.param_size[k]));
    if (callee.recursive) {
      // Save this lane's values of the callee's registers: they belong to an outer activation.
      uint8_t* save = frame + callee.save_off;
      for (uint32_t s = 0; s < callee.nslots; ++s)
        std::memcpy(save + 8 * s, &regs_[(uint64_t{callee.slot_base} + s) * 32 + lane], 8);
      for (uint32_t p = 0; p < callee.npreds; ++p)
        save[8 * callee.nslots + p] = static_cast<uint8_t>(preds_[callee.pred_base + p] >> lane & 1);
    }
    calls_[lane].push_back(LaneFrame{caller_rpc.nrpc, pc + 1, ctx.target, callee_idx, old_base});
    frame_[lane] = new_base;
    // Lanes calling the same function start together.
    bool joined = false;
    for (ThreadGroup& g : groups_)
      if (g.pc == callee.entry_pc && g.depth == depth + 1 && g.state == GroupState::Ready && (g.mask & exec)) {
        g.mask |= 1u << lane;
        joined = true;
        break;
      }
    if (!joined) {
      ThreadGroup g = ThreadGroup::make(callee.entry_pc, 1u << lane, static_cast<uint16_t>(depth + 1), GroupState::Ready);
      g.rpc = caller_rpc.rpc;
      g.nrpc = caller_rpc.nrpc;
      groups_.push_back(g);
    }
  }
  (void)in;
}

void Warp::do_ret(ExecCtx& ctx, size_t gi) {
  const uint32_t pc = groups_[gi].pc;
  const uint32_t exec = ctx.mask;
  const uint32_t rest = groups_[gi].mask & ~exec;
  groups_[gi].mask = rest;
  groups_[gi].pc = pc + 1;
  if (groups_[gi].depth == 0) {  // ret from the kernel = exit (PTX ISA §9.7.12.5)
    lanes_exit(ctx, exec);
    return;
  }
  const uint16_t depth = groups_[gi].depth - 1;
  const ThreadGroup callee_group = groups_[gi];
  uint32_t left = exec;
  while (left) {
    const int lane = __builtin_ctz(left);
    left &= left - 1;
    const LaneFrame f = calls_[lane].back();
    calls_[lane].pop_back();
    const FunctionLayout& callee = prog_->funcs[f.callee];
    if (callee.recursive) rec_stack_[lane] -= callee.stack_bytes;
    const CallSite& cs = prog_->call_sites[f.call_site];
    uint8_t* mem = local_[lane].data();
    if (cs.ret_off >= 0 && !callee.retval_off.empty())
      std::memcpy(mem + f.caller_base + cs.ret_off, mem + frame_[lane] + callee.retval_off[0],
                  std::min(cs.ret_size, callee.retval_size[0]));
    if (callee.recursive) {
      const uint8_t* save = mem + frame_[lane] + callee.save_off;
      for (uint32_t s = 0; s < callee.nslots; ++s)
        std::memcpy(&regs_[(uint64_t{callee.slot_base} + s) * 32 + lane], save + 8 * s, 8);
      for (uint32_t p = 0; p < callee.npreds; ++p) {
        uint32_t& w = preds_[callee.pred_base + p];
        w = (w & ~(1u << lane)) | (uint32_t{save[8 * callee.nslots + p]} << lane);
      }
    }
    frame_[lane] = f.caller_base;
    bool joined = false;
    for (ThreadGroup& g : groups_)
      if (g.pc == f.return_pc && g.depth == depth && g.state == GroupState::Ready && (g.mask & exec)) {
        g.mask |= 1u << lane;
        joined = true;
        break;
      }
    if (!joined) {
      ThreadGroup g = ThreadGroup::make(f.return_pc, 1u << lane, depth, GroupState::Ready);
      g.rpc = callee_group.rpc;
      g.nrpc = std::min(callee_group.nrpc, f.nrpc);
      groups_.push_back(g);
    }
  }
}

std::string Warp::describe(const Program& prog, const LaunchState& L) const {
  std::string r;
  for (const ThreadGroup& g : groups_) {
    std::string where;
    if (g.pc < prog.code.size()) {
      const bool past = g.state == GroupState::AtBarrier || g.state == GroupState::AtMbarrier ||
                        g.state == GroupState::AtClusterBarrier ||
                        g.state == GroupState::Sleeping;  // pc already past the waiting instruction
      const ExecInstr& in = prog.code[past ? g.pc - 1 : g.pc];
      const SourceRef& s = prog.sources[in.src];
      const auto& ins = prog.module->functions[s.function].instrs[s.instr];
      std::string text = L.ptx_lines && ins.loc.line && ins.loc.line <= L.ptx_lines->size()
                             ? (*L.ptx_lines)[ins.loc.line - 1] : isa::ptx::dump_instr(*prog.module, prog.module->functions[s.function], ins);
      auto b = text.find_first_not_of(" \t");
      where = fmt::format("{}:{} `{}`", L.ptx_name, ins.loc.line, b == std::string::npos ? text : text.substr(b));
    } else {
      where = "the end of the function";
    }
    std::string state;
    switch (g.state) {
      case GroupState::Ready: state = "ready"; break;
      case GroupState::AtWarpSync: state = "waiting for the other lanes of its member mask"; break;
      case GroupState::AtBarrier: state = fmt::format("waiting at barrier {}", g.barrier); break;
      case GroupState::Sleeping: state = "sleeping"; break;
      case GroupState::AtAsyncWait:
        state = async_wait_reason.empty() ? "waiting for an asynchronous operation" : async_wait_reason;
        break;
      case GroupState::AtMbarrier:
        state = fmt::format("waiting (mbarrier.try_wait{}) on {}", g.wake_at.is_never() ? "" : ", with a time limit",
                            cta_->mbarriers().describe(g.wait_addr));
        break;
      case GroupState::AtClusterBarrier:
        state = fmt::format("waiting at barrier.cluster.wait for phase {} of the cluster barrier", g.wait_phase);
        break;
    }
    r += fmt::format("{}    warp {} lanes {}: {} at {}", r.empty() ? "" : "\n", id_, lane_list(g.mask), state, where);
  }
  if (exited_) r += fmt::format("{}    warp {} lanes {}: exited", r.empty() ? "" : "\n", id_, lane_list(exited_ & valid_));
  return r;
}

}  // namespace tcsim::sim
