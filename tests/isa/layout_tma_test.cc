// TMA shared-memory image (isa/layouts/tma_layout.h) and the swizzle permutations (swizzle.h):
// the PTX ISA §5.5.7 tables digit by digit, hand-computed placements, the box rules of
// cuTensorMapEncodeTiled, and the consistency of TMA-written tiles read back through canonical
// MMA descriptors (both sides must be the same permutation).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/tma_layout.h"

using namespace tcsim::isa;

namespace {

// Row r of the pattern as PTX prints it: position p (16-byte chunk of a 128-byte line) holds
// logical chunk table[r][p].
std::string pattern_row(TmaSwizzle s, uint32_t r) {
  std::string row(8, '?');
  for (uint32_t c = 0; c < 8; ++c) {
    const uint32_t phys = swizzle_bits(s).apply(r * 128 + c * 16);
    row[(phys >> 4) & 7] = char('0' + c);
  }
  return row;
}

TmaLayout tma(TmaBox b, uint32_t dst) {
  auto t = TmaLayout::make(b, dst);
  REQUIRE_MESSAGE(t.has_value(), (t.has_value() ? "" : t.error().message));
  return *t;
}

TmaBox box2(uint32_t b0, uint32_t b1, ElementFormat f, TmaSwizzle s) {
  TmaBox b;
  b.rank = 2;
  b.box_dim = {b0, b1, 1, 1, 1};
  b.elem = f;
  b.swizzle = s;
  return b;
}

SmemDesc desc(uint32_t start, uint32_t lbo, uint32_t sbo, SwizzleMode layout, uint8_t bo = 0) {
  SmemDesc d;
  d.start_address = start, d.lbo = lbo, d.sbo = sbo, d.version = 1, d.base_offset = bo;
  d.layout = layout;
  return d;
}

}  // namespace

TEST_CASE("swizzle permutations equal the PTX §5.5.7 tables") {
  // Verbatim rows of the tables in PTX ISA §5.5.7 (each digit a 16-byte chunk).
  const std::vector<std::string> none = {"01234567"};
  const std::vector<std::string> b32 = {"01234567", "10325476"};
  const std::vector<std::string> b64 = {"01234567", "10325476", "23016745", "32107654"};
  const std::vector<std::string> b128 = {"01234567", "10325476", "23016745", "32107654",
                                         "45670123", "54761032", "67452301", "76543210"};
  // 32-byte atomicity: "0 1 | 2 3 | 4 5 | 6 7 / 2 3 | 0 1 | 6 7 | 4 5 / 4 5 | 6 7 | 0 1 | 2 3 /
  // 6 7 | 4 5 | 2 3 | 0 1"; 64-byte atomicity: "0 1 2 3 | 4 5 6 7 / 4 5 6 7 | 0 1 2 3".
  const std::vector<std::string> a32 = {"01234567", "23016745", "45670123", "67452301"};
  const std::vector<std::string> a64 = {"01234567", "45670123"};
  auto check = [](TmaSwizzle s, const std::vector<std::string>& rows) {
    for (uint32_t r = 0; r < 16; ++r) {  // "... pattern repeats ..."
      CAPTURE(tma_swizzle_name(s));
      CAPTURE(r);
      CHECK(pattern_row(s, r) == rows[r % rows.size()]);
    }
    CHECK(swizzle_bits(s).repeat_bytes() == (rows.size() > 1 ? 128 * rows.size() : 0));
  };
  check(TmaSwizzle::None, none);
  check(TmaSwizzle::B32, b32);
  check(TmaSwizzle::B64, b64);
  check(TmaSwizzle::B128, b128);
  check(TmaSwizzle::B128Atom32B, a32);
  check(TmaSwizzle::B128Atom32BFlip8B, a32);  // chunk order as 32-byte atoms ...
  check(TmaSwizzle::B128Atom64B, a64);
  // ... plus the 8-byte flip on alternate lines (UNCONFIRMED which: odd lines in tcsim).
  const SwizzleBits flip = swizzle_bits(TmaSwizzle::B128Atom32BFlip8B);
  const SwizzleBits atom = swizzle_bits(TmaSwizzle::B128Atom32B);
  for (uint32_t a = 0; a < 2048; ++a)
    CHECK(flip.apply(a) == (atom.apply(a) ^ (((a >> 7) & 1) ? 8u : 0u)));
  // The MMA descriptor layouts are the same patterns (docs/smem_layouts.md §4).
  for (uint32_t a = 0; a < 4096; a += 16) {
    CHECK(swizzle_bits(SwizzleMode::B128).apply(a) == (a ^ ((a >> 3) & 0x70)));
    CHECK(swizzle_bits(SwizzleMode::B64).apply(a) == (a ^ ((a >> 3) & 0x30)));
    CHECK(swizzle_bits(SwizzleMode::B32).apply(a) == (a ^ ((a >> 3) & 0x10)));
    CHECK(swizzle_bits(SwizzleMode::B128Base32B).apply(a) == (a ^ ((a >> 2) & 0x60)));
  }
  // Names round-trip, including the driver's spelling.
  for (TmaSwizzle s : kTmaSwizzles) CHECK(parse_tma_swizzle(tma_swizzle_name(s)) == s);
  CHECK(parse_tma_swizzle("CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B") == TmaSwizzle::B128Atom64B);
  CHECK(parse_tma_swizzle("3") == TmaSwizzle::B128);
  CHECK_FALSE(parse_tma_swizzle("96b"));
}

