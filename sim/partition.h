// A simulation partition: the SMs of one GPC, advanced together cycle by cycle, with one event
// queue and one global-store overlay. Partitions run in parallel on host threads within a quantum
// of simulated time and exchange global memory only at quantum boundaries (sim/launch.cc).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/event_queue.h"
#include "sim/launch_state.h"
#include "sim/memory/store_overlay.h"
#include "sim/sm.h"

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
  Cycles now() const { return now_; }

  // Runs until `end` (exclusive) or the first fault. Safe to call in parallel with other
  // partitions: touches only this partition's state and reads global memory.
  void run_until(Cycles end);
  bool has_work() const;
  // Earliest cycle at which anything here can happen (never: stalled or empty).
  Cycles next_activity() const;
  const std::optional<Fault>& fault() const { return fault_; }
  uint64_t issued() const { return issued_; }
  void count_fence() { ++fences_; }
  uint64_t fences() const { return fences_; }
  void set_now(Cycles t) { now_ = t; }
  // Text describing every blocked warp (deadlock report).
  std::string describe_blocked() const;
  // Records a fault raised outside an instruction (e.g. by an event callback).
  void record_fault(Cycles when, uint32_t sm, std::string message);
  // A checker report that does not stop the kernel (undefined behaviour the hardware may hide,
  // e.g. registers touched before their wgmma was waited for). Kept in order; after
  // kMaxWarnings only counted. The launch merges every partition's reports by cycle.
  static constexpr size_t kMaxWarnings = 64;
  void warn(Cycles when, std::string message);
  struct Warning {
    Cycles when;
    std::string message;
  };
  const std::vector<Warning>& warnings() const { return warnings_; }
  uint64_t warnings_dropped() const { return warnings_dropped_; }

 private:
  const LaunchState* L_;
  uint32_t index_;
  std::vector<std::unique_ptr<Sm>> sms_;
  EventQueue events_;
  StoreOverlay overlay_;
  Cycles now_;
  std::optional<Fault> fault_;
  std::vector<Warning> warnings_;
  uint64_t warnings_dropped_ = 0;
  uint64_t issued_ = 0;
  uint64_t fences_ = 0;
};

// Formats an instruction-level fault: kernel, PTX file:line (and CUDA source line), the PTX text,
// CTA, warp, lane and cycle, then the message.
std::string format_fault(const LaunchState& L, const Warp& w, const ExecInstr& in, int lane,
                         Cycles now, const std::string& message);

}  // namespace tcsim::sim
