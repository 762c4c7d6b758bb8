// The GPU-wide per-word queue of the L2's atomic units: atomics on one word from every SM are
// performed one after another (kernels/ubench/results/h200-2026-12-02-outliers, contend rows: one
// scalar f16 add on one word per ~312 cycles whether the contenders are one warp or 12 warps on 4
// SMs; memory rows red_global_same).
//
// Determinism (sim/README.md "Parallel determinism"): during a quantum each partition queues its
// atomics on its own copy of a word's queue (PartitionTiming::atom_word_free), which starts from
// this GPU-wide table (read-only during the quantum), and records each warp's batch
// (PartitionTiming::atom_queued). At the quantum boundary commit() replays every partition's
// batches in one global order (arrival cycle, SM, CTA, warp, lane, word) on this table, as
// RmwLog::commit_quantum (sim/memory/rmw_log.h) applies the same atomics' values in (cycle, SM,
// CTA, warp, lane) order, and makes each issuing thread group sleep until its batch's GPU-wide
// completion (Warp::extend_sleep): the group sleeps at least until the boundary (sim/exec/atomic.cc),
// so nothing has seen its result yet. The same cycles with any host-thread count.
#pragma once
#include <cstdint>
#include <span>
#include <unordered_map>

namespace tcsim::sim::timing {

struct PartitionTiming;

class AtomicWords {
 public:
  // The cycle the word's queue is free from, as of the last boundary (0: never used).
  uint64_t free_at(uint64_t key) const {
    const auto it = free_.find(key);
    return it == free_.end() ? 0 : it->second;
  }
  // The quantum boundary: replays the partitions' atom_queued batches (then clears them) and
  // writes the GPU-wide queue state back into each partition's atom_word_free. Runs serially.
  void commit(std::span<PartitionTiming* const> parts);

 private:
  std::unordered_map<uint64_t, uint64_t> free_;
};

}  // namespace tcsim::sim::timing
