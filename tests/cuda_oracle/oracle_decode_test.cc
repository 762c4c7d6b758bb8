// Every code of every narrow format, and every f16 and bf16 code, decoded by tcsim and by CUDA's
// host conversion functions, compared bit for bit.
#include <cmath>

#include "models/formats/convert.h"
#include "oracle_util.h"

using namespace tcsim::models;
using namespace oracle;

namespace {
const CvtMods kRn{};
}

TEST_CASE("decode: every e4m3/e5m2 code vs __nv_cvt_fp8_to_halfraw") {
  Tally e4("e4m3 -> f16 (__nv_cvt_fp8_to_halfraw, __NV_E4M3)");
  Tally e5("e5m2 -> f16 (__nv_cvt_fp8_to_halfraw, __NV_E5M2)");
  Tally val("fp8 to_double() vs __half2float(__nv_cvt_fp8_to_halfraw) (non-NaN; NaN: both NaN)");
  for (unsigned c = 0; c < 256; ++c) {
    const auto c8 = static_cast<__nv_fp8_storage_t>(c);
    const uint16_t h4 = __nv_cvt_fp8_to_halfraw(c8, __NV_E4M3).x;
    const uint16_t h5 = __nv_cvt_fp8_to_halfraw(c8, __NV_E5M2).x;
    e4.check(h4, cvt_float(DType::F16, DType::E4M3, c, kRn), c);
    e5.check(h5, cvt_float(DType::F16, DType::E5M2, c, kRn), c);
    for (auto [t, h] : {std::pair{DType::E4M3, h4}, std::pair{DType::E5M2, h5}}) {
      const double cuda = __half2float(half_of(h));
      const double ours = to_double(t, c);
      val.check(std::isnan(cuda) ? 1 : dbits(cuda), std::isnan(ours) ? 1 : dbits(ours), c);
    }
  }
  e4.report();
  e5.report();
  val.report();
}

TEST_CASE("decode: every e2m3/e3m2/e2m1 code vs __nv_cvt_fp6_to_halfraw / __nv_cvt_fp4_to_halfraw") {
  Tally e23("e2m3 -> f16 (__nv_cvt_fp6_to_halfraw, __NV_E2M3)");
  Tally e32("e3m2 -> f16 (__nv_cvt_fp6_to_halfraw, __NV_E3M2)");
  Tally e21("e2m1 -> f16 (__nv_cvt_fp4_to_halfraw)");
  Tally val("fp6/fp4 to_double() vs __half2float of CUDA's half");
  for (unsigned c = 0; c < 64; ++c) {
    const auto c6 = static_cast<__nv_fp6_storage_t>(c);
    const uint16_t h23 = __nv_cvt_fp6_to_halfraw(c6, __NV_E2M3).x;
    const uint16_t h32 = __nv_cvt_fp6_to_halfraw(c6, __NV_E3M2).x;
    e23.check(h23, cvt_float(DType::F16, DType::E2M3, c, kRn), c);
    e32.check(h32, cvt_float(DType::F16, DType::E3M2, c, kRn), c);
    val.check(dbits(__half2float(half_of(h23))), dbits(to_double(DType::E2M3, c)), c);
    val.check(dbits(__half2float(half_of(h32))), dbits(to_double(DType::E3M2, c)), c);
    if (c < 16) {
      const uint16_t h21 = __nv_cvt_fp4_to_halfraw(static_cast<__nv_fp4_storage_t>(c), __NV_E2M1).x;
      e21.check(h21, cvt_float(DType::F16, DType::E2M1, c, kRn), c);
      val.check(dbits(__half2float(half_of(h21))), dbits(to_double(DType::E2M1, c)), c);
    }
  }
  e23.report();
  e32.report();
  e21.report();
  val.report();
}

TEST_CASE("decode: every ue8m0 code vs __nv_cvt_e8m0_to_bf16raw") {
  Tally t("ue8m0 -> bf16 (__nv_cvt_e8m0_to_bf16raw)");
  for (unsigned c = 0; c < 256; ++c)
    t.check(__nv_cvt_e8m0_to_bf16raw(static_cast<__nv_fp8_storage_t>(c)).x,
            cvt_float(DType::BF16, DType::UE8M0, c, kRn), c);
  t.report();
}

TEST_CASE("decode: every f16 and bf16 code vs __half2float / __bfloat162float, and re-encoded") {
  Tally h("f16 -> f32 (__half2float)");
  Tally b("bf16 -> f32 (__bfloat162float; NaN payload kept by both)");
  Tally hr("f16 -> f32 -> f16 rn (__float2half_rn(__half2float))");
  Tally br("bf16 -> f32 -> bf16 rn (__float2bfloat16_rn(__bfloat162float))");
  for (unsigned c = 0; c < 65536; ++c) {
    const float hf = __half2float(half_of(static_cast<uint16_t>(c)));
    const float bf = __bfloat162float(bf16_of(static_cast<uint16_t>(c)));
    const uint64_t our_hf = cvt_float(DType::F32, DType::F16, c, kRn);
    const uint64_t our_bf = cvt_float(DType::F32, DType::BF16, c, kRn);
    h.check(fbits(hf), our_hf, c);
    b.check(fbits(bf), our_bf, c);
    hr.check(bits_of(__float2half_rn(hf)), cvt_float(DType::F16, DType::F32, our_hf, kRn), c);
    br.check(bits_of(__float2bfloat16_rn(bf)), cvt_float(DType::BF16, DType::F32, our_bf, kRn), c);
  }
  h.report();
  b.report();
  hr.report();
  br.report();
}
