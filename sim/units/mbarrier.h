// The mbarrier unit (PTX ISA §9.7.13.15 "mbarrier"): the mbarrier objects of one CTA and every
// rule of their phases, arrival counts and transaction counts.
//
//   Mbarrier       one object, with its state machine as plain member functions (no simulator
//                  context: unit-tested directly against hand-worked states).
//   MbarrierUnit   the objects of one CTA, keyed by .shared::cta offset: address checks, the
//                  8-byte word kept in shared memory, waking suspended try_waits, checker warnings.
//
// ---- API for asynchronous engines (TMA, bulk copies, st.async, tcgen05.commit) -------------------
// An engine whose operation completes at cycle T makes its mbarrier effect at T, after its data
// landed, through the owning partition's event queue:
//
//     post_mbarrier_complete_tx(part, T, target, addr, bytes, release, "cp.async.bulk.tensor");
//     post_mbarrier_arrive(part, T, target, addr, count, release, "tcgen05.commit");
//
// Both post at EventPriority::MbarrierUpdate (so the phase flips after the AsyncDataLand events of
// the same cycle). `target` is a CtaRef to the CTA that owns the mbarrier (the issuing CTA, or a
// peer of its cluster for .shared::cluster barriers); `addr` its .shared::cta offset; `release`
// the issuing CTA's clock at issue (Cluster::release(rank); nullptr for none) so that the waiter
// that observes the phase is ordered after the operation (DSMEM exit check). Misuse found when the
// event runs (the barrier was never initialised, the target CTA already exited, the tx-count
// leaves its range) ends the launch with a fault naming `what`, the barrier and its state.
// From inside an instruction (the engine's issue path) call the unit directly instead:
// `cta.mbarriers().complete_tx(addr, bytes, release, now)` (throws SimFault on misuse).
//
// The state token (64-bit `state` of arrive, PTX: opaque) is tcsim's encoding:
//   bits  0-19  pending arrival count before the arrive (H200: mbarrier_ops seq[10] = 2, i.e. the
//               count before the arrive: the arrive returns the object's previous value)
//   bits 20-39  expected arrival count
//   bits 40-42  phase mod 8 (test_wait/try_wait resolve it against the full phase count)
//   bit  43     produced by a .noComplete arrive (mbarrier.pending_count's precondition)
//   bits 44-63  tag: (shared offset >> 3) + 1, so a token used on another barrier is caught
// The word kept in the object's 8 bytes of shared memory is the same encoding of the current state
// (bit 43 clear): any other change of those bytes is a non-mbarrier store to a live mbarrier.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/cluster.h"
#include "sim/cycles.h"
#include "sim/report/rules.h"

