// The x2 packed conversions against CUDA's x2 host functions. This also checks PTX's operand order:
// CUDA's device code for __nv_cvt_float2_to_fp8x2(float2 x) is "cvt.rn.satfinite.e4m3x2.f32 d, x.y,
// x.x" (a = x.y into the upper byte), so tcsim's cvt_pack_f32x2(T, a = x.y, b = x.x) must equal the
// host result whose upper byte is x.y.
#include <cmath>
#include <random>

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

// Pairs (x, y) of f32 words: every structured input in x or in y (the scalar conversions are swept
// exhaustively elsewhere; here each lane needs to see every kind of value), plus random pairs.
const std::vector<std::pair<uint32_t, uint32_t>>& f32_pairs() {
  static const auto v = [] {
    const std::vector<uint32_t>& s = f32_structured_inputs();
    std::vector<std::pair<uint32_t, uint32_t>> p;
    // Inputs come in (+v, -v) pairs: (s[4j], s[4j+1]) and (s[4j+3], s[4j+2]) put both signs in
    // both lanes.
    for (size_t i = 0; i + 3 < s.size(); i += 4) {
      p.emplace_back(s[i], s[i + 1]);
      p.emplace_back(s[i + 3], s[i + 2]);
    }
    std::mt19937 rng(99);
    for (int i = 0; i < 50'000; ++i) p.emplace_back(rng(), rng());
    return p;
  }();
  return v;
}

// 32-bit words holding two 16-bit values: every 16-bit code in each lane (paired with a random
// code in the other lane), plus random words.
const std::vector<uint32_t>& x2_words() {
  static const auto v = [] {
    std::vector<uint32_t> w;
    std::mt19937 rng(5);
    for (uint32_t c = 0; c < 65536; ++c) {
      w.push_back((c << 16) | (rng() & 0xffff));
      w.push_back(((rng() & 0xffff) << 16) | c);
    }
    for (int i = 0; i < 50'000; ++i) w.push_back(rng());
    return w;
  }();
  return v;
}

}  // namespace

TEST_CASE("two f32 -> f16x2 / bf16x2 vs __floats2half2_rn / __floats2bfloat162_rn") {
  // __floats2half2_rn(a, b) returns .x = a (low half), .y = b: PTX "cvt.rn.f16x2.f32 d, b, a".
  Tally h("f32 x2 -> f16x2 rn (__floats2half2_rn)");
  Tally b("f32 x2 -> bf16x2 rn (__floats2bfloat162_rn)");
  for (auto [x, y] : f32_pairs()) {
    const __half2 hh = __floats2half2_rn(bitsf(x), bitsf(y));
    const __nv_bfloat162 bb = __floats2bfloat162_rn(bitsf(x), bitsf(y));
    const uint64_t cuda_h = (uint64_t{bits_of(hh.y)} << 16) | bits_of(hh.x);
    const uint64_t cuda_b = (uint64_t{bits_of(bb.y)} << 16) | bits_of(bb.x);
    h.check(cuda_h, cvt_pack_f32x2(DType::F16, y, x, mods(Round::RN)), (uint64_t{x} << 32) | y);
    b.check(cuda_b, cvt_pack_f32x2(DType::BF16, y, x, mods(Round::RN)), (uint64_t{x} << 32) | y);
  }
  h.report();
  b.report();
}

TEST_CASE("two f32 -> e4m3x2/e5m2x2/e2m3x2/e3m2x2/e2m1x2/ue8m0x2 vs __nv_cvt_float2_to_*x2") {
  Tally f8("f32 x2 -> e4m3x2/e5m2x2 x sat/nosat (__nv_cvt_float2_to_fp8x2)");
  Tally f6("f32 x2 -> e2m3x2/e3m2x2 x rn/rz (__nv_cvt_float2_to_fp6x2)");
  Tally f4("f32 x2 -> e2m1x2 x rn/rz (__nv_cvt_float2_to_fp4x2)");
  Tally e8("f32 x2 -> ue8m0x2 x rz/rp x sat/nosat (__nv_cvt_float2_to_e8m0x2)");
  for (auto [x, y] : f32_pairs()) {
    const float2 v = make_float2(bitsf(x), bitsf(y));
    const uint64_t in = (uint64_t{x} << 32) | y;
    for (auto [interp, t] : {std::pair{__NV_E4M3, DType::E4M3}, std::pair{__NV_E5M2, DType::E5M2}}) {
      f8.check(__nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, interp), cvt_pack_f32x2(t, y, x, mods(Round::RN, true)), in);
      f8.check(__nv_cvt_float2_to_fp8x2(v, __NV_NOSAT, interp), cvt_pack_f32x2(t, y, x, mods(Round::RN)), in);
    }
    for (auto [rm, r] : {std::pair{cudaRoundNearest, Round::RN}, std::pair{cudaRoundZero, Round::RZ}}) {
      f6.check(__nv_cvt_float2_to_fp6x2(v, __NV_E2M3, rm), cvt_pack_f32x2(DType::E2M3, y, x, mods(r, true)), in);
      f6.check(__nv_cvt_float2_to_fp6x2(v, __NV_E3M2, rm), cvt_pack_f32x2(DType::E3M2, y, x, mods(r, true)), in);
      f4.check(__nv_cvt_float2_to_fp4x2(v, __NV_E2M1, rm), cvt_pack_f32x2(DType::E2M1, y, x, mods(r, true)), in);
    }
    for (auto [rm, r] : {std::pair{cudaRoundZero, Round::RZ}, std::pair{cudaRoundPosInf, Round::RP}})
      for (auto [sat, s] : {std::pair{__NV_SATFINITE, true}, std::pair{__NV_NOSAT, false}})
        e8.check(__nv_cvt_float2_to_e8m0x2(v, sat, rm), cvt_pack_f32x2(DType::UE8M0, y, x, mods(r, s)), in);
  }
  f8.report();
  f6.report();
  f4.report();
  e8.report();
}

