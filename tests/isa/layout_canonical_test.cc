// Canonical shared-memory layouts (isa/layouts/canonical_layout.h) against the PTX ISA's own
// worked examples (§9.7.15.5.1.2.1.3 / §9.7.16.3.3, CuTe forms evaluated independently here),
// hand-computed spot values, and bijection onto the tile's bytes for every major x layout x width.
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "isa/layouts/canonical_layout.h"

using namespace tcsim::isa;

namespace {

SmemDesc desc(uint32_t start, uint32_t lbo, uint32_t sbo, SwizzleMode layout, uint8_t bo = 0) {
  SmemDesc d;
  d.start_address = start;
  d.lbo = lbo;
  d.sbo = sbo;
  d.version = 1;
  d.base_offset = bo;
  d.layout = layout;
  return d;
}

CanonicalLayout plan(const SmemDesc& d, ElementFormat f, Major m) {
  auto p = CanonicalLayout::make(d, f, m);
  REQUIRE_MESSAGE(p.has_value(), (p.has_value() ? "" : p.error().message));
  return *p;
}

// CuTe's Swizzle<B,4,3> on a byte offset from a pattern-aligned start: bits 4..4+B-1 ^= bits
// 7..7+B-1 (the functors named in the PTX canonical-layout table).
uint32_t cute_swizzle(int b, uint32_t a) { return a ^ ((a >> 3) & (((1u << b) - 1) << 4)); }

}  // namespace

TEST_CASE("PTX worked example: K-major, no swizzle, tf32 ((8,2),(4,4)):((4,32),(1,64))") {
  // PTX §9.7.15.5.1.2.1.3 (Figure 166): T = 4, LBO = 64*sizeof(tf32) = 256 B (enc 16), SBO =
  // 32*sizeof(tf32) = 128 B (enc 8). Element offset of (mn, k) is read off the CuTe layout:
  //   mn = (mn%8, mn/8) -> 4*(mn%8) + 32*(mn/8);  k = (k%4, k/4) -> (k%4) + 64*(k/4).
  const auto p = plan(desc(0x1000, 256, 128, SwizzleMode::None), dense_format(32), Major::K);
  for (uint32_t mn = 0; mn < 16; ++mn)
    for (uint32_t k = 0; k < 16; ++k) {
      const uint32_t elem = 4 * (mn % 8) + 32 * (mn / 8) + (k % 4) + 64 * (k / 4);
      CHECK(p.locate(mn, k) == SmemLocation{0x1000 + 4 * elem, 0});
    }
  // One by hand: (mn 9, k 6) -> 4*1 + 32*1 + 2 + 64*1 = 102 elements = 408 B -> 0x1198.
  CHECK(p.byte_address(9, 6) == 0x1198);
}

TEST_CASE("PTX worked example: K-major, 32B swizzle, tf32 (SBO 256 B, LBO unused)") {
  // PTX (Figure 167) prints ((8,2),(4,4)):((8,64),(1,4)); that layout is not injective (row
  // stride 8 elements = 32 B but 4 K chunks of 16 B), a known typo (Triton MMAHelpers.h notes it).
  // The K extent of one 32B-swizzled row is 2 chunks: ((8,2),(4,2)):((8,64),(1,4)), SBO = 64
  // elements = 256 B (enc 16), LBO "1 (assumed)". Then Swizzle<1,4,3> on the byte offset.
  const auto p = plan(desc(0x1000, 16, 256, SwizzleMode::B32), dense_format(32), Major::K);
  CHECK(p.max_k() == 8);
  for (uint32_t mn = 0; mn < 16; ++mn)
    for (uint32_t k = 0; k < 8; ++k) {
      const uint32_t elem = 8 * (mn % 8) + 64 * (mn / 8) + (k % 4) + 4 * (k / 4);
      CHECK(p.byte_address(mn, k) == 0x1000 + cute_swizzle(1, 4 * elem));
    }
  // (mn 5, k 6): 8*5 + 2 + 4 = 46 elements = 184 B = 0xB8: bit 7 set -> bit 4 flips -> 0xA8.
  CHECK(p.byte_address(5, 6) == 0x10A8);
}

