// Hand-worked values of the MMA arithmetic from the public sources (docs/mma_numerics.md §0), each with
// its arithmetic in a comment, so the parameter rows are tied to facts and not only to the
// oracle (which implements the same algorithm).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "models/mma/decode.h"
#include "models/mma/engine.h"
#include "models/mma/param_table.h"
#include "tests/models/mma_test_inputs.h"

using namespace tcsim::models::mma;
using tcsim::isa::DType;
using tcsim::isa::MmaKind;
using tcsim::models::FpClass;

namespace {

DotShape row_shape(Arch arch, Path path, MmaKind kind, DType a, DType b, DType d, int k) {
  const ParamRow* r = find_row(arch, path, kind, a, b, d);
  REQUIRE(r);
  DotShape s;
  s.num = r->num;
  s.kind = kind;
  s.atype = a;
  s.btype = b;
  s.dtype = d;
  s.k = k;
  return s;
}

uint32_t dot(const DotShape& s, std::vector<uint32_t> a, std::vector<uint32_t> b, uint32_t c) {
  a.resize(s.k, 0);
  b.resize(s.k, 0);
  return DotEngine(s).dot(a.data(), b.data(), c);
}

constexpr uint32_t kBf16One = 0x3f80;

}  // namespace

TEST_CASE("Q3 on Hopper f16/bf16: the window keeps 25 fraction bits") {
  // bf16 A = [128, -128, 2^-5], B = [128, 128, 2^-6], C = 0. The big products cancel, maxE =
  // 7+7 = 14, the window's last bit is 2^(14-25) = 2^-11, and u*v = 2^-11 survives (nfrac 25);
  // with nfrac 24 (Ampere) the last bit is 2^-10 and it is truncated to 0.
  DotShape s = row_shape(Arch::Sm90a, Path::Wgmma, MmaKind::F16, DType::BF16, DType::BF16,
                         DType::F32, 16);
  const std::vector<uint32_t> a = {0x4300, 0xc300, 0x3d00}, b = {0x4300, 0x4300, 0x3c80};
  CHECK(dot(s, a, b, 0) == 0x3a000000u);  // 2^-11
  s.num.nfrac = 24;
  CHECK(dot(s, a, b, 0) == 0u);
}

TEST_CASE("Hopper fp8 keeps 13 bits: SageAttention2's C-only test and the 64.0 stall") {
  const DotShape s = row_shape(Arch::Sm90a, Path::Wgmma, MmaKind::F8F6F4, DType::E4M3,
                               DType::E4M3, DType::F32, 32);
  // A = B = 0, C = 1 + 2^-23: maxE = 0, last kept bit 2^-13, C loses its low 10 bits -> 1.0.
  CHECK(dot(s, {}, {}, 0x3f800001u) == 0x3f800000u);
  CHECK(dot(s, {}, {}, 0x3f800400u) == 0x3f800400u);  // 1 + 2^-13 survives
  // GH200 notes: A = B = 1/16 (e4m3 0x18 = 2^-4), 32 products of 2^-8 = 1/8 per instruction,
  // D fed back. At D = 32 = 2^5 the window ends at 2^-8 and 32.125 results; at D = 64 the
  // window ends at 2^-7, every 2^-8 product truncates to 0, and D stays 64.0 forever.
  const std::vector<uint32_t> sixteenth(32, 0x18);
  CHECK(dot(s, sixteenth, sixteenth, 0x42000000u) == 0x42008000u);  // 32 -> 32.125
  uint32_t d = 0;
  for (int i = 0; i < 8192; ++i) d = dot(s, sixteenth, sixteenth, d);
  CHECK(d == 0x42800000u);  // 64.0, not 1024
}

TEST_CASE("no intermediate overflow; final overflow gives Inf even with RZ") {
  const DotShape s = row_shape(Arch::Sm100a, Path::Tcgen05, MmaKind::F16, DType::BF16,
                               DType::BF16, DType::F32, 16);
  // bf16 [2^127, 2^127] . [2^127, -2^127] + 0: products +-2^254 cancel exactly -> +0
  CHECK(dot(s, {0x7f00, 0x7f00}, {0x7f00, 0xff00}, 0) == 0u);
  // 2^127*2 + 2^127*2 = 2^129 > FLT_MAX -> +Inf although the rounding is toward zero
  CHECK(dot(s, {0x7f00, 0x7f00}, {0x4000, 0x4000}, 0) == 0x7f800000u);
  // KM ExceptionalCasesTest 1: C = 2^127 plus the product 2^127 -> +Inf
  CHECK(dot(s, {0x7f00}, {kBf16One}, 0x7f000000u) == 0x7f800000u);
  // just below: FLT_MAX + 2^103 truncates to FLT_MAX (exponent 127 holds it)
  CHECK(dot(s, {0x7300}, {kBf16One}, 0x7f7fffffu) == 0x7f7fffffu);
}

