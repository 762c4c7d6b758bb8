#include "sim/report/rules.h"

#include <array>

namespace tcsim::sim {
namespace {

constexpr std::array kRules = {
#define RULE(ident, id, severity, section, statement) \
  RuleInfo{Rule::ident, id, Severity::severity, section, statement},
#include "sim/report/rules.def"
#undef RULE
};

// The table is indexed by the enum: rows must stay in declaration order.
constexpr bool rows_in_order() {
  for (size_t i = 0; i < kRules.size(); ++i)
    if (static_cast<size_t>(kRules[i].rule) != i) return false;
  return true;
}
static_assert(rows_in_order());

constexpr bool ids_unique() {
  for (size_t i = 0; i < kRules.size(); ++i)
    for (size_t j = i + 1; j < kRules.size(); ++j)
      if (kRules[i].id == kRules[j].id) return false;
  return true;
}
static_assert(ids_unique(), "two rules share an id");

}  // namespace

const RuleInfo& rule_info(Rule r) { return kRules[static_cast<size_t>(r)]; }

std::span<const RuleInfo> all_rules() { return kRules; }

std::optional<Rule> rule_from_id(std::string_view id) {
  for (const RuleInfo& r : kRules)
    if (r.id == id) return r.rule;
  return std::nullopt;
}

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Tolerated: return "tolerated";
    case Severity::Undefined: return "undefined";
    case Severity::Suspect: return "suspect";
    case Severity::Advice: return "advice";
  }
  return "?";
}

}  // namespace tcsim::sim
