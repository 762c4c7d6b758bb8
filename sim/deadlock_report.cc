#include "sim/deadlock_report.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sim/cta.h"
#include "sim/exec/warp_collective.h"
#include "sim/launch_state.h"
#include "sim/report/finding_log.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

constexpr size_t kBarrierLines = 6, kWaitLines = 10, kCtaBarrierLines = 4;

std::string dim(Dim3 d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

// The state of a group as a key that does not depend on the CTA (so identical waits group).
std::string state_key(const Warp& w, const ThreadGroup& g) {
  switch (g.state) {
    case GroupState::Ready: return "ready";
    case GroupState::AtWarpSync: return "waiting for the other lanes of its warp (a warp-synchronous instruction)";
    case GroupState::AtBarrier: return fmt::format("waiting at CTA barrier {}", g.barrier);
    case GroupState::Sleeping: return "in nanosleep";
    case GroupState::AtAsyncWait:
      return w.async_wait_reason.empty() ? "waiting for an asynchronous operation" : w.async_wait_reason;
    case GroupState::AtMbarrier:
      return fmt::format("mbarrier wait{} on the mbarrier at shared::cta 0x{:x} for the completion of phase {}",
                         g.wake_at.is_never() ? "" : " (with a time limit)", g.wait_addr, g.wait_phase);
    case GroupState::AtClusterBarrier:
      return fmt::format("barrier.cluster.wait for phase {} of the cluster barrier", g.wait_phase);
  }
  return "?";
}

std::string where(const LaunchState& L, const ThreadGroup& g) {
  const Program& prog = *L.prog;
  const bool past = g.state == GroupState::AtBarrier || g.state == GroupState::AtMbarrier ||
                    g.state == GroupState::AtClusterBarrier || g.state == GroupState::Sleeping;  // pc already past the waiting instruction
  const uint32_t pc = past ? g.pc - 1 : g.pc;
  if (pc >= prog.code.size()) return "the end of the function";
  return site_of(L, prog.code[pc].src).str();
}

struct Group {
  uint64_t warps = 0, lanes = 0;
  std::set<const Cta*> ctas;
  std::string example;
  size_t order = 0;
};

void add(std::map<std::string, Group>& m, const std::string& key, const Cta& c, std::string example, uint64_t lanes) {
  auto [it, fresh] = m.try_emplace(key);
  Group& g = it->second;
  if (fresh) {
    g.order = m.size();
    g.example = std::move(example);
  }
  ++g.warps;
  g.lanes += lanes;
  g.ctas.insert(&c);
}

// The groups in first-seen order (deterministic: CTAs are visited in a fixed order).
std::vector<std::pair<const std::string*, const Group*>> ordered(const std::map<std::string, Group>& m) {
  std::vector<std::pair<const std::string*, const Group*>> v;
  for (const auto& [k, g] : m) v.push_back({&k, &g});
  std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.second->order < b.second->order; });
  return v;
}

std::string ctas_text(size_t n) { return n == 1 ? "1 CTA" : fmt::format("{} CTAs", n); }

// Line of the instruction at `pc` (0: none).
uint32_t line_of(const LaunchState& L, uint32_t pc) {
  const Program& p = *L.prog;
  if (pc >= p.code.size()) return 0;
  const SourceRef& s = p.sources[p.code[pc].src];
  return p.module->functions[s.function].instrs[s.instr].loc.line;
}

// For a livelock report: the loop a warp spins in and what it last read (the address goes in the
// example, so warps reading their own flags group together).
std::pair<std::string, std::string> spin_detail(const LaunchState& L, const Warp& w) {
  std::string key, example;
  if (w.loop_from() <= w.loop_to())
    key += fmt::format("; its loop: {}:{}-{}", L.ptx_name, line_of(L, w.loop_from()), line_of(L, w.loop_to()));
  const Warp::LastRead& r = w.last_read();
  if (r.pc != ~0u) {
    const char* sp = r.space == static_cast<uint8_t>(isa::ptx::Space::Global) ? "global"
                     : r.space == static_cast<uint8_t>(isa::ptx::Space::Generic) ? "generic"
                                                                                 : "shared";
    key += fmt::format("; last read: {} by line {}, value 0x{:x}", sp, line_of(L, r.pc), r.value);
    example = fmt::format(", read address 0x{:x}", r.addr);
  }
  return {key, example};
}

