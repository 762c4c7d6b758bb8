// PTX ISA §9.7.1.23-24 Integer Arithmetic Instructions: dp4a, dp2a
//   dp4a.atype.btype d, a, b, c;         .atype = .btype = { .u32, .s32 }
//   dp2a.mode.atype.btype d, a, b, c;    .mode = { .lo, .hi }
// dp4a: d = c + sum_{i<4} a.byte[i] * b.byte[i]; dp2a: d = c + sum_{i<2} a.half[i] * b.byte[s + i]
// with s = 0 (.lo) or 2 (.hi). Each element is sign- or zero-extended by its operand's type; c is
// .u32 when both types are .u32, .s32 otherwise. The sum wraps modulo 2^32 (d is 32 bits; the
// products and partial sums of sign-extended elements are exact in 64 bits).
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::Mod;
using isa::ptx::Type;

template <bool S>
inline int64_t byte_of(uint64_t v, int i) {
  const uint8_t x = static_cast<uint8_t>(v >> (8 * i));
  return S ? int64_t{static_cast<int8_t>(x)} : int64_t{x};
}
template <bool S>
inline int64_t half_of(uint64_t v, int i) {
  const uint16_t x = static_cast<uint16_t>(v >> (16 * i));
  return S ? int64_t{static_cast<int16_t>(x)} : int64_t{x};
}

template <bool SA, bool SB>
void exec_dp4a(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    int64_t s = 0;
    for (int k = 0; k < 4; ++k) s += byte_of<SA>(a[i], k) * byte_of<SB>(b[i], k);
    return static_cast<uint32_t>(static_cast<uint64_t>(s) + e[i]);
  });
}

template <bool SA, bool SB, bool Hi>
void exec_dp2a(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    int64_t s = 0;
    for (int k = 0; k < 2; ++k) s += half_of<SA>(a[i], k) * byte_of<SB>(b[i], (Hi ? 2 : 0) + k);
    return static_cast<uint32_t>(static_cast<uint64_t>(s) + e[i]);
  });
}

}  // namespace

void bind_int_dot(BindCtx& b) {
  using isa::ptx::Op;
  const bool dp2 = b.in.op == Op::dp2a;
  const Type ta = b.type(0), tb = b.type(1);
  auto ok_type = [](Type t) { return t == Type::U32 || t == Type::S32; };
  if (!ok_type(ta) || !ok_type(tb) || b.in.ntypes != 2)
    b.fail(fmt::format("{} needs two types, each .u32 or .s32 (e.g. {}.s32.u32)", dp2 ? "dp2a.mode" : "dp4a", dp2 ? "dp2a.lo" : "dp4a"));
  const bool sa = ta == Type::S32, sb = tb == Type::S32;
  if (dp2) {
    b.only_mods({Mod::lo, Mod::hi});
    if (b.has(Mod::lo) == b.has(Mod::hi)) b.fail("dp2a needs exactly one of .lo and .hi");
    const bool hi = b.has(Mod::hi);
#define DP2(A, B) (hi ? &exec_dp2a<A, B, true> : &exec_dp2a<A, B, false>)
    b.out.fn = sa ? (sb ? DP2(true, true) : DP2(true, false)) : (sb ? DP2(false, true) : DP2(false, false));
#undef DP2
  } else {
    b.only_mods({});
    b.out.fn = sa ? (sb ? &exec_dp4a<true, true> : &exec_dp4a<true, false>)
                  : (sb ? &exec_dp4a<false, true> : &exec_dp4a<false, false>);
  }
  const Type ct = sa || sb ? Type::S32 : Type::U32;
  b.out.o[0] = b.dst(0, 32);
  b.out.o[1] = b.src(1, ta);
  b.out.o[2] = b.src(2, tb);
  b.out.o[3] = b.src(3, ct);
}

}  // namespace tcsim::sim
