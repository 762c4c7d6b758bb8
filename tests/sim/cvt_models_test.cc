// cvt, two ways: (1) the narrow-format forms the simulator computes through models/formats
// (hand-worked values, commented); (2) the simulator's own fast paths for integer/f32/f64
// conversions, differentially against models/formats' independent implementation of the same PTX
// rules, on random and special inputs for every type pair and rounding mode.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "models/formats/convert.h"
#include "tests/sim/harness.h"

using namespace tcsim;
using test::Row;

TEST_CASE("cvt through models/formats: f16, bf16, tf32, packed fp8/fp4 forms") {
  auto f = [](float x) { return uint64_t{std::bit_cast<uint32_t>(x)}; };
  // 1.0f -> f16 0x3c00; 65520 rounds to inf in f16 (.rn) but to 65504 with .satfinite.
  std::vector<Row> r = {{f(1.0f), 0, 0, 0}, {f(65520.0f), 0, 0, 0}, {f(-0.5f), 0, 0, 0}};
  auto h = test::eval("cvt.rn.f16.f32 %w0, %x0;\n cvt.u64.u16 %o0, %w0;\n cvt.rn.satfinite.f16.f32 %w1, %x0;\n cvt.u64.u16 %o1, %w1;", r);
  CHECK(h[0][0] == 0x3c00);
  CHECK(h[1][0] == 0x7c00);
  CHECK(h[1][1] == 0x7bff);
  CHECK(h[2][0] == 0xb800);
  // f16 -> f32 is exact: 0x3c00 -> 1.0f; bf16 1.00390625 = 0x3f808000 ties to even 0x3f80 (.rn).
  CHECK(test::eval32("cvt.f32.f16 %y0, %h0;", {{0x3c00, 0, 0, 0}}) == std::vector<uint32_t>{0x3f800000u});
  auto bf = test::eval("cvt.rn.bf16.f32 %w0, %x0;\n cvt.u64.u16 %o0, %w0;", {{0x3f808000, 0, 0, 0}, {0x3f818000, 0, 0, 0}});
  CHECK(bf[0][0] == 0x3f80);
  CHECK(bf[1][0] == 0x3f82);  // 1.01171875 = 0x3f818000 ties up to the even 0x3f82
  // Packed: d = cvt(a) << 16 | cvt(b). f16x2 of (1.0, -2.0) = 0x3c00c000.
  CHECK(test::eval32("cvt.rn.f16x2.f32 %y0, %x0, %x1;", {{f(1.0f), f(-2.0f), 0, 0}}) == std::vector<uint32_t>{0x3c00c000u});
  // e4m3x2 of (1.0, -2.0): e4m3 1.0 = 0x38, -2.0 = 0xc0 -> 0x38c0 in a 16-bit register.
  auto e = test::eval("cvt.rn.satfinite.e4m3x2.f32 %w0, %x0, %x1;\n cvt.u64.u16 %o0, %w0;", {{f(1.0f), f(-2.0f), 0, 0}});
  CHECK(e[0][0] == 0x38c0);
  // Back: f16x2 from e4m3x2 0x38c0 -> (1.0, -2.0) as f16 = 0x3c00c000.
  CHECK(test::eval32("cvt.rn.f16x2.e4m3x2 %y0, %h0;", {{0x38c0, 0, 0, 0}}) == std::vector<uint32_t>{0x3c00c000u});
  // tf32 (.rna): 1 + 2^-11 + 2^-12 rounds away at the 10-bit mantissa: 0x3f801000 -> 0x3f802000.
  CHECK(test::eval32("cvt.rna.tf32.f32 %y0, %x0;", {{0x3f801000, 0, 0, 0}}) == std::vector<uint32_t>{0x3f802000u});
  // f16 -> s32 with .rni: 2.5 (0x4100) -> 2; int -> f16: 3 -> 0x4200.
  CHECK(test::eval32("cvt.rni.s32.f16 %y0, %h0;", {{0x4100, 0, 0, 0}}) == std::vector<uint32_t>{2});
  auto i2h = test::eval("cvt.rn.f16.s32 %w0, %x0;\n cvt.u64.u16 %o0, %w0;", {{3, 0, 0, 0}});
  CHECK(i2h[0][0] == 0x4200);
}

