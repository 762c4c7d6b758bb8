// A simulation partition: the SMs of one GPC, advanced together cycle by cycle, with one event
// queue and one global-store overlay. Partitions run in parallel on host threads within a quantum
// of simulated time and exchange global memory only at quantum boundaries (sim/launch.cc).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/event_queue.h"
#include "sim/launch_state.h"
#include "sim/memory/rmw_log.h"
#include "sim/memory/store_overlay.h"
#include "sim/printf_log.h"
#include "sim/report/finding_log.h"
#include "sim/sm.h"
#include "sim/timing/state.h"
#include "sim/units/cluster_launch_control.h"

namespace tcsim::sim {

// A fault already formatted with its location (thrown by Sm::step, recorded by the partition).
struct LocatedFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Fault {
  Cycles when;
  uint32_t sm = 0;
  std::string message;
};

class Partition {
 public:
  Partition(const LaunchState& L, uint32_t index, std::vector<uint32_t> sm_ids);

  const LaunchState& launch() const { return *L_; }
  uint32_t index() const { return index_; }
  std::vector<std::unique_ptr<Sm>>& sms() { return sms_; }
  EventQueue& events() { return events_; }
  StoreOverlay& overlay() { return overlay_; }
  // Global read-modify-writes (atom/red, bulk reductions) of this quantum, applied at its end
  // (sim/memory/rmw_log.h).
  RmwLog& rmw_log() { return rmw_log_; }
  // clusterlaunchcontrol.try_cancel requests issued this quantum, resolved at its end
  // (sim/units/cluster_launch_control.h).
  ClcQueue& clc() { return clc_; }
  Cycles now() const { return now_; }
  // The end (exclusive) of the quantum being run: when pending global read-modify-writes complete.
  Cycles quantum_end() const { return quantum_end_; }

  // Runs until `end` (exclusive) or the first fault. Safe to call in parallel with other
  // partitions: touches only this partition's state and reads global memory.
  void run_until(Cycles end);
  bool has_work() const;
  // Earliest cycle at which anything here can happen (never: stalled or empty).
  Cycles next_activity() const;
  const std::optional<Fault>& fault() const { return fault_; }
  uint64_t issued() const { return issued_; }
  // Livelock detection (sim/livelock.h): events that are progress (a store, an atomic, a barrier
  // arrival, an exit, an asynchronous completion), counted over the launch; and whether an
  // asynchronous completion is still scheduled here.
  void note_progress() { ++progress_; }
  uint64_t progress() const { return progress_; }
  // A load from another address than the last one at its pc: progress for the window, but it changes
  // nothing, so not for exact-repeat detection (sim/livelock.h); counted in progress() too.
  void note_fresh_read() {
    ++progress_;
    ++fresh_reads_;
  }
  uint64_t fresh_reads() const { return fresh_reads_; }
  bool async_pending() const { return !events_.empty(); }
  // An .approx instruction (Program::approx_names index) executed here (LaunchResult::approx_ops).
  void note_approx(uint32_t id) {
    if (id >= approx_seen_.size()) approx_seen_.resize(id + 1, 0);
    approx_seen_[id] = 1;
  }
  const std::vector<uint8_t>& approx_seen() const { return approx_seen_; }
  // Device printf records of this partition's threads (sim/exec/printf.cc, LaunchResult::printf_output).
  PrintfLog& printf_log() { return printf_log_; }
  void set_now(Cycles t) { now_ = t; }
  // Text describing every blocked warp (deadlock report).
  std::string describe_blocked() const;
  // The first warp of this partition past the per-warp watchdog limit (LaunchState::max_warp_steps),
  // reported by the launch at the quantum boundary; nullptr when none.
  void note_warp_over_limit(const Warp* w) {
    if (!over_limit_) over_limit_ = w;
  }
  const Warp* warp_over_limit() const { return over_limit_; }
  // Records a fault raised outside an instruction (e.g. by an event callback).
  void record_fault(Cycles when, uint32_t sm, std::string message);
  // Findings (sim/report): rules of the PTX ISA the kernel broke without stopping it, counted per
  // (rule, site); merged into LaunchResult::findings at the end of the launch.
  FindingLog& findings() { return findings_; }
  const FindingLog& findings() const { return findings_; }
  // Records a finding of the instruction being executed (its site, warp and CTA; `lane` or -1), or,
  // from an event of an asynchronous engine (no instruction executing), of `cta` alone.
  template <class Detail>
  void report(Rule rule, Cycles when, int lane, const Cta* cta, Detail&& detail, uint32_t other = kNoSite,
              uint32_t variant = 0) {
    findings_.add(rule, when, origin(lane, cta), other, variant, std::forward<Detail>(detail));
  }
  // From an event of an asynchronous engine: a finding whose site is the instruction `src`
  // (Program::sources index) that set up what the engine did (e.g. the expect-tx a copy's bytes
  // exceed), in `cta`; no warp or lane.
  template <class Detail>
  void report_at(Rule rule, Cycles when, uint32_t src, const Cta* cta, Detail&& detail) {
    Origin o = origin(-1, cta);
    o.src = src;
    findings_.add(rule, when, o, kNoSite, 0, std::forward<Detail>(detail));
  }
  // The instruction being executed (set by Sm::step around each instruction).
  void set_executing(const Warp* w) { executing_ = w; }
  const Warp* executing() const { return executing_; }

  // Schedule perturbation (DeviceOptions::schedule): a random extra delay in [0, max] cycles from
  // this partition's generator (seeded per partition, so runs stay deterministic per seed with any
  // number of host threads); 0 in the default deterministic order. Async engines add it to their
  // latencies ("within legal bounds": an operation may always complete later).
  uint32_t jitter(uint32_t max) { return perturb_ && max ? jitter_draw(max) : 0; }
  bool perturbed() const { return perturb_; }
  // This partition's view of the memory system and its counters (sim/timing/state.h).
  timing::PartitionTiming& timing() { return timing_; }
  const timing::PartitionTiming& timing() const { return timing_; }

 private:
  uint32_t jitter_draw(uint32_t max);
  Origin origin(int lane, const Cta* cta) const;
  const LaunchState* L_;
  uint32_t index_;
  std::vector<std::unique_ptr<Sm>> sms_;
  EventQueue events_;
  StoreOverlay overlay_;
  RmwLog rmw_log_;
  ClcQueue clc_;
  Cycles now_;
  Cycles quantum_end_;
  std::optional<Fault> fault_;
  const Warp* over_limit_ = nullptr;
  uint64_t issued_ = 0;
  uint64_t progress_ = 0, fresh_reads_ = 0;
  std::vector<uint8_t> approx_seen_;
  PrintfLog printf_log_;
  FindingLog findings_;
  const Warp* executing_ = nullptr;
  bool perturb_ = false;
  uint64_t rng_ = 0;
  timing::PartitionTiming timing_;
};

// "file.ptx:L `instruction text`" of the instruction at `pc` (Program::code index).
std::string pc_location(const LaunchState& L, uint32_t pc);

// Formats an instruction-level fault: kernel, PTX file:line (and CUDA source line), the PTX text,
// CTA, warp, lane and cycle, then the message.
std::string format_fault(const LaunchState& L, const Warp& w, const ExecInstr& in, int lane,
                         Cycles now, const std::string& message);

}  // namespace tcsim::sim
