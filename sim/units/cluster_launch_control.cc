#include "sim/checker/race.h"
#include "sim/units/cluster_launch_control.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <tuple>

#include <fmt/format.h>

#include "sim/cta.h"
#include "sim/partition.h"
#include "sim/units/mbarrier.h"

namespace tcsim::sim {

void encode_clc_response(const ClcResponse& r, uint8_t out[16]) {
  const uint32_t w[4] = {r.canceled ? r.first_ctaid.x : 0u, r.canceled ? r.first_ctaid.y : 0u,
                         r.canceled ? r.first_ctaid.z : 0u, r.canceled ? 1u : 0u};
  std::memcpy(out, w, 16);
}

ClcResponse decode_clc_response(uint64_t lo, uint64_t hi) {
  ClcResponse r;
  r.canceled = (hi >> 32) & 1;
  r.first_ctaid = {static_cast<uint32_t>(lo), static_cast<uint32_t>(lo >> 32), static_cast<uint32_t>(hi)};
  return r;
}

void ClcQueue::resolve_all(std::span<ClcQueue* const> queues, Cycles boundary,
                           const std::function<std::optional<Dim3>()>& take_next) {
  std::vector<ClcRequest> all;
  for (ClcQueue* q : queues) {
    all.insert(all.end(), q->q_.begin(), q->q_.end());
    q->q_.clear();
  }
  if (all.empty()) return;
  std::sort(all.begin(), all.end(), [](const ClcRequest& a, const ClcRequest& b) {
    return std::tie(a.cycle, a.sm, a.cta, a.warp, a.lane) < std::tie(b.cycle, b.sm, b.cta, b.warp, b.lane);
  });
  for (const ClcRequest& r : all) {
    ClcResponse resp;
    if (std::optional<Dim3> first = take_next()) {
      resp.canceled = true;
      resp.first_ctaid = *first;
    }
    uint8_t bytes[16];
    encode_clc_response(resp, bytes);
    const Cycles when = max(boundary, Cycles(r.cycle + kClcLatency));
    // The CTAs that get the response: the requester, or (.multicast::cluster::all) its cluster.
    std::vector<CtaRef> targets;
    if (!r.multicast) {
      targets.push_back(r.requester);
    } else if (const Cta* self = r.requester.get()) {
      for (uint32_t k = 0; k < self->cluster().size(); ++k) targets.push_back(CtaRef{r.requester.cluster, k});
    }
    const std::string what = fmt::format("clusterlaunchcontrol.try_cancel issued at cycle {}", r.cycle);
    for (const CtaRef& t : targets) {
      r.part->events().post(when, EventPriority::AsyncDataLand, [t, addr = r.addr, b = std::array<uint8_t, 16>{
                                                                                         bytes[0], bytes[1], bytes[2],
                                                                                         bytes[3], bytes[4], bytes[5],
                                                                                         bytes[6], bytes[7], bytes[8],
                                                                                         bytes[9], bytes[10], bytes[11],
                                                                                         bytes[12], bytes[13], bytes[14],
                                                                                         bytes[15]}](Cycles) {
        Cta* c = t.get();
        if (!c || c->done()) return;  // reported by the mbarrier event of this cycle
        std::memcpy(c->shared() + addr, b.data(), 16);
        c->uncopied().clear(addr, 16);
        race::async_wrote(*c, addr, 16);
      });
      post_mbarrier_complete_tx(*r.part, when, t, r.mbar, 16, nullptr, what);
    }
  }
}

}  // namespace tcsim::sim
