#include "sim/memory/atomic_queue.h"

#include <algorithm>
#include <tuple>

namespace tcsim::sim {

void AtomicQueue::apply_all(std::span<AtomicQueue* const> queues, GlobalMemory& gm) {
  size_t n = 0;
  for (const AtomicQueue* q : queues) n += q->q_.size();
  if (n == 0) return;
  std::vector<const PendingAtomic*> all;
  all.reserve(n);
  for (const AtomicQueue* q : queues)
    for (const PendingAtomic& r : q->q_) all.push_back(&r);
  auto key = [](const PendingAtomic* r) { return std::tie(r->cycle, r->sm, r->cta, r->warp, r->lane); };
  std::stable_sort(all.begin(), all.end(), [&](const PendingAtomic* x, const PendingAtomic* y) { return key(x) < key(y); });
  for (const PendingAtomic* r : all) r->apply(gm, *r);
  for (AtomicQueue* q : queues) q->q_.clear();
}

}  // namespace tcsim::sim
