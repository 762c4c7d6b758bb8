// PTX ISA §9.7.13 Parallel Synchronization and Communication: membar, fence
//   membar.level;                       .level = { .cta, .gl, .sys }
//   fence{.sem}.scope;                  .sem = { .sc, .acq_rel }, .scope = { .cta, .cluster, .gpu, .sys }
//   fence.op_restrict.release.cluster;  fence.mbarrier_init.release.cluster;
//   fence.proxy.proxykind;              .proxykind = { .alias, .async, .async.global, .async.shared::{cta,cluster} }
//   fence.proxy.tensormap::generic.{release,acquire}.scope {[addr], 128};
//   fence.proxy.async::generic.{acquire,release}.sync_restrict::shared::{cluster,cta}.cluster;
// tcsim executes the memory operations of a partition in issue order and publishes other
// partitions' stores at quantum boundaries, so a fence orders nothing more in the functional
// machine: the other forms do nothing. fence.proxy.async (no state space, .shared::cta or .shared::cluster:
// the forms that cover shared memory, PTX ISA §9.7.13.4) feeds the proxy checker
// (sim/checker/proxy.h), which reports generic writes read by the async proxy without one.
#include "isa/ptx/ir.h"
#include "sim/checker/global_race.h"
#include "sim/checker/proxy.h"
#include "sim/checker/race.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

void exec_fence(ExecCtx&, const ExecInstr&) {}

// membar / fence.sc / fence.acq_rel (and the release-only forms): the fence of the release and
// acquire patterns of PTX ISA §8.8 for the race detector (sim/checker/race.h).
void exec_fence_order(ExecCtx& c, const ExecInstr&) {
  race::on_fence(c);
  global_race::on_fence(c);
}

void exec_fence_proxy_async_shared(ExecCtx& c, const ExecInstr&) {
  proxy::on_proxy_fence(c, c.mask);
}

}  // namespace

void bind_fence(BindCtx& b) {
  using isa::ptx::Mod;
  using isa::ptx::Space;
  b.out.fn = b.has(Mod::proxy) ? exec_fence : exec_fence_order;
  // fence.mbarrier_init.release.cluster is the only form (ptxas: "requires modifier 'scope'").
  if (b.has(Mod::mbarrier_init) && (b.in.sem != isa::ptx::Sem::Release || b.in.scope != isa::ptx::Scope::Cluster))
    b.fail("fence.mbarrier_init takes .release.cluster");
  // fence.proxy.async names .global, .shared::cta or .shared::cluster, never a bare .shared (ptxas:
  // "State space incorrect for instruction 'fence.proxy'").
  if (b.has(Mod::proxy) && b.has(Mod::async) && b.in.space(0) == Space::Shared)
    b.fail("fence.proxy.async takes .shared::cta or .shared::cluster, not .shared");
  // fence.proxy.async{.global | .shared::cta | .shared::cluster}: bidirectional generic <-> async
  // proxy fence; .global does not order shared memory.
  if (b.has(Mod::proxy) && b.has(Mod::async) && b.in.space(0) != Space::Global)
    b.out.fn = exec_fence_proxy_async_shared;
}

}  // namespace tcsim::sim
