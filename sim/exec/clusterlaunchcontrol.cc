// PTX ISA §9.7.13 (parallel synchronization and communication instructions):
// clusterlaunchcontrol.try_cancel, clusterlaunchcontrol.query_cancel.
//   clusterlaunchcontrol.try_cancel.async{.space}.completion_mechanism{.multicast::cluster::all}.b128 [addr], [mbar];
//     .completion_mechanism = { .mbarrier::complete_tx::bytes }   .space = { .shared::cta }
//   clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 pred, try_cancel_response;
//   clusterlaunchcontrol.query_cancel.get_first_ctaid{::dimension}.b32.b128 ret, try_cancel_response;
//     ::dimension = { ::x, ::y, ::z }; without it the destination is a .v4 vector {x, y, z, _}
//
// try_cancel asks the launch to cancel a cluster that has not started running; the 16-byte response
// is written asynchronously to shared memory (every CTA of the cluster with .multicast::cluster::all,
// at the same offset) and complete-tx of 16 bytes is performed on the mbarrier at mbar (in each of
// those CTAs). Without .shared::cta both addresses are generic and must lie in the shared window;
// both must be .shared::cta addresses of the executing CTA (else undefined: an error here), addr
// 16-byte aligned, mbar 8-byte aligned. Issuing try_cancel after the CTA observed a failed response
// is undefined behaviour: reported (a query_cancel.is_canceled that returns false is the
// observation). The machine and its determinism: sim/units/cluster_launch_control.h.
//
// query_cancel decodes a response (a .b128 register, read from shared memory by the program):
// is_canceled, and the ctaid of the canceled cluster's first CTA; get_first_ctaid of a response that
// is not canceled is undefined (reported; tcsim returns the response's words, 0).
#include "sim/exec/lane_ops.h"
#include "sim/exec/tcgen05_common.h"
#include "sim/memory/access.h"
#include "sim/partition.h"
#include "sim/report/report.h"
#include "sim/units/cluster_launch_control.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::OperandKind;
using isa::ptx::Space;
using isa::ptx::Type;

enum : uint64_t { kAuxGeneric = 1, kAuxMulticast = 2 };

void exec_try_cancel(ExecCtx& c, const ExecInstr& in) {
  const bool generic = in.aux & kAuxGeneric, multicast = in.aux & kAuxMulticast;
  for_lanes(c.mask, [&](int lane) {
    const uint64_t a = mem::lane_address(c, c.op(in, 0), lane);
    const uint64_t m = mem::lane_address(c, c.op(in, 1), lane);
    const uint32_t addr = tcgen05::shared_offset(c, lane, a, 16, generic, "clusterlaunchcontrol.try_cancel: addr");
    const uint32_t mbar = tcgen05::shared_offset(c, lane, m, 8, generic, "clusterlaunchcontrol.try_cancel: mbar");
    if (c.cta->clc_failure_observed)
      report(c, Rule::ClcTryCancelAfterFailure, lane,
             "clusterlaunchcontrol.try_cancel after this CTA observed a failed response (query_cancel.is_canceled "
             "returned false): undefined behaviour; tcsim answers the request (no cluster is left to cancel)");
    ClcRequest r;
    r.cycle = c.now.count();
    r.sm = c.sm->id();
    r.cta = c.cta->linear_id();
    r.warp = c.warp->id();
    r.lane = static_cast<uint32_t>(lane);
    r.requester = c.cta->ref();
    r.addr = addr;
    r.mbar = mbar;
    r.multicast = multicast;
    r.src = in.src;
    r.part = c.part;
    c.part->clc().push(r);
  });
}

ClcResponse response(ExecCtx& c, const ExecInstr& in, int lane) {
  const Ref r = in.o[0];
  return decode_clc_response(c.src(r)[lane], c.src(r + 1)[lane]);
}

void exec_is_canceled(ExecCtx& c, const ExecInstr& in) {
  uint32_t t = 0;
  for_lanes(c.mask, [&](int lane) {
    const bool yes = response(c, in, lane).canceled;
    if (yes) t |= 1u << lane;
    else c.cta->clc_failure_observed = true;
  });
  uint32_t& p = c.pred(in.o[1]);
  p = (p & ~c.mask) | (t & c.mask);
}

void exec_first_ctaid(ExecCtx& c, const ExecInstr& in) {
  const uint32_t n = in.nops;  // 1 (::x/::y/::z: aux is the dimension) or 4 (.v4)
  for_lanes(c.mask, [&](int lane) {
    const ClcResponse r = response(c, in, lane);
    if (!r.canceled)
      report(c, Rule::ClcFirstCtaidOfFailure, lane,
             "clusterlaunchcontrol.query_cancel.get_first_ctaid of a response that is not canceled: the ctaid is "
             "undefined (PTX ISA §9.7.13); tcsim returns 0");
    const uint32_t v[4] = {r.first_ctaid.x, r.first_ctaid.y, r.first_ctaid.z, 0};
    for (uint32_t i = 0; i < n; ++i) {
      const Ref d = c.op(in, i).ref;
      if (d != kSinkSlot) c.dst(d)[lane] = n == 1 ? v[in.aux] : v[i];
    }
  });
}

}  // namespace

