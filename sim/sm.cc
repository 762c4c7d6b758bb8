#include "sim/sm.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/partition.h"
#include "sim/timing/model.h"
#include "sim/units/tensor_core.h"
#include "sim/units/tma_engine.h"

namespace tcsim::sim {

Sm::Sm(Partition& part, uint32_t id) : part_(&part), id_(id) {}
Sm::~Sm() = default;

tma::TmaEngine& Sm::tma() {
  if (!tma_) tma_ = std::make_unique<tma::TmaEngine>(*this);
  return *tma_;
}

TensorCore& Sm::tensor_core() {
  if (!tc_) tc_ = std::make_unique<TensorCore>(*this);
  return *tc_;
}

bool Sm::can_fit(uint32_t threads, uint32_t smem) const {
  const MachineConfig& mc = *part_->launch().machine;
  const uint32_t warps_per_cta = (threads + 31) / 32;
  uint32_t warps_used = 0;
  for (const auto& c : ctas_) warps_used += static_cast<uint32_t>(c->warps().size());
  const uint64_t rf_per_warp = uint64_t{part_->launch().prog->num_slots} * 32 * 8;
  const bool rf_ok = ctas_.empty() || (uint64_t{warps_used} + warps_per_cta) * rf_per_warp <= kMaxRegisterBytesPerSm;
  return ctas_.size() < mc.max_ctas_per_sm && threads_used_ + threads <= mc.max_threads_per_sm &&
         warps_used + warps_per_cta <= mc.max_warps_per_sm && smem_used_ + smem <= mc.smem_per_sm && rf_ok;
}

Cta& Sm::launch(const LaunchState& L, Dim3 ctaid, uint32_t linear_id, Cycles now) {
  if (!tsm_.l1.enabled()) tsm_.l1.init(static_cast<uint64_t>(L.timing->p.l1_bytes), 128, 4);
  tsm_.first_cycle = std::min(tsm_.first_cycle, now.count());
  ctas_.push_back(std::make_unique<Cta>(*this, L, ctaid, linear_id, now));
  Cta& c = *ctas_.back();
  threads_used_ += c.num_threads();
  smem_used_ += c.smem_bytes();
  for (auto& w : c.warps()) {
    w->set_ready_at(now);
    subs_[w->id() % 4].warps.push_back(w.get());
  }
  return c;
}

uint32_t Sm::step(Cycles now) {
  uint32_t issued = 0;
  const LaunchState& L = part_->launch();
  for (Sub& s : subs_) {
    const size_t n = s.warps.size();
    if (n == 0) continue;
    auto ok = [&](Warp* w) {
      return !w->done() && w->ready_at() <= now && w->has_ready_group(now) && timing_ready(s, w, now);
    };
    Warp* w = nullptr;
    if (part_->perturbed()) {
      // Schedule perturbation (DeviceOptions::schedule = Random): any ready warp may issue, as on
      // hardware, where the issue order between ready warps is not architectural.
      Warp* ready[64];
      uint32_t nr = 0;
      for (size_t k = 0; k < n && nr < 64; ++k)
        if (ok(s.warps[k])) ready[nr++] = s.warps[k];
      if (nr) w = ready[part_->jitter(nr - 1)];
    } else if (s.greedy < n && s.streak < kGreedyLimit && ok(s.warps[s.greedy])) {
      w = s.warps[s.greedy];
      ++s.streak;
    } else {
      const size_t skip = s.streak >= kGreedyLimit ? s.greedy : n;  // rotate away from a long streak
      for (int pass = 0; pass < 2 && !w; ++pass)
        for (size_t k = 0; k < n; ++k)
          if ((pass == 1 || k != skip) && ok(s.warps[k])) {
            w = s.warps[k];
            s.greedy = k;
            s.streak = 1;
            break;
          }
    }
    if (!w) continue;
    ExecCtx ctx;
    ctx.prog = L.prog;
    ctx.launch = &L;
    ctx.cta = &w->cta();
    ctx.sm = this;
    ctx.part = part_;
    ctx.imm = L.prog->imm_pool.data();
    ctx.now = now;
    if (L.prog->timing[L.prog->pc_of(*w->peek())].flags & timing::kFlagReleaseGpu)
      ctx.release = static_cast<uint32_t>(L.timing->p.fence_gpu_cycles);
    uint8_t timing;
    part_->set_executing(w);  // findings raised by this instruction name it (sim/report)
    try {
      timing = w->step(ctx);
    } catch (const SimFault& f) {
      part_->set_executing(nullptr);
      throw LocatedFault(format_fault(L, *w, *w->current(), f.lane, now, f.what()));
    }
    part_->set_executing(nullptr);
    (void)timing;
    timing_issued(s, w, ctx, now);
    ++issued;
  }
  return issued;
}

namespace {

timing::Stall stall_of(uint8_t producer) {
  switch (static_cast<timing::Pipe>(producer)) {
    case timing::Pipe::Mem: case timing::Pipe::Atomic: return timing::Stall::Memory;
    case timing::Pipe::TmemLd: return timing::Stall::TmemLoad;
    default: return timing::Stall::Dependency;
  }
}

// Issue runs shorter than this gap apart are one span in the trace.
constexpr uint64_t kTraceGap = 8;

}  // namespace

bool Sm::timing_ready(Sub& s, Warp* w, Cycles now) {
  const ExecInstr* in = w->peek();
  if (!in) return false;
  const Program& prog = *part_->launch().prog;
  const timing::InstrTiming& t = prog.timing[prog.pc_of(*in)];
  timing::WarpTiming& tm = w->tm();
  uint64_t need = 0;
  timing::Stall why = timing::Stall::Dependency;
  const Ref* d = prog.timing_deps.data() + t.dep_off;
  // Sources a load produces that the instruction may defer (sim/timing/load_hoist.h).
  const uint32_t defer_from = t.nsrc - (t.defer & timing::kDeferMask);
  for (uint32_t i = 0, n = uint32_t{t.nsrc} + t.ndst; i < n; ++i) {
    if (i >= defer_from && i < t.nsrc && tm.producer[d[i]] == static_cast<uint8_t>(timing::Pipe::Mem)) continue;
    const uint64_t r = tm.ready[d[i]];
    if (r > need) {
      need = r;
      why = stall_of(tm.producer[d[i]]);
    }
  }
  if ((t.defer & timing::kDrain) && tm.deferred_done > need) {
    need = tm.deferred_done;
    why = timing::Stall::Memory;
  }
  if ((t.flags & timing::kFlagWaitLd) && tm.tmem_done > need) {
    need = tm.tmem_done;
    why = timing::Stall::TmemLoad;
  }
  const uint64_t pf = timing::from_q(s.pipe_free_q[static_cast<int>(t.pipe)]).count();
  if (pf > need) {
    need = pf;
    why = timing::Stall::Pipe;
  }
  // Back-pressure (sim/timing/unit_queue.h): an operation for a unit whose queue is full issues
  // when the oldest one there completes.
  if (t.queue != timing::QueueKind::None) {
    const bool tc = t.queue == timing::QueueKind::TensorCore;
    const timing::Model& M = *part_->launch().timing;
    timing::UnitQueue& q = tc ? tsm_.tc_queue : tsm_.tma_queue;
    const uint64_t depth = static_cast<uint64_t>(tc ? M.p.tc_queue_depth : M.p.tma_queue_depth);
    const uint64_t free = q.free_at(now.count(), depth);
    if (free > need) {
      need = free;
      why = tc ? timing::Stall::TensorQueue : timing::Stall::TmaQueue;
    }
  }
  if (need <= now.count()) return true;
  w->set_ready_at(Cycles(need));
  tm.reason = why;
  return false;
}

void Sm::timing_issued(Sub& s, Warp* w, const ExecCtx& ctx, Cycles now_c) {
  using timing::Pipe;
  const LaunchState& L = part_->launch();
  const Program& prog = *L.prog;
  const timing::Model& M = *L.timing;
  const uint32_t pc = prog.pc_of(*w->current());
  const timing::InstrTiming& t = prog.timing[pc];
  timing::WarpTiming& tm = w->tm();
  const uint64_t now = now_c.count();
  const int pi = static_cast<int>(t.pipe);
  const timing::PipeCost& cost = M.pipe[pi];
  uint64_t lat = ctx.latency ? ctx.latency : cost.latency;
  if (t.flags & timing::kFlagRegDivisor) lat += M.idiv_divisor_extra(tm.ready[prog.timing_deps[t.dep_off]], now);
  uint64_t interval = cost.interval_q;
  if (t.pipe == Pipe::Mma) {
    interval = cost.interval_q * t.units;
    part_->timing().flops += t.flops;
    tsm_.tensor_busy_q += interval / static_cast<uint64_t>(M.p.sm_schedulers);
  } else if (t.pipe == Pipe::TmemLd) {
    interval = timing::to_q(t.units / M.p.tc_ld_cols_per_clk);
    lat = cost.latency + static_cast<uint64_t>(t.units / M.p.tc_ld_cols_per_clk);
    tm.tmem_done = std::max(tm.tmem_done, now + lat);
  }
  // Deferred sources (sim/timing/load_hoist.h): a store's data is in when `data` is; a register-only
  // instruction's results are ready `lat` after its deferred sources, and count as the load's.
  uint64_t data = now;
  const Ref* sr = prog.timing_deps.data() + t.dep_off;
  for (uint32_t i = t.nsrc - (t.defer & timing::kDeferMask); i < t.nsrc; ++i)
    if (tm.producer[sr[i]] == static_cast<uint8_t>(Pipe::Mem)) data = std::max(data, tm.ready[sr[i]]);
  if (t.ndst == 0) tm.deferred_done = std::max(tm.deferred_done, data);
  const Ref* d = prog.timing_deps.data() + t.dep_off + t.nsrc;
  for (uint32_t i = 0; i < t.ndst; ++i) {
    tm.ready[d[i]] = data + lat;
    tm.producer[d[i]] = static_cast<uint8_t>(data > now ? Pipe::Mem : static_cast<Pipe>(pi));
  }
  s.pipe_free_q[pi] = std::max(s.pipe_free_q[pi], now * timing::kQ) + interval;
  // The warp's next issue: the next cycle, or later after a fence / allocation / taken branch.
  uint64_t next = now + 1;
  if (t.pipe == Pipe::Fence || t.pipe == Pipe::FenceGpu || t.pipe == Pipe::FenceProxy || t.pipe == Pipe::TmemAlloc)
    next = now + lat;
  if (ctx.busy) next = std::max(next, now + ctx.busy);
  if (ctx.release) next = std::max(next, now + ctx.release);
  // A taken branch, call or return: the warp's next instruction issues sm.branch_cycles later
  // (kernels/ubench branch,loop: the target is fetched after the branch resolves).
  const bool taken = (ctx.flow == Flow::Branch && ctx.target != pc + 1) || ctx.flow == Flow::PerLane ||
                     ctx.flow == Flow::Call || ctx.flow == Flow::Ret;
  // A call or return costs sm.call_cycles instead: ptxas saves and restores the callee's registers
  // through the stack around it (kernels/ubench call,call_ret: CALL.REL, STL/LDL, RET.REL).
  const bool call = ctx.flow == Flow::Call || ctx.flow == Flow::Ret;
  const double redirect = call ? M.p.sm_call_cycles : M.p.sm_branch_cycles;
  if (taken && ctx.mask && redirect >= 1) next += static_cast<uint64_t>(redirect) - 1;
  // Perturbed: latencies may be a few cycles longer (never shorter: still legal timing).
  w->set_ready_at(max(w->ready_at(), Cycles(next + part_->jitter(3))));
  tm.role_flags |= t.flags & (timing::kFlagMmaRole | timing::kFlagTmaRole | timing::kFlagEpilogue);
  ++tsm_.issue_slots;
  // Where the cycles since the last issue went.
  timing::PartitionTiming& P = part_->timing();
  if (tm.issued_any) {
    const uint64_t gap = now - tm.last_issue - 1;
    tm.cycles[static_cast<int>(tm.reason)] += gap;
    if (tm.reason == timing::Stall::Mbarrier && gap) tm.mbar_cycles[tm.wait_addr] += gap;
    if (P.trace && gap >= kTraceGap) {
      const uint32_t track = timing::kTrackWarp + (w->cta().linear_id() % 1024) * 64 + w->id();
      P.add_trace({tm.run_start, tm.last_issue + 1 - tm.run_start, id_, track, 'X', "issue", ""});
      std::string name = timing::stall_name(tm.reason);
      if (tm.reason == timing::Stall::Mbarrier) name = fmt::format("wait mbarrier 0x{:x}", tm.wait_addr);
      P.add_trace({tm.last_issue + 1, gap, id_, track, 'X', std::move(name), ""});
      tm.run_start = now;
    }
  } else {
    tm.issued_any = true;
    tm.run_start = now;
  }
  ++tm.cycles[static_cast<int>(timing::Stall::Issue)];
  ++tm.issued;
  tm.last_issue = now;
  tm.reason = timing::Stall::Pipe;
  switch (ctx.flow) {
    case Flow::WaitMbarrier: tm.reason = timing::Stall::Mbarrier; tm.wait_addr = ctx.wait_addr; break;
    case Flow::WaitBarrier: tm.reason = timing::Stall::Barrier; break;
    case Flow::WaitClusterBarrier: tm.reason = timing::Stall::ClusterBarrier; break;
    case Flow::WaitAsync: tm.reason = timing::Stall::AsyncWait; break;
    case Flow::Sleep: tm.reason = timing::Stall::Sleep; break;
    default:
      if (t.pipe == Pipe::Fence || t.pipe == Pipe::FenceGpu || t.pipe == Pipe::FenceProxy) tm.reason = timing::Stall::Fence;
      if (t.pipe == Pipe::TmemAlloc) tm.reason = timing::Stall::AsyncWait;
      break;
  }
}

void Sm::trace_warp_end(Warp* w) {
  timing::WarpTiming& tm = w->tm();
  timing::PartitionTiming& P = part_->timing();
  if (P.trace && tm.issued_any) {
    const uint32_t track = timing::kTrackWarp + (w->cta().linear_id() % 1024) * 64 + w->id();
    P.add_trace({tm.run_start, tm.last_issue + 1 - tm.run_start, id_, track, 'X', "issue", ""});
  }
  timing::PartitionTiming::RoleAgg& r = P.roles[timing::role_of(tm.role_flags)];
  ++r.warps;
  r.issued += tm.issued;
  for (int i = 0; i < timing::kNumStalls; ++i) r.cycles[i] += tm.cycles[i];
  for (const auto& [a, c] : tm.mbar_cycles) r.mbar[a] += c;
}

Cycles Sm::next_ready(Cycles now) const {
  Cycles t = Cycles::never();
  for (const Sub& s : subs_)
    for (Warp* w : s.warps) {
      if (w->done()) continue;
      bool ready = false;
      for (const ThreadGroup& g : w->groups()) ready = ready || g.state == GroupState::Ready;
      if (ready) t = min(t, max(w->ready_at(), now + Cycles(1)));
      t = min(t, max(w->next_wake(), now + Cycles(1)));
    }
  return t;
}

void Sm::retire(std::vector<Cycles>& finished, uint64_t* thread_instructions) {
  for (size_t i = 0; i < ctas_.size();) {
    Cta& c = *ctas_[i];
    if (!c.done()) {
      ++i;
      continue;
    }
    finished.push_back(c.finished_at());
    tsm_.last_cycle = std::max(tsm_.last_cycle, c.finished_at().count());
    for (auto& w : c.warps()) {
      *thread_instructions += w->thread_instructions();
      trace_warp_end(w.get());
    }
    threads_used_ -= c.num_threads();
    smem_used_ -= c.smem_bytes();
    for (Sub& s : subs_) {
      std::erase_if(s.warps, [&](Warp* w) { return &w->cta() == &c; });
      s.greedy = 0;
    }
    if (c.cluster().size() > 1 && c.cluster().any_running()) {
      c.cluster().detach(c.cluster_rank(), &c);
      retired_.push_back(std::move(ctas_[i]));
    }
    ctas_.erase(ctas_.begin() + static_cast<long>(i));
  }
  std::erase_if(retired_, [](const std::unique_ptr<Cta>& c) { return !c->cluster().any_running(); });
}

}  // namespace tcsim::sim