TEST_CASE("TF32 operands: bits 12..0 of the fp32 word are ignored, not rounded") {
  const DotShape s = row_shape(Arch::Sm100a, Path::Tcgen05, MmaKind::TF32, DType::TF32,
                               DType::TF32, DType::F32, 8);
  // 0x3f801fff = 1 + 0x1fff*2^-23: truncation to 10 fraction bits leaves 1.0 (RNA would give
  // 1 + 2^-10). 1.0 * 1.0 = 1.0.
  CHECK(dot(s, {0x3f801fffu}, {0x3f800000u}, 0) == 0x3f800000u);
  CHECK(dot(s, {0x3f802000u}, {0x3f800000u}, 0) == 0x3f802000u);  // 1 + 2^-10 is kept
}

TEST_CASE("FASI carry test: 1 + 1.5 + 1.75 + 1.875 + C=1.875 = 8 exactly") {
  const DotShape s = row_shape(Arch::Sm90a, Path::MmaSync, MmaKind::F16, DType::F16, DType::F16,
                               DType::F32, 16);
  // f16 1.0=0x3c00, 1.5=0x3e00, 1.75=0x3f00, 1.875=0x3f80; the sum needs 3 carry bits.
  CHECK(dot(s, {0x3c00, 0x3c00, 0x3c00, 0x3c00}, {0x3c00, 0x3e00, 0x3f00, 0x3f80}, 0x3ff00000u) ==
        0x41000000u);
}

TEST_CASE("Q1 exponent floor: the two public models give different answers") {
  DotShape s = row_shape(Arch::Sm90a, Path::Wgmma, MmaKind::F16, DType::BF16, DType::BF16,
                         DType::F32, 16);
  // 16 products 2^-76 * 2^-76 = 2^-152, C = +0; exact sum 2^-148.
  // Default row (no floor, zero C not in maxE: sf-tensor/KM-without-floor): maxE = -152, the
  // sum is exact, 2^-148 = fp32 subnormal 2 * 2^-149 -> 0x00000002.
  const std::vector<uint32_t> t(16, 0x1980);  // bf16 2^-76: exponent field 51 = 0x33 -> 0x1980
  CHECK(dot(s, t, t, 0) == 0x00000002u);
  // MMA-Sim: C = +0 takes part with exponent -126, the window ends at 2^-151, each 2^-152 product
  // truncates to 0 -> +0.
  s.num.c_zero_in_max = true;
  CHECK(dot(s, t, t, 0) == 0u);
  // Control: C = 2^-149 (smallest subnormal) puts C's exponent -126 in maxE in both models.
  s.num.c_zero_in_max = false;
  CHECK(dot(s, t, t, 0x00000001u) == 0x00000001u);
}

TEST_CASE("Q2: exponent of an f16 C, f16 D") {
  DotShape s = row_shape(Arch::Sm90a, Path::MmaSync, MmaKind::F16, DType::F16, DType::F16,
                         DType::F16, 16);
  // C = 2^-23 (f16 subnormal 0x0002), products 2^-12 * 2^-13 = 2^-25 and 2^-20 * 2^-20 = 2^-40
  // (f16 2^-12 = 0x0c00, 2^-13 = 0x0800, 2^-20 = subnormal 16 * 2^-24 = 0x0010).
  const std::vector<uint32_t> a = {0x0c00, 0x0010}, b = {0x0800, 0x0010};
  // Own-format C (exponent clamped to -14, MMA-Sim): maxE = -14, window ends at 2^-39, 2^-40
  // is dropped; 2^-23 + 2^-25 = 2.5 * 2^-24 is a tie -> even -> 2 * 2^-24 = 0x0002.
  CHECK(dot(s, a, b, 0x0002) == 0x0002u);
  // fp32 view of C (KM): maxE = -23, everything exact, 2.5*2^-24 + 2^-40 rounds up -> 0x0003.
  s.num.f16_c_fp32_view = true;
  CHECK(dot(s, a, b, 0x0002) == 0x0003u);
}

