// Shared-memory matrix descriptor: values worked out by hand from PTX ISA §9.7.16.4.1 Table 40
// (tcgen05) and §9.7.15.5.1.2.2 (wgmma), encode -> decode -> encode round trips.
//
// Table 40: bits 0-13 start>>4, 16-29 LBO>>4, 32-45 SBO>>4, 46-48 = 0b001, 49-51 base offset,
// 52 LBO mode, 61-63 layout (0 none, 1 128B/32B atom, 2 128B, 4 64B, 6 32B).
// wgmma: same 0-13/16-29/32-45/49-51, layout at 62-63 (0 none, 1 128B, 2 64B, 3 32B), nothing else.
#include <doctest/doctest.h>

#include <random>

#include "isa/descriptors/smem_desc.h"

using namespace tcsim::isa;

namespace {

struct Worked {
  const char* what;
  uint64_t raw;
  uint32_t start, lbo, sbo;
  SwizzleMode layout;
  uint8_t base_offset, lbo_mode;
};

// sm_100 (tcgen05). Constants used below: version 1<<46 = 0x0000400000000000;
// layouts 1<<61 = 0x2000.., 2<<61 = 0x4000.., 4<<61 = 0x8000.., 6<<61 = 0xC000...
const Worked kSm100[] = {
    // S1 (docs/smem_layouts.md §7): bf16 K-major SW128 tile at 0x400. start 0x400>>4 = 0x40; LBO 16>>4 = 1 -> 0x10000;
    // SBO 1024>>4 = 0x40 -> 0x40<<32 = 0x4000000000; + 0x400000000000 + 0x4000000000000000.
    {"S1 K-major 128B at 0x400", 0x4000404000010040, 0x400, 16, 1024, SwizzleMode::B128, 0, 0},
    // Next K-step (+32 bytes): start 0x420 -> 0x42.
    {"S1 +32 B K-step", 0x4000404000010042, 0x420, 16, 1024, SwizzleMode::B128, 0, 0},
    // S2: MN-major SW128 bf16 at 0x8000: start 0x800; LBO 1024 -> 64 = 0x40 -> 0x400000; SBO 4096 -> 256 = 0x100
    // -> 0x10000000000; + 0x400000000000 + 0x4000000000000000 = 0x4000410000400800.
    {"S2 MN-major 128B at 0x8000", 0x4000410000400800, 0x8000, 1024, 4096, SwizzleMode::B128, 0, 0},
    // S3: PTX K-major no-swizzle tf32 example at 0x1000: start 0x100; LBO 256 -> 16 -> 0x100000; SBO 128 -> 8 ->
    // 0x800000000; + version = 0x0000400800100100.
    {"S3 K-major none at 0x1000", 0x0000400800100100, 0x1000, 256, 128, SwizzleMode::None, 0, 0},
    // S4: K-major 32B tf32 at 0x1000: 0x100 | 1<<16 | 16<<32 (0x1000000000) | version | 6<<61 = 0xC000401000010100.
    {"S4 K-major 32B at 0x1000", 0xC000401000010100, 0x1000, 16, 256, SwizzleMode::B32, 0, 0},
    // fp8 K-major 64B at 0x2000, 8 rows x 64 B = SBO 512: 0x200 | 0x10000 | 32<<32 (0x2000000000) | version |
    // 4<<61 (0x8000000000000000) = 0x8000402000010200.
    {"K-major 64B at 0x2000", 0x8000402000010200, 0x2000, 16, 512, SwizzleMode::B64, 0, 0},
    // tf32 MN-major 128B with 32B atoms at 0x4000, LBO 2048 (0x80 -> 0x800000), SBO 512 (0x20 -> 0x2000000000),
    // layout 1<<61 = 0x2000000000000000: 0x2000402000800400.
    {"MN-major 128B/32B-atom at 0x4000", 0x2000402000800400, 0x4000, 2048, 512, SwizzleMode::B128Base32B, 0, 0},
    // Pattern anchored at 0x180 (not 1024-aligned): base offset (0x180 >> 7) & 7 = 3 -> 3<<49 = 0x6000000000000;
    // start 0x18; = 0x4006404000010018.
    {"base offset 3 at 0x180", 0x4006404000010018, 0x180, 16, 1024, SwizzleMode::B128, 3, 0},
    // LBO mode 1 (sm_103a, §9.7.16.3.1.2): LBO field = absolute address 0x1080 >> 4 = 0x108 -> 0x1080000;
    // 1<<52 = 0x10000000000000; start 0x100; SBO 1024: 0x4010404001080100.
    {"LBO mode 1, second chunk at 0x1080", 0x4010404001080100, 0x1000, 0x1080, 1024, SwizzleMode::B128, 0, 1},
    // Largest encodable values: 0x3FFF0 -> 0x3FFF in each 14-bit field, layout none:
    // 0x3FFF | 0x3FFF<<16 | 0x3FFF<<32 | 1<<46 = 0x00007FFF3FFF3FFF.
    {"largest start/LBO/SBO", 0x00007FFF3FFF3FFF, 0x3FFF0, 0x3FFF0, 0x3FFF0, SwizzleMode::None, 0, 0},
    // PTX MN-major 32B bf16 example (LBO 256 -> 16<<16 = 0x100000, SBO 512 -> 32<<32 = 0x2000000000) at 0:
    // 0xC000402000100000.
    {"PTX MN-major 32B bf16", 0xC000402000100000, 0, 256, 512, SwizzleMode::B32, 0, 0},
    // PTX MN-major 64B bf16 example (LBO 512 -> 0x200000, SBO 1024 -> 0x4000000000) at 0x800 (0x80):
    // 0x8000404000200080.
    {"PTX MN-major 64B bf16", 0x8000404000200080, 0x800, 512, 1024, SwizzleMode::B64, 0, 0},
};

// sm_90 (wgmma): layouts 1<<62 = 0x4000.. (128B), 2<<62 = 0x8000.. (64B), 3<<62 = 0xC000.. (32B).
const Worked kSm90[] = {
    // S1's tile for wgmma: no version bit: 0x4000004000010040 (docs/smem_layouts.md §7).
    {"S1 for wgmma", 0x4000004000010040, 0x400, 16, 1024, SwizzleMode::B128, 0, 0},
    {"S1 +32 B", 0x4000004000010042, 0x420, 16, 1024, SwizzleMode::B128, 0, 0},
    // K-major none at 0x1000, LBO 256 (0x100000), SBO 128 (0x800000000): 0x0000000800100100.
    {"K-major none", 0x0000000800100100, 0x1000, 256, 128, SwizzleMode::None, 0, 0},
    // 32B: 3<<62 = 0xC000000000000000 -- the same top bits as tcgen05's 6<<61: 0xC000001000010100.
    {"K-major 32B", 0xC000001000010100, 0x1000, 16, 256, SwizzleMode::B32, 0, 0},
    // 64B: 2<<62 = 0x8000000000000000; start 0x200, SBO 512 (0x2000000000): 0x8000002000010200.
    {"K-major 64B", 0x8000002000010200, 0x2000, 16, 512, SwizzleMode::B64, 0, 0},
    // MN-major 128B at 0x8000, LBO 1024, SBO 4096: 0x4000010000400800.
    {"MN-major 128B", 0x4000010000400800, 0x8000, 1024, 4096, SwizzleMode::B128, 0, 0},
    // base offset 3: 0x6000000000000 -> 0x4006004000010018.
    {"base offset 3", 0x4006004000010018, 0x180, 16, 1024, SwizzleMode::B128, 3, 0},
    // The H200-checked B operand of docs/smem_layouts.md §7: N-major SW64, LBO 512 (32 -> 0x200000), SBO 1024
    // (0x4000000000), here at 0x2400 (0x240): 0x8000004000200240.
    {"H200 N-major SW64 B", 0x8000004000200240, 0x2400, 512, 1024, SwizzleMode::B64, 0, 0},
    {"largest values", 0x00003FFF3FFF3FFF, 0x3FFF0, 0x3FFF0, 0x3FFF0, SwizzleMode::None, 0, 0},
    // 32B with base offset 1 at 0x80: 0x8 | 0x10000 | 16<<32 (0x1000000000) | 1<<49 (0x2000000000000) | 3<<62.
    {"32B base offset 1", 0xC002001000010008, 0x80, 16, 256, SwizzleMode::B32, 1, 0},
};

void check_worked(const Worked& w, Arch arch) {
  CAPTURE(w.what);
  SmemDesc d = decode_smem_desc(w.raw, arch);
  CHECK(d.start_address == w.start);
  CHECK(d.lbo == w.lbo);
  CHECK(d.sbo == w.sbo);
  CHECK(d.layout == w.layout);
  CHECK(d.base_offset == w.base_offset);
  CHECK(d.lbo_mode == w.lbo_mode);
  CHECK(d.reserved_bits == 0);
  CHECK(d.version == (has_tcgen05(arch) ? 1 : 0));
  // And back: build the struct from the fields alone.
  SmemDesc f;
  f.start_address = w.start;
  f.lbo = w.lbo;
  f.sbo = w.sbo;
  f.layout = w.layout;
  f.base_offset = w.base_offset;
  f.lbo_mode = w.lbo_mode;
  f.version = has_tcgen05(arch) ? 1 : 0;
  auto raw = encode_smem_desc(f, arch);
  REQUIRE(raw.has_value());
  CHECK(*raw == w.raw);
}

}  // namespace