TEST_CASE("PTX worked examples: MN-major bf16, no swizzle / 32B / 64B") {
  struct Ex {
    SwizzleMode layout;
    int b;                         // Swizzle<b,4,3>
    uint32_t lbo, sbo;             // bytes
    uint32_t s0, s1, s2, k0, k1;   // CuTe strides (elements): MN (8, X, m), K (8, k)
    uint32_t x;                    // middle MN mode size
  };
  // Figure 168: ((8,1,2),(8,2)):((1,8,64),(8,128)); LBO 128*2 = 256 B (16), SBO 64*2 = 128 B (8).
  // Figure 169: ((8,2,2),(8,2)):((1,8,128),(16,256)); LBO 256 B (16), SBO 512 B (32).
  // Figure 170: ((8,4,2),(8,2)):((1,8,256),(32,512)); LBO 512 B (32), SBO 1024 B (64).
  const Ex exs[] = {
      {SwizzleMode::None, 0, 256, 128, 1, 8, 64, 8, 128, 1},
      {SwizzleMode::B32, 1, 256, 512, 1, 8, 128, 16, 256, 2},
      {SwizzleMode::B64, 2, 512, 1024, 1, 8, 256, 32, 512, 4},
  };
  for (const Ex& e : exs) {
    CAPTURE(int(e.layout));
    const auto p = plan(desc(0x2000, e.lbo, e.sbo, e.layout), dense_format(16), Major::MN);
    const uint32_t mn_extent = 8 * e.x * 2;
    for (uint32_t mn = 0; mn < mn_extent; ++mn)
      for (uint32_t k = 0; k < 16; ++k) {
        const uint32_t elem =
            (mn % 8) * e.s0 + ((mn / 8) % e.x) * e.s1 + (mn / (8 * e.x)) * e.s2 +
            (k % 8) * e.k0 + (k / 8) * e.k1;
        CHECK(p.byte_address(mn, k) == 0x2000 + cute_swizzle(e.b, 2 * elem));
      }
  }
  // By hand, Figure 169 (32B): (mn 20, k 9) -> 4 + 0 + 128 + 16 + 256 = 404 elements = 808 B
  // = 0x328; bit 7 clear? 0x328 = 0b11_0010_1000: bit 7 = 0 -> unchanged.
  const auto p = plan(desc(0x2000, 256, 512, SwizzleMode::B32), dense_format(16), Major::MN);
  CHECK(p.byte_address(20, 9) == 0x2328);
}

