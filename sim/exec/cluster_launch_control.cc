// PTX ISA §9.7.13.17 clusterlaunchcontrol.try_cancel, §9.7.13.18 clusterlaunchcontrol.query_cancel
// (sm_100a: dynamic persistent scheduling, "cluster launch control"):
//   clusterlaunchcontrol.try_cancel.async{.space}.completion_mechanism{.multicast::cluster::all}.b128 [addr], [mbar];
//       .completion_mechanism = { .mbarrier::complete_tx::bytes };  .space = { .shared::cta };
//   clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 pred, try_cancel_response;
//   clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {xdim, ydim, zdim, _}, try_cancel_response;
//   clusterlaunchcontrol.query_cancel{.get_first_ctaid::dimension}.b32.b128 reg, try_cancel_response;
//       .get_first_ctaid::dimension = { .get_first_ctaid::x, .get_first_ctaid::y, .get_first_ctaid::z };
//
// try_cancel asks, asynchronously, to cancel the launch of a cluster of the grid that has not started
// running; the 16-byte response lands at [addr] (of every CTA of the requesting cluster with
// .multicast::cluster::all, each CTA's own [addr]) and complete-tx of 16 bytes is performed on [mbar]
// (of that same CTA). A successful response names the first CTA of the canceled cluster, which then
// never launches; no two successful responses of one grid name the same cluster. Without .space both
// operands are generic addresses (read, as for the mbarrier instructions, by their low 32 bits:
// sim/memory/shared_operand.h). Issuing it after observing a failed response is undefined (§9.7.13.17).
//
// tcsim: requests are collected per partition during a quantum and granted at the quantum boundary
// in (cycle, partition, issue order), each taking the lowest-numbered cluster not yet dispatched
// (sim/launch.cc), so which cluster a request gets is the same with any number of host threads.
// The response reaches shared memory and the mbarrier kClcLatency after issue, or at the start of the
// next quantum if that is later. The response is opaque (§9.7.13.17); tcsim's encoding, read only by
// query_cancel: bytes 0-3 ctaid.x, 4-7 ctaid.y, 8-11 ctaid.z of the first CTA, byte 12 bit 0 set when
// canceled (a failed response is all zeros).
#include <cstring>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/cluster.h"
#include "sim/cluster_launch_control.h"
#include "sim/cta.h"
#include "sim/exec/bind.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/memory/dsmem.h"
#include "sim/memory/shared_operand.h"
#include "sim/partition.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::OperandKind;
using isa::ptx::Space;
using isa::ptx::Type;

constexpr uint64_t kMulticast = 1;
constexpr uint64_t kGeneric = 2;

void exec_try_cancel(ExecCtx& c, const ExecInstr& in) {
  const char* what = "clusterlaunchcontrol.try_cancel";
  const bool generic = in.aux & kGeneric;
  for_lanes(c.mask, [&](int lane) {
    const uint64_t a = mem::shared_operand(c, lane, mem::lane_address(c, c.op(in, 0), lane), generic, what);
    const uint64_t m = mem::shared_operand(c, lane, mem::lane_address(c, c.op(in, 1), lane), generic, what);
    // §9.7.13.17: both operands in the executing CTA's own .shared::cta window.
    const uint32_t off = mem::own_shared_offset(c, lane, a, what);
    const uint32_t moff = mem::own_shared_offset(c, lane, m, what);
    if (off % 16)
      c.fail(lane, fmt::format("{}: the response address (offset 0x{:x}) is not 16-byte aligned (PTX ISA §9.7.13.17)",
                               what, off));
    if (uint64_t{off} + 16 > c.cta->smem_bytes())
      c.fail(lane, fmt::format("{}: the response (offset 0x{:x}, 16 bytes) is outside the {} bytes of shared memory",
                               what, off, c.cta->smem_bytes()));
    if (moff % 8)
      c.fail(lane, fmt::format("{}: the mbarrier address (offset 0x{:x}) is not 8-byte aligned", what, moff));
    ClcRequest r;
    r.when = c.now + kClcLatency + Cycles(c.part->jitter(16));
    r.cta = c.cta->ref();
    r.addr = off;
    r.mbar = moff;
    r.multicast = (in.aux & kMulticast) != 0;
    r.release = c.cta->cluster().release(c.cta->cluster_rank());
    r.what = fmt::format("{} issued by {} at cycle {}", what, c.cta->name(), c.now.count());
    c.part->clc_requests().push_back(std::move(r));
  });
}

// The response register: two 64-bit slots (low, high), as ld.shared.b128 leaves them.
bool canceled(const ExecCtx& c, Ref h, int lane) { return (c.src(h + 1)[lane] >> 32 & 1) != 0; }
uint32_t first_ctaid(const ExecCtx& c, Ref h, int lane, int dim) {
  const uint64_t lo = c.src(h)[lane], hi = c.src(h + 1)[lane];
  return static_cast<uint32_t>(dim == 0 ? lo : dim == 1 ? lo >> 32 : hi);
}

