// PTX ISA §9.7.16.9.2 tcgen05.cp, §9.7.16.9.3 tcgen05.shift:
//   tcgen05.cp.cta_group.shape{.multicast}{.dst_fmt.src_fmt} [taddr], s-desc;
//     .shape     = { .128x256b, .4x256b, .128x128b, .64x128b, .32x128b }
//     .multicast = { .warpx2::02_13, .warpx2::01_23, .warpx4 }
//     .dst_fmt.src_fmt = { .b8x16.b6x16_p32, .b8x16.b4x16_p64 }
//   tcgen05.shift.cta_group.down [taddr];
//
// tcgen05.cp copies rows of shared memory, described by a shared-memory descriptor (§9.7.16.4.1),
// into TMEM lanes: row r of the source is `row bytes` (32 for the 256b shapes, 16 for 128b) of a
// K-major canonical layout of bytes (row = the descriptor's MN index; its 16-byte units at the
// layout's addresses, swizzle included), landing in consecutive 32-bit columns from taddr's column.
// Source order is shown only in figures: this is the model (docs/tensor_memory.md §4, UNCONFIRMED), the
// one CUTLASS's UTCCP copy traits (copy_traits_sm100.hpp) and TVM's tcgen05_cp use. Lanes of row r:
//   128x256b, 128x128b        lane L0 + r                          (128 rows)
//   4x256b                    lane L0 + 32 r                       (4 rows, one per sub-partition)
//   64x128b.warpx2::02_13     lanes L0 + r and L0 + 64 + r         (64 rows)
//   64x128b.warpx2::01_23     lanes L0 + 64(r/32) + r%32, and + 32 (64 rows)
//   32x128b.warpx4            lanes L0 + r + 32 q, q = 0..3         (32 rows)
// .64x128b needs a .warpx2 qualifier and .32x128b needs .warpx4 (§9.7.16.9.2;
// docs/tensor_memory.md §4). Decompression (§9.7.16.9.1): each 16-byte source unit holds 16 fp4 in its low 8 bytes
// (.b4x16_p64) or 16 fp6 in its low 12 bytes (.b6x16_p32), element e at bits [b*e, b*e+b); it
// becomes 16 8-bit containers: e2m1 in container bits [5:2], e2m3/e3m2 in bits [5:0] (the mma.sync
// convention, UNCONFIRMED for tcgen05, isa/layouts/tmem_layout.h). cta_group::2: each CTA of the
// pair copies from its own shared memory into its own TMEM. Asynchronous: the cells change at
// completion (sim/units/tensor_core.h), in issue order with tcgen05.mma.
//
// tcgen05.shift.down moves the 32-byte element (8 columns from taddr's column) of each TMEM row one
// lane down (row i -> row i+1) within the 32 lanes from taddr's lane: its data-movement shape is
// .31x256b (§9.7.16.2.3); the old value of lane L0 + 31 is dropped and lane L0 keeps its old value
// (the PTX does not say what it holds: UNCONFIRMED; CUTLASS refreshes the first lane of each
// sub-partition with tcgen05.cp.4x256b). taddr's lane must be a multiple of 32 (§9.7.16.9.3).
#include <cstring>
#include <memory>

#include "isa/descriptors/smem_desc.h"
#include "isa/layouts/canonical_layout.h"
#include "sim/exec/lane_ops.h"
#include "sim/exec/tcgen05_common.h"
#include "sim/memory/access.h"
#include "sim/partition.h"