TEST_CASE("spot values worked by hand") {
  // docs/smem_layouts.md §7 S1: K-major SW128 bf16 128x64 tile at 0x400, SBO 1024 B (desc 0x4000404000010040).
  const auto s1 = plan(desc(0x400, 16, 1024, SwizzleMode::B128), dense_format(16), Major::K);
  // (mn 9, k 13): 0x400 + (9/8)*1024 + (9%8)*128 + 13*2 = 2202 = 0x89A; phase (2202>>7)&7 = 1;
  // chunk (0x89A>>4)&7 = 1 -> 1^1 = 0 -> 0x88A.
  CHECK(s1.byte_address(9, 13) == 0x88A);
  CHECK(s1.max_k() == 64);
  // Next K-step descriptor (start 0x420, docs/smem_layouts.md §7 S1): (mn 3, k 0) = 0x420 + 3*128 = 0x5A0;
  // phase (0x5A0>>7)&7 = 3, chunk (0x5A0>>4)&7 = 2 -> 2^3 = 1 -> 0x590 — the same byte as
  // element (3, 16) of the whole tile.
  const auto s1k = plan(desc(0x420, 16, 1024, SwizzleMode::B128), dense_format(16), Major::K);
  CHECK(s1k.byte_address(3, 0) == 0x590);
  CHECK(s1.byte_address(3, 16) == 0x590);
  // Stepping the start address by 32 B per MMA K = 16 reads the same bytes as indexing the tile.
  for (uint32_t step = 0; step < 4; ++step) {
    const auto ks = plan(desc(0x400 + 32 * step, 16, 1024, SwizzleMode::B128), dense_format(16),
                         Major::K);
    for (uint32_t mn = 0; mn < 128; ++mn)
      for (uint32_t k = 0; k < 16; ++k)
        CHECK(ks.byte_address(mn, k) == s1.byte_address(mn, 16 * step + k));
  }

  // Base offset (docs/smem_layouts.md §5, measured): start 0x180, SW128. bo 3: phase ((0x180>>7)-3)&7 =
  // 0 -> (0,0) at 0x180. bo 0: phase 3, chunk 0 -> 3 -> 0x180 ^ 0x30 = 0x1B0.
  CHECK(plan(desc(0x180, 16, 1024, SwizzleMode::B128, 3), dense_format(16), Major::K)
            .byte_address(0, 0) == 0x180);
  CHECK(plan(desc(0x180, 16, 1024, SwizzleMode::B128, 0), dense_format(16), Major::K)
            .byte_address(0, 0) == 0x1B0);

  // fp4 under kind::f8f6f4 (padded, T = 16), K-major SW128 at 0: (mn 2, k 37): unit 37/16 = 2,
  // element 5 -> bit 20 = byte 2, bit 4; 2*128 + 2*16 + 2 = 290 = 0x122; phase 2, chunk 2 -> 0
  // -> 0x102, bit 4.
  const auto f4 = plan(desc(0, 16, 1024, SwizzleMode::B128), padded_format(4), Major::K);
  CHECK(f4.locate(2, 37) == SmemLocation{0x102, 4});
  CHECK(f4.max_k() == 128);  // 8 units x 16 fp4
  // fp6 padded, K-major no swizzle, LBO 128: (mn 1, k 21): unit 1, element 5 -> bit 30 = byte 3,
  // bit 6; 1*16 + 1*128 + 3 = 147 = 0x93.
  const auto f6 = plan(desc(0, 128, 256, SwizzleMode::None), padded_format(6), Major::K);
  CHECK(f6.locate(1, 21) == SmemLocation{0x93, 6});
  // e2m1 under kind::mxf4 (dense, T = 32), K-major SW128: (mn 0, k 63): unit 1, element 31 ->
  // bit 124 = byte 15, bit 4; 16 + 15 = 31, phase 0.
  const auto mx = plan(desc(0, 16, 1024, SwizzleMode::B128), dense_format(4), Major::K);
  CHECK(mx.locate(0, 63) == SmemLocation{31, 4});
  CHECK(mx.max_k() == 256);
  // tf32 MN-major SWIZZLE_128B_BASE32B, LBO 2048 (next 128-byte MN block), SBO 512 (next 4 K
  // rows): (mn 40, k 5): rb = 160 -> 1*2048; k/4 = 1 -> 512; k%4 = 1 -> 128; rb%128 = 32:
  // 2720 = 0xAA0; phase (2720>>7)&3 = 1 -> bits 5-6 ((0xAA0>>5)&3 = 1) ^ 1 = 0 -> 0xA80.
  const auto b32 =
      plan(desc(0, 2048, 512, SwizzleMode::B128Base32B), dense_format(32), Major::MN);
  CHECK(b32.byte_address(40, 5) == 0xA80);
}

TEST_CASE("refused: layouts that do not exist") {
  CHECK_FALSE(CanonicalLayout::make(desc(0, 16, 1024, SwizzleMode::B128Base32B), dense_format(32),
                                    Major::K));
  CHECK_FALSE(CanonicalLayout::make(desc(0, 16, 1024, SwizzleMode::B128), padded_format(4),
                                    Major::MN));
  CHECK_FALSE(CanonicalLayout::make(desc(0, 16, 1024, SwizzleMode::B128), padded_format(6),
                                    Major::MN));
  SmemDesc abs = desc(0, 16, 1024, SwizzleMode::B128);
  abs.lbo_mode = 1;
  auto r = CanonicalLayout::make(abs, dense_format(16), Major::K);
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("LBO mode") != std::string::npos);
}

