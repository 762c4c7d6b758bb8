#include "sim/cluster_launch_control.h"

#include <algorithm>
#include <cstring>

#include "sim/cta.h"
#include "sim/partition.h"
#include "sim/units/mbarrier.h"

namespace tcsim::sim {

void grant_clc_requests(const std::vector<Partition*>& parts, uint32_t& next_cluster, uint32_t clusters_total,
                        Dim3 grid, Dim3 cluster, Cycles boundary) {
  struct Item {
    Cycles when;
    size_t part, seq;
  };
  std::vector<Item> order;
  for (size_t p = 0; p < parts.size(); ++p) {
    const auto& rs = parts[p]->clc_requests();
    for (size_t i = 0; i < rs.size(); ++i) order.push_back({rs[i].when, p, i});
  }
  if (order.empty()) return;
  std::sort(order.begin(), order.end(), [](const Item& a, const Item& b) {
    if (a.when != b.when) return a.when < b.when;
    if (a.part != b.part) return a.part < b.part;
    return a.seq < b.seq;
  });
  const Dim3 ncl{grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z};
  for (const Item& it : order) {
    Partition& part = *parts[it.part];
    ClcRequest& r = part.clc_requests()[it.seq];
    uint8_t resp[16] = {};
    if (next_cluster < clusters_total) {
      const uint32_t cl = next_cluster++;
      const uint32_t first[3] = {cl % ncl.x * cluster.x, cl / ncl.x % ncl.y * cluster.y,
                                 cl / (ncl.x * ncl.y) * cluster.z};
      std::memcpy(resp, first, 12);
      resp[12] = 1;
    }
    const Cycles at = max(r.when, boundary);
    const uint32_t n = r.multicast ? r.cta.cluster->size() : 1;
    for (uint32_t k = 0; k < n; ++k) {
      CtaRef target{r.cta.cluster, r.multicast ? k : r.cta.rank};
      const uint32_t off = r.addr;
      uint64_t lo, hi;
      std::memcpy(&lo, resp, 8);
      std::memcpy(&hi, resp + 8, 8);
      part.events().post(at, EventPriority::AsyncDataLand, [target, off, lo, hi](Cycles) {
        Cta* d = target.get();
        if (!d || d->done()) return;  // reported by the mbarrier event of this cycle
        std::memcpy(d->shared() + off, &lo, 8);
        std::memcpy(d->shared() + off + 8, &hi, 8);
      });
      post_mbarrier_complete_tx(part, at, target, r.mbar, 16, &r.release, r.what);
    }
  }
  for (Partition* p : parts) p->clc_requests().clear();
}

}  // namespace tcsim::sim