namespace tcsim::sim {

class Cta;
class Partition;

// PTX ISA §9.7.13.15.1: expected and pending arrival counts lie in [0, 2^20 - 1] (init: >= 1);
// the tx-count in [-(2^20 - 1), 2^20 - 1].
inline constexpr uint32_t kMbarrierMaxCount = (1u << 20) - 1;
inline constexpr int32_t kMbarrierMaxTx = (1 << 20) - 1;

// A violation of an mbarrier rule (undefined behaviour in the PTX ISA): the message names the
// barrier, its state and the rule.
// `rule`: the row of sim/report/rules.def the violation is reported under (recorded as a finding
// before the fault ends the launch), if it has one.
struct MbarrierError : std::runtime_error {
  explicit MbarrierError(const std::string& what, std::optional<Rule> r = std::nullopt)
      : std::runtime_error(what), rule(r) {}
  std::optional<Rule> rule;
};

struct Mbarrier {
  uint32_t addr = 0;       // .shared::cta offset
  uint32_t phase = 0;      // phases completed since init (the ISA exposes its parity, phase & 1)
  uint32_t expected = 0;   // arrivals per phase (init count, lowered by arrive_drop)
  uint32_t pending = 0;    // arrivals still missing in the current phase
  int32_t tx = 0;          // tx-count: expected minus completed transaction units (bytes)
  uint32_t observed = 0;   // phases [0, observed) were seen complete by some test_wait/try_wait
  uint32_t lapped_warned = 0;  // phase + 1 of the last lapping warning
  uint32_t fruitless_waits = 0;  // timed try_wait suspensions / False test_waits since the last update
  Cycles last_complete;
  // Transaction bytes of the current phase: announced by expect-tx, and completed (landed). Both
  // are named when they disagree (mbarrier-tx-mismatch, mbarrier-tx-at-exit, deadlock reports).
  uint64_t phase_expected_tx = 0, phase_landed_tx = 0;
  // The instruction that last announced expect-tx in this phase (Program::sources index + 1; 0:
  // none): the site of an mbarrier-tx-mismatch, whose surplus bytes land from an engine's event.
  uint32_t expect_src = 0;
  VClock accum, done;      // release clocks of the current / the last completed phase
  // Per thread (warp * 32 + lane): 1 + the last phase this thread saw complete (stale-parity check).
  std::vector<uint32_t> lane_seen;
  // The last update, for the deadlock report ("who last arrived"): what it was, when, and, when a
  // thread's instruction made it (not an asynchronous engine's event), which one and where.
  struct LastUpdate {
    std::string what;            // "mbarrier.arrive", "tcgen05.commit", a TMA load, ...
    Cycles at;
    uint32_t src = 0;            // Program::sources index + 1 (0: an engine's completion event)
    int32_t warp = -1;
    Dim3 cta{};                  // the updating thread's CTA (grid coordinates)
  } last;

  // §9.7.13.15.9: phase 0, expected = pending = count, tx-count 0.
  static Mbarrier make(uint32_t addr, uint32_t count);
  // Each update returns true when it completed the current phase (§9.7.13.15.6: pending arrivals
  // == 0 and tx-count == 0; then phase += 1 and pending = expected). Misuse throws MbarrierError.
  // expect-tx(tx) then arrive-on(count) (§9.7.13.15.13); drop: arrive_drop, the expected count of
  // this and later phases falls by count first (§9.7.13.15.14); no_complete: the arrive must not
  // complete the phase. *token receives the state token (the object before the update).
  bool arrive(uint32_t count, uint32_t tx, bool drop, bool no_complete, uint64_t* token);
  bool expect_tx(uint32_t tx);     // §9.7.13.15.11
  bool complete_tx(uint32_t tx);   // §9.7.13.15.12
  // test_wait/try_wait (§9.7.13.15.16). Parity form: true when the phase of that parity is
  // complete, i.e. the current phase's parity differs. State form: true when the phase recorded in
  // the token completed; throws for a token of another barrier. On false, *waits_for = the phase
  // whose completion the wait needs (the current one).
  bool parity_complete(uint32_t parity, uint32_t* waits_for) const;
  bool state_complete(uint64_t token, uint32_t* waits_for, uint32_t* token_phase) const;

  uint64_t word() const;  // the encoding of the current state (see the file comment)
  std::string describe() const;  // "mbarrier at shared::cta 0x..: phase P, n of m arrivals pending, tx-count t"

 private:
  bool complete_if_done();
  [[noreturn]] void fail(const std::string& rule, std::optional<Rule> r = std::nullopt) const;
};

uint64_t mbarrier_token(uint32_t addr, uint32_t pending, uint32_t expected, uint32_t phase, bool no_complete);
// mbarrier.pending_count (§9.7.13.15.17): the pending count carried by a .noComplete token; throws
// for a token from another kind of arrive.
uint32_t mbarrier_token_pending(uint64_t token);

class MbarrierUnit {
 public:
  explicit MbarrierUnit(Cta& owner) : owner_(&owner) {}

