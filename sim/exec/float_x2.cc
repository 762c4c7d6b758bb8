// PTX ISA §9.7.3 Floating-Point Instructions, the packed .f32x2 forms (PTX ISA 8.6, sm_100+):
//   add{.rnd}{.ftz}.f32x2 d, a, b;   sub{.rnd}{.ftz}.f32x2 d, a, b;   mul{.rnd}{.ftz}.f32x2 d, a, b;
//   fma.rnd{.ftz}.f32x2 d, a, b, c;  .rnd = { .rn, .rz, .rm, .rp } (default .rn; fma has no default)
// Operands are .b64: lane 0 = bits 31..0, lane 1 = bits 63..32 (fA[0] = a[0:31], fA[1] = a[32:63]);
// each lane is the .f32 operation, correctly rounded in the given mode (fp_util.h HostRounding),
// .ftz flushing subnormal inputs and results. There is no .sat for .f32x2. NaN results: the
// canonical NaN 0x7fffffff per lane, as for .f32 (H200 rule; no Blackwell golden yet: ASSUMED).
#include <cmath>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/float_forms.h"
#include "sim/exec/fp_util.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using fp::Rnd;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class XOp { Add, Sub, Mul, Fma };

template <XOp O, bool Ftz>
inline uint64_t lane_op(uint32_t a, uint32_t b, uint32_t c) {
  float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b), z = std::bit_cast<float>(c);
  if constexpr (Ftz) {
    x = fp::ftz(x);
    y = fp::ftz(y);
    z = fp::ftz(z);
  }
  fp::fp_barrier(x);
  fp::fp_barrier(y);
  fp::fp_barrier(z);
  float r;
  if constexpr (O == XOp::Add) r = x + y;
  else if constexpr (O == XOp::Sub) r = x - y;
  else if constexpr (O == XOp::Mul) r = x * y;
  else r = std::fma(x, y, z);
  fp::fp_barrier(r);
  if constexpr (Ftz) r = fp::ftz(r);
  return fp::canon(r);
}

template <XOp O, Rnd R, bool Ftz>
void exec_fx2(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = O == XOp::Fma ? c.src(in.o[3]) : b;
  fp::HostRounding scope(R);
  for_lanes(c.mask, [&](int i) {
    const uint64_t lo = lane_op<O, Ftz>(static_cast<uint32_t>(a[i]), static_cast<uint32_t>(b[i]), static_cast<uint32_t>(e[i]));
    const uint64_t hi = lane_op<O, Ftz>(static_cast<uint32_t>(a[i] >> 32), static_cast<uint32_t>(b[i] >> 32),
                                        static_cast<uint32_t>(e[i] >> 32));
    d[i] = hi << 32 | lo;
  });
}

template <XOp O>
ExecFn pick(Rnd r, bool ftz) {
  switch (r) {
    case Rnd::RN: return ftz ? &exec_fx2<O, Rnd::RN, true> : &exec_fx2<O, Rnd::RN, false>;
    case Rnd::RZ: return ftz ? &exec_fx2<O, Rnd::RZ, true> : &exec_fx2<O, Rnd::RZ, false>;
    case Rnd::RM: return ftz ? &exec_fx2<O, Rnd::RM, true> : &exec_fx2<O, Rnd::RM, false>;
    case Rnd::RP: return ftz ? &exec_fx2<O, Rnd::RP, true> : &exec_fx2<O, Rnd::RP, false>;
  }
  return nullptr;
}

}  // namespace

void bind_float_x2(BindCtx& b) {
  using isa::ptx::Op;
  using isa::ptx::Rounding;
  const Op op = b.in.op;
  b.only_mods({Mod::ftz});
  const Rounding rr = b.in.rnd;
  if (!(rr == Rounding::None || rr == Rounding::RN || rr == Rounding::RZ || rr == Rounding::RM || rr == Rounding::RP))
    b.fail("the rounding modifier must be .rn, .rz, .rm or .rp");
  if (b.in.ntypes != 1) b.fail(".f32x2 arithmetic takes a single type");
  const bool ftz = b.has(Mod::ftz);
  const Rnd r = fp::from_ptx(rr);
  ExecFn fn = nullptr;
  switch (op) {
    case Op::add_float: fn = pick<XOp::Add>(r, ftz); break;
    case Op::sub_float: fn = pick<XOp::Sub>(r, ftz); break;
    case Op::mul_float: fn = pick<XOp::Mul>(r, ftz); break;
    case Op::fma_float:
      if (rr == Rounding::None) b.fail("fma.f32x2 needs a rounding modifier (.rn, .rz, .rm, .rp)");
      fn = pick<XOp::Fma>(r, ftz);
      break;
    default: b.fail(fmt::format("{} has no .f32x2 form (add, sub, mul and fma do)", isa::ptx::op_mnemonic(op)));
  }
  b.out.fn = fn;
  b.out.o[0] = b.dst(0, 64);
  b.out.o[1] = b.src(1, Type::B64);
  b.out.o[2] = b.src(2, Type::B64);
  if (op == Op::fma_float) b.out.o[3] = b.src(3, Type::B64);
}

}  // namespace tcsim::sim
