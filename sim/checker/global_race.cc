// The global-memory race detector (see global_race.h for the model and the edges).
#include "sim/checker/global_race.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "sim/checker/race.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/launch_state.h"
#include "sim/partition.h"
#include "sim/report/report.h"
#include "sim/sm.h"
#include "sim/warp.h"

namespace tcsim::sim::global_race {

namespace {

constexpr uint32_t kPageWords = 1024;         // 4 KiB of global memory per page
constexpr size_t kMaxPages = 4096;            // 16 MiB of touched global memory (at most 230 MiB of shadow)
constexpr size_t kMaxSyncLocations = 1u << 16;

// A sparse vector clock over CTAs (linear id + 1 -> clock), sorted by CTA.
using Clock = std::vector<std::pair<uint32_t, uint32_t>>;

uint32_t get(const Clock& v, uint32_t cta) {
  auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(cta, 0u));
  return it != v.end() && it->first == cta ? it->second : 0;
}
void set_max(Clock& v, uint32_t cta, uint32_t clk) {
  auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(cta, 0u));
  if (it != v.end() && it->first == cta) it->second = std::max(it->second, clk);
  else v.insert(it, {cta, clk});
}
void join(Clock& into, const Clock& o) {
  for (const auto& [cta, clk] : o) set_max(into, cta, clk);
}

struct Acc {
  uint32_t cta = 0;   // linear id + 1; 0: none
  uint32_t cclk = 0;  // the CTA's epoch at the access
  uint32_t wclk = 0;  // the warp's own clock (sim/checker/race.h) at the access
  uint32_t src = 0;
  uint32_t cycle = 0;
  uint32_t quantum = 0;
  uint8_t warp = 0, lane = 0, bytes = 0, strong = 0;
};
struct Word {
  Acc w, r;
};
struct Page {
  Word words[kPageWords];
  uint64_t touched[kPageWords / 64] = {};  // a partition's page of one quantum: the words it holds
};

struct CtaClock {
  uint32_t epoch = 1;
  Clock vc;                     // what the CTA acquired from other CTAs
  std::vector<Clock> pending;   // per warp: relaxed loads' clocks waiting for a fence
  std::vector<Clock> fenced;    // per warp: the CTA's clock at the warp's last fence (own entry included)
  std::vector<uint8_t> has_fence;
};

// A partition's state: its CTAs' clocks and what it did this quantum.
struct Slot {
  std::unordered_map<uint32_t, CtaClock> ctas;
  std::unordered_map<uint64_t, Page*> pages;  // this quantum's accesses
  std::vector<std::unique_ptr<Page>> pool;    // cleared pages for reuse
  std::vector<std::unique_ptr<Page>> owned;
  std::unordered_map<uint64_t, Clock> releases;  // this quantum's releases
  bool capped = false;     // a word this partition could not track (noted once per launch)
  uint64_t cap_at = 0;     // the first such word's address, by whom and when
  Origin cap_who;
  Cycles cap_when{0};
  bool sync_full = false;  // a release this partition could not keep: reports stop (no false one)
  // The last CTA and page an access touched (consecutive accesses of a warp mostly share both):
  // node pointers of the maps above, valid until commit_quantum clears the pages.
  uint32_t last_cta = 0;
  CtaClock* last_k = nullptr;
  uint64_t last_page = ~uint64_t{0};
  Page* last_lp = nullptr;
  const Page* last_cp = nullptr;
};

}  // namespace

class State {
 public:
  State(uint32_t parts, uint32_t gx, uint32_t gy) : slots(parts), gx(gx), gy(gy) {}
  std::vector<Slot> slots;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages;  // committed (read-only during a quantum)
  std::unordered_map<uint64_t, Clock> sync;                   // committed releases per location
  uint32_t gx, gy;
  uint32_t quantum = 1;
  bool capped = false;     // a word was not tracked (merged at boundaries)
  bool sync_full = false;  // a release was not kept: no more reports
};

std::unique_ptr<State, void (*)(State*)> make_state(uint32_t partitions, uint32_t gx, uint32_t gy) {
  return {new State(partitions, gx, gy), [](State* s) { delete s; }};
}

