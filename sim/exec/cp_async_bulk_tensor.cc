// PTX ISA §9.7.9.25.5 Data Movement: tensor copies (tile mode)
//   cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.multicast}{.level::cache_hint}
//       [dstMem], [tensorMap, tensorCoords], [mbar]{, im2colInfo}{, ctaMask}{, cache-policy};
//       .dst = { .shared::cluster, .shared::cta }, .src = { .global },
//       .completion_mechanism = { .mbarrier::complete_tx::bytes }, .multicast = { .multicast::cluster }
//   cp.async.bulk.tensor.dim.global.shared::cta{.load_mode}.bulk_group{.level::cache_hint}
//       [tensorMap, tensorCoords], [srcMem]{, cache-policy};
//   cp.reduce.async.bulk.tensor.dim.global.shared::cta.redOp{.load_mode}.bulk_group{.level::cache_hint}
//       [tensorMap, tensorCoords], [srcMem]{, cache-policy};                         (§9.7.9.25.5.3)
//       .redOp = { .add, .min, .max, .inc, .dec, .and, .or, .xor }
//   cp.async.bulk.prefetch.tensor.dim.L2.global{.load_mode}{.level::cache_hint}
//       [tensorMap, tensorCoords]{, im2colInfo}{, cache-policy};                    (§9.7.9.25.5.4)
//   .dim = { .1d .. .5d }, .load_mode = { .tile } (im2col, tile::gather4/scatter4: not implemented)
//   loads also take {.cta_group} = { .cta_group::1, .cta_group::2 } (sm_100a; PTX ISA 8.6)
//
// This file decodes one lane's operands into a tma::TensorOp and hands it to the SM's TMA engine,
// which checks, moves and completes it (sim/units/tma_engine.h: the tensor map is read when the
// instruction issues, the box planned by sim/units/tma_box.h, .cta_group's barrier choice and the
// reductions' element rules are in sim/units/tma_engine.cc).
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/sm.h"
#include "sim/units/tma_engine.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::Space;
using isa::ptx::Type;

// Operand slots (relative to first_op).
constexpr uint32_t kOpMap = 0, kOpCoord = 1, kOpSmem = 6, kOpMbar = 7, kOpMask = 8, kNumOps = 9;
// aux: rank (bits 0-2), tma::TensorOp::Kind (bits 4-5), rmw::Op of a reduction (bits 8-11), flags.
constexpr uint64_t kMulticast = 1u << 16;
constexpr uint64_t kCtaGroup2 = 1u << 19;

uint64_t lane_value(ExecCtx& c, const ExecInstr& in, uint32_t k, int lane) { return c.src(c.op(in, k).ref)[lane]; }

void exec_tensor(ExecCtx& c, const ExecInstr& in) {
  tma::TensorOp op;
  op.kind = static_cast<tma::TensorOp::Kind>(in.aux >> 4 & 3);
  op.rank = static_cast<uint32_t>(in.aux & 7);
  op.op = static_cast<rmw::Op>(in.aux >> 8 & 0xf);
  op.multicast = (in.aux & kMulticast) != 0;
  op.pair = (in.aux & kCtaGroup2) != 0;
  tma::TmaEngine& engine = c.sm->tma();
  for_lanes(c.mask, [&](int lane) {
    op.map = mem::lane_address(c, c.op(in, kOpMap), lane);
    for (uint32_t d = 0; d < op.rank; ++d) op.coords[d] = static_cast<int32_t>(lane_value(c, in, kOpCoord + d, lane));
    if (op.kind != tma::TensorOp::Prefetch) op.smem = mem::lane_address(c, c.op(in, kOpSmem), lane);
    if (op.kind == tma::TensorOp::Load) op.mbar = mem::lane_address(c, c.op(in, kOpMbar), lane);
    if (op.multicast) op.cta_mask = static_cast<uint16_t>(lane_value(c, in, kOpMask, lane));
    engine.tensor(c, lane, op);
  });
}

}  // namespace