namespace tcsim::sim {
namespace {

using namespace tcgen05;
using isa::ptx::Mod;
using isa::ptx::Op;

enum class CpShape : uint8_t { S128x256b, S4x256b, S128x128b, S64x128b, S32x128b };
enum class CpCast : uint8_t { None, W02_13, W01_23, W4 };
enum class CpFmt : uint8_t { None, B6, B4 };

struct CpForm {
  CpShape shape;
  CpCast cast;
  CpFmt fmt;
  uint32_t rows() const {
    switch (shape) {
      case CpShape::S128x256b: case CpShape::S128x128b: return 128;
      case CpShape::S4x256b: return 4;
      case CpShape::S64x128b: return 64;
      case CpShape::S32x128b: return 32;
    }
    return 0;
  }
  uint32_t row_bytes() const { return shape == CpShape::S128x256b || shape == CpShape::S4x256b ? 32 : 16; }
  // Destination lanes of source row r (relative to taddr's lane): up to 4.
  int lanes(uint32_t r, uint32_t* out) const {
    switch (shape) {
      case CpShape::S128x256b: case CpShape::S128x128b: out[0] = r; return 1;
      case CpShape::S4x256b: out[0] = 32 * r; return 1;
      case CpShape::S64x128b:
        if (cast == CpCast::W02_13) { out[0] = r; out[1] = 64 + r; return 2; }
        out[0] = 64 * (r / 32) + r % 32; out[1] = out[0] + 32; return 2;
      case CpShape::S32x128b:
        for (uint32_t q = 0; q < 4; ++q) out[q] = r + 32 * q;
        return 4;
    }
    return 0;
  }
};

// aux: bits 0 cg2; 1-3 shape; 4-5 multicast; 6-7 format.
CpForm form_of(uint64_t aux) {
  return {CpShape((aux >> 1) & 7), CpCast((aux >> 4) & 3), CpFmt((aux >> 6) & 3)};
}

std::pair<Cta*, Cta*> pair_ctas(ExecCtx& c, int lane, int cg, const char* what) {
  if (cg == 1) return {c.cta, nullptr};
  Cta* peer = peer_cta(*c.cta);
  if (!peer)
    c.fail(lane, fmt::format("{}.cta_group::2: the CTA-pair peer of {} is not running (PTX ISA §9.7.16.5 Table 46)", what,
                             c.cta->name()));
  const bool even = (c.cta->cluster_rank() & 1) == 0;
  return {even ? c.cta : peer, even ? peer : c.cta};
}

void exec_cp(ExecCtx& c, const ExecInstr& in) {
  const int cg = cta_group_of(in.aux);
  tc_note_cta_group(c, in, cg);
  const CpForm form = form_of(in.aux);
  for_lanes(c.mask, [&](int lane) {
    auto op = std::make_shared<CpOp>();
    op->fmt = form.fmt == CpFmt::B6 ? CpOp::Decompress::B6x16P32
              : form.fmt == CpFmt::B4 ? CpOp::Decompress::B4x16P64
                                      : CpOp::Decompress::None;
    op->cg = cg;
    op->src = in.src;
    const uint32_t taddr = static_cast<uint32_t>(mem::lane_address(c, c.op(in, 0), lane));
    const uint64_t raw = c.src(in.o[0])[lane];
    op->lane0 = taddr >> 16;
    op->col0 = taddr & 0xffff;
    const uint32_t rows = form.rows(), units = form.row_bytes() / 16, cols = form.row_bytes() / 4;
    op->rows = rows;
    op->units_per_row = units;
    uint32_t max_lane = 0;
    for (uint32_t r = 0; r < rows; ++r) {
      uint32_t l[4];
      const int n = form.lanes(r, l);
      op->lanes_per_row = static_cast<uint32_t>(n);
      for (int i = 0; i < n; ++i) {
        max_lane = std::max(max_lane, l[i]);
        op->lane_of.push_back(static_cast<uint8_t>(l[i]));
      }
    }
    if (op->lane0 + max_lane >= kTmemLanes)
      c.fail(lane, fmt::format("tcgen05.cp to TMEM address 0x{:08x}: lane {} plus the shape's {} lanes passes lane 127 "
                               "(PTX ISA §9.7.16.9.2)",
                               taddr, op->lane0, max_lane + 1));
    const isa::Arch arch = isa::Arch::Sm100a;
    const isa::SmemDesc sd = isa::decode_smem_desc(raw, arch);
    if (isa::Violations v = isa::validate_smem_desc(sd, arch); !v.empty()) {
      std::string t;
      for (const auto& x : v) t += "\n    - " + x.to_string();
      c.fail(lane, fmt::format("tcgen05.cp: shared-memory descriptor 0x{:016x} breaks:{}", raw, t));
    }
    auto L = isa::CanonicalLayout::make(sd, isa::dense_format(8), isa::Major::K);
    if (!L) c.fail(lane, fmt::format("tcgen05.cp: descriptor 0x{:016x}: {}", raw, L.error().message));
    auto [even, odd] = pair_ctas(c, lane, cg, "tcgen05.cp");
    Cta* ctas[2] = {even, odd};
    op->unit_addr.resize(size_t{rows} * units);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t u = 0; u < units; ++u) {
        const uint32_t a = L->byte_address(r, 16 * u);
        if (a + 16 > c.cta->smem_bytes())
          c.fail(lane, fmt::format("tcgen05.cp: descriptor 0x{:016x} ({}) reads shared address 0x{:x}, outside the "
                                   "CTA's {} bytes of shared memory",
                                   raw, L->describe(), a, c.cta->smem_bytes()));
        op->unit_addr[size_t{r} * units + u] = a;
      }
    for (int v = 0; v < cg; ++v) {
      op->ctas[v] = ctas[v]->ref();
      op->units[v] = &ctas[v]->sm().tensor_core();
      if (op->col0 + cols > kTmemColumns || !op->units[v]->tmem().find(ctas[v], op->col0, cols))
        c.fail(lane, fmt::format("tcgen05.cp to TMEM address 0x{:08x}: columns {}-{} are not allocated to {} "
                                 "(allocations: {}; PTX ISA §9.7.16.7.1)",
                                 taddr, op->col0, op->col0 + cols - 1, ctas[v]->name(),
                                 op->units[v]->tmem().describe_allocations()));
      check_ld_war(c, lane, *op->units[v], *ctas[v], {0, kTmemLanes, op->col0, cols}, "tcgen05.cp");
    }
    TensorCore& tc = c.sm->tensor_core();
    const Cycles done = tc.issue_cp(*c.part, c.now, std::move(op));
    Cycles& last = tc.cta(*c.cta).thread_last_done[c.warp->id() * 32 + static_cast<uint32_t>(lane)];
    last = max(last, done);
  });
}

void exec_shift(ExecCtx& c, const ExecInstr& in) {
  const int cg = cta_group_of(in.aux);
  tc_note_cta_group(c, in, cg);
  for_lanes(c.mask, [&](int lane) {
    const uint32_t taddr = static_cast<uint32_t>(mem::lane_address(c, c.op(in, 0), lane));
    auto op = std::make_shared<ShiftOp>();
    op->cg = cg;
    op->src = in.src;
    op->lane0 = taddr >> 16;
    op->col0 = taddr & 0xffff;
    if (op->lane0 % 32 != 0 || op->lane0 >= kTmemLanes)
      c.fail(lane, fmt::format("tcgen05.shift: taddr 0x{:08x} has lane {}, which must be a multiple of 32 below 128 "
                               "(PTX ISA §9.7.16.9.3)",
                               taddr, op->lane0));
    auto [even, odd] = pair_ctas(c, lane, cg, "tcgen05.shift");
    Cta* ctas[2] = {even, odd};
    for (int v = 0; v < cg; ++v) {
      op->ctas[v] = ctas[v]->ref();
      op->units[v] = &ctas[v]->sm().tensor_core();
      if (op->col0 + 8 > kTmemColumns || !op->units[v]->tmem().find(ctas[v], op->col0, 8))
        c.fail(lane, fmt::format("tcgen05.shift at 0x{:08x}: columns {}-{} are not allocated to {} (PTX ISA "
                                 "§9.7.16.7.1)",
                                 taddr, op->col0, op->col0 + 7, ctas[v]->name()));
      check_ld_war(c, lane, *op->units[v], *ctas[v], {op->lane0, 32, op->col0, 8}, "tcgen05.shift");
    }
    TensorCore& tc = c.sm->tensor_core();
    const Cycles done = tc.issue_shift(*c.part, c.now, std::move(op));
    Cycles& last = tc.cta(*c.cta).thread_last_done[c.warp->id() * 32 + static_cast<uint32_t>(lane)];
    last = max(last, done);
  });
}

}  // namespace

