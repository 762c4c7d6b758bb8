// The shared-memory race detector and initcheck: happens-before per 4-byte word of a CTA's shared
// memory, between the CTA's warps (PTX ISA §8.7.1 "Conflict and data-races": two conflicting accesses, at least
// one a write, not ordered by causality order (§8.9), not both morally strong (§8.7)).
//
// Clocks: one vector clock per warp over the CTA's warps (FastTrack, Flanagan & Freund 2009); each
// shared word keeps the epoch (warp, clock) of its last generic write and of its last read, or a
// per-warp read set once warps read it concurrently. An access by warp w races with a recorded
// access of warp u != w when u's clock of that access is later than w's view of u.
//
// Edges (docs/checker.md "shared-data-race" lists them with their sections):
//   bar.sync / barrier.sync / bar.red / bar.arrive (named barriers, with counts): an arriving warp
//       releases its clock into the barrier; the warps that wait at it acquire the join at completion.
//   mbarrier: arrive by a thread of the CTA releases into the object; a successful test_wait /
//       try_wait (or the wake-up of a suspended one) acquires every release folded so far. Arrivals
//       tcsim does not attribute to a warp of the CTA (tcgen05.commit, cp.async.mbarrier.arrive, a
//       peer CTA's arrive) make the acquire an acquire of everything the CTA did up to then.
//   barrier.cluster wait, and any edge from another CTA: acquire of everything the CTA did so far.
//   strong accesses (atom/red, ld.acquire/relaxed/volatile, st.release/relaxed/volatile) of one
//       location, shared or global: release / acquire, or through a fence (fence.sc / fence.acq_rel /
//       membar) for the relaxed forms (§8.8 release and acquire patterns).
//   asynchronous writers (TMA, bulk copies, cp.async, st.async, tcgen05.alloc, a peer's DSMEM
//       store): the bytes they write forget their generic history (the async rules of
//       sim/checker/proxy.h order those copies; their completion is the edge).
// Lanes of one warp are not checked against each other (docs/checker.md says why). Accesses of a
// peer CTA's shared memory (DSMEM) are not checked for races.
//
// initcheck (`uninitialised-read`): a byte of shared memory a generic access reads that nothing
// (generic store, atomic, asynchronous copy) wrote since the CTA started.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/cycles.h"

namespace tcsim::sim {
struct ExecCtx;
class Cta;
class Warp;
}  // namespace tcsim::sim

namespace tcsim::sim::race {

// One access kept for a word: the warp's clock at the access and where it was.
struct Access {
  uint32_t clk = 0;    // 0: none
  uint32_t src = 0;    // Program::sources index
  uint32_t cycle = 0;  // simulated cycle (low 32 bits)
  uint8_t warp = 0;
  uint8_t lane = 0;
  uint8_t bytes = 0;   // the bytes of the word it touched (bit i: byte i)
  uint8_t pad = 0;
};

struct Word {
  Access w;             // last generic write
  Access r;             // last read (when read_set == 0)
  uint32_t read_set = 0;  // 1 + index of a per-warp read set in RaceState::sets_, or 0
  uint8_t init = 0;     // bytes written since the CTA started (bit i: byte i of the word)
};

// Per instruction (Program::mem_order): what kind of memory access an instruction makes.
enum MemOrder : uint8_t {
  kWeak = 0,
  kStrong = 1,   // morally strong (atom/red, .relaxed/.acquire/.release/.volatile): no data race among these
  kAcquire = 2,  // acquire semantics (ld.acquire, atom.acquire/.acq_rel)
  kRelease = 4,  // release semantics (st.release, red.release, atom.release/.acq_rel)
  kLoads = 8,    // reads the location
  kStores = 16,  // writes the location
};

// The per-CTA state (created on first use when checking).
class RaceState {
 public:
  explicit RaceState(uint32_t warps);

  uint32_t warps() const { return n_; }
  uint32_t* vc(uint32_t w) { return vc_.data() + size_t{w} * n_; }
  // w's clock joins o (a vector of n_ entries).
  void join_into(uint32_t w, const uint32_t* o);
  // w acquires everything every warp did up to now.
  void acquire_all(uint32_t w);
  // The release of warp w: `into` joins w's clock; w's own epoch advances.
  void release(uint32_t w, std::vector<uint32_t>& into);
  void tick(uint32_t w) { ++vc(w)[w]; }

