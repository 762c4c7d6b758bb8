// PTX ISA §9.7.1 Integer Arithmetic Instructions (arithmetic part; bit manipulation is in
// int_bits.cc, extended precision in ext_precision.cc):
//   add{.sat}.type d, a, b;            .type = { .u16, .u32, .u64, .s16, .s32, .s64, .u16x2, .s16x2 } (.sat: .s32)
//   sub{.sat}.type d, a, b;
//   mul.mode.type  d, a, b;            .mode = { .hi, .lo, .wide }
//   mad.mode.type  d, a, b, c;         mad.hi.sat.s32
//   mul24.mode.type d, a, b;           .mode = { .hi, .lo }, .type = { .u32, .s32 }
//   mad24.mode.type d, a, b, c;        mad24.hi.sat.s32
//   sad.type d, a, b, c;               d = c + |a - b|
//   div.type d, a, b;  rem.type d, a, b;
//   abs.type d, a;  neg.type d, a;     .type = { .s16, .s32, .s64 }
//   min{.relu}.type d, a, b;  max{.relu}.type d, a, b;   (.relu: .s32, .s16x2; x2: .u16x2 .s16x2)
// All arithmetic wraps modulo 2^N (computed in the unsigned type: no C++ signed overflow).
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

template <class T, class F>
inline void binary(ExecCtx& c, const ExecInstr& in, F f) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  blend_lanes(c.mask, d, [&](int i) { return bits<T>(f(as<T>(a[i]), as<T>(b[i]))); });
}

template <class T, class F>
inline void ternary(ExecCtx& c, const ExecInstr& in, F f) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) { return f(a[i], b[i], e[i]); });
}

template <class T> void exec_add(ExecCtx& c, const ExecInstr& in) {
  binary<T>(c, in, [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) + static_cast<U<T>>(b)); });
}
template <class T> void exec_sub(ExecCtx& c, const ExecInstr& in) {
  binary<T>(c, in, [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) - static_cast<U<T>>(b)); });
}
// .sat.s32: the exact result clamped to [INT32_MIN, INT32_MAX].
inline int32_t sat32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}
void exec_add_sat_s32(ExecCtx& c, const ExecInstr& in) {
  binary<int32_t>(c, in, [](int32_t a, int32_t b) { return sat32(int64_t{a} + b); });
}
void exec_sub_sat_s32(ExecCtx& c, const ExecInstr& in) {
  binary<int32_t>(c, in, [](int32_t a, int32_t b) { return sat32(int64_t{a} - b); });
}

// The double-width product of two N-bit values (N <= 64), as (hi, lo) halves.
template <class T>
inline void wide_mul(T a, T b, U<T>* hi, U<T>* lo) {
  constexpr int N = sizeof(T) * 8;
  if constexpr (N == 64) {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    const unsigned __int128 p = static_cast<unsigned __int128>(static_cast<W>(a) * static_cast<W>(b));
    *hi = static_cast<U<T>>(p >> 64);
    *lo = static_cast<U<T>>(p);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    const uint64_t p = static_cast<uint64_t>(static_cast<W>(a) * static_cast<W>(b));
    *hi = static_cast<U<T>>(p >> N);
    *lo = static_cast<U<T>>(p);
  }
}

