// PTX ISA §9.7.5 Mixed Precision Floating-Point Instructions (PTX ISA 8.6, sm_100+):
//   add{.rnd}{.sat}.f32.atype d, a, c;     d = convert(a) + c
//   sub{.rnd}{.sat}.f32.atype d, a, c;     d = convert(a) - c
//   fma.rnd{.sat}.f32.abtype d, a, b, c;   d = convert(a) * convert(b) + c   (one rounding)
//   .atype = .abtype = { .f16, .bf16 };  .rnd = { .rn, .rz, .rm, .rp } (add/sub default .rn)
// a (and b) are 16-bit f16/bf16 operands, c and d are .f32. Every f16/bf16 value is exactly an f32,
// so convert() is exact and each form is the .f32 operation on the widened operands, correctly
// rounded in the given mode (fp_util.h HostRounding; fma through std::fma). Subnormals are kept;
// .sat clamps to [0, 1] with NaN -> +0. NaN results: the canonical f32 NaN 0x7fffffff (H200 .f32
// rule, ASSUMED for these sm_100 forms).
#include <cmath>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/float_forms.h"
#include "sim/exec/fp_util.h"
#include "sim/exec/half_util.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using fp::Rnd;
using half::Fmt;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class MOp { Add, Sub, Fma };

template <Fmt F>
inline float widen(uint64_t h) {
  return static_cast<float>(half::to_double<F>(static_cast<uint16_t>(h)));  // exact
}

template <Fmt F, MOp O, Rnd R, bool Sat>
void exec_fmixed(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = O == MOp::Fma ? c.src(in.o[3]) : b;
  fp::HostRounding scope(R);
  for_lanes(c.mask, [&](int i) {
    float x = widen<F>(a[i]);
    float y = O == MOp::Fma ? widen<F>(b[i]) : as<float>(b[i]);
    float z = as<float>(e[i]);
    fp::fp_barrier(x);
    fp::fp_barrier(y);
    fp::fp_barrier(z);
    float r;
    if constexpr (O == MOp::Add) r = x + y;
    else if constexpr (O == MOp::Sub) r = x - y;
    else r = std::fma(x, y, z);
    fp::fp_barrier(r);
    if constexpr (Sat) r = fp::sat01(r);
    d[i] = fp::canon(r);
  });
}

template <Fmt F, MOp O, Rnd R>
ExecFn pick_sat(bool sat) {
  return sat ? &exec_fmixed<F, O, R, true> : &exec_fmixed<F, O, R, false>;
}
template <Fmt F, MOp O>
ExecFn pick(Rnd r, bool sat) {
  switch (r) {
    case Rnd::RN: return pick_sat<F, O, Rnd::RN>(sat);
    case Rnd::RZ: return pick_sat<F, O, Rnd::RZ>(sat);
    case Rnd::RM: return pick_sat<F, O, Rnd::RM>(sat);
    case Rnd::RP: return pick_sat<F, O, Rnd::RP>(sat);
  }
  return nullptr;
}
template <MOp O>
ExecFn pick_fmt(bool bf, Rnd r, bool sat) {
  return bf ? pick<Fmt::BF16, O>(r, sat) : pick<Fmt::F16, O>(r, sat);
}

}  // namespace

void bind_float_mixed(BindCtx& b) {
  using isa::ptx::Op;
  using isa::ptx::Rounding;
  const Op op = b.in.op;
  const Type st = b.type(1);
  if (b.type(0) != Type::F32 || (st != Type::F16 && st != Type::BF16) || b.in.ntypes != 2)
    b.fail("mixed-precision forms are .f32.f16 and .f32.bf16");
  b.only_mods({Mod::sat});
  const Rounding rr = b.in.rnd;
  if (!(rr == Rounding::None || rr == Rounding::RN || rr == Rounding::RZ || rr == Rounding::RM || rr == Rounding::RP))
    b.fail("the rounding modifier must be .rn, .rz, .rm or .rp");
  const bool bf = st == Type::BF16, sat = b.has(Mod::sat);
  const Rnd r = fp::from_ptx(rr);
  ExecFn fn = nullptr;
  switch (op) {
    case Op::add_float: fn = pick_fmt<MOp::Add>(bf, r, sat); break;
    case Op::sub_float: fn = pick_fmt<MOp::Sub>(bf, r, sat); break;
    case Op::fma_float:
      if (rr == Rounding::None) b.fail("fma.f32.{f16,bf16} needs a rounding modifier (.rn, .rz, .rm, .rp)");
      fn = pick_fmt<MOp::Fma>(bf, r, sat);
      break;
    default:
      b.fail(fmt::format("{} has no mixed-precision form (add, sub and fma do)", isa::ptx::op_mnemonic(op)));
  }
  const bool fma = op == Op::fma_float;
  b.out.fn = fn;
  b.out.o[0] = b.dst(0, 32);
  b.out.o[1] = b.src(1, st);
  b.out.o[2] = b.src(2, fma ? st : Type::F32);
  if (fma) b.out.o[3] = b.src(3, Type::F32);
}

}  // namespace tcsim::sim