void bind_tcgen05_cp_shift(BindCtx& b) {
  const int cg = bind_cta_group(b);
  if (b.in.op == Op::tcgen05_shift) {
    b.only_mods({Mod::cta_group_1, Mod::cta_group_2, Mod::down});
    if (!b.has(Mod::down)) b.fail("tcgen05.shift needs .down (PTX ISA §9.7.16.9.3)");
    const auto arch = isa::parse_arch(b.m.target);
    if (arch == isa::Arch::Sm100f)
      b.fail("tcgen05.shift exists only on sm_100a / sm_101a / sm_103a / sm_110a, not the family target sm_100f "
             "(PTX ISA §9.7.16.9.3)");
    b.out.first_op = b.push(b.address(0, isa::ptx::Space::Generic));
    b.out.aux = aux_cta_group(cg);
    b.out.fn = exec_shift;
    return;
  }
  if (b.in.op != Op::tcgen05_cp) b.fail("internal: not a tcgen05.cp/shift row");
  b.only_mods({Mod::cta_group_1, Mod::cta_group_2, Mod::s128x256b, Mod::s4x256b, Mod::s128x128b, Mod::s64x128b,
               Mod::s32x128b, Mod::warpx2_02_13, Mod::warpx2_01_23, Mod::warpx4, Mod::b8x16, Mod::b6x16_p32,
               Mod::b4x16_p64});
  std::optional<CpShape> shape;
  for (auto [m, s] : {std::pair{Mod::s128x256b, CpShape::S128x256b}, {Mod::s4x256b, CpShape::S4x256b},
                      {Mod::s128x128b, CpShape::S128x128b}, {Mod::s64x128b, CpShape::S64x128b},
                      {Mod::s32x128b, CpShape::S32x128b}})
    if (b.has(m)) {
      if (shape) b.fail("more than one shape");
      shape = s;
    }
  if (!shape) b.fail("tcgen05.cp needs a shape: .128x256b, .4x256b, .128x128b, .64x128b or .32x128b (PTX ISA §9.7.16.9.2)");
  CpCast cast = CpCast::None;
  if (b.has(Mod::warpx2_02_13)) cast = CpCast::W02_13;
  if (b.has(Mod::warpx2_01_23)) {
    if (cast != CpCast::None) b.fail("more than one multicast qualifier");
    cast = CpCast::W01_23;
  }
  if (b.has(Mod::warpx4)) {
    if (cast != CpCast::None) b.fail("more than one multicast qualifier");
    cast = CpCast::W4;
  }
  if (*shape == CpShape::S64x128b && cast != CpCast::W02_13 && cast != CpCast::W01_23)
    b.fail("tcgen05.cp.64x128b needs .warpx2::02_13 or .warpx2::01_23 (PTX ISA §9.7.16.9.2)");
  if (*shape == CpShape::S32x128b && cast != CpCast::W4)
    b.fail("tcgen05.cp.32x128b needs .warpx4 (PTX ISA §9.7.16.9.2)");
  if ((*shape != CpShape::S64x128b && (cast == CpCast::W02_13 || cast == CpCast::W01_23)) ||
      (*shape != CpShape::S32x128b && cast == CpCast::W4))
    b.fail("this multicast qualifier belongs to another shape (.warpx2 with .64x128b, .warpx4 with .32x128b; PTX ISA "
           "§9.7.16.9.2)");
  CpFmt fmt = CpFmt::None;
  const bool b6 = b.has(Mod::b6x16_p32), b4 = b.has(Mod::b4x16_p64);
  if (b6 || b4 || b.has(Mod::b8x16)) {
    if (!b.has(Mod::b8x16) || b6 == b4)
      b.fail("tcgen05.cp decompression is .b8x16.b6x16_p32 or .b8x16.b4x16_p64 (PTX ISA §9.7.16.9.1)");
    fmt = b6 ? CpFmt::B6 : CpFmt::B4;
  }
  if (b.nops() != 2) b.fail("tcgen05.cp takes [taddr], s-desc");
  b.out.first_op = b.push(b.address(0, isa::ptx::Space::Generic));
  b.out.o[0] = b.src(1, isa::ptx::Type::B64);
  b.out.aux = aux_cta_group(cg) | (uint64_t(*shape) << 1) | (uint64_t(cast) << 4) | (uint64_t(fmt) << 6);
  b.out.fn = exec_cp;
}

}  // namespace tcsim::sim
