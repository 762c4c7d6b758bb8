// PTX ISA §9.7.16.8.3-4 tcgen05.ld / tcgen05.st (data movement between TMEM and registers):
//   tcgen05.ld.sync.aligned.shape1.num{.pack::16b}.b32    r, [taddr];
//   tcgen05.ld.sync.aligned.shape2.num{.pack::16b}.b32    r, [taddr], immHalfSplitoff;
//   tcgen05.st.sync.aligned.shape1.num{.unpack::16b}.b32  [taddr], r;
//   tcgen05.st.sync.aligned.shape2.num{.unpack::16b}.b32  [taddr], immHalfSplitoff, r;
//   .shape1 = { .16x64b, .16x128b, .16x256b, .32x32b }   .shape2 = { .16x32bx2 }
//   .num    = { .x1, .x2, .x4, .x8, .x16, .x32, .x64, .x128 }
// (tcgen05.ld.red exists only on sm_101a/sm_103f/sm_110 targets, not sm_100a: rejected.)
//
// Which (thread, register) moves which cell: isa/layouts/tmem_ld_st.h (Tables 49/50 and the
// fragment figures, docs/tensor_memory.md §3). Rules: .sync.aligned (whole converged warp, same taddr);
// the columns must be allocated to the CTA (§9.7.16.7.1).
//
// Lane quarters (§9.7.16.8.1): warp w reaches only lanes 32*(w%4) .. +31. The hardware does not
// fault on a taddr lane outside that quarter: it takes the lane field modulo 32 inside the warp's
// own quarter (docs/hardware_tolerance.md: lane 96 given by warp 0 reads lane 0; lane 128 + 32w of
// a CTA pair's odd CTA reads the warp's own quarter; lane 0 given by every epilogue warp reads
// each warp's own quarter). tcsim serves exactly that and records the finding tcgen05-lane-quarter.
// An access whose rows run past the end of the quarter (e.g. 32x32b at lane 8) wraps inside the
// quarter and is the finding tcgen05-lane-wrap (what the hardware does there is not known).
//
// Timing model: tcgen05.ld samples TMEM when it issues and its destination registers hold the
// values for every later instruction: §9.7.16.6.4.5 ("an intra-thread ordering through true
// register dependency will be respected regardless of the presence or absence of other forms of
// synchronization"), as the hardware scoreboard does. tcgen05.wait::ld orders the TMEM side only:
// until it, the cells the load reads are in its hazard window (a later tcgen05.st of the warp, or
// tcgen05.mma / .cp / .shift, that overwrites them is a write-after-read finding). tcgen05.st
// writes TMEM when it issues; tcgen05.wait::st ends its hazard window (a tcgen05.ld of the same
// warp that reads cells of a not-yet-waited st is the finding tcgen05-raw-st-ld, pattern
// §9.7.16.6.4.2). The checker (docs/tensor_memory.md §5) also reports a tcgen05.ld of cells an MMA/cp/shift
// has in flight (stale data) and of cells written by an async op that completed after the warp's
// last tcgen05.fence::after_thread_sync (the missing fence of §9.7.16.6.4 pattern (c)).
#include <cstring>
#include <optional>
#include <vector>

#include "isa/layouts/tmem_ld_st.h"
#include <utility>

#include "sim/report/report.h"
#include "sim/exec/lane_ops.h"
#include "sim/exec/tcgen05_common.h"
#include "sim/memory/access.h"
#include "sim/units/tensor_core.h"

