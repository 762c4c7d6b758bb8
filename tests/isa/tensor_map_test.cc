// Tensor maps: tcsim's 128-byte encoding worked out by hand (layout in isa/descriptors/tensor_map.h),
// decode(encode(p)) == p, garbage rejected, and one test per cuTensorMapEncodeTiled rule (cuda.h 13.0).
//
// Header word 0 = magic 0x4D546374 | 1 << 32 (version) | dtype << 40 | rank << 44 | interleave << 47 |
// swizzle << 49 | l2 << 52 | oob << 54. Enum values as in cuda.h: dtype UINT8 0 .. BFLOAT16 9 ..
// 16U4_ALIGN8B 13, 16U4_ALIGN16B 14, 16U6_ALIGN16B 15; swizzle NONE 0, 32B 1, 64B 2, 128B 3,
// 128B_ATOM_32B 4, 128B_ATOM_32B_FLIP_8B 5, 128B_ATOM_64B 6.
#include <doctest/doctest.h>

#include <algorithm>

#include "isa/descriptors/tensor_map.h"

using namespace tcsim::isa;
using DT = TensorMapDataType;
using SW = TensorMapSwizzle;

namespace {

TensorMapParams make(DT t, uint32_t rank, std::initializer_list<uint64_t> dims, std::initializer_list<uint64_t> strides,
                     std::initializer_list<uint32_t> box, std::initializer_list<uint32_t> es, SW sw = SW::None,
                     TensorMapInterleave il = TensorMapInterleave::None,
                     TensorMapL2Promotion l2 = TensorMapL2Promotion::None, TensorMapOobFill oob = TensorMapOobFill::None,
                     uint64_t addr = 0x7f0000000000) {
  TensorMapParams p;
  p.data_type = t;
  p.rank = rank;
  p.global_address = addr;
  std::copy(dims.begin(), dims.end(), p.global_dim.begin());
  std::copy(strides.begin(), strides.end(), p.global_strides.begin());
  std::copy(box.begin(), box.end(), p.box_dim.begin());
  std::copy(es.begin(), es.end(), p.element_strides.begin());
  p.swizzle = sw;
  p.interleave = il;
  p.l2_promotion = l2;
  p.oob_fill = oob;
  return p;
}

uint64_t word(const TensorMapBytes& b, int w) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[static_cast<std::size_t>(w * 8 + i)];
  return v;
}

// An independent FNV-1a-64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
uint64_t fnv(const TensorMapBytes& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 120; ++i) h = (h ^ b[static_cast<std::size_t>(i)]) * 0x100000001b3ull;
  return h;
}

struct Worked {
  const char* what;
  TensorMapParams p;
  uint64_t header;   // word 0
  uint64_t box;      // word 11: box dims, 12 bits each
  uint64_t estride;  // word 12: element strides, 8 bits each
};

