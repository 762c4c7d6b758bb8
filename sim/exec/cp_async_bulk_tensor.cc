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
// The tensor map is read from its generic address when the instruction issues (a map passed by
// value as a kernel parameter, or copied/edited in global memory with tensormap.replace and
// tensormap.cp_fenceproxy), decoded with the driver's rules (isa/descriptors/tensor_map.h). The box
// is planned by sim/units/tma_box.h (layout: isa/layouts' TMA function; the H200 facts it follows
// are in its header) and moved by the engine's events (sim/units/tma_engine.h).
//
// .cta_group (PTX ISA §9.7.9.25.5.2; /work/shared/ref/tma-mbarrier.md §4.2) only changes which
// mbarrier the complete_tx goes to. .cta_group::1 (and no qualifier): mbar must be in the CTA of
// dstMem. .cta_group::2: mbar may be in the destination CTA or its peer, the other CTA of its CTA
// pair (cluster ranks 2i and 2i+1; peer = rank ^ 1) -- a pair's two TMA loads both signal the even
// CTA's barrier, which its MMA issuer waits on. With .multicast::cluster the signal goes to the
// mbar offset in, for each destination CTA r of ctaMask, r itself (::1) or (::2) the CTA of r's pair
// with the rank parity of the CTA that holds mbar (r or r ^ 1).
//
// Reductions (§9.7.9.25.5.3) combine each in-bound element of the box with global memory, the type
// taken from the tensor map: .add for u32/s32/u64/f32/f16/bf16 (floats rounded to nearest even;
// f16/bf16 as .noftz), .min/.max for u32/s32/u64/s64/f16/bf16 (signed for the signed types),
// .inc/.dec for u32 (PTX atom.inc/dec rules), .and/.or/.xor on the bits. They are applied when the
// data lands, in issue order within a partition.
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/checker/proxy.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/memory/dsmem.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/units/bulk_reduce.h"
#include "sim/units/smem_origin.h"
#include "sim/units/tma_box.h"
#include "sim/units/tma_cta_state.h"
#include "sim/units/tma_engine.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::Space;
using isa::ptx::Type;

// Operand slots (relative to first_op).
constexpr uint32_t kOpMap = 0, kOpCoord = 1, kOpSmem = 6, kOpMbar = 7, kOpMask = 8, kOpPolicy = 9, kNumOps = 10;
// aux: rank (bits 0-2), reduce op (bits 8-11), flags.
constexpr uint64_t kMulticast = 1u << 16;
constexpr uint64_t kPolicy = 1u << 17;
constexpr uint64_t kDstCluster = 1u << 18;
constexpr uint64_t kCtaGroup2 = 1u << 19;

uint32_t rank_of(const ExecInstr& in) { return static_cast<uint32_t>(in.aux & 7); }
tma::ReduceOp redop_of(const ExecInstr& in) { return static_cast<tma::ReduceOp>((in.aux >> 8) & 0xf); }

const char* kLoadWhat = "cp.async.bulk.tensor (global -> shared)";
const char* kStoreWhat = "cp.async.bulk.tensor (shared::cta -> global)";
const char* kReduceWhat = "cp.reduce.async.bulk.tensor (shared::cta -> global)";
const char* kPrefetchWhat = "cp.async.bulk.prefetch.tensor";

uint64_t lane_value(ExecCtx& c, const ExecInstr& in, uint32_t k, int lane) { return c.src(c.op(in, k).ref)[lane]; }

// The map and the box a lane names.
struct Planned {
  isa::TensorMapParams map;
  int32_t coords[5];
};
Planned read_map_and_coords(ExecCtx& c, const ExecInstr& in, int lane, const char* what) {
  Planned p;
  const uint64_t maddr = mem::lane_address(c, c.op(in, kOpMap), lane);
  p.map = tma::read_tensor_map(c, lane, maddr, what);
  for (uint32_t d = 0; d < rank_of(in); ++d) p.coords[d] = static_cast<int32_t>(lane_value(c, in, kOpCoord + d, lane));
  return p;
}

