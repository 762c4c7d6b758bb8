// The issue of one tcgen05.mma (PTX ISA §9.7.16.10; forms in tcgen05_mma.cc): at issue, per
// executing thread, the instruction descriptor and the shared-memory descriptors are decoded and
// validated (isa: validate_instr_desc, validate_mma_descriptors), every operand location is
// planned (isa/layouts: CanonicalLayout for shared memory; TmemALayout, TmemDLayout,
// TmemScaleLayout, TmemSparseMetaLayout for TMEM), TMEM allocations are checked, and the checker
// looks for hazards against tcgen05.ld/st. The plan (an MmaOp, sim/units/tensor_core_ops.h) goes
// to the tensor core, which computes it at completion (sim/units/tensor_core_mma.cc).
//
// cta_group::2 (§9.7.16.5, §9.7.16.10.5): the CTA pair acts as one MMA; pair position
// v = %cluster_ctarank & 1 supplies rows [v*M/2, (v+1)*M/2) of A and columns [v*N/2, (v+1)*N/2) of
// B from its own shared memory at the same descriptor addresses, and holds its part of D (and reads
// its scale factors and sparse metadata) in its own Tensor Memory at the same addresses (layouts A
// and B). Issued by one thread of either CTA.
//
// Modifier semantics: negate A/B (idesc bits 13/14) and saturate (bit 3) are applied by the
// engine; disable-output-lane bit i (LSB of the first word = lane 0; cta_group::2: the second four
// words are the odd CTA's lanes, UNCONFIRMED) keeps TMEM lane i of D unwritten; scale-input-d s:
// D = A*B + D*2^-s (kind::f16 / tf32 only, §9.7.16.10.9.1 — ptxas 13.0 accepts it for kind::i8,
// tcsim rejects it); .ws zero-column mask (§9.7.16.4.3): the B columns it selects count as zero.
// Block scaling (§9.7.16.10.7): the scale vector size and the kind give the scale factors per row
// (1X 1, 2X 2, 4X 4; one block of K/nsf elements each), the SF-ID fields their byte in the TMEM cell
// (isa/layouts/tmem_scale_layout.h). Sparse A (§9.7.16.10.8): A holds K/2 values per row, the
// metadata (isa/layouts/tmem_sparse_layout.h) where they belong; B is read for the whole K.
// Collectors (§9.7.16.10.9.1 .collector::a, §9.7.16.10.9.3 .collector::b0..b3): ::fill keeps the
// operand as this MMA reads it, ::use / ::lastuse compute with the kept copy (lastuse then frees it),
// ::discard (the default) frees it; a use without a fill is reported and reads shared memory.
// .ashift (§9.7.16.10.9.1): A from TMEM read with its rows shifted down by one — row m of the product
// takes A's row m-1, row 0 its own (docs/tensor_memory.md §9: a model, UNCONFIRMED).
// Not modelled (an error when executed): a .ws column shift (zero-column mask bits 56-61) and the
// maximum B-reuse shift (idesc bits 30-31), K = 96 (sm_103a), sparse data paths other than 128 rows
// per CTA.
#include <algorithm>
#include <memory>

#include "isa/descriptors/instr_desc.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/element_format.h"
#include "isa/layouts/tmem_layout.h"
#include "isa/layouts/tmem_scale_layout.h"
#include "isa/layouts/tmem_sparse_layout.h"
#include "models/mma/param_table.h"
#include "sim/checker/proxy.h"
#include "sim/exec/lane_ops.h"
#include "sim/exec/tcgen05_common.h"
#include "sim/exec/tcgen05_mma.h"
#include "sim/memory/access.h"
#include "sim/partition.h"
#include "sim/report/report.h"

