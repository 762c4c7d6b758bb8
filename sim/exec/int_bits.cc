// PTX ISA §9.7.1 Integer Arithmetic Instructions, bit manipulation:
//   popc.type d, a;           .type = { .b32, .b64 }                  d: .u32
//   clz.type d, a;            .type = { .b32, .b64 }                  d: .u32
//   bfind{.shiftamt}.type d, a;   .type = { .u32, .u64, .s32, .s64 }  d: .u32
//   fns.b32 d, mask, base, offset;
//   brev.type d, a;           .type = { .b32, .b64 }
//   bfe.type d, a, b, c;      .type = { .u32, .u64, .s32, .s64 }      b, c: .u32
//   bfi.type f, a, b, c, d;   .type = { .b32, .b64 }                  c, d: .u32
//   szext.mode.type d, a, b;  .mode = { .clamp, .wrap }, .type = { .u32, .s32 }
//   bmsk.mode.b32 d, a, b;    .mode = { .clamp, .wrap }
// Semantics follow the pseudocode of each instruction's PTX ISA section.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

template <class F>
inline void unary(ExecCtx& c, const ExecInstr& in, F f) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  blend_lanes(c.mask, d, [&](int i) { return f(a[i]); });
}

template <class T> void exec_popc(ExecCtx& c, const ExecInstr& in) {
  unary(c, in, [](uint64_t a) { return uint64_t(__builtin_popcountll(static_cast<T>(a))); });
}
template <class T> void exec_clz(ExecCtx& c, const ExecInstr& in) {
  unary(c, in, [](uint64_t a) {
    const T x = static_cast<T>(a);
    return uint64_t(x == 0 ? sizeof(T) * 8 : __builtin_clzll(x) - (64 - sizeof(T) * 8));
  });
}
// bfind (§9.7.1.16): position of the most significant 1 (unsigned) or of the most significant bit
// that differs from the sign (signed); 0xffffffff if none. .shiftamt: msb - position.
template <class T, bool ShiftAmt> void exec_bfind(ExecCtx& c, const ExecInstr& in) {
  unary(c, in, [](uint64_t a) -> uint64_t {
    constexpr int msb = sizeof(T) * 8 - 1;
    uint64_t x = static_cast<U<T>>(static_cast<T>(a));
    if (std::is_signed_v<T> && (x >> msb & 1)) x = ~x & (msb == 63 ? ~uint64_t{0} : (uint64_t{1} << (msb + 1)) - 1);
    if (x == 0) return 0xffffffffu;
    const int pos = 63 - __builtin_clzll(x);
    return ShiftAmt ? uint64_t(msb - pos) : uint64_t(pos);
  });
}
void exec_fns(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* mask = c.src(in.o[1]);
  const uint64_t* base = c.src(in.o[2]);
  const uint64_t* off = c.src(in.o[3]);
  for_lanes(c.mask, [&](int i) {
    const uint32_t m = static_cast<uint32_t>(mask[i]);
    const int32_t b = static_cast<int32_t>(base[i] & 31);  // base > 31 is undefined
    const int32_t o = static_cast<int32_t>(off[i]);
    uint32_t r = 0xffffffffu;
    if (o == 0) {
      if (m >> b & 1) r = static_cast<uint32_t>(b);
    } else {
      int64_t count = (o > 0 ? int64_t{o} : -int64_t{o}) - 1;
      const int inc = o > 0 ? 1 : -1;
      for (int pos = b; pos >= 0 && pos < 32; pos += inc) {
        if (m >> pos & 1) {
          if (count == 0) {
            r = static_cast<uint32_t>(pos);
            break;
          }
          --count;
        }
      }
    }
    d[i] = r;
  });
}
template <class T> void exec_brev(ExecCtx& c, const ExecInstr& in) {
  unary(c, in, [](uint64_t a) {
    uint64_t x = static_cast<T>(a), r = 0;
    for (size_t k = 0; k < sizeof(T) * 8; ++k) r |= ((x >> k) & 1) << (sizeof(T) * 8 - 1 - k);
    return r;
  });
}
// bfe (§9.7.1.19): d = a[pos .. pos+len-1], sign-extended from bit min(pos+len-1, msb) for signed
// types when len > 0; pos and len are the low 8 bits of b and c.
template <class T> void exec_bfe(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  for_lanes(c.mask, [&](int i) {
    constexpr unsigned msb = sizeof(T) * 8 - 1;
    const uint64_t x = static_cast<U<T>>(static_cast<T>(a[i]));
    const unsigned pos = b[i] & 0xff, len = e[i] & 0xff;
    uint64_t sbit = 0;
    if (std::is_signed_v<T> && len != 0) sbit = x >> std::min(pos + len - 1, msb) & 1;
    uint64_t r = 0;
    for (unsigned k = 0; k <= msb; ++k) {
      const uint64_t bit = (k < len && pos + k <= msb) ? (x >> (pos + k) & 1) : sbit;
      r |= bit << k;
    }
    d[i] = r;
  });
}
// bfi (§9.7.1.20): f = b with len bits of a inserted at pos (pos, len: low 8 bits of c and d).
template <class T> void exec_bfi(ExecCtx& c, const ExecInstr& in) {
  uint64_t* f = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* cc = c.src(in.o[3]);
  const uint64_t* dd = c.src(c.op(in, 0).ref);
  for_lanes(c.mask, [&](int i) {
    constexpr unsigned msb = sizeof(T) * 8 - 1;
    const unsigned pos = cc[i] & 0xff, len = dd[i] & 0xff;
    uint64_t r = static_cast<T>(b[i]);
    for (unsigned k = 0; k < len && pos + k <= msb; ++k) {
      const uint64_t bit = a[i] >> k & 1;
      r = (r & ~(uint64_t{1} << (pos + k))) | (bit << (pos + k));
    }
    f[i] = r;
  });
}
template <bool Signed, bool Clamp> void exec_szext(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  for_lanes(c.mask, [&](int i) {
    const uint32_t x = static_cast<uint32_t>(a[i]), n = static_cast<uint32_t>(b[i]);
    const uint32_t b1 = n & 0x1f;
    const bool too_large = n >= 32 && Clamp;
    const uint32_t mask = too_large ? 0 : (~0u << b1);
    const uint32_t sign_pos = (b1 - 1) & 0x1f;
    const bool sign = !(b1 == 0 || too_large || !Signed) && (x >> sign_pos & 1);
    d[i] = (x & ~mask) | (sign ? mask : 0);
  });
}
template <bool Clamp> void exec_bmsk(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  for_lanes(c.mask, [&](int i) {
    const uint32_t av = static_cast<uint32_t>(a[i]), bv = static_cast<uint32_t>(b[i]);
    const uint32_t a1 = av & 0x1f, b1 = bv & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
    bool pos_ovf = false, width_ovf = false;
    if (Clamp) {
      if (av >= 32) {
        pos_ovf = true;
        mask0 = 0;
      }
      if (bv >= 32) width_ovf = true;
    }
    if (sum >= 32 || pos_ovf || width_ovf) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    d[i] = mask0 & ~mask1;
  });
}

}  // namespace

