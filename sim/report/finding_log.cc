#include "sim/report/finding_log.h"

#include <algorithm>

#include "isa/ptx/dump.h"
#include "sim/launch_state.h"
#include "sim/program.h"

namespace tcsim::sim {

FindingLog::Entry& FindingLog::entry(Rule rule, uint32_t src, uint32_t other, uint32_t variant, Cycles when) {
  const auto key = std::make_tuple(static_cast<uint16_t>(rule), src, other, variant);
  auto [it, fresh] = index_.try_emplace(key, entries_.size());
  if (fresh) entries_.push_back(Entry{rule, src, other, variant, 0, when, {}});
  return entries_[it->second];
}

Site site_of(const LaunchState& L, uint32_t src) {
  Site s;
  if (src == kNoSite || !L.prog || src >= L.prog->sources.size()) return s;
  const Program& prog = *L.prog;
  const SourceRef& r = prog.sources[src];
  const isa::ptx::Function& f = prog.module->functions[r.function];
  const isa::ptx::Instr& ins = f.instrs[r.instr];
  s.ptx_file = L.ptx_name;
  s.ptx_line = ins.loc.line;
  s.cuda = isa::ptx::cuda_location(*prog.module, ins.cuda);
  if (L.ptx_lines && ins.loc.line && ins.loc.line <= L.ptx_lines->size()) {
    const std::string& t = (*L.ptx_lines)[ins.loc.line - 1];
    const auto b = t.find_first_not_of(" \t");
    const auto e = t.find_last_not_of(" \t\r");
    s.text = b == std::string::npos ? "" : t.substr(b, e - b + 1);
  } else {
    s.text = isa::ptx::dump_instr(*prog.module, f, ins);
  }
  return s;
}

std::vector<FindingGroup> FindingLog::merge(const std::vector<const FindingLog*>& logs, const LaunchState& L) {
  struct Merged {
    const Entry* head;
    uint64_t count = 0;
    Cycles first_when;
    size_t first_part, first_index;
    std::vector<std::pair<size_t, const Kept*>> kept;  // (partition, occurrence)
  };
  std::map<std::tuple<uint16_t, uint32_t, uint32_t, uint32_t>, Merged> by_key;
  for (size_t p = 0; p < logs.size(); ++p)
    for (size_t i = 0; i < logs[p]->entries_.size(); ++i) {
      const Entry& e = logs[p]->entries_[i];
      const auto key = std::make_tuple(static_cast<uint16_t>(e.rule), e.src, e.other, e.variant);
      auto [it, fresh] = by_key.try_emplace(key, Merged{&e, 0, e.first_when, p, i, {}});
      Merged& m = it->second;
      m.count += e.count;
      if (!fresh && e.first_when < m.first_when) m.first_when = e.first_when, m.first_part = p, m.first_index = i;
      for (const Kept& k : e.first) m.kept.emplace_back(p, &k);
    }
  std::vector<const Merged*> order;
  for (const auto& [key, m] : by_key) order.push_back(&m);
  std::sort(order.begin(), order.end(), [](const Merged* a, const Merged* b) {
    return std::tie(a->first_when, a->first_part, a->first_index) <
           std::tie(b->first_when, b->first_part, b->first_index);
  });
  std::vector<FindingGroup> out;
  for (const Merged* m : order) {
    FindingGroup g;
    g.rule = m->head->rule;
    g.site = site_of(L, m->head->src);
    g.other = site_of(L, m->head->other);
    g.count = m->count;
    std::vector<std::pair<size_t, const Kept*>> kept = m->kept;
    std::stable_sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
      return std::tie(a.second->when, a.first) < std::tie(b.second->when, b.first);
    });
    for (size_t k = 0; k < kept.size() && k < kKept; ++k) {
      const Kept& x = *kept[k].second;
      Finding f;
      f.rule = g.rule;
      f.site = g.site;
      f.other = g.other;
      f.cta = x.who.cta;
      f.warp = x.who.warp;
      f.lane = x.who.lane;
      f.cycle = x.when.count();
      f.detail = x.detail;
      g.first.push_back(std::move(f));
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace tcsim::sim
