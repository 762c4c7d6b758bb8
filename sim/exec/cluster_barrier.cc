// PTX ISA §9.7.13.3 barrier.cluster
//   barrier.cluster.arrive{.sem}{.aligned};    .sem = { .release (default), .relaxed }
//   barrier.cluster.wait{.acquire}{.aligned};
// Each thread arrives once per phase; wait blocks until every non-exited thread of the cluster
// arrived in the phase the waiting thread arrived in, then the thread may arrive again. The
// barrier re-arms itself. .aligned: all threads of the warp execute the same instruction (the
// simulator runs per thread either way). .release/.acquire order memory at cluster scope: tcsim's
// shared and global memory of a cluster is coherent at once (one partition), so the semantics
// only feed the DSMEM exit check's clocks (sim/cluster.h); .relaxed arrives still count.
// Bookkeeping: Cluster::barrier_* in sim/cluster.cc.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/cluster.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::Scope;
using isa::ptx::Sem;

void exec_arrive(ExecCtx& c, const ExecInstr&) {
  try {
    c.cta->cluster().barrier_arrive(c.cta->cluster_rank(), *c.warp, c.mask, c.now + Cycles(c.release));
  } catch (const SimFault& f) {
    c.fail(f.lane, f.what());
  }
}

void exec_wait(ExecCtx& c, const ExecInstr&) {
  Cluster& cl = c.cta->cluster();
  const uint32_t rank = c.cta->cluster_rank();
  uint32_t done = 0, waiting = 0;
  uint32_t phase = 0;
  for_lanes(c.mask, [&](int lane) {
    const int64_t p = cl.barrier_wait_phase(rank, *c.warp, lane);
    if (p < 0)
      c.fail(lane, fmt::format("barrier.cluster.wait without a preceding barrier.cluster.arrive of this thread in "
                               "the current phase ({} of the cluster barrier): each thread arrives, then waits "
                               "(PTX ISA §9.7.13.3)", cl.barrier_phase()));
    if (static_cast<uint32_t>(p) < cl.barrier_phase()) {
      done |= 1u << lane;
      return;
    }
    waiting |= 1u << lane;
    phase = static_cast<uint32_t>(p);
  });
  if (done) cl.barrier_waited(rank, *c.warp, done);
  if (!waiting) return;
  c.mask = waiting;
  c.flow = Flow::WaitClusterBarrier;
  c.wait_phase = phase;
}

}  // namespace

void bind_cluster_barrier(BindCtx& b) {
  b.only_mods({Mod::aligned});
  if (b.in.scope != Scope::None) b.fail("takes no scope qualifier");
  if (b.in.op == Op::barrier_cluster_arrive) {
    if (b.in.sem != Sem::None && b.in.sem != Sem::Release && b.in.sem != Sem::Relaxed)
      b.fail(fmt::format(".{} is not allowed (legal: .release, .relaxed; PTX ISA §9.7.13.3)",
                         isa::ptx::sem_name(b.in.sem)));
    b.out.fn = exec_arrive;
  } else {
    if (b.in.sem != Sem::None && b.in.sem != Sem::Acquire)
      b.fail(fmt::format(".{} is not allowed (legal: .acquire; PTX ISA §9.7.13.3)", isa::ptx::sem_name(b.in.sem)));
    b.out.fn = exec_wait;
  }
}

}  // namespace tcsim::sim
