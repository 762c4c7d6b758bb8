// The TMA / bulk-copy engine: issue checks, the landing and completion events, bulk async-groups
// (see tma_engine.h for the life of an operation).
//
// Tensor copies (PTX ISA §9.7.9.25.5.2): the box is planned by sim/units/tma_box.h (layout: isa/layouts'
// TMA function; the H200 facts it follows are in its header). .cta_group (PTX ISA §9.7.9.25.5.2) only
// changes which mbarrier the complete_tx goes to. .cta_group::1 (and no qualifier): mbar must be in
// the CTA of dstMem. .cta_group::2: mbar may be in the destination CTA or its peer, the other CTA
// of its CTA pair (cluster ranks 2i and 2i+1; peer = rank ^ 1) -- a pair's two TMA loads both signal
// the even CTA's barrier, which its MMA issuer waits on. With .multicast::cluster the signal goes to
// the mbar offset in, for each destination CTA r of ctaMask, r itself (::1) or (::2) the CTA of r's
// pair with the rank parity of the CTA that holds mbar (r or r ^ 1).
//
// Reductions (PTX ISA §9.7.9.25.5.3 tensor, §9.7.9.25.4.2 bulk) combine each in-bound element with
// memory through the element ALU (sim/memory/rmw.h), the type taken from the tensor map for tensor
// reductions: .add for u32/s32/u64/f32/f16/bf16/f64 (floats rounded to nearest even; f16/bf16 as
// .noftz; f32 subnormals kept, flushed for a FLOAT32_FTZ map: docs/reductions.md), .min/.max for
// u32/s32/u64/s64/f16/bf16 (signed for the signed types), .inc/.dec for u32 (the atom.inc/dec
// rules), .and/.or/.xor on the bits. Into global memory they go through the partition's RMW log
// (sim/memory/rmw_log.h), keyed by the landing cycle and the issuing thread.
#include "sim/checker/race.h"
#include "sim/units/tma_engine.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "sim/address_space.h"
#include "sim/checker/proxy.h"
#include "sim/cta.h"
#include "sim/exec/exec.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/access.h"
#include "sim/memory/dsmem.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/timing/tma.h"
#include "sim/units/mbarrier.h"
#include "sim/units/smem_origin.h"
#include "sim/units/tma_box.h"
#include "sim/units/tma_cta_state.h"
#include "sim/warp.h"

