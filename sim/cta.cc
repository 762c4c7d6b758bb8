#include "sim/cta.h"

#include <fmt/format.h>

#include "sim/checker/race.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/timing/model.h"
#include "sim/units/tensor_core.h"

namespace tcsim::sim {

Cta::Cta(Sm& sm, const LaunchState& L, Dim3 ctaid, uint32_t linear_id, Cycles start)
    : sm_(&sm), L_(&L), ctaid_(ctaid), linear_id_(linear_id) {
  (void)start;
  const Dim3 cl = L.cluster;
  cluster_id_ = {ctaid.x / cl.x, ctaid.y / cl.y, ctaid.z / cl.z};
  cluster_ctaid_ = {ctaid.x % cl.x, ctaid.y % cl.y, ctaid.z % cl.z};
  cluster_rank_ = cluster_ctaid_.x + cl.x * (cluster_ctaid_.y + cl.y * cluster_ctaid_.z);
  num_threads_ = static_cast<uint32_t>(L.cfg.block.count());
  // The system reserve, the static variables, the dynamic array (models/machine/shared_memory.h),
  // up to the limit the hardware enforces (reserve + %total_smem_size).
  shared_.assign(L.smem.limit(), 0);
  const uint32_t nwarps = (num_threads_ + 31) / 32;
  for (uint32_t w = 0; w < nwarps; ++w) {
    const uint32_t n = std::min<uint32_t>(32, num_threads_ - w * 32);
    warps_.push_back(std::make_unique<Warp>(*this, w, n == 32 ? 0xffffffffu : (1u << n) - 1, L));
  }
  live_warps_ = nwarps;
}

Cta::~Cta() {
  if (cluster_) cluster_->detach(cluster_rank_);
}

void Cta::attach_cluster(std::shared_ptr<Cluster> c) {
  cluster_ = std::move(c);
  cluster_->attach(cluster_rank_, this);
  exited_seen_.assign(warps_.size(), 0);
}

std::string Cta::name() const { return fmt::format("CTA ({},{},{})", ctaid_.x, ctaid_.y, ctaid_.z); }

uint32_t Cta::warps_not_exited() const {
  uint32_t n = 0;
  for (const auto& w : warps_) n += !w->done();
  return n;
}

void Cta::arrive(Warp& w, int b, uint32_t lanes, uint32_t expected, Cycles now) {
  BarrierState& bs = bars_[b];
  if (bs.in_use && bs.expected_threads != expected) {
    throw SimFault(-1, fmt::format("barrier {}: threads disagree on the thread count ({} vs {}); "
                                   "every thread must pass the same count (PTX ISA §9.7.13.1)",
                                   b, expected == 0 ? std::string("all") : std::to_string(expected),
                                   bs.expected_threads == 0 ? std::string("all") : std::to_string(bs.expected_threads)));
  }
  if (expected != 0 && (expected % 32 != 0 || expected > num_threads_ + 31))
    throw SimFault(-1, fmt::format("barrier {}: thread count {} must be a multiple of 32 and at most "
                                   "the CTA's {} threads (PTX ISA §9.7.13.1)", b, expected, num_threads_));
  bs.in_use = true;
  bs.expected_threads = expected;
  w.bar_arrived(b) |= lanes;
  check_warp_arrival(w, b, now);
}

void Cta::check_warp_arrival(Warp& w, int b, Cycles now) {
  if (w.bar_counted(b) || w.bar_arrived(b) == 0) return;
  // A warp arrives once every non-exited thread of it has executed the barrier.
  if (((w.bar_arrived(b) | w.exited()) & w.valid()) != w.valid()) return;
  w.bar_counted(b) = true;
  ++bars_[b].arrived_warps;
  race::barrier_arrived(*this, w, b);
  // The barrier unit takes bar.arrive_interval per warp arrival (kernels/ubench bar_sync_W:
  // 14 + 2 cycles per warp on the H200; sim/timing).
  const models::timing::Profile& P = L_->timing->p;
  bar_unit_free_ = max(bar_unit_free_, now) + Cycles(static_cast<uint64_t>(P.bar_arrive_interval));
  check_complete(b, now);
}

void Cta::check_complete(int b, Cycles now) {
  BarrierState& bs = bars_[b];
  if (!bs.in_use) return;
  const uint32_t needed = bs.expected_threads ? (bs.expected_threads + 31) / 32 : warps_not_exited();
  if (bs.arrived_warps < needed) return;
  if (bs.red_op != BarRedOp::None) deliver_reduction(bs);
  bs = BarrierState{};
  if (L_->check) {
    // The warps waiting at the barrier acquire the join of every arrival (sim/checker/race.h).
    std::vector<uint32_t> waiting;
    for (auto& w : warps_)
      for (const ThreadGroup& g : w->groups())
        if (g.state == GroupState::AtBarrier && g.barrier == b) {
          waiting.push_back(w->id());
          break;
        }
    race::barrier_completed(*this, b, waiting);
  }
  const Cycles release = max(now, bar_unit_free_) + Cycles(static_cast<uint64_t>(L_->timing->p.bar_release_latency));
  for (auto& w : warps_) w->release_barrier(b, release);
}

void Cta::add_reduction(Warp& w, int b, BarRedOp op, uint32_t lanes, uint32_t true_lanes, Ref dst, bool pred) {
  BarrierState& bs = bars_[b];
  if (bs.in_use && bs.red_op == BarRedOp::None)
    throw SimFault(-1, fmt::format("bar.red on barrier {}, which threads are using with bar.sync/bar.arrive: the PTX "
                                   "ISA calls mixing them on an active barrier unpredictable (§9.7.13.1)", b));
  if (bs.red_op != BarRedOp::None && bs.red_op != op)
    throw SimFault(-1, fmt::format("bar.red on barrier {}: threads use different reduction operators (.popc, .and, "
                                   ".or) for the same barrier instance", b));
  bs.red_op = op;
  bs.red_true += static_cast<uint32_t>(__builtin_popcount(true_lanes & lanes));
  bs.red_total += static_cast<uint32_t>(__builtin_popcount(lanes));
  bs.red_dsts.push_back({&w, lanes, dst, pred});
}

void Cta::deliver_reduction(const BarrierState& bs) {
  const bool all = bs.red_true == bs.red_total, any = bs.red_true != 0;
  for (const BarrierState::RedDst& d : bs.red_dsts) {
    if (d.pred) {
      const bool v = bs.red_op == BarRedOp::And ? all : any;
      uint32_t& p = d.warp->preds()[d.dst];
      p = (p & ~d.lanes) | (v ? d.lanes : 0);
    } else {
      uint64_t* r = d.warp->regs() + uint64_t{d.dst} * 32;
      for (uint32_t m = d.lanes; m; m &= m - 1) r[__builtin_ctz(m)] = bs.red_true;
    }
  }
}

void Cta::on_exit(Warp& w, Cycles now) {
  // Exited threads no longer count for barrier.cluster (PTX ISA §9.7.13.3: all non-exited threads).
  if (cluster_) {
    const uint32_t fresh = w.exited() & w.valid() & ~exited_seen_[w.id()];
    exited_seen_[w.id()] |= fresh;
    if (fresh) cluster_->on_lanes_exit(cluster_rank_, w, fresh, now);
  }
  for (int b = 0; b < 16; ++b) {
    if (!bars_[b].in_use) continue;
    check_warp_arrival(w, b, now);
    if (w.done()) check_complete(b, now);  // one fewer warp for barriers without a count
  }
  if (w.done()) {
    --live_warps_;
    if (live_warps_ == 0) {
      finished_ = now;
      // Tensor Memory still allocated at exit: a finding; the columns are freed (PTX ISA §9.7.16.7.1).
      if (TensorCore* tc = sm_->tensor_core_if_used()) {
        const std::string err = tc->on_cta_exit(*this);
        if (!err.empty()) sm_->partition().report(Rule::TmemLeakedAtExit, now, -1, this, err);
      }
      mbarriers_.on_cta_exit(now);
      // Peers should be done with this CTA's shared memory (DSMEM): an unordered access is a finding.
      if (cluster_) cluster_->on_cta_exit(cluster_rank_, now, *L_, sm_->partition());
    }
  }
}

std::vector<std::string> Cta::barrier_lines() const {
  std::vector<std::string> r;
  for (int b = 0; b < 16; ++b) {
    const BarrierState& bs = bars_[b];
    if (!bs.in_use) continue;
    const uint32_t needed = bs.expected_threads ? (bs.expected_threads + 31) / 32 : warps_not_exited();
    // Warps that could still arrive: those not counted yet that have not fully exited.
    uint32_t could = bs.arrived_warps;
    for (const auto& w : warps_) could += !w->done() && !w->bar_counted(b);
    std::string never;
    if (could < needed)
      never = fmt::format("; can never complete: only {} warp(s) arrived or alive, the other threads of the CTA have "
                          "exited, and an exited thread does not count toward a barrier's thread count (PTX ISA §9.7.12 "
                          "exit releases only barriers for all threads; the H200 hangs here: docs/barriers_and_exit.md)",
                          could);
    r.push_back(fmt::format("barrier {}: {} of {} warps arrived ({}){}", b, bs.arrived_warps, needed,
                            bs.expected_threads ? fmt::format("thread count {}", bs.expected_threads)
                                                : std::string("all non-exited threads of the CTA"),
                            never));
  }
  // The cluster barrier, once per cluster (in its lowest-ranked resident CTA).
  if (cluster_ && cluster_->size() > 1) {
    uint32_t lowest = cluster_->size();
    for (uint32_t k = cluster_->size(); k-- > 0;)
      if (cluster_->cta(k) && !cluster_->cta(k)->done()) lowest = k;
    if (lowest == cluster_rank_ && !cluster_->describe_barrier().empty()) r.push_back(cluster_->describe_barrier());
  }
  return r;
}

std::string Cta::describe_barriers(const Program& prog, const LaunchState& L) const {
  std::string r;
  for (const std::string& line : barrier_lines())
    r += line.starts_with("barrier.cluster") ? fmt::format("\n  {}", line) : fmt::format("\n  {} {}", name(), line);
  bool header = false;
  for (const auto& w : warps_) {
    if (w->done()) continue;
    if (!header) r += fmt::format("\n  {}:", name());
    header = true;
    r += fmt::format("\n{}", w->describe(prog, L));
  }
  return r;
}

}  // namespace tcsim::sim
