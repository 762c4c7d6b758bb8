// A cooperative thread array resident on an SM: its shared memory, warps and the 16 CTA barriers.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/api.h"
#include "sim/cluster.h"
#include "sim/cycles.h"
#include "sim/units/mbarrier.h"
#include "sim/units/smem_origin.h"
#include "sim/units/uncopied_smem.h"
#include "sim/warp.h"

namespace tcsim::sim {

class Sm;
namespace tma {
struct TmaCtaState;  // sim/units/tma_cta_state.h
}
struct WgmmaState;    // sim/units/wgmma_unit.cc
struct CpAsyncState;  // sim/exec/cp_async.cc
struct RegPool;       // sim/exec/setmaxnreg.cc
namespace race {
class RaceState;     // sim/checker/race.h
}

enum class BarRedOp : uint8_t { None, Popc, And, Or };

// One of the 16 named CTA barriers (PTX ISA §9.7.13.1 "bar, barrier"). Arrival is counted per
// warp: a warp arrives once all of its non-exited threads have executed the barrier (possibly in
// different thread groups); the barrier completes when `expected` threads' warps (or, without a
// thread count, every warp that has not fully exited) have arrived. Exited threads release only
// barriers without a count (PTX ISA §9.7.12 exit); a count that includes exited threads is never met,
// as on the H200 (docs/barriers_and_exit.md): that ends in the deadlock report.
struct BarrierState {
  uint32_t expected_threads = 0;  // 0: all threads of the CTA
  uint32_t arrived_warps = 0;
  bool in_use = false;
  // bar.red (sim/exec/barrier.cc): the reduction of the arrived threads' predicates and, per
  // arrival, where its threads want the result once the barrier completes.
  struct RedDst {
    Warp* warp;
    uint32_t lanes;
    Ref dst;    // register slot (.popc.u32) or predicate index (.and/.or .pred)
    bool pred;
  };
  BarRedOp red_op = BarRedOp::None;
  uint32_t red_true = 0;   // threads whose predicate was true
  uint32_t red_total = 0;  // threads that contributed
  std::vector<RedDst> red_dsts;
};

class Cta {
 public:
  Cta(Sm& sm, const LaunchState& L, Dim3 ctaid, uint32_t linear_id, Cycles start);
  ~Cta();
  Cta(const Cta&) = delete;
  Cta& operator=(const Cta&) = delete;

  Sm& sm() const { return *sm_; }
  Dim3 ctaid() const { return ctaid_; }
  uint32_t linear_id() const { return linear_id_; }
  const LaunchState& launch() const { return *L_; }
  uint32_t cluster_rank() const { return cluster_rank_; }
  Dim3 cluster_ctaid() const { return cluster_ctaid_; }
  Dim3 cluster_id() const { return cluster_id_; }
  uint32_t num_threads() const { return num_threads_; }
  uint32_t smem_bytes() const { return static_cast<uint32_t>(shared_.size()); }
  uint8_t* shared() { return shared_.data(); }
  std::vector<std::unique_ptr<Warp>>& warps() { return warps_; }
  const std::vector<std::unique_ptr<Warp>>& warps() const { return warps_; }
  bool done() const { return live_warps_ == 0; }
  Cycles finished_at() const { return finished_; }
  std::string name() const;

  // The cluster this CTA belongs to (a cluster of one without a cluster launch) and a handle on
  // this CTA that stays safe after it retired (for events of asynchronous engines).
  void attach_cluster(std::shared_ptr<Cluster> c);
  Cluster& cluster() const { return *cluster_; }
  CtaRef ref() const { return CtaRef{cluster_, cluster_rank_}; }
  // The CTA's mbarrier objects (sim/units/mbarrier.h).
  MbarrierUnit& mbarriers() { return mbarriers_; }
  const MbarrierUnit& mbarriers() const { return mbarriers_; }
  // Where TMA-loaded shared-memory bytes came from (sim/units/smem_origin.h), created on first use.
  SmemOrigin& smem_origin() {
    if (!smem_origin_) smem_origin_ = std::make_shared<SmemOrigin>();
    return *smem_origin_;
  }
  const SmemOrigin* smem_origin_if_any() const { return smem_origin_.get(); }
  // Bytes a --timing-only TMA tile load did not copy (sim/units/uncopied_smem.h).
  UncopiedSmem& uncopied() { return uncopied_; }
  const UncopiedSmem& uncopied() const { return uncopied_; }

