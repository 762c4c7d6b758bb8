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
// warp w reaches only lanes 32*(w%4) .. +31 (§9.7.16.8.1); the columns must be allocated to the
// CTA (§9.7.16.7.1).
//
// Timing model: tcgen05.ld samples TMEM when it issues; its registers are written only by
// tcgen05.wait::ld (tcgen05_commit_fence_wait.cc), as the spec leaves them undefined until then
// (§9.7.16.8.5) — an instruction that uses one earlier is reported and sees the old value.
// tcgen05.st writes TMEM when it issues; tcgen05.wait::st ends its hazard window. The checker
// (docs/tensor_memory.md §5) reports: a tcgen05.ld of cells an MMA/cp/shift has in flight (stale data), of
// cells written by an async op that completed after the warp's last
// tcgen05.fence::after_thread_sync (the missing fence of §9.7.16.6.4 pattern (c)), and a
// tcgen05.st over cells a pending tcgen05.ld reads (WAR without tcgen05.wait::ld).
#include <cstring>

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
  TmemRange range;
};

Access begin_access(ExecCtx& c, const ExecInstr& in, const TmemLdStMap& map, const char* what) {
  require_converged_warp(c, what);
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
  TmemRange r{taddr >> 16, map.lanes(), taddr & 0xffff, map.columns()};
  tc_check_warp_access(c, r, taddr, what);
  return {taddr, r};
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
  const Access acc = begin_access(c, in, map, "tcgen05.ld");
  TcWarpState& ws = c.sm->tensor_core().cta(*c.cta).warp(c.warp->id());
  check_stale(c, acc.range, ws);
  Tmem& tm = c.sm->tensor_core().tmem();
  const uint32_t nregs = map.registers();
  const isa::ptx::Instr& ins = c.prog->instr_of(in);
  const isa::ptx::Operand& vec = ins.ops[0];
  const bool pack = map.packed();
  const uint32_t l0 = acc.range.lane0, c0 = acc.range.col0;
  if (ws.ld_regs.empty()) ws.ld_function = c.prog->sources[in.src].function;
  for (uint32_t j = 0; j < nregs; ++j) {
    const ExecOperand& o = c.op(in, 1 + j);
    TcWarpState::PendingReg p;
    p.slot = o.ref;
    p.reg = vec.kind == OperandKind::Vector ? vec.elems[j].reg : vec.reg;
    p.mask = o.is_sink ? 0 : c.mask;
    for_lanes(c.mask, [&](int t) {
      if (!pack) {
        const TmemLdStMap::Cell cl = map.locate(uint32_t(t), j);
        p.v[t] = tm.cell(l0 + cl.lane, c0 + cl.column);
      } else {
        const TmemLdStMap::Cell lo = map.locate(uint32_t(t), j, 0), hi = map.locate(uint32_t(t), j, 1);
        p.v[t] = (tm.cell(l0 + lo.lane, c0 + lo.column) & 0xffffu) |
                 (uint64_t{tm.cell(l0 + hi.lane, c0 + hi.column) & 0xffffu} << 16);
      }
    });
    if (p.mask) ws.ld_regs.push_back(p);
  }
  ws.ld_src = in.src;
  ws.ld_ranges.push_back(acc.range);
  ws.note_unfenced(acc.range, in.src);
  c.warp->reg_watch = ws.ld_regs.empty() ? nullptr : tcgen05_check_early_read;
}

void exec_st(ExecCtx& c, const ExecInstr& in) {
  const TmemLdStMap map = map_of(in);
  const Access acc = begin_access(c, in, map, "tcgen05.st");
  TensorCore& tc = c.sm->tensor_core();
  TcWarpState& ws = tc.cta(*c.cta).warp(c.warp->id());
  for (const TmemRange& r : ws.ld_ranges)
    if (r.overlaps(acc.range)) {
      report(c, Rule::TmemStWar, __builtin_ctz(c.mask),
                "tcgen05.st overwrites TMEM cells that an earlier tcgen05.ld of this warp reads, without "
                "tcgen05.wait::ld in between: a write-after-read hazard (PTX ISA §9.7.16.6.4, §9.7.16.8.5)");
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
  const uint32_t l0 = acc.range.lane0, c0 = acc.range.col0;
  for (uint32_t j = 0; j < nregs; ++j) {
    const uint64_t* v = c.src(c.op(in, 1 + j).ref);
    for_lanes(c.mask, [&](int t) {
      const uint32_t x = static_cast<uint32_t>(v[t]);
      if (!pack) {
        const TmemLdStMap::Cell cl = map.locate(uint32_t(t), j);
        tm.cell(l0 + cl.lane, c0 + cl.column) = x;
      } else {
        // .unpack::16b: each half into the low 16 bits of its cell; the high 16 bits are written as
        // zero (the spec does not say; UNCONFIRMED, isa/layouts/tmem_ld_st.h).
        const TmemLdStMap::Cell lo = map.locate(uint32_t(t), j, 0), hi = map.locate(uint32_t(t), j, 1);
        tm.cell(l0 + lo.lane, c0 + lo.column) = x & 0xffffu;
        tm.cell(l0 + hi.lane, c0 + hi.column) = x >> 16;
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
