// Distributed shared memory (PTX ISA §5.1.7): resolving a .shared::cluster address (or a generic
// address in the shared window) to the CTA of the cluster that owns it and the .shared::cta offset
// inside that CTA (encoding: sim/cluster.h). Every remote access is recorded for the DSMEM exit
// check (Cluster::note_access); an access to a CTA that already exited is an error here.
#pragma once
#include <cstdint>

#include <fmt/format.h>

#include "sim/cluster.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/report/report.h"
#include "sim/warp.h"

namespace tcsim::sim::mem {

struct SharedTarget {
  Cta* cta = nullptr;
  uint32_t offset = 0;
  uint32_t rank = 0;     // cluster rank of `cta`
  bool remote = false;   // another CTA than the executing one
};

// `addr`: a .shared::cluster address. `what` names the access in messages ("st.shared::cluster").
inline SharedTarget resolve_cluster_shared(ExecCtx& c, int lane, uint64_t addr, const char* what) {
  Cluster& cl = c.cta->cluster();
  const uint32_t own = c.cta->cluster_rank();
  if (addr > 0xffffffffull)
    c.fail(lane, fmt::format("{}: 0x{:x} is not a shared-memory address (.shared::cluster addresses are 32-bit "
                             "values obtained from mapa or cvta.shared)", what, addr));
  const ClusterAddr ca = split_cluster_addr(addr);
  if (ca.rank < 0 || static_cast<uint32_t>(ca.rank) == own) return {c.cta, ca.offset, own, false};
  const uint32_t rank = static_cast<uint32_t>(ca.rank);
  if (rank >= cl.size())
    c.fail(lane, fmt::format("{}: shared::cluster address 0x{:x} names CTA rank {}, but the cluster has {} CTA{} "
                             "(rank 0..{}; PTX ISA §9.7.9.23 mapa)", what, addr, rank, cl.size(),
                             cl.size() == 1 ? "" : "s", cl.size() - 1));
  Cta* t = cl.cta(rank);
  if (!t || t->done()) {
    // After the target's exit: unordered with it by definition (sim/cluster.h); the GPU runs such
    // kernels, so the access goes to the exited CTA's shared memory, kept while its cluster runs.
    if (!t) t = cl.exited_cta(rank);
    if (!t)
      c.fail(lane, fmt::format("{}: {} accesses the shared memory of {}, which exited at cycle {} and is gone", what,
                               cl.cta_name(own), cl.cta_name(rank),
                               cl.exited_at(rank).is_never() ? 0 : cl.exited_at(rank).count()));
    report(c, Rule::DsmemExitUnordered, lane, [&] {
      return fmt::format("{} accesses the shared memory of {}, which exited at cycle {}: nothing orders this {} before "
                         "that exit (barrier.cluster, or mbarrier release and acquire). The GPU performs the access "
                         "(docs/cluster_lifetime.md); so does tcsim",
                         cl.cta_name(own), cl.cta_name(rank), t->finished_at().count(), what);
    });
    return {t, ca.offset, rank, true};
  }
  RemoteAccess a;
  a.valid = true;
  a.epoch = cl.clock(own).t[own];
  a.pc = c.prog->pc_of(*c.warp->current());
  a.warp = c.warp->id();
  a.lane = static_cast<uint32_t>(lane);
  a.when = c.now;
  a.what = what;
  cl.note_access(own, rank, std::move(a));
  return {t, ca.offset, rank, true};
}

// The bytes [addr, addr + size) of a .shared::cluster address (bounds-checked in the owning CTA).
inline uint8_t* remote_shared_ptr(ExecCtx& c, int lane, uint64_t addr, uint32_t size, bool write) {
  const SharedTarget t = resolve_cluster_shared(c, lane, addr, write ? "shared::cluster store" : "shared::cluster load");
  const uint64_t n = t.cta->smem_bytes();
  if (t.offset >= n || size > n - t.offset)
    c.fail(lane, fmt::format("out-of-bounds shared::cluster {} of {} bytes at offset 0x{:x} of {}: it has {} bytes "
                             "of shared memory", write ? "store" : "load", size, t.offset,
                             t.cta->cluster().cta_name(t.rank), n));
  return t.cta->shared() + t.offset;
}

// A .shared::cta address of the executing CTA (addresses from mapa that name the executing CTA
// itself are accepted: the .shared::cta window is part of the .shared::cluster window, §5.1.7).
inline uint32_t own_shared_offset(ExecCtx& c, int lane, uint64_t addr, const char* what) {
  const ClusterAddr ca = addr <= 0xffffffffull ? split_cluster_addr(addr) : ClusterAddr{-2, 0};
  if (ca.rank == -1 || (ca.rank >= 0 && static_cast<uint32_t>(ca.rank) == c.cta->cluster_rank())) return ca.offset;
  c.fail(lane, fmt::format("{}: 0x{:x} is not an address in the executing CTA's .shared::cta window{}", what, addr,
                           ca.rank >= 0 ? fmt::format(" (it is a .shared::cluster address of CTA rank {})", ca.rank)
                                        : std::string()));
}

}  // namespace tcsim::sim::mem
