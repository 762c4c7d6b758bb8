// The tcgen05.mma datapath of the tensor core unit (PTX ISA §9.7.16.10): at completion, the
// operands are fetched from the locations the instruction planned (A and B from shared memory
// through their canonical-layout plans, or A from TMEM through its data-path layout; C from D's
// cells), the tile is computed by models::mma (DotEngine::tile, the sm_100a tcgen05 parameter
// rows) and D is written into TMEM (disable-output-lane lanes excepted). Until then TMEM holds its
// old contents (sim/units/tensor_core.h).
#include <cstring>

#include <fmt/format.h>

#include "models/mma/engine.h"
#include "sim/cta.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/units/tensor_core.h"
#include "sim/units/tensor_core_timing.h"

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

void complete_mma(const MmaOp& op, Partition& part, Cycles t) {
  Cta* ctas[2] = {nullptr, nullptr};
  if (!ctas_alive(op, part, t, ctas)) return;
  const uint32_t M = op.m, N = op.n, K = op.k;
  thread_local std::vector<uint32_t> a, b, c, d;
  a.assign(size_t{M} * K, 0);
  b.assign(size_t{N} * K, 0);
  c.assign(size_t{M} * N, 0);
  d.resize(size_t{M} * N);
  const uint32_t mrows = M / op.cg, nrows = N / op.cg;
  if (!op.a_tmem) {
    for (int v = 0; v < op.cg; ++v) {
      const uint8_t* smem = ctas[v]->shared();
      const uint32_t size = ctas[v]->smem_bytes();
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
    const uint8_t* smem = ctas[v]->shared();
    const uint32_t size = ctas[v]->smem_bytes();
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
  op.units[0]->engine(op.shape).tile(static_cast<int>(M), static_cast<int>(N), a.data(), b.data(), c.data(),
                                     d.data());
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
  const uint64_t work = macs / op->cg / tc_timing::macs_per_cycle(op->kind);
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
