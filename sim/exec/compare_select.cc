// PTX ISA §9.7.6 Comparison and Selection Instructions:
//   setp.CmpOp{.ftz}.type p[|q], a, b;
//   setp.CmpOp.BoolOp{.ftz}.type p[|q], a, b, {!}c;       .BoolOp = { .and, .or, .xor }
//   set.CmpOp{.ftz}.dtype.stype d, a, b;
//   set.CmpOp.BoolOp{.ftz}.dtype.stype d, a, b, {!}c;    .dtype = { .u32, .s32, .f32 }
//   selp.type d, a, b, c;      d = c ? a : b
//   slct.dtype.s32 d, a, b, c;  slct{.ftz}.dtype.f32 d, a, b, c;   d = (c >= 0) ? a : b
// CmpOp (Tables 23-24): integers eq ne lt le gt ge, unsigned also lo ls hi hs; bit types eq ne;
// floats eq ne lt le gt ge (ordered: false if either is NaN), equ neu ltu leu gtu geu (unordered:
// true if either is NaN), num (neither NaN), nan (either NaN). .ftz flushes f32 subnormal inputs
// to sign-preserving zero before comparing. setp writes p = BoolOp(cmp, c) and
// q = BoolOp(!cmp, c); set writes all ones (integer) or 1.0f for true, 0 otherwise.
#include <cmath>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/half_compare.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::CmpOp;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class BoolOp : uint8_t { None, And, Or, Xor };

inline float ftz(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

template <class T, CmpOp C>
inline bool compare(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool un = std::isnan(a) || std::isnan(b);
    switch (C) {
      case CmpOp::EQ: return !un && a == b;
      case CmpOp::NE: return !un && a != b;
      case CmpOp::LT: return !un && a < b;
      case CmpOp::LE: return !un && a <= b;
      case CmpOp::GT: return !un && a > b;
      case CmpOp::GE: return !un && a >= b;
      case CmpOp::EQU: return un || a == b;
      case CmpOp::NEU: return un || a != b;
      case CmpOp::LTU: return un || a < b;
      case CmpOp::LEU: return un || a <= b;
      case CmpOp::GTU: return un || a > b;
      case CmpOp::GEU: return un || a >= b;
      case CmpOp::NUM: return !un;
      case CmpOp::NAN_: return un;
      default: return false;
    }
  } else {
    switch (C) {
      case CmpOp::EQ: return a == b;
      case CmpOp::NE: return a != b;
      case CmpOp::LT: case CmpOp::LO: return a < b;
      case CmpOp::LE: case CmpOp::LS: return a <= b;
      case CmpOp::GT: case CmpOp::HI: return a > b;
      case CmpOp::GE: case CmpOp::HS: return a >= b;
      default: return false;
    }
  }
}

template <class T, CmpOp C, bool Ftz>
inline uint32_t compare_mask(ExecCtx& c, const ExecInstr& in) {
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  uint32_t r = 0;
  for_lanes(c.mask, [&](int i) {
    T x = as<T>(a[i]), y = as<T>(b[i]);
    if constexpr (Ftz) {
      x = ftz(x);
      y = ftz(y);
    }
    r |= uint32_t{compare<T, C>(x, y)} << i;
  });
  return r;
}

inline uint32_t combine(BoolOp op, uint32_t r, uint32_t cpred) {
  switch (op) {
    case BoolOp::None: return r;
    case BoolOp::And: return r & cpred;
    case BoolOp::Or: return r | cpred;
    case BoolOp::Xor: return r ^ cpred;
  }
  return r;
}

// aux: bits 0-1 BoolOp, bit 2 c negated; o[0] = p, o[3] = q (0 = none), first_op: c predicate.
template <class T, CmpOp C, bool Ftz> void exec_setp(ExecCtx& c, const ExecInstr& in) {
  const uint32_t r = compare_mask<T, C, Ftz>(c, in);
  const BoolOp bop = static_cast<BoolOp>(in.aux & 3);
  const uint32_t cp = bop == BoolOp::None ? 0 : c.preds[c.op(in, 0).ref] ^ ((in.aux & 4) ? ~0u : 0u);
  uint32_t& p = c.preds[in.o[0]];
  p = (p & ~c.mask) | (combine(bop, r, cp) & c.mask);
  if (in.o[3]) {
    uint32_t& q = c.preds[in.o[3]];
    q = (q & ~c.mask) | (combine(bop, ~r, cp) & c.mask);
  }
}

