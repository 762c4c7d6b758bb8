// PTX ISA §9.7.9.25.4 Data Movement: bulk copies (non-tensor) and §9.7.9.25.6 bulk async-groups
//   cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.multicast::cluster}{.level::cache_hint}
//       [dstMem], [srcMem], size, [mbar]{, ctaMask}{, cache-policy};                (also .shared::cta dst)
//   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dstMem], [srcMem], size, [mbar];
//   cp.async.bulk.global.shared::cta.bulk_group{.level::cache_hint} [dstMem], [srcMem], size{, cache-policy};
//   cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type
//       [dstMem], [srcMem], size, [mbar];                                           (§9.7.9.25.4.2)
//   cp.reduce.async.bulk.global.shared::cta.bulk_group{.level::cache_hint}.redOp{.noftz}.type
//       [dstMem], [srcMem], size{, cache-policy};
//   cp.async.bulk.prefetch.L2.global{.level::cache_hint} [srcMem], size{, cache-policy};  (§9.7.9.25.4.3)
//   cp.async.bulk.commit_group;                                                     (§9.7.9.25.6.1)
//   cp.async.bulk.wait_group{.read} N;                                              (§9.7.9.25.6.2)
// size and both addresses are multiples of 16 (§9.7.9.25.4.1). Effects land through the engine's
// events (sim/units/tma_engine.h); bulk groups are per thread (sim/units/bulk_copy_group.h).
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
#include "sim/units/tma_cta_state.h"
#include "sim/units/tma_engine.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::Space;
using isa::ptx::Type;

constexpr uint32_t kOpDst = 0, kOpSrc = 1, kOpSize = 2, kOpMbar = 3, kOpMask = 4, kOpPolicy = 5, kNumOps = 6;
// aux: kind (bits 0-3), reduce op (8-11), reduce type (12-15), flags.
enum Kind : uint8_t { GlobalToShared, SharedToCluster, SharedToGlobal, Prefetch };
constexpr uint64_t kMulticast = 1u << 16;
constexpr uint64_t kPolicy = 1u << 17;
constexpr uint64_t kReduce = 1u << 18;

uint64_t lane_value(ExecCtx& c, const ExecInstr& in, uint32_t k, int lane) { return c.src(c.op(in, k).ref)[lane]; }

const char* what_of(const ExecInstr& in) {
  const bool red = in.aux & kReduce;
  switch (static_cast<Kind>(in.aux & 0xf)) {
    case GlobalToShared: return "cp.async.bulk (global -> shared)";
    case SharedToCluster: return red ? "cp.reduce.async.bulk (shared::cta -> shared::cluster)"
                                     : "cp.async.bulk (shared::cta -> shared::cluster)";
    case SharedToGlobal: return red ? "cp.reduce.async.bulk (shared::cta -> global)" : "cp.async.bulk (shared::cta -> global)";
    case Prefetch: return "cp.async.bulk.prefetch";
  }
  return "cp.async.bulk";
}

uint32_t checked_size(ExecCtx& c, const ExecInstr& in, int lane, const char* what) {
  const uint64_t n = static_cast<uint32_t>(lane_value(c, in, kOpSize, lane));
  if (n % 16 != 0)
    c.fail(lane, fmt::format("{}: size {} is not a multiple of 16 (PTX ISA §9.7.9.25.4.1)", what, n));
  return static_cast<uint32_t>(n);
}

void check_align(ExecCtx& c, int lane, uint64_t a, const char* which, const char* what) {
  if (a % 16 != 0)
    c.fail(lane, fmt::format("{}: the {} address 0x{:x} is not 16-byte aligned (PTX ISA §9.7.9.25.4.1)", what, which, a));
}

void land_fault(Partition* part, Sm* sm, const LaunchState* L, Cycles now, const char* what) {
  part->record_fault(now, sm->id(),
                     fmt::format("kernel {}: {}: the destination CTA exited before the copy landed", L->kernel, what));
}

