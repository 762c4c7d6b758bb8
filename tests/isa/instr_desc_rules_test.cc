// One test per instruction-descriptor rule: the broken descriptor reports the rule (by its section
// and wording), and a legal neighbour that differs only in the offending field reports nothing.
#include <doctest/doctest.h>

#include "isa/descriptors/instr_desc.h"

using namespace tcsim::isa;

namespace {

bool has(const Violations& v, std::string_view section, std::string_view text) {
  for (const auto& x : v)
    if (x.section.find(section) != std::string::npos && x.message.find(text) != std::string::npos) return true;
  return false;
}

std::string dump(const Violations& v) {
  std::string s;
  for (const auto& x : v) s += x.to_string() + "\n";
  return s;
}

InstrDescContext ctx(Arch arch = Arch::Sm100a, int cg = 1, bool ws = false, std::optional<ScaleVec> sv = std::nullopt) {
  InstrDescContext c;
  c.arch = arch;
  c.cta_group = cg;
  c.ws = ws;
  c.scale_vec = sv;
  return c;
}

Violations check(uint32_t raw, MmaKind k, InstrDescContext c = ctx()) { return validate_instr_desc(decode_instr_desc(raw, k), c); }

// Legal baselines (instr_desc_test.cc works them out).
constexpr uint32_t kE1 = 0x08400490;   // f16 bf16 x bf16 -> f32, M128 N256
constexpr uint32_t kE2 = 0x04020000;   // f16 f16 -> f16, M64 N8
constexpr uint32_t kE3 = 0x08210910;   // tf32 M128 N128, B N-major
constexpr uint32_t kE5 = 0x081004A8;   // i8 saturating, M128 N64
constexpr uint32_t kE7 = 0x08C00000;   // mxf8f6f4 e4m3, M128 N256
constexpr uint32_t kE9 = 0x50C004A0;   // mxf4 cg2 M256 N256 SFA=SFB=2
constexpr uint32_t kF8 = 0x08021280;   // f8f6f4 e2m1 x e3m2 -> f16, M128 N8

uint32_t with_n(uint32_t raw, int n) { return (raw & ~(0x3Fu << 17)) | (static_cast<uint32_t>(n / 8) << 17); }
uint32_t with_m_dense(uint32_t raw, int m) { return (raw & ~(0x1Fu << 24)) | (static_cast<uint32_t>(m / 16) << 24); }

}  // namespace

TEST_CASE("rule: tcgen05.mma does not exist on sm_90a") {
  CHECK(check(kE1, MmaKind::F16).empty());
  CHECK(has(check(kE1, MmaKind::F16, ctx(Arch::Sm90a)), "9.7.16.10.9.1", "does not exist on sm_90a"));
}

TEST_CASE("rule: cta_group is 1 or 2") {
  CHECK(has(check(kE1, MmaKind::F16, ctx(Arch::Sm100a, 3)), "cta_group", "cta_group 3 is not 1 or 2"));
}

TEST_CASE("rule: kind::i8 only on sm_100a (not sm_100f, not sm_103a)") {
  CHECK(check(kE5, MmaKind::I8, ctx(Arch::Sm100a)).empty());
  CHECK(has(check(kE5, MmaKind::I8, ctx(Arch::Sm100f)), "Target ISA", "kind::i8 is not supported on sm_100f"));
  CHECK(has(check(kE5, MmaKind::I8, ctx(Arch::Sm103a)), "Target ISA", "kind::i8 is not supported on sm_103a"));
}

TEST_CASE("rule: sparse mxf4/mxf4nvf4 not on sm_100f (§9.7.16.10.9.2)") {
  const uint32_t sp = 0x08400484;  // mxf4nvf4 sparse M128 N256 ue4m3
  CHECK(check(sp, MmaKind::MXF4NVF4, ctx(Arch::Sm100a)).empty());
  CHECK(check(sp & ~0x4u, MmaKind::MXF4NVF4, ctx(Arch::Sm100f)).empty());  // dense is fine on sm_100f
  CHECK(has(check(sp, MmaKind::MXF4NVF4, ctx(Arch::Sm100f)), "9.7.16.10.9.2", "sparse kind::mxf4nvf4 is not supported on sm_100f"));
}

TEST_CASE("rule: K = 96 only on sm_103a (§9.7.16.2.1.1)") {
  const uint32_t k96 = 0xB0C004B0;
  CHECK(check(k96, MmaKind::MXF4NVF4, ctx(Arch::Sm103a, 2)).empty());
  CHECK(has(check(k96, MmaKind::MXF4NVF4, ctx(Arch::Sm100a, 2)), "9.7.16.2.1.1", "not supported on sm_100a"));
}