namespace {

State* state_of(ExecCtx& c) { return c.checking() ? c.launch->global_race : nullptr; }

CtaClock& cta_clock(Slot& sl, const Cta& cta) {
  if (sl.last_k && sl.last_cta == cta.linear_id() + 1) return *sl.last_k;
  CtaClock& k = sl.ctas[cta.linear_id() + 1];
  sl.last_cta = cta.linear_id() + 1;
  sl.last_k = &k;
  if (k.pending.empty()) {
    const size_t n = std::max<size_t>(cta.warps().size(), 1);
    k.pending.resize(n);
    k.fenced.resize(n);
    k.has_fence.assign(n, 0);
  }
  return k;
}

std::string cta_name(const State& s, uint32_t cta) {
  const uint32_t l = cta - 1;
  return fmt::format("({},{},{})", l % s.gx, (l / s.gx) % s.gy, l / (s.gx * s.gy));
}

const char* kind(const Acc& a, bool write) {
  if (a.strong) return write ? "atomic/strong write" : "strong read";
  return write ? "store" : "load";
}

std::string describe(const State& s, uint64_t addr, const Acc& now, bool now_w, const Acc& was, bool was_w,
                     const char* missing) {
  return fmt::format(
      "race on global word 0x{:x}: the {} by CTA {} warp {} lane {} (cycle {}) and the {} by CTA {} warp {} lane "
      "{} (cycle {}) touch the same bytes and are not ordered: {} (PTX ISA §8.7.1: conflicting accesses not "
      "ordered by causality order, §8.9.2, are a data race)",
      addr, kind(now, now_w), cta_name(s, now.cta), now.warp, now.lane, now.cycle, kind(was, was_w),
      cta_name(s, was.cta), was.warp, was.lane, was.cycle, missing);
}

const char* missing_edge(const Acc& now, const Acc& was) {
  if (now.cta == was.cta)
    return "no bar.sync, mbarrier arrive/wait or release/acquire pair between the two warps of the CTA";
  return "no release (st.release, red/atom.release, or fence.acq_rel/fence.sc before a relaxed store/atomic) by "
         "the first CTA after its access is observed by an acquire (ld.acquire, atom.acquire, or a relaxed load "
         "followed by a fence) of the second CTA before its access";
}

// Conflicting and not both morally strong. Not reported either: a weak load against an atomic
// (the optimistic read of a compare-and-swap loop, whose value the CAS validates; docs/checker.md
// "global-data-race" lists it as the one exemption).
bool conflict(const Acc& a, const Acc& me, bool a_write, bool me_write) {
  if (a.cta == 0 || !(a.bytes & me.bytes) || !(a_write || me_write) || (a.strong && me.strong)) return false;
  if (a.strong != me.strong && ((!a.strong && !a_write) || (!me.strong && !me_write))) return false;
  return true;
}

// The current access `me` of CTA clock k, warp clock vector wvc: is `a` ordered before it?
bool ordered(const Acc& a, const Acc& me, const CtaClock& k, const uint32_t* wvc) {
  if (a.cta == me.cta) return a.warp == me.warp || a.wclk <= wvc[a.warp];
  return get(k.vc, a.cta) >= a.cclk;
}

uint64_t sync_key(uint64_t addr) { return addr & ~uint64_t{3}; }

void acquire(State& s, Slot& sl, CtaClock& k, uint64_t key) {
  auto it = s.sync.find(key);
  if (it != s.sync.end()) join(k.vc, it->second);
  auto jt = sl.releases.find(key);
  if (jt != sl.releases.end()) join(k.vc, jt->second);
}

void release_clock(State& s, Slot& sl, uint64_t key, const Clock& c) {
  if (!sl.releases.count(key) && s.sync.size() + sl.releases.size() >= kMaxSyncLocations) {
    sl.sync_full = true;
    return;
  }
  join(sl.releases[key], c);
}

// The release/acquire edges of a morally strong access of the 4-byte location at `addr`.
void edges(State& s, Slot& sl, CtaClock& k, uint32_t me, uint32_t warp, uint64_t addr, uint8_t order) {
  using namespace race;
  const uint64_t key = sync_key(addr);
  if (order & kAcquire) {
    acquire(s, sl, k, key);
  } else if (order & kLoads) {
    auto it = s.sync.find(key);
    if (it != s.sync.end()) join(k.pending[warp], it->second);
    auto jt = sl.releases.find(key);
    if (jt != sl.releases.end()) join(k.pending[warp], jt->second);
  }
  if (order & kRelease) {
    Clock c = k.vc;
    set_max(c, me, k.epoch);
    release_clock(s, sl, key, c);
    ++k.epoch;
  } else if ((order & kStores) && k.has_fence[warp]) {
    release_clock(s, sl, key, k.fenced[warp]);
  }
}

Page* local_page(State& s, Slot& sl, uint64_t page, bool* capped) {
  auto it = sl.pages.find(page);
  if (it != sl.pages.end()) return it->second;
  if (!s.pages.count(page) && s.pages.size() + sl.pages.size() >= kMaxPages) {
    *capped = true;
    return nullptr;
  }
  std::unique_ptr<Page> p;
  if (!sl.pool.empty()) {
    p = std::move(sl.pool.back());
    sl.pool.pop_back();
  } else {
    p = std::make_unique<Page>();
  }
  Page* raw = p.get();
  sl.owned.push_back(std::move(p));
  sl.pages.emplace(page, raw);
  return raw;
}

void record(ExecCtx& c, State& s, int lane, uint64_t addr, uint64_t n, bool write, bool strong) {
  Slot& sl = s.slots[c.part->index()];
  CtaClock& k = cta_clock(sl, *c.cta);
  race::RaceState& rs = race::state(*c.cta);
  const uint32_t warp = c.warp->id();
  const uint32_t* wvc = rs.vc(warp);
  const uint32_t me_cta = c.cta->linear_id() + 1;
  const uint32_t pc = c.prog->pc_of(*c.warp->current());
  Acc me{me_cta, k.epoch, wvc[warp], c.prog->code[pc].src, static_cast<uint32_t>(c.now.count()), s.quantum,
         static_cast<uint8_t>(warp), static_cast<uint8_t>(lane), 0, static_cast<uint8_t>(strong)};
  const uint64_t w0 = addr / 4, w1 = (addr + n - 1) / 4;
  bool reported = false;
  uint64_t cur = ~uint64_t{0};
  Page* lp = nullptr;
  const Page* cp = nullptr;
  for (uint64_t i = w0; i <= w1; ++i) {
    uint8_t bytes = 0xf;
    if (i == w0) bytes &= static_cast<uint8_t>(0xf << (addr % 4));
    if (i == w1) bytes &= static_cast<uint8_t>(0xf >> (3 - (addr + n - 1) % 4));
    me.bytes = bytes;
    const uint64_t page = i / kPageWords;
    if (page != cur) {  // the words of one access share a page or two
      cur = page;
      if (page == sl.last_page) {
        lp = sl.last_lp;
        cp = sl.last_cp;
      } else {
        bool capped = false;
        lp = local_page(s, sl, page, &capped);
        auto it = s.pages.find(page);
        cp = it != s.pages.end() ? it->second.get() : nullptr;
        if (lp) {
          sl.last_page = page;
          sl.last_lp = lp;
          sl.last_cp = cp;
        }
      }
    }
    if (!lp) {
      if (!sl.capped) {  // noted once per launch at the boundary (commit_quantum)
        sl.capped = true;
        sl.cap_at = i * 4;
        sl.cap_who.src = me.src;
        sl.cap_who.cta = c.cta->ctaid();
        sl.cap_who.warp = static_cast<int>(warp);
        sl.cap_who.lane = lane;
        sl.cap_when = c.now;
      }
      continue;
    }
    Word& lw = lp->words[i % kPageWords];
    lp->touched[(i % kPageWords) / 64] |= uint64_t{1} << (i % 64);
    const Word* cw = cp ? &cp->words[i % kPageWords] : nullptr;
    if (!reported && !s.sync_full && !sl.sync_full) {
      const Acc* other = nullptr;
      bool other_w = false;
      auto test = [&](const Acc& a, bool a_w) {
        if (!other && conflict(a, me, a_w, write) && !ordered(a, me, k, wvc)) {
          other = &a;
          other_w = a_w;
        }
      };
      test(lw.w, true);
      if (write) test(lw.r, false);
      if (cw) {
        test(cw->w, true);
        if (write) test(cw->r, false);
      }
      if (other) {
        reported = true;
        const Acc was = *other;
        const uint32_t variant = (other_w ? 2u : 0u) | (write ? 1u : 0u);
        report(c, Rule::GlobalDataRace, lane, [&] {
          return describe(s, i * 4, me, write, was, other_w, missing_edge(me, was));
        }, was.src, variant);
      }
    }
    if (write) {
      lw.w = me;
      lw.r = Acc{};
    } else if (lw.r.cta == 0 || (lw.r.cta == me.cta && lw.r.warp == me.warp) || ordered(lw.r, me, k, wvc)) {
      lw.r = me;
    }
  }
}

}  // namespace

