#include "sim/checker/global_race.h"
#include "sim/checker/race.h"
#include "sim/cluster.h"

#include <fmt/format.h>

#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/partition.h"
#include "sim/program.h"
#include "sim/timing/model.h"
#include "sim/warp.h"

namespace tcsim::sim {

Cluster::Cluster(Dim3 id, Dim3 shape) : id_(id), shape_(shape), size_(static_cast<uint32_t>(shape.count())) {
  exited_at_.fill(Cycles::never());
}

void Cluster::attach(uint32_t rank, Cta* c) {
  ctas_[rank] = c;
  threads_[rank] = c->num_threads();
  warps_[rank] = static_cast<uint32_t>(c->warps().size());
  bar_live_ += c->num_threads();
  arrived_in_[rank].assign(size_t{warps_[rank]} * 32, 0);
  vc_[rank].t[rank] = 1;  // epoch 1: accesses before the first release are not yet covered
}

std::string Cluster::cta_name(uint32_t rank) const {
  const Dim3 in{rank % shape_.x, (rank / shape_.x) % shape_.y, rank / (shape_.x * shape_.y)};
  return fmt::format("CTA ({},{},{}) (rank {} of cluster ({},{},{}))", id_.x * shape_.x + in.x,
                     id_.y * shape_.y + in.y, id_.z * shape_.z + in.z, rank, id_.x, id_.y, id_.z);
}

VClock Cluster::release(uint32_t rank) {
  VClock c = vc_[rank];
  ++vc_[rank].t[rank];
  return c;
}

void Cluster::note_access(uint32_t from, uint32_t to, RemoteAccess a) {
  RemoteAccess& r = accesses_[to][from];
  if (!r.valid || a.epoch >= r.epoch) r = std::move(a);
}

Dim3 Cluster::ctaid_of(uint32_t rank) const {
  const Dim3 in{rank % shape_.x, (rank / shape_.x) % shape_.y, rank / (shape_.x * shape_.y)};
  return {id_.x * shape_.x + in.x, id_.y * shape_.y + in.y, id_.z * shape_.z + in.z};
}

bool Cluster::any_running() const {
  for (uint32_t r = 0; r < size_; ++r)
    if (ctas_[r] && !ctas_[r]->done()) return true;
  return false;
}

void Cluster::on_cta_exit(uint32_t rank, Cycles now, const LaunchState& L, Partition& part) {
  exited_at_[rank] = now;
  for (uint32_t from = 0; from < size_; ++from) {
    const RemoteAccess& a = accesses_[rank][from];
    if (from == rank || !a.valid || vc_[rank].t[from] >= a.epoch) continue;
    Origin who;
    who.src = a.pc < L.prog->code.size() ? L.prog->code[a.pc].src : kNoSite;
    who.cta = ctaid_of(from);
    who.warp = static_cast<int>(a.warp);
    who.lane = static_cast<int>(a.lane);
    part.findings().add(Rule::DsmemExitUnordered, a.when, who, kNoSite, 0, [&] {
      return fmt::format("{} exits at cycle {} while this {} of its shared memory by {} (cycle {}) is not ordered "
                         "before the exit: no barrier.cluster, or mbarrier release and acquire, between them. The GPU "
                         "performs the access (docs/cluster_lifetime.md); so does tcsim",
                         cta_name(rank), now.count(), a.what, cta_name(from), a.when.count());
    });
  }
}

// The cluster's key for the global race detector's barrier.cluster edge (sim/checker/global_race.h).
uint64_t Cluster::cluster_key() const {
  return uint64_t{id_.x} | uint64_t{id_.y} << 20 | uint64_t{id_.z} << 40;
}

uint32_t Cluster::thread_index(uint32_t rank, const Warp& w, int lane) const {
  (void)rank;
  return w.id() * 32 + static_cast<uint32_t>(lane);
}

void Cluster::barrier_arrive(uint32_t rank, Warp& w, uint32_t lanes, Cycles now) {
  std::vector<uint32_t>& arr = arrived_in_[rank];
  for (uint32_t m = lanes; m; m &= m - 1) {
    const int lane = __builtin_ctz(m);
    uint32_t& a = arr[thread_index(rank, w, lane)];
    if (a != 0)
      throw SimFault(lane, fmt::format(
          "barrier.cluster.arrive: this thread already arrived in phase {} of the cluster barrier and has not "
          "executed barrier.cluster.wait since; each thread arrives once per phase and waits before arriving "
          "again (PTX ISA §9.7.13.3)", a - 1));
    a = bar_phase_ + 1;
    ++bar_arrived_;
  }
  bar_accum_.join(release(rank));
  if (Cta* c = ctas_[rank]) global_race::cluster_arrived(*c, cluster_key());
  barrier_check_complete(now);
}

int64_t Cluster::barrier_wait_phase(uint32_t rank, const Warp& w, int lane) const {
  const uint32_t a = arrived_in_[rank][thread_index(rank, w, lane)];
  return a == 0 ? -1 : int64_t{a} - 1;
}

void Cluster::barrier_waited(uint32_t rank, const Warp& w, uint32_t lanes) {
  for (uint32_t m = lanes; m; m &= m - 1) arrived_in_[rank][thread_index(rank, w, __builtin_ctz(m))] = 0;
  acquire(rank, bar_done_);
  // The race detector: an edge through the whole cluster acquires everything the CTA did so far
  // (sim/checker/race.h).
  if (Cta* c = ctas_[rank]) {
    race::acquire_all(*c, w.id());
    global_race::cluster_waited(*c, cluster_key());  // and the cluster's CTAs on global memory
  }
}

void Cluster::on_lanes_exit(uint32_t rank, Warp& w, uint32_t lanes, Cycles now) {
  for (uint32_t m = lanes; m; m &= m - 1) {
    uint32_t& a = arrived_in_[rank][thread_index(rank, w, __builtin_ctz(m))];
    if (a == bar_phase_ + 1) --bar_arrived_;
    a = 0;
    --bar_live_;
  }
  barrier_check_complete(now);
}

void Cluster::barrier_check_complete(Cycles now) {
  if (bar_arrived_ == 0 || bar_arrived_ < bar_live_) return;
  ++bar_phase_;
  bar_arrived_ = 0;
  bar_done_ = bar_accum_;
  bar_accum_ = VClock{};
  // Wake every thread waiting for the phase just completed (§9.7.13.3: wait returns once all
  // non-exited threads of the cluster arrived).
  for (uint32_t r = 0; r < size_; ++r) {
    Cta* c = ctas_[r];
    if (!c) continue;
    for (auto& w : c->warps()) {
      const Cycles ready = now + Cycles(static_cast<uint64_t>(c->launch().timing->p.cluster_barrier_latency));
      const uint32_t woke = w->wake_waiters(GroupState::AtClusterBarrier, 0, bar_phase_, ready);
      if (woke) barrier_waited(r, *w, woke);
    }
  }
}

std::string Cluster::describe_barrier() const {
  if (bar_arrived_ == 0) return {};
  return fmt::format("barrier.cluster of cluster ({},{},{}): phase {}, {} of {} non-exited threads arrived", id_.x,
                     id_.y, id_.z, bar_phase_, bar_arrived_, bar_live_);
}

}  // namespace tcsim::sim