namespace {

struct Tile {
  Major major;
  SwizzleMode layout;
  ElementFormat f;
  uint32_t mn, k;  // extents
};

// The densely packed canonical tile (what CUTLASS tile_to_shape of the layout atom builds) and
// its LBO/SBO; total bytes.
SmemDesc packed_desc(const Tile& t, uint32_t start, uint32_t* bytes) {
  const uint32_t T = t.f.per_16b;
  const uint32_t w = swizzle_bits(t.layout).span_bytes();
  uint32_t lbo = 16, sbo = 0;
  if (t.major == Major::K) {
    if (t.layout == SwizzleMode::None) {
      lbo = 128;                   // next 16-byte K chunk: the next core matrix
      sbo = 128 * (t.k / T);       // next 8 rows: after all K chunks of these rows
      *bytes = sbo * (t.mn / 8);
    } else {
      sbo = 8 * w;                 // 8 rows of W bytes
      *bytes = sbo * (t.mn / 8);
    }
  } else {
    if (t.layout == SwizzleMode::None) {
      sbo = 128;                   // next T-element MN chunk
      lbo = 128 * (t.mn / T);      // next 8 K rows
      *bytes = lbo * (t.k / 8);
    } else {
      const uint32_t rows = t.layout == SwizzleMode::B128Base32B ? 4 : 8;
      const uint32_t atoms_mn = t.mn / (w / 16 * T);
      lbo = rows * w;                 // next MN atom
      sbo = rows * w * atoms_mn;      // next group of K rows
      *bytes = sbo * (t.k / rows);
    }
  }
  return desc(start, lbo, sbo, t.layout);
}

}  // namespace

TEST_CASE("bijection onto the tile's bytes: every major x layout x element width") {
  const ElementFormat formats[] = {padded_format(4), padded_format(6), dense_format(4),
                                   dense_format(8), dense_format(16), dense_format(32)};
  const SwizzleMode layouts[] = {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64,
                                 SwizzleMode::B128, SwizzleMode::B128Base32B};
  int checked = 0;
  for (Major major : {Major::K, Major::MN})
    for (SwizzleMode layout : layouts)
      for (ElementFormat f : formats) {
        if (major == Major::K && layout == SwizzleMode::B128Base32B) continue;
        if (major == Major::MN && f.bits < 8) continue;
        const uint32_t w = swizzle_bits(layout).span_bytes();
        const uint32_t T = f.per_16b;
        std::vector<Tile> tiles;
        for (uint32_t mn_mult : {1u, 4u, 16u}) {
          if (major == Major::K) {
            const uint32_t kk = layout == SwizzleMode::None ? 4 * T : w / 16 * T;
            tiles.push_back({major, layout, f, 8 * mn_mult, kk});
          } else {
            const uint32_t atom_mn = layout == SwizzleMode::None ? T : w / 16 * T;
            const uint32_t kk = layout == SwizzleMode::B128Base32B ? 8 : 16;
            tiles.push_back({major, layout, f, atom_mn * mn_mult, kk * (mn_mult == 16 ? 2 : 1)});
          }
        }
        for (const Tile& t : tiles)
          for (const auto& start_bo : {std::pair<uint32_t, uint8_t>{0x4000, 0},
                                       std::pair<uint32_t, uint8_t>{0x4180, 3}}) {
            // Named copies, not a structured binding: CAPTURE's lambda cannot name one in clang 14.
            const uint32_t start = start_bo.first;
            const uint8_t bo = start_bo.second;
            CAPTURE(int(major));
            CAPTURE(int(layout));
            CAPTURE(int(f.bits));
            CAPTURE(int(f.per_16b));
            CAPTURE(t.mn);
            CAPTURE(t.k);
            CAPTURE(start);
            uint32_t bytes = 0;
            SmemDesc d = packed_desc(t, start, &bytes);
            d.base_offset = bo;
            const auto p = plan(d, f, major);
            std::set<uint64_t> seen;
            bool in_range = true, on_data = true, aligned = true;
            for (uint32_t mn = 0; mn < t.mn; ++mn)
              for (uint32_t k = 0; k < t.k; ++k) {
                const SmemLocation l = p.locate(mn, k);
                seen.insert(uint64_t(l.byte) * 8 + l.bit);
                in_range &= l.byte >= start && l.byte < start + bytes;
                // padded units: data only in the first 8 (fp4) / 12 (fp6) bytes of each 16
                on_data &= (l.byte - start) % 16 < uint32_t(f.data_bytes_per_16b());
                // element boundaries inside the 16-byte unit (fp6 straddles bytes)
                aligned &= (((l.byte - start) % 16) * 8 + l.bit) % f.bits == 0;
              }
            CHECK(seen.size() == size_t(t.mn) * t.k);  // injective
            CHECK(in_range);
            CHECK(on_data);
            CHECK(aligned);
            // onto: the data bits of the range are exactly the elements' bits
            CHECK(uint64_t(t.mn) * t.k * f.bits == uint64_t(bytes / 16) * f.data_bytes_per_16b() * 8);
            ++checked;
          }
      }
  CHECK(checked > 100);
}

