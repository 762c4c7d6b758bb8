#include "sim/timing/atomic_words.h"

#include <algorithm>
#include <tuple>
#include <vector>

#include "sim/timing/state.h"
#include "sim/warp.h"

namespace tcsim::sim::timing {

void AtomicWords::commit(std::span<PartitionTiming* const> parts) {
  std::vector<const AtomQueued*> all;
  for (const PartitionTiming* p : parts)
    for (const AtomQueued& a : p->atom_queued) all.push_back(&a);
  if (all.empty()) return;
  auto key = [](const AtomQueued* a) { return std::tie(a->arrive, a->sm, a->cta, a->warp, a->lane, a->key); };
  std::stable_sort(all.begin(), all.end(), [&](const AtomQueued* x, const AtomQueued* y) { return key(x) < key(y); });
  for (const AtomQueued* a : all) {
    uint64_t& free = free_[a->key];
    const uint64_t start = std::max(a->arrive, free);
    free = start + a->busy;
    // The group's old values return `tail` cycles after the word's queue has performed its batch.
    a->w->extend_sleep(a->lane, Cycles(free + a->tail));
  }
  for (PartitionTiming* p : parts) {
    for (const AtomQueued& a : p->atom_queued) p->atom_word_free[a.key] = free_[a.key];
    p->atom_queued.clear();
  }
}

}  // namespace tcsim::sim::timing
