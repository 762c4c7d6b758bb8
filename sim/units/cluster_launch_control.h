// Cluster launch control (PTX ISA §9.7.13, clusterlaunchcontrol.try_cancel / query_cancel): a
// running CTA asks the launch to cancel a cluster that has not started yet and takes over its work.
//
// The machine: the launch dispatches clusters in a fixed order (linear cluster index, sim/launch.cc)
// as SMs free up; the clusters not yet dispatched are the pending queue. try_cancel takes the head
// of that queue, so the cluster never launches, and answers with the ctaid of its first CTA; when
// no cluster is pending it answers "not canceled".
//
// Determinism: partitions run a quantum in parallel, and the queue is shared, so a request is
// recorded in its partition (ClcQueue) and the launch resolves every partition's requests at the
// quantum boundary, serially, in (cycle, SM, CTA, warp, lane) order, before it dispatches new
// clusters (the same order rule as global read-modify-writes, sim/memory/rmw_log.h). The response lands
// kClcLatency after the request, at the earliest at the boundary: the 16 bytes are written into the
// requesting CTA's shared memory (.multicast::cluster::all: into every CTA of its cluster, at the
// same offset) and complete-tx of 16 bytes is performed on the mbarrier at the given offset of each
// of those CTAs. So the same launch assigns the same clusters to the same CTAs with any number of
// host threads.
//
// The response (PTX: opaque) in tcsim's encoding: bytes 0-3, 4-7, 8-11 the first ctaid's x, y, z,
// bytes 12-15 1 when the cluster was canceled, 0 when not (then x, y, z are 0).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "sim/cluster.h"
#include "sim/cycles.h"
#include "sim/dim3.h"

namespace tcsim::sim {

class Partition;

// Cycles from try_cancel to its response (assumed: the order of a round trip to the launch's
// scheduler; no measurement).
inline constexpr uint64_t kClcLatency = 200;

struct ClcRequest {
  // Order key.
  uint64_t cycle = 0;
  uint32_t sm = 0, cta = 0, warp = 0, lane = 0;
  // The request.
  CtaRef requester;
  uint32_t addr = 0;  // .shared::cta offset of the 16-byte response
  uint32_t mbar = 0;  // .shared::cta offset of the mbarrier
  bool multicast = false;
  uint32_t src = 0;  // Program::sources index
  Partition* part = nullptr;
};

struct ClcResponse {
  bool canceled = false;
  Dim3 first_ctaid{0, 0, 0};
};
void encode_clc_response(const ClcResponse& r, uint8_t out[16]);
ClcResponse decode_clc_response(uint64_t lo, uint64_t hi);

class ClcQueue {
 public:
  void push(const ClcRequest& r) { q_.push_back(r); }
  bool empty() const { return q_.empty(); }
  // Resolves the requests of all queues in order at the quantum boundary `boundary` (serial):
  // `take_next` cancels the next pending cluster and returns its first ctaid, or nothing. Posts the
  // responses into the requesting partitions' event queues, then clears the queues.
  static void resolve_all(std::span<ClcQueue* const> queues, Cycles boundary,
                          const std::function<std::optional<Dim3>()>& take_next);

 private:
  std::vector<ClcRequest> q_;
};

}  // namespace tcsim::sim
