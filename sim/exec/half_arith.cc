// PTX ISA §9.7.4 Half Precision Floating-Point Instructions:
//   add{.rnd}{.ftz}{.sat}.f16 d, a, b;   add{.rnd}{.ftz}{.sat}.f16x2 d, a, b;   .rnd = { .rn }
//   add{.rnd}.bf16 d, a, b;              add{.rnd}.bf16x2 d, a, b;
//   sub, mul: as add.
//   fma.rnd{.ftz}{.sat}.f16 d, a, b, c;  fma.rnd{.ftz}{.sat}.f16x2 d, a, b, c;
//   fma.rnd{.ftz}.relu.f16 / .f16x2;     fma.rnd{.relu}.bf16 / .bf16x2;
//   fma.rnd.oob{.relu}.type d, a, b, c;  .type = { .f16, .f16x2, .bf16, .bf16x2 }   (sm_90+)
//   neg{.ftz}.f16 / .f16x2;  neg.bf16 / .bf16x2;   abs: as neg.
//   min{.ftz}{.NaN}{.xorsign.abs}.f16 / .f16x2;  min{.NaN}{.xorsign.abs}.bf16 / .bf16x2;  max: as min.
// (ex2.approx and tanh.approx of these types: float_approx.cc; setp/set: half_compare.cc.)
// x2 forms: lane 0 = bits 15..0, lane 1 = bits 31..16, computed independently.
// Rules encoded:
//  - every result is the exact value rounded once to nearest even (half_util.h round_pair).
//  - .ftz (f16 only): subnormal inputs and results flush to sign-preserving zero.
//  - .sat (f16 only): result clamped to [0, 1], NaN -> +0.
//  - .relu: negative results (-0 included: H200 half_math col 7 never gives 0x8000) -> +0, NaN
//    results -> canonical NaN.
//  - .oob: the result is +0 when an operand is the OOB-NaN that a tensor copy with OOB-NaN fill
//    writes (§5.5.3.3). The PTX ISA does not give its bits; tcsim assumes the canonical NaN 0x7fff
//    (the same ASSUMED fill value as kernels/tma expect.py "oob_nan_bits"; unconfirmed).
//  - NaN results, neg/abs of a NaN included: the canonical NaN 0x7fff (H200 goldens).
//  - min/max: §9.7.4.7 semantics; a single NaN operand is ignored unless .NaN; +0 > -0; .xorsign
//    takes the sign bits before .abs; NaN results ignore .xorsign.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/half_compare.h"
#include "sim/exec/half_util.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using half::Fmt;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class HOp : uint8_t { Add, Sub, Mul, Fma };
constexpr uint32_t kFtz = 1, kSat = 2, kRelu = 4, kOob = 8;  // ExecInstr::aux flags
inline constexpr uint16_t kOobNaN = half::kCanonicalNaN;  // ASSUMED, see the header

template <Fmt F, HOp O>
inline uint16_t arith1(uint16_t a, uint16_t b, uint16_t c, uint32_t flags) {
  if ((flags & kOob) && (a == kOobNaN || b == kOobNaN || (O == HOp::Fma && c == kOobNaN))) return 0;
  if (flags & kFtz) {
    a = half::ftz<F>(a);
    b = half::ftz<F>(b);
    c = half::ftz<F>(c);
  }
  uint16_t r;
  if (half::is_nan<F>(a) || half::is_nan<F>(b) || (O == HOp::Fma && half::is_nan<F>(c))) {
    r = half::kCanonicalNaN;
  } else {
    const double x = half::to_double<F>(a), y = half::to_double<F>(b);
    if constexpr (O == HOp::Mul) {
      r = half::round_rn<F>(x * y);  // exact product
    } else {
      const double p = O == HOp::Fma ? x * y : x;
      const double z = O == HOp::Fma ? half::to_double<F>(c) : O == HOp::Sub ? -y : y;
      const double s = p + z;
      r = half::round_pair<F>(s, std::isfinite(s) ? half::two_sum_err(p, z, s) : 0.0);
    }
  }
  if (flags & kFtz) r = half::ftz<F>(r);
  if (flags & kSat) r = half::sat01<F>(r);
  if ((flags & kRelu) && !half::is_nan<F>(r) && (r & half::kSign)) r = 0;
  return r;
}