void on_access(ExecCtx& c, int lane, uint64_t addr, uint32_t n, bool write) {
  State* s = state_of(c);
  if (!s || n == 0) return;
  const uint32_t pc = c.prog->pc_of(*c.warp->current());
  const uint8_t order = pc < c.prog->mem_order.size() ? c.prog->mem_order[pc] : uint8_t{race::kWeak};
  const bool strong = order & race::kStrong;
  const bool writes = strong ? (order & race::kStores) != 0 : write;
  Slot& sl = s->slots[c.part->index()];
  // The acquire edge comes before the access is checked, the release after it.
  if (strong && (order & race::kAcquire)) acquire(*s, sl, cta_clock(sl, *c.cta), sync_key(addr));
  record(c, *s, lane, addr, n, writes, strong);
  if (strong)
    edges(*s, sl, cta_clock(sl, *c.cta), c.cta->linear_id() + 1, c.warp->id(), addr,
          static_cast<uint8_t>(order & ~race::kAcquire));
}

void on_async_store(ExecCtx& c, int lane, uint64_t addr, uint64_t n, bool reduction) {
  State* s = state_of(c);
  if (!s || n == 0) return;
  record(c, *s, lane, addr, n, true, reduction);
}

void on_fence(ExecCtx& c) {
  State* s = state_of(c);
  if (!s) return;
  Slot& sl = s->slots[c.part->index()];
  CtaClock& k = cta_clock(sl, *c.cta);
  const uint32_t warp = c.warp->id();
  join(k.vc, k.pending[warp]);
  k.pending[warp].clear();
  k.fenced[warp] = k.vc;
  set_max(k.fenced[warp], c.cta->linear_id() + 1, k.epoch);
  k.has_fence[warp] = 1;
  ++k.epoch;
}