// set: o[0] d; aux bit 3: f32 destination.
template <class T, CmpOp C, bool Ftz> void exec_set(ExecCtx& c, const ExecInstr& in) {
  const uint32_t r0 = compare_mask<T, C, Ftz>(c, in);
  const BoolOp bop = static_cast<BoolOp>(in.aux & 3);
  const uint32_t cp = bop == BoolOp::None ? 0 : c.preds[c.op(in, 0).ref] ^ ((in.aux & 4) ? ~0u : 0u);
  const uint32_t r = combine(bop, r0, cp);
  const uint64_t t = (in.aux & 8) ? 0x3f800000u : 0xffffffffu;
  uint64_t* d = c.dst(in.o[0]);
  for_lanes(c.mask, [&](int i) { d[i] = (r >> i & 1) ? t : 0; });
}

void exec_selp(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint32_t p = c.preds[in.o[3]];
  blend_lanes(c.mask, d, [&](int i) { return (p >> i & 1) ? a[i] : b[i]; });
}

template <bool FloatC, bool Ftz> void exec_slct(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* s = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) {
    bool ge;
    if constexpr (FloatC) {
      float x = as<float>(s[i]);
      if (Ftz) x = ftz(x);
      ge = x >= 0.0f;  // NaN: false -> b
    } else {
      ge = as<int32_t>(s[i]) >= 0;
    }
    return ge ? a[i] : b[i];
  });
}

template <template <class, CmpOp, bool> class E, class T, bool Ftz>
ExecFn by_cmp(CmpOp c) {
  switch (c) {
#define CASE(x) case CmpOp::x: return &E<T, CmpOp::x, Ftz>::run;
    CASE(EQ) CASE(NE) CASE(LT) CASE(LE) CASE(GT) CASE(GE) CASE(LO) CASE(LS) CASE(HI) CASE(HS)
    CASE(EQU) CASE(NEU) CASE(LTU) CASE(LEU) CASE(GTU) CASE(GEU) CASE(NUM) CASE(NAN_)
#undef CASE
    default: return nullptr;
  }
}
template <class T, CmpOp C, bool Ftz> struct SetpE { static void run(ExecCtx& c, const ExecInstr& i) { exec_setp<T, C, Ftz>(c, i); } };
template <class T, CmpOp C, bool Ftz> struct SetE { static void run(ExecCtx& c, const ExecInstr& i) { exec_set<T, C, Ftz>(c, i); } };

template <template <class, CmpOp, bool> class E>
ExecFn pick_compare(Type t, CmpOp c, bool ftz) {
  switch (t) {
    case Type::B16: case Type::U16: return by_cmp<E, uint16_t, false>(c);
    case Type::S16: return by_cmp<E, int16_t, false>(c);
    case Type::B32: case Type::U32: return by_cmp<E, uint32_t, false>(c);
    case Type::S32: return by_cmp<E, int32_t, false>(c);
    case Type::B64: case Type::U64: return by_cmp<E, uint64_t, false>(c);
    case Type::S64: return by_cmp<E, int64_t, false>(c);
    case Type::F32: return ftz ? by_cmp<E, float, true>(c) : by_cmp<E, float, false>(c);
    case Type::F64: return by_cmp<E, double, false>(c);
    default: return nullptr;
  }
}

}  // namespace