void bind_int_bits(BindCtx& b) {
  using isa::ptx::Op;
  const Type t = b.type(0);
  const int w = isa::ptx::type_bits(t);
  const bool is64 = w == 64;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  auto b32_64 = [&] { need((w == 32 || w == 64) && isa::ptx::is_integer(t), "type must be .b32 or .b64"); };
  switch (b.in.op) {
    case Op::popc:
    case Op::clz:
      b.only_mods({});
      b32_64();
      b.out.fn = b.in.op == Op::popc ? (is64 ? &exec_popc<uint64_t> : &exec_popc<uint32_t>)
                                     : (is64 ? &exec_clz<uint64_t> : &exec_clz<uint32_t>);
      b.out.o[0] = b.dst(0, 32);
      b.out.o[1] = b.src(1, t);
      return;
    case Op::bfind: {
      b.only_mods({Mod::shiftamt});
      need(t == Type::U32 || t == Type::U64 || t == Type::S32 || t == Type::S64, "type must be .u32 .u64 .s32 .s64");
      const bool sa = b.has(Mod::shiftamt);
      ExecFn fns[2][2][2] = {{{&exec_bfind<uint32_t, false>, &exec_bfind<uint32_t, true>},
                              {&exec_bfind<int32_t, false>, &exec_bfind<int32_t, true>}},
                             {{&exec_bfind<uint64_t, false>, &exec_bfind<uint64_t, true>},
                              {&exec_bfind<int64_t, false>, &exec_bfind<int64_t, true>}}};
      b.out.fn = fns[is64][isa::ptx::is_signed(t)][sa];
      b.out.o[0] = b.dst(0, 32);
      b.out.o[1] = b.src(1, t);
      return;
    }
    case Op::fns:
      b.only_mods({});
      need(t == Type::B32, "fns takes .b32");
      b.out.fn = exec_fns;
      b.out.o[0] = b.dst(0, 32);
      b.out.o[1] = b.src(1, Type::B32);
      b.out.o[2] = b.src(2, Type::B32);
      b.out.o[3] = b.src(3, Type::S32);
      return;
    case Op::brev:
      b.only_mods({});
      b32_64();
      b.out.fn = is64 ? &exec_brev<uint64_t> : &exec_brev<uint32_t>;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      return;
    case Op::bfe:
      b.only_mods({});
      need(t == Type::U32 || t == Type::U64 || t == Type::S32 || t == Type::S64, "type must be .u32 .u64 .s32 .s64");
      b.out.fn = t == Type::U32 ? &exec_bfe<uint32_t> : t == Type::S32 ? &exec_bfe<int32_t>
               : t == Type::U64 ? &exec_bfe<uint64_t> : &exec_bfe<int64_t>;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, Type::U32);
      b.out.o[3] = b.src(3, Type::U32);
      return;
    case Op::bfi: {
      b.only_mods({});
      b32_64();
      b.out.fn = is64 ? &exec_bfi<uint64_t> : &exec_bfi<uint32_t>;
      b.out.o[0] = b.dst(0, w);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, t);
      b.out.o[3] = b.src(3, Type::U32);
      ExecOperand e;
      e.ref = b.src(4, Type::U32);
      b.out.first_op = b.push(e);
      b.out.nops = 1;
      return;
    }
    case Op::szext: {
      b.only_mods({Mod::clamp, Mod::wrap});
      need(t == Type::U32 || t == Type::S32, "szext takes .u32 or .s32");
      need(b.has(Mod::clamp) != b.has(Mod::wrap), "needs exactly one of .clamp, .wrap");
      const bool s = t == Type::S32, cl = b.has(Mod::clamp);
      b.out.fn = s ? (cl ? &exec_szext<true, true> : &exec_szext<true, false>)
                   : (cl ? &exec_szext<false, true> : &exec_szext<false, false>);
      b.out.o[0] = b.dst(0, 32);
      b.out.o[1] = b.src(1, t);
      b.out.o[2] = b.src(2, Type::U32);
      return;
    }
    case Op::bmsk:
      b.only_mods({Mod::clamp, Mod::wrap});
      need(t == Type::B32, "bmsk takes .b32");
      need(b.has(Mod::clamp) != b.has(Mod::wrap), "needs exactly one of .clamp, .wrap");
      b.out.fn = b.has(Mod::clamp) ? &exec_bmsk<true> : &exec_bmsk<false>;
      b.out.o[0] = b.dst(0, 32);
      b.out.o[1] = b.src(1, Type::U32);
      b.out.o[2] = b.src(2, Type::U32);
      return;
    default:
      b.fail("internal: not an int_bits row");
  }
}

}  // namespace tcsim::sim
