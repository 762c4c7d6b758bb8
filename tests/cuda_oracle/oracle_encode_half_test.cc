// Every f16 and every bf16 code converted to e4m3/e5m2/e2m3/e3m2/e2m1 (and bf16 to ue8m0), and to
// every integer type with .rzi, against CUDA's host functions.
#include "models/formats/convert.h"
#include "oracle_util.h"

using namespace tcsim::models;
using namespace oracle;

namespace {
CvtMods mods(Round r, bool sat = false) {
  CvtMods m;
  m.rnd = r;
  m.satfinite = sat;
  return m;
}
}  // namespace

TEST_CASE("every f16 and bf16 code -> e4m3/e5m2 (sat, nosat) vs __nv_cvt_halfraw/bfloat16raw_to_fp8") {
  Tally h("f16 -> e4m3/e5m2 x sat/nosat (__nv_cvt_halfraw_to_fp8)");
  Tally b("bf16 -> e4m3/e5m2 x sat/nosat (__nv_cvt_bfloat16raw_to_fp8)");
  for (unsigned c = 0; c < 65536; ++c) {
    __half_raw hr;
    hr.x = static_cast<unsigned short>(c);
    __nv_bfloat16_raw br;
    br.x = static_cast<unsigned short>(c);
    for (auto [interp, t] : {std::pair{__NV_E4M3, DType::E4M3}, std::pair{__NV_E5M2, DType::E5M2}}) {
      for (auto [sat, s] : {std::pair{__NV_SATFINITE, true}, std::pair{__NV_NOSAT, false}}) {
        h.check(__nv_cvt_halfraw_to_fp8(hr, sat, interp), cvt_float(t, DType::F16, c, mods(Round::RN, s)), c);
        b.check(__nv_cvt_bfloat16raw_to_fp8(br, sat, interp), cvt_float(t, DType::BF16, c, mods(Round::RN, s)), c);
      }
    }
  }
  h.report();
  b.report();
}

TEST_CASE("every f16 and bf16 code -> e2m3/e3m2/e2m1 (rn, rz) vs __nv_cvt_*raw_to_fp6 / _to_fp4") {
  Tally h6("f16 -> e2m3/e3m2 x rn/rz (__nv_cvt_halfraw_to_fp6)");
  Tally b6("bf16 -> e2m3/e3m2 x rn/rz (__nv_cvt_bfloat16raw_to_fp6)");
  Tally h4("f16 -> e2m1 x rn/rz (__nv_cvt_halfraw_to_fp4)");
  Tally b4("bf16 -> e2m1 x rn/rz (__nv_cvt_bfloat16raw_to_fp4)");
  for (unsigned c = 0; c < 65536; ++c) {
    __half_raw hr;
    hr.x = static_cast<unsigned short>(c);
    __nv_bfloat16_raw br;
    br.x = static_cast<unsigned short>(c);
    for (auto [rm, r] : {std::pair{cudaRoundNearest, Round::RN}, std::pair{cudaRoundZero, Round::RZ}}) {
      for (auto [interp, t] : {std::pair{__NV_E2M3, DType::E2M3}, std::pair{__NV_E3M2, DType::E3M2}}) {
        h6.check(__nv_cvt_halfraw_to_fp6(hr, interp, rm), cvt_float(t, DType::F16, c, mods(r, true)), c);
        b6.check(__nv_cvt_bfloat16raw_to_fp6(br, interp, rm), cvt_float(t, DType::BF16, c, mods(r, true)), c);
      }
      h4.check(__nv_cvt_halfraw_to_fp4(hr, __NV_E2M1, rm), cvt_float(DType::E2M1, DType::F16, c, mods(r, true)), c);
      b4.check(__nv_cvt_bfloat16raw_to_fp4(br, __NV_E2M1, rm), cvt_float(DType::E2M1, DType::BF16, c, mods(r, true)), c);
    }
  }
  h6.report();
  b6.report();
  h4.report();
  b4.report();
}

