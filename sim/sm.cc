#include "sim/sm.h"

#include "sim/partition.h"
#include "sim/timing.h"
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
    auto ok = [&](Warp* w) { return !w->done() && w->ready_at() <= now && w->has_ready_group(now); };
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
    uint8_t timing;
    part_->set_executing(w);  // findings raised by this instruction name it (sim/report)
    try {
      timing = w->step(ctx);
    } catch (const SimFault& f) {
      part_->set_executing(nullptr);
      throw LocatedFault(format_fault(L, *w, *w->current(), f.lane, now, f.what()));
    }
    part_->set_executing(nullptr);
    // Perturbed: latencies may be a few cycles longer (never shorter: still legal timing).
    w->set_ready_at(max(w->ready_at(), now + functional_latency(timing) + Cycles(part_->jitter(3))));
    ++issued;
  }
  return issued;
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
    for (auto& w : c.warps()) *thread_instructions += w->thread_instructions();
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
