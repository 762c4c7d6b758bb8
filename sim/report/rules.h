// The rules a finding can name (sim/report/rules.def): id, severity, PTX ISA section, statement.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tcsim::sim {

enum class Severity : uint8_t { Tolerated, Undefined, Suspect, Advice };

enum class Rule : uint16_t {
#define RULE(ident, id, severity, section, statement) ident,
#include "sim/report/rules.def"
#undef RULE
};

struct RuleInfo {
  Rule rule;
  std::string_view id;         // stable kebab-case name ("tcgen05-stale-read")
  Severity severity;
  std::string_view section;    // "PTX ISA §9.7.16.6 (...)"
  std::string_view statement;  // the rule in one line
};

const RuleInfo& rule_info(Rule r);
std::span<const RuleInfo> all_rules();
std::optional<Rule> rule_from_id(std::string_view id);
std::string_view severity_name(Severity s);

}  // namespace tcsim::sim
