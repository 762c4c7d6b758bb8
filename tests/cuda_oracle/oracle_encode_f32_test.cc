// f32 -> every narrower format, through cvt_float (the PTX interpreter's path), against CUDA's host
// conversion functions, on one input set: every rounding tie and its neighbours for every target
// format, special values, powers of two, a strided sweep over all 2^32 patterns and random ones
// (oracle_util.h f32_inputs()).
#include "models/formats/convert.h"
#include "oracle_util.h"

using namespace tcsim::models;
using namespace oracle;

namespace {

const std::vector<uint32_t>& inputs() {
  static const std::vector<uint32_t> v = f32_inputs(/*stride=*/1031, /*n_random=*/1'500'000);
  return v;
}

CvtMods mods(Round r, bool sat = false) {
  CvtMods m;
  m.rnd = r;
  m.satfinite = sat;
  return m;
}

}  // namespace

TEST_CASE("f32 -> f16, rn/rz/rm/rp vs __float2half_rn/_rz/_rd/_ru") {
  Tally rn("f32 -> f16 rn (__float2half_rn)"), rz("f32 -> f16 rz (__float2half_rz)");
  Tally rd("f32 -> f16 rm (__float2half_rd)"), ru("f32 -> f16 rp (__float2half_ru)");
  for (uint32_t u : inputs()) {
    const float x = bitsf(u);
    rn.check(bits_of(__float2half_rn(x)), cvt_float(DType::F16, DType::F32, u, mods(Round::RN)), u);
    rz.check(bits_of(__float2half_rz(x)), cvt_float(DType::F16, DType::F32, u, mods(Round::RZ)), u);
    rd.check(bits_of(__float2half_rd(x)), cvt_float(DType::F16, DType::F32, u, mods(Round::RM)), u);
    ru.check(bits_of(__float2half_ru(x)), cvt_float(DType::F16, DType::F32, u, mods(Round::RP)), u);
  }
  rn.report();
  rz.report();
  rd.report();
  ru.report();
}

TEST_CASE("f32 -> bf16, rn/rz/rm/rp vs __float2bfloat16_rn/_rz/_rd/_ru") {
  Tally rn("f32 -> bf16 rn (__float2bfloat16_rn)"), rz("f32 -> bf16 rz (__float2bfloat16_rz)");
  Tally rd("f32 -> bf16 rm (__float2bfloat16_rd)"), ru("f32 -> bf16 rp (__float2bfloat16_ru)");
  for (uint32_t u : inputs()) {
    const float x = bitsf(u);
    rn.check(bits_of(__float2bfloat16_rn(x)), cvt_float(DType::BF16, DType::F32, u, mods(Round::RN)), u);
    rz.check(bits_of(__float2bfloat16_rz(x)), cvt_float(DType::BF16, DType::F32, u, mods(Round::RZ)), u);
    rd.check(bits_of(__float2bfloat16_rd(x)), cvt_float(DType::BF16, DType::F32, u, mods(Round::RM)), u);
    ru.check(bits_of(__float2bfloat16_ru(x)), cvt_float(DType::BF16, DType::F32, u, mods(Round::RP)), u);
  }
  rn.report();
  rz.report();
  rd.report();
  ru.report();
}

TEST_CASE("f32 -> e4m3/e5m2, satfinite and not, vs __nv_cvt_float_to_fp8") {
  Tally e4s("f32 -> e4m3 rn satfinite (__nv_cvt_float_to_fp8 __NV_SATFINITE)");
  Tally e4n("f32 -> e4m3 rn (__nv_cvt_float_to_fp8 __NV_NOSAT)");
  Tally e5s("f32 -> e5m2 rn satfinite (__nv_cvt_float_to_fp8 __NV_SATFINITE)");
  Tally e5n("f32 -> e5m2 rn (__nv_cvt_float_to_fp8 __NV_NOSAT)");
  for (uint32_t u : inputs()) {
    const float x = bitsf(u);
    e4s.check(__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3), cvt_float(DType::E4M3, DType::F32, u, mods(Round::RN, true)), u);
    e4n.check(__nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3), cvt_float(DType::E4M3, DType::F32, u, mods(Round::RN)), u);
    e5s.check(__nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2), cvt_float(DType::E5M2, DType::F32, u, mods(Round::RN, true)), u);
    e5n.check(__nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2), cvt_float(DType::E5M2, DType::F32, u, mods(Round::RN)), u);
  }
  e4s.report();
  e4n.report();
  e5s.report();
  e5n.report();
}

TEST_CASE("f32 -> e2m3/e3m2/e2m1, rn and rz, vs __nv_cvt_float_to_fp6 / __nv_cvt_float_to_fp4") {
  Tally a("f32 -> e2m3 rn (__nv_cvt_float_to_fp6 cudaRoundNearest)");
  Tally b("f32 -> e2m3 rz (__nv_cvt_float_to_fp6 cudaRoundZero)");
  Tally c("f32 -> e3m2 rn (__nv_cvt_float_to_fp6 cudaRoundNearest)");
  Tally d("f32 -> e3m2 rz (__nv_cvt_float_to_fp6 cudaRoundZero)");
  Tally e("f32 -> e2m1 rn (__nv_cvt_float_to_fp4 cudaRoundNearest)");
  Tally f("f32 -> e2m1 rz (__nv_cvt_float_to_fp4 cudaRoundZero)");
  const CvtMods rn = mods(Round::RN, true), rz = mods(Round::RZ, true);
  for (uint32_t u : inputs()) {
    const float x = bitsf(u);
    a.check(__nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest), cvt_float(DType::E2M3, DType::F32, u, rn), u);
    b.check(__nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundZero), cvt_float(DType::E2M3, DType::F32, u, rz), u);
    c.check(__nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest), cvt_float(DType::E3M2, DType::F32, u, rn), u);
    d.check(__nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundZero), cvt_float(DType::E3M2, DType::F32, u, rz), u);
    e.check(__nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest), cvt_float(DType::E2M1, DType::F32, u, rn), u);
    f.check(__nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundZero), cvt_float(DType::E2M1, DType::F32, u, rz), u);
  }
  for (const Tally* t : {&a, &b, &c, &d, &e, &f}) t->report();
}

TEST_CASE("f32 -> ue8m0, rz/rp, satfinite and not, vs __nv_cvt_float_to_e8m0") {
  Tally zs("f32 -> ue8m0 rz satfinite (__nv_cvt_float_to_e8m0)");
  Tally zn("f32 -> ue8m0 rz (__nv_cvt_float_to_e8m0 __NV_NOSAT)");
  Tally ps("f32 -> ue8m0 rp satfinite (__nv_cvt_float_to_e8m0)");
  Tally pn("f32 -> ue8m0 rp (__nv_cvt_float_to_e8m0 __NV_NOSAT)");
  for (uint32_t u : inputs()) {
    const float x = bitsf(u);
    zs.check(__nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundZero), cvt_float(DType::UE8M0, DType::F32, u, mods(Round::RZ, true)), u);
    zn.check(__nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundZero), cvt_float(DType::UE8M0, DType::F32, u, mods(Round::RZ)), u);
    ps.check(__nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf), cvt_float(DType::UE8M0, DType::F32, u, mods(Round::RP, true)), u);
    pn.check(__nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundPosInf), cvt_float(DType::UE8M0, DType::F32, u, mods(Round::RP)), u);
  }
  zs.report();
  zn.report();
  ps.report();
  pn.report();
}