std::vector<Worked> cases() {
  using IL = TensorMapInterleave;
  using L2 = TensorMapL2Promotion;
  using OOB = TensorMapOobFill;
  return {
      // LAUNCH_SPEC.md's tmA: bf16 (9), rank 2, 128B (3): 9<<40 = 0x090000000000, 2<<44 = 0x200000000000,
      // 3<<49 = 0x6000000000000 -> 0x000629014D546374. Box 64 | 128<<12 = 0x80040; strides 1 | 1<<8 = 0x101.
      {"launch-spec tmA", make(DT::BFloat16, 2, {512, 1024}, {1024}, {64, 128}, {1, 1}, SW::B128), 0x000629014D546374,
       0x80040, 0x101},
      // f32 (7), rank 1: 7<<40 + 1<<44 = 0x170000000000 -> 0x000017014D546374; box 64 (256 B) = 0x40.
      {"f32 rank 1", make(DT::Float32, 1, {256}, {}, {64}, {1}), 0x000017014D546374, 0x40, 0x1},
      // u8, rank 3, 64B (2<<49 = 0x4000000000000), L2 128B (2<<52 = 0x20000000000000): 0x002430014D546374;
      // box 64 | 8<<12 | 2<<24 = 0x2008040.
      {"u8 rank 3 64B", make(DT::UInt8, 3, {64, 32, 4}, {64, 2048}, {64, 8, 2}, {1, 1, 1}, SW::B64, IL::None, L2::L2_128B),
       0x002430014D546374, 0x2008040, 0x010101},
      // f16 (6), rank 3, interleave 16B (1<<47 = 0x800000000000): 0x0000B6014D546374; box 8 | 16<<12 | 4<<24.
      {"f16 NC/8HWC8", make(DT::Float16, 3, {8, 16, 16}, {16, 256}, {8, 16, 4}, {1, 1, 1}, SW::None, IL::B16),
       0x0000B6014D546374, 0x4010008, 0x010101},
      // u16 (1), rank 3, interleave 32B (2<<47 = 0x1000000000000) with 32B swizzle (1<<49): 0x000331014D546374.
      {"u16 interleave 32B", make(DT::UInt16, 3, {16, 8, 8}, {32, 256}, {16, 8, 8}, {1, 1, 1}, SW::B32, IL::B32),
       0x000331014D546374, 0x8008010, 0x010101},
      // 16U4_ALIGN16B (14 = 0xE), rank 2, 128B: 0x00062E014D546374; dim0 256 U4 = 128 B rows; box0 128.
      {"16U4_ALIGN16B", make(DT::U4x16Align16B, 2, {256, 64}, {128}, {128, 32}, {1, 1}, SW::B128), 0x00062E014D546374,
       0x20080, 0x101},
      // 16U6_ALIGN16B (15), rank 2, 128B_ATOM_32B (4<<49 = 0x8000000000000): 0x00082F014D546374; 128 U6 = 96 B rows.
      {"16U6_ALIGN16B", make(DT::U6x16Align16B, 2, {128, 16}, {96}, {128, 16}, {1, 1}, SW::B128Atom32B),
       0x00082F014D546374, 0x10080, 0x101},
      // f32, rank 2, 32B (1<<49), L2 256B (3<<52 = 0x30000000000000), OOB NaN (1<<54 = 0x40000000000000):
      // 0x007227014D546374; element strides 1 | 2<<8 = 0x201.
      {"f32 NaN fill", make(DT::Float32, 2, {8, 8}, {32}, {8, 8}, {1, 2}, SW::B32, IL::None, L2::L2_256B, OOB::NanRequestZeroFma),
       0x007227014D546374, 0x8008, 0x201},
      // f64 (8), rank 5 (5<<44 = 0x500000000000): 0x000058014D546374; box 2 in each 12-bit slot.
      {"f64 rank 5", make(DT::Float64, 5, {2, 2, 2, 2, 2}, {16, 32, 64, 128}, {2, 2, 2, 2, 2}, {1, 1, 1, 1, 1}),
       0x000058014D546374, 0x2002002002002, 0x0101010101},
      // 16U4_ALIGN8B (13 = 0xD), rank 1, L2 64B (1<<52): 0x00101D014D546374; box 32 U4 = 16 B.
      {"16U4_ALIGN8B", make(DT::U4x16Align8B, 1, {64}, {}, {32}, {1}, SW::None, IL::None, L2::L2_64B),
       0x00101D014D546374, 0x20, 0x1},
      // i64 (5), rank 2, 128B_ATOM_64B (6<<49 = 0xC000000000000): 0x000C25014D546374.
      {"i64 128B atom 64B", make(DT::Int64, 2, {16, 4}, {128}, {16, 4}, {1, 1}, SW::B128Atom64B), 0x000C25014D546374,
       0x4010, 0x101},
  };
}

bool has(const Violations& v, std::string_view text) {
  for (const auto& x : v)
    if (x.message.find(text) != std::string::npos && x.section.find("cuTensorMapEncodeTiled") != std::string::npos)
      return true;
  return false;
}