tma::TileBox plan(ExecCtx& c, int lane, const Planned& p, uint32_t rank, uint32_t smem, tma::BoxDir dir,
                  const char* what) {
  auto b = tma::TileBox::plan(p.map, std::span<const int32_t>(p.coords, rank), smem, dir);
  if (!b) c.fail(lane, fmt::format("{}: {}", what, b.error().message));
  return std::move(*b);
}

// Global bounds of every in-bound row (the H200 faults on a map whose tensor leaves its
// allocation; tcsim says so at the issuing line).
void check_rows(ExecCtx& c, int lane, const tma::TileBox& box, uint64_t dim0_limit, const char* what) {
  box.for_each_row(dim0_limit, [&](const uint32_t(&)[5], uint64_t addr, uint32_t first, uint32_t count) {
    if (!count) return;
    const uint64_t bits = box.elem_bits();
    tma::check_global_range(c, lane, addr + first * bits / 8, (count * bits + 7) / 8, what);
  });
}

// ---- loads --------------------------------------------------------------------------------------

void exec_load(ExecCtx& c, const ExecInstr& in) {
  const uint32_t rank = rank_of(in);
  for_lanes(c.mask, [&](int lane) {
    const Planned p = read_map_and_coords(c, in, lane, kLoadWhat);
    const uint64_t dst_addr = mem::lane_address(c, c.op(in, kOpSmem), lane);
    const uint64_t mbar_addr = mem::lane_address(c, c.op(in, kOpMbar), lane);
    // Destination CTAs: the one named by dstMem, or (multicast) every CTA of ctaMask at the same
    // offset, each with its mbarrier at mbar's offset (PTX ISA §9.7.9.25.5.2).
    const mem::SharedTarget dst = mem::resolve_cluster_shared(c, lane, dst_addr, kLoadWhat);
    const mem::SharedTarget mb = mem::resolve_cluster_shared(c, lane, mbar_addr, kLoadWhat);
    const bool pair = (in.aux & kCtaGroup2) != 0;
    if (!(in.aux & kMulticast) && mb.cta != dst.cta && !(pair && mb.rank == (dst.rank ^ 1u))) {
      const Cluster& cl = c.cta->cluster();
      if (pair)
        c.fail(lane, fmt::format("{}: with .cta_group::2 the mbarrier (shared::cluster 0x{:x}, in {}) must be in the "
                                 "destination CTA ({}) or its peer (cluster rank {}) (PTX ISA §9.7.9.25.5.2)",
                                 kLoadWhat, mbar_addr, cl.cta_name(mb.rank), cl.cta_name(dst.rank), dst.rank ^ 1u));
      c.fail(lane, fmt::format("{}: the mbarrier (shared::cluster 0x{:x}) must be in the same CTA as the destination "
                               "(shared::cluster 0x{:x}){} (PTX ISA §9.7.9.25.5.2)",
                               kLoadWhat, mbar_addr, dst_addr,
                               mb.rank == (dst.rank ^ 1u) ? "; with .cta_group::2 it may be in the peer CTA" : ""));
    }
    tma::TileBox box = plan(c, lane, p, rank, dst.offset, tma::BoxDir::Load, kLoadWhat);
    tma::check_smem_range(c, lane, box.smem_lo(), box.smem_hi(), kLoadWhat,
                          fmt::format(" (the box: {})", box.describe()));
    check_rows(c, lane, box, p.map.global_dim[0], kLoadWhat);
    std::vector<uint32_t> ranks;
    if (in.aux & kMulticast) {
      const uint32_t mask = static_cast<uint16_t>(lane_value(c, in, kOpMask, lane));
      const Cluster& cl = c.cta->cluster();
      for (uint32_t r = 0; r < kMaxClusterCtas; ++r) {
        if (!(mask >> r & 1)) continue;
        if (r >= cl.size())
          c.fail(lane, fmt::format("{}: ctaMask 0x{:04x} names CTA rank {}, but the cluster has {} CTA{} (PTX ISA "
                                   "§9.7.9.25.5.2)",
                                   kLoadWhat, mask, r, cl.size(), cl.size() == 1 ? "" : "s"));
        ranks.push_back(r);
      }
    } else {
      ranks.push_back(dst.rank);
    }
    // The CTA whose mbarrier destination r's complete_tx goes to (see the head comment); all are
    // checked before anything is posted.
    auto bar_rank_of = [&](uint32_t r) {
      return !(in.aux & kMulticast) ? mb.rank : pair ? ((r & ~1u) | (mb.rank & 1u)) : r;
    };
    for (uint32_t r : ranks) {
      const uint32_t br = bar_rank_of(r);
      const Cluster& cl = c.cta->cluster();
      if (br >= cl.size())
        c.fail(lane, fmt::format("{}: .cta_group::2 sends the complete_tx of destination CTA rank {} to its peer, "
                                 "cluster rank {}, which the cluster of {} CTAs does not have (PTX ISA "
                                 "§9.7.9.25.5.2)",
                                 kLoadWhat, r, br, cl.size()));
      const Cta* bc = cl.cta(br);
      if (!bc || bc->done())
        c.fail(lane, fmt::format("{}: the CTA holding the mbarrier (cluster rank {}) has exited", kLoadWhat, br));
    }
    tma::note_hint(*c.cta, (in.aux & kPolicy) != 0, (in.aux & kPolicy) ? lane_value(c, in, kOpPolicy, lane) : 0);
    const tma::Timing t = tma::issue_timing(c);
    auto shared_box = std::make_shared<const tma::TileBox>(std::move(box));
    for (uint32_t r : ranks) {
      Cta* target = c.cta->cluster().cta(r);
      if (!target || target->done())
        c.fail(lane, fmt::format("{}: the destination CTA (cluster rank {}) has exited", kLoadWhat, r));
      Cta* bar_cta = c.cta->cluster().cta(bar_rank_of(r));
      proxy::mark_async(c, *target, shared_box->smem_lo(), shared_box->smem_hi() - shared_box->smem_lo(), t.land, true,
                        kLoadWhat);
      Partition* part = c.part;
      const LaunchState* L = c.launch;
      c.part->events().post(t.land, EventPriority::AsyncDataLand,
                            [part, L, ref = target->ref(), shared_box, sm = c.sm](Cycles now) {
                              Cta* cta = ref.get();
                              if (!cta) {
                                part->record_fault(now, sm->id(),
                                                   fmt::format("kernel {}: {}: the destination CTA exited before the "
                                                               "copy landed",
                                                               L->kernel, kLoadWhat));
                                return;
                              }
                              shared_box->load(cta->shared(), [&](uint64_t a, void* d, uint32_t n) {
                                tma::read_global(*part, *L, a, d, n);
                              });
                              cta->tma_state().proxy.async_wrote(shared_box->smem_lo(),
                                                                 shared_box->smem_hi() - shared_box->smem_lo());
                              note_tma_box_origin(*cta, *shared_box);  // tcgen05.mma's misread diagnosis
                            });
      tma::post_complete_tx(c, t.land, bar_cta->ref(), mb.offset, shared_box->tx_bytes(), kLoadWhat);
    }
  });
}