TEST_CASE("smem descriptor, sm_100: hand-worked values decode and encode") {
  for (const Worked& w : kSm100) {
    check_worked(w, w.lbo_mode ? Arch::Sm103a : Arch::Sm100a);
    CHECK(validate_smem_desc(decode_smem_desc(w.raw, Arch::Sm103a), Arch::Sm103a).empty());
  }
}

TEST_CASE("smem descriptor, sm_90: hand-worked values decode and encode") {
  for (const Worked& w : kSm90) {
    check_worked(w, Arch::Sm90a);
    CHECK(validate_smem_desc(decode_smem_desc(w.raw, Arch::Sm90a), Arch::Sm90a).empty());
  }
}

TEST_CASE("smem descriptor: decode then encode gives back every 64-bit value (random + single bits)") {
  std::mt19937_64 rng(12345);
  for (Arch arch : {Arch::Sm90a, Arch::Sm100a, Arch::Sm103a}) {
    CAPTURE(arch_name(arch));
    std::vector<uint64_t> values;
    for (int b = 0; b < 64; ++b) values.push_back(uint64_t{1} << b);
    for (int i = 0; i < 200000; ++i) values.push_back(rng());
    for (uint64_t raw : values) {
      auto back = encode_smem_desc(decode_smem_desc(raw, arch), arch);
      REQUIRE(back.has_value());
      if (*back != raw) {
        CAPTURE(raw);
        CHECK(*back == raw);
        break;
      }
    }
  }
}

