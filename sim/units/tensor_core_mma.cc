// The tcgen05.mma datapath of the tensor core unit (PTX ISA §9.7.16.10): at completion, the
// operands are fetched from the locations the instruction planned (A and B from shared memory
// through their canonical-layout plans, or A from TMEM through its data-path layout; C from D's
// cells), the tile is computed by models::mma (DotEngine::tile, the sm_100a tcgen05 parameter
// rows) and D is written into TMEM (disable-output-lane lanes excepted). Until then TMEM holds its
// old contents (sim/units/tensor_core.h).
#include <cstring>
#include <functional>
#include <tuple>

#include <fmt/format.h>

#include "models/mma/engine.h"
#include "sim/report/finding_log.h"
#include "sim/cta.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/units/tensor_core.h"
#include "sim/timing/model.h"

namespace tcsim::sim {
namespace {

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

// The CTAs of `op`, or nullptr (and a fault recorded) when one has exited before the completion.
bool ctas_alive(const MmaOp& op, Partition& part, Cycles t, Cta* out[2]) {
  for (int v = 0; v < op.cg; ++v) {
    out[v] = op.ctas[v].get();
    if (!out[v] || out[v]->done()) {
      part.record_fault(t, op.units[0]->sm().id(),
                        fmt::format("kernel {}: {}: cycle {}: the tcgen05.mma completes but CTA {} of it has exited: "
                                    "a CTA (and, for cta_group::2, its peer) must stay alive until its MMAs complete "
                                    "(PTX ISA §9.7.16.5 Table 46)",
                                    part.launch().kernel, tc_source_text(part, op.src), t.count(), v));
      return false;
    }
  }
  return true;
}

// A finding of the MMA `op` found at its completion (its site is the MMA instruction).
template <class Detail>
void report_at_completion(Partition& part, Cycles t, const MmaOp& op, const Cta& cta, Rule rule, Detail&& d) {
  Origin o;
  o.src = op.src;
  o.cta = cta.ctaid();
  part.findings().add(rule, t, o, kNoSite, 0, std::forward<Detail>(d));
}

// A (M x k codes, row-major): from shared memory through the plans, or from TMEM.
void fetch_a(const MmaOp& op, Cta* const ctas[2], std::vector<uint32_t>& a) {
  const uint32_t M = op.m, K = op.k;
  if (!op.a_tmem) {
    const uint32_t mrows = M / op.cg;
    for (int v = 0; v < op.cg; ++v) {
      const uint8_t* smem = ctas[v]->shared();
      const uint32_t size = ctas[v]->smem_bytes();
      uint32_t* dst = a.data() + static_cast<size_t>(v) * mrows * K;
      const int bits = op.a_fmt.bits;
      const std::vector<isa::SmemLocation>& plan = op.a_plan->at;
      for (size_t i = 0; i < plan.size(); ++i) dst[i] = read_elem(smem, size, plan[i], bits);
    }
    return;
  }
  const isa::TmemALayout& L = *op.a_layout;
  const uint32_t mask = L.value_bits() >= 32 ? ~0u : (1u << L.value_bits()) - 1;
  const uint32_t per_cta = M / op.cg;
  for (uint32_t r = 0; r < M; ++r) {
    // .ashift: row r takes the row one lane up in its CTA's TMEM (the first row its own).
    const uint32_t src = op.ashift && r % per_cta ? r - 1 : r;
    for (uint32_t kk = 0; kk < K; ++kk) {
      const isa::TmemACell cl = L.locate(src, kk);
      a[size_t{r} * K + kk] = (op.units[cl.cta]->tmem().cell(cl.lane, cl.column) >> cl.bit) & mask;
    }
  }
}

// B (N x kb codes, column j at j * kb) from shared memory.
void fetch_b(const MmaOp& op, Cta* const ctas[2], std::vector<uint32_t>& b) {
  const uint32_t nrows = op.n / op.cg;
  for (int v = 0; v < op.cg; ++v) {
    const uint8_t* smem = ctas[v]->shared();
    const uint32_t size = ctas[v]->smem_bytes();
    uint32_t* dst = b.data() + static_cast<size_t>(v) * nrows * op.kb;
    const int bits = op.b_fmt.bits;
    const std::vector<isa::SmemLocation>& plan = op.b_plan->at;
    for (size_t i = 0; i < plan.size(); ++i) dst[i] = read_elem(smem, size, plan[i], bits);
  }
}

// The collector of one operand: computes with the kept copy (returns true when the operand in
// memory no longer equals it), keeps this one, frees the buffer.
bool collect(const MmaOp::CollectorPlan& p, TcCtaState* st, std::vector<uint32_t>& vals, size_t n,
             const std::function<void()>& fetch) {
  TcCollector* buf = !st || p.buffer < 0 ? nullptr : p.buffer < 4 ? &st->collector_b[p.buffer] : &st->collector_a;
  bool changed = false;
  fetch();
  if (buf && p.use && buf->values.size() == n) {
    changed = !std::equal(buf->values.begin(), buf->values.end(), vals.begin());
    std::copy(buf->values.begin(), buf->values.end(), vals.begin());
  }
  if (!buf) return changed;
  if (p.fill) buf->values.assign(vals.begin(), vals.begin() + static_cast<std::ptrdiff_t>(n));
  else if (p.release) buf->values.clear();
  return changed;
}

uint8_t tmem_byte(const MmaOp& op, const isa::TmemByteCell& c) {
  return static_cast<uint8_t>(op.units[c.cta]->tmem().cell(c.lane, c.column) >> (8 * c.byte));
}

// Scale factors (§9.7.16.10.7, isa/layouts/tmem_scale_layout.h): sa is M x nsf, sb N x nsf, as the
// sub-partition of D's row 0 / column region 0 reads them. Returns false (and names the first
// difference in *why) when another sub-partition that computes a row or column reads other values.
bool fetch_scales(const MmaOp& op, std::vector<uint8_t>& sa, std::vector<uint8_t>& sb, std::string* why) {
  const isa::TmemDLayout& D = *op.d_layout;
  const uint32_t M = op.m, N = op.n;
  const int nsf = op.sfa->nsf();
  for (uint32_t m = 0; m < M; ++m) {
    const isa::TmemCell dc = D.locate(m, 0);
    for (int j = 0; j < nsf; ++j) sa[size_t{m} * nsf + j] = tmem_byte(op, op.sfa->locate(dc, m, j));
  }
  for (uint32_t n = 0; n < N; ++n) {
    const isa::TmemCell dc = D.locate(0, n);
    for (int j = 0; j < nsf; ++j) sb[size_t{n} * nsf + j] = tmem_byte(op, op.sfb->locate(dc, 0, j));
  }
  // Every sub-partition: rows in steps of 16 (the finest row blocks of a data path), columns per
  // region of D (columns_used() wide: layouts B, E, G split N across lanes).
  const uint32_t region = D.columns_used();
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n0 = region; n0 < N; n0 += region) {
      const isa::TmemCell dc = D.locate(m, n0);
      for (int j = 0; j < nsf; ++j)
        if (const uint8_t x = tmem_byte(op, op.sfa->locate(dc, m, j)); x != sa[size_t{m} * nsf + j]) {
          *why = fmt::format("scale_A[{}][{}] is 0x{:02x} in TMEM lane {} (CTA {}) but 0x{:02x} where row {} is read "
                             "for columns 0..{}",
                             m, j, x, op.sfa->locate(dc, m, j).lane, dc.cta, sa[size_t{m} * nsf + j], m, region - 1);
          return false;
        }
    }
  for (uint32_t m0 = 16; m0 < M; m0 += 16)
    for (uint32_t n = 0; n < N; ++n) {
      const isa::TmemCell dc = D.locate(m0, n);
      for (int j = 0; j < nsf; ++j)
        if (const uint8_t x = tmem_byte(op, op.sfb->locate(dc, m0, j)); x != sb[size_t{n} * nsf + j]) {
          *why = fmt::format("scale_B[{}][{}] is 0x{:02x} in TMEM lane {} (CTA {}, computing row {}) but 0x{:02x} in "
                             "the sub-partition of row 0",
                             n, j, x, op.sfb->locate(dc, m0, j).lane, dc.cta, m0, sb[size_t{n} * nsf + j]);
          return false;
        }
    }
  return true;
}

// Row m of sparse A selects its B values (§9.7.16.10.8): bg[n * k + i] is the B element stored
// value i of row m multiplies. Returns false when a nibble is not legal (first one in *why).
bool gather_sparse(const MmaOp& op, uint32_t m, const std::vector<uint32_t>& b, std::vector<uint32_t>& bg,
                   std::string* why) {
  const isa::SparseGroup g = isa::sparse_group(op.kind);
  const uint32_t groups = op.k / g.kept;
  bool legal = true;
  uint32_t pos[16 * 4];
  for (uint32_t q = 0; q < groups; ++q) {
    const isa::TmemBitCell c = op.meta->locate(m, q);
    const uint8_t nib = static_cast<uint8_t>((op.units[c.cta]->tmem().cell(c.lane, c.column) >> c.bit) & 0xfu);
    if (!isa::sparse_positions(op.kind, nib, pos + 4 * q) && legal) {
      legal = false;
      *why = fmt::format("row {}, group {} (K {}..{}): metadata 0x{:x} (TMEM lane {}, column {}, bits {}-{})", m, q,
                         q * g.elems, q * g.elems + g.elems - 1, nib, c.lane, c.column, c.bit, c.bit + 3);
    }
  }
  for (uint32_t n = 0; n < op.n; ++n) {
    const uint32_t* col = b.data() + size_t{n} * op.kb;
    uint32_t* dst = bg.data() + size_t{n} * op.k;
    for (uint32_t q = 0; q < groups; ++q)
      for (uint32_t i = 0; i < g.kept; ++i) dst[q * g.kept + i] = col[q * g.elems + pos[4 * q + i]];
  }
  return legal;
}

void complete_mma(const MmaOp& op, Partition& part, Cycles t) {
  Cta* ctas[2] = {nullptr, nullptr};
  if (!ctas_alive(op, part, t, ctas)) return;
  if (part.launch().timing_only) return;  // --timing-only: no arithmetic, TMEM keeps its old D (sim/api.h)
  const uint32_t M = op.m, N = op.n, K = op.k;
  thread_local std::vector<uint32_t> a, b, c, d, bg;
  thread_local std::vector<uint8_t> sa, sb;
  a.assign(size_t{M} * K, 0);
  b.assign(size_t{N} * op.kb, 0);
  c.assign(size_t{M} * N, 0);
  d.resize(size_t{M} * N);
  TcCtaState* coll = op.units[0]->find_cta(*ctas[0]);
  for (auto [plan, vals, name] : {std::tuple{&op.coll_a, &a, "A"}, {&op.coll_b, &b, "B"}})
    if (collect(*plan, coll, *vals, vals->size(),
                [&, vals = vals] { vals == &a ? fetch_a(op, ctas, a) : fetch_b(op, ctas, b); }))
      report_at_completion(part, t, op, *ctas[0], Rule::MmaCollectorOperandChanged, [&] {
        return fmt::format("operand {} in memory differs from what .collector::{}::fill kept: tcsim computes with "
                           "the kept copy; the GPU may reload it (a collector usage is a permission to reuse, the "
                           "operand must not change, PTX ISA §9.7.16.10.9.1)",
                           name, plan->buffer < 4 ? fmt::format("b{}", plan->buffer) : std::string("a"));
      });
  if (!op.zero_col.empty())
    for (uint32_t j = 0; j < N; ++j)
      if (op.zero_col[j]) std::fill_n(b.begin() + size_t{j} * op.kb, op.kb, 0u);
  const isa::TmemDLayout& D = *op.d_layout;
  // Every data-path layout (§9.7.16.10.5: A, B, D, E, F, G) maps each quarter of a row of D to
  // consecutive columns of one TMEM lane; rows are then moved quarter by quarter through row
  // pointers instead of one locate() per element (checked on the first and last rows).
  const uint32_t q = N % 4 == 0 ? N / 4 : N;
  bool quarters = true;
  for (uint32_t r : {0u, M - 1})
    for (uint32_t j = 0; j < N && quarters; ++j) {
      const isa::TmemCell b0 = D.locate(r, j / q * q), x = D.locate(r, j);
      quarters = x.cta == b0.cta && x.lane == b0.lane && x.column == b0.column + j % q;
    }
  auto row_cells = [&](uint32_t r, uint32_t j0) {
    const isa::TmemCell b0 = D.locate(r, j0);
    return std::pair{&op.units[b0.cta]->tmem().cell(b0.lane, b0.column), uint32_t{b0.cta} * 128 + b0.lane};
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
  const models::mma::DotEngine& engine = op.units[0]->engine(op.shape);
  const int nsf = op.sfa ? op.sfa->nsf() : 0;
  bool uniform = true;
  if (op.sfa) {
    sa.resize(size_t{M} * nsf);
    sb.resize(size_t{N} * nsf);
    std::string why;
    uniform = fetch_scales(op, sa, sb, &why);
    if (!uniform)
      report_at_completion(part, t, op, *ctas[0], Rule::MmaScalesNotReplicated, [&] {
        return why + ": each sub-partition multiplies with the scale factors in its own lanes; copy them into all "
                     "four (tcgen05.cp .32x128b.warpx4, PTX ISA §9.7.16.10.7)";
      });
  }
  const uint8_t* sap = op.sfa ? sa.data() : nullptr;
  const uint8_t* sbp = op.sfa ? sb.data() : nullptr;
  if (!op.sparse && uniform) {
    engine.tile(static_cast<int>(M), static_cast<int>(N), a.data(), b.data(), c.data(), d.data(), sap, sbp);
  } else {
    bool reported = false;
    if (op.sparse) bg.resize(size_t{N} * K);
    thread_local std::vector<uint8_t> sa1, sb1;
    sa1.resize(nsf);
    sb1.resize(nsf);
    for (uint32_t m = 0; m < M; ++m) {
      const uint32_t* bm = b.data();
      if (op.sparse) {
        std::string why;
        if (!gather_sparse(op, m, b, bg, &why) && !reported) {
          reported = true;
          report_at_completion(part, t, op, *ctas[0], Rule::MmaSparseMetadataInvalid, [&] {
            return why + fmt::format(" is not a legal index pair for kind::{} (PTX ISA §9.7.16.10.8); tcsim multiplies "
                                     "the stored values with the B elements the indices name",
                                     isa::kind_name(op.kind));
          });
        }
        bm = bg.data();
      }
      const uint32_t* am = a.data() + size_t{m} * K;
      if (uniform) {
        engine.tile(1, static_cast<int>(N), am, bm, c.data() + size_t{m} * N, d.data() + size_t{m} * N,
                    sap ? sap + size_t{m} * nsf : nullptr, sbp);
        continue;
      }
      for (uint32_t n = 0; n < N; ++n) {  // scales differ between sub-partitions: per cell
        const isa::TmemCell dc = D.locate(m, n);
        for (int j = 0; j < nsf; ++j) {
          sa1[j] = tmem_byte(op, op.sfa->locate(dc, m, j));
          sb1[j] = tmem_byte(op, op.sfb->locate(dc, m, j));
        }
        d[size_t{m} * N + n] = engine.dot(am, bm + size_t{n} * K, c[size_t{m} * N + n], sa1.data(), sb1.data());
      }
    }
  }
  for (uint32_t r = 0; r < M; ++r)
    for (uint32_t j0 = 0; j0 < N; j0 += quarters ? q : 1) {
      const auto [dst, bit] = row_cells(r, j0);
      if ((op.disable[bit / 32] >> (bit % 32)) & 1) continue;  // disable-output-lane: lane not written
      std::memcpy(dst, d.data() + size_t{r} * N + j0, (quarters ? q : 1) * 4);
    }
}

}  // namespace

Cycles TensorCore::issue_mma(Partition& part, Cycles now, std::shared_ptr<const MmaOp> op) {
  const uint64_t macs = uint64_t{op->m} * op->n * op->k;
  // Cycles by the published B200 formulas (sim/timing/model.h). The published latency runs from
  // issue to the tcgen05.commit's mbarrier completing as a suspended try_wait sees it; the commit
  // and the waiter's wake-up are modelled by their own units, so the MMA's part is the rest.
  const timing::Model& tmodel = *part.launch().timing;
  const timing::Model::Tcgen05Mma tt = tmodel.tcgen05_mma(op->cg, op->m, op->n, op->a_tmem);
  Work work;
  work.ii = tt.ii;
  work.smem = tt.smem_cycles;
  work.latency = tt.latency - tmodel.p.tc_commit_latency - tmodel.p.mbarrier_wake_latency;
  work.flops = 2.0 * static_cast<double>(macs);
  std::vector<ColumnWrite> writes;
  const uint32_t col0 = op->d_col0, cols = op->d_layout->columns_used();
  for (int x = 0; x < op->cg; ++x) writes.push_back({op->units[x], col0, cols});
  Partition* p = &part;
  TensorCore* peer = peer_of(op->cg, op->units);
  const uint32_t src = op->src;
  return issue(part, now, work, peer, std::move(writes), src,
               [op = std::move(op), p](Cycles t) { complete_mma(*op, *p, t); });
}

}  // namespace tcsim::sim