void bind_compare_select(BindCtx& b) {
  using isa::ptx::Op;
  const Op op = b.in.op;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  if (op == Op::selp) {
    b.only_mods({});
    const Type t = b.type(0);
    // .type = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f32, .f64 } (PTX ISA §9.7.8.2
    // selp); ptxas rejects every other type (.f16, .bf16, .tf32, .u8, ...).
    need(t == Type::B16 || t == Type::B32 || t == Type::B64 || t == Type::U16 || t == Type::U32 || t == Type::U64 ||
             t == Type::S16 || t == Type::S32 || t == Type::S64 || t == Type::F32 || t == Type::F64,
         "selp takes .b16/.b32/.b64, .u16/.u32/.u64, .s16/.s32/.s64, .f32 or .f64");
    b.out.fn = exec_selp;
    b.out.o[0] = b.dst(0, isa::ptx::type_bits(t));
    b.out.o[1] = b.src(1, t);
    b.out.o[2] = b.src(2, t);
    b.out.o[3] = b.pred_src(3, nullptr);
    return;
  }
  if (op == Op::slct) {
    b.only_mods({Mod::ftz});
    const Type dt = b.type(0), ct = b.type(1);
    need(ct == Type::S32 || ct == Type::F32, "slct's last type must be .s32 or .f32");
    const int w = isa::ptx::type_bits(dt);
    need(w >= 16 && w <= 64, "slct's destination type must be 16, 32 or 64 bits");
    if (b.has(Mod::ftz)) need(ct == Type::F32, ".ftz applies to .f32");
    b.out.fn = ct == Type::F32 ? (b.has(Mod::ftz) ? &exec_slct<true, true> : &exec_slct<true, false>) : &exec_slct<false, false>;
    b.out.o[0] = b.dst(0, w);
    b.out.o[1] = b.src(1, dt);
    b.out.o[2] = b.src(2, dt);
    b.out.o[3] = b.src(3, ct);
    return;
  }
  // set with a half-precision destination or source (set.lt.f16.f32, set.ne.u16.bf16): PTX ISA
  // §9.7.7.1 half-precision comparison.
  if (op == Op::set && (isa::ptx::is_half(b.type(0)) || isa::ptx::is_half(b.type(1)))) return bind_half_compare(b);
  // setp / set
  b.only_mods({Mod::ftz, Mod::and_, Mod::or_, Mod::xor_, Mod::lo, Mod::hi});
  const CmpOp cmp = b.in.cmp;
  need(cmp != CmpOp::None, "needs a comparison operator (.eq, .lt, ...)");
  const Type st = op == Op::setp ? b.type(0) : b.type(1);
  const bool ftz = b.has(Mod::ftz);
  if (ftz) need(st == Type::F32, ".ftz applies to .f32 comparisons");
  const bool fl = isa::ptx::is_float(st);
  const bool unord = cmp >= CmpOp::EQU;
  const bool ulike = cmp == CmpOp::LO || cmp == CmpOp::LS || cmp == CmpOp::HI || cmp == CmpOp::HS;
  if (fl) need(!ulike, ".lo/.ls/.hi/.hs compare unsigned integers");
  else need(!unord, "unordered comparisons (.equ, .nan, ...) apply to floating-point types");
  if (isa::ptx::type_kind(st) == isa::ptx::TypeKind::Bit)
    need(cmp == CmpOp::EQ || cmp == CmpOp::NE, "bit types (.bN) compare only with .eq and .ne");
  if (isa::ptx::is_signed(st)) need(!ulike, ".lo/.ls/.hi/.hs compare unsigned integers");
  BoolOp bop = BoolOp::None;
  if (b.has(Mod::and_)) bop = BoolOp::And;
  if (b.has(Mod::or_)) bop = BoolOp::Or;
  if (b.has(Mod::xor_)) bop = BoolOp::Xor;
  const size_t want = bop == BoolOp::None ? 3 : 4;
  need(b.nops() == want, bop == BoolOp::None ? "takes 3 operands (a BoolOp needs a 4th, predicate c)"
                                             : "a BoolOp needs a 4th operand, predicate c");
  b.out.aux = static_cast<uint64_t>(bop);
  if (bop != BoolOp::None) {
    bool neg = false;
    ExecOperand e;
    e.ref = b.pred_src(3, &neg);
    b.out.first_op = b.push(e);
    b.out.nops = 1;
    if (neg) b.out.aux |= 4;
  }
  ExecFn fn = op == Op::setp ? pick_compare<SetpE>(st, cmp, ftz) : pick_compare<SetE>(st, cmp, ftz);
  if (!fn) b.fail(fmt::format("comparison of type .{} is not supported", isa::ptx::type_name(st)));
  b.out.fn = fn;
  b.out.o[1] = b.src(1, st);
  b.out.o[2] = b.src(2, st);
  if (op == Op::setp) {
    const isa::ptx::Operand& d0 = b.operand(0);
    if (d0.kind == isa::ptx::OperandKind::Pair) {
      b.out.o[0] = b.pred_dst_of(d0.elems[0]);
      b.out.o[3] = b.pred_dst_of(d0.elems[1]);
    } else {
      b.out.o[0] = b.pred_dst(0);
      b.out.o[3] = 0;
    }
  } else {
    const Type dt = b.type(0);
    need(dt == Type::U32 || dt == Type::S32 || dt == Type::F32, "set's destination type must be .u32, .s32 or .f32");
    if (dt == Type::F32) b.out.aux |= 8;
    b.out.o[0] = b.dst(0, 32);
  }
}

}  // namespace tcsim::sim
