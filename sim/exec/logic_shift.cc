// PTX ISA §9.7.8 Logic and Shift Instructions:
//   and.type d, a, b;  or.type d, a, b;  xor.type d, a, b;   .type = { .pred, .b16, .b32, .b64 }
//   not.type d, a;     cnot.type d, a;                       (cnot: .b16 .b32 .b64; d = a == 0)
//   lop3.b32 d, a, b, c, immLut;
//   lop3.BoolOp.b32 d|p, a, b, c, immLut, q;                  .BoolOp = { .or, .and }
//   shf.l.mode.b32 d, a, b, c;  shf.r.mode.b32 d, a, b, c;    .mode = { .clamp, .wrap }
//   shl.type d, a, b;          .type = { .b16, .b32, .b64 }
//   shr.type d, a, b;          .type = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64 }
// Shift amounts (b, .u32) larger than the width clamp to the width (PTX ISA §9.7.8.7-8).
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

enum class LogicOp { And, Or, Xor };

template <class T, LogicOp L> void exec_logic(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  blend_lanes(c.mask, d, [&](int i) {
    const T x = static_cast<T>(a[i]), y = static_cast<T>(b[i]);
    return uint64_t(static_cast<T>(L == LogicOp::And ? x & y : L == LogicOp::Or ? x | y : x ^ y));
  });
}
template <class T> void exec_not(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) { return uint64_t(static_cast<T>(~static_cast<T>(a[i]))); });
}
template <class T> void exec_cnot(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) { return uint64_t(static_cast<T>(a[i]) == 0); });
}

// Predicate logic on lane masks: o[0] = d, o[1] = a, o[2] = b; aux bit 0/1: a/b negated.
template <LogicOp L> void exec_logic_pred(ExecCtx& c, const ExecInstr& in) {
  const uint32_t a = c.preds[in.o[1]] ^ ((in.aux & 1) ? ~0u : 0u);
  const uint32_t b = c.preds[in.o[2]] ^ ((in.aux & 2) ? ~0u : 0u);
  const uint32_t r = L == LogicOp::And ? a & b : L == LogicOp::Or ? a | b : a ^ b;
  uint32_t& d = c.preds[in.o[0]];
  d = (d & ~c.mask) | (r & c.mask);
}
void exec_not_pred(ExecCtx& c, const ExecInstr& in) {
  const uint32_t r = ~(c.preds[in.o[1]] ^ ((in.aux & 1) ? ~0u : 0u));
  uint32_t& d = c.preds[in.o[0]];
  d = (d & ~c.mask) | (r & c.mask);
}

// lop3 (§9.7.8.6): bit k of d = immLut[(a_k << 2) | (b_k << 1) | c_k].
inline uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  for (int k = 0; k < 8; ++k) {
    if (!(lut >> k & 1)) continue;
    const uint32_t ma = (k & 4) ? a : ~a, mb = (k & 2) ? b : ~b, mc = (k & 1) ? c : ~c;
    r |= ma & mb & mc;
  }
  return r;
}
void exec_lop3(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  const uint64_t* lut = c.src(c.op(in, 0).ref);
  blend_lanes(c.mask, d, [&](int i) {
    return uint64_t(lop3(static_cast<uint32_t>(a[i]), static_cast<uint32_t>(b[i]), static_cast<uint32_t>(e[i]),
                         static_cast<uint32_t>(lut[i] & 0xff)));
  });
}
// lop3.BoolOp: p = (d != 0) BoolOp q. operands: o = d, a, b, c; op(0) lut, op(1) p, op(2) q.
template <bool Or> void exec_lop3_pred(ExecCtx& c, const ExecInstr& in) {
  exec_lop3(c, in);
  const uint64_t* d = c.dst(in.o[0]);
  const ExecOperand& qo = c.op(in, 2);
  const uint32_t q = c.preds[qo.ref] ^ (qo.is_sink ? ~0u : 0u);
  uint32_t nz = 0;
  for_lanes(c.mask, [&](int i) { nz |= uint32_t{static_cast<uint32_t>(d[i]) != 0} << i; });
  const uint32_t r = Or ? (nz | q) : (nz & q);
  uint32_t& p = c.preds[c.op(in, 1).ref];
  p = (p & ~c.mask) | (r & c.mask);
}

