// Shared-memory addresses to bytes (PTX ISA §5.1.7 "Distributed shared memory"): the one place
// that decodes the 32-bit shared address every instruction takes or returns. The encoding is the
// hardware's (models/machine/shared_memory.h: rank in bits 24..31, offset below), so a CTA's own
// addresses carry its own rank:
//   * a .shared::cta (or plain .shared) access must name the executing CTA: another rank in the
//     address is an error (the H200 raises an illegal-instruction error: smem_probe m0/m1/m4/m6/m8);
//   * a .shared::cluster or generic access names any CTA of the cluster by its rank (a rank outside
//     the cluster is an error: the H200 fails the launch, smem_probe m3);
// and every remote access is recorded for the DSMEM exit check (Cluster::note_access); an access to
// a CTA that already exited is an error here.
#pragma once
#include <cstdint>

#include <fmt/format.h>

#include "models/machine/shared_memory.h"
#include "sim/address_space.h"
#include "sim/checker/race.h"
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

// The 32-bit shared address in a generic address of the shared window (cvta.to.shared: the low 32
// bits, SR_SWINHI being the high ones) and back (cvta.shared).
inline uint32_t generic_to_shared(uint64_t generic) { return static_cast<uint32_t>(generic - addr::kSharedWindow); }
inline uint64_t shared_to_generic(uint32_t shared) { return addr::kSharedWindow + shared; }

inline void fail_not_shared(ExecCtx& c, int lane, uint64_t addr, const char* what) {
  c.fail(lane, fmt::format("{}: 0x{:x} is not a shared-memory address (shared addresses are 32-bit: the cluster rank "
                           "in bits 24-31, the offset below; from cvta.to.shared, mapa or a shared variable)",
                           what, addr));
}

// `addr`: a .shared::cluster address (or the shared address of a generic one). `what` names the
// access in messages ("st.shared::cluster").
inline SharedTarget resolve_cluster_shared(ExecCtx& c, int lane, uint64_t addr, const char* what) {
  Cluster& cl = c.cta->cluster();
  const uint32_t own = c.cta->cluster_rank();
  if (addr > 0xffffffffull) fail_not_shared(c, lane, addr, what);
  const uint32_t a = static_cast<uint32_t>(addr);
  const uint32_t rank = models::smem_rank(a), offset = models::smem_offset(a);
  if (rank == own) return {c.cta, offset, own, false};
  if (rank >= cl.size())
    c.fail(lane, fmt::format("{}: shared::cluster address 0x{:x} names CTA rank {}, but the cluster has {} CTA{} "
                             "(rank 0..{}; PTX ISA §9.7.9.23 mapa; the H200 fails the launch)", what, addr, rank,
                             cl.size(), cl.size() == 1 ? "" : "s", cl.size() - 1));
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
    return {t, offset, rank, true};
  }
  RemoteAccess ra;
  ra.valid = true;
  ra.epoch = cl.clock(own).t[own];
  ra.pc = c.prog->pc_of(*c.warp->current());
  ra.warp = c.warp->id();
  ra.lane = static_cast<uint32_t>(lane);
  ra.when = c.now;
  ra.what = what;
  cl.note_access(own, rank, std::move(ra));
  return {t, offset, rank, true};
}

// The bytes [addr, addr + size) of a .shared::cluster address of another CTA (bounds-checked there).
// --timing-only without TMA copies (sim/units/uncopied_smem.h): a generic read of bytes a tile load
// did not copy needs them (throws TimingOnlyNeedsCopies); a write makes them the program's.
inline void generic_smem_access(Cta& cta, uint32_t off, uint32_t size, bool pure_write) {
  if (pure_write) cta.uncopied().clear(off, size);
  else check_copied(cta.uncopied(), off, size, "a generic shared-memory load (ld, ldmatrix, atom, red)");
}

// `rmw`: the access reads the old bytes as well (atom, red).
inline uint8_t* remote_shared_ptr(ExecCtx& c, int lane, uint64_t addr, uint32_t size, bool write, bool rmw = false) {
  const SharedTarget t = resolve_cluster_shared(c, lane, addr, write ? "shared::cluster store" : "shared::cluster load");
  const uint64_t n = t.cta->smem_bytes();
  if (t.offset >= n || size > n - t.offset)
    c.fail(lane, fmt::format("out-of-bounds shared::cluster {} of {} bytes at offset 0x{:x} of {}: it has {} bytes "
                             "of shared memory", write ? "store" : "load", size, t.offset,
                             t.cta->cluster().cta_name(t.rank), n));
  // A peer's store: initialised bytes without a race history there (sim/checker/race.h).
  if (write) race::async_wrote(*t.cta, t.offset, size);
  if (c.launch->skip_tma_copies) generic_smem_access(*t.cta, t.offset, size, write && !rmw);
  return t.cta->shared() + t.offset;
}

// A .shared::cta address of the executing CTA: its offset. The address must carry the executing
// CTA's own rank (addresses of the CTA itself from mapa are exactly that: §5.1.7, the .shared::cta
// window is part of the .shared::cluster window).
inline uint32_t own_shared_offset(ExecCtx& c, int lane, uint64_t addr, const char* what) {
  if (addr > 0xffffffffull) fail_not_shared(c, lane, addr, what);
  const uint32_t a = static_cast<uint32_t>(addr), own = c.cta->cluster_rank();
  if (models::smem_rank(a) != own)
    c.fail(lane, fmt::format("{}: 0x{:x} is not an address in the executing CTA's .shared::cta window: its rank field "
                             "(bits 24-31) names CTA rank {}, the executing CTA is rank {} (a .shared::cta access "
                             "must carry the CTA's own rank; the H200 raises an illegal-instruction error; use "
                             ".shared::cluster to reach a peer: docs/shared_memory.md)",
                             what, addr, models::smem_rank(a), own));
  return models::smem_offset(a);
}

// The executing CTA's shared address of `offset` (what cvta.to.shared of its generic address and
// mov of a shared variable return).
inline uint32_t own_shared_address(const Cta& cta, uint32_t offset) {
  return models::smem_address(cta.cluster_rank(), offset);
}

}  // namespace tcsim::sim::mem