  Word* words(uint32_t first, uint32_t count);  // grows the shadow lazily; the words may change
  const Word* word_if(uint32_t i) const { return i < words_.size() ? &words_[i] : nullptr; }
  // Asynchronous / foreign writes of [off, off + n): the bytes are initialised and lose their history.
  void async_wrote(uint32_t off, uint32_t n);

  // Read sets: n_ Access entries each.
  Access* set(uint32_t id) { return sets_.data() + size_t{id - 1} * n_; }
  uint32_t new_set();
  void free_set(uint32_t id) { free_sets_.push_back(id); }

  // Named barriers: the join of the arrived warps' clocks.
  std::vector<uint32_t>& barrier(int b) {
    auto& v = bars_[b];
    if (v.empty()) v.assign(n_, 0);
    return v;
  }
  struct MbarClock {
    std::vector<uint32_t> accum, done;  // releases not yet folded / folded (monotone)
    uint32_t phase = 0;                 // phase at the last fold
    bool unknown = false;               // an arrival tcsim does not attribute to a warp of the CTA
  };
  MbarClock& mbarrier(uint32_t addr);
  // Strong-access sync locations (shared: bit 63 | offset; global: the address), per 4-byte word.
  std::vector<uint32_t>* sync(uint64_t key, bool create);
  bool sync_degraded() const { return sync_degraded_; }
  // Relaxed acquires wait for the warp's next fence; relaxed releases publish its last fence's clock.
  std::vector<uint32_t>& pending(uint32_t w) { return pending_[w]; }
  std::vector<uint32_t>& fenced(uint32_t w) { return fenced_[w]; }

 private:
  uint32_t n_;
  std::vector<uint32_t> vc_;
  std::vector<Word> words_;
  // Per block of kCleanWords words: 1 when every word of it is in the state a whole-word
  // asynchronous write leaves (Word{} with all four bytes initialised), so that async_wrote can skip
  // it (a TMA box landing again on a buffer only the async proxy touched). words() clears the bits
  // of the words it hands out.
  static constexpr uint32_t kCleanWords = 64;
  std::vector<bool> clean_;
  Word* grow(uint32_t first, uint32_t count);
  std::vector<Access> sets_;
  std::vector<uint32_t> free_sets_;
  std::vector<uint32_t> bars_[16];
  std::unordered_map<uint32_t, MbarClock> mbar_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> sync_;
  bool sync_degraded_ = false;
  std::vector<std::vector<uint32_t>> pending_, fenced_;
};

// The CTA's state, made on first use (the global race detector reads its warps' clocks:
// sim/checker/global_race.h).
RaceState& state(Cta& cta);

// ---- hooks (all no-ops unless checking) ----------------------------------------------------------
// A generic access of the executing CTA's own shared memory [off, off + n) by `lane`.
void on_shared_access(ExecCtx& c, int lane, uint32_t off, uint32_t n, bool write);
// A strong (morally strong) access of a global address by `lane`: the release/acquire edges.
void on_global_strong(ExecCtx& c, int lane, uint64_t addr);
// fence.sc / fence.acq_rel / membar by the executing warp.
void on_fence(ExecCtx& c);
// An asynchronous or foreign write of [off, off + n) of `cta`'s shared memory.
void async_wrote(Cta& cta, uint32_t off, uint32_t n);
// Named barrier b: warp w arrived (release) / the barrier completed and w waited at it (acquire).
void barrier_arrived(Cta& cta, const Warp& w, int b);
void barrier_completed(Cta& cta, int b, const std::vector<uint32_t>& waiting_warps);
// mbarrier at `addr` of `target`: an arrive by the executing warp (a peer's arrive is unknown).
void mbarrier_arrive(ExecCtx& c, Cta& target, uint32_t addr);
// An arrival on `cta`'s mbarrier that no warp of the CTA made through mbarrier.arrive.
void mbarrier_arrive_unknown(Cta& cta, uint32_t addr);
// Warp `warp` of `cta` observed the completion of the mbarrier at addr (phase: its completed count).
void mbarrier_acquire(Cta& cta, uint32_t warp, uint32_t addr, uint32_t phase);
// An edge from outside the CTA (barrier.cluster wait): warp acquires everything so far.
void acquire_all(Cta& cta, uint32_t warp);

}  // namespace tcsim::sim::race