  // Operations of the CTA's (or a peer's, for remote arrive/expect_tx/complete_tx) instructions
  // and of async engines. Each throws SimFault(-1, ...) on misuse (address, uninitialised object,
  // ranges), naming the barrier and its state. `from_rank`: cluster rank of the issuing CTA.
  void init(uint32_t addr, uint32_t count, Cycles now);
  void inval(uint32_t addr, Cycles now);
  uint64_t arrive(uint32_t addr, uint32_t count, uint32_t tx, bool drop, bool no_complete, uint32_t from_rank,
                  const char* what, Cycles now);
  void expect_tx(uint32_t addr, uint32_t tx, Cycles now);
  void complete_tx(uint32_t addr, uint32_t tx, const VClock* release, const char* what, Cycles now);
  // An arrive whose release clock is given (async engines: tcgen05.commit).
  void arrive_released(uint32_t addr, uint32_t count, const VClock* release, const char* what, Cycles now);

  // Waits, per thread (warp `w`, lane). Return true when the phase completed (the thread then
  // observes it: acquire, bookkeeping); otherwise *waits_for is the phase to suspend on.
  bool test_parity(uint32_t addr, uint32_t parity, uint32_t thread, uint32_t* waits_for, Cycles now);
  bool test_state(uint32_t addr, uint64_t token, uint32_t thread, uint32_t* waits_for, Cycles now);

  // A try_wait with suspendTimeHint is about to suspend on the barrier at addr, or a test_wait on
  // it is about to return False: whether the time limit is honoured / the False returned now.
  // PTX ISA §9.7.13.15.16: the hint "may be used" as the time limit, so the thread may stay
  // suspended until the phase completes; and no instruction has an architectural latency, so a
  // test_wait may complete late, when the phase completed, returning True. After
  // kMaxFruitlessTimedWaits timed suspensions (kMaxFruitlessPolls False test_waits) with no update
  // of the barrier in between, tcsim suspends the thread until the phase completes: a wait loop on
  // a barrier that can never complete then ends in the deadlock report instead of spinning forever
  // (a loop whose own thread would complete the barrier after many failed polls is not supported).
  static constexpr uint32_t kMaxFruitlessTimedWaits = 256;
  static constexpr uint32_t kMaxFruitlessPolls = 4096;
  bool keep_returning(uint32_t addr, uint32_t limit);

  // The live object at addr, or nullptr.
  const Mbarrier* find(uint32_t addr) const;
  // "mbarrier at shared::cta 0x... (phase ..., ...)" or "shared::cta 0x... (no initialised mbarrier)".
  std::string describe(uint32_t addr) const;
  // Checker warnings for objects left in a suspicious state when the CTA exits (tx-count != 0).
  void on_cta_exit(Cycles now);
  const std::map<uint32_t, Mbarrier>& objects() const { return bars_; }

 private:
  Mbarrier& live(uint32_t addr, Cycles now, const char* op);
  void check_address(uint32_t addr, const char* op) const;
  void check_word(const Mbarrier& b, const char* op) const;
  void store_word(const Mbarrier& b);
  bool has_waiters(uint32_t addr) const;
  void after_update(Mbarrier& b, bool completed, Cycles now);
  void note_update(Mbarrier& b, const char* what, Cycles now);
  void check_lapping(Mbarrier& b, const char* what, Cycles now);
  void observe(Mbarrier& b, uint32_t phase_seen, uint32_t thread);
  void warn(Rule rule, Cycles now, const std::string& msg) const;
  // The same, for an engine's event (no instruction executing) whose finding belongs to the
  // instruction `src` (Program::sources index + 1, as Mbarrier::expect_src): its site, in the CTA.
  void warn_at(Rule rule, uint32_t src, Cycles now, const std::string& msg) const;
  [[noreturn]] void raise(const MbarrierError& e, Cycles now) const;

  Cta* owner_;
  std::map<uint32_t, Mbarrier> bars_;           // live objects by .shared::cta offset
  std::map<uint32_t, Cycles> invalidated_;      // offsets invalidated (for messages)
};

// Event-queue entry points for asynchronous engines (see the file comment).
void post_mbarrier_complete_tx(Partition& part, Cycles when, CtaRef target, uint32_t addr, uint32_t bytes,
                               const VClock* release, std::string what);
void post_mbarrier_arrive(Partition& part, Cycles when, CtaRef target, uint32_t addr, uint32_t count,
                          const VClock* release, std::string what);

}  // namespace tcsim::sim
