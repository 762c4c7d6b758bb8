#include "sim/report/finding.h"

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
  for (size_t i = 0; i < groups.size(); ++i) {
    const FindingGroup& g = groups[i];
    const RuleInfo& r = rule_info(g.rule);
    s += fmt::format("  [{}] {} x{} at {}: {} ({})\n", severity_name(r.severity), r.id, g.count, g.site.str(),
                     r.statement, r.section);
    if (g.other.known()) s += fmt::format("      with {}\n", g.other.str());
    if (i >= detailed_groups) continue;
    for (size_t k = 0; k < g.first.size() && k < examples_per_group; ++k) s += "      " + g.first[k].brief() + "\n";
    if (g.count > std::min(g.first.size(), examples_per_group))
      s += fmt::format("      ... and {} more at this site\n", g.count - std::min(g.first.size(), examples_per_group));
  }
  if (groups.size() > detailed_groups)
    s += fmt::format("  (occurrences of the last {} sites: see the manifest, --out DIR)\n",
                     groups.size() - detailed_groups);
  return s;
}

}  // namespace tcsim::sim
