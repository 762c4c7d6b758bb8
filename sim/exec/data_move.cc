// PTX ISA §9.7.9 Data Movement and Conversion Instructions: mov, cvta, isspacep.
//   mov.type d, a;            a: register, immediate, special register, variable or function name
//                             (the address of a variable in its own state space, PTX ISA §9.7.9.1)
//   mov.type d, {a, b, ...};  pack   (d's width = sum of the element widths, element 0 lowest)
//   mov.type {a, b, ...}, d;  unpack
//   cvta.space.size p, a;  cvta.to.space.size p, a;   .space = { .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} }
//   isspacep.space p, a;      .space = { .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} }
// Generic-address windows: sim/address_space.h. Const-space addresses are global addresses here
// (the driver backs __constant__ data with global memory), so cvta.const is the identity.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/address_space.h"
#include "sim/cta.h"
#include "sim/exec/lane_ops.h"
#include "sim/memory/dsmem.h"
#include "sim/memory/global_memory.h"
#include "sim/warp.h"

namespace tcsim::sim {
namespace {

using isa::ptx::OperandKind;
using isa::ptx::Space;
using isa::ptx::SReg;
using isa::ptx::Type;

void exec_mov(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t m = in.aux;  // width mask of the type
  blend_lanes(c.mask, d, [&](int i) { return a[i] & m; });
}
void exec_mov_pred(ExecCtx& c, const ExecInstr& in) {
  uint32_t& d = c.preds[in.o[0]];
  d = (d & ~c.mask) | (c.preds[in.o[1]] & c.mask);
}
void exec_mov_pred_imm(ExecCtx& c, const ExecInstr& in) {
  uint32_t& d = c.preds[in.o[0]];
  d = (d & ~c.mask) | (in.aux ? c.mask : 0);
}
// Address of a per-thread variable (.local, or a function's .param): the lane's frame + offset.
void exec_mov_frame_addr(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const int64_t off = static_cast<int64_t>(in.aux);
  for_lanes(c.mask, [&](int i) { d[i] = static_cast<uint64_t>(c.warp->frame_base(i) + off); });
}
// %clock, %clock_hi, %clock64 read the simulated cycle counter (PTX ISA §10.x); %globaltimer is
// nanoseconds derived from cycles at the machine's clock.
template <SReg S> void exec_mov_clock(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t cyc = c.now.count();
  const uint64_t ns = cyc * 1000 / c.launch->machine->clock_mhz;
  uint64_t v = 0;
  switch (S) {
    case SReg::clock: v = static_cast<uint32_t>(cyc); break;
    case SReg::clock_hi: v = static_cast<uint32_t>(cyc >> 32); break;
    case SReg::clock64: v = cyc; break;
    case SReg::globaltimer: v = ns; break;
    case SReg::globaltimer_lo: v = static_cast<uint32_t>(ns); break;
    case SReg::globaltimer_hi: v = static_cast<uint32_t>(ns >> 32); break;
    default: break;
  }
  for_lanes(c.mask, [&](int i) { d[i] = v; });
}

// Pack / unpack: operands first_op..+nops are the elements (lowest first); aux = element bits.
void exec_mov_pack(ExecCtx& c, const ExecInstr& in) {
  const unsigned eb = static_cast<unsigned>(in.aux);
  const uint64_t em = eb >= 64 ? ~uint64_t{0} : (uint64_t{1} << eb) - 1;
  uint64_t* d = c.dst(in.o[0]);
  uint64_t* dhi = in.flags ? c.dst(in.o[0] + 1) : nullptr;  // .b128: two slots
  for_lanes(c.mask, [&](int i) {
    uint64_t lo = 0, hi = 0;
    for (uint32_t k = 0; k < in.nops; ++k) {
      const uint64_t v = c.src(c.op(in, k).ref)[i] & em;
      const unsigned pos = k * eb;
      if (pos < 64) lo |= v << pos;
      else hi |= v << (pos - 64);
    }
    d[i] = lo;
    if (dhi) dhi[i] = hi;
  });
}
void exec_mov_unpack(ExecCtx& c, const ExecInstr& in) {
  const unsigned eb = static_cast<unsigned>(in.aux);
  const uint64_t em = eb >= 64 ? ~uint64_t{0} : (uint64_t{1} << eb) - 1;
  const uint64_t* s = c.src(in.o[1]);
  const uint64_t* shi = in.flags ? c.src(in.o[1] + 1) : nullptr;
  uint64_t lo[32], hi[32];
  for (int i = 0; i < 32; ++i) {  // read all sources first: an element may alias the source
    lo[i] = s[i];
    hi[i] = shi ? shi[i] : 0;
  }
  for_lanes(c.mask, [&](int i) {
    for (uint32_t k = 0; k < in.nops; ++k) {
      const ExecOperand& e = c.op(in, k);
      if (e.is_sink) continue;
      const unsigned pos = k * eb;
      c.dst(e.ref)[i] = (pos < 64 ? lo[i] >> pos : hi[i] >> (pos - 64)) & em;
    }
  });
}

// cvta: aux = window base, flags bit 0: to-space (subtract), bit 1: 32-bit result.
void exec_cvta(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t base = in.aux;
  const bool to = in.flags & 1, narrow = in.flags & 2, shared = in.flags & 4;
  blend_lanes(c.mask, d, [&](int i) {
    // Shared memory: the generic address is the window's high half over the 32-bit shared address
    // (SASS: SR_SWINHI : address), so cvta.to.shared keeps the low 32 bits (the H200: smem_addr o[10..11]).
    const uint64_t v = shared ? (to ? uint64_t{mem::generic_to_shared(a[i])} : mem::shared_to_generic(static_cast<uint32_t>(a[i])))
                              : (to ? a[i] - base : a[i] + base);
    return narrow ? uint64_t{static_cast<uint32_t>(v)} : v;
  });
}

// isspacep: aux = Space.
void exec_isspacep(ExecCtx& c, const ExecInstr& in) {
  const uint64_t* a = c.src(in.o[1]);
  const Space sp = static_cast<Space>(in.aux);
  uint32_t r = 0;
  for_lanes(c.mask, [&](int i) {
    const addr::Window w = addr::classify(a[i]);
    bool yes = false;
    switch (sp) {
      case Space::Global: {
        // A generic address of a __constant__ variable is not global: the H200 answers
        // isspacep.global false and isspacep.const true for it (kernels/basic/memory_spaces, o[8]).
        const Allocation* al = w == addr::Window::Global ? c.launch->gm->find(a[i], 1) : nullptr;
        yes = w == addr::Window::Global && !(al && al->is_const);
        break;
      }
      case Space::Const: {
        const Allocation* al = c.launch->gm->find(a[i], 1);
        yes = al && al->is_const;
        break;
      }
      case Space::Local: yes = w == addr::Window::Local; break;
      // .shared and .shared::cta: the executing CTA's own window (its rank in bits 24-31 of the
      // shared address); .shared::cluster: any rank (the H200: smem_addr o[31..35], smem_probe m7).
      case Space::Shared: case Space::SharedCta:
        yes = w == addr::Window::Shared && models::smem_rank(mem::generic_to_shared(a[i])) == c.cta->cluster_rank();
        break;
      case Space::SharedCluster: yes = w == addr::Window::Shared; break;
      case Space::Param: case Space::ParamEntry: yes = w == addr::Window::Param; break;
      default: break;
    }
    r |= uint32_t{yes} << i;
  });
  uint32_t& p = c.preds[in.o[0]];
  p = (p & ~c.mask) | (r & c.mask);
}

uint64_t window_of(Space s) {
  switch (s) {
    case Space::Shared: case Space::SharedCta: case Space::SharedCluster: return addr::kSharedWindow;
    case Space::Local: return addr::kLocalWindow;
    case Space::Param: case Space::ParamEntry: return addr::kParamWindow;
    default: return 0;  // global, const: identity
  }
}

void bind_mov(BindCtx& b) {
  b.only_mods({});
  const Type t = b.type(0);
  const isa::ptx::Operand& d = b.operand(0);
  const isa::ptx::Operand& a = b.operand(1);
  // mov.type: .pred, .b16-.b128, .u16-.u64, .s16-.s64, .f32, .f64 (PTX ISA §9.7.9.1 mov; half and
  // 8-bit values move as .b16): ptxas rejects the others ("Unexpected instruction types").
  if (isa::ptx::is_half(t) || t == Type::U8 || t == Type::S8 ||
      (isa::ptx::is_float(t) && t != Type::F32 && t != Type::F64))
    b.fail(fmt::format("mov does not take .{} (a half or 8-bit value moves as .b16)", isa::ptx::type_name(t)));
  if (t == Type::Pred) {
    b.out.o[0] = b.pred_dst(0);
    if (a.kind == OperandKind::Imm && a.imm_kind != isa::ptx::ImmKind::Int)
      b.fail("a floating-point immediate where a predicate value is expected");
    if (a.kind == OperandKind::Imm) {
      b.out.fn = exec_mov_pred_imm;
      b.out.aux = a.imm != 0;
    } else if (a.kind == OperandKind::SReg && isa::ptx::sreg_info(a.sreg).type == Type::Pred) {
      b.out.fn = exec_mov_pred;
      b.out.o[1] = b.prog.sreg_slot[static_cast<size_t>(a.sreg)];
    } else {
      b.out.fn = exec_mov_pred;
      b.out.o[1] = b.pred_src(1, nullptr);
    }
    return;
  }
  const int w = isa::ptx::type_bits(t);
  if (w < 16 && t != Type::B8 && t != Type::U8 && t != Type::S8) b.fail("mov needs a 16-, 32-, 64- or 128-bit type");
  if (d.kind == OperandKind::Vector || a.kind == OperandKind::Vector) {
    const bool pack = a.kind == OperandKind::Vector;
    const isa::ptx::Operand& v = pack ? a : d;
    const size_t n = v.elems.size();
    if (n < 2 || w % n != 0) b.fail("a vector operand of mov must split the type into equal elements");
    const int eb = w / static_cast<int>(n);
    if (eb < 8) b.fail("vector elements must be at least 8 bits");
    const Type et = eb == 8 ? Type::B8 : eb == 16 ? Type::B16 : eb == 32 ? Type::B32 : Type::B64;
    uint32_t first = 0;
    for (size_t k = 0; k < n; ++k) {
      ExecOperand e;
      if (pack) e.ref = b.src_of(v.elems[k], et);
      else if (v.elems[k].kind == OperandKind::Sink) e.is_sink = true;
      else e.ref = b.dst_of(v.elems[k], eb);
      const uint32_t idx = b.push(e);
      if (k == 0) first = idx;
    }
    b.out.first_op = first;
    b.out.nops = static_cast<uint16_t>(n);
    b.out.aux = static_cast<uint64_t>(eb);
    b.out.flags = w > 64;
    b.out.fn = pack ? exec_mov_pack : exec_mov_unpack;
    if (pack) b.out.o[0] = b.dst(0, w);
    else b.out.o[1] = b.src(1, t);
    return;
  }
  if (w > 64) {  // mov.b128 reg, reg
    ExecOperand lo, hi;
    lo.ref = b.src(1, t);
    hi.ref = lo.ref + 1;
    const uint32_t first = b.push(lo);
    b.push(hi);
    b.out.first_op = first;
    b.out.nops = 2;
    b.out.aux = 64;
    b.out.flags = 1;
    b.out.o[0] = b.dst(0, 128);
    b.out.fn = exec_mov_pack;
    return;
  }
  b.out.o[0] = b.dst(0, std::max(w, 16));
  if (a.kind == OperandKind::SReg && isa::ptx::sreg_info(a.sreg).varying == isa::ptx::SRegVarying::Clock) {
    switch (a.sreg) {
      case SReg::clock: b.out.fn = &exec_mov_clock<SReg::clock>; break;
      case SReg::clock_hi: b.out.fn = &exec_mov_clock<SReg::clock_hi>; break;
      case SReg::clock64: b.out.fn = &exec_mov_clock<SReg::clock64>; break;
      case SReg::globaltimer: b.out.fn = &exec_mov_clock<SReg::globaltimer>; break;
      case SReg::globaltimer_lo: b.out.fn = &exec_mov_clock<SReg::globaltimer_lo>; break;
      default: b.out.fn = &exec_mov_clock<SReg::globaltimer_hi>; break;
    }
    if (isa::ptx::type_bits(isa::ptx::sreg_info(a.sreg).type) != w) b.fail("the special register's width differs from the type");
    return;
  }
  if (a.kind == OperandKind::Symbol && b.sym(a.index).kind == SymLoc::Frame) {
    b.out.fn = exec_mov_frame_addr;
    b.out.aux = static_cast<uint64_t>(b.sym(a.index).off + a.imm);
    return;
  }
  b.out.fn = exec_mov;
  b.out.o[1] = b.src(1, t);
  b.out.aux = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

}  // namespace

void bind_data_move(BindCtx& b) {
  using isa::ptx::Mod;
  using isa::ptx::Op;
  switch (b.in.op) {
    case Op::mov:
      return bind_mov(b);
    case Op::cvta: {
      b.only_mods({Mod::to});
      const Type t = b.type(0);
      if (t != Type::U32 && t != Type::U64) b.fail("cvta's size must be .u32 or .u64");
      const Space sp = b.in.space(0);
      if (sp == Space::Generic || sp == Space::Tex) b.fail("cvta needs a state space (.global, .shared, .local, .const, .param)");
      b.out.fn = exec_cvta;
      b.out.aux = window_of(sp);
      b.out.flags = (b.has(Mod::to) ? 1 : 0) | (t == Type::U32 ? 2 : 0) |
                    (sp == Space::Shared || sp == Space::SharedCta || sp == Space::SharedCluster ? 4 : 0);
      b.out.o[0] = b.dst(0, isa::ptx::type_bits(t));
      b.out.o[1] = b.src(1, t, /*wider_ok=*/true);
      return;
    }
    case Op::isspacep: {
      b.only_mods({});
      const Space sp = b.in.space(0);
      if (sp == Space::Generic) b.fail("isspacep needs a state space");
      b.out.fn = exec_isspacep;
      b.out.aux = static_cast<uint64_t>(sp);
      b.out.o[0] = b.pred_dst(0);
      b.out.o[1] = b.src(1, Type::U64);
      return;
    }
    default:
      b.fail("internal: not a data_move row");
  }
}

}  // namespace tcsim::sim
