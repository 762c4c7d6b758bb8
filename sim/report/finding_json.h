// Findings as JSON, the form the output manifest lists them in (docs/findings.md).
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/finding.h"

namespace tcsim::sim {

nlohmann::ordered_json findings_to_json(const std::vector<FindingGroup>& groups);

}  // namespace tcsim::sim