// A legal neighbour for the rule tests: bf16 2-D, 128B swizzle.
TensorMapParams base() { return make(DT::BFloat16, 2, {512, 1024}, {1024}, {64, 128}, {1, 1}, SW::B128); }

}  // namespace

TEST_CASE("tensor map: hand-worked encodings, checksum, and decode back") {
  auto cs = cases();
  CHECK(cs.size() >= 10);
  for (const Worked& w : cs) {
    CAPTURE(w.what);
    CHECK(validate_tensor_map(w.p).empty());
    auto b = encode_tensor_map(w.p);
    REQUIRE(b.has_value());
    CHECK(word(*b, 0) == w.header);
    CHECK(word(*b, 1) == w.p.global_address);
    for (uint32_t i = 0; i < 5; ++i) CHECK(word(*b, 2 + static_cast<int>(i)) == (i < w.p.rank ? w.p.global_dim[i] : 0));
    for (uint32_t i = 0; i < 4; ++i)
      CHECK(word(*b, 7 + static_cast<int>(i)) == (i + 1 < w.p.rank ? w.p.global_strides[i] : 0));
    CHECK(word(*b, 11) == w.box);
    CHECK(word(*b, 12) == w.estride);
    CHECK(word(*b, 13) == 0);
    CHECK(word(*b, 14) == 0);
    CHECK(word(*b, 15) == fnv(*b));
    auto back = decode_tensor_map(*b);
    REQUIRE(back.has_value());
    CHECK(*back == w.p);
  }
}

TEST_CASE("tensor map: decode refuses bytes tcsim did not encode") {
  auto b = *encode_tensor_map(base());
  REQUIRE(decode_tensor_map(b).has_value());
  TensorMapBytes zero{};
  CHECK(decode_tensor_map(zero).error().message.find("not a tcsim-encoded tensor map") != std::string::npos);
  auto flipped = b;
  flipped[16] ^= 1;  // global_dim[0]
  CHECK(decode_tensor_map(flipped).error().message.find("checksum mismatch") != std::string::npos);
  auto ver = b;
  ver[4] = 2;
  CHECK(decode_tensor_map(ver).error().message.find("version 2") != std::string::npos);
  CHECK(decode_tensor_map(std::span<const uint8_t>(b.data(), 64)).error().message.find("128 bytes") != std::string::npos);
  // A map whose checksum is right but whose parameters break a driver rule is refused too.
  auto bad = b;
  bad[16] = 0, bad[17] = 0;  // global_dim[0] = 0
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 120; ++i) h = (h ^ bad[static_cast<std::size_t>(i)]) * 0x100000001b3ull;
  for (int i = 0; i < 8; ++i) bad[static_cast<std::size_t>(120 + i)] = static_cast<uint8_t>(h >> (8 * i));
  CHECK(decode_tensor_map(bad).error().message.find("globalDim must be non-zero") != std::string::npos);
}

TEST_CASE("tensor map: names of every enum round-trip; launch-spec buffer names are accepted") {
  for (int i = 0; i <= 15; ++i) {
    auto t = static_cast<DT>(i);
    CHECK(parse_tensor_map_dtype(tensor_map_dtype_name(t)) == t);
  }
  for (int i = 0; i <= 6; ++i) CHECK(parse_tensor_map_swizzle(tensor_map_swizzle_name(static_cast<SW>(i))) == static_cast<SW>(i));
  CHECK(tensor_map_swizzle_name(SW::B128Atom32BFlip8B) == "128B_atom_32B_flip_8B");
  CHECK(parse_tensor_map_interleave("32B") == TensorMapInterleave::B32);
  CHECK(parse_tensor_map_l2_promotion("256B") == TensorMapL2Promotion::L2_256B);
  CHECK(parse_tensor_map_oob_fill("nan") == TensorMapOobFill::NanRequestZeroFma);
  CHECK(parse_tensor_map_dtype("bf16") == DT::BFloat16);
  CHECK(parse_tensor_map_dtype("e4m3") == DT::UInt8);
  CHECK(parse_tensor_map_dtype("e2m1x2") == DT::UInt8);
  CHECK(parse_tensor_map_dtype("i16") == DT::UInt16);
  CHECK_FALSE(parse_tensor_map_dtype("f8").has_value());
  CHECK_FALSE(parse_tensor_map_swizzle("256B").has_value());
  CHECK(tensor_map_global_bits(DT::U6x16Align16B) == 6);
  CHECK(tensor_map_smem_bits(DT::U6x16Align16B) == 8);
  CHECK(tensor_map_smem_bits(DT::U4x16Align8B) == 4);
}