TEST_CASE("smem descriptor: encode refuses what cannot be encoded") {
  SmemDesc d;
  d.start_address = 0x400;
  d.lbo = 16;
  d.sbo = 1024;
  d.version = 1;
  d.layout = SwizzleMode::B128;
  REQUIRE(encode_smem_desc(d, Arch::Sm100a).has_value());
  SmemDesc bad = d;
  bad.start_address = 0x408;  // not 16-byte aligned
  auto r = encode_smem_desc(bad, Arch::Sm100a);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message.find("not 16-byte aligned") != std::string::npos);
  bad = d;
  bad.sbo = 0x40000;  // 2^18: the (x & 0x3FFFF) mask would silently wrap it to 0
  CHECK_FALSE(encode_smem_desc(bad, Arch::Sm100a).has_value());
  bad = d;
  bad.layout = SwizzleMode::B128Base32B;  // no wgmma code
  bad.version = 0;
  CHECK_FALSE(encode_smem_desc(bad, Arch::Sm90a).has_value());
  bad = d;  // version 1 has no field on sm_90
  CHECK_FALSE(encode_smem_desc(bad, Arch::Sm90a).has_value());
}

TEST_CASE("smem descriptor: names, codes and the field tables") {
  for (SwizzleMode m : {SwizzleMode::None, SwizzleMode::B128Base32B, SwizzleMode::B128, SwizzleMode::B64, SwizzleMode::B32})
    CHECK(parse_swizzle_mode(swizzle_mode_name(m)) == m);
  CHECK(parse_swizzle_mode("128B") == SwizzleMode::B128);
  CHECK_FALSE(parse_swizzle_mode("96b").has_value());
  CHECK(swizzle_bytes(SwizzleMode::None) == 16);
  CHECK(swizzle_bytes(SwizzleMode::B32) == 32);
  CHECK(swizzle_bytes(SwizzleMode::B128Base32B) == 128);
  // Fields own exactly the documented bits; the rest is reserved (14-15, 30-31 on sm_100).
  CHECK(SmemDescSm100Bits::kReservedMask == 0x00000000C000C000ull);
  CHECK(SmemDescSm90Bits::kReservedMask == 0x3FF1C000C000C000ull);
  // Invalid tcgen05 layout codes decode to a recognisable "invalid".
  SmemDesc d = decode_smem_desc(0x6000400000000000ull, Arch::Sm100a);  // code 3
  CHECK(d.raw_layout_code == 3);
  CHECK(smem_desc_layout_name(d) == "invalid");
  // Code 3 on sm_90 is 32B.
  CHECK(smem_desc_layout_name(decode_smem_desc(0xC000000000000000ull, Arch::Sm90a)) == "32b");
  CHECK(smem_desc_fields_text(0x4000404000010040, Arch::Sm100a).find("sbo            [45:32]  = 64") != std::string::npos);
  CHECK(smem_desc_fields_json(0x4000404000010040, Arch::Sm100a) ==
        R"({"start_address": 64, "lbo": 1, "sbo": 64, "version": 1, "base_offset": 0, "lbo_mode": 0, "fixed_zero": 0, "layout": 2})");
}