template <class T> void exec_mul_lo(ExecCtx& c, const ExecInstr& in) {
  binary<T>(c, in, [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) * static_cast<U<T>>(b)); });
}
template <class T> void exec_mul_hi(ExecCtx& c, const ExecInstr& in) {
  binary<T>(c, in, [](T a, T b) {
    U<T> hi, lo;
    wide_mul(a, b, &hi, &lo);
    return static_cast<T>(hi);
  });
}
// .wide: d is 2N bits: the full product (sign-extended operands for signed types).
template <class T> void exec_mul_wide(ExecCtx& c, const ExecInstr& in) {
  using W = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 2, int32_t, int64_t>,
                               std::conditional_t<sizeof(T) == 2, uint32_t, uint64_t>>;
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  blend_lanes(c.mask, d, [&](int i) {
    return bits<W>(static_cast<W>(static_cast<U<W>>(static_cast<W>(as<T>(a[i]))) * static_cast<U<W>>(static_cast<W>(as<T>(b[i])))));
  });
}
template <class T> void exec_mad_lo(ExecCtx& c, const ExecInstr& in) {
  ternary<T>(c, in, [](uint64_t a, uint64_t b, uint64_t e) {
    return bits<T>(static_cast<T>(static_cast<U<T>>(as<T>(a)) * static_cast<U<T>>(as<T>(b)) + static_cast<U<T>>(as<T>(e))));
  });
}
template <class T> void exec_mad_hi(ExecCtx& c, const ExecInstr& in) {
  ternary<T>(c, in, [](uint64_t a, uint64_t b, uint64_t e) {
    U<T> hi, lo;
    wide_mul(as<T>(a), as<T>(b), &hi, &lo);
    return bits<T>(static_cast<T>(static_cast<U<T>>(hi + static_cast<U<T>>(as<T>(e)))));
  });
}
// mad.hi.sat.s32: PTX ISA §9.7.1.4 says (a*b)[63:32] + c saturated to [INT32_MIN, INT32_MAX], but
// the H200 does not saturate: kernels/basic int_arith column 13 wraps modulo 2^32 in all 38 of its
// overflowing cases (INT_MIN*INT_MIN + c, random operands), so tcsim follows the hardware and
// computes mad.hi.s32. ASSUMED the same on sm_100a (no Blackwell run yet).
void exec_mad_hi_sat_s32(ExecCtx& c, const ExecInstr& in) {
  ternary<int32_t>(c, in, [](uint64_t a, uint64_t b, uint64_t e) {
    const int64_t hi = (int64_t{as<int32_t>(a)} * as<int32_t>(b)) >> 32;
    return uint64_t{static_cast<uint32_t>(static_cast<uint64_t>(hi) + static_cast<uint32_t>(e))};
  });
}
template <class T> void exec_mad_wide(ExecCtx& c, const ExecInstr& in) {
  using W = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 2, int32_t, int64_t>,
                               std::conditional_t<sizeof(T) == 2, uint32_t, uint64_t>>;
  ternary<T>(c, in, [](uint64_t a, uint64_t b, uint64_t e) {
    const U<W> p = static_cast<U<W>>(static_cast<W>(as<T>(a))) * static_cast<U<W>>(static_cast<W>(as<T>(b)));
    return bits<W>(static_cast<W>(p + static_cast<U<W>>(as<W>(e))));
  });
}

// mul24/mad24 (PTX ISA §9.7.1.5-6): the 48-bit product of the low 24 bits of a and b (sign-extended
// for .s32); .lo keeps bits 31..0, .hi bits 47..16.
template <class T>
inline int64_t p48(uint64_t a, uint64_t b) {
  if constexpr (std::is_signed_v<T>) {
    const int64_t x = static_cast<int64_t>(static_cast<uint64_t>(a) << 40) >> 40;
    const int64_t y = static_cast<int64_t>(static_cast<uint64_t>(b) << 40) >> 40;
    return x * y;
  } else {
    return static_cast<int64_t>((a & 0xffffff) * (b & 0xffffff));
  }
}
template <class T, bool Hi> void exec_mul24(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  blend_lanes(c.mask, d, [&](int i) {
    const uint64_t p = static_cast<uint64_t>(p48<T>(a[i], b[i]));
    return uint64_t{static_cast<uint32_t>(Hi ? p >> 16 : p)};
  });
}
template <class T, bool Hi, bool Sat> void exec_mad24(ExecCtx& c, const ExecInstr& in) {
  ternary<T>(c, in, [](uint64_t a, uint64_t b, uint64_t e) {
    const int64_t p = p48<T>(a, b);
    if constexpr (Sat) return bits<int32_t>(sat32((p >> 16) + as<int32_t>(e)));
    const uint32_t part = static_cast<uint32_t>(Hi ? static_cast<uint64_t>(p) >> 16 : static_cast<uint64_t>(p));
    return uint64_t{static_cast<uint32_t>(part + static_cast<uint32_t>(e))};
  });
}

