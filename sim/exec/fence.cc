// PTX ISA §9.7.13 Parallel Synchronization and Communication: membar, fence
//   membar.level;                       .level = { .cta, .gl, .sys }
//   fence{.sem}.scope;                  .sem = { .sc, .acq_rel }, .scope = { .cta, .cluster, .gpu, .sys }
//   fence.op_restrict.release.cluster;  fence.mbarrier_init.release.cluster;
//   fence.proxy.proxykind;              .proxykind = { .alias, .async, .async.global, .async.shared::{cta,cluster} }
//   fence.proxy.tensormap::generic.{release,acquire}.scope {[addr], 128};
//   fence.proxy.async::generic.{acquire,release}.sync_restrict::shared::{cluster,cta}.cluster;
// tcsim executes the memory operations of a partition in issue order and publishes other
// partitions' stores at quantum boundaries, so a fence orders nothing more in the functional
// machine. Fences are counted (the checker of later issues uses proxy fences to validate
// generic/async-proxy ordering).
#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"
#include "sim/partition.h"

namespace tcsim::sim {
namespace {

void exec_fence(ExecCtx& c, const ExecInstr&) { c.part->count_fence(); }

}  // namespace

void bind_fence(BindCtx& b) {
  b.out.fn = exec_fence;
}

}  // namespace tcsim::sim
