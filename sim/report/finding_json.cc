#include "sim/report/finding_json.h"

#include <string>

namespace tcsim::sim {
namespace {

nlohmann::ordered_json site_json(const Site& s) {
  nlohmann::ordered_json j;
  j["ptx"] = s.ptx_file;
  j["line"] = s.ptx_line;
  if (!s.cuda.empty()) j["cuda"] = s.cuda;
  j["text"] = s.text;
  return j;
}

}  // namespace

nlohmann::ordered_json findings_to_json(const std::vector<FindingGroup>& groups) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const FindingGroup& g : groups) {
    const RuleInfo& r = rule_info(g.rule);
    nlohmann::ordered_json j;
    j["rule"] = std::string(r.id);
    j["severity"] = std::string(severity_name(r.severity));
    j["section"] = std::string(r.section);
    j["statement"] = std::string(r.statement);
    j["count"] = g.count;
    j["site"] = g.site.known() ? site_json(g.site) : nlohmann::ordered_json(nullptr);
    if (g.other.known()) j["other"] = site_json(g.other);
    nlohmann::ordered_json first = nlohmann::ordered_json::array();
    for (const Finding& f : g.first) {
      nlohmann::ordered_json e;
      if (f.cta) e["cta"] = {f.cta->x, f.cta->y, f.cta->z};
      if (f.warp >= 0) e["warp"] = f.warp;
      if (f.lane >= 0) e["lane"] = f.lane;
      e["cycle"] = f.cycle;
      e["detail"] = f.detail;
      first.push_back(std::move(e));
    }
    j["first"] = std::move(first);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace tcsim::sim