  // Lanes of `w` arrive at barrier b (expected: thread count operand, 0 = all). Returns false and
  // sets *error when threads disagree on the count.
  void arrive(Warp& w, int b, uint32_t lanes, uint32_t expected, Cycles now);
  // bar.red: `lanes` of `w` contribute their predicates (`true_lanes`) to barrier b's reduction and
  // want the result in `dst` when it completes; called just before they arrive (PTX ISA §9.7.13.1).
  void add_reduction(Warp& w, int b, BarRedOp op, uint32_t lanes, uint32_t true_lanes, Ref dst, bool pred);
  // Lanes of `w` exited: barriers they no longer block may complete; the CTA may finish.
  void on_exit(Warp& w, Cycles now);
  // Text for deadlock reports: each barrier in use and who waits on it.
  std::string describe_barriers(const Program& prog, const LaunchState& L) const;
  // The CTA barriers in use, one line each, without the CTA's name ("barrier 0: 3 of 6 warps
  // arrived (...)"), and the cluster barrier's line in the lowest-ranked resident CTA of a cluster.
  std::vector<std::string> barrier_lines() const;
  // State of the TMA / bulk-copy engines and the proxy checker for this CTA (created on first use;
  // sim/units/tma_cta_state.h).
  tma::TmaCtaState& tma_state();

  // Per-CTA state of asynchronous units and pools, created by the owning unit on first use (a
  // shared_ptr, so this header needs only their declarations; events hold weak references).
  std::shared_ptr<WgmmaState> wgmma;      // warpgroups' wgmma queues and groups
  std::shared_ptr<CpAsyncState> cp_async; // per-thread cp.async groups
  std::shared_ptr<RegPool> reg_pool;      // setmaxnreg's per-CTA register pool
  std::shared_ptr<race::RaceState> race;  // the shared-memory race detector's clocks and shadow
  // clusterlaunchcontrol (sim/exec/clusterlaunchcontrol.cc): the CTA decoded a failed response.
  bool clc_failure_observed = false;

 private:
  void check_warp_arrival(Warp& w, int b, Cycles now);
  void check_complete(int b, Cycles now);
  void deliver_reduction(const BarrierState& bs);
  uint32_t warps_not_exited() const;

  Sm* sm_;
  const LaunchState* L_;
  Dim3 ctaid_;
  uint32_t linear_id_;
  Dim3 cluster_id_, cluster_ctaid_;
  uint32_t cluster_rank_ = 0;
  uint32_t num_threads_;
  std::vector<uint8_t> shared_;
  std::vector<std::unique_ptr<Warp>> warps_;
  std::array<BarrierState, 16> bars_{};
  Cycles bar_unit_free_;  // the CTA barrier unit's next free cycle (sim/timing: bar.arrive_interval)
  uint32_t live_warps_ = 0;
  Cycles finished_;
  std::shared_ptr<Cluster> cluster_;
  MbarrierUnit mbarriers_{*this};
  std::vector<uint32_t> exited_seen_;  // per warp: lanes whose exit the cluster barrier has counted
  std::shared_ptr<SmemOrigin> smem_origin_;
  UncopiedSmem uncopied_;
  std::shared_ptr<tma::TmaCtaState> tma_;  // shared_ptr: deletable where the type is incomplete
};

}  // namespace tcsim::sim