std::string report(const std::vector<const Cta*>& ctas, const LaunchState& L, bool spinning) {
  std::map<std::string, Group> waits, bars, cta_bars;
  std::set<std::pair<const Cta*, uint32_t>> seen_bar;
  for (const Cta* c : ctas) {
    for (const std::string& line : c->barrier_lines()) add(cta_bars, line, *c, fmt::format("CTA {}", dim(c->ctaid())), 0);
    for (const auto& w : c->warps()) {
      if (w->done()) continue;
      for (const ThreadGroup& g : w->groups()) {
        const uint32_t n = static_cast<uint32_t>(__builtin_popcount(g.mask));
        std::string key = state_key(*w, g) + " at " + where(L, g), example;
        if (spinning) {
          auto [k, e] = spin_detail(L, *w);
          key += k;
          example = e;
        }
        add(waits, key, *c, fmt::format("CTA {} warp {} lanes {}{}", dim(c->ctaid()), w->id(), lane_list(g.mask), example), n);
        if (g.state != GroupState::AtMbarrier || !seen_bar.insert({c, g.wait_addr}).second) continue;
        // The barrier this group waits on: its state and last update.
        const auto& objs = c->mbarriers().objects();
        const auto it = objs.find(g.wait_addr);
        std::string state = it == objs.end()
                                ? fmt::format("shared::cta 0x{:x}: no initialised mbarrier there", g.wait_addr)
                                : it->second.describe();
        // The key leaves out what differs between CTAs in the same state (their coordinates, the
        // cycle): the example line gives them for one CTA.
        std::string last = "never updated since mbarrier.init", when;
        if (it != objs.end() && !it->second.last.what.empty()) {
          const Mbarrier::LastUpdate& u = it->second.last;
          const Dim3 me = c->ctaid();
          const bool own = u.cta.x == me.x && u.cta.y == me.y && u.cta.z == me.z;
          last = u.src ? fmt::format("{} by {} warp {} at {}", u.what, own ? "its own" : "CTA " + dim(u.cta), u.warp,
                                     site_of(L, u.src - 1).str())
                       : fmt::format("{} (an asynchronous completion)", u.what);
          when = fmt::format(", last updated at cycle {}", u.at.count());
        }
        add(bars, state + "; last update: " + last, *c, fmt::format("CTA {}{}", dim(c->ctaid()), when), 0);
      }
    }
  }
  std::string r;
  if (!bars.empty()) {
    r += fmt::format("\n  mbarriers waited on that nothing will complete ({} distinct state{}):", bars.size(),
                     bars.size() == 1 ? "" : "s");
    size_t shown = 0;
    for (auto [k, g] : ordered(bars)) {
      if (shown++ == kBarrierLines) {
        r += fmt::format("\n    ... and {} more", bars.size() - kBarrierLines);
        break;
      }
      r += g->ctas.size() == 1 ? fmt::format("\n    {}: {}", g->example, *k)
                               : fmt::format("\n    {} (e.g. {}): {}", ctas_text(g->ctas.size()), g->example, *k);
    }
  }
  if (!cta_bars.empty()) {
    r += "\n  CTA and cluster barriers in use:";
    size_t shown = 0;
    for (auto [k, g] : ordered(cta_bars)) {
      if (shown++ == kCtaBarrierLines) {
        r += fmt::format("\n    ... and {} more", cta_bars.size() - kCtaBarrierLines);
        break;
      }
      r += fmt::format("\n    {} (e.g. {}): {}", ctas_text(g->ctas.size()), g->example, *k);
    }
  }
  uint64_t nwarps = 0;
  std::set<const Cta*> all;
  for (const auto& [k, g] : waits) {
    nwarps += g.warps;
    all.insert(g.ctas.begin(), g.ctas.end());
  }
  r += fmt::format("\n  {} ({} group{} of identical {} over {} warp{} or parts of warps in {}):",
                   spinning ? "where the warps spin" : "who waits", waits.size(), waits.size() == 1 ? "" : "s",
                   spinning ? "states" : "waits", nwarps, nwarps == 1 ? "" : "s", ctas_text(all.size()));
  size_t shown = 0;
  for (auto [k, g] : ordered(waits)) {
    if (shown++ == kWaitLines) {
      r += fmt::format("\n    ... and {} more groups", waits.size() - kWaitLines);
      break;
    }
    r += g->warps == 1 ? fmt::format("\n    {}: {}", g->example, *k)
                       : fmt::format("\n    {} warps ({} lanes) in {}: {}; e.g. {}", g->warps, g->lanes,
                                     ctas_text(g->ctas.size()), *k, g->example);
  }
  return r;
}

}  // namespace

std::string deadlock_report(const std::vector<const Cta*>& ctas, const LaunchState& L) { return report(ctas, L, false); }

std::string spin_report(const std::vector<const Cta*>& ctas, const LaunchState& L) { return report(ctas, L, true); }

}  // namespace tcsim::sim
