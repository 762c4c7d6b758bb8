// One test per shared-memory-descriptor rule: the broken descriptor reports the rule (by section
// and wording), and a legal neighbour differing only in the offending field reports nothing.
#include <doctest/doctest.h>

#include "isa/descriptors/smem_desc.h"

using namespace tcsim::isa;

namespace {

constexpr uint64_t kS1 = 0x4000404000010040;  // docs/smem_layouts.md §7 S1: legal on every sm_100 arch
constexpr uint64_t kW1 = 0x4000004000010040;  // the same tile for wgmma

bool has(const Violations& v, std::string_view section, std::string_view text) {
  for (const auto& x : v)
    if (x.section.find(section) != std::string::npos && x.message.find(text) != std::string::npos) return true;
  return false;
}

Violations check_raw(uint64_t raw, Arch arch) { return validate_smem_desc(decode_smem_desc(raw, arch), arch); }

}  // namespace

TEST_CASE("rule: sm_100 version bits 46-48 must be 0b001 (Table 40)") {
  CHECK(check_raw(kS1, Arch::Sm100a).empty());
  Violations v = check_raw(kW1, Arch::Sm100a);  // a wgmma descriptor given to tcgen05
  CHECK(has(v, "9.7.16.4.1", "must be the fixed constant 0b001"));
  CHECK(has(v, "9.7.16.4.1", "sm_90 wgmma descriptor"));
  CHECK(has(check_raw(kS1 | (uint64_t{1} << 47), Arch::Sm100a), "9.7.16.4.1", "0b011"));
}

TEST_CASE("rule: sm_100 reserved bits 14-15 and 30-31 must be 0") {
  CHECK(has(check_raw(kS1 | (uint64_t{1} << 14), Arch::Sm100a), "9.7.16.4.1", "reserved bit 14"));
  CHECK(has(check_raw(kS1 | (uint64_t{3} << 30), Arch::Sm100a), "9.7.16.4.1", "reserved bits 30-31"));
}

TEST_CASE("rule: sm_100 bits 53-60 are the fixed constant 0") {
  Violations v = check_raw(kS1 | (uint64_t{0x5} << 53), Arch::Sm100a);
  CHECK(has(v, "9.7.16.4.1", "bits 53-60 are 0x05"));
  CHECK(v.size() == 1);
}

TEST_CASE("rule: swizzle codes 3, 5, 7 are invalid on sm_100") {
  for (uint64_t code : {3, 5, 7}) {
    uint64_t raw = (kS1 & ~(uint64_t{7} << 61)) | (code << 61);
    CHECK(has(check_raw(raw, Arch::Sm100a), "9.7.16.4.1", "is invalid"));
  }
  for (uint64_t code : {0, 1, 2, 4, 6}) CHECK(check_raw((kS1 & ~(uint64_t{7} << 61)) | (code << 61), Arch::Sm100a).empty());
}

TEST_CASE("rule: LBO mode 1 only on sm_103a (§9.7.16.4.1.1)") {
  const uint64_t abs = 0x4010404001080100;  // S8: 128B, base offset 0, LBO mode 1
  CHECK(check_raw(abs, Arch::Sm103a).empty());
  CHECK(has(check_raw(abs, Arch::Sm100a), "9.7.16.4.1.1", "only on sm_103a"));
  CHECK(has(check_raw(abs, Arch::Sm100f), "9.7.16.4.1.1", "only on sm_103a"));
}

TEST_CASE("rule: LBO mode 1 only with 128B swizzle with 16B atomicity (§9.7.16.3.1.2.1 rule 1)") {
  const uint64_t abs64 = (0x4010404001080100 & ~(uint64_t{7} << 61)) | (uint64_t{4} << 61);
  CHECK(has(check_raw(abs64, Arch::Sm103a), "9.7.16.3.1.2.1", "needs 128B swizzling"));
  const uint64_t abs_atom32 = (0x4010404001080100 & ~(uint64_t{7} << 61)) | (uint64_t{1} << 61);
  CHECK(has(check_raw(abs_atom32, Arch::Sm103a), "9.7.16.3.1.2.1", "needs 128B swizzling"));
}

TEST_CASE("rule: LBO mode 1 needs base offset 0 (§9.7.16.3.1.2.1 rule 3)") {
  CHECK(has(check_raw(0x4010404001080100 | (uint64_t{2} << 49), Arch::Sm103a), "9.7.16.3.1.2.1", "base offset 0"));
}

TEST_CASE("rule: LBO mode 1 only for K-major operands (§9.7.16.3.1.2.1 rule 2)") {
  SmemDesc d = decode_smem_desc(0x4010404001080100, Arch::Sm103a);
  CHECK(validate_smem_desc(d, SmemDescContext{Arch::Sm103a, Major::K, DType::E2M1, "A"}).empty());
  Violations v = validate_smem_desc(d, SmemDescContext{Arch::Sm103a, Major::MN, DType::E4M3, "B"});
  CHECK(has(v, "9.7.16.3.1.2.1", "operand B: LBO mode 1 is supported only for K-major"));
}

