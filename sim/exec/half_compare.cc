// PTX ISA §9.7.7 Half Precision Comparison Instructions:
//   setp.CmpOp{.ftz}.f16 p, a, b;         setp.CmpOp.BoolOp{.ftz}.f16 p, a, b, {!}c;
//   setp.CmpOp{.ftz}.f16x2 p|q, a, b;     setp.CmpOp.BoolOp{.ftz}.f16x2 p|q, a, b, {!}c;
//   setp.CmpOp{.BoolOp}.bf16 / .bf16x2:   as above, without .ftz
//   set.CmpOp{.BoolOp}{.ftz}.f16.stype d, a, b{, {!}c};     set.CmpOp{.BoolOp}.bf16.stype ...
//   set.CmpOp{.BoolOp}{.ftz}.dtype.f16 d, a, b{, {!}c};     .dtype = { .u16, .s16, .u32, .s32 }
//   set.CmpOp{.BoolOp}.dtype.bf16 ...
//   set.CmpOp{.BoolOp}{.ftz}.dtype.f16x2 d, a, b{, {!}c};   .dtype = { .f16x2, .u32, .s32 }
//   set.CmpOp{.BoolOp}.dtype.bf16x2 ...                     .dtype = { .bf16x2, .u32, .s32 }
//   .CmpOp = { eq, ne, lt, le, gt, ge, equ, neu, ltu, leu, gtu, geu, num, nan }
//   .BoolOp = { and, or, xor };  .stype = { .b16..b64, .u16..u64, .s16..s64, .f16, .f32, .f64 }
// Ordered comparisons are false when an operand is NaN, unordered ones true (§9.7.7 "Floating Point
// Notes"). set writes 1.0 in the destination's format (f16 0x3c00, bf16 0x3f80) or all ones of the
// destination width (u16/s16 0xffff, u32/s32 0xffffffff) for true, 0 for false; with an x2 source
// each 16-bit lane of d gets its own result (0xffff for integer destinations). setp on x2 writes
// lane 0's result to p and lane 1's to q. .ftz flushes subnormal f16 inputs.
#include <cmath>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/half_compare.h"
#include "sim/exec/half_util.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using half::Fmt;
using isa::ptx::CmpOp;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class Src : uint8_t { F16, BF16, F32, F64, U64, S64 };
enum class Dst : uint8_t { Pred, F16, BF16, Mask16, Mask32 };
enum class BoolOp : uint8_t { None, And, Or, Xor };

// ExecInstr::aux layout.
struct HCmp {
  Src src;
  Dst dst;
  CmpOp cmp;
  BoolOp bop;
  bool cneg, ftz, x2;
  uint8_t src_bits;  // integer sources: sign-extension width
};
uint64_t pack(const HCmp& h) {
  return uint64_t(h.src) | uint64_t(h.dst) << 8 | uint64_t(h.cmp) << 16 | uint64_t(h.bop) << 24 |
         uint64_t(h.cneg) << 32 | uint64_t(h.ftz) << 33 | uint64_t(h.x2) << 34 | uint64_t(h.src_bits) << 40;
}
HCmp unpack(uint64_t a) {
  return {Src(a & 0xff), Dst(a >> 8 & 0xff), CmpOp(a >> 16 & 0xff), BoolOp(a >> 24 & 0xff),
          bool(a >> 32 & 1), bool(a >> 33 & 1), bool(a >> 34 & 1), uint8_t(a >> 40 & 0xff)};
}

// The value of lane k of a source (integers compared as 64-bit, exact in their own width).
struct Val {
  bool nan;
  double f;
  int64_t s;
  uint64_t u;
};
inline Val decode(const HCmp& h, uint64_t v, int k) {
  switch (h.src) {
    case Src::F16: {
      uint16_t x = half::lane(v, k);
      if (h.ftz) x = half::ftz<Fmt::F16>(x);
      return {half::is_nan<Fmt::F16>(x), half::to_double<Fmt::F16>(x), 0, 0};
    }
    case Src::BF16: {
      const uint16_t x = half::lane(v, k);
      return {half::is_nan<Fmt::BF16>(x), half::to_double<Fmt::BF16>(x), 0, 0};
    }
    case Src::F32: {
      const float x = as<float>(v);
      return {std::isnan(x), x, 0, 0};
    }
    case Src::F64: {
      const double x = as<double>(v);
      return {std::isnan(x), x, 0, 0};
    }
    case Src::U64: {
      const uint64_t x = h.src_bits >= 64 ? v : v & ((uint64_t{1} << h.src_bits) - 1);
      return {false, 0, 0, x};
    }
    case Src::S64: {
      const int sh = 64 - h.src_bits;
      return {false, 0, static_cast<int64_t>(v << sh) >> sh, 0};
    }
  }
  return {};
}

