#include "sim/partition.h"

#include <cfenv>

#include <fmt/format.h>

#include "isa/ptx/dump.h"

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

void Partition::warn(Cycles when, const std::string& key, std::string message) {
  constexpr size_t kMaxWarnings = 100;
  if (!warned_.insert(key).second || warnings_.size() >= kMaxWarnings) return;
  warnings_.push_back(fmt::format("cycle {}: {}", when.count(), message));
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

void Partition::warn(Cycles when, std::string message) {
  const std::string key = message;
  warn(when, key, std::move(message));
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

std::string pc_location(const LaunchState& L, uint32_t pc) {
  const Program& prog = *L.prog;
  if (pc >= prog.code.size()) return "(no instruction)";
  const SourceRef& s = prog.sources[prog.code[pc].src];
  const isa::ptx::Function& f = prog.module->functions[s.function];
  const isa::ptx::Instr& ins = f.instrs[s.instr];
  std::string text = L.ptx_lines && ins.loc.line && ins.loc.line <= L.ptx_lines->size()
                         ? (*L.ptx_lines)[ins.loc.line - 1] : isa::ptx::dump_instr(*prog.module, f, ins);
  const auto b = text.find_first_not_of(" \t");
  text = b == std::string::npos ? text : text.substr(b);
  const std::string where = isa::ptx::cuda_location(*prog.module, ins.cuda);
  return fmt::format("{}:{}{} `{}`", L.ptx_name, ins.loc.line, where.empty() ? "" : fmt::format(" ({})", where), text);
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