TEST_CASE("rule: start address, LBO, SBO must be 16-byte aligned and encodable (struct values)") {
  SmemDesc d = decode_smem_desc(kS1, Arch::Sm100a);
  CHECK(validate_smem_desc(d, Arch::Sm100a).empty());
  SmemDesc bad = d;
  bad.start_address = 0x404;
  CHECK(has(validate_smem_desc(bad, Arch::Sm100a), "9.7.16.4.1", "start address 1028 (0x404) is not 16-byte aligned"));
  bad = d;
  bad.lbo = 24;
  CHECK(has(validate_smem_desc(bad, Arch::Sm100a), "9.7.16.4.1", "LBO 24 (0x18) is not 16-byte aligned"));
  bad = d;
  bad.sbo = 0x40000;
  CHECK(has(validate_smem_desc(bad, Arch::Sm100a), "9.7.16.4.1", "SBO 262144 (0x40000) does not fit"));
  bad = d;
  bad.start_address = 0x3;
  CHECK(has(validate_smem_desc(bad, Arch::Sm90a), "9.7.15.5.1.2.2", "not 16-byte aligned"));
}

TEST_CASE("rule: Table 54 -- MN-major 8/16-bit not with 128B/32B-atom swizzle; MN-major 32-bit only with it") {
  SmemDesc atom32 = decode_smem_desc(0x2000402000800400, Arch::Sm100a);  // 128b_base32b
  SmemDesc sw128 = decode_smem_desc(0x4000410000400800, Arch::Sm100a);   // 128b
  // tf32 (32-bit) MN-major: 128b_base32b is the only legal mode.
  CHECK(validate_smem_desc(atom32, SmemDescContext{Arch::Sm100a, Major::MN, DType::TF32, "B"}).empty());
  CHECK(has(validate_smem_desc(sw128, SmemDescContext{Arch::Sm100a, Major::MN, DType::TF32, "B"}), "Table 54",
            "32-bit type tf32 is supported only with 128B swizzling with 32B atomicity"));
  // bf16 / e4m3 MN-major: everything but 128b_base32b.
  CHECK(validate_smem_desc(sw128, SmemDescContext{Arch::Sm100a, Major::MN, DType::BF16, "B"}).empty());
  CHECK(has(validate_smem_desc(atom32, SmemDescContext{Arch::Sm100a, Major::MN, DType::BF16, "B"}), "Table 54",
            "16-bit type bf16 is not supported with 128B swizzling with 32B atomicity"));
  CHECK(has(validate_smem_desc(atom32, SmemDescContext{Arch::Sm100a, Major::MN, DType::E4M3, "A"}), "Table 54",
            "operand A: MN-major 8-bit type e4m3"));
  // K-major: every swizzling mode, every type size (Table 54, "Row ... All swizzling modes").
  for (DType t : {DType::TF32, DType::BF16, DType::E4M3, DType::E2M1}) {
    CHECK(validate_smem_desc(atom32, SmemDescContext{Arch::Sm100a, Major::K, t, "A"}).empty());
    CHECK(validate_smem_desc(sw128, SmemDescContext{Arch::Sm100a, Major::K, t, "A"}).empty());
  }
}

TEST_CASE("rule: sm_90 bits outside the wgmma fields are reserved (§9.7.15.5.1.2.2)") {
  CHECK(check_raw(kW1, Arch::Sm90a).empty());
  Violations v = check_raw(kS1, Arch::Sm90a);  // a tcgen05 descriptor given to wgmma
  CHECK(has(v, "9.7.15.5.1.2.2", "reserved bit 46"));
  CHECK(has(v, "9.7.15.5.1.2.2", "a tcgen05 descriptor given to wgmma?"));
  CHECK(has(check_raw(kW1 | (uint64_t{1} << 61), Arch::Sm90a), "9.7.15.5.1.2.2", "reserved bit 61"));
  CHECK(has(check_raw(kW1 | (uint64_t{1} << 52), Arch::Sm90a), "9.7.15.5.1.2.2", "reserved bit 52"));
  CHECK(has(check_raw(kW1 | (uint64_t{1} << 31), Arch::Sm90a), "9.7.15.5.1.2.2", "reserved bit 31"));
}

TEST_CASE("rule: sm_90 base offset is not valid with no swizzle (§9.7.15.5.1.2.2)") {
  const uint64_t none = 0x0000000800100100;
  CHECK(check_raw(none, Arch::Sm90a).empty());
  CHECK(has(check_raw(none | (uint64_t{2} << 49), Arch::Sm90a), "9.7.15.5.1.2.2", "no swizzle"));
  CHECK(check_raw(kW1 | (uint64_t{2} << 49), Arch::Sm90a).empty());  // with 128B it is fine
}

TEST_CASE("rule: wgmma transposes only f16/bf16 operands (§9.7.15.5.2)") {
  SmemDesc d = decode_smem_desc(kW1, Arch::Sm90a);
  CHECK(validate_smem_desc(d, SmemDescContext{Arch::Sm90a, Major::MN, DType::BF16, "B"}).empty());
  CHECK(validate_smem_desc(d, SmemDescContext{Arch::Sm90a, Major::K, DType::TF32, "B"}).empty());
  CHECK(has(validate_smem_desc(d, SmemDescContext{Arch::Sm90a, Major::MN, DType::TF32, "B"}), "9.7.15.5.2",
            "only for .f16/.bf16, not tf32"));
  CHECK(has(validate_smem_desc(d, SmemDescContext{Arch::Sm90a, Major::MN, DType::E4M3, "A"}), "9.7.15.5.2", "e4m3"));
}
