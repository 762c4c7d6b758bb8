// A cooperative thread array resident on an SM: its shared memory, warps and the 16 CTA barriers.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/api.h"
#include "sim/cycles.h"
#include "sim/warp.h"

namespace tcsim::sim {

class Sm;
struct WgmmaState;    // sim/units/wgmma_unit.h
struct CpAsyncState;  // sim/units/cp_async_unit.h
struct RegPool;       // sim/exec/setmaxnreg.cc

// One of the 16 named CTA barriers (PTX ISA §9.7.13.1 "bar, barrier"). Arrival is counted per
// warp: a warp arrives once all of its non-exited threads have executed the barrier (possibly in
// different thread groups); the barrier completes when `expected` threads' warps (or, without a
// thread count, every warp that has not fully exited) have arrived.
struct BarrierState {
  uint32_t expected_threads = 0;  // 0: all threads of the CTA
  uint32_t arrived_warps = 0;
  bool in_use = false;
};

class Cta {
 public:
  Cta(Sm& sm, const LaunchState& L, Dim3 ctaid, uint32_t linear_id, Cycles start);

  Sm& sm() const { return *sm_; }
  Dim3 ctaid() const { return ctaid_; }
  uint32_t linear_id() const { return linear_id_; }
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

  // Lanes of `w` arrive at barrier b (expected: thread count operand, 0 = all). Returns false and
  // sets *error when threads disagree on the count.
  void arrive(Warp& w, int b, uint32_t lanes, uint32_t expected, Cycles now);
  // Lanes of `w` exited: barriers they no longer block may complete; the CTA may finish.
  void on_exit(Warp& w, Cycles now);
  // Text for deadlock reports: each barrier in use and who waits on it.
  std::string describe_barriers(const Program& prog, const LaunchState& L) const;

  // Per-CTA state of asynchronous units and pools, created by the owning unit on first use (a
  // shared_ptr, so this header needs only their declarations; events hold weak references).
  std::shared_ptr<WgmmaState> wgmma;      // warpgroups' wgmma queues and groups
  std::shared_ptr<CpAsyncState> cp_async; // per-thread cp.async groups
  std::shared_ptr<RegPool> reg_pool;      // setmaxnreg's per-CTA register pool

 private:
  void check_warp_arrival(Warp& w, int b, Cycles now);
  void check_complete(int b, Cycles now);
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
  uint32_t live_warps_ = 0;
  Cycles finished_;
};

}  // namespace tcsim::sim
