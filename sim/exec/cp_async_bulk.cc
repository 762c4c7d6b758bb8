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
// This file decodes one lane's operands into a tma::BulkOp and hands it to the SM's TMA engine
// (sim/units/tma_engine.h), which checks it (size and both addresses multiples of 16,
// §9.7.9.25.4.1), moves the bytes and completes it; bulk groups are per thread
// (sim/units/async_groups.h).
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

constexpr uint32_t kOpDst = 0, kOpSrc = 1, kOpSize = 2, kOpMbar = 3, kOpMask = 4, kNumOps = 5;
// aux: tma::BulkOp::Kind (bits 0-3), rmw::Op (8-11), rmw::Type (12-15), flags.
constexpr uint64_t kMulticast = 1u << 16;
constexpr uint64_t kReduce = 1u << 18;

uint64_t lane_value(ExecCtx& c, const ExecInstr& in, uint32_t k, int lane) { return c.src(c.op(in, k).ref)[lane]; }

void exec_bulk(ExecCtx& c, const ExecInstr& in) {
  tma::BulkOp op;
  op.kind = static_cast<tma::BulkOp::Kind>(in.aux & 0xf);
  op.reduce = (in.aux & kReduce) != 0;
  op.elem = {static_cast<rmw::Op>(in.aux >> 8 & 0xf), static_cast<rmw::Type>(in.aux >> 12 & 0xf), false};
  op.multicast = (in.aux & kMulticast) != 0;
  tma::TmaEngine& engine = c.sm->tma();
  for_lanes(c.mask, [&](int lane) {
    op.size = static_cast<uint32_t>(lane_value(c, in, kOpSize, lane));
    op.src = mem::lane_address(c, c.op(in, kOpSrc), lane);
    if (op.kind != tma::BulkOp::Prefetch) op.dst = mem::lane_address(c, c.op(in, kOpDst), lane);
    if (op.kind == tma::BulkOp::GlobalToShared || op.kind == tma::BulkOp::SharedToCluster)
      op.mbar = mem::lane_address(c, c.op(in, kOpMbar), lane);
    if (op.multicast) op.cta_mask = static_cast<uint16_t>(lane_value(c, in, kOpMask, lane));
    engine.bulk(c, lane, op);
  });
}

void exec_commit(ExecCtx& c, const ExecInstr&) { c.sm->tma().commit_group(c); }

template <bool Read>
void exec_wait(ExecCtx& c, const ExecInstr& in) {
  const uint32_t n = static_cast<uint32_t>(c.src(in.o[0])[__builtin_ctz(c.mask)]);
  const Cycles until = c.sm->tma().wait_group(c, n, Read);
  if (until <= c.now) return;
  // The lanes sleep until the groups they wait for are complete (their effects land at that cycle,
  // before any warp issues: EventPriority).
  c.flow = Flow::Sleep;
  c.target = static_cast<uint32_t>((until - c.now).count());
}

rmw::Type reduce_type_of(BindCtx& b) {
  switch (b.type(0)) {
    case Type::U32: case Type::B32: return rmw::Type::U32;
    case Type::S32: return rmw::Type::S32;
    case Type::U64: case Type::B64: return rmw::Type::U64;
    case Type::S64: return rmw::Type::S64;
    case Type::F32: return rmw::Type::F32;
    case Type::F64: return rmw::Type::F64;
    case Type::F16: return rmw::Type::F16;
    case Type::BF16: return rmw::Type::BF16;
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
    aux = tma::BulkOp::Prefetch;
    ops[kOpSrc] = b.address(0, Space::Global);
    ops[kOpSize].ref = b.src(1, Type::U32);
    next = 2;
  } else {
    const Space d = b.in.space(0), s = b.in.space(1);
    if (s == Space::Global && (d == Space::SharedCluster || d == Space::SharedCta)) aux = tma::BulkOp::GlobalToShared;
    else if (s == Space::SharedCta && d == Space::SharedCluster) aux = tma::BulkOp::SharedToCluster;
    else if (s == Space::SharedCta && d == Space::Global) aux = tma::BulkOp::SharedToGlobal;
    else b.fail("cp.async.bulk copies .global -> .shared::cluster/.shared::cta, .shared::cta -> .shared::cluster or "
                ".shared::cta -> .global");
    if (b.has(Mod::cp_mask)) return b.not_implemented(".cp_mask (byte-masked bulk stores) is not implemented yet");
    ops[kOpDst] = b.address(0, aux == tma::BulkOp::SharedToGlobal ? Space::Global : Space::SharedCluster);
    ops[kOpSrc] = b.address(1, aux == tma::BulkOp::GlobalToShared ? Space::Global : Space::SharedCta);
    ops[kOpSize].ref = b.src(2, Type::U32);
    if (b.operand(2).kind == isa::ptx::OperandKind::Imm && b.operand(2).imm % 16 != 0)
      b.fail(fmt::format("size {} is not a multiple of 16 (PTX ISA §9.7.9.25.4.1)", b.operand(2).imm));
    next = 3;
    if (aux != tma::BulkOp::SharedToGlobal) {
      ops[kOpMbar] = b.address(3, Space::SharedCluster);
      next = 4;
    }
    if (b.has(Mod::multicast_cluster)) {
      if (aux != tma::BulkOp::GlobalToShared) b.fail(".multicast::cluster is only for global -> shared::cluster copies");
      aux |= kMulticast;
      if (b.nops() <= next) b.fail(".multicast::cluster needs the ctaMask operand");
      ops[kOpMask].ref = b.src(static_cast<int>(next++), Type::B16);
    }
  }
  if (op == Op::cp_reduce_async_bulk) {
    if ((aux & 0xf) == tma::BulkOp::GlobalToShared) b.fail("cp.reduce.async.bulk reduces into .shared::cluster or .global");
    rmw::Op r = rmw::Op::Add;
    if (rmw::parse_op(b.in, &r) != 1 || r == rmw::Op::Cas || r == rmw::Op::Exch)
      b.fail("cp.reduce.async.bulk needs .add/.min/.max/.inc/.dec/.and/.or/.xor");
    const rmw::Type t = reduce_type_of(b);
    const std::string e = tma::reduce_type_error(r, t);
    if (!e.empty()) b.fail(e);
    aux |= kReduce | static_cast<uint64_t>(r) << 8 | static_cast<uint64_t>(t) << 12;
  }
  if (b.has(Mod::L2_cache_hint)) {
    if (b.nops() <= next) b.fail(".L2::cache_hint needs the cache-policy operand");
    (void)b.src(static_cast<int>(next++), Type::B64);  // a hint only: checked, no effect on data
  }
  if (b.nops() != next) b.fail(fmt::format("unexpected operand {} (the form takes {})", next + 1, next));
  b.out.first_op = b.push(ops[0]);
  for (uint32_t k = 1; k < kNumOps; ++k) b.push(ops[k]);
  b.out.nops = kNumOps;
  b.out.aux = aux;
  b.out.fn = exec_bulk;
}

}  // namespace tcsim::sim