TEST_CASE("f16x2/bf16x2 -> e4m3x2/e5m2x2/e2m3x2/e3m2x2/e2m1x2/ue8m0x2 vs CUDA's *raw2_to_*x2") {
  Tally f8("f16x2|bf16x2 -> e4m3x2/e5m2x2 x sat/nosat (__nv_cvt_halfraw2_to_fp8x2, __nv_cvt_bfloat16raw2_to_fp8x2)");
  Tally f6("f16x2|bf16x2 -> e2m3x2/e3m2x2 x rn/rz (__nv_cvt_halfraw2_to_fp6x2, __nv_cvt_bfloat16raw2_to_fp6x2)");
  Tally f4("f16x2|bf16x2 -> e2m1x2 x rn/rz (__nv_cvt_halfraw2_to_fp4x2, __nv_cvt_bfloat16raw2_to_fp4x2)");
  Tally e8("bf16x2 -> ue8m0x2 x rz/rp x sat/nosat (__nv_cvt_bfloat162raw_to_e8m0x2)");
  for (uint32_t w : x2_words()) {
    __half2_raw h;
    h.x = static_cast<unsigned short>(w);  // lower lane
    h.y = static_cast<unsigned short>(w >> 16);
    __nv_bfloat162_raw b;
    b.x = h.x;
    b.y = h.y;
    for (auto [interp, t] : {std::pair{__NV_E4M3, DType::E4M3}, std::pair{__NV_E5M2, DType::E5M2}}) {
      for (auto [sat, s] : {std::pair{__NV_SATFINITE, true}, std::pair{__NV_NOSAT, false}}) {
        f8.check(__nv_cvt_halfraw2_to_fp8x2(h, sat, interp), cvt_pack_x2(t, DType::F16, w, mods(Round::RN, s)), w);
        f8.check(__nv_cvt_bfloat16raw2_to_fp8x2(b, sat, interp), cvt_pack_x2(t, DType::BF16, w, mods(Round::RN, s)), w);
      }
    }
    for (auto [rm, r] : {std::pair{cudaRoundNearest, Round::RN}, std::pair{cudaRoundZero, Round::RZ}}) {
      for (auto [interp, t] : {std::pair{__NV_E2M3, DType::E2M3}, std::pair{__NV_E3M2, DType::E3M2}}) {
        f6.check(__nv_cvt_halfraw2_to_fp6x2(h, interp, rm), cvt_pack_x2(t, DType::F16, w, mods(r, true)), w);
        f6.check(__nv_cvt_bfloat16raw2_to_fp6x2(b, interp, rm), cvt_pack_x2(t, DType::BF16, w, mods(r, true)), w);
      }
      f4.check(__nv_cvt_halfraw2_to_fp4x2(h, __NV_E2M1, rm), cvt_pack_x2(DType::E2M1, DType::F16, w, mods(r, true)), w);
      f4.check(__nv_cvt_bfloat16raw2_to_fp4x2(b, __NV_E2M1, rm), cvt_pack_x2(DType::E2M1, DType::BF16, w, mods(r, true)), w);
    }
    for (auto [rm, r] : {std::pair{cudaRoundZero, Round::RZ}, std::pair{cudaRoundPosInf, Round::RP}})
      for (auto [sat, s] : {std::pair{__NV_SATFINITE, true}, std::pair{__NV_NOSAT, false}})
        e8.check(__nv_cvt_bfloat162raw_to_e8m0x2(b, sat, rm), cvt_pack_x2(DType::UE8M0, DType::BF16, w, mods(r, s)), w);
  }
  f8.report();
  f6.report();
  f4.report();
  e8.report();
}

