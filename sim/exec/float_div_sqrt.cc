// PTX ISA §9.7.3 Floating-Point Instructions: div, rcp, sqrt (IEEE-rounded forms):
//   div.rnd{.ftz}.f32 d, a, b;   div.rnd.f64 d, a, b;     .rnd = { .rn, .rz, .rm, .rp }
//   rcp.rnd{.ftz}.f32 d, a;      rcp.rnd.f64 d, a;
//   sqrt.rnd{.ftz}.f32 d, a;     sqrt.rnd.f64 d, a;
// The .approx / .full forms (div.approx.f32, div.full.f32, rcp.approx*, sqrt.approx.f32) are not
// IEEE-exact by definition and are bound by the approx family (float_approx.cc).
// Results are correctly rounded in every mode (fp_util.h HostRounding); .ftz flushes subnormal
// inputs and results; NaN results: f32 canonical, f64 propagated (fp_util.h fp::result).
#include <cmath>

#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/fp_util.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using fp::Rnd;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class DOp { Div, Rcp, Sqrt };

template <class T, DOp O, Rnd R, bool Ftz>
void exec_fdiv(ExecCtx& c, const ExecInstr& in) {
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = O == DOp::Div ? c.src(in.o[2]) : nullptr;
  fp::HostRounding scope(R);
  for_lanes(c.mask, [&](int i) {
    T x = as<T>(a[i]);
    T y = O == DOp::Div ? as<T>(b[i]) : T(1);
    if constexpr (Ftz) {
      x = fp::ftz(x);
      y = fp::ftz(y);
    }
    T one = T(1);
    fp::fp_barrier(x);
    fp::fp_barrier(y);
    fp::fp_barrier(one);
    T r;
    if constexpr (O == DOp::Div) r = x / y;
    else if constexpr (O == DOp::Rcp) r = one / x;
    else r = std::sqrt(x);
    fp::fp_barrier(r);
    if constexpr (Ftz) r = fp::ftz(r);
    d[i] = fp::result<T>(r, 1 + (O == DOp::Div), a[i], b ? b[i] : 0);
  });
}

template <class T, DOp O>
ExecFn pick(Rnd r, bool ftz) {
  switch (r) {
    case Rnd::RN: return ftz ? &exec_fdiv<T, O, Rnd::RN, true> : &exec_fdiv<T, O, Rnd::RN, false>;
    case Rnd::RZ: return ftz ? &exec_fdiv<T, O, Rnd::RZ, true> : &exec_fdiv<T, O, Rnd::RZ, false>;
    case Rnd::RM: return ftz ? &exec_fdiv<T, O, Rnd::RM, true> : &exec_fdiv<T, O, Rnd::RM, false>;
    case Rnd::RP: return ftz ? &exec_fdiv<T, O, Rnd::RP, true> : &exec_fdiv<T, O, Rnd::RP, false>;
  }
  return nullptr;
}

}  // namespace

void bind_float_div_sqrt(BindCtx& b) {
  using isa::ptx::Op;
  using isa::ptx::Rounding;
  const Type t = b.type(0);
  if (t != Type::F32 && t != Type::F64) b.fail(fmt::format("type .{} is not .f32 or .f64", isa::ptx::type_name(t)));
  b.only_mods({Mod::ftz, Mod::approx, Mod::full});
  if (b.has(Mod::approx) || b.has(Mod::full)) return bind_float_approx(b);
  const Rounding rr = b.in.rnd;
  if (rr != Rounding::RN && rr != Rounding::RZ && rr != Rounding::RM && rr != Rounding::RP)
    b.fail("IEEE div/rcp/sqrt need a rounding modifier .rn, .rz, .rm or .rp (or .approx)");
  const bool f32 = t == Type::F32, ftz = b.has(Mod::ftz);
  if (!f32 && ftz) b.fail(".ftz applies to .f32 only");
  const Rnd r = fp::from_ptx(rr);
  const Op op = b.in.op;
  const DOp o = op == Op::div_float ? DOp::Div : op == Op::rcp ? DOp::Rcp : DOp::Sqrt;
  switch (o) {
    case DOp::Div: b.out.fn = f32 ? pick<float, DOp::Div>(r, ftz) : pick<double, DOp::Div>(r, false); break;
    case DOp::Rcp: b.out.fn = f32 ? pick<float, DOp::Rcp>(r, ftz) : pick<double, DOp::Rcp>(r, false); break;
    case DOp::Sqrt: b.out.fn = f32 ? pick<float, DOp::Sqrt>(r, ftz) : pick<double, DOp::Sqrt>(r, false); break;
  }
  const int w = f32 ? 32 : 64;
  b.out.timing = static_cast<uint8_t>(f32 ? isa::ptx::Timing::Sfu : isa::ptx::Timing::Fp64);
  b.out.o[0] = b.dst(0, w);
  b.out.o[1] = b.src(1, t);
  if (o == DOp::Div) b.out.o[2] = b.src(2, t);
}

}  // namespace tcsim::sim