TEST_CASE("TMA placements worked by hand") {
  // Box 64 bf16 x 8 rows, SWIZZLE_128B, dstMem 0x400: (i0 10, i1 3): 3*128 + 10*2 = 404; 0x400 +
  // 404 = 0x594; phase (0x594>>7)&7 = 3, chunk (0x594>>4)&7 = 1 -> 1^3 = 2 -> 0x5A4.
  CHECK(tma(box2(64, 8, dense_format(16), TmaSwizzle::B128), 0x400).locate(10, 3) ==
        SmemLocation{0x5A4, 0});
  // Box 32 bf16 (64 B) x 8, SWIZZLE_128B: rows padded to the 128-byte span. (i0 5, i1 1): 128 +
  // 10 = 138 -> 0x48A; phase 1, chunk 0 -> 1 -> 0x49A.
  const auto narrow = tma(box2(32, 8, dense_format(16), TmaSwizzle::B128), 0x400);
  CHECK(narrow.row_pitch() == 128);
  CHECK(narrow.locate(5, 1) == SmemLocation{0x49A, 0});
  // No swizzle, 24 f32 (96 B) x 4: rows of 96 B. (i0 7, i1 2): 192 + 28 = 220.
  CHECK(tma(box2(24, 4, dense_format(32), TmaSwizzle::None), 0).locate(7, 2).byte == 220);
  // 16U4_ALIGN16B (padded fp4), box 128 x 4, SWIZZLE_128B at 0: (i0 37, i1 2): unit 2, element
  // 5 -> bit 20 = byte 2, bit 4; 2*128 + 32 + 2 = 290 = 0x122; phase 2, chunk 2 -> 0 -> 0x102.
  CHECK(tma(box2(128, 4, padded_format(4), TmaSwizzle::B128), 0).locate(37, 2) ==
        SmemLocation{0x102, 4});
  // 3-D box 16 f32 x 4 x 3 with elementStrides (1, 2, 1): E1 = 2, E2 = 3, pitch 64.
  // (i0 3, i1 1, i2 2): row 2*2 + 1 = 5 -> 5*64 + 12 = 332.
  TmaBox b3 = box2(16, 4, dense_format(32), TmaSwizzle::None);
  b3.rank = 3;
  b3.box_dim[2] = 3;
  b3.element_strides = {1, 2, 1, 1, 1};
  const auto t3 = tma(b3, 0);
  CHECK(t3.extent(1) == 2);
  CHECK(t3.extent(2) == 3);
  CHECK(t3.locate(3, 1, 2).byte == 332);
  CHECK(t3.bytes() == 64 * 6);
  // elementStrides[0] is ignored without interleave (driver API).
  b3.element_strides[0] = 2;
  CHECK(tma(b3, 0).extent(0) == 16);
  // Interleave 32B (NC/16HWC16, PTX §5.5.7 32B example): rank 3, 16 f16 channels = one 32-byte
  // slice per row, SWIZZLE_32B: (i0 9, i1 4, i2 1): row 1*E1 + 4 = 14 (E1 = 10) -> 14*32 + 18 =
  // 466 = 0x1D2; bit 7 set -> bit 4 flips -> 0x1C2.
  TmaBox il;
  il.rank = 3;
  il.box_dim = {16, 10, 2, 1, 1};
  il.elem = dense_format(16);
  il.interleave = TmaInterleave::B32;
  il.swizzle = TmaSwizzle::B32;
  CHECK(tma(il, 0).locate(9, 4, 1).byte == 0x1C2);
}