template <bool Left, bool Clamp> void exec_shf(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) {
    const uint32_t cv = static_cast<uint32_t>(e[i]);
    const uint32_t n = Clamp ? std::min<uint32_t>(cv, 32) : cv & 31;
    const uint64_t x = (uint64_t{static_cast<uint32_t>(b[i])} << 32) | static_cast<uint32_t>(a[i]);
    return uint64_t(Left ? static_cast<uint32_t>((x << n) >> 32) : static_cast<uint32_t>(x >> n));
  });
}

template <class T> void exec_shl(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  blend_lanes(c.mask, d, [&](int i) {
    const uint32_t n = static_cast<uint32_t>(b[i]);
    return n >= sizeof(T) * 8 ? uint64_t{0} : uint64_t(static_cast<T>(static_cast<T>(a[i]) << n));
  });
}
template <class T> void exec_shr(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  blend_lanes(c.mask, d, [&](int i) {
    const uint32_t n = std::min<uint32_t>(static_cast<uint32_t>(b[i]), sizeof(T) * 8 - 1 + !std::is_signed_v<T>);
    const T x = static_cast<T>(a[i]);
    if (!std::is_signed_v<T> && n >= sizeof(T) * 8) return uint64_t{0};
    return bits<T>(static_cast<T>(x >> n));  // signed: arithmetic (sign fill); clamped at width-1
  });
}

ExecFn logic_fn(isa::ptx::Op op, int w) {
  using isa::ptx::Op;
  auto pick = [&](auto and_, auto or_, auto xor_) -> ExecFn {
    return op == Op::and_ ? and_ : op == Op::or_ ? or_ : xor_;
  };
  switch (w) {
    case 16: return pick(&exec_logic<uint16_t, LogicOp::And>, &exec_logic<uint16_t, LogicOp::Or>, &exec_logic<uint16_t, LogicOp::Xor>);
    case 32: return pick(&exec_logic<uint32_t, LogicOp::And>, &exec_logic<uint32_t, LogicOp::Or>, &exec_logic<uint32_t, LogicOp::Xor>);
    case 64: return pick(&exec_logic<uint64_t, LogicOp::And>, &exec_logic<uint64_t, LogicOp::Or>, &exec_logic<uint64_t, LogicOp::Xor>);
  }
  return nullptr;
}

}  // namespace