void exec_bulk(ExecCtx& c, const ExecInstr& in) {
  const char* what = what_of(in);
  const Kind kind = static_cast<Kind>(in.aux & 0xf);
  const bool red = in.aux & kReduce;
  const auto op = static_cast<tma::ReduceOp>((in.aux >> 8) & 0xf);
  const auto rt = static_cast<tma::ReduceType>((in.aux >> 12) & 0xf);
  for_lanes(c.mask, [&](int lane) {
    const uint32_t n = checked_size(c, in, lane, what);
    const uint64_t src = mem::lane_address(c, c.op(in, kOpSrc), lane);
    check_align(c, lane, src, "source", what);
    tma::note_hint(*c.cta, (in.aux & kPolicy) != 0, (in.aux & kPolicy) ? lane_value(c, in, kOpPolicy, lane) : 0);
    if (kind == Prefetch) {
      tma::check_global_range(c, lane, src, n, what);
      ++c.cta->tma_state().prefetches;
      return;
    }
    const uint64_t dst = mem::lane_address(c, c.op(in, kOpDst), lane);
    check_align(c, lane, dst, "destination", what);
    const tma::Timing t = tma::issue_timing(c);
    Partition* part = c.part;
    const LaunchState* L = c.launch;
    Sm* sm = c.sm;
    if (kind == GlobalToShared) {
      tma::check_global_range(c, lane, src, n, what);
      const mem::SharedTarget d = mem::resolve_cluster_shared(c, lane, dst, what);
      const mem::SharedTarget mb = mem::resolve_cluster_shared(c, lane, mem::lane_address(c, c.op(in, kOpMbar), lane), what);
      tma::check_smem_range(c, lane, d.offset, uint64_t{d.offset} + n, what, "");
      std::vector<uint32_t> ranks;
      if (in.aux & kMulticast) {
        const uint32_t mask = static_cast<uint16_t>(lane_value(c, in, kOpMask, lane));
        for (uint32_t r = 0; r < kMaxClusterCtas; ++r)
          if (mask >> r & 1) {
            if (r >= c.cta->cluster().size())
              c.fail(lane, fmt::format("{}: ctaMask 0x{:04x} names CTA rank {}, but the cluster has {} CTA(s)", what,
                                       mask, r, c.cta->cluster().size()));
            ranks.push_back(r);
          }
      } else {
        if (mb.cta != d.cta)
          c.fail(lane, fmt::format("{}: the mbarrier must be in the same CTA as the destination (PTX ISA §9.7.9.25.4.1)",
                                   what));
        ranks.push_back(d.rank);
      }
      for (uint32_t r : ranks) {
        Cta* target = c.cta->cluster().cta(r);
        if (!target || target->done()) c.fail(lane, fmt::format("{}: the destination CTA (rank {}) has exited", what, r));
        proxy::mark_async(c, *target, d.offset, n, t.land, true, what);
        c.part->events().post(t.land, EventPriority::AsyncDataLand,
                              [part, L, sm, ref = target->ref(), off = d.offset, src, n, what](Cycles now) {
                                Cta* cta = ref.get();
                                if (!cta) return land_fault(part, sm, L, now, what);
                                tma::read_global(*part, *L, src, cta->shared() + off, n);
                                cta->tma_state().proxy.async_wrote(off, n);
                              });
        tma::post_complete_tx(c, t.land, target->ref(), mb.offset, n, what);
      }
      return;
    }
    // Shared::cta sources: checked for unfenced generic writes, read now (snapshot).
    const uint32_t s = mem::own_shared_offset(c, lane, src, what);
    tma::check_smem_range(c, lane, s, uint64_t{s} + n, what, " (source)");
    proxy::check_async_read(c, lane, *c.cta, s, n, what);
    proxy::mark_async(c, *c.cta, s, n, t.read_done, false, what);
    auto snap = std::make_shared<std::vector<uint8_t>>(c.cta->shared() + s, c.cta->shared() + s + n);
    if (kind == SharedToGlobal) {
      tma::check_global_range(c, lane, dst, n, what);
      c.cta->tma_state().groups.add(c.warp->id() * 32 + static_cast<uint32_t>(lane), t.land, t.read_done);
      c.part->events().post(t.land, EventPriority::AsyncDataLand, [part, L, dst, snap, red, op, rt](Cycles) {
        const uint32_t k = static_cast<uint32_t>(snap->size());
        if (red) {
          for (uint32_t i = 0; i < k; i += 16) tma::reduce_global(*part, *L, op, rt, dst + i, snap->data() + i, 16);
        } else {
          for (uint32_t i = 0; i < k; i += 16) part->overlay().write(*L->gm, dst + i, snap->data() + i, 16);
        }
      });
      return;
    }
    // shared::cta -> shared::cluster (a peer's, or the own CTA's), completing on the peer's mbarrier.
    const mem::SharedTarget d = mem::resolve_cluster_shared(c, lane, dst, what);
    const mem::SharedTarget mb = mem::resolve_cluster_shared(c, lane, mem::lane_address(c, c.op(in, kOpMbar), lane), what);
    if (mb.cta != d.cta)
      c.fail(lane, fmt::format("{}: the mbarrier must be in the same CTA as the destination (PTX ISA §9.7.9.25.4.1)", what));
    {
      const uint64_t lim = d.cta->smem_bytes();
      if (uint64_t{d.offset} + n > lim)
        c.fail(lane, fmt::format("{}: destination [0x{:x}, 0x{:x}) is outside the shared memory of the destination "
                                 "CTA ({} bytes)",
                                 what, d.offset, uint64_t{d.offset} + n, lim));
    }
    proxy::mark_async(c, *d.cta, d.offset, n, t.land, true, what);
    c.part->events().post(t.land, EventPriority::AsyncDataLand,
                          [part, L, sm, ref = d.cta->ref(), off = d.offset, snap, red, op, rt, what](Cycles now) {
                            Cta* cta = ref.get();
                            if (!cta) return land_fault(part, sm, L, now, what);
                            const uint32_t k = static_cast<uint32_t>(snap->size());
                            if (red) {
                              const uint32_t es = tma::reduce_type_bytes(rt);
                              for (uint32_t i = 0; i < k; i += es)
                                tma::reduce_element(op, rt, cta->shared() + off + i, snap->data() + i);
                            } else {
                              std::memcpy(cta->shared() + off, snap->data(), k);
                            }
                            cta->tma_state().proxy.async_wrote(off, k);
                          });
    tma::post_complete_tx(c, t.land, d.cta->ref(), mb.offset, n, what);
  });
}