TEST_CASE("x2 up-conversions: every 16-bit (8-bit for e2m1x2) pattern vs CUDA's *x2_to_*raw2") {
  Tally f8("e4m3x2/e5m2x2 -> f16x2, all 65536 patterns (__nv_cvt_fp8x2_to_halfraw2)");
  Tally f6("e2m3x2/e3m2x2 -> f16x2, all 65536 patterns incl. nonzero pad bits (__nv_cvt_fp6x2_to_halfraw2)");
  Tally f4("e2m1x2 -> f16x2, all 256 patterns (__nv_cvt_fp4x2_to_halfraw2)");
  Tally e8("ue8m0x2 -> bf16x2, all 65536 patterns (__nv_cvt_e8m0x2_to_bf162raw)");
  const CvtMods rn = mods(Round::RN);
  auto word = [](auto r) { return (uint64_t{r.y} << 16) | r.x; };
  for (uint32_t w = 0; w < 65536; ++w) {
    const auto s = static_cast<unsigned short>(w);
    f8.check(word(__nv_cvt_fp8x2_to_halfraw2(s, __NV_E4M3)), cvt_unpack_x2(DType::F16, DType::E4M3, w, rn), w);
    f8.check(word(__nv_cvt_fp8x2_to_halfraw2(s, __NV_E5M2)), cvt_unpack_x2(DType::F16, DType::E5M2, w, rn), w);
    f6.check(word(__nv_cvt_fp6x2_to_halfraw2(s, __NV_E2M3)), cvt_unpack_x2(DType::F16, DType::E2M3, w, rn), w);
    f6.check(word(__nv_cvt_fp6x2_to_halfraw2(s, __NV_E3M2)), cvt_unpack_x2(DType::F16, DType::E3M2, w, rn), w);
    e8.check(word(__nv_cvt_e8m0x2_to_bf162raw(s)), cvt_unpack_x2(DType::BF16, DType::UE8M0, w, rn), w);
    if (w < 256)
      f4.check(word(__nv_cvt_fp4x2_to_halfraw2(static_cast<__nv_fp4x2_storage_t>(w), __NV_E2M1)),
               cvt_unpack_x2(DType::F16, DType::E2M1, w, rn), w);
  }
  f8.report();
  f6.report();
  f4.report();
  e8.report();
}

TEST_CASE("two f64 -> e4m3x2/e5m2x2 vs __nv_cvt_double2_to_fp8x2 (lane order as the f32 forms)") {
  Tally t("f64 x2 -> e4m3x2/e5m2x2 x sat/nosat (__nv_cvt_double2_to_fp8x2)");
  std::vector<uint64_t> d = f64_inputs(0);
  std::erase_if(d, [](uint64_t u) { return std::isnan(bitsd(u)); });  // NaN: oracle_encode_f64_test
  for (size_t i = 0; i < d.size(); ++i) {
    const double x = bitsd(d[i]), y = bitsd(d[(i * 104729 + 7) % d.size()]);
    for (auto [interp, ty] : {std::pair{__NV_E4M3, DType::E4M3}, std::pair{__NV_E5M2, DType::E5M2}}) {
      for (auto [sat, s] : {std::pair{__NV_SATFINITE, true}, std::pair{__NV_NOSAT, false}}) {
        const uint64_t ours = (encode(ty, y, Round::RN, s) << 8) | encode(ty, x, Round::RN, s);
        t.check(__nv_cvt_double2_to_fp8x2(make_double2(x, y), sat, interp), ours, d[i]);
      }
    }
  }
  t.report();
}
