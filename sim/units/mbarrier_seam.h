// Where tcgen05.commit meets the mbarrier unit (sim/units/mbarrier.h, PTX ISA §9.7.13.15): which
// CTA's mbarrier a .shared::cluster address names, and posting the arrive-on of a completed commit
// group to it (or, with .multicast::cluster, to the same offset in every CTA of ctaMask).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/cycles.h"

namespace tcsim::sim {

class Cta;
struct ExecCtx;

struct MbarrierTarget {
  uint32_t rank = 0;    // cluster rank of the CTA that owns the mbarrier
  uint32_t offset = 0;  // its .shared::cta offset
};

// Resolves a .shared::cluster (or generic, `generic`) mbarrier address of `lane`; fails naming
// `what` when it is not a shared-memory address of the cluster.
MbarrierTarget resolve_mbarrier(ExecCtx& c, int lane, uint64_t addr, bool generic, const char* what);

// At `when` (EventPriority::MbarrierUpdate), one arrive-on (count 1) on the target, or with
// `multicast` on offset t.offset in every CTA of the cluster whose rank is in `ranks`.
void post_mbarrier_arrivals(ExecCtx& c, int lane, const MbarrierTarget& t, bool multicast,
                            const std::vector<uint32_t>& ranks, Cycles when, uint32_t src, const char* what);

}  // namespace tcsim::sim