template <class T> void exec_sad(ExecCtx& c, const ExecInstr& in) {
  ternary<T>(c, in, [](uint64_t a, uint64_t b, uint64_t e) {
    const T x = as<T>(a), y = as<T>(b);
    const U<T> diff = x < y ? static_cast<U<T>>(static_cast<U<T>>(y) - static_cast<U<T>>(x))
                            : static_cast<U<T>>(static_cast<U<T>>(x) - static_cast<U<T>>(y));
    return bits<T>(static_cast<T>(static_cast<U<T>>(as<T>(e)) + diff));
  });
}

// Division by zero is unspecified in PTX (§9.7.1.8-9); tcsim returns all ones for the quotient and
// the dividend for the remainder (what the GPU's reciprocal-based sequence yields; to be
// confirmed on hardware). The most negative value divided by -1 wraps (quotient = dividend,
// remainder 0) instead of trapping.
template <class T> void exec_div(ExecCtx& c, const ExecInstr& in) {
  binary<T>(c, in, [](T a, T b) -> T {
    if (b == 0) return static_cast<T>(~U<T>{0});
    if constexpr (std::is_signed_v<T>)
      if (a == std::numeric_limits<T>::min() && b == -1) return a;
    return static_cast<T>(a / b);
  });
}
template <class T> void exec_rem(ExecCtx& c, const ExecInstr& in) {
  binary<T>(c, in, [](T a, T b) -> T {
    if (b == 0) return a;
    if constexpr (std::is_signed_v<T>)
      if (b == -1) return 0;
    return static_cast<T>(a % b);
  });
}

template <class T> void exec_abs(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) {
    const T x = as<T>(a[i]);
    return bits<T>(x < 0 ? static_cast<T>(U<T>{0} - static_cast<U<T>>(x)) : x);  // abs(MIN) = MIN
  });
}
template <class T> void exec_neg(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) { return bits<T>(static_cast<T>(U<T>{0} - static_cast<U<T>>(as<T>(a[i])))); });
}

template <class T, bool Max, bool Relu> void exec_minmax(ExecCtx& c, const ExecInstr& in) {
  binary<T>(c, in, [](T a, T b) {
    T r = Max ? std::max(a, b) : std::min(a, b);
    if constexpr (Relu) r = std::max<T>(r, 0);
    return r;
  });
}
// Packed 16-bit halves (.u16x2 / .s16x2, sm_90+): each half independently (add/sub wrap modulo
// 2^16 per half, PTX ISA §9.7.1.1-2).
template <bool Sub> void exec_addsub_x2(ExecCtx& c, const ExecInstr& in) {
  binary<uint32_t>(c, in, [](uint32_t a, uint32_t b) {
    uint32_t r = 0;
    for (int k = 0; k < 2; ++k) {
      const uint16_t x = static_cast<uint16_t>(a >> (16 * k)), y = static_cast<uint16_t>(b >> (16 * k));
      r |= uint32_t{static_cast<uint16_t>(Sub ? x - y : x + y)} << (16 * k);
    }
    return r;
  });
}
template <class H, bool Max, bool Relu> void exec_minmax_x2(ExecCtx& c, const ExecInstr& in) {
  binary<uint32_t>(c, in, [](uint32_t a, uint32_t b) {
    uint32_t r = 0;
    for (int k = 0; k < 2; ++k) {
      const H x = static_cast<H>(a >> (16 * k)), y = static_cast<H>(b >> (16 * k));
      H v = Max ? std::max(x, y) : std::min(x, y);
      if constexpr (Relu) v = std::max<H>(v, 0);
      r |= uint32_t{static_cast<uint16_t>(v)} << (16 * k);
    }
    return r;
  });
}

bool is_int_type(Type t) { return isa::ptx::is_integer(t) && isa::ptx::type_bits(t) >= 16 && isa::ptx::type_bits(t) <= 64; }

#define INT_SWITCH16_64(t, F) TCSIM_INT_TYPE_SWITCH(t, F)

}  // namespace