namespace tcsim::sim::tma {
namespace {

const char* kLoadWhat = "cp.async.bulk.tensor (global -> shared)";
const char* kStoreWhat = "cp.async.bulk.tensor (shared::cta -> global)";
const char* kReduceWhat = "cp.reduce.async.bulk.tensor (shared::cta -> global)";
const char* kPrefetchWhat = "cp.async.bulk.prefetch.tensor";

const char* what_of(const BulkOp& op) {
  switch (op.kind) {
    case BulkOp::GlobalToShared: return "cp.async.bulk (global -> shared)";
    case BulkOp::SharedToCluster: return op.reduce ? "cp.reduce.async.bulk (shared::cta -> shared::cluster)"
                                                   : "cp.async.bulk (shared::cta -> shared::cluster)";
    case BulkOp::SharedToGlobal: return op.reduce ? "cp.reduce.async.bulk (shared::cta -> global)"
                                                  : "cp.async.bulk (shared::cta -> global)";
    case BulkOp::Prefetch: return "cp.async.bulk.prefetch";
  }
  return "cp.async.bulk";
}

uint32_t thread_of(const ExecCtx& c, int lane) { return c.warp->id() * 32 + static_cast<uint32_t>(lane); }

// ---- issue checks ------------------------------------------------------------------------------

// Reads and decodes the 128-byte tensor map at the generic address `addr` (a .param, .const or
// .global object, 64-byte aligned: PTX ISA §5.5.8 "Tensor-map"); every fault names the address and
// the driver's reason.
isa::TensorMapParams read_tensor_map(ExecCtx& c, int lane, uint64_t addr, const char* what) {
  // PTX ISA §5.5.8: the tensor-map object lives in .param (a kernel parameter), .const or .global
  // memory and is 64-byte aligned (CUtensorMap is declared alignas(64) in cuda.h).
  if (addr % 64 != 0)
    c.fail(lane, fmt::format("{}: the tensor map at 0x{:x} is not 64-byte aligned (a CUtensorMap object is 128 bytes "
                             "aligned to 64: PTX ISA §5.5.8, cuda.h)",
                             what, addr));
  const addr::Window w = addr::classify(addr);
  if (w != addr::Window::Global && w != addr::Window::Param)
    c.fail(lane, fmt::format("{}: the tensor-map address 0x{:x} is not in .param, .const or .global memory (PTX ISA "
                             "§9.7.9.25.5.2: tensorMap is a generic address of one of those spaces){}",
                             what, addr, w == addr::Window::Shared ? "; a map edited in shared memory must be copied "
                                                                     "to global memory first (tensormap.cp_fenceproxy)"
                                                                   : ""));
  std::array<uint8_t, isa::kTensorMapBytes> bytes{};
  mem::GlobalCache gc;
  for (uint32_t i = 0; i < isa::kTensorMapBytes; i += 8)
    mem::read(c, lane, isa::ptx::Space::Generic, false, addr + i, bytes.data() + i, 8, gc);
  auto p = isa::decode_tensor_map(bytes, c.launch->arch);
  if (!p)
    c.fail(lane, fmt::format("{}: invalid tensor map at 0x{:x}: {}", what, addr, p.error().message));
  return *p;
}

// The bytes of the executing CTA's shared memory the async proxy may touch: the reserve plus
// %total_smem_size (models/machine/shared_memory.h SmemLayout::limit; the H200 faults at this bound:
// kernels/tma/README.md, fact runs fp_*).
uint32_t async_smem_limit(const ExecCtx& c) { return c.launch->smem.limit(); }

void check_smem_range(ExecCtx& c, int lane, uint32_t lo, uint64_t hi, const char* what, const std::string& detail) {
  const uint32_t lim = async_smem_limit(c);
  if (hi <= lim) return;
  c.fail(lane, fmt::format("{}: shared memory [0x{:x}, 0x{:x}) is outside the CTA's shared memory [0, 0x{:x}) "
                           "({} reserved + {} static + {} dynamic bytes, rounded up to {}){}; the H200 faults with "
                           "an illegal (out-of-range) shared-memory address",
                           what, lo, hi, lim, c.launch->smem.reserved, c.launch->smem.static_bytes,
                           c.launch->smem.dynamic_bytes, c.launch->smem.granularity, detail));
}

// [addr, addr + n) of global memory must lie inside one allocation.
// `reads`: the engine reads these bytes (a load's source): initcheck (sim/checker/global_init.h).
// `store`: the engine writes them (1: a store, 2: a reduction): the global race detector
// (sim/checker/global_race.h).
void check_global_range(ExecCtx& c, int lane, uint64_t addr, uint64_t n, const char* what, bool reads = false,
                        int store = 0) {
  if (n == 0) return;
  const Allocation* a = c.launch->gm->find(addr, 1);
  if (!a || n > a->size - (addr - a->base))
    c.fail(lane, fmt::format("{}: global memory [0x{:x}, 0x{:x}) is out of bounds: {}", what, addr, addr + n,
                             c.launch->gm->describe_miss(addr, static_cast<uint32_t>(std::min<uint64_t>(n, 1u << 30)))));
  // A bulk reduction reads its destination as well (the old value it combines with): initcheck.
  if ((reads || store == 2) && !a->initialised && c.checking()) global_init::on_read(c, lane, *a, addr, n);
  if (store && c.launch->global_race) global_race::on_async_store(c, lane, addr, n, store == 2);
}

// Global bounds of every in-bound row of a box (the H200 faults on a map whose tensor leaves its
// allocation; tcsim says so at the issuing line).
void check_rows(ExecCtx& c, int lane, const TileBox& box, uint64_t dim0_limit, const char* what, bool reads,
                int store = 0) {
  box.for_each_row(dim0_limit, [&](const uint32_t(&)[5], uint64_t addr, uint32_t first, uint32_t count) {
    if (!count) return;
    const uint64_t bits = box.elem_bits();
    check_global_range(c, lane, addr + first * bits / 8, (count * bits + 7) / 8, what, reads, store);
  });
}

void check_align(ExecCtx& c, int lane, uint64_t a, const char* which, const char* what) {
  if (a % 16 != 0)
    c.fail(lane, fmt::format("{}: the {} address 0x{:x} is not 16-byte aligned (PTX ISA §9.7.9.25.4.1)", what, which, a));
}

TileBox plan(ExecCtx& c, int lane, const TensorOp& op, const isa::TensorMapParams& map, uint32_t smem, BoxDir dir,
             const char* what) {
  auto b = TileBox::plan(map, std::span<const int32_t>(op.coords, op.rank), smem, dir);
  if (!b) c.fail(lane, fmt::format("{}: {}", what, b.error().message));
  return std::move(*b);
}

// The ranks of a multicast's ctaMask; each must exist in the cluster.
std::vector<uint32_t> multicast_ranks(ExecCtx& c, int lane, uint16_t mask, const char* what, bool section) {
  std::vector<uint32_t> ranks;
  const Cluster& cl = c.cta->cluster();
  for (uint32_t r = 0; r < kMaxClusterCtas; ++r) {
    if (!(mask >> r & 1)) continue;
    if (r >= cl.size()) {
      if (section)
        c.fail(lane, fmt::format("{}: ctaMask 0x{:04x} names CTA rank {}, but the cluster has {} CTA{} (PTX ISA "
                                 "§9.7.9.25.5.2)",
                                 what, mask, r, cl.size(), cl.size() == 1 ? "" : "s"));
      c.fail(lane, fmt::format("{}: ctaMask 0x{:04x} names CTA rank {}, but the cluster has {} CTA(s)", what, mask, r,
                               cl.size()));
    }
    ranks.push_back(r);
  }
  return ranks;
}

// ---- timing and completion ---------------------------------------------------------------------

// The completion cycles of an operation issued now (sim/timing/tma.h: the memory system and the
// fill ports of the destination SMs); schedule perturbation may delay them.
struct Timing {
  Cycles read_done, land;
};

std::vector<Sm*> sms_of(ExecCtx& c, const std::vector<uint32_t>& ranks) {
  std::vector<Sm*> sms;
  for (uint32_t r : ranks)
    if (Cta* t = c.cta->cluster().cta(r)) sms.push_back(&t->sm());
  if (sms.empty()) sms.push_back(c.sm);
  return sms;
}

Timing jittered(ExecCtx& c, timing::AsyncTimes t) {
  const Cycles j(c.part->jitter(64));
  return {t.read_done + j, t.land + j};
}

// A tile load of `box` into the CTAs of cluster ranks `ranks` (several: multicast).
Timing tile_load_timing(ExecCtx& c, const TileBox& box, const std::vector<uint32_t>& ranks, bool multicast) {
  timing::GlobalReader reader(c);
  const uint32_t bits = box.elem_bits();
  box.for_each_row(box.map().global_dim[0], [&](const uint32_t (&)[5], uint64_t addr, uint64_t first, uint64_t count) {
    if (addr != ~0ull && count) reader.add(addr + first * bits / 8, (count * bits + 7) / 8);
  });
  const std::vector<Sm*> sms = sms_of(c, ranks);
  return jittered(c, timing::tma_load(c, box.tx_bytes(), box.rows(), reader, sms.data(), static_cast<uint32_t>(sms.size()), multicast));
}

// A bulk load of [src, src + n) into the CTAs of `ranks`.
Timing bulk_load_timing(ExecCtx& c, uint64_t src, uint32_t n, const std::vector<uint32_t>& ranks, bool multicast) {
  timing::GlobalReader reader(c);
  reader.add(src, n);
  const std::vector<Sm*> sms = sms_of(c, ranks);
  return jittered(c, timing::tma_load(c, n, 0, reader, sms.data(), static_cast<uint32_t>(sms.size()), multicast));
}

// A store / reduce of `bytes` to global memory; a copy of `bytes` to a peer CTA's shared memory.
Timing store_timing(ExecCtx& c, uint64_t bytes) { return jittered(c, timing::tma_store(c, bytes)); }
Timing dsmem_timing(ExecCtx& c, uint64_t bytes) { return jittered(c, timing::dsmem_copy(c, bytes)); }

// complete_tx(bytes) on the mbarrier at .shared::cta offset `mbar` of `target`, at `when`, released
// with the issuing CTA's clock `rel` (taken after the operation's remote accesses were recorded).
void post_complete_tx(ExecCtx& c, Cycles when, const CtaRef& target, uint32_t mbar, uint32_t bytes, const VClock& rel,
                      const char* what) {
  post_mbarrier_complete_tx(*c.part, when, target, mbar, bytes, &rel, what);
}

// A copy lands after its destination CTA exited. The H200 runs such kernels to completion
// (kernels/tma/bad/missing_expect_tx: a CTA that never waits for its bytes exits, exit code 0), so
// tcsim does too: the bytes go nowhere. With the timing model's TMA latency this is what such a
// kernel does; its reads of the unfinished copy are already the finding async-access-in-flight.
void land_fault(Partition* part, uint32_t sm, const LaunchState* L, Cycles now, const char* what) {
  (void)part, (void)sm, (void)L, (void)now, (void)what;
}

// Copies global memory [addr, addr + n) into dst through the partition's overlay (page-split).
void read_global(Partition& part, const LaunchState& L, uint64_t addr, void* dst, uint64_t n) {
  auto* out = static_cast<uint8_t*>(dst);
  while (n) {
    const uint64_t room = StoreOverlay::kPageSize - (addr & (StoreOverlay::kPageSize - 1));
    const uint32_t k = static_cast<uint32_t>(std::min(n, room));
    part.overlay().read(*L.gm, addr, out, k);
    addr += k;
    out += k;
    n -= k;
  }
}

// Who issued an operation: the order key of its global reductions (sim/memory/rmw_log.h).
struct Issuer {
  uint32_t sm = 0, cta = 0, warp = 0, lane = 0;
};
Issuer issuer_of(const ExecCtx& c, int lane) {
  return {c.sm->id(), c.cta->linear_id(), c.warp->id(), static_cast<uint32_t>(lane)};
}

// Reduces `n` bytes of `src` into global memory at `addr`, element by element, when the data lands
// at `now`: at once in the partition's overlay view, and through the RMW log into global memory
// (unless the partition stored to those bytes in this quantum: then the overlay's result is an
// ordinary store).
void reduce_global(Partition& part, const LaunchState& L, const rmw::ElemOp& e, uint64_t addr, const uint8_t* src,
                   uint32_t n, const Issuer& who, Cycles now) {
  const uint32_t es = rmw::type_bytes(e.type);
  StoreOverlay& o = part.overlay();
  for (uint32_t k = 0; k + es <= n; k += es) {
    rmw::apply(e, o.rmw_view(*L.gm, addr + k), src + k);
    if (o.dirty(addr + k, es)) continue;
    RmwRecord r;
    r.cycle = now.count();
    r.sm = who.sm;
    r.cta = who.cta;
    r.warp = who.warp;
    r.lane = who.lane;
    r.addr = addr + k;
    std::memcpy(r.b, src + k, es);
    r.apply = &apply_elem;
    r.elem = e;
    r.in_overlay = true;
    part.rmw_log().push(r);
  }
}

// A bulk copy's shared::cta source: checked for unfenced generic writes, read now (snapshot).
std::shared_ptr<const std::vector<uint8_t>> read_source(ExecCtx& c, int lane, const BulkOp& op, const Timing& t,
                                                        const char* what) {
  const uint32_t n = op.size;
  const uint32_t s = mem::own_shared_offset(c, lane, op.src, what);
  check_smem_range(c, lane, s, uint64_t{s} + n, what, " (source)");
  proxy::check_async_read(c, lane, *c.cta, s, n, what);
  proxy::mark_async(c, *c.cta, s, n, t.read_done, false, what);
  check_copied(c.cta->uncopied(), s, n, what);  // --timing-only (sim/units/uncopied_smem.h)
  return std::make_shared<const std::vector<uint8_t>>(c.cta->shared() + s, c.cta->shared() + s + n);
}

}  // namespace

// ---- tensor copies ---------------------------------------------------------------------------------

void TmaEngine::tensor(ExecCtx& c, int lane, const TensorOp& op) {
  switch (op.kind) {
    case TensorOp::Load: return tensor_load(c, lane, op);
    case TensorOp::Store: case TensorOp::Reduce: return tensor_store(c, lane, op);
    case TensorOp::Prefetch: {
      // A hint (L2 only): the map and coordinates must still be valid; no data moves.
      const isa::TensorMapParams map = read_tensor_map(c, lane, op.map, kPrefetchWhat);
      (void)plan(c, lane, op, map, 0, BoxDir::Load, kPrefetchWhat);
      return;
    }
  }
}

void TmaEngine::tensor_load(ExecCtx& c, int lane, const TensorOp& op) {
  const isa::TensorMapParams map = read_tensor_map(c, lane, op.map, kLoadWhat);
  // Destination CTAs: the one named by dstMem, or (multicast) every CTA of ctaMask at the same
  // offset, each with its mbarrier at mbar's offset (PTX ISA §9.7.9.25.5.2).
  const mem::SharedTarget dst = mem::resolve_cluster_shared(c, lane, op.smem, kLoadWhat);
  const mem::SharedTarget mb = mem::resolve_cluster_shared(c, lane, op.mbar, kLoadWhat);
  Cluster& cl = c.cta->cluster();
  if (!op.multicast && mb.cta != dst.cta && !(op.pair && mb.rank == (dst.rank ^ 1u))) {
    if (op.pair)
      c.fail(lane, fmt::format("{}: with .cta_group::2 the mbarrier (shared::cluster 0x{:x}, in {}) must be in the "
                               "destination CTA ({}) or its peer (cluster rank {}) (PTX ISA §9.7.9.25.5.2)",
                               kLoadWhat, op.mbar, cl.cta_name(mb.rank), cl.cta_name(dst.rank), dst.rank ^ 1u));
    c.fail(lane, fmt::format("{}: the mbarrier (shared::cluster 0x{:x}) must be in the same CTA as the destination "
                             "(shared::cluster 0x{:x}){} (PTX ISA §9.7.9.25.5.2)",
                             kLoadWhat, op.mbar, op.smem,
                             mb.rank == (dst.rank ^ 1u) ? "; with .cta_group::2 it may be in the peer CTA" : ""));
  }
  TileBox box = plan(c, lane, op, map, dst.offset, BoxDir::Load, kLoadWhat);
  check_smem_range(c, lane, box.smem_lo(), box.smem_hi(), kLoadWhat, fmt::format(" (the box: {})", box.describe()));
  check_rows(c, lane, box, map.global_dim[0], kLoadWhat, /*reads=*/true);
  const std::vector<uint32_t> ranks =
      op.multicast ? multicast_ranks(c, lane, op.cta_mask, kLoadWhat, true) : std::vector<uint32_t>{dst.rank};
  // The CTA whose mbarrier destination r's complete_tx goes to (see the file comment); all are
  // checked before anything is posted.
  auto bar_rank_of = [&](uint32_t r) { return !op.multicast ? mb.rank : op.pair ? ((r & ~1u) | (mb.rank & 1u)) : r; };
  for (uint32_t r : ranks) {
    const uint32_t br = bar_rank_of(r);
    if (br >= cl.size())
      c.fail(lane, fmt::format("{}: .cta_group::2 sends the complete_tx of destination CTA rank {} to its peer, "
                               "cluster rank {}, which the cluster of {} CTAs does not have (PTX ISA "
                               "§9.7.9.25.5.2)",
                               kLoadWhat, r, br, cl.size()));
    const Cta* bc = cl.cta(br);
    if (!bc || bc->done())
      c.fail(lane, fmt::format("{}: the CTA holding the mbarrier (cluster rank {}) has exited", kLoadWhat, br));
  }
  const Timing t = tile_load_timing(c, box, ranks, op.multicast);
  const VClock rel = cl.release(c.cta->cluster_rank());
  auto shared_box = std::make_shared<const TileBox>(std::move(box));
  for (uint32_t r : ranks) {
    Cta* target = cl.cta(r);
    if (!target || target->done())
      c.fail(lane, fmt::format("{}: the destination CTA (cluster rank {}) has exited", kLoadWhat, r));
    Cta* bar_cta = cl.cta(bar_rank_of(r));
    proxy::mark_async(c, *target, shared_box->smem_lo(), shared_box->smem_hi() - shared_box->smem_lo(), t.land, true,
                      kLoadWhat);
    Partition* part = c.part;
    const LaunchState* L = c.launch;
    c.part->events().post(t.land, EventPriority::AsyncDataLand,
                          [part, L, ref = target->ref(), shared_box, sm = sm_->id()](Cycles now) {
                            Cta* cta = ref.get();
                            if (!cta) return land_fault(part, sm, L, now, kLoadWhat);
                            // --timing-only: the box is marked instead of copied (sim/units/uncopied_smem.h).
                            if (L->skip_tma_copies)
                              cta->uncopied().mark(shared_box->smem_lo(), shared_box->smem_hi() - shared_box->smem_lo());
                            else
                              shared_box->load(cta->shared(), [&](uint64_t a, void* d, uint32_t n) {
                                read_global(*part, *L, a, d, n);
                              });
                            cta->tma_state().proxy.async_wrote(shared_box->smem_lo(),
                                                               shared_box->smem_hi() - shared_box->smem_lo());
                            race::async_wrote(*cta, shared_box->smem_lo(),
                                              shared_box->smem_hi() - shared_box->smem_lo());
                            if (L->check) note_tma_box_origin(*cta, *shared_box);  // tcgen05.mma's misread diagnosis
                          });
    post_complete_tx(c, t.land, bar_cta->ref(), mb.offset, shared_box->tx_bytes(), rel, kLoadWhat);
  }
}

void TmaEngine::tensor_store(ExecCtx& c, int lane, const TensorOp& op) {
  const bool reduce = op.kind == TensorOp::Reduce;
  const char* what = reduce ? kReduceWhat : kStoreWhat;
  const isa::TensorMapParams map = read_tensor_map(c, lane, op.map, what);
  const uint32_t src = mem::own_shared_offset(c, lane, op.smem, what);
  TileBox box = plan(c, lane, op, map, src, reduce ? BoxDir::Reduce : BoxDir::Store, what);
  check_smem_range(c, lane, box.smem_lo(), box.smem_hi(), what, fmt::format(" (the box: {})", box.describe()));
  rmw::ElemOp elem;
  if (reduce) {
    const std::string err = reduce_elem_of_map(op.op, map.data_type, &elem);
    if (!err.empty()) c.fail(lane, fmt::format("{}: {}", what, err));
  }
  // The tensor itself must be inside an allocation; the bytes a store adds to complete the last
  // 16-byte chunk of a row (TileBox::store) may lie past its end, where the H200 has allocation
  // slack: they are written only where memory exists (below).
  check_rows(c, lane, box, map.global_dim[0], what, /*reads=*/false, reduce ? 2 : 1);
  proxy::check_async_read(c, lane, *c.cta, box.smem_lo(), box.smem_hi() - box.smem_lo(), what);
  const Timing t = store_timing(c, box.tx_bytes());
  proxy::mark_async(c, *c.cta, box.smem_lo(), box.smem_hi() - box.smem_lo(), t.read_done, false, what);
  // Snapshot of the source (the engine has read it by t.read_done; the program may not change it
  // before wait_group.read returns).
  check_copied(c.cta->uncopied(), box.smem_lo(), box.smem_hi() - box.smem_lo(), what);  // --timing-only
  auto snap = std::make_shared<std::vector<uint8_t>>(box.smem_hi());
  std::memcpy(snap->data() + box.smem_lo(), c.cta->shared() + box.smem_lo(), box.smem_hi() - box.smem_lo());
  c.cta->tma_state().groups.add(thread_of(c, lane), t.land, t.read_done);
  Partition* part = c.part;
  const LaunchState* L = c.launch;
  c.part->events().post(t.land, EventPriority::AsyncDataLand,
                        [part, L, box = std::move(box), snap, reduce, elem, who = issuer_of(c, lane)](Cycles now) {
                          if (reduce) {
                            box.reduce(snap->data(), [&](uint64_t a, const void* s, uint32_t n) {
                              reduce_global(*part, *L, elem, a, static_cast<const uint8_t*>(s), n, who, now);
                            });
                          } else {
                            box.store(snap->data(), [&](uint64_t a, const void* s, uint32_t n) {
                              if (L->gm->find(a, n)) part->overlay().write(*L->gm, a, s, n);
                            });
                          }
                        });
}

// ---- bulk copies ------------------------------------------------------------------------------------

void TmaEngine::bulk(ExecCtx& c, int lane, const BulkOp& op) {
  const char* what = what_of(op);
  if (op.size % 16 != 0)
    c.fail(lane, fmt::format("{}: size {} is not a multiple of 16 (PTX ISA §9.7.9.25.4.1)", what, op.size));
  check_align(c, lane, op.src, "source", what);
  if (op.kind == BulkOp::Prefetch) return check_global_range(c, lane, op.src, op.size, what);
  check_align(c, lane, op.dst, "destination", what);
  switch (op.kind) {
    case BulkOp::GlobalToShared: return bulk_load(c, lane, op);
    case BulkOp::SharedToGlobal: return bulk_to_global(c, lane, op);
    case BulkOp::SharedToCluster: return bulk_to_cluster(c, lane, op);
    case BulkOp::Prefetch: return;
  }
}

void TmaEngine::bulk_load(ExecCtx& c, int lane, const BulkOp& op) {
  const char* what = what_of(op);
  const uint32_t n = op.size;
  check_global_range(c, lane, op.src, n, what, /*reads=*/true);
  const mem::SharedTarget d = mem::resolve_cluster_shared(c, lane, op.dst, what);
  const mem::SharedTarget mb = mem::resolve_cluster_shared(c, lane, op.mbar, what);
  check_smem_range(c, lane, d.offset, uint64_t{d.offset} + n, what, "");
  std::vector<uint32_t> ranks;
  if (op.multicast) {
    ranks = multicast_ranks(c, lane, op.cta_mask, what, false);
  } else {
    if (mb.cta != d.cta)
      c.fail(lane, fmt::format("{}: the mbarrier must be in the same CTA as the destination (PTX ISA §9.7.9.25.4.1)",
                               what));
    ranks.push_back(d.rank);
  }
  const Timing t = bulk_load_timing(c, op.src, n, ranks, op.multicast);
  Cluster& cl = c.cta->cluster();
  const VClock rel = cl.release(c.cta->cluster_rank());
  Partition* part = c.part;
  const LaunchState* L = c.launch;
  for (uint32_t r : ranks) {
    Cta* target = cl.cta(r);
    if (!target || target->done()) c.fail(lane, fmt::format("{}: the destination CTA (rank {}) has exited", what, r));
    proxy::mark_async(c, *target, d.offset, n, t.land, true, what);
    c.part->events().post(t.land, EventPriority::AsyncDataLand,
                          [part, L, sm = sm_->id(), ref = target->ref(), off = d.offset, src = op.src, n,
                           what](Cycles now) {
                            Cta* cta = ref.get();
                            if (!cta) return land_fault(part, sm, L, now, what);
                            read_global(*part, *L, src, cta->shared() + off, n);
                            cta->uncopied().clear(off, n);
                            cta->tma_state().proxy.async_wrote(off, n);
                            race::async_wrote(*cta, off, n);
                          });
    post_complete_tx(c, t.land, target->ref(), mb.offset, n, rel, what);
  }
}

void TmaEngine::bulk_to_global(ExecCtx& c, int lane, const BulkOp& op) {
  const char* what = what_of(op);
  const uint32_t n = op.size;
  const Timing t = store_timing(c, n);
  auto snap = read_source(c, lane, op, t, what);
  check_global_range(c, lane, op.dst, n, what, /*reads=*/false, op.reduce ? 2 : 1);
  c.cta->tma_state().groups.add(thread_of(c, lane), t.land, t.read_done);
  Partition* part = c.part;
  const LaunchState* L = c.launch;
  c.part->events().post(t.land, EventPriority::AsyncDataLand,
                        [part, L, dst = op.dst, snap, red = op.reduce, elem = op.elem,
                         who = issuer_of(c, lane)](Cycles now) {
                          const uint32_t k = static_cast<uint32_t>(snap->size());
                          if (red) return reduce_global(*part, *L, elem, dst, snap->data(), k, who, now);
                          for (uint32_t i = 0; i < k; i += 16) part->overlay().write(*L->gm, dst + i, snap->data() + i, 16);
                        });
}

void TmaEngine::bulk_to_cluster(ExecCtx& c, int lane, const BulkOp& op) {
  // shared::cta -> shared::cluster (a peer's, or the own CTA's), completing on the peer's mbarrier.
  const char* what = what_of(op);
  const uint32_t n = op.size;
  const Timing t = dsmem_timing(c, n);
  auto snap = read_source(c, lane, op, t, what);
  const mem::SharedTarget d = mem::resolve_cluster_shared(c, lane, op.dst, what);
  const mem::SharedTarget mb = mem::resolve_cluster_shared(c, lane, op.mbar, what);
  if (mb.cta != d.cta)
    c.fail(lane, fmt::format("{}: the mbarrier must be in the same CTA as the destination (PTX ISA §9.7.9.25.4.1)", what));
  const uint64_t lim = d.cta->smem_bytes();
  if (uint64_t{d.offset} + n > lim)
    c.fail(lane, fmt::format("{}: destination [0x{:x}, 0x{:x}) is outside the shared memory of the destination "
                             "CTA ({} bytes)",
                             what, d.offset, uint64_t{d.offset} + n, lim));
  proxy::mark_async(c, *d.cta, d.offset, n, t.land, true, what);
  Partition* part = c.part;
  const LaunchState* L = c.launch;
  const VClock rel = c.cta->cluster().release(c.cta->cluster_rank());
  c.part->events().post(t.land, EventPriority::AsyncDataLand,
                        [part, L, sm = sm_->id(), ref = d.cta->ref(), off = d.offset, snap, red = op.reduce,
                         elem = op.elem, what](Cycles now) {
                          Cta* cta = ref.get();
                          if (!cta) return land_fault(part, sm, L, now, what);
                          const uint32_t k = static_cast<uint32_t>(snap->size());
                          if (red) {
                            check_copied(cta->uncopied(), off, k, what);  // reads the destination
                            const uint32_t es = rmw::type_bytes(elem.type);
                            for (uint32_t i = 0; i < k; i += es) rmw::apply(elem, cta->shared() + off + i, snap->data() + i);
                          } else {
                            std::memcpy(cta->shared() + off, snap->data(), k);
                            cta->uncopied().clear(off, k);
                          }
                          cta->tma_state().proxy.async_wrote(off, k);
                          race::async_wrote(*cta, off, k);
                        });
  post_complete_tx(c, t.land, d.cta->ref(), mb.offset, n, rel, what);
}

// ---- bulk async-groups (PTX ISA §9.7.9.25.6) --------------------------------------------------------

void TmaEngine::commit_group(ExecCtx& c) {
  AsyncGroups& g = c.cta->tma_state().groups;
  for_lanes(c.mask, [&](int lane) { g.commit(thread_of(c, lane), c.now); });
}

Cycles TmaEngine::wait_group(ExecCtx& c, uint32_t n, bool read) {
  AsyncGroups& g = c.cta->tma_state().groups;
  Cycles until = c.now;
  for_lanes(c.mask, [&](int lane) {
    const AsyncGroups::Wait w = g.wait(thread_of(c, lane), n, read, c.now);
    if (!w.ready) until = max(until, w.until);  // every bulk operation's completion is known at issue
  });
  return until;
}

// ---- reduction rules ---------------------------------------------------------------------------------

std::string reduce_type_error(rmw::Op op, rmw::Type t) {
  using rmw::Op;
  using rmw::Type;
  switch (op) {
    case Op::Add: return "";
    case Op::Min: case Op::Max:
      return t == Type::F32 || t == Type::F64 ? fmt::format(".{} is not defined on 32/64-bit floats (PTX ISA "
                                                             "§9.7.9.25.4.2: .f16/.bf16 only)",
                                                             rmw::op_name(op))
                                               : "";
    case Op::Inc: case Op::Dec:
      return t == Type::U32 ? "" : fmt::format(".{} is defined on .u32 only (PTX ISA §9.7.9.25.4.2)", rmw::op_name(op));
    case Op::And: case Op::Or: case Op::Xor:
      return rmw::is_float(t) ? fmt::format(".{} is a bitwise operation: not defined on floating-point elements (PTX "
                                            "ISA §9.7.9.25.4.2)",
                                            rmw::op_name(op))
                              : "";
    case Op::Cas: case Op::Exch: break;
  }
  return fmt::format(".{} is not a reduction (PTX ISA §9.7.9.25.4.2)", rmw::op_name(op));
}

std::string reduce_elem_of_map(rmw::Op op, isa::TensorMapDataType t, rmw::ElemOp* e) {
  using T = isa::TensorMapDataType;
  using rmw::Type;
  bool ftz = false;
  Type r;
  switch (t) {
    case T::UInt32: r = Type::U32; break;
    case T::Int32: r = Type::S32; break;
    case T::UInt64: r = Type::U64; break;
    case T::Int64: r = Type::S64; break;
    case T::Float32: r = Type::F32; break;
    case T::Float32Ftz: r = Type::F32, ftz = true; break;
    case T::Float64: r = Type::F64; break;
    case T::Float16: r = Type::F16; break;
    case T::BFloat16: r = Type::BF16; break;
    default:
      return fmt::format("the tensor map's type {} cannot be reduced (PTX ISA §9.7.9.25.5.3: 32/64-bit integers, "
                         "f16, bf16, f32, f64)",
                         isa::tensor_map_dtype_name(t));
  }
  *e = {op, r, ftz};
  return reduce_type_error(op, r);
}

}  // namespace tcsim::sim::tma
