// Instruction descriptor: values worked out by hand from PTX ISA §9.7.16.4.2 Tables 42-44, decode
// and encode both ways, and decode -> encode round trips over random words.
//
// Table 42 (dense kinds): 0-1 selector, 2 sparse, 3 saturate, 4-5 D (F16 0 F32 1 S32 2), 7-9 A,
// 10-12 B, 13/14 negate A/B, 15/16 transpose A/B, 17-22 N>>3, 24-28 M>>4, 30-31 max shift.
// Tables 43/44 (block-scaled): 2 sparse, 4-5 SFB_ID, 7-9 A, 10-12 (mxf4: 10-11) B, 13-16 as above,
// 17-22 N>>3, 23 scale type (UE4M3 0, UE8M0 1), 27-28 M>>7, 29-30 SFA_ID, 31 K=96 (mxf4 kinds).
#include <doctest/doctest.h>

#include <random>

#include "isa/descriptors/instr_desc.h"

using namespace tcsim::isa;

namespace {

struct Worked {
  const char* what;
  uint32_t raw;
  InstrDesc d;  // the fields (k filled in by the implied value)
  InstrDescContext ctx;
};

InstrDescContext cx(Arch arch, int cg, bool ws = false, std::optional<ScaleVec> sv = std::nullopt) {
  InstrDescContext c;
  c.arch = arch;
  c.cta_group = cg;
  c.ws = ws;
  c.scale_vec = sv;
  return c;
}

InstrDesc mk(MmaKind kind, int m, int n, DType a, DType b, std::optional<DType> d) {
  InstrDesc x;
  x.kind = kind;
  x.m = m;
  x.n = n;
  x.a_type = a;
  x.b_type = b;
  x.d_type = d;
  return x;
}

std::vector<Worked> dense_cases() {
  std::vector<Worked> w;
  // E1: f16 kind, bf16 x bf16 -> f32, M=128, N=256: D F32 1<<4 = 0x10; A BF16 1<<7 = 0x80; B 1<<10 = 0x400;
  // N 256>>3 = 32 -> 32<<17 = 0x400000; M 128>>4 = 8 -> 8<<24 = 0x08000000. = 0x08400490.
  w.push_back({"E1", 0x08400490, mk(MmaKind::F16, 128, 256, DType::BF16, DType::BF16, DType::F32), {}});
  // E2: f16 x f16 -> f16, M=64, N=8: N 1<<17 = 0x20000; M 4<<24 = 0x04000000. = 0x04020000.
  w.push_back({"E2", 0x04020000, mk(MmaKind::F16, 64, 8, DType::F16, DType::F16, DType::F16), {}});
  // E3: tf32, M=128, N=128, B N-major: 0x10 + TF32 2<<7 = 0x100 + 2<<10 = 0x800 + 1<<16 = 0x10000 +
  // 16<<17 = 0x200000 + 0x08000000 = 0x08210910.
  {
    auto d = mk(MmaKind::TF32, 128, 128, DType::TF32, DType::TF32, DType::F32);
    d.b_major = Major::MN;
    w.push_back({"E3", 0x08210910, d, {}});
  }
  // E4: f8f6f4 e4m3 x e5m2 -> f32, cta_group::2, M=256, N=256: 0x10 + E5M2 1<<10 = 0x400 + 0x400000 +
  // 16<<24 = 0x10000000 = 0x10400410.
  w.push_back({"E4", 0x10400410, mk(MmaKind::F8F6F4, 256, 256, DType::E4M3, DType::E5M2, DType::F32), cx(Arch::Sm100a, 2)});
  // E5: i8 s8 x s8 -> s32 saturating, M=128, N=64: sat 1<<3 = 0x8 + S32 2<<4 = 0x20 + S8 1<<7 = 0x80 +
  // 1<<10 = 0x400 + 8<<17 = 0x100000 + 0x08000000 = 0x081004A8.
  {
    auto d = mk(MmaKind::I8, 128, 64, DType::S8, DType::S8, DType::S32);
    d.saturate = true;
    w.push_back({"E5", 0x081004A8, d, {}});
  }
  // E6: f16 sparse, selector 1, bf16 -> f32, M=128, N=128 (K=32): 1 + 1<<2 = 0x4 + 0x10 + 0x80 + 0x400 +
  // 16<<17 = 0x200000 + 0x08000000 = 0x08200495.
  {
    auto d = mk(MmaKind::F16, 128, 128, DType::BF16, DType::BF16, DType::F32);
    d.sparse = true;
    d.sparse_selector = 1;
    w.push_back({"E6", 0x08200495, d, {}});
  }
  // i8 u8 x s8 -> s32, M=64, N=24 (legal for i8 cta_group::1): S32 0x20 + U8 0 + S8 1<<10 = 0x400 +
  // 3<<17 = 0x60000 + 4<<24 = 0x04000000 = 0x04060420.
  w.push_back({"i8 u8 x s8 N=24", 0x04060420, mk(MmaKind::I8, 64, 24, DType::U8, DType::S8, DType::S32), {}});
  // f8f6f4 e2m1 x e3m2 -> f16, M=128, N=8: F16 0 + E2M1 5<<7 = 0x280 + E3M2 4<<10 = 0x1000 + 1<<17 = 0x20000 +
  // 0x08000000 = 0x08021280.
  w.push_back({"f8f6f4 e2m1 x e3m2 -> f16", 0x08021280, mk(MmaKind::F8F6F4, 128, 8, DType::E2M1, DType::E3M2, DType::F16), {}});
  // tf32 .ws M=32, N=64, max shift 8 (code 1): 0x10 + 0x100 + 0x800 + 8<<17 = 0x100000 + 2<<24 = 0x02000000 +
  // 1<<30 = 0x40000000 = 0x42100910.
  {
    auto d = mk(MmaKind::TF32, 32, 64, DType::TF32, DType::TF32, DType::F32);
    d.max_shift = 8;
    InstrDescContext ws;
    ws.ws = true;
    w.push_back({"tf32 .ws M=32 shift 8", 0x42100910, d, ws});
  }
  // f16 x f16 -> f32, negate A and B, A M-major, M=64, N=256: 0x10 + 1<<13 = 0x2000 + 1<<14 = 0x4000 +
  // 1<<15 = 0x8000 + 0x400000 + 0x04000000 = 0x0440E010.
  {
    auto d = mk(MmaKind::F16, 64, 256, DType::F16, DType::F16, DType::F32);
    d.negate_a = d.negate_b = true;
    d.a_major = Major::MN;
    w.push_back({"f16 negated, A M-major", 0x0440E010, d, {}});
  }
  // i8 sparse, cta_group::2, M=256, N=256, s8 x u8: 1<<2 = 0x4 + 0x20 + S8 1<<7 = 0x80 + U8 0 + 0x400000 +
  // 16<<24 = 0x10000000 = 0x104000A4.
  {
    auto d = mk(MmaKind::I8, 256, 256, DType::S8, DType::U8, DType::S32);
    d.sparse = true;
    w.push_back({"i8 sparse cta_group::2", 0x104000A4, d, cx(Arch::Sm100a, 2)});
  }
  return w;
}

std::vector<Worked> block_cases() {
  std::vector<Worked> w;
  auto bs = [](MmaKind k, int m, int n, DType a, DType b, DType scale, int sfa, int sfb) {
    InstrDesc x = mk(k, m, n, a, b, DType::F32);
    x.scale_type = scale;
    x.sfa_id = sfa;
    x.sfb_id = sfb;
    return x;
  };
  // E7: mxf8f6f4 e4m3 x e4m3, ue8m0, M=128, N=256: UE8M0 1<<23 = 0x800000 + 32<<17 = 0x400000 +
  // M 128>>7 = 1 -> 1<<27 = 0x08000000 = 0x08C00000.
  w.push_back({"E7", 0x08C00000, bs(MmaKind::MXF8F6F4, 128, 256, DType::E4M3, DType::E4M3, DType::UE8M0, 0, 0), {}});
  // E8: mxf4nvf4 e2m1, ue4m3 (4X), M=128, N=128: E2M1 is 1 here: 1<<7 = 0x80 + 1<<10 = 0x400 + UE4M3 0 +
  // 16<<17 = 0x200000 + 0x08000000 = 0x08200480.
  w.push_back({"E8", 0x08200480, bs(MmaKind::MXF4NVF4, 128, 128, DType::E2M1, DType::E2M1, DType::UE4M3, 0, 0),
               cx(Arch::Sm100a, 1, false, ScaleVec::X4)});
  // E9: mxf4 ue8m0, cta_group::2, M=256, N=256, SFA_ID = SFB_ID = 2: SFB 2<<4 = 0x20 + 0x80 + 0x400 + 0x400000 +
  // 0x800000 + 256>>7 = 2 -> 2<<27 = 0x10000000 + SFA 2<<29 = 0x40000000 = 0x50C004A0.
  w.push_back({"E9", 0x50C004A0, bs(MmaKind::MXF4, 256, 256, DType::E2M1, DType::E2M1, DType::UE8M0, 2, 2), cx(Arch::Sm100a, 2)});
  // E10: mxf8f6f4 A e2m1 (code 5), B e4m3, M=128, N=64, SFA_ID 1, SFB_ID 3: 3<<4 = 0x30 + 5<<7 = 0x280 +
  // 8<<17 = 0x100000 + 0x800000 + 0x08000000 + 1<<29 = 0x20000000 = 0x289002B0.
  w.push_back({"E10", 0x289002B0, bs(MmaKind::MXF8F6F4, 128, 64, DType::E2M1, DType::E4M3, DType::UE8M0, 1, 3), {}});
  // mxf4nvf4 K=96 (sm_103a), cta_group::2, M=256, N=256, ue8m0 .block32, SFA 1, SFB 3: 0x30 + 0x80 + 0x400 +
  // 0x400000 + 0x800000 + 0x10000000 + 1<<29 = 0x20000000 + 1<<31 = 0x80000000 = 0xB0C004B0.
  {
    auto d = bs(MmaKind::MXF4NVF4, 256, 256, DType::E2M1, DType::E2M1, DType::UE8M0, 1, 3);
    d.k = 96;
    w.push_back({"mxf4nvf4 K=96", 0xB0C004B0, d, cx(Arch::Sm103a, 2, false, ScaleVec::Block32)});
  }
  // mxf8f6f4 sparse, cta_group::2, M=256, N=128, e5m2 x e2m3, negate B: 1<<2 = 0x4 + E5M2 1<<7 = 0x80 +
  // E2M3 3<<10 = 0xC00 + 1<<14 = 0x4000 + 16<<17 = 0x200000 + 0x800000 + 0x10000000 = 0x10A04C84.
  {
    auto d = bs(MmaKind::MXF8F6F4, 256, 128, DType::E5M2, DType::E2M3, DType::UE8M0, 0, 0);
    d.sparse = true;
    d.negate_b = true;
    w.push_back({"mxf8f6f4 sparse cg2", 0x10A04C84, d, cx(Arch::Sm100a, 2)});
  }
  // mxf8f6f4 A M-major, B N-major (8-bit e4m3), M=128, N=64: 1<<15 = 0x8000 + 1<<16 = 0x10000 + 8<<17 =
  // 0x100000 + 0x800000 + 0x08000000 = 0x08918000.
  {
    auto d = bs(MmaKind::MXF8F6F4, 128, 64, DType::E4M3, DType::E4M3, DType::UE8M0, 0, 0);
    d.a_major = d.b_major = Major::MN;
    w.push_back({"mxf8f6f4 transposed", 0x08918000, d, {}});
  }
  // mxf4nvf4 sparse, M=128, N=256, ue4m3: 0x4 + 0x80 + 0x400 + 0x400000 + 0 + 0x08000000 = 0x08400484.
  {
    auto d = bs(MmaKind::MXF4NVF4, 128, 256, DType::E2M1, DType::E2M1, DType::UE4M3, 0, 0);
    d.sparse = true;
    w.push_back({"mxf4nvf4 sparse ue4m3", 0x08400484, d, cx(Arch::Sm100a, 1, false, ScaleVec::Block16)});
  }
  // mxf4 negate A, M=128, N=8: 0x80 + 0x400 + 1<<13 = 0x2000 + 1<<17 = 0x20000 + 0x800000 + 0x08000000 =
  // 0x08822480.
  {
    auto d = bs(MmaKind::MXF4, 128, 8, DType::E2M1, DType::E2M1, DType::UE8M0, 0, 0);
    d.negate_a = true;
    w.push_back({"mxf4 negate A", 0x08822480, d, {}});
  }
  // mxf4nvf4 ue8m0 2X, M=128, N=16, SFA_ID 2: 0x80 + 0x400 + 2<<17 = 0x40000 + 0x800000 + 0x08000000 +
  // 2<<29 = 0x40000000 = 0x48840480.
  w.push_back({"mxf4nvf4 2X SFA 2", 0x48840480, bs(MmaKind::MXF4NVF4, 128, 16, DType::E2M1, DType::E2M1, DType::UE8M0, 2, 0),
               cx(Arch::Sm100a, 1, false, ScaleVec::X2)});
  return w;
}

void check_worked(const Worked& w) {
  CAPTURE(w.what);
  CAPTURE(kind_name(w.d.kind));
  InstrDesc d = decode_instr_desc(w.raw, w.d.kind);
  CHECK(d.m == w.d.m);
  CHECK(d.n == w.d.n);
  CHECK(d.k == (w.d.k ? w.d.k : implied_k(w.d.kind, w.d.sparse)));
  CHECK(d.a_type == w.d.a_type);
  CHECK(d.b_type == w.d.b_type);
  CHECK(d.d_type == w.d.d_type);
  CHECK(d.a_major == w.d.a_major);
  CHECK(d.b_major == w.d.b_major);
  CHECK(d.negate_a == w.d.negate_a);
  CHECK(d.negate_b == w.d.negate_b);
  CHECK(d.saturate == w.d.saturate);
  CHECK(d.sparse == w.d.sparse);
  CHECK(d.sparse_selector == w.d.sparse_selector);
  CHECK(d.max_shift == w.d.max_shift);
  CHECK(d.scale_type == w.d.scale_type);
  CHECK(d.sfa_id == w.d.sfa_id);
  CHECK(d.sfb_id == w.d.sfb_id);
  CHECK(d.reserved_bits == 0);
  auto raw = encode_instr_desc(w.d);
  REQUIRE(raw.has_value());
  CHECK(*raw == w.raw);
  Violations v = validate_instr_desc(d, w.ctx);
  for (const auto& x : v) CAPTURE(x.to_string());
  CHECK(v.empty());
}

}  // namespace