void bind_ext_precision_cc(BindCtx& b);  // add.cc / sub.cc / mad.cc (ext_precision.cc)

void bind_int_arith(BindCtx& b) {
  using isa::ptx::Op;
  const Op op = b.in.op;
  const Type t = b.type(0);
  if (b.has(Mod::cc)) return bind_ext_precision_cc(b);
  const bool is_x2 = t == Type::U16x2 || t == Type::S16x2;
  // Arithmetic is typed: .uN/.sN, never the bit types (PTX ISA §9.7.1; ptxas: "Unexpected
  // instruction types").
  if (t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64)
    b.fail(fmt::format("integer arithmetic takes .u or .s types, not .{}", isa::ptx::type_name(t)));
  if (!is_int_type(t) && !is_x2) b.fail(fmt::format("type .{} is not an integer type", isa::ptx::type_name(t)));
  const int w = isa::ptx::type_bits(t);
  const bool sgn = isa::ptx::is_signed(t);
  auto need = [&](bool ok, const char* what) {
    if (!ok) b.fail(what);
  };
  ExecFn fn = nullptr;
  const Type vt = is_x2 ? Type::B32 : t;
  int dst_bits = w;
  switch (op) {
    case Op::add_int:
    case Op::sub_int:
      b.only_mods({Mod::sat});
      if (is_x2) {
        need(!b.has(Mod::sat), ".sat applies only to .s32");
        fn = op == Op::add_int ? &exec_addsub_x2<false> : &exec_addsub_x2<true>;
      } else if (b.has(Mod::sat)) {
        need(t == Type::S32, ".sat applies only to .s32");
        fn = op == Op::add_int ? exec_add_sat_s32 : exec_sub_sat_s32;
      } else {
        fn = op == Op::add_int ? INT_SWITCH16_64(t, exec_add) : INT_SWITCH16_64(t, exec_sub);
      }
      break;
    case Op::mul_int:
    case Op::mad_int: {
      b.only_mods({Mod::lo, Mod::hi, Mod::wide, Mod::sat});
      const bool mad = op == Op::mad_int;
      const int modes = b.has(Mod::lo) + b.has(Mod::hi) + b.has(Mod::wide);
      need(modes <= 1, "at most one of .lo, .hi, .wide");
      if (modes == 0) b.fail(mad ? "mad needs .lo, .hi or .wide" : "mul needs .lo, .hi or .wide for integer types");
      if (b.has(Mod::sat)) need(mad && b.has(Mod::hi) && t == Type::S32, ".sat applies only to mad.hi.s32");
      if (b.has(Mod::wide)) {
        need(w == 16 || w == 32, ".wide applies to 16- and 32-bit types");
        dst_bits = 2 * w;
        if (mad) {
          fn = w == 16 ? (sgn ? &exec_mad_wide<int16_t> : &exec_mad_wide<uint16_t>)
                       : (sgn ? &exec_mad_wide<int32_t> : &exec_mad_wide<uint32_t>);
        } else {
          fn = w == 16 ? (sgn ? &exec_mul_wide<int16_t> : &exec_mul_wide<uint16_t>)
                       : (sgn ? &exec_mul_wide<int32_t> : &exec_mul_wide<uint32_t>);
        }
      } else if (b.has(Mod::hi)) {
        fn = mad ? (b.has(Mod::sat) ? exec_mad_hi_sat_s32 : INT_SWITCH16_64(t, exec_mad_hi))
                 : INT_SWITCH16_64(t, exec_mul_hi);
      } else {
        fn = mad ? INT_SWITCH16_64(t, exec_mad_lo) : INT_SWITCH16_64(t, exec_mul_lo);
      }
      b.out.o[0] = b.dst(0, dst_bits);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, t);
      if (mad) b.out.o[3] = b.src(3, dst_bits == 2 * w ? (w == 16 ? (sgn ? Type::S32 : Type::U32) : (sgn ? Type::S64 : Type::U64)) : t);
      b.out.fn = fn;
      return;
    }
    case Op::mul24:
    case Op::mad24: {
      b.only_mods({Mod::lo, Mod::hi, Mod::sat});
      need(t == Type::U32 || t == Type::S32, "mul24/mad24 take .u32 or .s32");
      need(b.has(Mod::lo) != b.has(Mod::hi), "needs exactly one of .lo, .hi");
      const bool hi = b.has(Mod::hi);
      if (b.has(Mod::sat)) need(op == Op::mad24 && hi && t == Type::S32, ".sat applies only to mad24.hi.s32");
      if (op == Op::mul24) {
        fn = sgn ? (hi ? &exec_mul24<int32_t, true> : &exec_mul24<int32_t, false>)
                 : (hi ? &exec_mul24<uint32_t, true> : &exec_mul24<uint32_t, false>);
      } else if (b.has(Mod::sat)) {
        fn = &exec_mad24<int32_t, true, true>;
      } else {
        fn = sgn ? (hi ? &exec_mad24<int32_t, true, false> : &exec_mad24<int32_t, false, false>)
                 : (hi ? &exec_mad24<uint32_t, true, false> : &exec_mad24<uint32_t, false, false>);
      }
      break;
    }
    case Op::sad:
      b.only_mods({});
      fn = INT_SWITCH16_64(t, exec_sad);
      break;
    case Op::div_int:
      b.only_mods({});
      fn = INT_SWITCH16_64(t, exec_div);
      break;
    case Op::rem:
      b.only_mods({});
      fn = INT_SWITCH16_64(t, exec_rem);
      break;
    case Op::abs_int:
    case Op::neg_int:
      b.only_mods({});
      need(sgn, "abs/neg take a signed type (.s16, .s32, .s64)");
      fn = op == Op::abs_int ? INT_SWITCH16_64(t, exec_abs) : INT_SWITCH16_64(t, exec_neg);
      b.out.fn = fn;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      return;
    case Op::min_int:
    case Op::max_int: {
      b.only_mods({Mod::relu});
      const bool mx = op == Op::max_int, relu = b.has(Mod::relu);
      if (relu) need(t == Type::S32 || t == Type::S16x2, ".relu applies to .s32 and .s16x2");
      if (t == Type::U16x2) fn = mx ? &exec_minmax_x2<uint16_t, true, false> : &exec_minmax_x2<uint16_t, false, false>;
      else if (t == Type::S16x2)
        fn = relu ? (mx ? &exec_minmax_x2<int16_t, true, true> : &exec_minmax_x2<int16_t, false, true>)
                  : (mx ? &exec_minmax_x2<int16_t, true, false> : &exec_minmax_x2<int16_t, false, false>);
      else if (relu) fn = mx ? &exec_minmax<int32_t, true, true> : &exec_minmax<int32_t, false, true>;
      else {
        switch (t) {
          case Type::U16: case Type::B16: fn = mx ? &exec_minmax<uint16_t, true, false> : &exec_minmax<uint16_t, false, false>; break;
          case Type::S16: fn = mx ? &exec_minmax<int16_t, true, false> : &exec_minmax<int16_t, false, false>; break;
          case Type::U32: case Type::B32: fn = mx ? &exec_minmax<uint32_t, true, false> : &exec_minmax<uint32_t, false, false>; break;
          case Type::S32: fn = mx ? &exec_minmax<int32_t, true, false> : &exec_minmax<int32_t, false, false>; break;
          case Type::U64: case Type::B64: fn = mx ? &exec_minmax<uint64_t, true, false> : &exec_minmax<uint64_t, false, false>; break;
          case Type::S64: fn = mx ? &exec_minmax<int64_t, true, false> : &exec_minmax<int64_t, false, false>; break;
          default: break;
        }
      }
      break;
    }
    default:
      b.fail("internal: not an int_arith row");
  }
  if (!fn) b.fail(fmt::format("type .{} is not supported by this instruction", isa::ptx::type_name(t)));
  b.out.fn = fn;
  b.out.o[0] = b.dst(0, dst_bits);
  b.out.o[1] = b.src(1, vt);
  b.out.o[2] = b.src(2, vt);
  if (b.nops() > 3) b.out.o[3] = b.src(3, vt);
}

}  // namespace tcsim::sim
