// Test helpers for reading a launch's findings: the groups of one rule, all finding lines (for
// INFO), and the 1-based line of a PTX snippet (to compare with a finding's site).
#pragma once
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tests/sim/harness.h"

namespace tcsim::test {

// The finding groups of `r` for rule `id` (e.g. "global-data-race").
inline std::vector<const sim::FindingGroup*> groups(const sim::LaunchResult& r, const std::string& id) {
  std::vector<const sim::FindingGroup*> v;
  for (const auto& g : r.findings)
    if (std::string(sim::rule_info(g.rule).id) == id) v.push_back(&g);
  return v;
}

inline std::string all_lines(const sim::LaunchResult& r) {
  return fmt::format("{}", fmt::join(r.finding_lines(), "\n"));
}

// The line of `ptx` holding the first occurrence of `needle`.
inline int line_of(const std::string& ptx, const std::string& needle) {
  const size_t at = ptx.find(needle);
  REQUIRE(at != std::string::npos);
  int n = 1;
  for (size_t i = 0; i < at; ++i) n += ptx[i] == '\n';
  return n;
}

}  // namespace tcsim::test