namespace tcsim::sim {
namespace {

using namespace tcgen05;
using isa::TmemLdStMap;
using isa::TmemLdStShape;
using isa::ptx::Mod;
using isa::ptx::Op;
using isa::ptx::OperandKind;

// ExecInstr::aux: shape (bits 0-2), num (bits 8-15), pack16 (bit 16), split offset (bits 32-47).
// operands: [0] taddr address, [1..] the registers.
uint64_t pack_aux(TmemLdStShape s, uint32_t num, bool pack, uint32_t split) {
  return uint64_t(s) | (uint64_t{num} << 8) | (uint64_t(pack) << 16) | (uint64_t{split} << 32);
}
TmemLdStMap map_of(const ExecInstr& in) {
  auto m = TmemLdStMap::make(TmemLdStShape(in.aux & 7), uint32_t(in.aux >> 8) & 0xff, (in.aux >> 16) & 1,
                             uint32_t(in.aux >> 32) & 0xffff);
  return *m;  // validated at bind time
}

struct Access {
  uint32_t taddr;
  TmemRange range;     // the cells served (the warp's own quarter), for the hazard checks
  uint32_t quarter0;   // first lane of the warp's quarter: 32 * (warp % 4)
  uint32_t offset;     // the row offset inside the quarter that lane 0 of the shape lands on
  // The TMEM lane of row `i` of the access (i < the shape's lanes): modulo 32 inside the quarter.
  uint32_t lane(uint32_t i) const { return quarter0 + ((offset + i) & 31); }
};

// The lane-access rule of §9.7.16.8.1 as the hardware applies it, and the allocation rule (columns
// inside an allocation of this CTA, §9.7.16.7.1).
Access check_warp_access(ExecCtx& c, uint32_t taddr, const TmemLdStMap& map, const char* what) {
  const uint32_t w = c.warp->id(), q = w % 4, lo = 32 * q;
  const int lane = __builtin_ctz(c.mask);
  const uint32_t lane0 = taddr >> 16, col0 = taddr & 0xffff, lanes = map.lanes(), cols = map.columns();
  Access acc{taddr, {lo + (lane0 & 31), lanes, col0, cols}, lo, lane0 & 31};
  if (lane0 < lo || lane0 + lanes > lo + 32) {
    if ((lane0 & 31) + lanes <= 32) {
      report(c, Rule::TmemLaneQuarter, lane, [&] {
        return fmt::format("{} at TMEM address 0x{:08x} names lanes {}-{}, but warp {} (warp id % 4 = {}) reaches "
                           "only lanes {}-{}: the hardware takes the lane modulo 32 in the warp's quarter, so lanes "
                           "{}-{} were accessed",
                           what, taddr, lane0, lane0 + lanes - 1, w, q, lo, lo + 31, acc.range.lane0,
                           acc.range.lane0 + lanes - 1);
      });
    } else {
      acc.range = {lo, 32, col0, cols};
      report(c, Rule::TmemLaneWrap, lane, [&] {
        return fmt::format("{} at TMEM address 0x{:08x} names lanes {}-{}, which run past the end of warp {}'s "
                           "quarter (lanes {}-{}): tcsim wraps the rows inside the quarter (lane {} first, then "
                           "{} after {}); what the hardware does here is not known",
                           what, taddr, lane0, lane0 + lanes - 1, w, lo, lo + 31, lo + (lane0 & 31), lo, lo + 31);
      });
    }
  }
  if (col0 + cols > kTmemColumns)
    c.fail(lane, fmt::format("{} at TMEM address 0x{:08x} reaches column {}, past the last column 511 (PTX ISA "
                             "§9.7.16.1)",
                             what, taddr, col0 + cols - 1));
  TensorCore& tc = c.sm->tensor_core();
  if (!tc.tmem().find(c.cta, col0, cols))
    c.fail(lane, fmt::format("{} at TMEM address 0x{:08x} reads or writes columns {}-{}, which are not allocated "
                             "to this CTA (allocations on SM {}: {}); TMEM must be allocated with tcgen05.alloc "
                             "before it is accessed (PTX ISA §9.7.16.7.1)",
                             what, taddr, col0, col0 + cols - 1, c.sm->id(), tc.tmem().describe_allocations()));
  return acc;
}

std::optional<Access> begin_access(ExecCtx& c, const ExecInstr& in, const TmemLdStMap& map, const char* what) {
  if (!await_converged_warp(c, what)) return std::nullopt;
  const ExecOperand& a = c.op(in, 0);
  const int first = __builtin_ctz(c.mask);
  const uint32_t taddr = static_cast<uint32_t>(mem::lane_address(c, a, first));
  bool reported = false;
  for_lanes(c.mask, [&](int i) {
    const uint32_t t = static_cast<uint32_t>(mem::lane_address(c, a, i));
    if (t != taddr && !std::exchange(reported, true))
      report(c, Rule::TmemTaddrNotUniform, i, [&] {
        return fmt::format("{}: lane {} has taddr 0x{:08x} (TMEM lane {}, column {}), lane {} has 0x{:08x} (lane {}, "
                           "column {}): .sync.aligned wants one taddr for the warp; tcsim uses lane {}'s",
                           what, first, taddr, taddr >> 16, taddr & 0xffff, i, t, t >> 16, t & 0xffff, first);
      });
  });
  return check_warp_access(c, taddr, map, what);
}

void check_stale(ExecCtx& c, const TmemRange& r, TcWarpState& ws) {
  Tmem& tm = c.sm->tensor_core().tmem();
  for (uint32_t col = r.col0; col < r.col0 + r.cols; ++col) {
    const TmemColumnState& s = tm.column_state(col);
    if (s.in_flight) {
      report(c, Rule::TmemStaleRead, __builtin_ctz(c.mask),
                fmt::format("tcgen05.ld reads TMEM column {} while an asynchronous tcgen05 operation that writes it "
                            "has not completed: the load sees the old contents (stale data). Wait for the "
                            "operation's tcgen05.commit mbarrier, then tcgen05.fence::after_thread_sync, before "
                            "tcgen05.ld (PTX ISA §9.7.16.6.4 pattern (c))",
                            col));
      return;
    }
    // The warp's last fence::after_thread_sync came while the write was in flight: the thread sync
    // it orders after could not have observed the completion of a tcgen05.commit tracking the
    // write (the commit's mbarrier arrive happens when the write completes, §9.7.16.6.4), so
    // nothing orders this load after it: a missing or misplaced commit (a plain arrive instead,
    // a wait on the wrong barrier) that timing happened to hide. Without any fence since the
    // write it is the tolerated missing-fence form below.
    if (s.last_writer_src && ws.fenced_after && ws.last_fence_after > s.last_issue &&
        ws.last_fence_after < s.last_write) {
      report(c, Rule::TmemStaleRead, __builtin_ctz(c.mask),
             fmt::format("tcgen05.ld reads TMEM column {} written by {} (issued at cycle {}, completed at cycle {}), "
                         "but this warp's last tcgen05.fence::after_thread_sync (cycle {}) came while that write was in "
                         "flight: no tcgen05.commit tracking the write completed before the thread sync the fence "
                         "follows, so the load is ordered after the write only by timing (commit -> mbarrier wait -> "
                         "fence::after_thread_sync -> tcgen05.ld, PTX ISA §9.7.16.6.4 pattern (c))",
                         col, tc_source_text(*c.part, s.last_writer_src - 1), s.last_issue.count(), s.last_write.count(),
                         ws.last_fence_after.count()),
             s.last_writer_src - 1);
      return;
    }
    if (s.last_writer_src && (!ws.fenced_after || ws.last_fence_after < s.last_write)) {
      report(c, Rule::TmemMissingFenceAfter, __builtin_ctz(c.mask),
                fmt::format("tcgen05.ld reads TMEM column {} written by {} (completed at cycle {}) but this warp has "
                            "not executed tcgen05.fence::after_thread_sync since: the mma -> ld chain needs "
                            "commit -> mbarrier wait -> tcgen05.fence::after_thread_sync -> tcgen05.ld (PTX ISA "
                            "§9.7.16.6.4 pattern (c), §9.7.16.11.1)",
                            col, tc_source_text(*c.part, s.last_writer_src - 1), s.last_write.count()),
             s.last_writer_src - 1);
      return;
    }
  }
}

void exec_ld(ExecCtx& c, const ExecInstr& in) {
  const TmemLdStMap map = map_of(in);
  const std::optional<Access> a = begin_access(c, in, map, "tcgen05.ld");
  if (!a) return;
  const Access& acc = *a;
  TcWarpState& ws = c.sm->tensor_core().cta(*c.cta).warp(c.warp->id());
  check_stale(c, acc.range, ws);
  for (const TmemRange& r : ws.st_ranges)
    if (r.overlaps(acc.range)) {
      report(c, Rule::TmemLdRawSt, __builtin_ctz(c.mask), [&] {
        return fmt::format("tcgen05.ld reads TMEM cells that the tcgen05.st at {} of this warp writes, with no "
                           "tcgen05.wait::st in between: the load may see the old contents (PTX ISA "
                           "§9.7.16.6.4.2); tcsim's tcgen05.st has written them already",
                           site_of(*c.launch, ws.st_src).str());
      }, ws.st_src);
      break;
    }
  Tmem& tm = c.sm->tensor_core().tmem();
  const uint32_t nregs = map.registers();
  const bool pack = map.packed();
  const uint32_t c0 = acc.range.col0;
  // Sample every register first, then write them (a destination may also be the taddr register).
  std::vector<uint32_t> v(size_t{nregs} * 32);
  for (uint32_t j = 0; j < nregs; ++j)
    for_lanes(c.mask, [&](int t) {
      uint32_t x;
      if (!pack) {
        const TmemLdStMap::Cell cl = map.locate(uint32_t(t), j);
        x = tm.cell(acc.lane(cl.lane), c0 + cl.column);
      } else {
        const TmemLdStMap::Cell lo = map.locate(uint32_t(t), j, 0), hi = map.locate(uint32_t(t), j, 1);
        x = (tm.cell(acc.lane(lo.lane), c0 + lo.column) & 0xffffu) |
            ((tm.cell(acc.lane(hi.lane), c0 + hi.column) & 0xffffu) << 16);
      }
      v[size_t{j} * 32 + uint32_t(t)] = x;
    });
  for (uint32_t j = 0; j < nregs; ++j) {
    const ExecOperand& o = c.op(in, 1 + j);
    if (o.is_sink) continue;
    uint64_t* d = c.dst(o.ref);
    for_lanes(c.mask, [&](int t) { d[t] = v[size_t{j} * 32 + uint32_t(t)]; });
  }
  ws.ld_src = in.src;
  ws.ld_ranges.push_back(acc.range);
  ws.note_unfenced(acc.range, in.src);
}

void exec_st(ExecCtx& c, const ExecInstr& in) {
  const TmemLdStMap map = map_of(in);
  const std::optional<Access> a = begin_access(c, in, map, "tcgen05.st");
  if (!a) return;
  const Access& acc = *a;
  TensorCore& tc = c.sm->tensor_core();
  TcWarpState& ws = tc.cta(*c.cta).warp(c.warp->id());
  for (const TmemRange& r : ws.ld_ranges)
    if (r.overlaps(acc.range)) {
      report(c, Rule::TmemStWar, __builtin_ctz(c.mask), [&] {
        return fmt::format("tcgen05.st overwrites TMEM cells that the tcgen05.ld at {} of this warp reads, without "
                           "tcgen05.wait::ld in between: a write-after-read hazard (PTX ISA §9.7.16.6.4.5, "
                           "§9.7.16.8.5)",
                           site_of(*c.launch, ws.ld_src).str());
      }, ws.ld_src);
      break;
    }
  for (uint32_t col = acc.range.col0; col < acc.range.col0 + acc.range.cols; ++col)
    if (tc.tmem().column_state(col).in_flight) {
      report(c, Rule::TmemStRace, __builtin_ctz(c.mask),
                fmt::format("tcgen05.st writes TMEM column {} while an asynchronous tcgen05 operation that writes it "
                            "is in flight: which value remains is undefined (PTX ISA §9.7.16.6)",
                            col));
      break;
    }
  Tmem& tm = tc.tmem();
  const uint32_t nregs = map.registers();
  const bool pack = map.packed();
  const uint32_t c0 = acc.range.col0;
  for (uint32_t j = 0; j < nregs; ++j) {
    const uint64_t* v = c.src(c.op(in, 1 + j).ref);
    for_lanes(c.mask, [&](int t) {
      const uint32_t x = static_cast<uint32_t>(v[t]);
      if (!pack) {
        const TmemLdStMap::Cell cl = map.locate(uint32_t(t), j);
        tm.cell(acc.lane(cl.lane), c0 + cl.column) = x;
      } else {
        // .unpack::16b: each half into the low 16 bits of its cell; the high 16 bits are written as
        // zero (the spec does not say; UNCONFIRMED, isa/layouts/tmem_ld_st.h).
        const TmemLdStMap::Cell lo = map.locate(uint32_t(t), j, 0), hi = map.locate(uint32_t(t), j, 1);
        tm.cell(acc.lane(lo.lane), c0 + lo.column) = x & 0xffffu;
        tm.cell(acc.lane(hi.lane), c0 + hi.column) = x >> 16;
      }
    });
  }
  ws.st_ranges.push_back(acc.range);
  ws.st_src = in.src;
  ws.note_unfenced(acc.range, in.src);
}

void bind_ld_st(BindCtx& b, bool store) {
  const char* what = store ? "tcgen05.st" : "tcgen05.ld";
  b.only_mods({Mod::sync, Mod::aligned, Mod::s32x32b, Mod::s16x64b, Mod::s16x128b, Mod::s16x256b, Mod::s16x32bx2,
               Mod::x1, Mod::x2, Mod::x4, Mod::x8, Mod::x16, Mod::x32, Mod::x64, Mod::x128,
               store ? Mod::unpack_16b : Mod::pack_16b});
  if (!b.has(Mod::sync) || !b.has(Mod::aligned)) b.fail(fmt::format("{} must be .sync.aligned (PTX ISA §9.7.16.8)", what));
  if (b.type(0) != isa::ptx::Type::B32) b.fail(fmt::format("{} moves .b32 data (PTX ISA §9.7.16.8)", what));
  std::optional<TmemLdStShape> shape;
  for (auto [m, s] : {std::pair{Mod::s32x32b, TmemLdStShape::S32x32b}, {Mod::s16x64b, TmemLdStShape::S16x64b},
                      {Mod::s16x128b, TmemLdStShape::S16x128b}, {Mod::s16x256b, TmemLdStShape::S16x256b},
                      {Mod::s16x32bx2, TmemLdStShape::S16x32bx2}})
    if (b.has(m)) {
      if (shape) b.fail("more than one shape");
      shape = s;
    }
  if (!shape) b.fail(fmt::format("{} needs a shape: .32x32b, .16x64b, .16x128b, .16x256b or .16x32bx2", what));
  uint32_t num = 0;
  for (auto [m, n] : {std::pair{Mod::x1, 1u}, {Mod::x2, 2u}, {Mod::x4, 4u}, {Mod::x8, 8u}, {Mod::x16, 16u},
                      {Mod::x32, 32u}, {Mod::x64, 64u}, {Mod::x128, 128u}})
    if (b.has(m)) {
      if (num) b.fail("more than one .num");
      num = n;
    }
  if (!num) b.fail(fmt::format("{} needs .num: .x1 .. .x128", what));
  const bool pack = b.has(store ? Mod::unpack_16b : Mod::pack_16b);
  const bool split_form = *shape == TmemLdStShape::S16x32bx2;
  // Operand positions: ld r, [taddr] {, imm}; st [taddr] {, imm}, r.
  const int addr_i = store ? 0 : 1;
  const int data_i = store ? (split_form ? 2 : 1) : 0;
  const int imm_i = store ? 1 : 2;
  const size_t want_ops = split_form ? 3 : 2;
  if (b.nops() != want_ops)
    b.fail(fmt::format("{}.{} takes {} operands{}", what, isa::tmem_ldst_shape_name(*shape), want_ops,
                       split_form ? " (the data, [taddr] and immHalfSplitoff)" : ""));
  uint32_t split = 0;
  if (split_form) {
    const isa::ptx::Operand& im = b.operand(imm_i);
    if (im.kind != OperandKind::Imm) b.fail("immHalfSplitoff must be an immediate (PTX ISA §9.7.16.8.3)");
    split = static_cast<uint32_t>(im.imm);
  }
  auto map = TmemLdStMap::make(*shape, num, pack, split);
  if (!map) b.fail(fmt::format("{}: {}", what, map.error().message));
  const isa::ptx::Operand& ao = b.operand(addr_i);
  if (ao.kind != OperandKind::Address) b.fail(fmt::format("{}: [taddr] must be a memory operand", what));
  b.out.first_op = b.push(b.address(addr_i, isa::ptx::Space::Generic));
  const isa::ptx::Operand& data = b.operand(data_i);
  std::vector<const isa::ptx::Operand*> elems;
  if (data.kind == OperandKind::Vector) {
    for (const auto& e : data.elems) elems.push_back(&e);
  } else {
    elems.push_back(&data);
  }
  if (elems.size() != map->registers())
    b.fail(fmt::format("{}.{}.x{} moves {} registers per thread; the operand has {} (PTX ISA §9.7.16.8.3, Tables "
                       "49/50)",
                       what, isa::tmem_ldst_shape_name(*shape), num, map->registers(), elems.size()));
  for (const isa::ptx::Operand* e : elems) {
    ExecOperand o;
    if (store) {
      o.ref = b.src_of(*e, isa::ptx::Type::B32);
    } else if (e->kind == OperandKind::Sink) {
      o.is_sink = true;
    } else {
      if (e->kind != OperandKind::Reg) b.fail(fmt::format("{}: destinations must be registers", what));
      o.ref = b.dst_of(*e, 32);
    }
    b.push(o);
  }
  b.out.nops = static_cast<uint16_t>(1 + elems.size());
  b.out.aux = pack_aux(*shape, num, pack, split);
  b.out.fn = store ? exec_st : exec_ld;
}

}  // namespace

void bind_tcgen05_ld_st(BindCtx& b) {
  switch (b.in.op) {
    case Op::tcgen05_ld:
      if (b.in.has(Mod::red))
        b.fail("tcgen05.ld.red exists only on sm_101a / sm_103f / sm_110 targets, not sm_100a (PTX ISA "
               "§9.7.16.8.3)");
      return bind_ld_st(b, false);
    case Op::tcgen05_st:
      return bind_ld_st(b, true);
    default:
      b.fail("internal: not a tcgen05.ld/st row");
  }
}

}  // namespace tcsim::sim
