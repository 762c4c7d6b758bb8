// The findings record (sim/report): the rule table, grouping by (rule, site) with counts, the
// first occurrences kept in full, deterministic merging of partitions, and the summary text.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "sim/report/finding_json.h"
#include "sim/report/finding_log.h"
#include "sim/launch_state.h"
#include "sim/report/rules.h"
#include "tests/sim/harness.h"

using namespace tcsim;
using namespace tcsim::sim;

TEST_CASE("rule table: ids are unique kebab-case names, every row cites a PTX ISA section") {
  std::set<std::string_view> ids;
  for (const RuleInfo& r : all_rules()) {
    CAPTURE(r.id);
    CHECK(ids.insert(r.id).second);
    CHECK(r.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string_view::npos);
    CHECK(r.section.starts_with("PTX ISA §"));
    CHECK(!r.statement.empty());
    CHECK(rule_from_id(r.id) == r.rule);
    CHECK(&rule_info(r.rule) == &r);
  }
  CHECK_FALSE(rule_from_id("no-such-rule"));
}

TEST_CASE("FindingLog counts every occurrence and keeps the first few in full, calling the detail lazily") {
  FindingLog log;
  int built = 0;
  for (int i = 0; i < 1000; ++i) {
    Origin o;
    o.cta = Dim3{1, 0, 0};
    o.warp = i % 4;
    log.add(Rule::TmemStaleRead, Cycles(100 + i), o, kNoSite, 0, [&] {
      ++built;
      return std::string("occurrence ") + std::to_string(i);
    });
  }
  CHECK(built == static_cast<int>(FindingLog::kKept));  // the other 997 cost a counter increment
  // Another rule and another variant at the same (empty) site are separate groups.
  log.add(Rule::TmemStWar, Cycles(50), Origin{}, kNoSite, 0, "war");
  log.add(Rule::TmemStaleRead, Cycles(60), Origin{}, kNoSite, 1, "variant 1");

  FindingLog second;  // a later partition: same group, an earlier cycle
  second.add(Rule::TmemStaleRead, Cycles(10), Origin{}, kNoSite, 0, "from partition 1");

  LaunchState L;  // no program: every site is an engine's (kNoSite)
  const std::vector<FindingGroup> g = FindingLog::merge({&log, &second}, L);
  REQUIRE(g.size() == 3);
  // Earliest first: StaleRead variant 0 (first seen at cycle 10, in partition 1), StWar (50),
  // variant 1 (60).
  CHECK(g[0].rule == Rule::TmemStaleRead);
  CHECK(g[0].count == 1001);
  REQUIRE(g[0].first.size() == FindingLog::kKept);
  CHECK(g[0].first[0].detail == "from partition 1");
  CHECK(g[0].first[1].detail == "occurrence 0");
  CHECK(g[0].first[1].cycle == 100);
  CHECK(g[0].first[1].warp == 0);
  CHECK(g[1].rule == Rule::TmemStWar);
  CHECK(g[2].rule == Rule::TmemStaleRead);
  CHECK(g[2].count == 1);
  CHECK(total_occurrences(g) == 1003);

  const std::string s = summarize_findings(g);
  CHECK(s.find("findings: 2 rules broken at 3 sites, 1003 occurrences") != std::string::npos);
  CHECK(s.find("[undefined] tcgen05-stale-read x1001 at an asynchronous engine") != std::string::npos);
  CHECK(s.find("... and 999 more at this site") != std::string::npos);
  const auto j = findings_to_json(g);
  REQUIRE(j.size() == 3);
  CHECK(j[0]["rule"] == "tcgen05-stale-read");
  CHECK(j[0]["count"] == 1001);
  CHECK(j[0]["first"].size() == FindingLog::kKept);
  CHECK(summarize_findings({}).empty());
}

TEST_CASE("summary: a rule's sites past the fourth fold into one counted line with their PTX lines") {
  std::vector<FindingGroup> g;
  for (uint32_t i = 0; i < 10; ++i) {
    FindingGroup x;
    x.rule = Rule::TmemMissingFenceAfter;
    x.site.ptx_file = "k.ptx";
    x.site.ptx_line = 100 + 10 * i;
    x.count = 2;
    g.push_back(x);
  }
  FindingGroup other;
  other.rule = Rule::TmemStaleRead;
  other.site.ptx_file = "k.ptx";
  other.site.ptx_line = 7;
  other.count = 1;
  g.push_back(other);
  const std::string s = summarize_findings(g);
  CHECK(s.find("findings: 2 rules broken at 11 sites, 21 occurrences") != std::string::npos);
  size_t site_lines = 0;
  for (size_t p = s.find("tcgen05-missing-fence-after x2 at"); p != std::string::npos;
       p = s.find("tcgen05-missing-fence-after x2 at", p + 1))
    ++site_lines;
  CHECK(site_lines == 4);
  CHECK(s.find("tcgen05-missing-fence-after at 6 more sites (12 occurrences, PTX lines 140-190)") != std::string::npos);
  CHECK(s.find("tcgen05-stale-read x1 at") != std::string::npos);
}

TEST_CASE("findings of a launch name the instruction, CTA, warp and lane; clean launches have none") {
  // A wait on a stale parity, twice at the same site in a loop: one group, counted twice.
  const std::string ptx = R"(.version 8.0
.target sm_100a
.address_size 64
.visible .entry k()
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .shared .align 8 .b64 bar;
  mov.u32 %r1, bar;
  mbarrier.init.shared::cta.b64 [%r1], 1;
  mbarrier.arrive.shared::cta.b64 _, [%r1];
  mov.u32 %r2, 0;
$L_loop:
  mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 3;
  @%p2 bra $L_loop;
  ret;
}
)";
  test::Harness h;
  h.load(ptx, "stale.ptx");
  const LaunchResult r = h.launch("k", {1, 1, 1}, {1, 1, 1}, test::Params{});
  REQUIRE(r.findings.size() == 1);
  const FindingGroup& g = r.findings[0];
  CHECK(g.rule == Rule::MbarrierStaleParity);
  CHECK(g.count == 2);  // the first wait observes phase 0 legitimately; the next two are stale
  CHECK(g.site.ptx_file == "stale.ptx");
  CHECK(g.site.ptx_line == 14);
  CHECK(g.site.text == "mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r1], 0;");
  REQUIRE(g.first.size() == 2);
  CHECK(g.first[0].warp == 0);
  REQUIRE(g.first[0].cta);
  CHECK(g.first[0].cta->x == 0);
  CHECK(g.first[0].cycle < g.first[1].cycle);
  CHECK(r.finding_lines().size() == 2);
  CHECK(r.finding_lines()[0].starts_with("[undefined] mbarrier-stale-parity at stale.ptx:14"));
}