TEST_CASE("bulk forms agree with locate") {
  struct Case {
    SmemDesc d;
    ElementFormat f;
    Major m;
  };
  const Case cases[] = {
      {desc(0x400, 16, 1024, SwizzleMode::B128), dense_format(16), Major::K},
      {desc(0x580, 16, 1024, SwizzleMode::B128, 3), dense_format(16), Major::K},
      {desc(0x400, 128, 1024, SwizzleMode::None), padded_format(6), Major::K},
      {desc(0x400, 16, 1024, SwizzleMode::B64), dense_format(4), Major::K},
      {desc(0x400, 512, 4096, SwizzleMode::B64), dense_format(16), Major::MN},
      {desc(0x400, 2048, 256, SwizzleMode::None), dense_format(8), Major::MN},
      {desc(0x400, 512, 2048, SwizzleMode::B128Base32B), dense_format(32), Major::MN},
  };
  for (const Case& c : cases) {
    const auto p = plan(c.d, c.f, c.m);
    const uint32_t nk = p.max_k() ? p.max_k() - 3 : 45;  // odd extents: partial units
    std::vector<SmemLocation> tile(77 * nk);
    p.locate_tile(3, 77, 3, nk, tile.data());
    bool same = true;
    for (uint32_t i = 0; i < 77; ++i)
      for (uint32_t j = 0; j < nk; ++j) same &= tile[i * nk + j] == p.locate(3 + i, 3 + j);
    CHECK(same);
    std::vector<SmemLocation> row(nk);
    p.locate_row(41, 3, nk, row.data());
    for (uint32_t j = 0; j < nk; ++j) same &= row[j] == p.locate(41, 3 + j);
    CHECK(same);
  }
}

TEST_CASE("the swizzle lookup table is the same permutation") {
  for (TmaSwizzle s : kTmaSwizzles)
    for (uint32_t base = 0; base < 8; ++base) {
      if (s == TmaSwizzle::B128Atom32BFlip8B && base) continue;  // TMA only: base 0
      const SwizzleBits b = swizzle_bits(s);
      const SwizzleTable t = SwizzleTable::make(b, base);
      bool same = true;
      for (uint32_t a = 0; a < 8192; ++a) same &= t.apply(a) == b.apply(a, b.phase_mask ? base : 0);
      CHECK(same);
    }
}

TEST_CASE("describe() spells out the formula") {
  const auto p = plan(desc(0x400, 16, 1024, SwizzleMode::B128), dense_format(16), Major::K);
  const std::string s = p.describe();
  CHECK(s.find("SWIZZLE_128B") != std::string::npos);
  CHECK(s.find("(mn/8)*1024") != std::string::npos);
  CHECK(s.find("(k < 64)") != std::string::npos);
}