namespace {

struct TypeDesc {
  const char* ptx;
  models::DType dt;
  int bits;
  bool is_float;
  bool is_signed;
};

const TypeDesc kTypes[] = {
    {"u8", models::DType::U8, 8, false, false},   {"s8", models::DType::S8, 8, false, true},
    {"u16", models::DType::U16, 16, false, false}, {"s16", models::DType::S16, 16, false, true},
    {"u32", models::DType::U32, 32, false, false}, {"s32", models::DType::S32, 32, false, true},
    {"u64", models::DType::U64, 64, false, false}, {"s64", models::DType::S64, 64, false, true},
    {"f32", models::DType::F32, 32, true, false},  {"f64", models::DType::F64, 64, true, false},
};

uint64_t random_input(std::mt19937_64& g, const TypeDesc& t) {
  if (!t.is_float) return g() >> (g() % 64);
  const int k = static_cast<int>(g() % 6);
  if (t.bits == 32) {
    const float specials[] = {0.0f, -0.0f, 0.5f, 2.5f, -3.5f, 1e10f, -1e20f, 3e-40f, -7e-39f,
                              std::numeric_limits<float>::infinity(), std::nanf(""), 4294967296.0f, 2147483648.0f};
    if (k == 0) return std::bit_cast<uint32_t>(specials[g() % std::size(specials)]);
    return std::bit_cast<uint32_t>(std::ldexp(float(int64_t(g() % 2000001) - 1000000) / 1000.0f, int(g() % 140) - 70));
  }
  const double specials[] = {0.0, -0.0, 0.5, 2.5, -3.5, 1e300, -1e20, 1e-310, std::nan(""),
                             9223372036854775808.0, 18446744073709551616.0, -9223372036854777856.0,
                             1.0 + std::ldexp(1.0, -24), 16777217.0};
  if (k == 0) return std::bit_cast<uint64_t>(specials[g() % std::size(specials)]);
  return std::bit_cast<uint64_t>(std::ldexp(double(int64_t(g() % 2000000001) - 1000000000) / 1000.0, int(g() % 200) - 100));
}

}  // namespace

