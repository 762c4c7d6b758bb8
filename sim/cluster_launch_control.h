// Cluster launch control (PTX ISA §9.7.13.17 clusterlaunchcontrol.try_cancel): the requests a
// partition's CTAs issue during a quantum, and their granting at the quantum boundary, where the
// launch knows which clusters have not been dispatched (sim/launch.cc). The instruction is
// sim/exec/cluster_launch_control.cc.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cluster.h"
#include "sim/cycles.h"
#include "sim/dim3.h"

namespace tcsim::sim {

class Partition;

// Functional latency of a try_cancel request (assumed; no measurement: B200 only).
inline constexpr Cycles kClcLatency{64};

struct ClcRequest {
  Cycles when;          // earliest cycle the response may land
  CtaRef cta;           // the requesting CTA
  uint32_t addr = 0;    // .shared::cta offset of the 16-byte response
  uint32_t mbar = 0;    // .shared::cta offset of the mbarrier
  bool multicast = false;
  VClock release;       // the requesting CTA's clock at issue (DSMEM exit check)
  std::string what;     // for mbarrier faults
};

// Grants the requests of every partition, in (cycle, partition, issue) order: each takes the next
// cluster `next_cluster` (linear cluster order) while one is left, which then never launches, else
// fails. Posts the response and the complete-tx of 16 bytes at max(request cycle, `boundary`) on the
// requesting partition's event queue and clears the requests.
void grant_clc_requests(const std::vector<Partition*>& parts, uint32_t& next_cluster, uint32_t clusters_total,
                        Dim3 grid, Dim3 cluster, Cycles boundary);

}  // namespace tcsim::sim