// ---- one test per cuTensorMapEncodeTiled rule -----------------------------------------------------

TEST_CASE("rule: tensorRank 1..5") {
  CHECK(validate_tensor_map(base()).empty());
  auto p = base();
  p.rank = 0;
  CHECK(has(validate_tensor_map(p), "tensorRank must be non-zero and less than or equal to"));
  p.rank = 6;
  CHECK(has(validate_tensor_map(p), "(tensorRank is 6)"));
}

TEST_CASE("rule: tensorRank >= 3 with interleave") {
  auto p = base();
  p.interleave = TensorMapInterleave::B16;
  p.swizzle = SW::None;
  CHECK(has(validate_tensor_map(p), "tensorRank must additionally be greater than or equal to 3"));
}

TEST_CASE("rule: globalAddress 16-byte aligned; 32 with INTERLEAVE_32B and the ALIGN16B types") {
  auto p = base();
  p.global_address += 8;
  CHECK(has(validate_tensor_map(p), "must be 16 byte aligned"));
  auto i32 = make(DT::UInt16, 3, {16, 8, 8}, {32, 256}, {16, 8, 8}, {1, 1, 1}, SW::B32, TensorMapInterleave::B32);
  CHECK(validate_tensor_map(i32).empty());
  i32.global_address += 16;
  CHECK(has(validate_tensor_map(i32), "when interleave is CU_TENSOR_MAP_INTERLEAVE_32B, globalAddress must be 32 byte aligned"));
  auto u4 = make(DT::U4x16Align16B, 2, {256, 64}, {128}, {128, 32}, {1, 1}, SW::B128);
  CHECK(validate_tensor_map(u4).empty());
  u4.global_address += 16;
  CHECK(has(validate_tensor_map(u4), "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, globalAddress must be 32 byte aligned"));
}

TEST_CASE("rule: globalDim 1..2^32; packed dim0 multiples") {
  auto p = base();
  p.global_dim[1] = 0;
  CHECK(has(validate_tensor_map(p), "globalDim[1] = 0: globalDim must be non-zero and less than or equal to 2^32"));
  p = base();
  p.global_dim[1] = (uint64_t{1} << 32);
  CHECK(validate_tensor_map(p).empty());
  p.global_dim[1] += 1;
  CHECK(has(validate_tensor_map(p), "less than or equal to 2^32"));
  auto u6 = make(DT::U6x16Align16B, 2, {128, 16}, {96}, {128, 16}, {1, 1}, SW::B128Atom32B);
  u6.global_dim[0] = 192;
  CHECK(has(validate_tensor_map(u6), "globalDim[0] must be a multiple of 128"));
  auto u4 = make(DT::U4x16Align8B, 1, {64}, {}, {32}, {1});
  CHECK(validate_tensor_map(u4).empty());
  u4.global_dim[0] = 63;
  CHECK(has(validate_tensor_map(u4), "globalDim[0] must be a multiple of 2"));
}

