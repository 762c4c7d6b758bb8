// The global-memory race detector (`global-data-race`): two accesses of the same global bytes by
// different threads, at least one a write, not both morally strong (atomics, reductions,
// .relaxed/.acquire/.release/.volatile accesses, bulk reductions), not ordered by causality order
// (PTX ISA §8.7.1 "Conflict and data-races", §8.9.2 "Causality Order").
//
// Threads are tracked at two levels:
//   * across CTAs, the CTA is one clock (an epoch per CTA, a sparse vector clock over the CTAs it
//     synchronised with). The edges: a release (st.release, red/atom.release/.acq_rel, or a relaxed
//     strong store/atomic after the warp's fence.sc / fence.acq_rel / membar) publishes the CTA's
//     clock on the 4-byte location; an acquire (ld.acquire, atom.acquire/.acq_rel, or a relaxed
//     strong load/atomic followed by a fence of the same warp) joins every release published on it
//     (PTX ISA §8.8 "Release and Acquire Patterns"). Treating the CTA as one thread merges its warps'
//     histories: an edge one warp takes counts for the CTA (a missed report, never a false one).
//   * within a CTA, the warps' vector clocks of the shared-memory detector (sim/checker/race.h):
//     bar.sync, named barriers, mbarrier arrive/wait, barrier.cluster, release/acquire.
//   * barrier.cluster arrive (.release by default) / wait (.acquire) orders the cluster's CTAs
//     (PTX ISA §9.7.13.3 "barrier.cluster").
// Launch order: every launch starts with an empty shadow (earlier launches and host writes
// happen before it). TMA / bulk stores (cp.async.bulk[.tensor] global<-shared) count as writes of
// the issuing thread at issue (their completion before a release is cp.async.bulk.wait_group's job;
// a release that does not wait for it is not reported); bulk reductions as reductions.
//
// Determinism: during a quantum a partition checks against the committed shadow (read-only then)
// and its own accesses of the quantum; at the quantum boundary, serially in partition order, each
// partition's accesses are checked against those of the partitions merged before it (accesses of
// one quantum in different partitions cannot be ordered: nothing they publish is visible before the
// boundary) and merged. Releases are published the same way.
//
// Shadow: one entry per 4-byte word touched (last write, last read), in pages of 1024 words made on
// first touch; at most kMaxPages pages (16 MiB of touched global memory), after which new words are
// not tracked and `global-race-capped` says so once.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace tcsim::sim {
struct ExecCtx;
class Cta;
class Partition;
}  // namespace tcsim::sim

namespace tcsim::sim::global_race {

class State;

// A launch's detector (one per launch when checking): `partitions` slots, `grid` for CTA names.
std::unique_ptr<State, void (*)(State*)> make_state(uint32_t partitions, uint32_t gx, uint32_t gy);

// A generic global access (ld/st/atom/red, any lane) of [addr, addr + n) by `lane`.
void on_access(ExecCtx& c, int lane, uint64_t addr, uint32_t n, bool write);
// A TMA / bulk store (reduction: a bulk reduction) of [addr, addr + n) issued by `lane`.
void on_async_store(ExecCtx& c, int lane, uint64_t addr, uint64_t n, bool reduction);
// fence.sc / fence.acq_rel / membar by the executing warp.
void on_fence(ExecCtx& c);
// barrier.cluster: `cta` arrived (release) / waited (acquire) on the barrier of cluster `cluster_key`.
void cluster_arrived(Cta& cta, uint64_t cluster_key);
void cluster_waited(Cta& cta, uint64_t cluster_key);
// The quantum boundary: checks and merges each partition's accesses and releases, in order.
void commit_quantum(State& s, const std::vector<std::unique_ptr<Partition>>& parts);

}  // namespace tcsim::sim::global_race