TEST_CASE("TMA box rules are refused with the field named") {
  auto msg = [](TmaBox b, uint32_t dst) {
    auto t = TmaLayout::make(b, dst);
    REQUIRE_FALSE(t.has_value());
    return t.error().message;
  };
  CHECK(msg(box2(128, 8, dense_format(16), TmaSwizzle::B128), 0).find("at most 128") !=
        std::string::npos);  // 256-byte rows > 128B span
  CHECK(msg(box2(4, 8, dense_format(16), TmaSwizzle::None), 0).find("multiple of 16") !=
        std::string::npos);  // 8-byte rows
  CHECK(msg(box2(64, 8, dense_format(16), TmaSwizzle::B128Atom64B), 0x420).find("64-byte") !=
        std::string::npos);
  CHECK(msg(box2(64, 8, padded_format(4), TmaSwizzle::B128), 0).find("boxDim[0] = 128") !=
        std::string::npos);
  CHECK(msg(box2(128, 8, padded_format(6), TmaSwizzle::B64), 0).find("not allowed") !=
        std::string::npos);
  CHECK(msg(box2(300, 8, dense_format(8), TmaSwizzle::None), 0).find("boxDim[0]") !=
        std::string::npos);
  TmaBox il = box2(16, 8, dense_format(16), TmaSwizzle::B64);
  il.rank = 3;
  il.interleave = TmaInterleave::B32;
  CHECK(msg(il, 0).find("requires swizzle 32B") != std::string::npos);
  il.rank = 2;
  CHECK(msg(il, 0).find("rank >= 3") != std::string::npos);
  CHECK(msg(box2(64, 8, dense_format(16), TmaSwizzle::None), 8).find("16-byte aligned") !=
        std::string::npos);
}

TEST_CASE("every TMA mode is a bijection onto its box image") {
  for (TmaSwizzle s : kTmaSwizzles)
    for (ElementFormat f : {dense_format(8), dense_format(16), dense_format(32), dense_format(4),
                            padded_format(4), padded_format(6)})
      for (uint32_t dst : {0x1000u, 0x1180u}) {
        const uint32_t span = swizzle_bits(s).span_bytes();
        uint32_t b0 = s == TmaSwizzle::None ? 256 * 8 / f.bits : span * 8 / f.bits;
        if (f.padded()) b0 = 128;
        if (b0 > 256) b0 = 256;
        TmaBox b = box2(b0, 24, f, s);
        auto t = TmaLayout::make(b, dst);
        if (!t) continue;  // an illegal combination (checked above)
        CAPTURE(tma_swizzle_name(s));
        CAPTURE(int(f.bits));
        std::set<uint64_t> seen;
        bool in_range = true;
        for (uint32_t i1 = 0; i1 < t->extent(1); ++i1)
          for (uint32_t i0 = 0; i0 < t->extent(0); ++i0) {
            const SmemLocation l = t->locate(i0, i1);
            seen.insert(uint64_t(l.byte) * 8 + l.bit);
            in_range &= l.byte >= dst && l.byte < dst + t->bytes();
          }
        CHECK(seen.size() == size_t(t->extent(0)) * t->extent(1));
        CHECK(in_range);
      }
}

