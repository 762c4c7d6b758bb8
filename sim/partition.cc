#include "sim/partition.h"

#include <cfenv>

#include <fmt/format.h>

#include "isa/ptx/dump.h"

namespace tcsim::sim {

Partition::Partition(const LaunchState& L, uint32_t index, std::vector<uint32_t> sm_ids)
    : L_(&L), index_(index) {
  for (uint32_t id : sm_ids) sms_.push_back(std::make_unique<Sm>(*this, id));
}

bool Partition::has_work() const {
  for (const auto& sm : sms_)
    if (!sm->idle()) return true;
  return false;
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

void Partition::warn(Cycles when, std::string message) {
  if (warnings_.size() < kMaxWarnings) warnings_.push_back({when, std::move(message)});
  else ++warnings_dropped_;
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
  while (now_ < end && !fault_) {
    events_.run_due(now_);
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

std::string format_fault(const LaunchState& L, const Warp& w, const ExecInstr& in, int lane, Cycles now,
                         const std::string& message) {
  const Program& prog = *L.prog;
  const SourceRef& s = prog.sources[in.src];
  const isa::ptx::Function& f = prog.module->functions[s.function];
  const isa::ptx::Instr& ins = f.instrs[s.instr];
  std::string text;
  if (L.ptx_lines && ins.loc.line && ins.loc.line <= L.ptx_lines->size()) {
    text = (*L.ptx_lines)[ins.loc.line - 1];
    auto b = text.find_first_not_of(" \t");
    text = b == std::string::npos ? text : text.substr(b);
  } else {
    text = isa::ptx::dump_instr(*prog.module, f, ins);
  }
  const std::string where = isa::ptx::cuda_location(*prog.module, ins.cuda);
  const std::string cuda = where.empty() ? "" : fmt::format(" ({})", where);
  const Dim3 c = w.cta().ctaid();
  std::string who = lane >= 0 ? fmt::format("warp {} lane {}", w.id(), lane) : fmt::format("warp {}", w.id());
  return fmt::format("kernel {}: {}:{}{} `{}`: CTA ({},{},{}) {}, cycle {}: {}", L.kernel, L.ptx_name,
                     ins.loc.line, cuda, text, c.x, c.y, c.z, who, now.count(), message);
}

}  // namespace tcsim::sim
