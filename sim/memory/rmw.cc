// The floating-point arithmetic of the element RMW ALU (see rmw.h for the PTX rules), its
// run-time form and the reduction-modifier table. The additions are exact integer arithmetic
// rounded once by fp::round_pack, so they depend on no host floating-point state (they also run at
// quantum boundaries, outside the partition threads' controlled FP environment).
#include "sim/memory/rmw.h"

#include <utility>

#include "isa/ptx/ir.h"
#include "sim/exec/fp_util.h"

namespace tcsim::sim::rmw {
namespace {

// An IEEE binary format with P significand bits (hidden bit included) and E exponent bits.
template <int P, int E>
struct Ieee {
  static constexpr int kWidth = P + E;
  static constexpr uint64_t kSign = uint64_t{1} << (kWidth - 1);
  static constexpr uint64_t kInf = ((uint64_t{1} << E) - 1) << (P - 1);  // exponent all ones
  static constexpr uint64_t kFrac = (uint64_t{1} << (P - 1)) - 1;
  static constexpr int kBias = (1 << (E - 1)) - 1;
  static constexpr int kEminLsb = 1 - kBias - (P - 1);  // exponent of a subnormal's last bit

  static bool is_nan(uint64_t v) { return (v & ~kSign) > kInf; }
  static bool is_inf(uint64_t v) { return (v & ~kSign) == kInf; }
  static bool is_subnormal(uint64_t v) { return (v & kInf) == 0 && (v & kFrac) != 0; }
  // Finite v = (-1)^neg * m * 2^e.
  static void decode(uint64_t v, bool* neg, uint64_t* m, int* e) {
    *neg = (v & kSign) != 0;
    const int be = static_cast<int>((v & kInf) >> (P - 1));
    *m = be == 0 ? (v & kFrac) : ((v & kFrac) | (kFrac + 1));
    *e = be == 0 ? kEminLsb : be - kBias - (P - 1);
  }