TEST_CASE("every bf16 code -> ue8m0 (rz, rp, sat, nosat) vs __nv_cvt_bfloat16raw_to_e8m0") {
  Tally t("bf16 -> ue8m0 x rz/rp x sat/nosat (__nv_cvt_bfloat16raw_to_e8m0)");
  for (unsigned c = 0; c < 65536; ++c) {
    __nv_bfloat16_raw br;
    br.x = static_cast<unsigned short>(c);
    for (auto [rm, r] : {std::pair{cudaRoundZero, Round::RZ}, std::pair{cudaRoundPosInf, Round::RP}})
      for (auto [sat, s] : {std::pair{__NV_SATFINITE, true}, std::pair{__NV_NOSAT, false}})
        t.check(__nv_cvt_bfloat16raw_to_e8m0(br, sat, rm), cvt_float(DType::UE8M0, DType::BF16, c, mods(r, s)), c);
  }
  t.report();
}

TEST_CASE("every f16 and bf16 code -> s8..u64 with .rzi vs __half2*_rz / __bfloat162*_rz") {
  Tally h("f16 -> {s8,u8,s16,u16,s32,u32,s64,u64} rzi (__half2char_rz ... __half2ull_rz)");
  Tally b("bf16 -> {s8,...,u64} rzi (__bfloat162char_rz ... __bfloat162ull_rz)");
  const CvtMods rz = mods(Round::RZ);
  for (unsigned c = 0; c < 65536; ++c) {
    const __half x = half_of(static_cast<uint16_t>(c));
    const __nv_bfloat16 y = bf16_of(static_cast<uint16_t>(c));
    auto mask = [](long long v, int bits) { return static_cast<uint64_t>(v) & (bits == 64 ? ~0ull : (1ull << bits) - 1); };
    h.check(mask(__half2char_rz(x), 8), cvt_float_to_int(DType::S8, DType::F16, c, rz), c);
    h.check(__half2uchar_rz(x), cvt_float_to_int(DType::U8, DType::F16, c, rz), c);
    h.check(mask(__half2short_rz(x), 16), cvt_float_to_int(DType::S16, DType::F16, c, rz), c);
    h.check(__half2ushort_rz(x), cvt_float_to_int(DType::U16, DType::F16, c, rz), c);
    h.check(mask(__half2int_rz(x), 32), cvt_float_to_int(DType::S32, DType::F16, c, rz), c);
    h.check(__half2uint_rz(x), cvt_float_to_int(DType::U32, DType::F16, c, rz), c);
    h.check(mask(__half2ll_rz(x), 64), cvt_float_to_int(DType::S64, DType::F16, c, rz), c);
    h.check(__half2ull_rz(x), cvt_float_to_int(DType::U64, DType::F16, c, rz), c);
    b.check(mask(__bfloat162char_rz(y), 8), cvt_float_to_int(DType::S8, DType::BF16, c, rz), c);
    b.check(__bfloat162uchar_rz(y), cvt_float_to_int(DType::U8, DType::BF16, c, rz), c);
    b.check(mask(__bfloat162short_rz(y), 16), cvt_float_to_int(DType::S16, DType::BF16, c, rz), c);
    b.check(__bfloat162ushort_rz(y), cvt_float_to_int(DType::U16, DType::BF16, c, rz), c);
    b.check(mask(__bfloat162int_rz(y), 32), cvt_float_to_int(DType::S32, DType::BF16, c, rz), c);
    b.check(__bfloat162uint_rz(y), cvt_float_to_int(DType::U32, DType::BF16, c, rz), c);
    b.check(mask(__bfloat162ll_rz(y), 64), cvt_float_to_int(DType::S64, DType::BF16, c, rz), c);
    b.check(__bfloat162ull_rz(y), cvt_float_to_int(DType::U64, DType::BF16, c, rz), c);
  }
  h.report();
  b.report();
}
