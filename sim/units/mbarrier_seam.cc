#include "sim/units/mbarrier_seam.h"

#include <fmt/format.h>

#include "sim/cluster.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/address_space.h"
#include "sim/memory/dsmem.h"
#include "sim/memory/shared_operand.h"
#include "sim/partition.h"
#include "sim/units/mbarrier.h"

namespace tcsim::sim {

// PTX ISA §9.7.16.12.1: the mbarrier operand of tcgen05.commit is a .shared::cluster address (or a
// generic address in the shared window); the hardware reads its low 32 bits whatever the form
// (sim/memory/shared_operand.h: the other kind is a finding); an address in no shared window is
// undefined behaviour: reported.
MbarrierTarget resolve_mbarrier(ExecCtx& c, int lane, uint64_t addr, bool generic, const char* what) {
  addr = mem::shared_operand(c, lane, addr, generic, what);
  const mem::SharedTarget t = mem::resolve_cluster_shared(c, lane, addr, what);
  return {t.rank, t.offset};
}

// The arrive-on of a completed commit group: one per target CTA, cluster scope, released with the
// issuing CTA's clock at issue (the waiter that observes the phase is ordered after the MMAs).
void post_mbarrier_arrivals(ExecCtx& c, int lane, const MbarrierTarget& t, bool multicast,
                            const std::vector<uint32_t>& ranks, Cycles when, uint32_t, const char* what) {
  Cluster& cl = c.cta->cluster();
  const VClock rel = cl.release(c.cta->cluster_rank());
  auto post = [&](uint32_t rank) {
    if (rank >= cl.size())
      c.fail(lane, fmt::format("{}: ctaMask names CTA rank {}, but the cluster has {} CTA{} (PTX ISA §9.7.16.12.1)",
                               what, rank, cl.size(), cl.size() == 1 ? "" : "s"));
    CtaRef target = c.cta->ref();
    target.rank = rank;
    post_mbarrier_arrive(*c.part, when, std::move(target), t.offset, 1, &rel, what);
  };
  if (!multicast) return post(t.rank);
  for (uint32_t r : ranks) post(r);
}

}  // namespace tcsim::sim
