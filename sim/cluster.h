// A cluster of CTAs (PTX ISA §2.2.2 "Cluster of Cooperative Thread Arrays"): the CTAs of one
// cluster are dispatched together onto SMs of one GPC (sim/launch.cc), so they live in one
// simulation partition and may touch each other's shared memory (distributed shared memory,
// PTX ISA §5.1.7) without crossing host threads.
//
// The Cluster object holds
//   * rank -> resident CTA (nullptr once the CTA retired: events and peers holding a CtaRef see it);
//   * the barrier.cluster state (PTX ISA §9.7.13.3): one phase counter for the whole cluster, the
//     phase each thread arrived in, and the count of non-exited threads that arrived;
//   * the ordering clocks of the DSMEM exit check: a peer's access to a CTA's shared memory should
//     be ordered before that CTA's exit (docs/cluster_lifetime.md). Each CTA carries a vector clock
//     over the ranks (one component per CTA: this check works at CTA granularity); arrivals on
//     mbarriers (also the complete_tx of async copies) and on barrier.cluster release it, waits
//     that observe a completed phase acquire it; every remote access records the accessing CTA's
//     epoch; at a CTA's exit each recorded access must be covered by the exiting CTA's clock. One
//     that is not is the finding `dsmem-exit-unordered` (sim/report/rules.def), as is an access to
//     a CTA that already exited: the GPU runs such kernels, so tcsim performs the access on the
//     exited CTA's shared memory, which it keeps (Sm::retire) until no CTA of the cluster runs.
//
// Shared::cluster addresses carry the owning CTA's rank in bits 24..31, the hardware's encoding
// (models/machine/shared_memory.h); sim/memory/dsmem.h decodes them.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/api.h"
#include "sim/cycles.h"

namespace tcsim::sim {

class Cta;
class Partition;
class Warp;
struct LaunchState;

inline constexpr uint32_t kMaxClusterCtas = 16;          // ctaMask is 16 bits (§9.7.9.25.5.2)
// A vector clock over the ranks of a cluster (happens-before at CTA granularity).
struct VClock {
  std::array<uint32_t, kMaxClusterCtas> t{};
  void join(const VClock& o) {
    for (uint32_t i = 0; i < kMaxClusterCtas; ++i) t[i] = t[i] < o.t[i] ? o.t[i] : t[i];
  }
};

// The last access of one CTA to a peer's shared memory (for the exit check's report).
struct RemoteAccess {
  bool valid = false;
  uint32_t epoch = 0;     // the accessing CTA's own clock component at the access
  uint32_t pc = 0;        // instruction (Program::code index); kNoPc for an async engine
  uint32_t warp = 0, lane = 0;
  Cycles when;
  std::string what;       // "st.shared::cluster", "st.async", ...
};
inline constexpr uint32_t kNoPc = 0xffffffffu;

class Cluster {
 public:
  Cluster(Dim3 id, Dim3 shape);

  Dim3 id() const { return id_; }
  uint64_t cluster_key() const;
  Dim3 shape() const { return shape_; }
  uint32_t size() const { return size_; }
  // The resident CTA of `rank` (nullptr after it retired).
  Cta* cta(uint32_t rank) const { return rank < size_ ? ctas_[rank] : nullptr; }
  void attach(uint32_t rank, Cta* c);
  // The CTA of `rank` retired from its SM (retired: kept by its SM while peers run, so that late
  // accesses to its shared memory find it: exited_cta()) or was destroyed (nullptr).
  void detach(uint32_t rank, Cta* retired = nullptr) {
    ctas_[rank] = nullptr;
    exited_[rank] = retired;
  }
  // The retired CTA of `rank` still kept, or nullptr.
  Cta* exited_cta(uint32_t rank) const { return rank < size_ ? exited_[rank] : nullptr; }
  // Whether some CTA of the cluster is resident and has not exited.
  bool any_running() const;
  // Grid coordinates of the CTA of `rank`.
  Dim3 ctaid_of(uint32_t rank) const;
  // Exit cycle of a rank whose threads have all exited (never: still running).
  Cycles exited_at(uint32_t rank) const { return exited_at_[rank]; }
  std::string cta_name(uint32_t rank) const;

  // ---- ordering clocks (see the file comment) ----
  VClock& clock(uint32_t rank) { return vc_[rank]; }
  // `rank` releases: the returned clock goes into the synchronisation object, then its epoch advances.
  VClock release(uint32_t rank);
  void acquire(uint32_t rank, const VClock& c) { vc_[rank].join(c); }
  // A remote access by `from` into `to`'s shared memory.
  void note_access(uint32_t from, uint32_t to, RemoteAccess a);
  // Called when every thread of `rank` has exited: each peer access not ordered before the exit is
  // a finding (dsmem-exit-unordered) in `part`.
  void on_cta_exit(uint32_t rank, Cycles now, const LaunchState& L, Partition& part);

  // ---- barrier.cluster (PTX ISA §9.7.13.3) ----
  uint32_t barrier_phase() const { return bar_phase_; }  // phases completed
  // Lanes `lanes` of warp `w` (CTA `rank`) arrive. Throws SimFault when a lane arrives twice in
  // one phase (it must wait first).
  void barrier_arrive(uint32_t rank, Warp& w, uint32_t lanes, Cycles now);
  // The phase lane `lane` of warp `w` waits for (its arrival phase), or -1 when it has not arrived.
  int64_t barrier_wait_phase(uint32_t rank, const Warp& w, int lane) const;
  // A wait of these lanes returned: they may arrive again.
  void barrier_waited(uint32_t rank, const Warp& w, uint32_t lanes);
  // Lanes of `w` exited: they no longer count; the phase may complete.
  void on_lanes_exit(uint32_t rank, Warp& w, uint32_t lanes, Cycles now);
  std::string describe_barrier() const;

 private:
  void barrier_check_complete(Cycles now);
  uint32_t thread_index(uint32_t rank, const Warp& w, int lane) const;

  Dim3 id_, shape_;
  uint32_t size_;
  std::array<Cta*, kMaxClusterCtas> ctas_{};
  std::array<Cta*, kMaxClusterCtas> exited_{};
  std::array<Cycles, kMaxClusterCtas> exited_at_;
  std::array<VClock, kMaxClusterCtas> vc_{};
  // accesses_[to][from]: the latest access of `from` into `to`.
  std::array<std::array<RemoteAccess, kMaxClusterCtas>, kMaxClusterCtas> accesses_{};
  // barrier.cluster
  uint32_t bar_phase_ = 0;
  uint32_t bar_arrived_ = 0;           // non-exited threads arrived in the current phase
  uint32_t bar_live_ = 0;              // non-exited threads of the cluster
  VClock bar_accum_, bar_done_;        // release clocks of the current / last completed phase
  std::array<std::vector<uint32_t>, kMaxClusterCtas> arrived_in_{};  // per thread: phase + 1, 0 = none
  std::array<uint32_t, kMaxClusterCtas> threads_{};
  std::array<uint32_t, kMaxClusterCtas> warps_{};
};

// A handle on a CTA that stays safe after the CTA retired (get() returns nullptr then): what
// events of asynchronous engines capture.
struct CtaRef {
  std::shared_ptr<Cluster> cluster;
  uint32_t rank = 0;
  Cta* get() const { return cluster ? cluster->cta(rank) : nullptr; }
};

}  // namespace tcsim::sim