  // a + b for finite a, b, rounded to nearest even.
  static uint64_t add_finite(uint64_t a, uint64_t b) {
    bool na, nb;
    uint64_t ma, mb;
    int ea, eb;
    decode(a, &na, &ma, &ea);
    decode(b, &nb, &mb, &eb);
    if (ma == 0 && mb == 0) return (na && nb) ? kSign : 0;  // -0 + -0 = -0, otherwise +0 (RN)
    if (ma == 0) return b;
    if (mb == 0) return a;
    if (ea < eb) {
      std::swap(a, b);
      std::swap(na, nb);
      std::swap(ma, mb);
      std::swap(ea, eb);
    }
    const int d = ea - eb;
    // ea > eb makes a normal: |a| >= 2^(P-1+ea) while |b| < 2^(P+eb) = 2^(P+ea-d); for d > 72 b is
    // below 2^-19 of a's smallest half-ulp and cannot change the rounded sum (P <= 53).
    if (d > 72) return a;
    using U128 = unsigned __int128;
    const U128 A = static_cast<U128>(ma) << d, B = mb;  // both scaled to 2^eb, at most 125 bits
    U128 s;
    bool neg;
    if (na == nb) {
      s = A + B;
      neg = na;
    } else if (A >= B) {
      s = A - B;
      neg = na;
    } else {
      s = B - A;
      neg = nb;
    }
    if (s == 0) return 0;  // x + (-x) = +0 when rounding to nearest (IEEE 754 §6.3)
    int exp = eb;
    bool sticky = false;
    const uint64_t hi = static_cast<uint64_t>(s >> 64);
    if (hi != 0) {
      const int sh = 64 - __builtin_clzll(hi);  // bits above the low 64
      sticky = (s & ((U128{1} << sh) - 1)) != 0;
      s >>= sh;
      exp += sh;
    }
    return fp::round_pack<P, E>(neg, static_cast<uint64_t>(s), exp, fp::Rnd::RN, sticky);
  }
};

using F16 = Ieee<11, 5>;
using BF16 = Ieee<8, 8>;
using F32 = Ieee<24, 8>;
using F64 = Ieee<53, 11>;

// inf + inf of the same sign is that inf; of opposite signs it is invalid (NaN).
template <class F>
bool add_special(uint64_t a, uint64_t b, uint64_t* r, bool* invalid) {
  *invalid = false;
  if (F::is_inf(a) && F::is_inf(b)) {
    if ((a ^ b) & F::kSign) *invalid = true;
    else *r = a;
    return true;
  }
  if (F::is_inf(a)) { *r = a; return true; }
  if (F::is_inf(b)) { *r = b; return true; }
  return false;
}

// min/max ordering key of a non-NaN half code: -0 below +0, magnitudes ordered.
inline uint32_t order_key(uint16_t x) { return (x & 0x8000) ? 0x7fffu - (x & 0x7fffu) : 0x8000u + x; }

}  // namespace

uint32_t add_f32(uint32_t a, uint32_t b, bool ftz) {
  if (F32::is_nan(a) || F32::is_nan(b)) return fp::kCanonicalNaN32;
  if (ftz) {
    if (F32::is_subnormal(a)) a &= static_cast<uint32_t>(F32::kSign);
    if (F32::is_subnormal(b)) b &= static_cast<uint32_t>(F32::kSign);
  }
  uint64_t r;
  bool invalid;
  if (add_special<F32>(a, b, &r, &invalid)) return invalid ? fp::kCanonicalNaN32 : static_cast<uint32_t>(r);
  r = F32::add_finite(a, b);
  if (ftz && F32::is_subnormal(r)) r &= F32::kSign;
  return static_cast<uint32_t>(r);
}

uint64_t add_f64(uint64_t a, uint64_t b) {
  if (F64::is_nan(a)) return a | fp::kQuietBit64;
  if (F64::is_nan(b)) return b | fp::kQuietBit64;
  uint64_t r;
  bool invalid;
  if (add_special<F64>(a, b, &r, &invalid)) return invalid ? fp::kDefaultNaN64 : r;
  return F64::add_finite(a, b);
}

template <class F>
uint16_t add_half(uint16_t a, uint16_t b) {
  if (F::is_nan(a) || F::is_nan(b)) return 0x7fff;
  uint64_t r;
  bool invalid;
  if (add_special<F>(a, b, &r, &invalid)) return invalid ? 0x7fff : static_cast<uint16_t>(r);
  return static_cast<uint16_t>(F::add_finite(a, b));
}

uint16_t add_f16(uint16_t a, uint16_t b) { return add_half<F16>(a, b); }
uint16_t add_bf16(uint16_t a, uint16_t b) { return add_half<BF16>(a, b); }

uint16_t minmax_h(uint16_t a, uint16_t b, bool is_max, bool bf16) {
  const bool na = bf16 ? BF16::is_nan(a) : F16::is_nan(a);
  const bool nb = bf16 ? BF16::is_nan(b) : F16::is_nan(b);
  if (na && nb) return 0x7fff;
  if (na) return b;
  if (nb) return a;
  const bool a_wins = is_max ? order_key(a) > order_key(b) : order_key(a) < order_key(b);
  return a_wins ? a : b;
}

const char* op_name(Op op) {
  switch (op) {
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Xor: return "xor";
    case Op::Cas: return "cas";
    case Op::Exch: return "exch";
    case Op::Add: return "add";
    case Op::Inc: return "inc";
    case Op::Dec: return "dec";
    case Op::Min: return "min";
    case Op::Max: return "max";
  }
  return "?";
}

const char* type_name(Type t) {
  switch (t) {
    case Type::B16: return "b16";
    case Type::B32: return "b32";
    case Type::B64: return "b64";
    case Type::B128: return "b128";
    case Type::U32: return "u32";
    case Type::S32: return "s32";
    case Type::U64: return "u64";
    case Type::S64: return "s64";
    case Type::F32: return "f32";
    case Type::F64: return "f64";
    case Type::F16: return "f16";
    case Type::BF16: return "bf16";
    case Type::F16x2: return "f16x2";
    case Type::BF16x2: return "bf16x2";
  }
  return "?";
}

uint64_t alu(Op op, Type t, bool ftz, uint64_t old, uint64_t b, uint64_t c) {
#define TCSIM_RMW_T(T)                                                              \
  case Type::T:                                                                     \
    switch (op) {                                                                    \
      case Op::And: return alu<Op::And, Type::T>(old, b, c);                      \
      case Op::Or: return alu<Op::Or, Type::T>(old, b, c);                        \
      case Op::Xor: return alu<Op::Xor, Type::T>(old, b, c);                      \
      case Op::Cas: return alu<Op::Cas, Type::T>(old, b, c);                      \
      case Op::Exch: return alu<Op::Exch, Type::T>(old, b, c);                    \
      case Op::Add:                                                                 \
        return ftz ? alu<Op::Add, Type::T, true>(old, b, c) : alu<Op::Add, Type::T>(old, b, c); \
      case Op::Inc: return alu<Op::Inc, Type::T>(old, b, c);                      \
      case Op::Dec: return alu<Op::Dec, Type::T>(old, b, c);                      \
      case Op::Min: return alu<Op::Min, Type::T>(old, b, c);                      \
      case Op::Max: return alu<Op::Max, Type::T>(old, b, c);                      \
    }                                                                                \
    break;
  switch (t) {
    TCSIM_RMW_T(B16)
    TCSIM_RMW_T(B32)
    TCSIM_RMW_T(B64)
    TCSIM_RMW_T(U32)
    TCSIM_RMW_T(S32)
    TCSIM_RMW_T(U64)
    TCSIM_RMW_T(S64)
    TCSIM_RMW_T(F32)
    TCSIM_RMW_T(F64)
    TCSIM_RMW_T(F16)
    TCSIM_RMW_T(BF16)
    TCSIM_RMW_T(F16x2)
    TCSIM_RMW_T(BF16x2)
    case Type::B128: break;
  }
#undef TCSIM_RMW_T
  return old;
}

int parse_op(const isa::ptx::Instr& in, Op* op) {
  using isa::ptx::Mod;
  static constexpr std::pair<Mod, Op> kOps[] = {{Mod::and_, Op::And}, {Mod::or_, Op::Or},   {Mod::xor_, Op::Xor},
                                                {Mod::cas, Op::Cas},  {Mod::exch, Op::Exch}, {Mod::add, Op::Add},
                                                {Mod::inc, Op::Inc},  {Mod::dec, Op::Dec},   {Mod::min, Op::Min},
                                                {Mod::max, Op::Max}};
  int n = 0;
  for (const auto& [m, o] : kOps)
    if (in.has(m)) {
      ++n;
      *op = o;
    }
  return n;
}

}  // namespace tcsim::sim::rmw
