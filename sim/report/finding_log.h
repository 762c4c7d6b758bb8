// The simulator's side of the findings record: each partition counts findings by (rule, site) as
// they happen and keeps the first few in full; at the end of a launch the logs of all partitions
// are merged (deterministically: by first cycle, then partition) into LaunchResult::findings.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "sim/cycles.h"
#include "sim/dim3.h"
#include "sim/report/finding.h"

namespace tcsim::sim {

struct LaunchState;

inline constexpr uint32_t kNoSite = 0xffffffffu;  // no instruction (an engine's own effect)

// Who broke the rule: the instruction (Program::sources index) and the thread.
struct Origin {
  uint32_t src = kNoSite;
  std::optional<Dim3> cta;
  int warp = -1;
  int lane = -1;
};

class FindingLog {
 public:
  static constexpr size_t kKept = 3;  // occurrences kept in full per (rule, site); all are counted

  // Counts one occurrence of `rule` by `who`; `other` is the other instruction of a pair (kNoSite if
  // none) and `variant` separates groups at one site (e.g. operand A and B of one MMA). `detail` is
  // a string or a callable returning one, called only for occurrences kept in full.
  template <class Detail>
  void add(Rule rule, Cycles when, const Origin& who, uint32_t other, uint32_t variant, Detail&& detail) {
    Entry& e = entry(rule, who.src, other, variant, when);
    ++e.count;
    if (e.first.size() >= kKept) return;
    if constexpr (std::is_invocable_v<Detail>) e.first.push_back({when, who, std::string(detail())});
    else e.first.push_back({when, who, std::string(std::forward<Detail>(detail))});
  }

  bool empty() const { return entries_.empty(); }

  // The merged groups of several logs (given in partition order), earliest first.
  static std::vector<FindingGroup> merge(const std::vector<const FindingLog*>& logs, const LaunchState& L);

 private:
  struct Kept {
    Cycles when;
    Origin who;
    std::string detail;
  };
  struct Entry {
    Rule rule;
    uint32_t src, other, variant;
    uint64_t count = 0;
    Cycles first_when;
    std::vector<Kept> first;
  };
  Entry& entry(Rule rule, uint32_t src, uint32_t other, uint32_t variant, Cycles when);

  std::vector<Entry> entries_;
  std::map<std::tuple<uint16_t, uint32_t, uint32_t, uint32_t>, size_t> index_;
};

// The site of an instruction (Program::sources index), resolved against the launch's program and
// PTX text; kNoSite gives an empty Site.
Site site_of(const LaunchState& L, uint32_t src);

}  // namespace tcsim::sim