TEST_CASE("cvt fast paths agree with models/formats on every integer/f32/f64 pair and rounding") {
  std::mt19937_64 g(42);
  int pairs = 0;
  for (const TypeDesc& d : kTypes)
    for (const TypeDesc& s : kTypes) {
      std::vector<std::pair<std::string, models::CvtMods>> forms;
      auto mods = [](models::Round r, bool sat, bool ftz) {
        models::CvtMods m;
        m.rnd = r;
        m.sat = sat;
        m.ftz = ftz;
        return m;
      };
      const std::pair<const char*, models::Round> frnd[] = {{"rn", models::Round::RN}, {"rz", models::Round::RZ},
                                                             {"rm", models::Round::RM}, {"rp", models::Round::RP}};
      const std::pair<const char*, models::Round> irnd[] = {{"rni", models::Round::RN}, {"rzi", models::Round::RZ},
                                                             {"rmi", models::Round::RM}, {"rpi", models::Round::RP}};
      if (!d.is_float && !s.is_float) {
        forms.push_back({"", mods(models::Round::RN, false, false)});
        forms.push_back({".sat", mods(models::Round::RN, true, false)});
      } else if (d.is_float && !s.is_float) {
        for (auto [n, r] : frnd) forms.push_back({fmt::format(".{}", n), mods(r, false, false)});
      } else if (!d.is_float && s.is_float) {
        for (auto [n, r] : irnd) {
          forms.push_back({fmt::format(".{}", n), mods(r, false, false)});
          if (s.bits == 32) forms.push_back({fmt::format(".{}.ftz", n), mods(r, false, true)});
        }
      } else if (d.bits < s.bits) {
        for (auto [n, r] : frnd) {
          forms.push_back({fmt::format(".{}", n), mods(r, false, false)});
          forms.push_back({fmt::format(".{}.ftz.sat", n), mods(r, true, true)});
        }
      } else if (d.bits > s.bits) {
        forms.push_back({"", mods(models::Round::RN, false, false)});
        forms.push_back({".ftz", mods(models::Round::RN, false, true)});
      } else {
        for (auto [n, r] : irnd) forms.push_back({fmt::format(".{}", n), mods(r, false, false)});
        forms.push_back({".sat", mods(models::Round::RN, true, false)});
      }
      for (const auto& [mod, m] : forms) {
        const std::string dreg = d.bits == 64 ? "%z0" : d.bits == 32 ? "%y0" : "%w0";
        const std::string sreg = s.bits == 64 ? "%a0" : s.bits == 32 ? "%x0" : "%h0";
        const std::string store = d.bits == 64 ? "mov.b64 %o0, %z0;" : d.bits == 32 ? "cvt.u64.u32 %o0, %y0;" : "cvt.u64.u16 %o0, %w0;";
        const std::string instr = fmt::format("cvt{}.{}.{} {}, {};\n {}", mod, d.ptx, s.ptx, dreg, sreg, store);
        std::vector<Row> rows;
        for (int i = 0; i < 200; ++i) rows.push_back({random_input(g, s), 0, 0, 0});
        CAPTURE(instr);
        auto got = test::eval(instr, rows);
        const uint64_t dmask = d.bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << d.bits) - 1;
        int fails = 0;
        for (size_t i = 0; i < rows.size(); ++i) {
          uint64_t a = rows[i][0] & (s.bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << s.bits) - 1);
          uint64_t want;
          if (!d.is_float && !s.is_float) want = models::cvt_int_to_int(d.dt, s.dt, a, m.sat);
          else if (d.is_float && !s.is_float) want = models::cvt_int_to_float(d.dt, s.dt, a, m);
          else if (!d.is_float && s.is_float) want = models::cvt_float_to_int(d.dt, s.dt, a, m);
          else if (d.dt == s.dt && mod != ".sat") want = models::cvt_float_round_int(d.dt, a, m);
          else want = models::cvt_float(d.dt, s.dt, a, m);
          // NaN inputs converted to f64: the H200 keeps sign and payload and quiets the NaN where
          // models/formats gives the canonical NaN (sim/exec/convert.cc; kernels/basic goldens).
          if (d.is_float && s.is_float && d.bits == 64 && !m.sat) {
            if (s.bits == 64 && (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) want = a | uint64_t{1} << 51;
            if (s.bits == 32 && (a & 0x7fffffff) > 0x7f800000u) {
              const uint64_t w = m.ftz ? 0x7fffffffu : a;  // .ftz canonicalises the f32 first
              want = (w >> 31) << 63 | uint64_t{0x7ff} << 52 | (w & 0x7fffff) << 29 | uint64_t{1} << 51;
            }
          }
          // f64 NaNs narrowed to f32 keep the sign and the top 23 fraction bits, quieted (H200:
          // kernels/basic cvt_nan columns 47-51; models::NaNRule::Hardware).
          if (d.is_float && s.is_float && d.bits == 32 && s.bits == 64 && !m.sat &&
              (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
            want = (a >> 63) << 31 | 0x7fc00000u | (a >> 29 & 0x7fffff);
          if ((got[i][0] & dmask) != (want & dmask) && fails++ < 3)
            FAIL_CHECK(fmt::format("input 0x{:x}: simulator 0x{:x}, models 0x{:x}", a, got[i][0] & dmask, want & dmask));
        }
        CHECK(fails == 0);
        ++pairs;
      }
    }
  CHECK(pairs > 150);
}
