// PTX ISA §9.7.2 Extended-Precision Integer Arithmetic Instructions:
//   add.cc.type d, a, b;     addc{.cc}.type d, a, b;       .type = { .u32, .s32, .u64, .s64 }
//   sub.cc.type d, a, b;     subc{.cc}.type d, a, b;
//   mad{.hi,.lo}.cc.type d, a, b, c;   madc{.hi,.lo}{.cc}.type d, a, b, c;
// The condition-code carry flag CC.CF is per thread; tcsim keeps it as one predicate slot (bit per
// lane). For subtraction CC.CF holds the borrow (PTX ISA §9.7.2.3-4: "borrow-out", "borrow-in").
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

enum class Kind { Add, Sub, MadLo, MadHi };

template <class T, Kind K, bool CarryIn, bool CarryOut>
void exec_cc(ExecCtx& c, const ExecInstr& in) {
  using UT = U<T>;
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = (K == Kind::MadLo || K == Kind::MadHi) ? c.src(in.o[3]) : nullptr;
  uint32_t& cf = c.preds[c.prog->cc_slot];
  uint32_t out = cf;
  for_lanes(c.mask, [&](int i) {
    const UT x = static_cast<UT>(a[i]), y = static_cast<UT>(b[i]);
    const UT cin = CarryIn ? static_cast<UT>(cf >> i & 1) : 0;
    UT r;
    bool carry;
    if constexpr (K == Kind::Sub) {
      r = static_cast<UT>(x - y - cin);
      carry = (static_cast<unsigned __int128>(y) + cin) > x;  // borrow out
    } else {
      UT addend;
      UT base;
      if constexpr (K == Kind::Add) {
        base = x;
        addend = y;
      } else {
        using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
        const unsigned __int128 p = static_cast<unsigned __int128>(static_cast<W>(static_cast<T>(x)) * static_cast<W>(static_cast<T>(y)));
        base = K == Kind::MadLo ? static_cast<UT>(p) : static_cast<UT>(p >> (8 * sizeof(T)));
        addend = static_cast<UT>(e[i]);
      }
      const unsigned __int128 s = static_cast<unsigned __int128>(base) + addend + cin;
      r = static_cast<UT>(s);
      carry = (s >> (8 * sizeof(T))) != 0;
    }
    d[i] = bits<UT>(r);
    if constexpr (CarryOut) out = (out & ~(1u << i)) | (uint32_t{carry} << i);
  });
  if constexpr (CarryOut) cf = out;
}

template <Kind K, bool CI, bool CO>
ExecFn pick(Type t) {
  switch (t) {
    case Type::U32: case Type::B32: return &exec_cc<uint32_t, K, CI, CO>;
    case Type::S32: return &exec_cc<int32_t, K, CI, CO>;
    case Type::U64: case Type::B64: return &exec_cc<uint64_t, K, CI, CO>;
    case Type::S64: return &exec_cc<int64_t, K, CI, CO>;
    default: return nullptr;
  }
}

template <Kind K>
ExecFn pick(Type t, bool ci, bool co) {
  return ci ? (co ? pick<K, true, true>(t) : pick<K, true, false>(t))
            : (co ? pick<K, false, true>(t) : pick<K, false, false>(t));
}

void bind_common(BindCtx& b, Kind k, bool carry_in) {
  using isa::ptx::Op;
  const Type t = b.type(0);
  const bool co = b.has(Mod::cc);
  ExecFn fn = nullptr;
  switch (k) {
    case Kind::Add: fn = pick<Kind::Add>(t, carry_in, co); break;
    case Kind::Sub: fn = pick<Kind::Sub>(t, carry_in, co); break;
    case Kind::MadLo: fn = pick<Kind::MadLo>(t, carry_in, co); break;
    case Kind::MadHi: fn = pick<Kind::MadHi>(t, carry_in, co); break;
  }
  if (!fn) b.fail(fmt::format("type .{} is not allowed (extended precision takes .u32 .s32 .u64 .s64)",
                              isa::ptx::type_name(t)));
  if (!b.prog.cc_slot) b.prog.cc_slot = b.prog.num_preds++;
  b.out.fn = fn;
  const int w = isa::ptx::type_bits(t);
  b.out.o[0] = b.dst(0, w);
  b.out.o[1] = b.src(1, t);
  b.out.o[2] = b.src(2, t);
  if (k == Kind::MadLo || k == Kind::MadHi) b.out.o[3] = b.src(3, t);
}

Kind mad_kind(BindCtx& b) {
  if (b.has(Mod::lo) == b.has(Mod::hi)) b.fail("needs exactly one of .lo, .hi");
  return b.has(Mod::hi) ? Kind::MadHi : Kind::MadLo;
}

}  // namespace

// add.cc, sub.cc, mad.lo.cc / mad.hi.cc arrive here from int_arith's binder.
void bind_ext_precision_cc(BindCtx& b) {
  using isa::ptx::Op;
  b.only_mods({Mod::cc, Mod::lo, Mod::hi});
  switch (b.in.op) {
    case Op::add_int: return bind_common(b, Kind::Add, false);
    case Op::sub_int: return bind_common(b, Kind::Sub, false);
    case Op::mad_int: return bind_common(b, mad_kind(b), false);
    default: b.fail(".cc is only valid on add, sub and mad");
  }
}

void bind_ext_precision(BindCtx& b) {
  using isa::ptx::Op;
  b.only_mods({Mod::cc, Mod::lo, Mod::hi});
  switch (b.in.op) {
    case Op::addc: return bind_common(b, Kind::Add, true);
    case Op::subc: return bind_common(b, Kind::Sub, true);
    case Op::madc: return bind_common(b, mad_kind(b), true);
    default: b.fail("internal: not an ext_precision row");
  }
}

}  // namespace tcsim::sim
