// The mbarrier object's rules (PTX ISA §9.7.13.15) and the per-CTA unit. See mbarrier.h.
#include "sim/checker/race.h"
#include "sim/units/mbarrier.h"

#include <cstring>

#include <fmt/format.h>

#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/timing/model.h"
#include "sim/warp.h"

namespace tcsim::sim {

// ---- tokens ----------------------------------------------------------------------------------

uint64_t mbarrier_token(uint32_t addr, uint32_t pending, uint32_t expected, uint32_t phase, bool no_complete) {
  return uint64_t{pending & kMbarrierMaxCount} | uint64_t{expected & kMbarrierMaxCount} << 20 |
         uint64_t{phase & 7} << 40 | uint64_t{no_complete} << 43 | uint64_t{((addr >> 3) + 1) & 0xfffff} << 44;
}

uint32_t mbarrier_token_pending(uint64_t token) {
  if (!(token >> 43 & 1))
    throw MbarrierError(fmt::format(
        "mbarrier.pending_count: the state 0x{:016x} does not come from mbarrier.arrive.noComplete or "
        "arrive_drop.noComplete (PTX ISA §9.7.13.15.17: the pending count is only defined for those states)",
        token));
  return static_cast<uint32_t>(token & kMbarrierMaxCount);
}

// ---- the object ------------------------------------------------------------------------------

Mbarrier Mbarrier::make(uint32_t addr, uint32_t count) {
  Mbarrier b;
  b.addr = addr;
  if (count < 1 || count > kMbarrierMaxCount)
    throw MbarrierError(fmt::format("mbarrier.init at shared::cta 0x{:x}: count {} is outside [1, 2^20 - 1] "
                                    "(PTX ISA §9.7.13.15.9)", addr, count));
  b.expected = b.pending = count;
  return b;
}

std::string Mbarrier::describe() const {
  return fmt::format("mbarrier at shared::cta 0x{:x} (phase {}, parity {}, {} of {} arrivals pending, tx-count {}{})",
                     addr, phase, phase & 1, pending, expected, tx,
                     tx == 0 ? std::string()
                             : fmt::format(": this phase's expect-tx announced {} bytes, {} bytes completed",
                                           phase_expected_tx, phase_landed_tx));
}

void Mbarrier::fail(const std::string& rule, std::optional<Rule> r) const {
  throw MbarrierError(fmt::format("{}: {}", describe(), rule), r);
}

uint64_t Mbarrier::word() const { return mbarrier_token(addr, pending, expected, phase, false); }

bool Mbarrier::complete_if_done() {
  // §9.7.13.15.6: the phase completes when every expected arrival happened and every expected
  // transaction unit completed. A phase with nothing expected (all arrivals dropped) waits for the
  // next update rather than completing on its own.
  if (pending != 0 || tx != 0) return false;
  ++phase;
  pending = expected;
  phase_expected_tx = phase_landed_tx = 0;
  expect_src = 0;
  done = accum;
  accum = VClock{};
  return true;
}

bool Mbarrier::arrive(uint32_t count, uint32_t add_tx, bool drop, bool no_complete, uint64_t* token) {
  if (count < 1 || count > kMbarrierMaxCount)
    fail(fmt::format("arrive count {} is outside [1, 2^20 - 1] (PTX ISA §9.7.13.15.13)", count));
  if (add_tx > static_cast<uint32_t>(kMbarrierMaxTx))
    fail(fmt::format("expect-tx count {} is outside [0, 2^20 - 1] (PTX ISA §9.7.13.15.11)", add_tx));
  if (token) *token = mbarrier_token(addr, pending, expected, phase, no_complete);
  if (int64_t{tx} + add_tx > kMbarrierMaxTx)
    fail(fmt::format("expect-tx of {} overflows the tx-count (at most 2^20 - 1 pending transaction units, "
                     "PTX ISA §9.7.13.15.1)", add_tx), Rule::MbarrierTxRange);
  if (drop && count > expected)
    fail(fmt::format("arrive_drop of {} would lower the expected arrival count below zero (PTX ISA §9.7.13.15.14)",
                     count));
  if (count > pending)
    fail(fmt::format("arrive of {} exceeds the {} pending arrivals of the current phase: the pending count would "
                     "fall below zero (more arrivals than the barrier was initialised for; PTX ISA §9.7.13.15.1)",
                     count, pending), Rule::MbarrierArriveOverflow);
  tx += static_cast<int32_t>(add_tx);
  phase_expected_tx += add_tx;
  if (drop) expected -= count;
  pending -= count;
  if (no_complete && pending == 0 && tx == 0) {
    pending += count;  // report the state before this arrive
    fail(fmt::format("mbarrier.arrive.noComplete of {} would complete the current phase (undefined behaviour, "
                     "PTX ISA §9.7.13.15.13)", count));
  }
  return complete_if_done();
}

bool Mbarrier::expect_tx(uint32_t add_tx) {
  if (add_tx > static_cast<uint32_t>(kMbarrierMaxTx))
    fail(fmt::format("expect_tx count {} is outside [0, 2^20 - 1] (PTX ISA §9.7.13.15.11)", add_tx));
  if (int64_t{tx} + add_tx > kMbarrierMaxTx)
    fail(fmt::format("expect_tx of {} overflows the tx-count (at most 2^20 - 1 pending transaction units, "
                     "PTX ISA §9.7.13.15.1)", add_tx), Rule::MbarrierTxRange);
  tx += static_cast<int32_t>(add_tx);
  phase_expected_tx += add_tx;
  return complete_if_done();
}

bool Mbarrier::complete_tx(uint32_t done_tx) {
  if (done_tx > static_cast<uint32_t>(kMbarrierMaxTx))
    fail(fmt::format("complete_tx count {} is outside [0, 2^20 - 1] (PTX ISA §9.7.13.15.12)", done_tx));
  if (int64_t{tx} - done_tx < -kMbarrierMaxTx)
    fail(fmt::format("complete_tx of {} drives the tx-count below -(2^20 - 1) (PTX ISA §9.7.13.15.1)", done_tx),
         Rule::MbarrierTxRange);
  tx -= static_cast<int32_t>(done_tx);
  phase_landed_tx += done_tx;
  return complete_if_done();
}

bool Mbarrier::parity_complete(uint32_t parity, uint32_t* waits_for) const {
  // §9.7.13.15.16: phaseParity names the current or the immediately preceding phase; the one of
  // that parity is complete exactly when the current phase has the other parity.
  if ((phase & 1) != (parity & 1)) return true;
  *waits_for = phase;
  return false;
}

bool Mbarrier::state_complete(uint64_t token, uint32_t* waits_for, uint32_t* token_phase) const {
  const uint32_t tag = static_cast<uint32_t>(token >> 44);
  if (tag != (((addr >> 3) + 1) & 0xfffff))
    fail(fmt::format("the state operand 0x{:016x} was not returned by an arrive on this mbarrier{} (PTX ISA "
                     "§9.7.13.15.16: state must come from an arrive-on operation on the same object)", token,
                     tag ? fmt::format(" but on the one at shared::cta 0x{:x}", (tag - 1) << 3) : std::string()));
  // The token holds the phase mod 8; the phase it names is the latest one <= the current phase
  // with those low bits (tokens older than 7 phases are undetectable, as parities beyond one are).
  const uint32_t tp = phase - ((phase - static_cast<uint32_t>(token >> 40 & 7)) & 7);
  *token_phase = tp;
  if (tp < phase) return true;
  *waits_for = phase;
  return false;
}

// ---- the unit --------------------------------------------------------------------------------

void MbarrierUnit::raise(const MbarrierError& e, Cycles now) const {
  // A violation with a rule is recorded as a finding too (the fault's message lists the findings),
  // so `--strict`, the manifest and SARIF name it by its rule id.
  if (e.rule) warn(*e.rule, now, e.what());
  throw SimFault(-1, e.what());
}

void MbarrierUnit::check_address(uint32_t addr, const char* op) const {
  if (addr & 7)
    throw SimFault(-1, fmt::format("{}: the mbarrier address shared::cta 0x{:x} is not 8-byte aligned (mbarrier "
                                   "objects are .b64, 8-byte aligned: PTX ISA §9.7.13.15.1)", op, addr));
  const uint64_t n = owner_->smem_bytes();
  if (uint64_t{addr} + 8 > n)
    throw SimFault(-1, fmt::format("{}: the mbarrier address shared::cta 0x{:x} is outside the CTA's {} bytes of "
                                   "shared memory (PTX ISA §9.7.13.15.1: the object lives in .shared)", op, addr, n));
}

void MbarrierUnit::check_word(const Mbarrier& b, const char* op) const {
  // A TMA tile load over the object under --timing-only did not write it (sim/units/uncopied_smem.h).
  check_copied(owner_->uncopied(), b.addr, 8, op);
  uint64_t w;
  std::memcpy(&w, owner_->shared() + b.addr, 8);
  if (w != b.word())
    throw SimFault(-1, fmt::format(
        "{}: the 8 bytes of the {} were changed by a non-mbarrier access since its last update (they hold "
        "0x{:016x}); only mbarrier instructions may access an initialised mbarrier object until mbarrier.inval "
        "(PTX ISA §9.7.13.15.1)", op, b.describe(), w));
}

void MbarrierUnit::store_word(const Mbarrier& b) {
  const uint64_t w = b.word();
  std::memcpy(owner_->shared() + b.addr, &w, 8);
}

Mbarrier& MbarrierUnit::live(uint32_t addr, Cycles now, const char* op) {
  check_address(addr, op);
  auto it = bars_.find(addr);
  if (it == bars_.end()) {
    auto inv = invalidated_.find(addr);
    const std::string msg = fmt::format(
        "{} on shared::cta 0x{:x}, which holds no initialised mbarrier ({}; every operation other than "
        "mbarrier.init needs an initialised object: PTX ISA §9.7.13.15.2)", op, addr,
        inv == invalidated_.end() ? std::string("never initialised")
                                  : fmt::format("invalidated by mbarrier.inval at cycle {}", inv->second.count()));
    warn(Rule::MbarrierUninitialised, now, msg);
    throw SimFault(-1, msg);
  }
  check_word(it->second, op);
  return it->second;
}

bool MbarrierUnit::has_waiters(uint32_t addr) const {
  for (const auto& w : owner_->warps())
    for (const ThreadGroup& g : w->groups())
      if (g.state == GroupState::AtMbarrier && g.wait_addr == addr) return true;
  return false;
}

void MbarrierUnit::warn(Rule rule, Cycles now, const std::string& msg) const {
  owner_->sm().partition().report(rule, now, -1, owner_, fmt::format("{}: {}", owner_->name(), msg));
}

void MbarrierUnit::warn_at(Rule rule, uint32_t src, Cycles now, const std::string& msg) const {
  Partition& p = owner_->sm().partition();
  if (p.executing() || src == 0) return warn(rule, now, msg);
  p.report_at(rule, now, src - 1, owner_, fmt::format("{}: {}", owner_->name(), msg));
}

void MbarrierUnit::init(uint32_t addr, uint32_t count, Cycles now) {
  check_address(addr, "mbarrier.init");
  auto it = bars_.find(addr);
  if (it != bars_.end()) {
    const Mbarrier& b = it->second;
    if (has_waiters(addr) || b.pending != b.expected || b.tx != 0)
      throw SimFault(-1, fmt::format("mbarrier.init re-initialises the {} while it is in use ({}); "
                                     "invalidate it with mbarrier.inval once it is idle (PTX ISA §9.7.13.15.9)",
                                     b.describe(), has_waiters(addr) ? "threads wait on it" : "a phase is under way"));
    warn(Rule::MbarrierReinitLive, now,
         fmt::format("mbarrier.init on the live {} without mbarrier.inval first (undefined behaviour, PTX ISA "
                     "§9.7.13.15.10)", b.describe()));
  }
  try {
    Mbarrier b = Mbarrier::make(addr, count);
    b.lane_seen.assign(owner_->warps().size() * 32, 0);
    bars_[addr] = std::move(b);
  } catch (const MbarrierError& e) {
    raise(e, now);
  }
  invalidated_.erase(addr);
  store_word(bars_[addr]);
}

void MbarrierUnit::inval(uint32_t addr, Cycles now) {
  Mbarrier& b = live(addr, now, "mbarrier.inval");
  if (has_waiters(addr))
    throw SimFault(-1, fmt::format("mbarrier.inval invalidates the {} while threads wait on it (PTX ISA "
                                   "§9.7.13.15.10)", b.describe()));
  bars_.erase(addr);
  invalidated_[addr] = now;
}

void MbarrierUnit::check_lapping(Mbarrier& b, const char* what, Cycles now) {
  // §9.7.13.15.4 (docs/tma_and_mbarrier.md §4): the completion of every phase must be observed by a
  // test_wait/try_wait before anything arrives on the next one, or parity waits cannot tell the
  // phases apart.
  if (b.phase == 0 || b.observed >= b.phase || b.lapped_warned == b.phase + 1) return;
  b.lapped_warned = b.phase + 1;
  warn(Rule::MbarrierLapped, now,
       fmt::format("{} on the {} arrives on phase {} before any test_wait/try_wait observed the completion of "
                   "phase {} (the barrier is lapped: a parity wait can no longer tell the phases apart; PTX ISA "
                   "§9.7.13.15.16)", what, b.describe(), b.phase, b.phase - 1));
}

void MbarrierUnit::observe(Mbarrier& b, uint32_t phase_seen, uint32_t thread) {
  if (b.observed < phase_seen + 1) b.observed = phase_seen + 1;
  if (thread < b.lane_seen.size() && b.lane_seen[thread] < phase_seen + 1) b.lane_seen[thread] = phase_seen + 1;
  // acquire: the phase's release clocks become the waiter's (DSMEM exit ordering)
  owner_->cluster().acquire(owner_->cluster_rank(), b.done);
  race::mbarrier_acquire(*owner_, thread / 32, b.addr, b.phase);
}

void MbarrierUnit::note_update(Mbarrier& b, const char* what, Cycles now) {
  if (b.last.what != what) b.last.what = what;  // the same few texts: no allocation per update
  b.last.at = now;
  const Warp* w = owner_->sm().partition().executing();
  b.last.src = w && w->current() ? w->current()->src + 1 : 0;
  b.last.warp = w ? static_cast<int32_t>(w->id()) : -1;
  b.last.cta = w ? w->cta().ctaid() : Dim3{};
}

void MbarrierUnit::after_update(Mbarrier& b, bool completed, Cycles now) {
  store_word(b);
  b.fruitless_waits = 0;
  if (!completed) return;
  b.last_complete = now;
  // Wake the try_waits suspended on this phase (PTX ISA §9.7.13.15.16).
  const Cycles ready = now + Cycles(static_cast<uint64_t>(owner_->launch().timing->p.mbarrier_wake_latency)) +
                       Cycles(owner_->sm().partition().jitter(4));
  if (owner_->sm().partition().timing().trace)
    owner_->sm().partition().timing().add_trace({now.count(), 1, owner_->sm().id(), timing::kTrackMbarrier, 'i',
                                                 fmt::format("mbarrier 0x{:x} phase {} complete", b.addr, b.phase - 1), ""});
  for (auto& w : owner_->warps()) {
    uint32_t woke = w->wake_waiters(GroupState::AtMbarrier, b.addr, b.phase, ready);
    for (; woke; woke &= woke - 1) observe(b, b.phase - 1, w->id() * 32 + static_cast<uint32_t>(__builtin_ctz(woke)));
  }
}

uint64_t MbarrierUnit::arrive(uint32_t addr, uint32_t count, uint32_t tx, bool drop, bool no_complete,
                              uint32_t from_rank, const char* what, Cycles now) {
  Mbarrier& b = live(addr, now, what);
  check_lapping(b, what, now);
  note_update(b, what, now);
  uint64_t token = 0;
  bool completed;
  try {
    completed = b.arrive(count, tx, drop, no_complete, &token);
  } catch (const MbarrierError& e) {
    raise(e, now);
  }
  if (tx && !completed) b.expect_src = b.last.src;
  // release: the arriving CTA's clock joins the phase (already moved to `done` if this arrive
  // completed it).
  (completed ? b.done : b.accum).join(owner_->cluster().release(from_rank));
  after_update(b, completed, now);
  return token;
}

void MbarrierUnit::arrive_released(uint32_t addr, uint32_t count, const VClock* release, const char* what, Cycles now) {
  race::mbarrier_arrive_unknown(*owner_, addr);  // no warp of this CTA to release from (sim/checker/race.h)
  Mbarrier& b = live(addr, now, what);
  check_lapping(b, what, now);
  note_update(b, what, now);
  bool completed;
  try {
    completed = b.arrive(count, 0, false, false, nullptr);
  } catch (const MbarrierError& e) {
    raise(e, now);
  }
  if (release) (completed ? b.done : b.accum).join(*release);
  after_update(b, completed, now);
}

void MbarrierUnit::expect_tx(uint32_t addr, uint32_t tx, Cycles now) {
  Mbarrier& b = live(addr, now, "mbarrier.expect_tx");
  note_update(b, "mbarrier.expect_tx", now);
  bool completed;
  try {
    completed = b.expect_tx(tx);
  } catch (const MbarrierError& e) {
    raise(e, now);
  }
  if (!completed) b.expect_src = b.last.src;
  after_update(b, completed, now);
}

void MbarrierUnit::complete_tx(uint32_t addr, uint32_t tx, const VClock* release, const char* what, Cycles now) {
  Mbarrier& b = live(addr, now, what);
  note_update(b, what, now);
  bool completed;
  try {
    completed = b.complete_tx(tx);
  } catch (const MbarrierError& e) {
    raise(e, now);
  }
  if (b.tx < 0 && b.pending == 0)
    warn_at(Rule::MbarrierTxMismatch, b.expect_src, now,
         fmt::format("{} completes {} bytes on the {}: every arrival of the phase is in and its expect-tx announced "
                     "{} bytes, but {} bytes have landed; the surplus {} bytes count against the next phase, which "
                     "then completes before its own data lands (expect_tx must equal the bytes the copies write, "
                     "PTX ISA §9.7.13.15.11, §9.7.13.15.12)",
                     what, tx, b.describe(), b.phase_expected_tx, b.phase_landed_tx, -b.tx));
  if (release) (completed ? b.done : b.accum).join(*release);
  after_update(b, completed, now);
}

bool MbarrierUnit::test_parity(uint32_t addr, uint32_t parity, uint32_t thread, uint32_t* waits_for, Cycles now) {
  Mbarrier& b = live(addr, now, "mbarrier wait");
  if (!b.parity_complete(parity, waits_for)) return false;
  if (b.phase == 0) return true;  // the "preceding phase" of phase 0: nothing was observed
  // The completed phase this wait observes is the preceding one. Seen before by this very thread:
  // the program waits on a stale parity (it forgot to flip it when its ring wrapped).
  const uint32_t seen = b.phase - 1;
  if (thread < b.lane_seen.size() && b.lane_seen[thread] == seen + 1)
    warn(Rule::MbarrierStaleParity, now,
         fmt::format("a parity wait (parity {}) on the {} was satisfied by phase {}, whose completion the same "
                     "thread (warp {} lane {}) had already observed: a wait on a stale parity, which passes without "
                     "waiting for the phase in progress (PTX ISA §9.7.13.15.16)",
                     parity & 1, b.describe(), seen, thread / 32, thread % 32));
  observe(b, seen, thread);
  return true;
}

bool MbarrierUnit::test_state(uint32_t addr, uint64_t token, uint32_t thread, uint32_t* waits_for, Cycles now) {
  (void)now;
  Mbarrier& b = live(addr, now, "mbarrier wait");
  uint32_t tp = 0;
  bool done;
  try {
    done = b.state_complete(token, waits_for, &tp);
  } catch (const MbarrierError& e) {
    raise(e, now);
  }
  if (done) observe(b, tp, thread);
  return done;
}

bool MbarrierUnit::keep_returning(uint32_t addr, uint32_t limit) {
  auto it = bars_.find(addr);
  if (it == bars_.end()) return true;
  return it->second.fruitless_waits++ < limit;
}

const Mbarrier* MbarrierUnit::find(uint32_t addr) const {
  auto it = bars_.find(addr);
  return it == bars_.end() ? nullptr : &it->second;
}

std::string MbarrierUnit::describe(uint32_t addr) const {
  const Mbarrier* b = find(addr);
  return b ? b->describe() : fmt::format("shared::cta 0x{:x} (no initialised mbarrier)", addr);
}

void MbarrierUnit::on_cta_exit(Cycles now) {
  for (const auto& [addr, b] : bars_) {
    if (b.tx == 0) continue;
    warn(Rule::MbarrierTxAtExit, now,
         fmt::format("at exit the {} has {}", b.describe(),
                     b.tx > 0 ? fmt::format("{} transaction units expected that never completed (expect-tx of the "
                                            "phase: {} bytes, completed: {} bytes)",
                                            b.tx, b.phase_expected_tx, b.phase_landed_tx)
                              : fmt::format("{} more transaction units completed than were expected (a missing "
                                            "expect_tx, or a copy that completed on a later phase)", -b.tx)));
  }
}

// ---- event-queue entry points for async engines ------------------------------------------------

namespace {

void run_mbarrier_event(Partition& part, Cycles now, const CtaRef& target, uint32_t addr, const std::string& what,
                        const std::function<void(Cta&)>& op) {
  Cta* c = target.get();
  const uint32_t sm = c ? c->sm().id() : 0;
  // The CTA exited before the operation completed on its mbarrier. The H200 runs such kernels to
  // completion (kernels/tma/bad/missing_expect_tx: a CTA that never waits for its TMA bytes exits,
  // exit code 0), so tcsim does too: the completion goes nowhere. (With the timing model's TMA
  // latency the copy lands after that CTA's exit; its early reads are the finding
  // async-access-in-flight. A tcgen05.mma's CTA must stay alive: tcgen05_mma.cc checks that.)
  if (!c || c->done()) {
    (void)sm, (void)addr, (void)what;
    return;
  }
  try {
    op(*c);
  } catch (const SimFault& f) {
    part.record_fault(now, sm, fmt::format("kernel {}: cycle {}: {} of {}: {}", part.launch().kernel, now.count(),
                                           what, c->name(), f.what()));
  }
}

}  // namespace

void post_mbarrier_complete_tx(Partition& part, Cycles when, CtaRef target, uint32_t addr, uint32_t bytes,
                               const VClock* release, std::string what) {
  const bool rel = release != nullptr;
  const VClock rc = rel ? *release : VClock{};
  part.events().post(when, EventPriority::MbarrierUpdate,
                     [&part, target = std::move(target), addr, bytes, rel, rc, what = std::move(what)](Cycles now) {
                       run_mbarrier_event(part, now, target, addr, what, [&](Cta& c) {
                         c.mbarriers().complete_tx(addr, bytes, rel ? &rc : nullptr, what.c_str(), now);
                       });
                     });
}

void post_mbarrier_arrive(Partition& part, Cycles when, CtaRef target, uint32_t addr, uint32_t count,
                          const VClock* release, std::string what) {
  const bool rel = release != nullptr;
  const VClock rc = rel ? *release : VClock{};
  part.events().post(when, EventPriority::MbarrierUpdate,
                     [&part, target = std::move(target), addr, count, rel, rc, what = std::move(what)](Cycles now) {
                       run_mbarrier_event(part, now, target, addr, what, [&](Cta& c) {
                         c.mbarriers().arrive_released(addr, count, rel ? &rc : nullptr, what.c_str(), now);
                       });
                     });
}

}  // namespace tcsim::sim