void exec_commit(ExecCtx& c, const ExecInstr&) {
  for_lanes(c.mask, [&](int lane) {
    c.cta->tma_state().groups.commit(c.warp->id() * 32 + static_cast<uint32_t>(lane), c.now);
  });
}

template <bool Read>
void exec_wait(ExecCtx& c, const ExecInstr& in) {
  const uint32_t n = static_cast<uint32_t>(c.src(in.o[0])[__builtin_ctz(c.mask)]);
  Cycles until = c.now;
  for_lanes(c.mask, [&](int lane) {
    until = max(until, c.cta->tma_state().groups.wait_until(c.warp->id() * 32 + static_cast<uint32_t>(lane), n, Read));
  });
  if (until <= c.now) return;
  // The lanes sleep until the groups they wait for are complete (their effects land at that cycle,
  // before any warp issues: EventPriority).
  c.flow = Flow::Sleep;
  c.target = static_cast<uint32_t>((until - c.now).count());
}

tma::ReduceType reduce_type_of(BindCtx& b) {
  switch (b.type(0)) {
    case Type::U32: case Type::B32: return tma::ReduceType::U32;
    case Type::S32: return tma::ReduceType::S32;
    case Type::U64: case Type::B64: return tma::ReduceType::U64;
    case Type::S64: return tma::ReduceType::S64;
    case Type::F32: return tma::ReduceType::F32;
    case Type::F64: return tma::ReduceType::F64;
    case Type::F16: return tma::ReduceType::F16;
    case Type::BF16: return tma::ReduceType::BF16;
    default: b.fail("cp.reduce.async.bulk needs an element type (.b32/.b64/.u32/.s32/.u64/.s64/.f16/.bf16/.f32/.f64)");
  }
}

}  // namespace