template <Fmt F, HOp O, bool X2>
void exec_harith(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = O == HOp::Fma ? c.src(in.o[3]) : b;
  const uint32_t flags = static_cast<uint32_t>(in.aux);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    uint64_t r = arith1<F, O>(half::lane(a[i], 0), half::lane(b[i], 0), half::lane(e[i], 0), flags);
    if constexpr (X2) r |= uint64_t{arith1<F, O>(half::lane(a[i], 1), half::lane(b[i], 1), half::lane(e[i], 1), flags)} << 16;
    return r;
  });
}

template <Fmt F, bool Neg>
inline uint16_t negabs1(uint16_t a, bool ftz) {
  if (ftz) a = half::ftz<F>(a);
  if (half::is_nan<F>(a)) return half::kCanonicalNaN;
  return Neg ? a ^ half::kSign : a & ~half::kSign;
}

template <Fmt F, bool Neg, bool X2>
void exec_hnegabs(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const bool ftz = in.aux & kFtz;
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    uint64_t r = negabs1<F, Neg>(half::lane(a[i], 0), ftz);
    if constexpr (X2) r |= uint64_t{negabs1<F, Neg>(half::lane(a[i], 1), ftz)} << 16;
    return r;
  });
}

// aux bits: 0 ftz, 4 max, 5 .NaN, 6 .xorsign.abs
template <Fmt F>
inline uint16_t minmax1(uint16_t a, uint16_t b, uint32_t aux) {
  if (aux & kFtz) {
    a = half::ftz<F>(a);
    b = half::ftz<F>(b);
  }
  const bool is_max = aux & 16, nan_mode = aux & 32, xorsign = aux & 64;
  const uint16_t sign = (a ^ b) & half::kSign;
  if (xorsign) {
    a &= ~half::kSign;
    b &= ~half::kSign;
  }
  const bool na = half::is_nan<F>(a), nb = half::is_nan<F>(b);
  if ((na && nb) || (nan_mode && (na || nb))) return half::kCanonicalNaN;
  uint16_t r;
  if (na) {
    r = b;
  } else if (nb) {
    r = a;
  } else {
    const double x = half::to_double<F>(a), y = half::to_double<F>(b);
    if (x == y) r = ((a & half::kSign) != 0) == is_max ? b : a;  // +0 > -0 (§9.7.4.7, .8)
    else r = (is_max ? x > y : x < y) ? a : b;
  }
  if (xorsign) r = static_cast<uint16_t>((r & ~half::kSign) | sign);
  if (aux & kFtz) r = half::ftz<F>(r);
  return r;
}

template <Fmt F, bool X2>
void exec_hminmax(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint32_t aux = static_cast<uint32_t>(in.aux);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    uint64_t r = minmax1<F>(half::lane(a[i], 0), half::lane(b[i], 0), aux);
    if constexpr (X2) r |= uint64_t{minmax1<F>(half::lane(a[i], 1), half::lane(b[i], 1), aux)} << 16;
    return r;
  });
}

template <template <Fmt, bool> class E>
ExecFn by_fmt(bool bf, bool x2) {
  return bf ? (x2 ? &E<Fmt::BF16, true>::run : &E<Fmt::BF16, false>::run)
            : (x2 ? &E<Fmt::F16, true>::run : &E<Fmt::F16, false>::run);
}
template <HOp O>
struct Arith {
  template <Fmt F, bool X2>
  struct E {
    static void run(ExecCtx& c, const ExecInstr& i) { exec_harith<F, O, X2>(c, i); }
  };
};
template <bool Neg>
struct NegAbs {
  template <Fmt F, bool X2>
  struct E {
    static void run(ExecCtx& c, const ExecInstr& i) { exec_hnegabs<F, Neg, X2>(c, i); }
  };
};
template <Fmt F, bool X2>
struct MinMax {
  static void run(ExecCtx& c, const ExecInstr& i) { exec_hminmax<F, X2>(c, i); }
};

}  // namespace

