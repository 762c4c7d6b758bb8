// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format, docs/checker.md) from the findings
// of a run as listed in the manifest (sim/report/finding_json.h): one result per finding group,
// ruleId = the rule id of sim/report/rules.def, level from its severity (undefined: error, suspect:
// warning, advice and tolerated: note), locations = the PTX file and line, then the CUDA file and
// line where the PTX carries .loc; the other access of a pair is a related location.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace tcsim::spec {

// `findings`: the manifest's "findings" array. `ptx_dir`: the directory the PTX file names are
// relative to (the spec's directory); artifact URIs are that directory joined with the name.
nlohmann::ordered_json findings_to_sarif(const nlohmann::ordered_json& findings, const std::string& ptx_dir);

// Writes findings_to_sarif(...) to `path` (throws SpecError naming the file on failure).
void write_sarif(const std::string& path, const nlohmann::ordered_json& findings, const std::string& ptx_dir);

}  // namespace tcsim::spec
