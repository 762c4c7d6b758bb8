#include "sim/partition.h"

#include <cfenv>

#include <fmt/format.h>

#include "sim/cta.h"
#include "sim/warp.h"

namespace tcsim::sim {

Partition::Partition(const LaunchState& L, uint32_t index, std::vector<uint32_t> sm_ids)
    : L_(&L), index_(index) {
  for (uint32_t id : sm_ids) sms_.push_back(std::make_unique<Sm>(*this, id));
  perturb_ = L.perturb;
  rng_ = L.schedule_seed * 0x9e3779b97f4a7c15ull + index * 0xbf58476d1ce4e5b9ull + 1;
}

uint32_t Partition::jitter_draw(uint32_t max) {
  // splitmix64: a fixed, portable generator (same numbers on every machine and library).
  uint64_t z = (rng_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<uint32_t>(z % (uint64_t{max} + 1));
}

Origin Partition::origin(int lane, const Cta* cta) const {
  Origin o;
  if (executing_) {
    o.src = executing_->current()->src;
    o.cta = executing_->cta().ctaid();
    o.warp = static_cast<int>(executing_->id());
    o.lane = lane;
  } else if (cta) {
    o.cta = cta->ctaid();
  }
  return o;
}

bool Partition::has_work() const {
  for (const auto& sm : sms_)
    if (!sm->idle()) return true;
  // Asynchronous operations still in flight (a TMA store issued just before its CTA exited must
  // still land).
  return !events_.empty();
}

Cycles Partition::next_activity() const {
  Cycles t = events_.next_time();
  for (const auto& sm : sms_)
    if (!sm->idle()) t = min(t, sm->next_ready(now_ > Cycles(0) ? now_ - Cycles(1) : now_));
  return t;
}

void Partition::record_fault(Cycles when, uint32_t sm, std::string message) {
  if (!fault_ || when < fault_->when) fault_ = Fault{when, sm, std::move(message)};
}

namespace {
// The simulator's float results never depend on the host thread's floating-point state: each
// quantum runs with the default environment (round-to-nearest, no flush-to-zero / denormals-are-
// zero), restored afterwards.
class DefaultFpEnv {
 public:
  DefaultFpEnv() {
    std::fegetenv(&saved_);
    std::fesetenv(FE_DFL_ENV);
  }
  ~DefaultFpEnv() { std::fesetenv(&saved_); }

 private:
  std::fenv_t saved_;
};
}  // namespace

void Partition::run_until(Cycles end) {
  DefaultFpEnv fp_env;
  issued_ = 0;
  quantum_end_ = end;
  while (now_ < end && !fault_) {
    progress_ += events_.run_due(now_);  // an asynchronous completion is progress (sim/livelock.h)
    uint32_t n = 0;
    for (auto& sm : sms_) {
      if (sm->idle()) continue;
      try {
        n += sm->step(now_);
      } catch (const LocatedFault& f) {
        record_fault(now_, sm->id(), f.what());
        return;
      }
    }
    issued_ += n;
    if (n) {
      now_ = now_ + Cycles(1);
      continue;
    }
    Cycles next = events_.next_time();
    for (auto& sm : sms_)
      if (!sm->idle()) next = min(next, sm->next_ready(now_));
    if (next <= now_) next = now_ + Cycles(1);
    now_ = min(next, end);
  }
}

std::string Partition::describe_blocked() const {
  std::string r;
  for (const auto& sm : sms_)
    for (const auto& c : sm->ctas())
      if (!c->done()) r += c->describe_barriers(*L_->prog, *L_);
  return r;
}

std::string pc_location(const LaunchState& L, uint32_t pc) {
  const Program& prog = *L.prog;
  if (pc >= prog.code.size()) return "(no instruction)";
  return site_of(L, prog.code[pc].src).str();
}

std::string format_fault(const LaunchState& L, const Warp& w, const ExecInstr& in, int lane, Cycles now,
                         const std::string& message) {
  const Dim3 c = w.cta().ctaid();
  std::string who = lane >= 0 ? fmt::format("warp {} lane {}", w.id(), lane) : fmt::format("warp {}", w.id());
  return fmt::format("kernel {}: {}: CTA ({},{},{}) {}, cycle {}: {}", L.kernel, site_of(L, in.src).str(), c.x, c.y,
                     c.z, who, now.count(), message);
}

}  // namespace tcsim::sim
