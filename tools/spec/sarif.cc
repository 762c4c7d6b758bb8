#include "tools/spec/sarif.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "tools/spec/spec_error.h"

namespace tcsim::spec {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

std::string level_of(const std::string& severity) {
  if (severity == "undefined") return "error";
  if (severity == "suspect") return "warning";
  return "note";  // advice, tolerated
}

std::string uri_of(const std::string& dir, const std::string& file) {
  if (file.empty()) return file;
  fs::path p(file);
  if (p.is_relative() && !dir.empty()) p = fs::path(dir) / p;
  return p.lexically_normal().generic_string();
}

json location(const std::string& uri, uint64_t line, const std::string& text) {
  json region;
  region["startLine"] = line ? line : 1;
  if (!text.empty()) region["snippet"] = {{"text", text}};
  json l;
  l["physicalLocation"] = {{"artifactLocation", {{"uri", uri}}}, {"region", std::move(region)}};
  return l;
}

// "gemm.cu:120" or "gemm.cu:120 via hdr.h:30" (sim/report/finding.h Site::cuda): the first file and line.
bool parse_cuda(const std::string& s, std::string* file, uint64_t* line) {
  const std::string head = s.substr(0, s.find(' '));
  const size_t colon = head.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  uint64_t n = 0;
  auto [p, ec] = std::from_chars(head.data() + colon + 1, head.data() + head.size(), n);
  if (ec != std::errc() || p != head.data() + head.size() || n == 0) return false;
  *file = head.substr(0, colon);
  *line = n;
  return true;
}

// The PTX location of a manifest site, then its CUDA location when there is one.
void add_site(json& list, const json& site, const std::string& ptx_dir, const std::string& what) {
  if (!site.is_object()) return;
  const std::string ptx = site.value("ptx", std::string());
  if (ptx.empty()) return;
  const std::string ptx_uri = uri_of(ptx_dir, ptx);
  json l = location(ptx_uri, site.value("line", uint64_t{0}), site.value("text", std::string()));
  if (!what.empty()) l["message"] = {{"text", what}};
  list.push_back(std::move(l));
  std::string file;
  uint64_t line = 0;
  if (site.contains("cuda") && parse_cuda(site["cuda"].get<std::string>(), &file, &line)) {
    json c = location(uri_of(fs::path(ptx_uri).parent_path().generic_string(), file), line, "");
    c["message"] = {{"text", (what.empty() ? std::string("CUDA source") : what + " (CUDA source)")}};
    list.push_back(std::move(c));
  }
}

}  // namespace

json findings_to_sarif(const json& findings, const std::string& ptx_dir) {
  json rules = json::array();
  std::map<std::string, size_t> rule_index;
  json results = json::array();
  for (const json& g : findings) {
    const std::string id = g.value("rule", std::string());
    const std::string severity = g.value("severity", std::string());
    auto [it, fresh] = rule_index.try_emplace(id, rules.size());
    if (fresh) {
      json r;
      r["id"] = id;
      r["shortDescription"] = {{"text", g.value("statement", std::string())}};
      r["fullDescription"] = {{"text", fmt::format("{} ({})", g.value("statement", std::string()),
                                                   g.value("section", std::string()))}};
      r["defaultConfiguration"] = {{"level", level_of(severity)}};
      r["properties"] = {{"severity", severity}, {"section", g.value("section", std::string())}};
      rules.push_back(std::move(r));
    }
    json res;
    res["ruleId"] = id;
    res["ruleIndex"] = it->second;
    res["level"] = level_of(severity);
    std::string text = g.value("statement", std::string());
    if (g.contains("first") && !g["first"].empty()) text = g["first"][0].value("detail", text);
    const uint64_t count = g.value("count", uint64_t{1});
    if (count > 1) text += fmt::format(" ({} occurrences at this site)", count);
    res["message"] = {{"text", text}};
    json locs = json::array();
    add_site(locs, g.contains("site") ? g["site"] : json(), ptx_dir, "");
    if (!locs.empty()) res["locations"] = std::move(locs);
    json related = json::array();
    if (g.contains("other")) add_site(related, g["other"], ptx_dir, "the other access of the pair");
    for (size_t i = 0; i < related.size(); ++i) related[i]["id"] = i;
    if (!related.empty()) res["relatedLocations"] = std::move(related);
    res["properties"] = {{"count", count}, {"severity", severity}, {"first", g.value("first", json::array())}};
    results.push_back(std::move(res));
  }
  json driver;
  driver["name"] = "tcsim";
  driver["rules"] = std::move(rules);
  json run;
  run["tool"] = {{"driver", std::move(driver)}};
  run["results"] = std::move(results);
  json out;
  out["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  out["version"] = "2.1.0";
  out["runs"] = json::array({std::move(run)});
  return out;
}

void write_sarif(const std::string& path, const json& findings, const std::string& ptx_dir) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw SpecError(fmt::format("{}: cannot write the SARIF file", path));
  f << findings_to_sarif(findings, ptx_dir).dump(2) << "\n";
  if (!f) throw SpecError(fmt::format("{}: write failed", path));
}

}  // namespace tcsim::spec
