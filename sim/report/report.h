// Recording a finding from an instruction's execute function (sim/report/rules.def names the rules):
//   report(c, Rule::TmemStaleRead, lane, [&] { return fmt::format("...", ...); });
// The detail may be a string or a callable (called only for the occurrences kept in full, so a rule
// broken in a hot loop costs a counter increment). Units without an ExecCtx use Partition::report.
#pragma once
#include <utility>

#include "sim/exec/exec.h"
#include "sim/partition.h"
#include "sim/report/rules.h"

namespace tcsim::sim {

template <class Detail>
void report(ExecCtx& c, Rule rule, int lane, Detail&& detail, uint32_t other = kNoSite, uint32_t variant = 0) {
  c.part->report(rule, c.now, lane, c.cta, std::forward<Detail>(detail), other, variant);
}

}  // namespace tcsim::sim