void bind_cp_async_bulk(BindCtx& b) {
  const Op op = b.in.op;
  if (op == Op::st_bulk) return b.not_implemented("st.bulk is not implemented yet");
  if (op == Op::cp_async_bulk_commit_group) {
    b.out.fn = exec_commit;
    return;
  }
  if (op == Op::cp_async_bulk_wait_group) {
    b.out.o[0] = b.src(0, Type::U32);
    b.out.fn = b.has(Mod::read) ? exec_wait<true> : exec_wait<false>;
    return;
  }
  b.prog.uses_async_proxy = true;
  if (b.in.ntypes && (b.type(0) == Type::B8 || b.type(0) == Type::B16) && op != Op::cp_reduce_async_bulk)
    b.fail("unexpected type");
  std::vector<ExecOperand> ops(kNumOps);
  uint64_t aux = 0;
  size_t next = 0;
  if (op == Op::cp_async_bulk_prefetch) {
    aux = Prefetch;
    ops[kOpSrc] = b.address(0, Space::Global);
    ops[kOpSize].ref = b.src(1, Type::U32);
    next = 2;
  } else {
    const Space d = b.in.space(0), s = b.in.space(1);
    if (s == Space::Global && (d == Space::SharedCluster || d == Space::SharedCta)) aux = GlobalToShared;
    else if (s == Space::SharedCta && d == Space::SharedCluster) aux = SharedToCluster;
    else if (s == Space::SharedCta && d == Space::Global) aux = SharedToGlobal;
    else b.fail("cp.async.bulk copies .global -> .shared::cluster/.shared::cta, .shared::cta -> .shared::cluster or "
                ".shared::cta -> .global");
    if (b.has(Mod::cp_mask)) return b.not_implemented(".cp_mask (byte-masked bulk stores) is not implemented yet");
    ops[kOpDst] = b.address(0, aux == SharedToGlobal ? Space::Global : Space::SharedCluster);
    ops[kOpSrc] = b.address(1, aux == GlobalToShared ? Space::Global : Space::SharedCta);
    ops[kOpSize].ref = b.src(2, Type::U32);
    if (b.operand(2).kind == isa::ptx::OperandKind::Imm && b.operand(2).imm % 16 != 0)
      b.fail(fmt::format("size {} is not a multiple of 16 (PTX ISA §9.7.9.25.4.1)", b.operand(2).imm));
    next = 3;
    if (aux != SharedToGlobal) {
      ops[kOpMbar] = b.address(3, Space::SharedCluster);
      next = 4;
    }
    if (b.has(Mod::multicast_cluster)) {
      if (aux != GlobalToShared) b.fail(".multicast::cluster is only for global -> shared::cluster copies");
      aux |= kMulticast;
      if (b.nops() <= next) b.fail(".multicast::cluster needs the ctaMask operand");
      ops[kOpMask].ref = b.src(static_cast<int>(next++), Type::B16);
    }
  }
  if (op == Op::cp_reduce_async_bulk) {
    if ((aux & 0xf) == GlobalToShared) b.fail("cp.reduce.async.bulk reduces into .shared::cluster or .global");
    tma::ReduceOp r;
    if (!tma::parse_reduce_op(b.in, &r)) b.fail("cp.reduce.async.bulk needs .add/.min/.max/.inc/.dec/.and/.or/.xor");
    const tma::ReduceType t = reduce_type_of(b);
    const std::string e = tma::reduce_type_error(r, t);
    if (!e.empty()) b.fail(e);
    aux |= kReduce | static_cast<uint64_t>(r) << 8 | static_cast<uint64_t>(t) << 12;
  }
  if (b.has(Mod::L2_cache_hint)) {
    if (b.nops() <= next) b.fail(".L2::cache_hint needs the cache-policy operand");
    aux |= kPolicy;
    ops[kOpPolicy].ref = b.src(static_cast<int>(next++), Type::B64);
  }
  if (b.nops() != next) b.fail(fmt::format("unexpected operand {} (the form takes {})", next + 1, next));
  b.out.first_op = b.push(ops[0]);
  for (uint32_t k = 1; k < kNumOps; ++k) b.push(ops[k]);
  b.out.nops = kNumOps;
  b.out.aux = aux;
  b.out.fn = exec_bulk;
}

}  // namespace tcsim::sim