// ---- stores and reductions ------------------------------------------------------------------------

template <bool Reduce>
void exec_store(ExecCtx& c, const ExecInstr& in) {
  const char* what = Reduce ? kReduceWhat : kStoreWhat;
  const uint32_t rank = rank_of(in);
  for_lanes(c.mask, [&](int lane) {
    const Planned p = read_map_and_coords(c, in, lane, what);
    const uint64_t src_addr = mem::lane_address(c, c.op(in, kOpSmem), lane);
    const uint32_t src = mem::own_shared_offset(c, lane, src_addr, what);
    tma::TileBox box = plan(c, lane, p, rank, src, Reduce ? tma::BoxDir::Reduce : tma::BoxDir::Store, what);
    tma::check_smem_range(c, lane, box.smem_lo(), box.smem_hi(), what, fmt::format(" (the box: {})", box.describe()));
    if constexpr (Reduce) {
      const auto err = tma::reduce_type_error(redop_of(in), p.map.data_type);
      if (!err.empty()) c.fail(lane, fmt::format("{}: {}", what, err));
    }
    // The tensor itself must be inside an allocation; the bytes a store adds to complete the last
    // 16-byte chunk of a row (TileBox::store) may lie past its end, where the H200 has allocation
    // slack: they are written only where memory exists (below).
    check_rows(c, lane, box, p.map.global_dim[0], what);
    proxy::check_async_read(c, lane, *c.cta, box.smem_lo(), box.smem_hi() - box.smem_lo(), what);
    tma::note_hint(*c.cta, (in.aux & kPolicy) != 0, (in.aux & kPolicy) ? lane_value(c, in, kOpPolicy, lane) : 0);
    const tma::Timing t = tma::issue_timing(c);
    proxy::mark_async(c, *c.cta, box.smem_lo(), box.smem_hi() - box.smem_lo(), t.read_done, false, what);
    // Snapshot of the source (the engine has read it by t.read_done; the program may not change it
    // before wait_group.read returns).
    auto snap = std::make_shared<std::vector<uint8_t>>(box.smem_hi());
    std::memcpy(snap->data() + box.smem_lo(), c.cta->shared() + box.smem_lo(), box.smem_hi() - box.smem_lo());
    const uint32_t thread = c.warp->id() * 32 + static_cast<uint32_t>(lane);
    c.cta->tma_state().groups.add(thread, t.land, t.read_done);
    Partition* part = c.part;
    const LaunchState* L = c.launch;
    const tma::ReduceOp op = redop_of(in);
    c.part->events().post(t.land, EventPriority::AsyncDataLand,
                          [part, L, box = std::move(box), snap, op, type = p.map.data_type](Cycles) {
                            if constexpr (Reduce) {
                              box.reduce(snap->data(), [&](uint64_t a, const void* s, uint32_t n) {
                                tma::reduce_global(*part, *L, op, type, a, s, n);
                              });
                            } else {
                              box.store(snap->data(), [&](uint64_t a, const void* s, uint32_t n) {
                                if (L->gm->find(a, n)) part->overlay().write(*L->gm, a, s, n);
                              });
                            }
                          });
  });
}

