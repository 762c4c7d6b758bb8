// What the TMA and bulk-copy engine keeps per CTA: the threads' bulk async-groups and the shadow of
// shared memory for the proxy checker. Created on first use (Cta::tma_state()).
#pragma once
#include "sim/checker/proxy.h"
#include "sim/units/async_groups.h"

namespace tcsim::sim::tma {

struct TmaCtaState {
  AsyncGroups groups;  // per thread (warp * 32 + lane)
  proxy::ProxyShadow proxy;
};

}  // namespace tcsim::sim::tma