template <class T>
inline bool ordered(CmpOp c, T x, T y) {
  switch (c) {
    case CmpOp::EQ: case CmpOp::EQU: return x == y;
    case CmpOp::NE: case CmpOp::NEU: return x != y;
    case CmpOp::LT: case CmpOp::LTU: return x < y;
    case CmpOp::LE: case CmpOp::LEU: return x <= y;
    case CmpOp::GT: case CmpOp::GTU: return x > y;
    case CmpOp::GE: case CmpOp::GEU: return x >= y;
    case CmpOp::NUM: return true;
    case CmpOp::NAN_: return false;
    default: return false;
  }
}

inline bool compare(const HCmp& h, const Val& x, const Val& y) {
  if (h.src == Src::U64) return ordered(h.cmp, x.u, y.u);
  if (h.src == Src::S64) return ordered(h.cmp, x.s, y.s);
  if (x.nan || y.nan) return h.cmp >= CmpOp::EQU && h.cmp != CmpOp::NUM;  // unordered ops and .nan
  return ordered(h.cmp, x.f, y.f);
}

inline bool combine(BoolOp op, bool t, bool c) {
  switch (op) {
    case BoolOp::None: return t;
    case BoolOp::And: return t && c;
    case BoolOp::Or: return t || c;
    case BoolOp::Xor: return t != c;
  }
  return t;
}

// o[0] = p or d, o[1] = a, o[2] = b, o[3] = q (0: none); the BoolOp predicate c is operand 0.
void exec_hcompare(ExecCtx& c, const ExecInstr& in) {
  const HCmp h = unpack(in.aux);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint32_t cp = h.bop == BoolOp::None ? 0 : c.preds[c.op(in, 0).ref] ^ (h.cneg ? ~0u : 0u);
  const int lanes = h.x2 ? 2 : 1;
  uint32_t pm[2] = {0, 0};
  uint64_t* d = h.dst == Dst::Pred ? nullptr : c.dst(in.o[0]);
  for_lanes(c.mask, [&](int i) {
    const bool cb = cp >> i & 1;
    uint64_t r = 0;
    for (int k = 0; k < lanes; ++k) {
      const bool t = combine(h.bop, compare(h, decode(h, a[i], k), decode(h, b[i], k)), cb);
      pm[k] |= uint32_t{t} << i;
      if (!t) continue;
      switch (h.dst) {
        case Dst::F16: r |= uint64_t{half::Spec<Fmt::F16>::kOne} << (16 * k); break;
        case Dst::BF16: r |= uint64_t{half::Spec<Fmt::BF16>::kOne} << (16 * k); break;
        case Dst::Mask16: r |= uint64_t{0xffff} << (16 * k); break;
        case Dst::Mask32: r = 0xffffffffu; break;
        case Dst::Pred: break;
      }
    }
    if (d) d[i] = r;
  });
  if (h.dst == Dst::Pred) {
    uint32_t& p = c.preds[in.o[0]];
    p = (p & ~c.mask) | (pm[0] & c.mask);
    if (in.o[3]) {
      uint32_t& q = c.preds[in.o[3]];
      q = (q & ~c.mask) | (pm[1] & c.mask);
    }
  }
}

}  // namespace

