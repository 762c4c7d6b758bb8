// The tcgen05.cp and tcgen05.shift datapaths of the tensor core unit (PTX ISA §9.7.16.9): at
// completion, the planned 16-byte shared-memory units are read, decompressed when the form asks
// (§9.7.16.9.1), and written into their TMEM lanes; a shift moves 32-byte row elements one lane
// down. Until then TMEM holds its old contents (sim/units/tensor_core.h).
#include <cstring>

#include <fmt/format.h>

#include "sim/cta.h"
#include "sim/partition.h"
#include "sim/sm.h"
#include "sim/units/tensor_core.h"
#include "sim/units/tensor_core_timing.h"

namespace tcsim::sim {

// Decompression (§9.7.16.9.1): each 16-byte source unit holds 16 fp4 in its low 8 bytes
// (.b4x16_p64) or 16 fp6 in its low 12 bytes (.b6x16_p32), element e at bits [b*e, b*e+b); it
// becomes 16 8-bit containers: e2m1 in container bits [5:2], e2m3/e3m2 in bits [5:0]
// (isa/layouts/tmem_layout.h: the container convention tcgen05.mma reads from TMEM).
void cp_convert_unit(CpOp::Decompress f, const uint8_t* src, uint8_t* dst) {
  if (f == CpOp::Decompress::None) {
    std::memcpy(dst, src, 16);
    return;
  }
  uint64_t lo, hi = 0;
  std::memcpy(&lo, src, 8);
  std::memcpy(&hi, src + 8, 8);
  for (int e = 0; e < 16; ++e) {
    if (f == CpOp::Decompress::B4x16P64) {
      dst[e] = static_cast<uint8_t>(((lo >> (4 * e)) & 0xf) << 2);
    } else {
      const int bit = 6 * e;
      uint64_t v = bit < 64 ? (lo >> bit) : 0;
      if (bit > 58 && bit < 64) v |= hi << (64 - bit);
      if (bit >= 64) v = hi >> (bit - 64);
      dst[e] = static_cast<uint8_t>(v & 0x3f);
    }
  }
}

namespace {

void complete_cp(const CpOp& op, Partition& part, Cycles t) {
  for (int v = 0; v < op.cg; ++v) {
    Cta* cta = op.ctas[v].get();
    if (!cta || cta->done()) {
      part.record_fault(t, op.units[v]->sm().id(),
                        fmt::format("kernel {}: {}: cycle {}: the tcgen05.cp completes but its CTA has exited (PTX "
                                    "ISA §9.7.16.5)",
                                    part.launch().kernel, tc_source_text(part, op.src), t.count()));
      return;
    }
    const uint8_t* smem = cta->shared();
    Tmem& tm = op.units[v]->tmem();
    for (uint32_t r = 0; r < op.rows; ++r)
      for (uint32_t u = 0; u < op.units_per_row; ++u) {
        uint8_t bytes[16];
        cp_convert_unit(op.fmt, smem + op.unit_addr[size_t{r} * op.units_per_row + u], bytes);
        for (uint32_t l = 0; l < op.lanes_per_row; ++l) {
          const uint32_t lane = op.lane0 + op.lane_of[size_t{r} * op.lanes_per_row + l];
          std::memcpy(&tm.cell(lane, op.col0 + 4 * u), bytes, 16);
        }
      }
  }
}

// tcgen05.shift's data-movement shape is .31x256b (PTX ISA §9.7.16.2.3): within the 32 lanes from
// taddr's lane, 31 rows of 256 bits move one lane down; lane L0 keeps its value (the PTX does not
// say what it holds: UNCONFIRMED), the old value of lane L0 + 31 is dropped.
void complete_shift(const ShiftOp& op) {
  for (int v = 0; v < op.cg; ++v) {
    Tmem& tm = op.units[v]->tmem();
    for (uint32_t l = op.lane0 + 31; l > op.lane0; --l)
      for (uint32_t k = 0; k < 8; ++k) tm.cell(l, op.col0 + k) = tm.cell(l - 1, op.col0 + k);
  }
}

}  // namespace

Cycles TensorCore::issue_cp(Partition& part, Cycles now, std::shared_ptr<const CpOp> op) {
  const uint64_t work = uint64_t{op->rows} * op->units_per_row * 16 / tc_timing::kCopyBytesPerCycle;
  std::vector<ColumnWrite> writes;
  for (int v = 0; v < op->cg; ++v) writes.push_back({op->units[v], op->col0, 4 * op->units_per_row});
  Partition* p = &part;
  TensorCore* peer = peer_of(op->cg, op->units);
  const uint32_t src = op->src;
  return issue(part, now, work, peer, std::move(writes), src,
               [op = std::move(op), p](Cycles t) { complete_cp(*op, *p, t); });
}

Cycles TensorCore::issue_shift(Partition& part, Cycles now, std::shared_ptr<const ShiftOp> op) {
  std::vector<ColumnWrite> writes;
  for (int v = 0; v < op->cg; ++v) writes.push_back({op->units[v], op->col0, 8});
  TensorCore* peer = peer_of(op->cg, op->units);
  const uint32_t src = op->src;
  return issue(part, now, tc_timing::kShiftWork, peer, std::move(writes), src,
               [op = std::move(op)](Cycles) { complete_shift(*op); });
}

}  // namespace tcsim::sim