TEST_CASE("rule: K = 96 needs dense cta_group::2 with M = 256 (Table 39)") {
  const uint32_t k96 = 0xB0C004B0;
  const uint32_t m128 = (k96 & ~(0x3u << 27)) | (1u << 27);
  CHECK(has(check(m128, MmaKind::MXF4NVF4, ctx(Arch::Sm103a, 2)), "Table 39", "K = 96 needs dense cta_group::2 with M = 256"));
  CHECK(has(check(k96 | 0x4u, MmaKind::MXF4NVF4, ctx(Arch::Sm103a, 2)), "Table 44", "only for dense"));
}

TEST_CASE("rule: .ws does not exist for block-scaled kinds or with cta_group::2 (Table 39)") {
  const uint32_t ws = 0x42100910;  // tf32 .ws M=32 N=64
  CHECK(check(ws, MmaKind::TF32, ctx(Arch::Sm100a, 1, true)).empty());
  CHECK(has(check(ws, MmaKind::TF32, ctx(Arch::Sm100a, 2, true)), "9.7.16.10.9.3", "only with .cta_group::1"));
  CHECK(has(check(kE7, MmaKind::MXF8F6F4, ctx(Arch::Sm100a, 1, true)), "Table 39", "has no .ws form"));
}

TEST_CASE("rule: reserved bits of each table must be 0") {
  for (uint32_t bit : {6u, 23u, 29u}) CHECK(has(check(kE1 | (1u << bit), MmaKind::F16), "Table 42", "reserved bit"));
  for (uint32_t bit : {0u, 1u, 3u, 6u, 24u, 25u, 26u, 31u})
    CHECK(has(check(kE7 | (1u << bit), MmaKind::MXF8F6F4), "Table 43", "reserved bit"));
  CHECK(has(check(kE9 | (1u << 12), MmaKind::MXF4, ctx(Arch::Sm100a, 2)), "Table 44", "reserved bit 12"));
  CHECK(has(check(kE9 | 1u, MmaKind::MXF4, ctx(Arch::Sm100a, 2)), "Table 44", "selector is assumed 0"));
}

TEST_CASE("rule: A/B type codes must be defined for the kind") {
  // f16 kind: A code 2 (TF32's code) is not defined.
  CHECK(has(check((kE1 & ~(7u << 7)) | (2u << 7), MmaKind::F16), "Table 42", "A type code 2 is not defined for kind::f16"));
  // f8f6f4: code 2 is a hole between E5M2 = 1 and E2M3 = 3.
  CHECK(has(check((kF8 & ~(7u << 10)) | (2u << 10), MmaKind::F8F6F4), "Table 42", "B type code 2"));
  // mxf4: E2M1 is 1; 5 (E2M1 in f8f6f4) is not defined.
  CHECK(has(check((kE9 & ~(7u << 7)) | (5u << 7), MmaKind::MXF4, ctx(Arch::Sm100a, 2)), "Table 44", "A type code 5"));
  // tf32: only TF32 = 2.
  CHECK(has(check(kE3 & ~(7u << 7), MmaKind::TF32), "Table 42", "A type code 0 is not defined for kind::tf32"));
}

TEST_CASE("rule: D type code and D type per kind (Table 42, Table 39)") {
  CHECK(has(check(kE1 | (3u << 4), MmaKind::F16), "Table 42", "D type code 3 is not defined"));
  CHECK(has(check(kE3 & ~(3u << 4), MmaKind::TF32), "Table 42", "D type f16 (code 0) is not legal for kind::tf32"));
  CHECK(has(check((kE5 & ~(3u << 4)) | (1u << 4), MmaKind::I8), "Table 42", "D type f32 (code 1) is not legal for kind::i8"));
  CHECK(has(check((kE1 & ~(3u << 4)) | (2u << 4), MmaKind::F16), "Table 42", "D type s32"));
  CHECK(check(kF8, MmaKind::F8F6F4).empty());  // f16 D is legal for f8f6f4 (Table 39)
}

TEST_CASE("rule: kind::f16 with f16 D needs f16 inputs; bf16 accumulates to f32 only (Table 39)") {
  CHECK(check(kE2, MmaKind::F16).empty());
  const uint32_t bf16_to_f16 = kE1 & ~(3u << 4);  // E1 with D = F16
  CHECK(has(check(bf16_to_f16, MmaKind::F16), "Table 39", "bf16 inputs accumulate to f32 only"));
}