TEST_CASE("Q20: a zero operand and the max exponent") {
  DotShape s = row_shape(Arch::Sm90a, Path::MmaSync, MmaKind::F16, DType::BF16, DType::BF16,
                         DType::F32, 16);
  // bf16 a = [0, 2^-15], b = [2^127, 2^-15], C = 0.
  const std::vector<uint32_t> a = {0x0000, 0x3800}, b = {0x7f00, 0x3800};
  // KM / sf-tensor: the zero product takes no part: maxE = -30, D = 2^-30 = 0x30800000.
  CHECK(dot(s, a, b, 0) == 0x30800000u);
  // MMA-Sim: zero has exponent -126, the zero product's exponent is 1, the window ends at
  // 2^-24 and 2^-30 is truncated -> 0.
  s.num.zero_operand = ZeroExp::Fixed;
  CHECK(dot(s, a, b, 0) == 0u);
}

TEST_CASE("kind::i8 wraps or saturates") {
  DotShape s = row_shape(Arch::Sm100a, Path::Tcgen05, MmaKind::I8, DType::S8, DType::S8,
                         DType::S32, 32);
  // 32 * (-128 * -128) = 524288; C = 0x7fffffff - 100 -> overflow.
  const std::vector<uint32_t> m(32, 0x80);
  const uint32_t c = 0x7fffff9bu;
  CHECK(dot(s, m, m, c) == 0x7fffff9bu + 524288u);  // wraps modulo 2^32
  s.saturate = true;
  CHECK(dot(s, m, m, c) == 0x7fffffffu);
}

TEST_CASE("special values: canonical NaN, Inf arithmetic, -0 -> +0") {
  const DotShape s = row_shape(Arch::Sm100a, Path::Tcgen05, MmaKind::F16, DType::F16, DType::F16,
                               DType::F16, 16);
  CHECK(dot(s, {0x7e01}, {0x3c00}, 0) == 0x7fffu);          // NaN input, any payload
  CHECK(dot(s, {0x7c00}, {0x0000}, 0) == 0x7fffu);          // 0 * Inf
  CHECK(dot(s, {0x7c00, 0x7c00}, {0x3c00, 0xbc00}, 0) == 0x7fffu);  // Inf - Inf
  CHECK(dot(s, {0x7c00}, {0xbc00}, 0x3c00) == 0xfc00u);     // -Inf
  CHECK(dot(s, {}, {}, 0x8000) == 0x0000u);                 // -0 C, zero products -> +0
  CHECK(dot(s, {}, {}, 0x7c00) == 0x7c00u);                 // Inf C passes
}

TEST_CASE("decoder tables equal unpack() for every code") {
  using tcsim::models::unpack;
  const DType small[] = {DType::F16, DType::BF16, DType::E4M3, DType::E5M2, DType::E2M3,
                         DType::E3M2, DType::E2M1, DType::UE8M0, DType::UE4M3};
  for (DType t : small) {
    const Decoder d(t, kSkipExp);
    const uint32_t n = t == DType::F16 || t == DType::BF16 ? 65536 : 256;
    int bad = 0;
    for (uint32_t c = 0; c < n; ++c) {
      const auto u = unpack(t, c);
      const Elem e = d(c);
      if (e.cls != static_cast<uint8_t>(u.cls) || e.neg != u.neg) ++bad;
      else if ((u.cls == FpClass::Normal || u.cls == FpClass::Subnormal) &&
               (e.exp != u.exp || static_cast<uint64_t>(e.sig) != u.sig ||
                d.frac_bits() != u.frac_bits))
        ++bad;
    }
    CAPTURE(tcsim::isa::dtype_name(t));
    CHECK(bad == 0);
  }
  testing::Rng r(3);
  for (DType t : {DType::F32, DType::TF32}) {
    const Decoder d(t, kSkipExp);
    int bad = 0;
    for (int i = 0; i < 200000; ++i) {
      const uint32_t c = i < 1024 ? (i & 1 ? 0x7f800000u : 0) ^ static_cast<uint32_t>(i) : static_cast<uint32_t>(r.next());
      const auto u = unpack(t, c);
      const Elem e = d(c);
      if (e.cls != static_cast<uint8_t>(u.cls) || e.neg != u.neg) ++bad;
      else if ((u.cls == FpClass::Normal || u.cls == FpClass::Subnormal) &&
               (e.exp != u.exp || static_cast<uint64_t>(e.sig) != u.sig))
        ++bad;
    }
    CHECK(bad == 0);
  }
}