TEST_CASE("rule: globalStrides multiple of 16, < 2^40; multiple of 32 for INTERLEAVE_32B and ALIGN16B types") {
  auto p = base();
  p.global_strides[0] = 1000;
  CHECK(has(validate_tensor_map(p), "globalStrides[0] = 1000: globalStrides must be a multiple of 16 and less than 2^40"));
  p.global_strides[0] = uint64_t{1} << 40;
  CHECK(has(validate_tensor_map(p), "less than 2^40"));
  auto i32 = make(DT::UInt16, 3, {16, 8, 8}, {32, 272}, {16, 8, 8}, {1, 1, 1}, SW::B32, TensorMapInterleave::B32);
  CHECK(has(validate_tensor_map(i32), "globalStrides[1] = 272: when interleave is CU_TENSOR_MAP_INTERLEAVE_32B, the strides must be a multiple of 32"));
  auto u6 = make(DT::U6x16Align16B, 2, {128, 16}, {112}, {128, 16}, {1, 1}, SW::B128Atom32B);
  CHECK(has(validate_tensor_map(u6), "the strides must be a multiple of 32"));
}

TEST_CASE("rule: boxDim 1..256; inner box a multiple of 16 bytes without interleave; ALIGN16B box0 = 128") {
  auto p = base();
  p.box_dim[1] = 257;
  CHECK(has(validate_tensor_map(p), "boxDim[1] = 257: boxDim must be non-zero and less than or equal to 256"));
  p = base();
  p.box_dim[0] = 60;  // 120 bytes
  CHECK(has(validate_tensor_map(p), "must be a multiple of 16 bytes (boxDim[0] = 60"));
  auto f16il = make(DT::Float16, 3, {8, 16, 16}, {16, 256}, {4, 16, 4}, {1, 1, 1}, SW::None, TensorMapInterleave::B16);
  // The documentation states the 16-byte rule for INTERLEAVE_NONE only, but the H200's driver
  // rejects an 8-byte inner box with INTERLEAVE_16B too (kernels/tma/facts e34).
  CHECK(has(validate_tensor_map(f16il), "multiple of 16 bytes for an interleaved map too"));
  f16il.box_dim[0] = 8;  // 16 bytes: accepted (e33)
  CHECK(validate_tensor_map(f16il).empty());
  auto u4 = make(DT::U4x16Align16B, 2, {256, 64}, {128}, {64, 32}, {1, 1}, SW::B128);
  CHECK(has(validate_tensor_map(u4), "boxDim[0] must be 128"));
}

TEST_CASE("rule: elementStrides 1..8") {
  auto p = base();
  p.element_strides[1] = 9;
  CHECK(has(validate_tensor_map(p), "elementStrides[1] = 9: elementStrides must be non-zero and less than or equal to 8"));
  p.element_strides[1] = 0;
  CHECK(has(validate_tensor_map(p), "elementStrides[1] = 0"));
  p.element_strides[1] = 8;
  CHECK(validate_tensor_map(p).empty());
}

TEST_CASE("rule: inner box bytes <= swizzle span when not interleaved") {
  auto p = base();  // 64 bf16 = 128 B
  p.swizzle = SW::B64;
  CHECK(has(validate_tensor_map(p), "CU_TENSOR_MAP_SWIZZLE_64B requires <= 64"));
  p.swizzle = SW::B128Atom64B;
  CHECK(validate_tensor_map(p).empty());
  p.box_dim[0] = 128;  // 256 B
  CHECK(has(validate_tensor_map(p), "requires <= 128"));
  p.swizzle = SW::None;
  CHECK(validate_tensor_map(p).empty());
}

TEST_CASE("rule: 16U6_ALIGN16B needs INTERLEAVE_NONE") {
  auto u6 = make(DT::U6x16Align16B, 3, {128, 16, 4}, {96, 1536}, {128, 16, 4}, {1, 1, 1}, SW::None, TensorMapInterleave::B16);
  CHECK(has(validate_tensor_map(u6), "requires interleave to be CU_TENSOR_MAP_INTERLEAVE_NONE"));
}

