// PTX ISA §9.7.16.10 tcgen05.mma (forms: §9.7.16.10.9.1 dense, .10.9.3 .ws):
//   tcgen05.mma.cta_group.kind   [d-tmem],  a-desc,  b-desc, idesc, { disable-output-lane }, enable-input-d {, scale-input-d};
//   tcgen05.mma.cta_group.kind   [d-tmem], [a-tmem], b-desc, idesc, { disable-output-lane }, enable-input-d {, scale-input-d};
//   tcgen05.mma.cta_group.kind{.collector_usage}  ... (same operands; .collector::a::{fill,use,lastuse,discard})
//   tcgen05.mma.ws.cta_group::1.kind{.collector_usage}  [d-tmem],  a-desc,  b-desc, idesc, enable-input-d {, zero-column-mask-desc};
//   tcgen05.mma.ws.cta_group::1.kind{.collector_usage}  [d-tmem], [a-tmem], b-desc, idesc, enable-input-d {, zero-column-mask-desc};
//   .kind = { .kind::f16, .kind::tf32, .kind::f8f6f4, .kind::i8 }   .cta_group = { .cta_group::1, .cta_group::2 }
//
// D = A * B + D (enable-input-d true) or A * B, A: M x K from shared memory (descriptor, §9.7.16.4.1)
// or Tensor Memory, B: K x N from shared memory, D: M x N in Tensor Memory (data-path layouts
// §9.7.16.10.5). At issue (one MMA per executing thread) the instruction descriptor and the
// shared-memory descriptors are decoded and validated (isa: validate_instr_desc,
// validate_mma_descriptors), the operand locations are planned (isa/layouts: CanonicalLayout for
// shared memory, TmemALayout / TmemDLayout for TMEM), TMEM allocations are checked and the checker
// looks for hazards; the arithmetic (models::mma DotEngine::tile, the sm_100a tcgen05 parameter
// rows) and the TMEM writes happen at completion on the simulated clock (sim/units/tensor_core.h).
//
// cta_group::2 (§9.7.16.5, docs/tensor_memory.md §2): the CTA pair acts as one MMA; pair position
// v = %cluster_ctarank & 1 supplies rows [v*M/2, (v+1)*M/2) of A and columns [v*N/2, (v+1)*N/2) of
// B from its own shared memory at the same descriptor addresses, and holds its part of D in its own
// Tensor Memory at the same d-tmem address (layouts A and B). Issued by one thread of either CTA.
//
// Modifier semantics: negate A/B (idesc bits 13/14) and saturate (bit 3) are applied by the
// engine; disable-output-lane bit i (LSB of the first word = lane 0; cta_group::2: the second four
// words are the odd CTA's lanes, UNCONFIRMED) keeps TMEM lane i of D unwritten; scale-input-d s:
// D = A*B + D*2^-s (kind::f16 / tf32 only, §9.7.16.10.9.1 — ptxas 13.0 accepts it for kind::i8,
// tcsim rejects it); .ws zero-column mask (§9.7.16.4.3): the B columns it selects count as zero.
// Collector qualifiers are permissions to reuse operands (§9.7.16.10.9.1): the machine re-reads
// them, which is equivalent for every legal program (A/B must not change until completion).
// Not modelled (reported when executed): .sp (metadata layouts are PTX figures only), .ashift,
// the block-scaled kinds, a .ws column shift.
#include <bit>
#include <cstring>
#include <memory>

#include "isa/descriptors/instr_desc.h"
#include "isa/descriptors/smem_desc.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/element_format.h"
#include "isa/layouts/tmem_layout.h"
#include "models/mma/engine.h"
#include "models/mma/param_table.h"
#include "sim/report/report.h"
#include "sim/exec/lane_ops.h"
#include "sim/exec/tcgen05_common.h"
#include "sim/memory/access.h"
#include "sim/partition.h"
#include "sim/units/tensor_core_timing.h"