TEST_CASE("idesc, kinds f16/tf32/f8f6f4/i8 (Table 42): hand-worked values") {
  auto cases = dense_cases();
  CHECK(cases.size() >= 10);
  for (const auto& w : cases) check_worked(w);
}

TEST_CASE("idesc, block-scaled kinds (Tables 43/44): hand-worked values") {
  auto cases = block_cases();
  CHECK(cases.size() >= 10);
  for (const auto& w : cases) check_worked(w);
}

TEST_CASE("idesc: the E2M1 code depends on the kind (5 in f8f6f4/mxf8f6f4, 1 in mxf4/mxf4nvf4)") {
  CHECK(idesc_ab_type_code(MmaKind::F8F6F4, DType::E2M1) == 5);
  CHECK(idesc_ab_type_code(MmaKind::MXF8F6F4, DType::E2M1) == 5);
  CHECK(idesc_ab_type_code(MmaKind::MXF4, DType::E2M1) == 1);
  CHECK(idesc_ab_type_code(MmaKind::MXF4NVF4, DType::E2M1) == 1);
  CHECK(idesc_ab_type_from_code(MmaKind::F8F6F4, 1) == DType::E5M2);
  CHECK(idesc_ab_type_from_code(MmaKind::MXF4, 1) == DType::E2M1);
  CHECK_FALSE(idesc_ab_type_code(MmaKind::MXF4, DType::E4M3).has_value());
  CHECK(idesc_ab_type_code(MmaKind::TF32, DType::TF32) == 2);
  CHECK(idesc_ab_type_code(MmaKind::I8, DType::U8) == 0);
  CHECK(idesc_ab_type_code(MmaKind::I8, DType::S8) == 1);
}

