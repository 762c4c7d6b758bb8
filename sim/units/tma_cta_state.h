// What the TMA and bulk-copy engines keep per CTA: the threads' bulk async-groups, the shadow of
// shared memory for the proxy checker, and counters of the hint-only operations (prefetches, L2
// cache hints), which have no effect on data but are recorded. Created on first use
// (Cta::tma_state()).
#pragma once
#include <cstdint>

#include "sim/checker/proxy.h"
#include "sim/units/bulk_copy_group.h"

namespace tcsim::sim::tma {

struct TmaCtaState {
  BulkGroups groups;
  proxy::ProxyShadow proxy;
  uint64_t prefetches = 0;        // prefetch.tensormap, cp.async.bulk.prefetch{.tensor} issued
  uint64_t l2_hinted_copies = 0;  // copies issued with .L2::cache_hint (the policy is a hint only)
  uint64_t last_l2_policy = 0;    // the last such policy operand
};

}  // namespace tcsim::sim::tma
