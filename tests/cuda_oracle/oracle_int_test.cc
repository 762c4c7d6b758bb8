// Integer -> f16 (rn/rz/rm/rp) and -> bf16 (rn) against CUDA's host functions: every 16-bit
// integer, every 32-bit integer of magnitude < 2^18, the neighbourhood of every power of two,
// every f16/bf16 rounding tie in the 32- and 64-bit ranges, and random values.
#include <random>

#include "models/formats/convert.h"
#include "oracle_util.h"

using namespace tcsim::models;
using namespace oracle;

namespace {

CvtMods mods(Round r) {
  CvtMods m;
  m.rnd = r;
  return m;
}

// 64-bit patterns: small values, powers of two +- 64, ties of an 8- and an 11-bit significand at
// every shift, and random values with a random number of leading zeros.
const std::vector<uint64_t>& int_inputs() {
  static const auto v = [] {
    std::vector<uint64_t> w;
    for (int64_t i = -(1 << 18); i < (1 << 18); ++i) w.push_back(static_cast<uint64_t>(i));
    for (int k = 0; k < 64; ++k)
      for (int j = -64; j <= 64; ++j) {
        const uint64_t p = (1ull << k) + static_cast<uint64_t>(j);
        w.push_back(p);
        w.push_back(~p + 1);  // negated
      }
    for (int sig_bits : {8, 11}) {
      for (int s = 1; s + sig_bits < 64; ++s) {
        for (uint64_t m = 1ull << (sig_bits - 1); m < (1ull << sig_bits); m += 7) {
          const uint64_t tie = (2 * m + 1) << (s - 1);
          for (uint64_t d : {tie - 1, tie, tie + 1}) {
            w.push_back(d);
            w.push_back(~d + 1);
          }
        }
      }
    }
    std::mt19937_64 rng(31);
    for (int i = 0; i < 400'000; ++i) w.push_back(rng() >> (rng() % 64));
    return w;
  }();
  return v;
}

}  // namespace

TEST_CASE("16-bit integers -> f16 (4 modes) and bf16 rn, all 65536 values") {
  Tally s("s16 -> f16 x rn/rz/rm/rp (__short2half_rn/_rz/_rd/_ru)");
  Tally u("u16 -> f16 x rn/rz/rm/rp (__ushort2half_rn/_rz/_rd/_ru)");
  Tally b("s16, u16 -> bf16 rn (__short2bfloat16_rn, __ushort2bfloat16_rn)");
  for (uint32_t c = 0; c < 65536; ++c) {
    const auto si = static_cast<short>(c);
    const auto ui = static_cast<unsigned short>(c);
    s.check(bits_of(__short2half_rn(si)), cvt_int_to_float(DType::F16, DType::S16, c, mods(Round::RN)), c);
    s.check(bits_of(__short2half_rz(si)), cvt_int_to_float(DType::F16, DType::S16, c, mods(Round::RZ)), c);
    s.check(bits_of(__short2half_rd(si)), cvt_int_to_float(DType::F16, DType::S16, c, mods(Round::RM)), c);
    s.check(bits_of(__short2half_ru(si)), cvt_int_to_float(DType::F16, DType::S16, c, mods(Round::RP)), c);
    u.check(bits_of(__ushort2half_rn(ui)), cvt_int_to_float(DType::F16, DType::U16, c, mods(Round::RN)), c);
    u.check(bits_of(__ushort2half_rz(ui)), cvt_int_to_float(DType::F16, DType::U16, c, mods(Round::RZ)), c);
    u.check(bits_of(__ushort2half_rd(ui)), cvt_int_to_float(DType::F16, DType::U16, c, mods(Round::RM)), c);
    u.check(bits_of(__ushort2half_ru(ui)), cvt_int_to_float(DType::F16, DType::U16, c, mods(Round::RP)), c);
    b.check(bits_of(__short2bfloat16_rn(si)), cvt_int_to_float(DType::BF16, DType::S16, c, mods(Round::RN)), c);
    b.check(bits_of(__ushort2bfloat16_rn(ui)), cvt_int_to_float(DType::BF16, DType::U16, c, mods(Round::RN)), c);
  }
  s.report();
  u.report();
  b.report();
}

TEST_CASE("32- and 64-bit integers -> f16 (4 modes) and bf16 rn") {
  Tally i32("s32, u32 -> f16 x rn/rz/rm/rp (__int2half_*, __uint2half_*)");
  Tally i64("s64, u64 -> f16 x rn/rz/rm/rp (__ll2half_*, __ull2half_*)");
  Tally b("s32, u32, s64, u64 -> bf16 rn (__int2bfloat16_rn ... __ull2bfloat16_rn)");
  for (uint64_t w : int_inputs()) {
    const auto s32 = static_cast<int>(static_cast<uint32_t>(w));
    const auto u32 = static_cast<unsigned>(w);
    const auto s64 = static_cast<long long>(w);
    const auto u64 = static_cast<unsigned long long>(w);
    const uint64_t w32 = w & 0xffffffffu;
    i32.check(bits_of(__int2half_rn(s32)), cvt_int_to_float(DType::F16, DType::S32, w32, mods(Round::RN)), w32);
    i32.check(bits_of(__int2half_rz(s32)), cvt_int_to_float(DType::F16, DType::S32, w32, mods(Round::RZ)), w32);
    i32.check(bits_of(__int2half_rd(s32)), cvt_int_to_float(DType::F16, DType::S32, w32, mods(Round::RM)), w32);
    i32.check(bits_of(__int2half_ru(s32)), cvt_int_to_float(DType::F16, DType::S32, w32, mods(Round::RP)), w32);
    i32.check(bits_of(__uint2half_rn(u32)), cvt_int_to_float(DType::F16, DType::U32, w32, mods(Round::RN)), w32);
    i32.check(bits_of(__uint2half_rz(u32)), cvt_int_to_float(DType::F16, DType::U32, w32, mods(Round::RZ)), w32);
    i32.check(bits_of(__uint2half_rd(u32)), cvt_int_to_float(DType::F16, DType::U32, w32, mods(Round::RM)), w32);
    i32.check(bits_of(__uint2half_ru(u32)), cvt_int_to_float(DType::F16, DType::U32, w32, mods(Round::RP)), w32);
    i64.check(bits_of(__ll2half_rn(s64)), cvt_int_to_float(DType::F16, DType::S64, w, mods(Round::RN)), w);
    i64.check(bits_of(__ll2half_rz(s64)), cvt_int_to_float(DType::F16, DType::S64, w, mods(Round::RZ)), w);
    i64.check(bits_of(__ll2half_rd(s64)), cvt_int_to_float(DType::F16, DType::S64, w, mods(Round::RM)), w);
    i64.check(bits_of(__ll2half_ru(s64)), cvt_int_to_float(DType::F16, DType::S64, w, mods(Round::RP)), w);
    i64.check(bits_of(__ull2half_rn(u64)), cvt_int_to_float(DType::F16, DType::U64, w, mods(Round::RN)), w);
    i64.check(bits_of(__ull2half_rz(u64)), cvt_int_to_float(DType::F16, DType::U64, w, mods(Round::RZ)), w);
    i64.check(bits_of(__ull2half_rd(u64)), cvt_int_to_float(DType::F16, DType::U64, w, mods(Round::RM)), w);
    i64.check(bits_of(__ull2half_ru(u64)), cvt_int_to_float(DType::F16, DType::U64, w, mods(Round::RP)), w);
    b.check(bits_of(__int2bfloat16_rn(s32)), cvt_int_to_float(DType::BF16, DType::S32, w32, mods(Round::RN)), w32);
    b.check(bits_of(__uint2bfloat16_rn(u32)), cvt_int_to_float(DType::BF16, DType::U32, w32, mods(Round::RN)), w32);
    b.check(bits_of(__ll2bfloat16_rn(s64)), cvt_int_to_float(DType::BF16, DType::S64, w, mods(Round::RN)), w);
    b.check(bits_of(__ull2bfloat16_rn(u64)), cvt_int_to_float(DType::BF16, DType::U64, w, mods(Round::RN)), w);
  }
  i32.report();
  i64.report();
  b.report();
}
