// The shared-memory race detector and initcheck (see race.h for the model and the edges).
#include "sim/checker/race.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/checker/proxy.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/partition.h"
#include "sim/report/finding_log.h"
#include "sim/report/report.h"
#include "sim/units/tma_cta_state.h"
#include "sim/warp.h"

namespace tcsim::sim::race {

namespace {
// Strong-access locations kept before the detector stops telling them apart (then every acquire
// through a strong access acquires everything: no false report, fewer true ones).
constexpr size_t kMaxSyncLocations = 1u << 16;
}  // namespace

RaceState::RaceState(uint32_t warps)
    : n_(std::max<uint32_t>(warps, 1)), vc_(size_t{n_} * n_, 0), pending_(n_), fenced_(n_) {
  for (uint32_t w = 0; w < n_; ++w) vc(w)[w] = 1;
}

void RaceState::join_into(uint32_t w, const uint32_t* o) {
  uint32_t* v = vc(w);
  for (uint32_t u = 0; u < n_; ++u) v[u] = std::max(v[u], o[u]);
}

void RaceState::acquire_all(uint32_t w) {
  uint32_t* v = vc(w);
  for (uint32_t u = 0; u < n_; ++u) v[u] = std::max(v[u], vc(u)[u]);
}

void RaceState::release(uint32_t w, std::vector<uint32_t>& into) {
  if (into.size() != n_) into.assign(n_, 0);
  const uint32_t* v = vc(w);
  for (uint32_t u = 0; u < n_; ++u) into[u] = std::max(into[u], v[u]);
  tick(w);
}

Word* RaceState::grow(uint32_t first, uint32_t count) {
  if (words_.size() < size_t{first} + count) {
    words_.resize(size_t{first} + count);
    clean_.resize((words_.size() + kCleanWords - 1) / kCleanWords, false);
  }
  return words_.data() + first;
}

Word* RaceState::words(uint32_t first, uint32_t count) {
  Word* w = grow(first, count);
  for (uint32_t b = first / kCleanWords; b <= (first + count - 1) / kCleanWords; ++b) clean_[b] = false;
  return w;
}

void RaceState::async_wrote(uint32_t off, uint32_t n) {
  if (n == 0) return;
  const uint32_t w0 = off / 4, w1 = (off + n - 1) / 4;
  grow(w0, w1 - w0 + 1);
  for (uint32_t i = w0; i <= w1;) {
    const uint32_t b = i / kCleanWords, end = std::min(w1 + 1, (b + 1) * kCleanWords);
    const bool whole = i == b * kCleanWords && end == (b + 1) * kCleanWords &&
                       (i != w0 || off % 4 == 0) && (end - 1 != w1 || (off + n) % 4 == 0);
    if (whole && clean_[b]) {
      i = end;
      continue;
    }
    for (; i < end; ++i) {
      Word* w = &words_[i];
      uint8_t bytes = 0xf;
      if (i == w0) bytes &= static_cast<uint8_t>(0xf << (off % 4));
      if (i == w1) bytes &= static_cast<uint8_t>(0xf >> (3 - (off + n - 1) % 4));
      const uint8_t init = w->init | bytes;
      if (w->read_set) free_set(w->read_set);
      *w = Word{};
      w->init = init;
    }
    if (whole) clean_[b] = true;
  }
}

uint32_t RaceState::new_set() {
  uint32_t id;
  if (!free_sets_.empty()) {
    id = free_sets_.back();
    free_sets_.pop_back();
  } else {
    sets_.resize(sets_.size() + n_);
    id = static_cast<uint32_t>(sets_.size() / n_);
  }
  std::fill_n(set(id), n_, Access{});
  return id;
}

RaceState::MbarClock& RaceState::mbarrier(uint32_t addr) {
  MbarClock& m = mbar_[addr];
  if (m.accum.empty()) {
    m.accum.assign(n_, 0);
    m.done.assign(n_, 0);
  }
  return m;
}

std::vector<uint32_t>* RaceState::sync(uint64_t key, bool create) {
  auto it = sync_.find(key);
  if (it != sync_.end()) return &it->second;
  if (!create) return nullptr;
  if (sync_.size() >= kMaxSyncLocations) {
    sync_degraded_ = true;
    return nullptr;
  }
  auto& v = sync_[key];
  v.assign(n_, 0);
  return &v;
}

RaceState& state(Cta& cta) {
  if (!cta.race) cta.race = std::make_shared<RaceState>(static_cast<uint32_t>(cta.warps().size()));
  return *cta.race;
}

namespace {

std::string thread_name(const Cta& cta, uint32_t warp, uint32_t lane) {
  const Dim3 id = cta.ctaid();
  return fmt::format("CTA ({},{},{}) warp {} lane {}", id.x, id.y, id.z, warp, lane);
}

const char* op_word(bool write) { return write ? "store" : "load"; }

// The race between the earlier access `a` (write: a_write) and the current one.
void report_race(ExecCtx& c, int lane, uint32_t word_addr, const Access& a, bool a_write, bool write, uint32_t n,
                 uint32_t addr) {
  const uint32_t warp = c.warp->id();
  const uint32_t src = c.prog->code[c.prog->pc_of(*c.warp->current())].src;
  // Variant: the kind of pair (write-read, read-write, write-write) keeps them apart at one site.
  const uint32_t variant = (a_write ? 2u : 0u) | (write ? 1u : 0u);
  report(c, Rule::SharedDataRace, lane, [&] {
    const Site here = site_of(*c.launch, src), there = site_of(*c.launch, a.src);
    const uint32_t seen = c.cta->race->vc(warp)[a.warp];
    return fmt::format(
        "race on shared::cta word 0x{:x} (bytes [0x{:x}, 0x{:x})): the {} by {} at PTX line {} (cycle {}) and the "
        "earlier {} by {} at PTX line {} (cycle {}) are not ordered: no bar.sync / named barrier, mbarrier "
        "arrive->wait, barrier.cluster or release->acquire pair orders warp {}'s {} at line {} before warp {}'s {} "
        "at line {} (warp {} has synchronised with warp {} only up to its epoch {}; the access was in epoch {}) "
        "(PTX ISA §8.7.1: conflicting accesses not ordered by causality order are a data race)",
        word_addr, addr, addr + n, op_word(write), thread_name(*c.cta, warp, static_cast<uint32_t>(lane)),
        here.ptx_line, c.now.count(), op_word(a_write), thread_name(*c.cta, a.warp, a.lane), there.ptx_line, a.cycle,
        a.warp, op_word(a_write), there.ptx_line, warp, op_word(write), here.ptx_line, warp, a.warp, seen, a.clk);
  }, a.src, variant);
}

// The release/acquire edges of a morally strong access to `key` (PTX ISA §8.8): an acquire joins
// the location's clock; a relaxed load keeps it pending for a later fence; a release publishes the
// warp's clock; a relaxed store publishes what the warp's last fence covered.
void sync_edges(RaceState& s, uint32_t warp, uint64_t key, uint8_t order) {
  if (order & kAcquire) {
    if (auto* v = s.sync(key, false)) s.join_into(warp, v->data());
    else if (s.sync_degraded()) s.acquire_all(warp);
  } else if (order & kLoads) {
    if (auto* v = s.sync(key, false)) {
      auto& p = s.pending(warp);
      if (p.empty()) p.assign(s.warps(), 0);
      for (uint32_t u = 0; u < s.warps(); ++u) p[u] = std::max(p[u], (*v)[u]);
    } else if (s.sync_degraded()) {
      s.acquire_all(warp);
    }
  }
  if (order & kRelease) {
    if (auto* v = s.sync(key, true)) s.release(warp, *v);
  } else if ((order & kStores) && !s.fenced(warp).empty()) {
    if (auto* v = s.sync(key, true))
      for (uint32_t u = 0; u < s.warps(); ++u) (*v)[u] = std::max((*v)[u], s.fenced(warp)[u]);
  }
}

}  // namespace

void on_shared_access(ExecCtx& c, int lane, uint32_t off, uint32_t n, bool write) {
  if (!c.checking() || n == 0) return;
  RaceState& s = state(*c.cta);
  const uint32_t pc = c.prog->pc_of(*c.warp->current());
  const uint8_t order = pc < c.prog->mem_order.size() ? c.prog->mem_order[pc] : uint8_t{kWeak};
  const uint32_t warp = c.warp->id();
  const uint32_t w0 = off / 4, w1 = (off + n - 1) / 4;
  Word* words = s.words(w0, w1 - w0 + 1);
  const bool reads = (order & kStrong) ? (order & kLoads) != 0 : !write;
  const bool writes = (order & kStrong) ? (order & kStores) != 0 : write;
  // initcheck: the bytes read must have been written since the CTA started.
  if (reads) {
    for (uint32_t i = w0; i <= w1; ++i) {
      uint8_t bytes = 0xf;
      if (i == w0) bytes &= static_cast<uint8_t>(0xf << (off % 4));
      if (i == w1) bytes &= static_cast<uint8_t>(0xf >> (3 - (off + n - 1) % 4));
      const uint8_t missing = bytes & ~words[i - w0].init;
      if (!missing) continue;
      // Bytes an asynchronous copy in flight is writing are the async rules' finding
      // (async-access-in-flight names the copy): not reported twice.
      if (c.prog->uses_async_proxy && c.cta->tma_state().proxy.conflict(off, n, false, c.now)) break;
      report(c, Rule::UninitialisedRead, lane, [&] {
        uint32_t b = 0;
        while (!(missing >> b & 1)) ++b;
        return fmt::format(
            "{} reads {} bytes of shared::cta at 0x{:x}; byte 0x{:x} was never written in this CTA (no store, atomic "
            "or asynchronous copy since the CTA started): the GPU returns whatever an earlier CTA left there",
            thread_name(*c.cta, warp, static_cast<uint32_t>(lane)), n, off, i * 4 + b);
      });
      break;
    }
  }
  if (writes)
    for (uint32_t i = w0; i <= w1; ++i) {
      uint8_t bytes = 0xf;
      if (i == w0) bytes &= static_cast<uint8_t>(0xf << (off % 4));
      if (i == w1) bytes &= static_cast<uint8_t>(0xf >> (3 - (off + n - 1) % 4));
      words[i - w0].init |= bytes;
    }

  if (order & kStrong) {
    // Morally strong accesses do not race with each other (§8.7); they are the release/acquire
    // edges of §8.8 on their location.
    sync_edges(s, warp, (uint64_t{1} << 63) | (off & ~3u), order);
    return;
  }

  const uint32_t* vc = s.vc(warp);
  const uint32_t src = c.prog->code[pc].src;
  Access me{vc[warp], src, static_cast<uint32_t>(c.now.count()), static_cast<uint8_t>(warp),
            static_cast<uint8_t>(lane), 0, 0};
  // Conflicting: the same bytes (accesses of different bytes of one word do not conflict, §8.7.1).
  uint8_t bytes = 0;
  auto unordered = [&](const Access& a) {
    return a.clk != 0 && a.warp != warp && (a.bytes & bytes) && a.clk > vc[a.warp];
  };
  for (uint32_t i = w0; i <= w1; ++i) {
    Word& w = words[i - w0];
    bytes = 0xf;
    if (i == w0) bytes &= static_cast<uint8_t>(0xf << (off % 4));
    if (i == w1) bytes &= static_cast<uint8_t>(0xf >> (3 - (off + n - 1) % 4));
    me.bytes = bytes;
    if (unordered(w.w)) report_race(c, lane, i * 4, w.w, true, write, n, off);
    if (!write) {
      if (w.read_set) {
        s.set(w.read_set)[warp] = me;
      } else if (w.r.clk == 0 || w.r.warp == warp || !unordered(w.r)) {
        w.r = me;
      } else {
        const uint32_t id = s.new_set();
        Access* rs = s.set(id);
        rs[w.r.warp] = w.r;
        rs[warp] = me;
        w.read_set = id;
        w.r = Access{};
      }
      continue;
    }
    if (w.read_set) {
      const Access* rs = s.set(w.read_set);
      for (uint32_t u = 0; u < s.warps(); ++u)
        if (unordered(rs[u])) {
          report_race(c, lane, i * 4, rs[u], false, true, n, off);
          break;
        }
      s.free_set(w.read_set);
      w.read_set = 0;
    } else if (unordered(w.r)) {
      report_race(c, lane, i * 4, w.r, false, true, n, off);
    }
    w.r = Access{};
    w.w = me;
  }
}

void on_global_strong(ExecCtx& c, int /*lane*/, uint64_t addr) {
  if (!c.checking()) return;
  const uint32_t pc = c.prog->pc_of(*c.warp->current());
  const uint8_t order = pc < c.prog->mem_order.size() ? c.prog->mem_order[pc] : uint8_t{kWeak};
  if (!(order & kStrong)) return;
  RaceState& s = state(*c.cta);
  const uint32_t warp = c.warp->id();
  sync_edges(s, warp, addr & ~uint64_t{3} & ~(uint64_t{1} << 63), order);
}

void on_fence(ExecCtx& c) {
  if (!c.checking()) return;
  RaceState& s = state(*c.cta);
  const uint32_t warp = c.warp->id();
  auto& p = s.pending(warp);
  if (!p.empty()) s.join_into(warp, p.data());
  auto& f = s.fenced(warp);
  f.assign(s.vc(warp), s.vc(warp) + s.warps());
  s.tick(warp);
}

void async_wrote(Cta& cta, uint32_t off, uint32_t n) {
  if (!cta.launch().check) return;
  state(cta).async_wrote(off, n);
}

void barrier_arrived(Cta& cta, const Warp& w, int b) {
  if (!cta.launch().check) return;
  RaceState& s = state(cta);
  // A barrier is also a fence for the warp's pending relaxed acquires (bar.sync orders memory like
  // membar.cta: PTX ISA §9.7.13.1).
  auto& p = s.pending(w.id());
  if (!p.empty()) s.join_into(w.id(), p.data());
  s.release(w.id(), s.barrier(b));
}

void barrier_completed(Cta& cta, int b, const std::vector<uint32_t>& waiting_warps) {
  if (!cta.launch().check) return;
  RaceState& s = state(cta);
  std::vector<uint32_t>& j = s.barrier(b);
  for (uint32_t w : waiting_warps) s.join_into(w, j.data());
  std::fill(j.begin(), j.end(), 0);
}

void mbarrier_arrive(ExecCtx& c, Cta& target, uint32_t addr) {
  if (!c.checking()) return;
  if (&target != c.cta) {
    mbarrier_arrive_unknown(target, addr);
    return;
  }
  RaceState& s = state(target);
  auto& p = s.pending(c.warp->id());
  if (!p.empty()) s.join_into(c.warp->id(), p.data());
  s.release(c.warp->id(), s.mbarrier(addr).accum);
}

void mbarrier_arrive_unknown(Cta& cta, uint32_t addr) {
  if (!cta.launch().check) return;
  state(cta).mbarrier(addr).unknown = true;
}

void mbarrier_acquire(Cta& cta, uint32_t warp, uint32_t addr, uint32_t phase) {
  if (!cta.launch().check) return;
  RaceState& s = state(cta);
  RaceState::MbarClock& m = s.mbarrier(addr);
  if (phase > m.phase) {
    // Every release recorded so far joins the completed phases (a superset of the phase observed:
    // never a missing edge).
    for (uint32_t u = 0; u < s.warps(); ++u) m.done[u] = std::max(m.done[u], m.accum[u]);
    std::fill(m.accum.begin(), m.accum.end(), 0);
    m.phase = phase;
  }
  if (warp >= s.warps()) return;
  if (m.unknown) s.acquire_all(warp);
  else s.join_into(warp, m.done.data());
}

void acquire_all(Cta& cta, uint32_t warp) {
  if (!cta.launch().check) return;
  RaceState& s = state(cta);
  if (warp < s.warps()) s.acquire_all(warp);
}

}  // namespace tcsim::sim::race