void bind_half_arith(BindCtx& b) {
  using isa::ptx::Op;
  using isa::ptx::Rounding;
  const Op op = b.in.op;
  if (op == Op::setp_half || op == Op::set_half) return bind_half_compare(b);
  if (op == Op::ex2_half || op == Op::tanh_half) return bind_float_approx(b);
  const Type t = b.type(0);
  const bool bf = t == Type::BF16 || t == Type::BF16x2, x2 = t == Type::F16x2 || t == Type::BF16x2;
  if (!bf && t != Type::F16 && !x2) b.fail(fmt::format("type .{} is not .f16, .f16x2, .bf16 or .bf16x2", isa::ptx::type_name(t)));
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  const bool ftz = b.has(Mod::ftz);
  if (bf) need(!ftz, ".ftz applies to .f16 and .f16x2 only (bf16 arithmetic keeps subnormals)");
  const int w = x2 ? 32 : 16;
  uint32_t flags = ftz ? kFtz : 0;
  switch (op) {
    case Op::add_half:
    case Op::sub_half:
    case Op::mul_half:
    case Op::fma_half: {
      b.only_mods({Mod::ftz, Mod::sat, Mod::relu, Mod::oob});
      const bool fma = op == Op::fma_half;
      need(b.in.rnd == Rounding::RN || (!fma && b.in.rnd == Rounding::None),
           fma ? "fma on half types needs .rn (the only rounding PTX defines for it)"
               : "the only rounding modifier for half-precision add/sub/mul is .rn");
      if (b.has(Mod::sat)) {
        need(!bf, ".sat applies to .f16 and .f16x2 only");
        flags |= kSat;
      }
      if (b.has(Mod::relu)) {
        need(fma, ".relu applies to fma only");
        need(!b.has(Mod::sat), ".relu and .sat cannot be combined");
        flags |= kRelu;
      }
      if (b.has(Mod::oob)) {
        need(fma && !ftz && !b.has(Mod::sat), ".oob applies to fma.rn{.relu} without .ftz/.sat");
        flags |= kOob;
      }
      ExecFn fn = nullptr;
      switch (op) {
        case Op::add_half: fn = by_fmt<Arith<HOp::Add>::E>(bf, x2); break;
        case Op::sub_half: fn = by_fmt<Arith<HOp::Sub>::E>(bf, x2); break;
        case Op::mul_half: fn = by_fmt<Arith<HOp::Mul>::E>(bf, x2); break;
        default: fn = by_fmt<Arith<HOp::Fma>::E>(bf, x2); break;
      }
      b.out.fn = fn;
      b.out.aux = flags;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, t);
      if (fma) b.out.o[3] = b.src(3, t);
      return;
    }
    case Op::neg_half:
    case Op::abs_half:
      b.only_mods({Mod::ftz});
      b.out.fn = op == Op::neg_half ? by_fmt<NegAbs<true>::E>(bf, x2) : by_fmt<NegAbs<false>::E>(bf, x2);
      b.out.aux = flags;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      return;
    case Op::min_half:
    case Op::max_half:
      b.only_mods({Mod::ftz, Mod::NaN, Mod::xorsign, Mod::abs});
      need(b.has(Mod::xorsign) == b.has(Mod::abs), ".xorsign and .abs must be given together");
      b.out.fn = by_fmt<MinMax>(bf, x2);
      b.out.aux = flags | (op == Op::max_half ? 16 : 0) | (b.has(Mod::NaN) ? 32 : 0) | (b.has(Mod::xorsign) ? 64 : 0);
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, t);
      return;
    default:
      b.fail("internal: not a half_arith row");
  }
}

}  // namespace tcsim::sim