void bind_clusterlaunchcontrol(BindCtx& b) {
  const auto arch = isa::parse_arch(b.m.target);
  if (!arch || !isa::has_tcgen05(*arch))
    b.fail(fmt::format("clusterlaunchcontrol needs an sm_100 or later target (PTX ISA §9.7.13), the module targets {}",
                       b.m.target));
  if (b.in.op == Op::clusterlaunchcontrol_try_cancel) {
    b.only_mods({Mod::async, Mod::mbarrier_complete_tx_bytes, Mod::multicast_cluster_all});
    if (!b.has(Mod::async)) b.fail("clusterlaunchcontrol.try_cancel needs .async (PTX ISA §9.7.13)");
    if (!b.has(Mod::mbarrier_complete_tx_bytes))
      b.fail("clusterlaunchcontrol.try_cancel needs the completion mechanism .mbarrier::complete_tx::bytes (PTX ISA "
             "§9.7.13)");
    if (b.type() != Type::B128) b.fail("clusterlaunchcontrol.try_cancel is .b128 (PTX ISA §9.7.13)");
    const Space sp = b.in.space();
    if (sp != Space::Generic && sp != Space::SharedCta)
      b.fail("clusterlaunchcontrol.try_cancel: the state space is .shared::cta or none (generic) (PTX ISA §9.7.13)");
    if (b.nops() != 2 || b.operand(0).kind != OperandKind::Address || b.operand(1).kind != OperandKind::Address)
      b.fail("clusterlaunchcontrol.try_cancel takes [addr], [mbar]");
    const Space as = sp == Space::Generic ? Space::Generic : Space::Shared;
    b.out.first_op = b.push(b.address(0, as));
    b.push(b.address(1, as));
    b.out.nops = 2;
    b.out.aux = (sp == Space::Generic ? uint64_t{kAuxGeneric} : 0) | (b.has(Mod::multicast_cluster_all) ? uint64_t{kAuxMulticast} : 0);
    b.out.fn = exec_try_cancel;
    return;
  }
  if (b.in.op != Op::clusterlaunchcontrol_query_cancel) b.fail("internal: not a clusterlaunchcontrol row");
  b.only_mods({Mod::is_canceled, Mod::get_first_ctaid, Mod::get_first_ctaid_x, Mod::get_first_ctaid_y,
               Mod::get_first_ctaid_z, Mod::v4});
  if (b.nops() != 2) b.fail("clusterlaunchcontrol.query_cancel takes a destination and the response");
  if (b.has(Mod::is_canceled)) {
    if (b.type(0) != Type::Pred || b.type(1) != Type::B128)
      b.fail("clusterlaunchcontrol.query_cancel.is_canceled is .pred.b128 (PTX ISA §9.7.13)");
    b.out.o[0] = b.src(1, Type::B128);
    b.out.o[1] = b.pred_dst(0);
    b.out.fn = exec_is_canceled;
    return;
  }
  if (b.type(0) != Type::B32 || b.type(1) != Type::B128)
    b.fail("clusterlaunchcontrol.query_cancel.get_first_ctaid is .b32.b128 (PTX ISA §9.7.13)");
  b.out.o[0] = b.src(1, Type::B128);
  const int dim = b.has(Mod::get_first_ctaid_x) ? 0 : b.has(Mod::get_first_ctaid_y) ? 1 : b.has(Mod::get_first_ctaid_z) ? 2 : -1;
  if (dim >= 0) {
    ExecOperand d;
    d.ref = b.dst(0, 32);
    b.out.first_op = b.push(d);
    b.out.nops = 1;
    b.out.aux = static_cast<uint64_t>(dim);
  } else {
    if (b.in.vec != 4 || b.operand(0).kind != OperandKind::Vector || b.operand(0).elems.size() != 4)
      b.fail("clusterlaunchcontrol.query_cancel.get_first_ctaid without ::x/::y/::z writes a .v4 vector {x, y, z, _} "
             "(PTX ISA §9.7.13)");
    uint32_t first = 0;
    for (size_t i = 0; i < 4; ++i) {
      ExecOperand d;
      d.ref = b.dst_of(b.operand(0).elems[i], 32);
      const uint32_t k = b.push(d);
      if (i == 0) first = k;
    }
    b.out.first_op = first;
    b.out.nops = 4;
  }
  b.out.fn = exec_first_ctaid;
}

}  // namespace tcsim::sim