TEST_CASE("idesc: decode then encode gives back every 32-bit value, for every kind") {
  std::mt19937 rng(777);
  for (const auto& k : kMmaKinds) {
    CAPTURE(k.name);
    std::vector<uint32_t> values;
    for (int b = 0; b < 32; ++b) values.push_back(1u << b);
    for (int i = 0; i < 100000; ++i) values.push_back(static_cast<uint32_t>(rng()));
    for (uint32_t raw : values) {
      auto back = encode_instr_desc(decode_instr_desc(raw, k.kind));
      REQUIRE(back.has_value());
      if (*back != raw) {
        CAPTURE(raw);
        CHECK(*back == raw);
        break;
      }
    }
  }
}

TEST_CASE("idesc: encode refuses what the kind's table cannot hold") {
  InstrDesc d = mk(MmaKind::F16, 128, 256, DType::BF16, DType::BF16, DType::F32);
  REQUIRE(encode_instr_desc(d).has_value());
  auto bad = d;
  bad.n = 12;  // not a multiple of 8
  CHECK_FALSE(encode_instr_desc(bad).has_value());
  bad = d;
  bad.m = 520;  // M >> 4 = 32.5
  CHECK_FALSE(encode_instr_desc(bad).has_value());
  bad = d;
  bad.a_type = DType::E4M3;  // no code in kind::f16
  auto r = encode_instr_desc(bad);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message.find("f16 = 0, bf16 = 1") != std::string::npos);
  bad = d;
  bad.max_shift = 12;
  CHECK_FALSE(encode_instr_desc(bad).has_value());
  bad = d;
  bad.k = 32;  // K is implied: 16 for dense f16
  CHECK_FALSE(encode_instr_desc(bad).has_value());
  bad = d;
  bad.scale_type = DType::UE8M0;  // no such field in Table 42
  CHECK_FALSE(encode_instr_desc(bad).has_value());
  InstrDesc m = mk(MmaKind::MXF8F6F4, 128, 64, DType::E4M3, DType::E4M3, DType::F32);
  m.k = 96;  // K=96 exists only for mxf4/mxf4nvf4
  CHECK_FALSE(encode_instr_desc(m).has_value());
  m.k = 0;
  m.m = 64;  // M >> 7 cannot hold 64
  CHECK_FALSE(encode_instr_desc(m).has_value());
  m.m = 128;
  m.d_type = DType::F16;  // block-scaled kinds accumulate in f32
  CHECK_FALSE(encode_instr_desc(m).has_value());
}

TEST_CASE("idesc: field tables own the documented bits") {
  CHECK(IdescDenseBits::kReservedMask == ((1u << 6) | (1u << 23) | (1u << 29)));
  CHECK(IdescMxf8f6f4Bits::kReservedMask == (0x3u | (1u << 3) | (1u << 6) | (0x7u << 24) | (1u << 31)));
  CHECK(IdescMxf4Bits::kReservedMask == (0x3u | (1u << 3) | (1u << 6) | (1u << 12) | (0x7u << 24)));
  CHECK(instr_desc_fields_json(0x08400490, MmaKind::F16) ==
        R"({"sparse_selector": 0, "sparse": 0, "saturate": 0, "d_type": 1, "a_type": 1, "b_type": 1, "negate_a": 0, )"
        R"("negate_b": 0, "transpose_a": 0, "transpose_b": 0, "n_dim": 32, "m_dim": 8, "max_shift": 0})");
}
