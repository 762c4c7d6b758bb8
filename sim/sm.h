// A streaming multiprocessor: resident CTAs and four warp schedulers (sub-partitions, warp id mod
// 4), each issuing at most one warp-instruction per cycle, greedy-then-oldest (keep issuing the
// same warp while it is ready, else the oldest ready warp).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/cta.h"
#include "sim/cycles.h"

namespace tcsim::sim {

class Partition;
class TensorCore;
namespace tma {
class TmaEngine;
}

class Sm {
 public:
  Sm(Partition& part, uint32_t id);
  ~Sm();

  uint32_t id() const { return id_; }
  Partition& partition() const { return *part_; }
  bool can_fit(uint32_t threads, uint32_t smem) const;
  uint32_t resident() const { return static_cast<uint32_t>(ctas_.size()); }
  Cta& launch(const LaunchState& L, Dim3 ctaid, uint32_t linear_id, Cycles now);
  // Issues up to one instruction per sub-partition at `now`; returns how many were issued.
  uint32_t step(Cycles now);
  // Earliest cycle > now at which some warp may issue (never when all wait on barriers/events).
  Cycles next_ready(Cycles now) const;
  bool idle() const { return ctas_.empty(); }
  // Removes finished CTAs; returns their finish cycles (for the launch's end time).
  void retire(std::vector<Cycles>& finished, uint64_t* thread_instructions);
  std::vector<std::unique_ptr<Cta>>& ctas() { return ctas_; }
  // The SM's tensor core and Tensor Memory (sim/units/tensor_core.h), created on first use.
  TensorCore& tensor_core();
  TensorCore* tensor_core_if_used() const { return tc_.get(); }
  // The SM's TMA / bulk-copy engine (sim/units/tma_engine.h), created on first use.
  tma::TmaEngine& tma();

 private:
  struct Sub {
    std::vector<Warp*> warps;  // in launch order (oldest first)
    size_t greedy = 0;
    uint32_t streak = 0;       // consecutive issues of the greedy warp
  };
  // Greedy-then-oldest with a cap: after this many consecutive issues of one warp while another
  // warp of the sub-partition is ready, the oldest other ready warp issues (a warp polling an
  // mbarrier with test_wait must not starve the warp that would complete it).
  static constexpr uint32_t kGreedyLimit = 64;
  Partition* part_;
  uint32_t id_;
  std::vector<std::unique_ptr<Cta>> ctas_;
  // Retired CTAs whose cluster still runs: their SM resources are free, their shared memory stays
  // reachable for late peer accesses (sim/cluster.h, docs/cluster_lifetime.md).
  std::vector<std::unique_ptr<Cta>> retired_;
  std::array<Sub, 4> subs_;
  uint32_t threads_used_ = 0, smem_used_ = 0;
  std::unique_ptr<TensorCore> tc_;
  std::unique_ptr<tma::TmaEngine> tma_;
};

}  // namespace tcsim::sim