TEST_CASE("rule: INTERLEAVE_32B needs SWIZZLE_32B") {
  auto p = make(DT::UInt16, 3, {16, 8, 8}, {32, 256}, {16, 8, 8}, {1, 1, 1}, SW::B64, TensorMapInterleave::B32);
  CHECK(has(validate_tensor_map(p), "swizzle must be CU_TENSOR_MAP_SWIZZLE_32B"));
}

TEST_CASE("rule: swizzle modes of the packed ALIGN16B types") {
  auto u6 = make(DT::U6x16Align16B, 2, {128, 16}, {96}, {128, 16}, {1, 1}, SW::B128Atom32BFlip8B);
  CHECK(has(validate_tensor_map(u6), "only the following swizzle modes are supported: NONE, 128B, 128B_ATOM_32B (load & store)"));
  u6.swizzle = SW::B128Atom64B;  // store only: legal at encode time
  CHECK(validate_tensor_map(u6).empty());
  auto u4 = make(DT::U4x16Align16B, 2, {256, 64}, {128}, {128, 32}, {1, 1}, SW::B128Atom64B);
  CHECK(has(validate_tensor_map(u4), "128B_ATOM_32B (load only)"));
}

TEST_CASE("rule: OOB NaN fill only for floating-point, unpacked types") {
  auto p = base();
  p.oob_fill = TensorMapOobFill::NanRequestZeroFma;
  CHECK(validate_tensor_map(p).empty());
  auto u8 = make(DT::UInt8, 3, {64, 32, 4}, {64, 2048}, {64, 8, 2}, {1, 1, 1}, SW::B64);
  u8.oob_fill = TensorMapOobFill::NanRequestZeroFma;
  CHECK(has(validate_tensor_map(u8), "can only be used when tensorDataType represents a floating-point data type"));
  auto u4 = make(DT::U4x16Align8B, 1, {64}, {}, {32}, {1});
  u4.oob_fill = TensorMapOobFill::NanRequestZeroFma;
  CHECK(has(validate_tensor_map(u4), "not with the packed"));
}

TEST_CASE("use rules: load-only / store-only swizzles of the packed types") {
  auto u6 = make(DT::U6x16Align16B, 2, {128, 16}, {96}, {128, 16}, {1, 1}, SW::B128Atom64B);
  CHECK(validate_tensor_map_use(u6, TmaDirection::Store).empty());
  CHECK(validate_tensor_map_use(u6, TmaDirection::Load).at(0).message.find("stores only") != std::string::npos);
  auto u4 = make(DT::U4x16Align16B, 2, {256, 64}, {128}, {128, 32}, {1, 1}, SW::B128);
  CHECK(validate_tensor_map_use(u4, TmaDirection::Load).empty());
  CHECK(validate_tensor_map_use(u4, TmaDirection::Store).at(0).message.find("loads only") != std::string::npos);
}

TEST_CASE("warning: strides that make dimensions overlap") {
  CHECK(tensor_map_warnings(base()).empty());  // 512 bf16 = 1024 B = stride
  auto p = base();
  p.global_strides[0] = 512;
  CHECK(validate_tensor_map(p).empty());  // the driver is not known to reject it
  auto w = tensor_map_warnings(p);
  REQUIRE(w.size() == 1);
  CHECK(w[0].message.find("dimensions overlap") != std::string::npos);
  auto r3 = make(DT::UInt8, 3, {64, 32, 4}, {64, 1024}, {64, 8, 2}, {1, 1, 1}, SW::B64);  // needs 64*32 = 2048
  CHECK(tensor_map_warnings(r3).size() == 1);
}

TEST_CASE("encode refuses what the driver refuses, quoting the reason") {
  auto p = base();
  p.box_dim[0] = 0;
  auto r = encode_tensor_map(p);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message.find("boxDim must be non-zero") != std::string::npos);
}