// ---- prefetch -------------------------------------------------------------------------------------

void exec_prefetch(ExecCtx& c, const ExecInstr& in) {
  const uint32_t rank = rank_of(in);
  for_lanes(c.mask, [&](int lane) {
    // A hint (L2 only): the map and coordinates must still be valid; no data moves.
    const Planned p = read_map_and_coords(c, in, lane, kPrefetchWhat);
    (void)plan(c, lane, p, rank, 0, tma::BoxDir::Load, kPrefetchWhat);
    ++c.cta->tma_state().prefetches;
  });
}

}  // namespace

void bind_cp_async_bulk_tensor(BindCtx& b) {
  const auto& mods = b.in.mods;
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
  (void)mods;
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
    if (b.in.space(0) == Space::SharedCluster) aux |= kDstCluster;
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
    aux |= kPolicy;
    ops[kOpPolicy].ref = b.src(static_cast<int>(next++), Type::B64);
  }
  if (b.nops() != next) b.fail(fmt::format("unexpected operand {} (the form takes {})", next + 1, next));
  if (reduce) {
    tma::ReduceOp r;
    if (!tma::parse_reduce_op(b.in, &r)) b.fail("cp.reduce.async.bulk.tensor needs .add/.min/.max/.inc/.dec/.and/.or/.xor");
    aux |= static_cast<uint64_t>(r) << 8;
  }
  b.out.first_op = b.push(ops[0]);
  for (uint32_t k = 1; k < kNumOps; ++k) b.push(ops[k]);
  b.out.nops = kNumOps;
  b.out.aux = aux;
  b.out.fn = prefetch ? exec_prefetch : load ? exec_load : reduce ? exec_store<true> : exec_store<false>;
}

}  // namespace tcsim::sim