void cluster_arrived(Cta& cta, uint64_t cluster_key) {
  State* s = cta.launch().check ? cta.launch().global_race : nullptr;
  if (!s) return;
  Slot& sl = s->slots[cta.sm().partition().index()];
  CtaClock& k = cta_clock(sl, cta);
  Clock c = k.vc;
  set_max(c, cta.linear_id() + 1, k.epoch);
  release_clock(*s, sl, (uint64_t{1} << 62) | cluster_key, c);
  ++k.epoch;
}

void cluster_waited(Cta& cta, uint64_t cluster_key) {
  State* s = cta.launch().check ? cta.launch().global_race : nullptr;
  if (!s) return;
  Slot& sl = s->slots[cta.sm().partition().index()];
  acquire(*s, sl, cta_clock(sl, cta), (uint64_t{1} << 62) | cluster_key);
}

void commit_quantum(State& s, const std::vector<std::unique_ptr<Partition>>& parts) {
  for (size_t p = 0; p < s.slots.size() && p < parts.size(); ++p) {
    Slot& sl = s.slots[p];
    // Pages in address order: the reports of one boundary come out in one order.
    std::vector<std::pair<uint64_t, Page*>> pages(sl.pages.begin(), sl.pages.end());
    std::sort(pages.begin(), pages.end());
    for (auto& [page, lp] : pages) {
      auto it = s.pages.find(page);
      if (it == s.pages.end()) {
        if (s.pages.size() >= kMaxPages) {  // partitions together made more pages than fit: dropped
          if (!sl.capped) {
            sl.capped = true;
            sl.cap_at = page * kPageWords * 4;
            sl.cap_who = Origin{};
            for (uint32_t t = 0; t < kPageWords / 64 && sl.cap_who.src == kNoSite; ++t)
              if (lp->touched[t]) {
                const Word& w = lp->words[t * 64 + static_cast<uint32_t>(__builtin_ctzll(lp->touched[t]))];
                const Acc& a = w.w.cta ? w.w : w.r;
                sl.cap_who.src = a.src;
                const uint32_t l = a.cta - 1;
                sl.cap_who.cta = Dim3{l % s.gx, (l / s.gx) % s.gy, l / (s.gx * s.gy)};
                sl.cap_who.warp = a.warp;
                sl.cap_who.lane = a.lane;
                sl.cap_when = Cycles(a.cycle);
              }
          }
          for (auto& w : lp->words) w = Word{};
          std::fill(std::begin(lp->touched), std::end(lp->touched), 0);
          continue;
        }
        it = s.pages.emplace(page, std::make_unique<Page>()).first;
      }
      Page& cp = *it->second;
      for (uint32_t t = 0; t < kPageWords / 64; ++t)
      for (uint64_t bits = lp->touched[t]; bits; bits &= bits - 1) {
        const uint32_t i = t * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
        Word& lw = lp->words[i];
        Word& cw = cp.words[i];
        // Accesses of this quantum merged from an earlier partition: never ordered with these.
        auto same_q = [&](const Acc& a) { return a.cta != 0 && a.quantum == s.quantum; };
        const Acc* mine = nullptr;
        const Acc* theirs = nullptr;
        bool mine_w = false, theirs_w = false;
        auto test = [&](const Acc& m, bool m_w, const Acc& t, bool t_w) {
          if (!mine && m.cta && same_q(t) && t.cta != m.cta && conflict(t, m, t_w, m_w)) {
            mine = &m;
            theirs = &t;
            mine_w = m_w;
            theirs_w = t_w;
          }
        };
        test(lw.w, true, cw.w, true);
        test(lw.w, true, cw.r, false);
        test(lw.r, false, cw.w, true);
        if (mine && !s.sync_full) {  // every word counts (FindingLog keeps the first few in full)
          const Acc m = *mine, t = *theirs;
          const bool mw = mine_w, tw = theirs_w;
          const uint64_t addr = (page * kPageWords + i) * 4;
          Origin o;
          o.src = m.src;
          const uint32_t l = m.cta - 1;
          o.cta = Dim3{l % s.gx, (l / s.gx) % s.gy, l / (s.gx * s.gy)};
          o.warp = m.warp;
          o.lane = m.lane;
          parts[p]->findings().add(Rule::GlobalDataRace, Cycles(m.cycle), o, t.src, (tw ? 2u : 0u) | (mw ? 1u : 0u),
                                   [&] { return describe(s, addr, m, mw, t, tw, missing_edge(m, t)); });
        }
        if (lw.w.cta) {
          cw.w = lw.w;
          cw.r = lw.r;
        } else if (cw.r.cta == 0 || !same_q(cw.r) || cw.r.cta == lw.r.cta) {
          cw.r = lw.r;
        }
        lw = Word{};
      }
      std::fill(std::begin(lp->touched), std::end(lp->touched), 0);
    }
    for (auto& o : sl.owned) sl.pool.push_back(std::move(o));
    sl.owned.clear();
    sl.pages.clear();
    sl.last_page = ~uint64_t{0};
    sl.last_lp = nullptr;
    sl.last_cp = nullptr;
    for (auto& [key, c] : sl.releases) join(s.sync[key], c);
    sl.releases.clear();
    if (sl.capped && !s.capped)
      parts[p]->findings().add(Rule::GlobalRaceCapped, sl.cap_when, sl.cap_who, kNoSite, 0, [&] {
        return fmt::format("the global race detector tracks at most {} pages of {} bytes of global memory; words "
                           "outside them (the first at 0x{:x}) are not checked for races from here on",
                           kMaxPages, kPageWords * 4, sl.cap_at);
      });
    s.capped = s.capped || sl.capped;
    s.sync_full = s.sync_full || sl.sync_full;
  }
  ++s.quantum;
}

}  // namespace tcsim::sim::global_race