void bind_half_compare(BindCtx& b) {
  using isa::ptx::Op;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  const bool setp = b.in.op == Op::setp_half;
  b.only_mods({Mod::ftz, Mod::and_, Mod::or_, Mod::xor_});
  HCmp h{};
  h.cmp = b.in.cmp;
  need(h.cmp != CmpOp::None, "needs a comparison operator (.eq, .lt, ..., .num, .nan)");
  const Type dt = setp ? Type::Pred : b.type(0), st = setp ? b.type(0) : b.type(1);
  need(st != Type::None, "set needs a destination and a source type");
  const bool int_src = isa::ptx::is_integer(st);
  if (int_src) {
    need(h.cmp >= CmpOp::EQ && h.cmp <= CmpOp::GE, "integer sources compare with .eq .ne .lt .le .gt .ge");
    h.src = isa::ptx::is_signed(st) ? Src::S64 : Src::U64;
    h.src_bits = static_cast<uint8_t>(isa::ptx::type_bits(st));
  } else {
    need(h.cmp != CmpOp::LO && h.cmp != CmpOp::LS && h.cmp != CmpOp::HI && h.cmp != CmpOp::HS,
         ".lo/.ls/.hi/.hs compare unsigned integers");
    switch (st) {
      case Type::F16: case Type::F16x2: h.src = Src::F16; break;
      case Type::BF16: case Type::BF16x2: h.src = Src::BF16; break;
      case Type::F32: h.src = Src::F32; break;
      case Type::F64: h.src = Src::F64; break;
      default: b.fail(fmt::format("cannot compare values of type .{}", isa::ptx::type_name(st)));
    }
  }
  h.x2 = st == Type::F16x2 || st == Type::BF16x2;
  h.ftz = b.has(Mod::ftz);
  if (h.ftz) need(h.src == Src::F16, ".ftz applies to .f16 and .f16x2 comparisons only");
  if (b.has(Mod::and_)) h.bop = BoolOp::And;
  if (b.has(Mod::or_)) h.bop = BoolOp::Or;
  if (b.has(Mod::xor_)) h.bop = BoolOp::Xor;
  const size_t want = h.bop == BoolOp::None ? 3 : 4;
  need(b.nops() == want, h.bop == BoolOp::None ? "takes 3 operands (a BoolOp needs a 4th, predicate c)"
                                               : "a BoolOp needs a 4th operand, predicate c");
  if (h.bop != BoolOp::None) {
    bool neg = false;
    ExecOperand e;
    e.ref = b.pred_src(3, &neg);
    b.out.first_op = b.push(e);
    b.out.nops = 1;
    h.cneg = neg;
  }
  int dbits = 0;
  switch (dt) {
    case Type::Pred: h.dst = Dst::Pred; break;
    case Type::F16: case Type::F16x2: h.dst = Dst::F16; dbits = dt == Type::F16x2 ? 32 : 16; break;
    case Type::BF16: case Type::BF16x2: h.dst = Dst::BF16; dbits = dt == Type::BF16x2 ? 32 : 16; break;
    case Type::U16: case Type::S16: h.dst = Dst::Mask16; dbits = 16; break;
    case Type::U32: case Type::S32: h.dst = h.x2 ? Dst::Mask16 : Dst::Mask32; dbits = 32; break;
    default: b.fail(fmt::format("set cannot write a .{} destination", isa::ptx::type_name(dt)));
  }
  if (!setp) {
    // PTX ISA §9.7.7.1: x2 sources pair with x2 (same format) or 32-bit integer destinations;
    // 16-bit integer destinations take scalar f16/bf16 sources.
    if (h.x2) need(dt == st || dt == Type::U32 || dt == Type::S32,
                   fmt::format("an .{} source needs an .{}, .u32 or .s32 destination", isa::ptx::type_name(st), isa::ptx::type_name(st)));
    if (dt == Type::F16x2 || dt == Type::BF16x2) need(dt == st, "an x2 destination needs the same x2 source type");
    if (dt == Type::U16 || dt == Type::S16) need(st == Type::F16 || st == Type::BF16, "16-bit destinations take .f16 or .bf16 sources");
  }
  b.out.fn = exec_hcompare;
  b.out.aux = pack(h);
  b.out.o[1] = b.src(1, st);
  b.out.o[2] = b.src(2, st);
  if (setp) {
    const isa::ptx::Operand& d0 = b.operand(0);
    if (d0.kind == isa::ptx::OperandKind::Pair) {
      need(h.x2, "p|q destinations need an .f16x2 or .bf16x2 comparison");
      b.out.o[0] = b.pred_dst_of(d0.elems[0]);
      b.out.o[3] = b.pred_dst_of(d0.elems[1]);
    } else {
      need(!h.x2, ".f16x2/.bf16x2 comparisons write a predicate pair p|q");
      b.out.o[0] = b.pred_dst(0);
      b.out.o[3] = 0;
    }
  } else {
    b.out.o[0] = b.dst(0, dbits);
  }
}

}  // namespace tcsim::sim