namespace tcsim::sim::tcgen05_mma {
namespace {

using namespace tcgen05;
using isa::MmaKind;

// Zero-column mask descriptor of tcgen05.mma.ws (PTX ISA §9.7.16.4.3 Table 45; the field names as
// PTX's example 2 resolves them: bits 40-47 are the zeroed run, 48-55 the used run, whatever the
// table's description column says — docs/tensor_memory.md §6).
#define TCSIM_ZERO_COLUMN_MASK_FIELDS(X)                                                 \
  X(start_count0, 0, 8, "sub-mask 0: columns of its first span already consumed")        \
  X(start_count1, 8, 8, "sub-mask 1: columns of its first span already consumed")        \
  X(start_count2, 16, 8, "sub-mask 2")                                                   \
  X(start_count3, 24, 8, "sub-mask 3")                                                   \
  X(first_span, 32, 4, "bit i: sub-mask i starts with a zero (skip) span")               \
  X(non_zero_mask, 39, 1, "0: the mask is all zero (every B column used)")               \
  X(skip_span, 40, 8, "zeroed columns per run - 1")                                      \
  X(use_span, 48, 8, "used columns per run - 1")                                         \
  X(column_shift, 56, 6, "column shift (B reuse)")
TCSIM_DEFINE_BITFIELDS(ZeroColumnMaskBits, uint64_t, TCSIM_ZERO_COLUMN_MASK_FIELDS);

std::string violations_text(const isa::Violations& v) {
  std::string r;
  for (const isa::Violation& x : v) r += fmt::format("\n    - {}", x.to_string());
  return r;
}

// Builds the shared-memory plan of an operand (rows x K of one CTA) and checks its footprint; a
// descriptor planned before for this CTA (same rows, K, format and major) reuses that plan, which
// the same checks accepted.
SmemPlanRef plan_operand(ExecCtx& c, int lane, uint64_t raw, isa::Arch arch, isa::Major major, isa::ElementFormat fmt,
                         uint32_t rows, uint32_t K, const char* name, const Cta& cta, TcCtaState& st) {
  const TcCtaState::PlanKey key{raw, rows, K, fmt.bits, fmt.per_16b, static_cast<uint8_t>(major)};
  if (auto it = st.plans.find(key); it != st.plans.end()) return it->second;
  const isa::SmemDesc sd = isa::decode_smem_desc(raw, arch);
  auto L = isa::CanonicalLayout::make(sd, fmt, major);
  if (!L)
    c.fail(lane, fmt::format("tcgen05.mma: the {} descriptor 0x{:016x} has no canonical layout: {}", name, raw,
                             L.error().message));
  if (L->max_k() && K > L->max_k())
    c.fail(lane, fmt::format("tcgen05.mma: {} is K-major {} with {} elements per swizzle row, but one MMA reads K = "
                             "{} (PTX ISA §9.7.16.3)",
                             name, isa::layout_label(sd.layout), L->max_k(), K));
  auto plan = std::make_shared<SmemOperandPlan>();
  plan->at.resize(size_t{rows} * K);
  L->locate_tile(0, rows, 0, K, plan->at.data());
  const uint32_t bytes = std::max<uint32_t>(1, fmt.bits / 8);
  uint32_t lo = ~0u, hi = 0;
  for (const isa::SmemLocation& l : plan->at) {
    if (l.byte + bytes > cta.smem_bytes())
      c.fail(lane, fmt::format("tcgen05.mma: operand {} (descriptor 0x{:016x}: {}) reads shared address 0x{:x}, "
                               "outside {}'s {} bytes of shared memory",
                               name, raw, L->describe(), l.byte, cta.name(), cta.smem_bytes()));
    lo = std::min(lo, l.byte), hi = std::max(hi, l.byte + bytes);
  }
  plan->lo = plan->at.empty() ? 0 : lo, plan->hi = hi;
  if (st.plans.size() >= TcCtaState::kMaxPlans) st.plans.clear();
  return st.plans.emplace(key, std::move(plan)).first->second;
}

void check_tmem_columns(ExecCtx& c, int lane, TensorCore& u, const Cta& cta, uint32_t col0, uint32_t cols,
                        const char* what, uint32_t taddr) {
  if (col0 + cols > kTmemColumns || !u.tmem().find(&cta, col0, cols))
    c.fail(lane, fmt::format("tcgen05.mma: {} at TMEM address 0x{:08x} uses columns {}-{} of {}, which are not "
                             "allocated to it (allocations on SM {}: {}; PTX ISA §9.7.16.7.1)",
                             what, taddr, col0, col0 + cols - 1, cta.name(), u.sm().id(),
                             u.tmem().describe_allocations()));
}

// RAW / WAR hazards against the tcgen05.ld/st of the CTA's warps (PTX ISA §9.7.16.6.4): an MMA
// that reads `reads` (A, scale factors, metadata, D when accumulating) or writes `writes` (D).
void check_ldst_hazards(ExecCtx& c, int lane, TensorCore& u, const Cta& cta, const std::vector<TmemRange>& reads,
                        const TmemRange& writes) {
  TcCtaState* st = u.find_cta(cta);
  if (!st) return;
  auto any_read = [&](const TmemRange& r) {
    for (const TmemRange& x : reads)
      if (x.overlaps(r)) return true;
    return false;
  };
  for (size_t w = 0; w < st->warps.size(); ++w) {
    const TcWarpState& ws = st->warps[w];
    for (const TmemRange& r : ws.st_ranges)
      if (any_read(r) || r.overlaps(writes)) {
        report(c, Rule::TmemMmaRawSt, lane,
               fmt::format("tcgen05.mma reads or writes TMEM cells that warp {} of {} wrote with tcgen05.st ({}) "
                           "without tcgen05.wait::st, tcgen05.fence::before_thread_sync and a synchronisation "
                           "before this MMA: a read-after-write hazard (PTX ISA §9.7.16.6.4)",
                           w, cta.name(), tc_source_text(*c.part, ws.st_src)),
               ws.st_src);
        return;
      }
  }
  if (tcgen05::check_ld_war(c, lane, u, cta, writes, "tcgen05.mma")) return;
  // The other warps' tcgen05.ld/st of these cells are ordered before this MMA only through a thread
  // sync preceded by tcgen05.fence::before_thread_sync in the accessing warp (§9.7.16.6.4).
  for (size_t w = 0; w < st->warps.size(); ++w) {
    const TcWarpState& ws = st->warps[w];
    if (&cta == c.cta && w == c.warp->id()) continue;  // program order within the warp
    if (!ws.unfenced_overlaps(writes)) continue;
    report(c, Rule::TmemMissingFenceBefore, lane,
           fmt::format("tcgen05.mma overwrites TMEM columns {}-{} that warp {} of {} accessed with {} and then handed "
                       "over without tcgen05.fence::before_thread_sync between that access and its thread sync (its "
                       "mbarrier arrive or bar.sync): the MMA is not ordered after the access (PTX ISA §9.7.16.6.4, "
                       "§9.7.16.11.1)",
                       writes.col0, writes.col0 + writes.cols - 1, w, cta.name(), tc_source_text(*c.part, ws.unfenced_src)),
           ws.unfenced_src);
    return;
  }
  // ... and after that sync, by tcgen05.fence::after_thread_sync in the issuing warp.
  if (&cta != c.cta) return;  // the peer CTA's warps synchronise through the pair's own barriers
  const TcWarpState& me = st->warps[c.warp->id()];
  for (size_t w = 0; w < st->warps.size(); ++w) {
    const TcWarpState& ws = st->warps[w];
    Cycles handed;
    if (w == c.warp->id() || !ws.fenced_unordered(writes, !me.fenced_after, me.last_fence_after, &handed)) continue;
    report(c, Rule::TmemMissingFenceAfter, lane,
           fmt::format("tcgen05.mma overwrites TMEM columns {}-{} that warp {} of {} accessed with {} and handed over "
                       "(tcgen05.fence::before_thread_sync at cycle {}), but this warp executed no "
                       "tcgen05.fence::after_thread_sync since then: the MMA is not ordered after that access "
                       "(PTX ISA §9.7.16.6.4, §9.7.16.11.1)",
                       writes.col0, writes.col0 + writes.cols - 1, w, cta.name(), tc_source_text(*c.part, ws.fenced_src),
                       handed.count()),
           ws.fenced_src, 1);
    return;
  }
}

// A TMEM address operand of the scale factors: bits 31:30 are not a lane the tensor core uses.
uint32_t scale_address(ExecCtx& c, const ExecInstr& in, uint32_t slot, int lane, const char* name, int sf_id) {
  const uint32_t t = static_cast<uint32_t>(mem::lane_address(c, c.op(in, slot), lane));
  if (t >> 30)
    report(c, Rule::MmaScaleAddressHighBits, lane,
           [&] {
             return fmt::format("{} 0x{:08x} has bits 31:30 = {} (lane {} would be outside TMEM); the tensor core "
                                "reads the scale factors at lane {}, column {} — CUTLASS's block-scaled MMAs pass "
                                "the SF-ID of their TMEM pointers in these bits (the idesc's SF-ID is {}), and run "
                                "correctly on the GPU",
                                name, t, t >> 30, t >> 16, (t >> 16) & 0x3fff, t & 0xffff, sf_id);
           });
  return t & 0x3fffffffu;
}

// The collector of this MMA: whether it computes with a kept copy, and what it does to the buffer.
void plan_collector(ExecCtx& c, int lane, uint64_t aux, TcCtaState& st, MmaOp& op, uint32_t rows, uint32_t k) {
  const Collector use = aux_collector(aux);
  const bool is_b = aux & kAuxCollectorB;
  const uint32_t idx = aux_collector_buffer(aux);
  TcCollector& buf = is_b ? st.collector_b[idx] : st.collector_a;
  const std::string name = is_b ? fmt::format("b{}", idx) : std::string("a");
  MmaOp::CollectorPlan& p = is_b ? op.coll_b : op.coll_a;
  p.buffer = is_b ? static_cast<int>(idx) : 4;
  switch (use) {
    case Collector::Fill:
      p.fill = true;
      buf.filled = true;
      buf.rows = rows;
      buf.k = k;
      buf.fill_src = op.src;
      break;
    case Collector::Use:
    case Collector::LastUse:
      if (!buf.filled)
        report(c, Rule::MmaCollectorUseWithoutFill, lane,
               fmt::format(".collector::{}::{} without a valid earlier ::fill of that buffer{}: the operand is read "
                           "from shared memory",
                           name, use == Collector::Use ? "use" : "lastuse",
                           buf.freed_src ? fmt::format(" (it was freed by {})", tc_source_text(*c.part, buf.freed_src - 1))
                                         : std::string()));
      else if (buf.rows != rows || buf.k != k)
        report(c, Rule::MmaCollectorUseWithoutFill, lane,
               fmt::format(".collector::{}::use of a buffer filled by {} with a {} x {} operand, but this MMA reads "
                           "{} x {}: the operand is read from shared memory",
                           name, tc_source_text(*c.part, buf.fill_src), buf.rows, buf.k, rows, k));
      else
        p.use = true;
      if (use == Collector::LastUse) {
        buf.filled = false;
        buf.freed_src = op.src + 1;
        p.release = true;
      }
      break;
    case Collector::Discard:
      if (buf.filled) buf.freed_src = op.src + 1;
      buf.filled = false;
      p.release = true;
      break;
  }
}

}  // namespace

void issue(ExecCtx& c, const ExecInstr& in, int lane) {
  const uint64_t aux = in.aux;
  const MmaKind kind = aux_kind(aux);
  const isa::Arch arch = aux_arch(aux);
  const int cg = (aux & kAuxCg2) ? 2 : 1;
  const bool ws = aux & kAuxWs, a_tmem = aux & kAuxATmem, sp = aux & kAuxSparse, block = aux & kAuxBlock;
  auto op = std::make_shared<MmaOp>();
  op->kind = kind;
  op->cg = cg;
  op->a_tmem = a_tmem;
  op->sparse = sp;
  op->ashift = aux & kAuxAshift;
  op->src = in.src;
  const uint32_t d_taddr = static_cast<uint32_t>(mem::lane_address(c, c.op(in, kOpD), lane));
  const uint32_t idesc = static_cast<uint32_t>(c.src(c.op(in, kOpIdesc).ref)[lane]);
  const uint64_t b_raw = c.src(c.op(in, kOpB).ref)[lane];
  const uint64_t a_raw = a_tmem ? 0 : c.src(c.op(in, kOpA).ref)[lane];
  const uint32_t a_taddr = a_tmem ? static_cast<uint32_t>(mem::lane_address(c, c.op(in, kOpA), lane)) : 0;
  if (aux & kAuxEnableImm) {
    // ptxas takes an integer immediate for the predicate: 0 is false, anything else true (the SASS
    // has !UPT / UPT; docs/hardware_tolerance.md).
    op->enable_d = aux & kAuxEnableImmVal;
    report(c, Rule::MmaImmediateEnableInputD, lane, [&] {
      return fmt::format("enable-input-d is the integer immediate {} instead of a predicate; ptxas reads it as {}, "
                         "and so does tcsim",
                         c.prog->instr_of(in).ops[aux_enable_imm_operand(aux)].imm, op->enable_d);
    });
  } else {
    const bool p = (c.pred(c.op(in, kOpEnable).ref) >> lane) & 1;
    op->enable_d = (aux & kAuxEnableNeg) ? !p : p;
  }
  const int scale = (aux & kAuxScale) ? int((aux >> 8) & 15) : 0;

  // ---- the instruction descriptor and the shared-memory descriptors (PTX ISA §9.7.16.4) ----
  const isa::InstrDesc id = isa::decode_instr_desc(idesc, kind);
  isa::InstrDescContext ctx;
  ctx.arch = arch;
  ctx.cta_group = cg;
  ctx.ws = ws;
  ctx.scale_vec = aux_scale_vec(aux);
  isa::Violations v = isa::validate_instr_desc(id, ctx);
  if (!v.empty())
    c.fail(lane, fmt::format("tcgen05.mma.kind::{}: instruction descriptor 0x{:08x} breaks {} rule{}:{}\n  fields:\n{}",
                             isa::kind_name(kind), idesc, v.size(), v.size() > 1 ? "s" : "", violations_text(v),
                             isa::instr_desc_fields_text(idesc, kind)));
  const isa::SmemDesc bd = isa::decode_smem_desc(b_raw, arch);
  const isa::SmemDesc ad = isa::decode_smem_desc(a_raw, arch);
  v = isa::validate_mma_descriptors(id, ctx, a_tmem ? nullptr : &ad, &bd);
  if (!v.empty()) {
    std::string fields;
    if (!a_tmem) fields += fmt::format("\n  A descriptor 0x{:016x}:\n{}", a_raw, isa::smem_desc_fields_text(a_raw, arch));
    fields += fmt::format("\n  B descriptor 0x{:016x}:\n{}", b_raw, isa::smem_desc_fields_text(b_raw, arch));
    c.fail(lane, fmt::format("tcgen05.mma.kind::{}: shared-memory descriptor rule{} broken:{}{}", isa::kind_name(kind),
                             v.size() > 1 ? "s" : "", violations_text(v), fields));
  }
  if (id.sparse != sp)
    c.fail(lane, sp ? fmt::format("tcgen05.mma.sp: the instruction descriptor 0x{:08x} says dense (bit 2 = 0); a "
                                  "sparse MMA needs the sparse bit (PTX ISA §9.7.16.4.2, §9.7.16.10.9.2)",
                                  idesc)
                    : std::string("tcgen05.mma: the instruction descriptor says sparse (bit 2) but the instruction is "
                                  "not tcgen05.mma.sp (PTX ISA §9.7.16.4.2, §9.7.16.10.9.2)"));
  if (scale && kind != MmaKind::F16 && kind != MmaKind::TF32)
    c.fail(lane, "tcgen05.mma: scale-input-d exists only for kind::f16 and kind::tf32 (PTX ISA §9.7.16.10.9.1)");
  if (ws && id.max_shift)
    c.fail(lane, "tcgen05.mma.ws: a maximum B-reuse shift (idesc bits 30-31) is not modelled by tcsim");
  if (id.k == 96)
    c.fail(lane, "tcgen05.mma: K = 96 (idesc bit 31, sm_103a) is not modelled by tcsim: its scale-factor layouts are "
                 "PTX ISA §9.7.16.10.7 figures only");
  if (op->ashift && id.m != 128 && id.m != 256)
    c.fail(lane, fmt::format("tcgen05.mma .ashift needs M = 128 or 256, the descriptor has M = {} (PTX ISA "
                             "§9.7.16.10.9.1)",
                             id.m));
  op->m = static_cast<uint32_t>(id.m);
  op->n = static_cast<uint32_t>(id.n);
  op->kb = static_cast<uint32_t>(id.k);           // K of B (the logical K)
  op->k = sp ? op->kb / 2 : op->kb;               // products per output: the stored K of A
  op->f16_d = id.d_type == isa::DType::F16;

  // ---- arithmetic: the sm_100a tcgen05 parameter row ----
  models::mma::DotShape& s = op->shape;
  s.kind = kind;
  s.atype = *id.a_type;
  s.btype = *id.b_type;
  s.dtype = block ? isa::DType::F32 : *id.d_type;
  s.k = static_cast<int>(op->k);
  s.negate_a = id.negate_a;
  s.negate_b = id.negate_b;
  s.saturate = id.saturate;
  s.scale_input_d = scale;
  int nsf = 0;
  if (block) {
    nsf = isa::scale_factors_per_row(kind, *ctx.scale_vec, false);
    s.scale_type = id.scale_type == isa::DType::UE4M3 ? models::mma::ScaleType::UE4M3 : models::mma::ScaleType::UE8M0;
    s.scale_block = s.k / nsf;
  }
  const models::mma::ParamRow* row = models::mma::find_row(isa::Arch::Sm100a, models::mma::Path::Tcgen05, kind,
                                                           s.atype, s.btype, s.dtype);
  if (!row)
    c.fail(lane, fmt::format("tcgen05.mma.kind::{} {} x {} -> {}: no sm_100a arithmetic model row", isa::kind_name(kind),
                             isa::dtype_name(s.atype), isa::dtype_name(s.btype), isa::dtype_name(s.dtype)));
  s.num = row->num;
  if (std::string e = models::mma::check_shape(s); !e.empty()) c.fail(lane, "tcgen05.mma: " + e);

  // ---- the CTAs involved ----
  TensorCore& tc = c.sm->tensor_core();
  Cta* ctas[2] = {c.cta, nullptr};
  if (cg == 1) {
    op->ctas[0] = c.cta->ref();
    op->units[0] = &tc;
  } else {
    Cta* peer = peer_cta(*c.cta);
    if (!peer)
      c.fail(lane, fmt::format("tcgen05.mma.cta_group::2 in {} (cluster rank {}), but its CTA-pair peer (rank {}) is "
                               "not running: the peer must be launched and not exited (PTX ISA §9.7.16.5 Table 46)",
                               c.cta->name(), c.cta->cluster_rank(), c.cta->cluster_rank() ^ 1u));
    const bool even = (c.cta->cluster_rank() & 1) == 0;
    Cta* pair[2] = {even ? c.cta : peer, even ? peer : c.cta};
    for (int x = 0; x < 2; ++x) {
      op->ctas[x] = pair[x]->ref();
      op->units[x] = &pair[x]->sm().tensor_core();
      ctas[x] = pair[x];
    }
  }

  // ---- D in TMEM (§9.7.16.10.5) ----
  auto dl = isa::TmemDLayout::make(op->m, op->n, cg, sp, ws, d_taddr);
  if (!dl) c.fail(lane, fmt::format("tcgen05.mma: d-tmem 0x{:08x}: {}", d_taddr, dl.error().message));
  op->d_layout = *dl;
  const uint32_t d_col0 = d_taddr & 0xffff;
  op->d_col0 = d_col0;
  for (int x = 0; x < cg; ++x)
    check_tmem_columns(c, lane, *op->units[x], *ctas[x], d_col0, dl->columns_used(), "D (d-tmem)", d_taddr);
  std::vector<TmemRange> reads;

  // ---- A ----
  const uint32_t K = op->k;
  if (a_tmem) {
    auto al = isa::TmemALayout::make(op->m, cg, sp, s.atype, kind, a_taddr);
    if (!al) c.fail(lane, fmt::format("tcgen05.mma: a-tmem 0x{:08x}: {}", a_taddr, al.error().message));
    op->a_layout = *al;
    const uint32_t a_cols = (K + al->per_column() - 1) / al->per_column();
    for (int x = 0; x < cg; ++x)
      check_tmem_columns(c, lane, *op->units[x], *ctas[x], a_taddr & 0xffff, a_cols, "A (a-tmem)", a_taddr);
    reads.push_back({0, kTmemLanes, a_taddr & 0xffff, a_cols});
  } else {
    auto fa = isa::smem_element_format(s.atype, kind);
    if (!fa) c.fail(lane, "tcgen05.mma: A: " + fa.error().message);
    op->a_fmt = *fa;
    op->a_plan = plan_operand(c, lane, a_raw, arch, id.a_major, *fa, op->m / cg, K, "A", *c.cta, tc.cta(*c.cta));
  }
  auto fb = isa::smem_element_format(s.btype, kind);
  if (!fb) c.fail(lane, "tcgen05.mma: B: " + fb.error().message);
  op->b_fmt = *fb;
  op->b_plan = plan_operand(c, lane, b_raw, arch, id.b_major, *fb, op->n / cg, op->kb, "B", *c.cta, tc.cta(*c.cta));
  // The swizzle-bug diagnosis, for operands TMA loaded (each CTA of a pair reads its own half).
  for (int x = 0; x < cg; ++x) {
    const Cta& owner = *ctas[x];
    if (!c.checking() || !owner.smem_origin_if_any()) continue;
    auto& seen = op->units[x]->cta(owner).diagnosed;
    if (!a_tmem)
      diagnose_operand(c, lane, owner, "A", a_raw, arch, id.a_major, op->a_fmt, op->m / cg, K, op->a_plan->at, seen);
    diagnose_operand(c, lane, owner, "B", b_raw, arch, id.b_major, op->b_fmt, op->n / cg, op->kb, op->b_plan->at, seen);
  }

  // ---- scale factors (§9.7.16.10.7) ----
  if (block) {
    const uint32_t sfa_t = scale_address(c, in, kOpSfa, lane, "scale-A-tmem", id.sfa_id);
    const uint32_t sfb_t = scale_address(c, in, kOpSfb, lane, "scale-B-tmem", id.sfb_id);
    using Which = isa::TmemScaleLayout::Operand;
    auto la = isa::TmemScaleLayout::make(*dl, d_col0, op->m, cg, Which::A, sfa_t, id.sfa_id, nsf);
    if (!la) c.fail(lane, "tcgen05.mma: " + la.error().message);
    auto lb = isa::TmemScaleLayout::make(*dl, d_col0, op->m, cg, Which::B, sfb_t, id.sfb_id, nsf);
    if (!lb) c.fail(lane, "tcgen05.mma: " + lb.error().message);
    op->sfa = *la;
    op->sfb = *lb;
    for (int x = 0; x < cg; ++x) {
      check_tmem_columns(c, lane, *op->units[x], *ctas[x], la->column(), la->columns(), "scale_A (scale-A-tmem)",
                         sfa_t);
      check_tmem_columns(c, lane, *op->units[x], *ctas[x], lb->column(), lb->columns(), "scale_B (scale-B-tmem)",
                         sfb_t);
    }
    reads.push_back({0, kTmemLanes, la->column(), la->columns()});
    reads.push_back({0, kTmemLanes, lb->column(), lb->columns()});
  }

  // ---- sparse metadata (§9.7.16.10.8) ----
  if (sp) {
    const uint32_t mt = static_cast<uint32_t>(mem::lane_address(c, c.op(in, kOpMeta), lane));
    auto ml = isa::TmemSparseMetaLayout::make(kind, op->m, cg, mt, id.sparse_selector);
    if (!ml) c.fail(lane, "tcgen05.mma.sp: " + ml.error().message);
    op->meta = *ml;
    for (int x = 0; x < cg; ++x)
      check_tmem_columns(c, lane, *op->units[x], *ctas[x], ml->first_column(), ml->columns(),
                         "the sparse metadata (sp-meta-tmem)", mt);
    reads.push_back({0, kTmemLanes, ml->first_column(), ml->columns()});
  }

  // ---- modifiers ----
  if (aux & kAuxDisable) {
    const uint32_t words = cg == 2 ? 8 : 4;
    for (uint32_t w = 0; w < words; ++w)
      op->disable[w] = static_cast<uint32_t>(c.src(c.op(in, kOpDisable + w).ref)[lane]);
  }
  if (aux & kAuxZcm) {
    ZeroColumnMaskBits z{c.src(c.op(in, kOpZcm).ref)[lane]};
    if (z.reserved_bits())
      c.fail(lane, fmt::format("tcgen05.mma.ws: zero-column-mask-desc 0x{:016x} has reserved bits {} set (PTX ISA "
                               "§9.7.16.4.3)",
                               z.raw, isa::bit_ranges_text(z.reserved_bits())));
    if (z.non_zero_mask()) {
      if (z.column_shift())
        c.fail(lane, "tcgen05.mma.ws: a zero-column mask with a column shift (bits 56-61) is not modelled by tcsim");
      // M = 128: one N-column sub-mask; M = 64: two of N/2; M = 32: four of N/4 (§9.7.16.4.3).
      const uint32_t subs = op->m == 128 ? 1 : op->m == 64 ? 2 : 4, span = op->n / subs;
      const uint32_t skip = z.skip_span() + 1, use = z.use_span() + 1;
      op->zero_col.assign(op->n, 0);
      for (uint32_t j = 0; j < op->n; ++j) {
        const uint32_t sub = j / span;
        const uint32_t start = uint32_t((z.raw >> (8 * sub)) & 0xff);
        const bool zero_first = (z.first_span() >> sub) & 1;
        const uint32_t p = (j % span + start + (zero_first ? use : 0)) % (use + skip);
        op->zero_col[j] = p >= use;
      }
    }
  }
  // Collectors: .collector::a (A of the pair's even CTA) or .ws's .collector::bN.
  plan_collector(c, lane, aux, op->units[0]->cta(*ctas[0]), *op, (aux & kAuxCollectorB) ? op->n : op->m,
                 (aux & kAuxCollectorB) ? op->kb : K);

  // ---- checker: hazards against tcgen05.ld/st ----
  const TmemRange d_range{0, kTmemLanes, d_col0, dl->columns_used()};
  if (op->enable_d) reads.push_back(d_range);
  if (c.checking())
    for (int x = 0; x < cg; ++x) check_ldst_hazards(c, lane, *op->units[x], *ctas[x], reads, d_range);

  // The shared-memory byte ranges the async proxy reads until the MMA completes (checker).
  const bool a_smem = c.checking() && !a_tmem && op->a_plan && !op->a_plan->at.empty();
  const bool b_smem = c.checking() && op->b_plan && !op->b_plan->at.empty();
  const auto a_hull = a_smem ? std::pair{op->a_plan->lo, op->a_plan->hi} : std::pair{0u, 0u};
  const auto b_hull = b_smem ? std::pair{op->b_plan->lo, op->b_plan->hi} : std::pair{0u, 0u};

  // ---- issue: the tensor core owns the datapath and the completion ----
  const Cycles done = tc.issue_mma(*c.part, c.now, std::move(op));
  Cycles& last = tc.cta(*c.cta).thread_last_done[c.warp->id() * 32 + static_cast<uint32_t>(lane)];
  last = max(last, done);
  // ---- checker: the shared-memory operands are read by the async proxy until `done` ----
  if (c.checking())
    for (int x = 0; x < cg; ++x) {
      Cta& owner = *ctas[x];
      if (a_smem) proxy::mma_operand(c, lane, owner, a_hull.first, a_hull.second - a_hull.first, done, "tcgen05.mma operand A");
      if (b_smem) proxy::mma_operand(c, lane, owner, b_hull.first, b_hull.second - b_hull.first, done, "tcgen05.mma operand B");
    }
}

}  // namespace tcsim::sim::tcgen05_mma