TEST_CASE("rule: M must be legal for kind, cta_group, .ws and sparsity (Table 39)") {
  CHECK(has(check(with_m_dense(kE1, 96), MmaKind::F16), "Table 39", "M = 96 (field 6) is not legal"));
  CHECK(has(check(with_m_dense(kE1, 256), MmaKind::F16), "Table 39", "legal M: 64, 128"));
  CHECK(check(with_m_dense(kE1, 256), MmaKind::F16, ctx(Arch::Sm100a, 2)).empty());
  CHECK(has(check(with_m_dense(kE1, 64), MmaKind::F16, ctx(Arch::Sm100a, 2)), "Table 39", "legal M: 128, 256"));
  CHECK(has(check(with_m_dense(kE1, 32), MmaKind::F16), "Table 39", "M = 32"));                  // only with .ws
  CHECK(check(with_n(with_m_dense(kE1, 32), 64), MmaKind::F16, ctx(Arch::Sm100a, 1, true)).empty());
  CHECK(has(check(with_m_dense(kE1, 0), MmaKind::F16), "Table 39", "M = 0"));
  // mxf8f6f4 sparse with cta_group::2 is 256xNxK only.
  const uint32_t sp128 = (0x10A04C84 & ~(0x3u << 27)) | (1u << 27);
  CHECK(check(0x10A04C84, MmaKind::MXF8F6F4, ctx(Arch::Sm100a, 2)).empty());
  CHECK(has(check(sp128, MmaKind::MXF8F6F4, ctx(Arch::Sm100a, 2)), "Table 39", "legal M: 256"));
  // block-scaled M field value 3 = 384.
  CHECK(has(check(kE7 | (3u << 27), MmaKind::MXF8F6F4), "Table 39", "M = 384"));
}

TEST_CASE("rule: N must be legal for kind, cta_group, .ws and sparsity (Table 39)") {
  CHECK(has(check(with_n(kE1, 0), MmaKind::F16), "Table 39", "N = 0"));
  CHECK(has(check(with_n(kE1, 264), MmaKind::F16), "Table 39", "legal N: 8..256 step 8"));
  CHECK(has(check(with_n(0x10400410, 8), MmaKind::F8F6F4, ctx(Arch::Sm100a, 2)), "Table 39", "legal N: 16..256 step 16"));
  CHECK(check(with_n(0x10400410, 16), MmaKind::F8F6F4, ctx(Arch::Sm100a, 2)).empty());
  // i8, cta_group::1: 8, 16, 24, 32, then 48..256 step 16 -- 40 is not legal, 24 and 48 are.
  CHECK(has(check(with_n(kE5, 40), MmaKind::I8), "Table 39", "legal N: 8..32 step 8, 48..256 step 16"));
  CHECK(check(with_n(kE5, 24), MmaKind::I8).empty());
  CHECK(check(with_n(kE5, 48), MmaKind::I8).empty());
  // i8, cta_group::2: 32..256 step 32.
  CHECK(has(check(with_n(with_m_dense(kE5, 256), 48), MmaKind::I8, ctx(Arch::Sm100a, 2)), "Table 39", "32..256 step 32"));
  // .ws: N = 64, 128, 256 (dense), 64, 128 (sparse).
  CHECK(has(check(with_n(0x42100910, 192), MmaKind::TF32, ctx(Arch::Sm100a, 1, true)), "Table 39", "legal N: 64, 128, 256"));
  CHECK(has(check(with_n(0x42100910 | 0x4u, 256), MmaKind::TF32, ctx(Arch::Sm100a, 1, true)), "Table 39", "legal N: 64, 128"));
}

TEST_CASE("rule: saturate only for kind::i8 (Table 42)") {
  CHECK(check(kE5, MmaKind::I8).empty());
  CHECK(has(check(kE1 | 0x8u, MmaKind::F16), "Table 42", "saturate (bit 3) is only for integer types"));
}

TEST_CASE("rule: no negate for kind::i8 (Table 51)") {
  CHECK(has(check(kE5 | (1u << 13), MmaKind::I8), "Table 51", "negate A is not supported for kind::i8"));
  CHECK(has(check(kE5 | (1u << 14), MmaKind::I8), "Table 51", "negate B is not supported"));
  CHECK(check(kE1 | (3u << 13), MmaKind::F16).empty());
  CHECK(check(kE9 | (3u << 13), MmaKind::MXF4, ctx(Arch::Sm100a, 2)).empty());
}