namespace tcsim::sim {
namespace {

using namespace tcgen05;
using isa::MmaKind;
using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::OperandKind;
using isa::ptx::Type;

// Zero-column mask descriptor of tcgen05.mma.ws (PTX ISA §9.7.16.4.3 Table 45; field names as
// PTX's example 2 resolves them, docs/tensor_memory.md §6).
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

// ExecInstr::aux layout.
enum : uint64_t {
  kAuxCg2 = 1u << 0,
  kAuxWs = 1u << 1,
  kAuxATmem = 1u << 2,
  kAuxDisable = 1u << 3,  // has {disable-output-lane}
  kAuxScale = 1u << 4,    // has scale-input-d (value in bits 8-11)
  kAuxZcm = 1u << 5,      // has zero-column-mask-desc
  kAuxEnableNeg = 1u << 6,
  kAuxEnableImm = 1u << 7,   // enable-input-d given as an integer immediate (value: bit 20)
  kAuxEnableImmTrue = 1u << 20,
};
// bits 12-14: kind; 16-19: arch.
inline MmaKind aux_kind(uint64_t a) { return MmaKind((a >> 12) & 7); }
inline isa::Arch aux_arch(uint64_t a) { return isa::Arch((a >> 16) & 15); }
// Operands: [0] d-tmem address, [1] a-tmem address (A from TMEM) or {ref = a-desc}, [2] b-desc,
// [3] idesc, [4] enable-input-d (predicate), [5] zero-column-mask-desc, [6..] disable-output-lane.

// Everything the completion needs, decided at issue.
struct MmaOp {
  MmaKind kind;
  int cg = 1;
  uint32_t m = 0, n = 0, k = 0;
  bool a_tmem = false, enable_d = false;
  isa::ElementFormat a_fmt{}, b_fmt{};
  std::vector<isa::SmemLocation> a_plan, b_plan;  // per CTA: (M/cg or N/cg) x K, row-major
  std::optional<isa::TmemALayout> a_layout;
  std::optional<isa::TmemDLayout> d_layout;
  uint32_t disable[8] = {};
  std::vector<uint8_t> zero_col;  // per B column n: 1 = treated as zero (.ws mask)
  models::mma::DotShape shape;
  bool f16_d = false;
  Cta* ctas[2] = {nullptr, nullptr};  // pair position 0 (even) and 1 (odd); [0] only for cg1
  TensorCore* units[2] = {nullptr, nullptr};
  uint32_t src = 0;
};

std::string violations_text(const isa::Violations& v) {
  std::string r;
  for (const isa::Violation& x : v) r += fmt::format("\n    - {}", x.to_string());
  return r;
}

// Element of format `bits` at a shared-memory location (sub-byte: the code in the low bits).
inline uint32_t read_elem(const uint8_t* smem, uint32_t size, isa::SmemLocation l, int bits) {
  switch (bits) {
    case 32: {
      uint32_t v;
      std::memcpy(&v, smem + l.byte, 4);
      return v;
    }
    case 16: {
      uint16_t v;
      std::memcpy(&v, smem + l.byte, 2);
      return v;
    }
    case 8: return smem[l.byte];
    default: {
      uint32_t w = smem[l.byte];
      if (l.byte + 1 < size) w |= uint32_t{smem[l.byte + 1]} << 8;
      return (w >> l.bit) & ((1u << bits) - 1);
    }
  }
}

bool cta_alive(const Cta* c) {
  if (!c) return false;
  for (const auto& x : c->sm().ctas())
    if (x.get() == c) return !x->done();
  return false;
}

// The arithmetic and the TMEM writes: the completion of the MMA (AsyncDataLand event).
void complete_mma(const MmaOp& op, Partition& part, Cycles t) {
  for (int v = 0; v < op.cg; ++v)
    if (!cta_alive(op.ctas[v])) {
      part.record_fault(t, op.units[0]->sm().id(),
                        fmt::format("kernel {}: {}: cycle {}: the tcgen05.mma completes but CTA {} of it has exited: "
                                    "a CTA (and, for cta_group::2, its peer) must stay alive until its MMAs complete "
                                    "(PTX ISA §9.7.16.5 Table 46)",
                                    part.launch().kernel, tc_source_text(part, op.src), t.count(), v));
      return;
    }
  const uint32_t M = op.m, N = op.n, K = op.k;
  thread_local std::vector<uint32_t> a, b, c, d;
  a.assign(size_t{M} * K, 0);
  b.assign(size_t{N} * K, 0);
  c.assign(size_t{M} * N, 0);
  d.resize(size_t{M} * N);
  const uint32_t mrows = M / op.cg, nrows = N / op.cg;
  if (!op.a_tmem) {
    for (int v = 0; v < op.cg; ++v) {
      const uint8_t* smem = op.ctas[v]->shared();
      const uint32_t size = op.ctas[v]->smem_bytes();
      uint32_t* dst = a.data() + static_cast<size_t>(v) * mrows * K;
      const int bits = op.a_fmt.bits;
      for (size_t i = 0; i < op.a_plan.size(); ++i) dst[i] = read_elem(smem, size, op.a_plan[i], bits);
    }
  } else {
    const isa::TmemALayout& L = *op.a_layout;
    const uint32_t mask = L.value_bits() >= 32 ? ~0u : (1u << L.value_bits()) - 1;
    for (uint32_t r = 0; r < M; ++r)
      for (uint32_t kk = 0; kk < K; ++kk) {
        const isa::TmemACell cl = L.locate(r, kk);
        a[size_t{r} * K + kk] = (op.units[cl.cta]->tmem().cell(cl.lane, cl.column) >> cl.bit) & mask;
      }
  }
  for (int v = 0; v < op.cg; ++v) {
    const uint8_t* smem = op.ctas[v]->shared();
    const uint32_t size = op.ctas[v]->smem_bytes();
    uint32_t* dst = b.data() + static_cast<size_t>(v) * nrows * K;
    const int bits = op.b_fmt.bits;
    for (size_t i = 0; i < op.b_plan.size(); ++i) dst[i] = read_elem(smem, size, op.b_plan[i], bits);
  }
  if (!op.zero_col.empty())
    for (uint32_t j = 0; j < N; ++j)
      if (op.zero_col[j]) std::fill_n(b.begin() + size_t{j} * K, K, 0u);
  const isa::TmemDLayout& D = *op.d_layout;
  // Every data-path layout (§9.7.16.10.5: A, B, D, E, F, G) maps each quarter of a row of D to
  // consecutive columns of one TMEM lane; rows are then moved quarter by quarter through row
  // pointers instead of one locate() per element (checked on the first and last rows).
  const uint32_t q = N % 4 == 0 ? N / 4 : N;
  bool quarters = true;
  for (uint32_t r : {0u, M - 1})
    for (uint32_t j = 0; j < N && quarters; ++j) {
      const isa::TmemCell b = D.locate(r, j / q * q), x = D.locate(r, j);
      quarters = x.cta == b.cta && x.lane == b.lane && x.column == b.column + j % q;
    }
  auto row_cells = [&](uint32_t r, uint32_t j0) {
    const isa::TmemCell b = D.locate(r, j0);
    return std::pair{&op.units[b.cta]->tmem().cell(b.lane, b.column), uint32_t{b.cta} * 128 + b.lane};
  };
  if (op.enable_d) {
    for (uint32_t r = 0; r < M; ++r)
      for (uint32_t j0 = 0; j0 < N; j0 += quarters ? q : 1) {
        const uint32_t* src = row_cells(r, j0).first;
        uint32_t* dst = c.data() + size_t{r} * N + j0;
        const uint32_t n = quarters ? q : 1;
        if (op.f16_d)
          for (uint32_t j = 0; j < n; ++j) dst[j] = src[j] & 0xffffu;
        else
          std::memcpy(dst, src, n * 4);
      }
  }
  op.units[0]->engine(op.shape).tile(static_cast<int>(M), static_cast<int>(N), a.data(), b.data(), c.data(),
                                     d.data());
  for (uint32_t r = 0; r < M; ++r)
    for (uint32_t j0 = 0; j0 < N; j0 += quarters ? q : 1) {
      const auto [dst, bit] = row_cells(r, j0);
      if ((op.disable[bit / 32] >> (bit % 32)) & 1) continue;  // disable-output-lane: lane not written
      std::memcpy(dst, d.data() + size_t{r} * N + j0, (quarters ? q : 1) * 4);
    }
}

// Builds the shared-memory plan of an operand (rows x K of one CTA) and checks its footprint.
std::vector<isa::SmemLocation> plan_operand(ExecCtx& c, int lane, uint64_t raw, isa::Arch arch, isa::Major major,
                                            isa::ElementFormat fmt, uint32_t rows, uint32_t K, const char* name,
                                            const Cta& cta) {
  const isa::SmemDesc sd = isa::decode_smem_desc(raw, arch);
  auto L = isa::CanonicalLayout::make(sd, fmt, major);
  if (!L)
    c.fail(lane, fmt::format("tcgen05.mma: the {} descriptor 0x{:016x} has no canonical layout: {}", name, raw,
                             L.error().message));
  if (L->max_k() && K > L->max_k())
    c.fail(lane, fmt::format("tcgen05.mma: {} is K-major {} with {} elements per swizzle row, but one MMA reads K = "
                             "{} (PTX ISA §9.7.16.3)",
                             name, isa::layout_label(sd.layout), L->max_k(), K));
  std::vector<isa::SmemLocation> plan(size_t{rows} * K);
  L->locate_tile(0, rows, 0, K, plan.data());
  const uint32_t bytes = std::max<uint32_t>(1, fmt.bits / 8);
  for (const isa::SmemLocation& l : plan)
    if (l.byte + bytes > cta.smem_bytes())
      c.fail(lane, fmt::format("tcgen05.mma: operand {} (descriptor 0x{:016x}: {}) reads shared address 0x{:x}, "
                               "outside {}'s {} bytes of shared memory",
                               name, raw, L->describe(), l.byte, cta.name(), cta.smem_bytes()));
  return plan;
}

void check_tmem_columns(ExecCtx& c, int lane, TensorCore& u, const Cta& cta, uint32_t col0, uint32_t cols,
                        const char* what, uint32_t taddr) {
  if (col0 + cols > kTmemColumns || !u.tmem().find(&cta, col0, cols))
    c.fail(lane, fmt::format("tcgen05.mma: {} at TMEM address 0x{:08x} uses columns {}-{} of {}, which are not "
                             "allocated to it (allocations on SM {}: {}; PTX ISA §9.7.16.7.1)",
                             what, taddr, col0, col0 + cols - 1, cta.name(), u.sm().id(),
                             u.tmem().describe_allocations()));
}

// RAW / WAR hazards against the tcgen05.ld/st of the CTA's warps (docs/tensor_memory.md §5 rules 3-4).
void check_ldst_hazards(ExecCtx& c, int lane, TensorCore& u, const Cta& cta, const TmemRange& reads,
                        const TmemRange& writes, bool has_reads) {
  TcCtaState* st = u.find_cta(cta);
  if (!st) return;
  for (size_t w = 0; w < st->warps.size(); ++w) {
    const TcWarpState& ws = st->warps[w];
    for (const TmemRange& r : ws.st_ranges)
      if ((has_reads && r.overlaps(reads)) || r.overlaps(writes)) {
        report(c, Rule::TmemMmaRawSt, lane,
                  fmt::format("tcgen05.mma reads or writes TMEM cells that warp {} of {} wrote with tcgen05.st "
                              "({}) without tcgen05.wait::st, tcgen05.fence::before_thread_sync and a "
                              "synchronisation before this MMA: a read-after-write hazard (PTX ISA §9.7.16.6.4)",
                              w, cta.name(), tc_source_text(*c.part, ws.st_src)),
               ws.st_src);
        return;
      }
  }
  tcgen05::check_ld_war(c, lane, u, cta, writes, "tcgen05.mma");
}

void issue_one(ExecCtx& c, const ExecInstr& in, int lane) {
  const uint64_t aux = in.aux;
  const MmaKind kind = aux_kind(aux);
  const isa::Arch arch = aux_arch(aux);
  const int cg = (aux & kAuxCg2) ? 2 : 1;
  const bool ws = aux & kAuxWs, a_tmem = aux & kAuxATmem;
  auto op = std::make_shared<MmaOp>();
  op->kind = kind;
  op->cg = cg;
  op->a_tmem = a_tmem;
  op->src = in.src;
  const uint32_t d_taddr = static_cast<uint32_t>(mem::lane_address(c, c.op(in, 0), lane));
  const uint32_t idesc = static_cast<uint32_t>(c.src(c.op(in, 3).ref)[lane]);
  const uint64_t b_raw = c.src(c.op(in, 2).ref)[lane];
  const uint64_t a_raw = a_tmem ? 0 : c.src(c.op(in, 1).ref)[lane];
  const uint32_t a_taddr = a_tmem ? static_cast<uint32_t>(mem::lane_address(c, c.op(in, 1), lane)) : 0;
  if (aux & kAuxEnableImm) {
    // ptxas takes an integer immediate for the predicate: 0 is false, anything else true (the SASS
    // has !UPT / UPT; docs/hardware_tolerance.md).
    op->enable_d = (aux & kAuxEnableImmTrue) != 0;
    report(c, Rule::MmaImmediateEnableInputD, lane, [&] {
      return fmt::format("enable-input-d is the integer immediate {} instead of a predicate; ptxas reads it as {}, "
                         "and so does tcsim",
                         c.prog->instr_of(in).ops[4 + ((aux & kAuxDisable) ? 1 : 0)].imm, op->enable_d);
    });
  } else {
    const ExecOperand& e = c.op(in, 4);
    const bool p = (c.pred(e.ref) >> lane) & 1;
    op->enable_d = (aux & kAuxEnableNeg) ? !p : p;
  }
  const int scale = (aux & kAuxScale) ? int((aux >> 8) & 15) : 0;

  // ---- the instruction descriptor and the shared-memory descriptors (PTX ISA §9.7.16.4) ----
  const isa::InstrDesc id = isa::decode_instr_desc(idesc, kind);
  isa::InstrDescContext ctx;
  ctx.arch = arch;
  ctx.cta_group = cg;
  ctx.ws = ws;
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
  if (id.sparse)
    c.fail(lane, "tcgen05.mma: the instruction descriptor says sparse (bit 2) but the instruction is not "
                 "tcgen05.mma.sp (PTX ISA §9.7.16.4.2, §9.7.16.10.9.2)");
  if (scale && kind != MmaKind::F16 && kind != MmaKind::TF32)
    c.fail(lane, "tcgen05.mma: scale-input-d exists only for kind::f16 and kind::tf32 (PTX ISA §9.7.16.10.9.1)");
  if (ws && id.max_shift)
    c.fail(lane, "tcgen05.mma.ws: a maximum B-reuse shift (idesc bits 30-31) is not modelled by tcsim");
  op->m = static_cast<uint32_t>(id.m);
  op->n = static_cast<uint32_t>(id.n);
  op->k = static_cast<uint32_t>(id.k);
  op->f16_d = id.d_type == isa::DType::F16;

  // ---- arithmetic: the sm_100a tcgen05 parameter row ----
  models::mma::DotShape& s = op->shape;
  s.kind = kind;
  s.atype = *id.a_type;
  s.btype = *id.b_type;
  s.dtype = *id.d_type;
  s.k = id.k;
  s.negate_a = id.negate_a;
  s.negate_b = id.negate_b;
  s.saturate = id.saturate;
  s.scale_input_d = scale;
  const models::mma::ParamRow* row = models::mma::find_row(isa::Arch::Sm100a, models::mma::Path::Tcgen05, kind,
                                                           s.atype, s.btype, s.dtype);
  if (!row)
    c.fail(lane, fmt::format("tcgen05.mma.kind::{} {} x {} -> {}: no sm_100a arithmetic model row", isa::kind_name(kind),
                             isa::dtype_name(s.atype), isa::dtype_name(s.btype), isa::dtype_name(s.dtype)));
  s.num = row->num;
  if (std::string e = models::mma::check_shape(s); !e.empty()) c.fail(lane, "tcgen05.mma: " + e);

  // ---- the CTAs involved ----
  TensorCore& tc = c.sm->tensor_core();
  if (cg == 1) {
    op->ctas[0] = c.cta;
    op->units[0] = &tc;
  } else {
    Cta* peer = peer_cta(*c.cta);
    if (!peer)
      c.fail(lane, fmt::format("tcgen05.mma.cta_group::2 in {} (cluster rank {}), but its CTA-pair peer (rank {}) is "
                               "not running: the peer must be launched and not exited (PTX ISA §9.7.16.5 Table 46)",
                               c.cta->name(), c.cta->cluster_rank(), c.cta->cluster_rank() ^ 1u));
    const bool even = (c.cta->cluster_rank() & 1) == 0;
    op->ctas[0] = even ? c.cta : peer;
    op->ctas[1] = even ? peer : c.cta;
    op->units[0] = &op->ctas[0]->sm().tensor_core();
    op->units[1] = &op->ctas[1]->sm().tensor_core();
  }

  // ---- D in TMEM (§9.7.16.10.5) ----
  auto dl = isa::TmemDLayout::make(op->m, op->n, cg, false, ws, d_taddr);
  if (!dl) c.fail(lane, fmt::format("tcgen05.mma: d-tmem 0x{:08x}: {}", d_taddr, dl.error().message));
  op->d_layout = *dl;
  const uint32_t d_col0 = d_taddr & 0xffff;
  for (int x = 0; x < cg; ++x)
    check_tmem_columns(c, lane, *op->units[x], *op->ctas[x], d_col0, dl->columns_used(), "D (d-tmem)", d_taddr);

  // ---- A ----
  const uint32_t K = op->k;
  TmemRange a_range{};
  if (a_tmem) {
    auto al = isa::TmemALayout::make(op->m, cg, false, s.atype, kind, a_taddr);
    if (!al) c.fail(lane, fmt::format("tcgen05.mma: a-tmem 0x{:08x}: {}", a_taddr, al.error().message));
    op->a_layout = *al;
    const uint32_t a_cols = (K + al->per_column() - 1) / al->per_column();
    for (int x = 0; x < cg; ++x)
      check_tmem_columns(c, lane, *op->units[x], *op->ctas[x], a_taddr & 0xffff, a_cols, "A (a-tmem)", a_taddr);
    a_range = {0, kTmemLanes, a_taddr & 0xffff, a_cols};
  } else {
    auto fa = isa::smem_element_format(s.atype, kind);
    if (!fa) c.fail(lane, "tcgen05.mma: A: " + fa.error().message);
    op->a_fmt = *fa;
    op->a_plan = plan_operand(c, lane, a_raw, arch, id.a_major, *fa, op->m / cg, K, "A", *c.cta);
  }
  auto fb = isa::smem_element_format(s.btype, kind);
  if (!fb) c.fail(lane, "tcgen05.mma: B: " + fb.error().message);
  op->b_fmt = *fb;
  op->b_plan = plan_operand(c, lane, b_raw, arch, id.b_major, *fb, op->n / cg, K, "B", *c.cta);
  // The swizzle-bug diagnosis, for operands TMA loaded (each CTA of a pair reads its own half).
  for (int x = 0; x < cg; ++x) {
    const Cta& owner = *op->ctas[x];
    if (!owner.smem_origin_if_any()) continue;
    auto& seen = op->units[x]->cta(owner).diagnosed;
    if (!a_tmem)
      diagnose_operand(c, lane, owner, "A", a_raw, arch, id.a_major, op->a_fmt, op->m / cg, K, op->a_plan, seen);
    diagnose_operand(c, lane, owner, "B", b_raw, arch, id.b_major, op->b_fmt, op->n / cg, K, op->b_plan, seen);
  }

  // ---- modifiers ----
  if (aux & kAuxDisable) {
    const uint32_t words = cg == 2 ? 8 : 4;
    for (uint32_t w = 0; w < words; ++w) op->disable[w] = static_cast<uint32_t>(c.src(c.op(in, 6 + w).ref)[lane]);
  }
  if (aux & kAuxZcm) {
    ZeroColumnMaskBits z{c.src(c.op(in, 5).ref)[lane]};
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

  // ---- checker: hazards against tcgen05.ld/st (rules 33-34) ----
  const TmemRange d_range{0, kTmemLanes, d_col0, dl->columns_used()};
  for (int x = 0; x < cg; ++x) {
    TmemRange reads = a_range;
    if (op->enable_d && reads.cols == 0) reads = d_range;
    check_ldst_hazards(c, lane, *op->units[x], *op->ctas[x], reads, d_range, a_tmem || op->enable_d);
  }

  // ---- issue ----
  const uint64_t macs = uint64_t{op->m} * op->n * K;
  const uint64_t work = macs / cg / tc_timing::macs_per_cycle(kind);
  std::vector<TensorCore::ColumnWrite> writes;
  for (int x = 0; x < cg; ++x) writes.push_back({op->units[x], d_col0, dl->columns_used()});
  Partition* part = c.part;
  const Cycles done = tc.issue(*c.part, c.now, work, cg == 2 ? (op->units[0] == &tc ? op->units[1] : op->units[0]) : nullptr,
                               std::move(writes), in.src, [op, part](Cycles t) { complete_mma(*op, *part, t); });
  TcCtaState& st = tc.cta(*c.cta);
  Cycles& last = st.thread_last_done[c.warp->id() * 32 + static_cast<uint32_t>(lane)];
  last = max(last, done);
}

void exec_mma(ExecCtx& c, const ExecInstr& in) {
  tc_note_cta_group(c, in, (in.aux & kAuxCg2) ? 2 : 1);
  for_lanes(c.mask, [&](int lane) { issue_one(c, in, lane); });
}

}  // namespace

void bind_tcgen05_mma(BindCtx& b) {
  std::optional<MmaKind> kind;
  for (auto [m, k] : {std::pair{Mod::kind_f16, MmaKind::F16}, {Mod::kind_tf32, MmaKind::TF32},
                      {Mod::kind_f8f6f4, MmaKind::F8F6F4}, {Mod::kind_i8, MmaKind::I8},
                      {Mod::kind_mxf8f6f4, MmaKind::MXF8F6F4}, {Mod::kind_mxf4, MmaKind::MXF4},
                      {Mod::kind_mxf4nvf4, MmaKind::MXF4NVF4}})
    if (b.has(m)) {
      if (kind) b.fail("more than one .kind");
      kind = k;
    }
  if (!kind) b.fail("tcgen05.mma needs .kind::f16, ::tf32, ::f8f6f4, ::i8, ::mxf8f6f4, ::mxf4 or ::mxf4nvf4 (PTX ISA "
                    "§9.7.16.10.9.1)");
  const int cg = bind_cta_group(b);
  const bool ws = b.has(Mod::ws);
  if (ws && cg == 2) b.fail("tcgen05.mma.ws exists only with .cta_group::1 (PTX ISA §9.7.16.10.9.3)");
  b.only_mods({Mod::cta_group_1, Mod::cta_group_2, Mod::kind_f16, Mod::kind_tf32, Mod::kind_f8f6f4, Mod::kind_i8,
               Mod::kind_mxf8f6f4, Mod::kind_mxf4, Mod::kind_mxf4nvf4, Mod::ws, Mod::sp, Mod::ashift,
               Mod::block_scale, Mod::scale_vec_1X, Mod::scale_vec_2X, Mod::scale_vec_4X, Mod::block16, Mod::block32,
               Mod::collector_a_fill, Mod::collector_a_use, Mod::collector_a_lastuse, Mod::collector_a_discard,
               Mod::collector_b0_fill, Mod::collector_b0_use, Mod::collector_b0_lastuse, Mod::collector_b0_discard,
               Mod::collector_b1_fill, Mod::collector_b1_use, Mod::collector_b1_lastuse, Mod::collector_b1_discard,
               Mod::collector_b2_fill, Mod::collector_b2_use, Mod::collector_b2_lastuse, Mod::collector_b2_discard,
               Mod::collector_b3_fill, Mod::collector_b3_use, Mod::collector_b3_lastuse, Mod::collector_b3_discard});
  if (b.has(Mod::sp))
    return b.not_implemented("tcgen05.mma.sp: the sparse-metadata layouts in TMEM are given only as PTX figures "
                             "(§9.7.16.10.8); tcsim does not model them");
  if (b.has(Mod::ashift))
    return b.not_implemented("tcgen05.mma .ashift (A rows shifted by one TMEM lane) is not modelled by tcsim");
  if (isa::is_block_scaled(*kind) || b.has(Mod::block_scale))
    return b.not_implemented(fmt::format("tcgen05.mma.kind::{} (block scaling, scale factors in TMEM) is not "
                                         "modelled by the simulator yet (models::mma computes it: tcsim mma-dot)",
                                         isa::kind_name(*kind)));
  if (b.has(Mod::collector_a_use) || b.has(Mod::collector_a_fill)) {
    if (b.has(Mod::ashift)) b.fail(".ashift with .collector::a::use / ::fill is illegal (PTX ISA §9.7.16.10.9.1)");
  }
  const auto arch = isa::parse_arch(b.m.target);
  if (!arch || !isa::has_tcgen05(*arch))
    b.fail(fmt::format("tcgen05.mma needs an sm_100a / sm_100f / sm_103a target, the module targets {}", b.m.target));

  // Operands: [d-tmem], a-desc | [a-tmem], b-desc, idesc, then the form's tail.
  const size_t n = b.nops();
  if (n < 5) b.fail("tcgen05.mma takes at least [d-tmem], a-desc or [a-tmem], b-desc, idesc, enable-input-d");
  if (b.operand(0).kind != OperandKind::Address) b.fail("the first operand of tcgen05.mma is [d-tmem]");
  uint64_t aux = (cg == 2 ? uint64_t{kAuxCg2} : 0) | (ws ? uint64_t{kAuxWs} : 0) | (uint64_t(*kind) << 12) | (uint64_t(*arch) << 16);
  std::vector<ExecOperand> ops(6);
  ops[0] = b.address(0, isa::ptx::Space::Generic);
  if (b.operand(1).kind == OperandKind::Address) {
    aux |= kAuxATmem;
    ops[1] = b.address(1, isa::ptx::Space::Generic);
  } else {
    ops[1].ref = b.src(1, Type::B64);
  }
  ops[2].ref = b.src(2, Type::B64);
  ops[3].ref = b.src(3, Type::B32);
  size_t i = 4;
  std::vector<ExecOperand> disable;
  if (!ws && b.operand(static_cast<int>(i)).kind == OperandKind::Vector) {
    const auto& vec = b.operand(static_cast<int>(i));
    const size_t words = cg == 2 ? 8 : 4;
    if (vec.elems.size() != words)
      b.fail(fmt::format("disable-output-lane of cta_group::{} is a vector of {} .b32 values (PTX ISA "
                         "§9.7.16.10.9.1), not {}",
                         cg, words, vec.elems.size()));
    for (const auto& e : vec.elems) {
      ExecOperand o;
      o.ref = b.src_of(e, Type::B32);
      disable.push_back(o);
    }
    aux |= kAuxDisable;
    ++i;
  }
  if (i >= n) b.fail("tcgen05.mma: enable-input-d (a predicate) is missing");
  if (b.operand(static_cast<int>(i)).kind == OperandKind::Imm) {
    // Not a predicate, but ptxas accepts it (0 false, else true): a finding at run time.
    aux |= kAuxEnableImm | (b.operand(static_cast<int>(i)).imm != 0 ? uint64_t{kAuxEnableImmTrue} : 0);
  } else {
    bool neg = false;
    ops[4].ref = b.pred_src(static_cast<int>(i), &neg);
    if (neg) aux |= kAuxEnableNeg;
  }
  ++i;
  if (i < n) {
    if (ws) {
      ops[5].ref = b.src(static_cast<int>(i), Type::B64);
      aux |= kAuxZcm;
    } else {
      const auto& o = b.operand(static_cast<int>(i));
      if (o.kind != OperandKind::Imm || o.imm < 0 || o.imm > 15)
        b.fail("scale-input-d must be an immediate in 0..15 (PTX ISA §9.7.16.10.9.1)");
      if (*kind != MmaKind::F16 && *kind != MmaKind::TF32)
        b.fail(fmt::format("scale-input-d is allowed only with .kind::f16 and .kind::tf32 (PTX ISA §9.7.16.10.9.1), "
                           "not .kind::{} (ptxas 13.0 accepts it for kind::i8; the PTX ISA does not)",
                           isa::kind_name(*kind)));
      aux |= kAuxScale | (uint64_t(o.imm) << 8);
    }
    ++i;
  }
  if (i != n) b.fail(fmt::format("tcgen05.mma: {} operands, more than this form takes", n));
  b.out.first_op = b.push(ops[0]);
  for (size_t k = 1; k < ops.size(); ++k) b.push(ops[k]);
  for (const ExecOperand& o : disable) b.push(o);
  b.out.nops = static_cast<uint16_t>(ops.size() + disable.size());
  b.out.aux = aux;
  b.out.fn = exec_mma;
}

}  // namespace tcsim::sim
