#include "sim/memory/rmw_log.h"

#include <algorithm>
#include <tuple>

#include "sim/memory/global_memory.h"
#include "sim/memory/store_overlay.h"

namespace tcsim::sim {

void apply_elem(GlobalMemory& gm, const RmwRecord& r) {
  uint8_t operand[8];
  std::memcpy(operand, r.b, sizeof operand);
  rmw::apply(r.elem, gm.host(r.addr), operand);
  gm.mark_initialised(r.addr, rmw::type_bytes(r.elem.type));
}

void RmwLog::commit_quantum(std::span<StoreOverlay* const> overlays, std::span<RmwLog* const> logs,
                            GlobalMemory& gm) {
  // 1. A reduction whose bytes a later plain store of its partition overwrote is gone.
  for (size_t i = 0; i < logs.size() && i < overlays.size(); ++i)
    std::erase_if(logs[i]->q_, [&](const RmwRecord& r) {
      return r.in_overlay && overlays[i]->dirty(r.addr, rmw::type_bytes(r.elem.type));
    });
  // 2. Plain stores, in partition order.
  for (StoreOverlay* o : overlays) o->commit(gm);
  // 3. Every read-modify-write in (cycle, SM, CTA, warp, lane) order.
  size_t n = 0;
  for (const RmwLog* l : logs) n += l->q_.size();
  if (n == 0) return;
  std::vector<const RmwRecord*> all;
  all.reserve(n);
  for (const RmwLog* l : logs)
    for (const RmwRecord& r : l->q_) all.push_back(&r);
  auto key = [](const RmwRecord* r) { return std::tie(r->cycle, r->sm, r->cta, r->warp, r->lane); };
  std::stable_sort(all.begin(), all.end(), [&](const RmwRecord* x, const RmwRecord* y) { return key(x) < key(y); });
  for (const RmwRecord* r : all) r->apply(gm, *r);
  for (RmwLog* l : logs) l->q_.clear();
}

}  // namespace tcsim::sim