void bind_cp_async_bulk_tensor(BindCtx& b) {
  auto has = [&](Mod m) { return b.has(m); };
  for (Mod m : {Mod::im2col, Mod::im2col_w, Mod::im2col_w_128, Mod::im2col_no_offs})
    if (has(m))
      return b.not_implemented("im2col load modes are not implemented yet (tile mode only; PTX ISA §5.5.5 "
                               "\"im2col mode\")");
  if (has(Mod::tile_gather4) || has(Mod::tile_scatter4))
    return b.not_implemented("tile::gather4 / tile::scatter4 are not implemented yet (PTX ISA §5.5.4)");
  // .dim
  uint32_t rank = 0;
  const Mod dims[] = {Mod::d1, Mod::d2, Mod::d3, Mod::d4, Mod::d5};
  for (uint32_t d = 0; d < 5; ++d)
    if (has(dims[d])) rank = d + 1;
  if (!rank) b.fail("a tensor copy needs its dimension (.1d .. .5d)");
  b.prog.uses_async_proxy = true;

  const Op op = b.in.op;
  const bool prefetch = op == Op::cp_async_bulk_prefetch_tensor;
  const bool reduce = op == Op::cp_reduce_async_bulk_tensor;
  const bool load = !prefetch && !reduce && b.in.space(1) == Space::Global;
  // cp.reduce.async.bulk.tensor.dim.dst.src: .global from .shared::cta, both named (PTX ISA
  // §9.7.9.25.5.3; ptxas: "Unexpected number of state spaces").
  if (reduce && !(b.in.space(0) == Space::Global && b.in.space(1) == Space::SharedCta))
    b.fail("cp.reduce.async.bulk.tensor reduces .shared::cta into .global: both state spaces are named");
  if (!prefetch && !reduce && !load && !(b.in.space(0) == Space::Global && b.in.space(1) == Space::SharedCta))
    b.fail("cp.async.bulk.tensor copies .global -> .shared::cluster/.shared::cta or .shared::cta -> .global");

  // Operands: the tensor operand [tensorMap, {coords}] is operand 1 of a load, 0 otherwise.
  const int tensor_op = load ? 1 : 0;
  const isa::ptx::Operand& t = b.operand(tensor_op);
  if (t.kind != isa::ptx::OperandKind::Address || t.elems.size() < 2 ||
      t.elems[1].kind != isa::ptx::OperandKind::Vector)
    b.fail("the tensor operand must be [tensorMap, {coordinates}]");
  if (t.elems[1].elems.size() != rank)
    b.fail(fmt::format("a .{}d copy takes {} coordinate{}, not {}", rank, rank, rank == 1 ? "" : "s",
                       t.elems[1].elems.size()));
  std::vector<ExecOperand> ops(kNumOps);
  ops[kOpMap] = b.address(tensor_op, Space::Generic);
  for (uint32_t d = 0; d < rank; ++d) ops[kOpCoord + d].ref = b.src_of(t.elems[1].elems[d], Type::S32);
  uint64_t aux = rank;
  size_t next = 0;  // first optional operand
  if (load) {
    ops[kOpSmem] = b.address(0, Space::SharedCluster);
    ops[kOpMbar] = b.address(2, Space::SharedCluster);
    next = 3;
    if (has(Mod::multicast_cluster)) {
      aux |= kMulticast;
      if (b.nops() <= next) b.fail(".multicast::cluster needs the ctaMask operand");
      ops[kOpMask].ref = b.src(static_cast<int>(next++), Type::B16);
    }
    if (has(Mod::cta_group_1) && has(Mod::cta_group_2)) b.fail("give one .cta_group (::1 or ::2), not both");
    if (has(Mod::cta_group_2)) aux |= kCtaGroup2;
  } else if (has(Mod::cta_group_1) || has(Mod::cta_group_2)) {
    b.fail(".cta_group is a qualifier of the global -> shared loads only (PTX ISA §9.7.9.25.5.2)");
  } else if (!prefetch) {
    ops[kOpSmem] = b.address(1, Space::SharedCta);
    next = 2;
  } else {
    next = 1;
  }
  if (has(Mod::L2_cache_hint)) {
    if (b.nops() <= next) b.fail(".L2::cache_hint needs the cache-policy operand");
    (void)b.src(static_cast<int>(next++), Type::B64);  // a hint only: checked, no effect on data
  }
  if (b.nops() != next) b.fail(fmt::format("unexpected operand {} (the form takes {})", next + 1, next));
  if (reduce) {
    rmw::Op r = rmw::Op::Add;
    if (rmw::parse_op(b.in, &r) != 1 || r == rmw::Op::Cas || r == rmw::Op::Exch)
      b.fail("cp.reduce.async.bulk.tensor needs .add/.min/.max/.inc/.dec/.and/.or/.xor");
    aux |= static_cast<uint64_t>(r) << 8;
  }
  const tma::TensorOp::Kind kind = prefetch ? tma::TensorOp::Prefetch
                                   : load   ? tma::TensorOp::Load
                                   : reduce ? tma::TensorOp::Reduce
                                            : tma::TensorOp::Store;
  aux |= uint64_t{kind} << 4;
  b.out.first_op = b.push(ops[0]);
  for (uint32_t k = 1; k < kNumOps; ++k) b.push(ops[k]);
  b.out.nops = kNumOps;
  b.out.aux = aux;
  b.out.fn = exec_tensor;
}

}  // namespace tcsim::sim
