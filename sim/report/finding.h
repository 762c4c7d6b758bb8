// Findings as data: what a launch reports about rules of the PTX ISA its kernel broke while it ran
// (sim/report/rules.def), grouped by (rule, site) with a count and the first few in full. Returned in
// LaunchResult::findings, listed in the output manifest, summarised by `tcsim run`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/dim3.h"
#include "sim/report/rules.h"

namespace tcsim::sim {

// A place in the kernel's program: the PTX instruction (file, line, text as written) and, where the
// PTX carries `.loc`, the CUDA source line. Empty for effects of an asynchronous engine that no
// single instruction caused.
struct Site {
  std::string ptx_file;
  uint32_t ptx_line = 0;
  std::string cuda;  // "gemm.cu:120" (and " via hdr.h:30" for inlined code), or ""
  std::string text;  // the PTX instruction
  bool known() const { return ptx_line != 0 || !text.empty(); }
  // "gemm.ptx:812 (gemm.cu:201) `tcgen05.ld.sync.aligned...`" (the one location format of tcsim).
  std::string str() const;
  bool operator==(const Site&) const = default;
};

struct Finding {
  Rule rule{};
  Site site;                // the instruction that broke the rule
  Site other;               // the other access of a pair (a race), where there is one
  std::optional<Dim3> cta;  // the CTA (grid coordinates), where one is concerned
  int warp = -1;            // warp index in the CTA, or -1
  int lane = -1;            // lane, or -1 (the whole warp / not a thread's action)
  uint64_t cycle = 0;
  std::string detail;       // what happened, with values; the rule's own text is in rule_info()
  // One line: "[undefined] tcgen05-stale-read at gemm.ptx:812 (...) `...`: CTA (0,0,0) warp 4 lane 0,
  // cycle 4411: <detail> (PTX ISA §...)".
  std::string str() const;
  // "CTA (0,0,0) warp 4 lane 0, cycle 4411: <detail>" (the site and rule are the group's).
  std::string brief() const;
};

struct FindingGroup {
  Rule rule{};
  Site site;
  Site other;
  uint64_t count = 0;           // every occurrence, never capped
  std::vector<Finding> first;   // the earliest few (by cycle), in full
};

// The end-of-run summary: one line per (rule, site) with its count for the first four sites of each
// rule (one more line counts the rule's other sites and their PTX lines), the first occurrences of
// the first `detailed_groups` site lines in full, and where the rest are listed. Empty for no
// findings.
std::string summarize_findings(const std::vector<FindingGroup>& groups, size_t detailed_groups = 8,
                               size_t examples_per_group = 2);

uint64_t total_occurrences(const std::vector<FindingGroup>& groups);

}  // namespace tcsim::sim