TEST_CASE("a TMA-written tile reads back through the matching canonical descriptor") {
  struct Case {
    TmaSwizzle tma;
    SwizzleMode layout;
    Major major;
    ElementFormat f;
    uint32_t b0, b1;   // box
    uint32_t lbo, sbo;
  };
  // The descriptor CUTLASS builds for each tile: K-major swizzled: SBO = 8 rows of W bytes;
  // MN-major swizzled: SBO = 8 K rows of W bytes (4 rows of 128 B for the 32-byte-atom layout).
  const Case cases[] = {
      {TmaSwizzle::B128, SwizzleMode::B128, Major::K, dense_format(16), 64, 128, 16, 1024},
      {TmaSwizzle::B64, SwizzleMode::B64, Major::K, dense_format(16), 32, 64, 16, 512},
      {TmaSwizzle::B32, SwizzleMode::B32, Major::K, dense_format(16), 16, 64, 16, 256},
      {TmaSwizzle::B128, SwizzleMode::B128, Major::K, dense_format(8), 128, 256, 16, 1024},
      {TmaSwizzle::B128, SwizzleMode::B128, Major::K, dense_format(32), 32, 64, 16, 1024},
      {TmaSwizzle::B128, SwizzleMode::B128, Major::K, padded_format(4), 128, 64, 16, 1024},
      {TmaSwizzle::B128, SwizzleMode::B128, Major::K, padded_format(6), 128, 64, 16, 1024},
      {TmaSwizzle::B128, SwizzleMode::B128, Major::K, dense_format(4), 256, 32, 16, 1024},
      {TmaSwizzle::B128, SwizzleMode::B128, Major::MN, dense_format(16), 64, 64, 16, 1024},
      {TmaSwizzle::B64, SwizzleMode::B64, Major::MN, dense_format(16), 32, 32, 16, 512},
      {TmaSwizzle::B32, SwizzleMode::B32, Major::MN, dense_format(8), 32, 32, 16, 256},
      {TmaSwizzle::B128Atom32B, SwizzleMode::B128Base32B, Major::MN, dense_format(32), 32, 16, 16,
       512},
      // No swizzle: a 16-byte-wide box is exactly one column of core matrices.
      {TmaSwizzle::None, SwizzleMode::None, Major::K, dense_format(16), 8, 64, 16, 128},
      {TmaSwizzle::None, SwizzleMode::None, Major::MN, dense_format(16), 8, 64, 128, 16},
  };
  for (const Case& c : cases)
    // 1024-aligned, and 128-aligned but not 1024-aligned: TMA uses the absolute pattern, so the
    // descriptor's base offset stays 0 (docs/smem_layouts.md §5).
    for (uint32_t dst : {0x2000u, 0x2180u}) {
      CAPTURE(tma_swizzle_name(c.tma));
      CAPTURE(int(c.major));
      CAPTURE(int(c.f.bits));
      CAPTURE(dst);
      const auto t = tma(box2(c.b0, c.b1, c.f, c.tma), dst);
      auto p = CanonicalLayout::make(desc(dst, c.lbo, c.sbo, c.layout), c.f, c.major);
      REQUIRE(p.has_value());
      uint64_t wrong = 0;
      for (uint32_t i1 = 0; i1 < c.b1; ++i1)
        for (uint32_t i0 = 0; i0 < c.b0; ++i0) {
          const uint32_t mn = c.major == Major::K ? i1 : i0, k = c.major == Major::K ? i0 : i1;
          wrong += !(p->locate(mn, k) == t.locate(i0, i1));
        }
      CHECK(wrong == 0);
      // The PTX base-offset formula applied to the matrix start is the classic bug: with dstMem
      // 0x2180 it gives base_offset 3, and every line but the phase-0 ones reads wrong chunks.
      if (dst == 0x2180 && c.layout != SwizzleMode::None) {
        auto bad = CanonicalLayout::make(desc(dst, c.lbo, c.sbo, c.layout, 3), c.f, c.major);
        uint64_t w3 = 0;
        for (uint32_t i1 = 0; i1 < c.b1; ++i1)
          for (uint32_t i0 = 0; i0 < c.b0; ++i0) {
            const uint32_t mn = c.major == Major::K ? i1 : i0, k = c.major == Major::K ? i0 : i1;
            w3 += !(bad->locate(mn, k) == t.locate(i0, i1));
          }
        CHECK(w3 > 0);
      }
    }
}