void exec_is_canceled(ExecCtx& c, const ExecInstr& in) {
  uint32_t& p = c.pred(in.o[0]);
  for_lanes(c.mask, [&](int lane) {
    if (canceled(c, in.o[1], lane)) p |= 1u << lane;
    else p &= ~(1u << lane);
  });
}

void exec_first_ctaid(ExecCtx& c, const ExecInstr& in) {
  const int dim = static_cast<int>(in.aux);
  uint64_t* d = c.dst(in.o[0]);
  for_lanes(c.mask, [&](int lane) { d[lane] = first_ctaid(c, in.o[1], lane, dim); });
}

void exec_first_ctaid_v4(ExecCtx& c, const ExecInstr& in) {
  for_lanes(c.mask, [&](int lane) {
    for (int k = 0; k < 3; ++k) {
      const ExecOperand& e = c.op(in, k);
      if (!e.is_sink) c.dst(e.ref)[lane] = first_ctaid(c, in.o[1], lane, k);
    }
  });
}

void bind_try_cancel(BindCtx& b) {
  b.only_mods({Mod::async, Mod::mbarrier_complete_tx_bytes, Mod::multicast_cluster_all});
  if (!b.has(Mod::async)) b.fail("needs .async (PTX ISA §9.7.13.17)");
  if (!b.has(Mod::mbarrier_complete_tx_bytes))
    b.fail("needs the completion mechanism .mbarrier::complete_tx::bytes (PTX ISA §9.7.13.17)");
  if (b.type(0) != Type::B128) b.fail("takes the type .b128 (PTX ISA §9.7.13.17)");
  if (b.in.nspaces > 1 || (b.in.nspaces == 1 && b.in.space(0) != Space::SharedCta))
    b.fail("the state space is .shared::cta or none (generic addresses; PTX ISA §9.7.13.17)");
  if (b.nops() != 2) b.fail("takes the operands [addr], [mbar]");
  const bool generic = b.in.nspaces == 0;
  const Space sp = generic ? Space::Generic : Space::SharedCta;
  b.out.first_op = b.push(b.address(0, sp));
  b.push(b.address(1, sp));
  b.out.aux = (b.has(Mod::multicast_cluster_all) ? kMulticast : 0) | (generic ? kGeneric : 0);
  b.out.fn = exec_try_cancel;
}

void bind_query_cancel(BindCtx& b) {
  b.only_mods({Mod::is_canceled, Mod::get_first_ctaid, Mod::get_first_ctaid_x, Mod::get_first_ctaid_y,
               Mod::get_first_ctaid_z});
  if (b.nops() != 2) b.fail("takes the operands d, try_cancel_response");
  const int forms = b.has(Mod::is_canceled) + b.has(Mod::get_first_ctaid) + b.has(Mod::get_first_ctaid_x) +
                    b.has(Mod::get_first_ctaid_y) + b.has(Mod::get_first_ctaid_z);
  if (forms != 1)
    b.fail("takes one query: .is_canceled, .get_first_ctaid or .get_first_ctaid::{x,y,z} (PTX ISA §9.7.13.18)");
  if (b.type(1) != Type::B128) b.fail("the response operand is .b128 (PTX ISA §9.7.13.18)");
  b.out.o[1] = b.src(1, Type::B128);
  if (b.has(Mod::is_canceled)) {
    if (b.type(0) != Type::Pred) b.fail(".is_canceled writes a .pred (PTX ISA §9.7.13.18)");
    b.out.o[0] = b.pred_dst(0);
    b.out.fn = exec_is_canceled;
    return;
  }
  if (b.type(0) != Type::B32) b.fail(".get_first_ctaid writes .b32 values (PTX ISA §9.7.13.18)");
  if (b.has(Mod::get_first_ctaid)) {
    const isa::ptx::Operand& d = b.operand(0);
    if (b.in.vec != 4 || d.kind != OperandKind::Vector || d.elems.size() != 4)
      b.fail(".get_first_ctaid takes a .v4 destination {x, y, z, _} (PTX ISA §9.7.13.18)");
    for (int k = 0; k < 3; ++k) {
      ExecOperand o;
      o.ref = b.dst_of(d.elems[k], 32);
      o.is_sink = d.elems[k].kind == OperandKind::Sink;
      const uint32_t at = b.push(o);
      if (k == 0) b.out.first_op = at;
    }
    b.out.fn = exec_first_ctaid_v4;
    return;
  }
  if (b.in.vec > 1) b.fail(".get_first_ctaid::{x,y,z} writes one register (PTX ISA §9.7.13.18)");
  b.out.o[0] = b.dst(0, 32);
  b.out.aux = b.has(Mod::get_first_ctaid_x) ? 0 : b.has(Mod::get_first_ctaid_y) ? 1 : 2;
  b.out.fn = exec_first_ctaid;
}

}  // namespace

void bind_cluster_launch_control(BindCtx& b) {
  if (b.in.op == Op::clusterlaunchcontrol_try_cancel) bind_try_cancel(b);
  else bind_query_cancel(b);
}

}  // namespace tcsim::sim