void bind_logic_shift(BindCtx& b) {
  using isa::ptx::Op;
  const Op op = b.in.op;
  const Type t = b.type(0);
  const int w = isa::ptx::type_bits(t);
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  switch (op) {
    case Op::and_:
    case Op::or_:
    case Op::xor_:
    case Op::not_:
      b.only_mods({});
      if (t == Type::Pred) {
        bool na = false, nb = false;
        b.out.o[0] = b.pred_dst(0);
        b.out.o[1] = b.pred_src(1, &na);
        if (op != Op::not_) b.out.o[2] = b.pred_src(2, &nb);
        b.out.aux = (na ? 1 : 0) | (nb ? 2 : 0);
        b.out.fn = op == Op::and_ ? &exec_logic_pred<LogicOp::And>
                 : op == Op::or_  ? &exec_logic_pred<LogicOp::Or>
                 : op == Op::xor_ ? &exec_logic_pred<LogicOp::Xor> : &exec_not_pred;
        return;
      }
      need(isa::ptx::type_kind(t) == isa::ptx::TypeKind::Bit && (w == 16 || w == 32 || w == 64),
           "type must be .pred, .b16, .b32 or .b64");
      b.out.fn = op == Op::not_ ? (w == 16 ? &exec_not<uint16_t> : w == 32 ? &exec_not<uint32_t> : &exec_not<uint64_t>)
                                : logic_fn(op, w);
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      if (op != Op::not_) b.out.o[2] = b.src(2, t);
      return;
    case Op::cnot:
      b.only_mods({});
      need(isa::ptx::type_kind(t) == isa::ptx::TypeKind::Bit && (w == 16 || w == 32 || w == 64),
           "type must be .b16, .b32 or .b64");
      b.out.fn = w == 16 ? &exec_cnot<uint16_t> : w == 32 ? &exec_cnot<uint32_t> : &exec_cnot<uint64_t>;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      return;
    case Op::lop3: {
      b.only_mods({Mod::and_, Mod::or_});
      need(t == Type::B32, "lop3 takes .b32");
      const isa::ptx::Operand& d0 = b.operand(0);
      const bool with_pred = b.has(Mod::and_) || b.has(Mod::or_);
      b.out.o[0] = with_pred ? (d0.kind == isa::ptx::OperandKind::Pair ? b.dst_of(d0.elems[0], 32) : b.dst(0, 32))
                             : b.dst(0, 32);
      b.out.o[1] = b.src(1, Type::B32);
      b.out.o[2] = b.src(2, Type::B32);
      b.out.o[3] = b.src(3, Type::B32);
      ExecOperand lut;
      lut.ref = b.src(4, Type::B32);
      b.out.first_op = b.push(lut);
      b.out.nops = 1;
      if (!with_pred) {
        b.out.fn = exec_lop3;
        return;
      }
      need(d0.kind == isa::ptx::OperandKind::Pair && b.nops() == 6, "lop3.BoolOp needs d|p, a, b, c, immLut, q");
      ExecOperand p, q;
      p.ref = b.pred_dst_of(d0.elems[1]);
      bool neg = false;
      q.ref = b.pred_src(5, &neg);
      q.is_sink = neg;  // reused as "negated"
      b.push(p);
      b.push(q);
      b.out.nops = 3;
      b.out.fn = b.has(Mod::or_) ? &exec_lop3_pred<true> : &exec_lop3_pred<false>;
      return;
    }
    case Op::shf: {
      b.only_mods({Mod::l, Mod::r, Mod::clamp, Mod::wrap});
      need(t == Type::B32, "shf takes .b32");
      need(b.has(Mod::l) != b.has(Mod::r), "needs exactly one of .l, .r");
      need(b.has(Mod::clamp) != b.has(Mod::wrap), "needs exactly one of .clamp, .wrap");
      const bool l = b.has(Mod::l), cl = b.has(Mod::clamp);
      b.out.fn = l ? (cl ? &exec_shf<true, true> : &exec_shf<true, false>) : (cl ? &exec_shf<false, true> : &exec_shf<false, false>);
      b.out.o[0] = b.dst(0, 32);
      b.out.o[1] = b.src(1, Type::B32);
      b.out.o[2] = b.src(2, Type::B32);
      b.out.o[3] = b.src(3, Type::U32);
      return;
    }
    case Op::shl:
    case Op::shr: {
      b.only_mods({});
      need(isa::ptx::is_integer(t) && (w == 16 || w == 32 || w == 64), "type must be 16, 32 or 64-bit integer");
      if (op == Op::shl) {
        need(isa::ptx::type_kind(t) == isa::ptx::TypeKind::Bit, "shl takes .b16, .b32 or .b64");
        b.out.fn = w == 16 ? &exec_shl<uint16_t> : w == 32 ? &exec_shl<uint32_t> : &exec_shl<uint64_t>;
      } else if (isa::ptx::is_signed(t)) {
        b.out.fn = w == 16 ? &exec_shr<int16_t> : w == 32 ? &exec_shr<int32_t> : &exec_shr<int64_t>;
      } else {
        b.out.fn = w == 16 ? &exec_shr<uint16_t> : w == 32 ? &exec_shr<uint32_t> : &exec_shr<uint64_t>;
      }
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, Type::U32);
      return;
    }
    default:
      b.fail("internal: not a logic_shift row");
  }
}

}  // namespace tcsim::sim
