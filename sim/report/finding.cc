#include "sim/report/finding.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

namespace tcsim::sim {

std::string Site::str() const {
  if (!known()) return "an asynchronous engine";
  std::string s = fmt::format("{}:{}", ptx_file, ptx_line);
  if (!cuda.empty()) s += fmt::format(" ({})", cuda);
  if (!text.empty()) s += fmt::format(" `{}`", text);
  return s;
}

namespace {

std::string who(const Finding& f) {
  std::string s;
  if (f.cta) s = fmt::format("CTA ({},{},{})", f.cta->x, f.cta->y, f.cta->z);
  if (f.warp >= 0) s += fmt::format("{}warp {}", s.empty() ? "" : " ", f.warp);
  if (f.lane >= 0) s += fmt::format(" lane {}", f.lane);
  s += fmt::format("{}cycle {}", s.empty() ? "" : ", ", f.cycle);
  return s;
}

}  // namespace

std::string Finding::str() const {
  const RuleInfo& r = rule_info(rule);
  std::string s = fmt::format("[{}] {} at {}: {}: {}", severity_name(r.severity), r.id, site.str(), who(*this),
                              detail.empty() ? std::string(r.statement) : detail);
  if (other.known()) s += fmt::format(" (other access: {})", other.str());
  return s + fmt::format(" ({})", r.section);
}

std::string Finding::brief() const {
  return fmt::format("{}: {}", who(*this), detail.empty() ? std::string(rule_info(rule).statement) : detail);
}

uint64_t total_occurrences(const std::vector<FindingGroup>& groups) {
  uint64_t n = 0;
  for (const FindingGroup& g : groups) n += g.count;
  return n;
}

std::string summarize_findings(const std::vector<FindingGroup>& groups, size_t detailed_groups,
                               size_t examples_per_group) {
  if (groups.empty()) return "";
  std::set<Rule> rules;
  for (const FindingGroup& g : groups) rules.insert(g.rule);
  std::string s = fmt::format("findings: {} rule{} broken at {} site{}, {} occurrence{} (--strict makes findings errors)\n",
                              rules.size(), rules.size() == 1 ? "" : "s", groups.size(), groups.size() == 1 ? "" : "s",
                              total_occurrences(groups), total_occurrences(groups) == 1 ? "" : "s");
  // Per rule, the first kSitesPerRule sites get their own line; the rest of that rule's sites are
  // counted on one line (rules with hundreds of sites, an unrolled epilogue's loads, stay a screen).
  constexpr size_t kSitesPerRule = 4;
  struct Folded {            // one rule's sites past the fourth
    size_t sites = 0;
    uint64_t count = 0;
    uint32_t lo = 0, hi = 0;  // their PTX line range (lines known)
  };
  std::map<Rule, size_t> shown;
  std::vector<std::pair<Rule, Folded>> folded;  // in order of first fold
  size_t detailed = 0;
  for (const FindingGroup& g : groups) {
    const RuleInfo& r = rule_info(g.rule);
    if (shown[g.rule] >= kSitesPerRule) {
      auto it = std::find_if(folded.begin(), folded.end(), [&](const auto& f) { return f.first == g.rule; });
      if (it == folded.end()) it = folded.insert(folded.end(), {g.rule, Folded{}});
      Folded& f = it->second;
      ++f.sites;
      f.count += g.count;
      if (const uint32_t l = g.site.ptx_line) {
        f.lo = f.lo ? std::min(f.lo, l) : l;
        f.hi = std::max(f.hi, l);
      }
      continue;
    }
    ++shown[g.rule];
    s += fmt::format("  [{}] {} x{} at {}: {} ({})\n", severity_name(r.severity), r.id, g.count, g.site.str(),
                     r.statement, r.section);
    if (g.other.known()) s += fmt::format("      with {}\n", g.other.str());
    if (detailed++ >= detailed_groups) continue;
    for (size_t k = 0; k < g.first.size() && k < examples_per_group; ++k) s += "      " + g.first[k].brief() + "\n";
    if (g.count > std::min(g.first.size(), examples_per_group))
      s += fmt::format("      ... and {} more at this site\n", g.count - std::min(g.first.size(), examples_per_group));
  }
  for (const auto& [rule, f] : folded) {
    const RuleInfo& r = rule_info(rule);
    s += fmt::format("  [{}] {} at {} more site{} ({} occurrence{}{}): every site is in the manifest (--out DIR)\n",
                     severity_name(r.severity), r.id, f.sites, f.sites == 1 ? "" : "s", f.count,
                     f.count == 1 ? "" : "s",
                     !f.lo ? std::string()
                           : f.lo == f.hi ? fmt::format(", PTX line {}", f.lo) : fmt::format(", PTX lines {}-{}", f.lo, f.hi));
  }
  if (detailed > detailed_groups)
    s += fmt::format("  (occurrences of the last {} sites shown: see the manifest, --out DIR)\n",
                     detailed - detailed_groups);
  return s;
}

}  // namespace tcsim::sim