TEST_CASE("rule: no transpose for kind::mxf4 / mxf4nvf4 (Table 51, Table 44)") {
  CHECK(has(check(kE9 | (1u << 15), MmaKind::MXF4, ctx(Arch::Sm100a, 2)), "Table 51", "transpose A (MN-major) is not supported for kind::mxf4"));
  CHECK(has(check(0x08200480 | (1u << 16), MmaKind::MXF4NVF4), "Table 51", "transpose B"));
}

TEST_CASE("rule: 4- and 6-bit types must be K-major (Table 54)") {
  // kF8: A e2m1 (4-bit), B e3m2 (6-bit).
  CHECK(has(check(kF8 | (1u << 15), MmaKind::F8F6F4), "Table 54", "type e2m1 is 4-bit"));
  CHECK(has(check(with_n(kF8, 16) | (1u << 16), MmaKind::F8F6F4), "Table 54", "type e3m2 is 6-bit"));
  // An 8-bit type may be transposed.
  CHECK(check(0x10400410 | (1u << 15), MmaKind::F8F6F4, ctx(Arch::Sm100a, 2)).empty());
}

TEST_CASE("rule: transposed 8-bit B restricts N (Table 52)") {
  const uint32_t i8_64 = kE5;  // s8 B, N = 64
  CHECK(check(i8_64 | (1u << 16), MmaKind::I8).empty());
  CHECK(has(check(with_n(i8_64, 24) | (1u << 16), MmaKind::I8), "Table 52", "needs N = 16..256 step 16, N is 24"));
  CHECK(check(with_n(i8_64, 24), MmaKind::I8).empty());  // K-major B: N = 24 is fine
  // cta_group::2: 32..256 step 32. e5m2 B, M=256.
  CHECK(has(check(with_n(0x10400410, 48) | (1u << 16), MmaKind::F8F6F4, ctx(Arch::Sm100a, 2)), "Table 52", "32..256 step 32"));
  CHECK(check(with_n(0x10400410, 64) | (1u << 16), MmaKind::F8F6F4, ctx(Arch::Sm100a, 2)).empty());
  // A 16-bit B has no such restriction.
  CHECK(check(with_n(kE1, 24) | (1u << 16), MmaKind::F16).empty());
}

TEST_CASE("rule: sparsity selector must be 0 for kind::i8 and kind::f8f6f4 (§9.7.16.10.8.4.5-6)") {
  const uint32_t i8sp = kE5 | 0x4u;
  CHECK(check(i8sp, MmaKind::I8).empty());
  CHECK(has(check(i8sp | 0x2u, MmaKind::I8), "9.7.16.10.8.4", "must be 0 for kind::i8"));
  CHECK(has(check(kF8 | 0x4u | 0x1u, MmaKind::F8F6F4), "9.7.16.10.8.4", "must be 0 for kind::f8f6f4"));
  CHECK(check(0x08200495 | 0x3u, MmaKind::F16).empty());  // f16: selector 0-3
}

TEST_CASE("rule: scale type must be UE8M0 for mxf8f6f4 and mxf4 (Tables 43/44)") {
  CHECK(has(check(kE7 & ~(1u << 23), MmaKind::MXF8F6F4), "Table 43", "must be UE8M0 = 1 for kind::mxf8f6f4"));
  CHECK(has(check(kE9 & ~(1u << 23), MmaKind::MXF4, ctx(Arch::Sm100a, 2)), "Table 44", "must be UE8M0 = 1 for kind::mxf4"));
  CHECK(check(0x08200480, MmaKind::MXF4NVF4).empty());  // UE4M3 is legal for mxf4nvf4
}

TEST_CASE("rule: scale-vector qualifier must exist on the arch (§9.7.16.10.9.1)") {
  CHECK(check(kE7, MmaKind::MXF8F6F4, ctx(Arch::Sm100f, 1, false, ScaleVec::Block32)).empty());
  CHECK(has(check(kE7, MmaKind::MXF8F6F4, ctx(Arch::Sm100f, 1, false, ScaleVec::X1)), "Target ISA",
            ".scale_vec::1X is not supported on sm_100f"));
  CHECK(check(kE7, MmaKind::MXF8F6F4, ctx(Arch::Sm103a, 1, false, ScaleVec::X1)).empty());
}

TEST_CASE("rule: scale vector x kind x scale type (Table 57)") {
  CHECK(has(check(kE7, MmaKind::MXF8F6F4, ctx(Arch::Sm100a, 1, false, ScaleVec::X2)), "Table 57", ".scale_vec::2X is not valid for kind::mxf8f6f4"));
  CHECK(has(check(kE9, MmaKind::MXF4, ctx(Arch::Sm100a, 2, false, ScaleVec::X4)), "Table 57", ".scale_vec::4X is not valid for kind::mxf4"));
  // mxf4nvf4 with UE4M3 scales: 4X / block16 only.
  CHECK(has(check(0x08200480, MmaKind::MXF4NVF4, ctx(Arch::Sm100a, 1, false, ScaleVec::Block32)), "Table 57",
            "with ue4m3 scale factors"));
  CHECK(check(0x08200480, MmaKind::MXF4NVF4, ctx(Arch::Sm100a, 1, false, ScaleVec::Block16)).empty());
  CHECK(has(check(kE1, MmaKind::F16, ctx(Arch::Sm100a, 1, false, ScaleVec::X1)), "Table 57", "is not block-scaled"));
}

TEST_CASE("rule: SF_ID values (Table 44; §9.7.16.10.7.2-3)") {
  auto sf = [](uint32_t raw, int sfa, int sfb) {
    return (raw & ~((3u << 29) | (3u << 4))) | (static_cast<uint32_t>(sfa) << 29) | (static_cast<uint32_t>(sfb) << 4);
  };
  // mxf4 / mxf4nvf4: 0 or 2.
  CHECK(has(check(sf(kE9, 1, 2), MmaKind::MXF4, ctx(Arch::Sm100a, 2)), "Table 44", "SFA_ID 1 is not legal"));
  CHECK(has(check(sf(kE9, 2, 3), MmaKind::MXF4, ctx(Arch::Sm100a, 2)), "Table 44", "SFB_ID 3 is not legal"));
  // mxf8f6f4 (1X): any byte 0-3.
  CHECK(check(sf(kE7, 3, 1), MmaKind::MXF8F6F4).empty());
  // 4X / block16 (and so UE4M3 scales): must be 0.
  CHECK(has(check(sf(0x48840480, 2, 0), MmaKind::MXF4NVF4, ctx(Arch::Sm100a, 1, false, ScaleVec::X4)), "9.7.16.10.7",
            "SFA_ID 2 is not legal with .scale_vec::4X"));
  CHECK(check(sf(0x48840480, 2, 0), MmaKind::MXF4NVF4, ctx(Arch::Sm100a, 1, false, ScaleVec::X2)).empty());
  CHECK(has(check(sf(0x08200480, 0, 2), MmaKind::MXF4NVF4), "9.7.16.10.7", "with UE4M3 scales"));
  // block32 with K = 96 (3 per row): byte offsets 0-3; block16 with K = 96 (6 per row): 0 or 2.
  CHECK(check(sf(0xB0C004B0, 1, 3), MmaKind::MXF4NVF4, ctx(Arch::Sm103a, 2, false, ScaleVec::Block32)).empty());
  CHECK(has(check(sf(0xB0C004B0, 1, 0), MmaKind::MXF4NVF4, ctx(Arch::Sm103a, 2, false, ScaleVec::Block16)), "9.7.16.10.7",
            "SFA_ID 1 is not legal with .block16 and K = 96"));
}

TEST_CASE("combined: tf32 transposed B needs the 128B/32B-atom swizzle on its smem descriptor (Table 54)") {
  InstrDesc d = decode_instr_desc(kE3, MmaKind::TF32);  // B N-major
  SmemDesc a = decode_smem_desc(0x4000404000010040, Arch::Sm100a);      // K-major 128B
  SmemDesc b_ok = decode_smem_desc(0x2000402000800400, Arch::Sm100a);   // 128b_base32b
  SmemDesc b_bad = decode_smem_desc(0x4000410000400800, Arch::Sm100a);  // 128b
  CHECK(validate_mma_descriptors(d, ctx(), &a, &b_ok).empty());
  Violations v = validate_mma_descriptors(d, ctx(), &a, &b_bad);
  CAPTURE(dump(v));
  CHECK(has(v, "Table 54", "operand B: MN-major 32-bit type tf32"));
  CHECK(v.size() == 1);
  // A in TMEM (no descriptor): only the idesc and B are checked.
  CHECK(validate_mma_descriptors(d, ctx(), nullptr, &b_ok).empty());
}
