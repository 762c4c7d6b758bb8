// The scale-factor and sparse-metadata placements in TMEM (isa/layouts/tmem_scale_layout.h,
// tmem_sparse_layout.h), checked against independent sources:
//   * scale factors: CUTLASS's scale-factor atom (Sm1xxBlockScaledBasicChunk::SfKMajorAtom,
//     cutlass/detail/sm100_blockscaled_layout.hpp: ((32,4),(SFVec,4)) : ((16,4),(0,1)), i.e. the
//     byte of (mn, sf) in a 512-byte chunk of shared memory is 16*(mn%32) + 4*(mn/32) + sf) moved
//     into TMEM by tcgen05.cp.32x128b.warpx4 (row r of 16 bytes -> lanes r + 32q, four columns;
//     PTX ISA §9.7.16.9.2), which is how CUTLASS and DeepGEMM load them: the scale the MMA reads
//     for every (row, block) must be the byte that copy put there, in every sub-partition;
//   * sparse metadata: JAX's format_tcgen05_sparse_metadata (jax/experimental/mosaic/gpu, run on
//     B200 by its tests), restated here as its reshape/transpose index permutation.
#include <doctest/doctest.h>

#include <set>
#include <tuple>

#include "isa/layouts/tmem_layout.h"
#include "isa/layouts/tmem_scale_layout.h"
#include "isa/layouts/tmem_sparse_layout.h"

using namespace tcsim::isa;

namespace {

TmemDLayout dl(uint32_t m, uint32_t n, int cg, bool ws = false, uint32_t taddr = 0) {
  auto p = TmemDLayout::make(m, n, cg, false, ws, taddr);
  REQUIRE(p.has_value());
  return *p;
}

TmemScaleLayout sl(const TmemDLayout& d, uint32_t dcol, uint32_t m, int cg, TmemScaleLayout::Operand w,
                   uint32_t taddr, int id, int nsf) {
  auto p = TmemScaleLayout::make(d, dcol, m, cg, w, taddr, id, nsf);
  REQUIRE_MESSAGE(p.has_value(), (p.has_value() ? "" : p.error().message));
  return *p;
}

// CUTLASS's scale-factor chunk: byte offset of (mn, sf) within the 512 bytes of 128 rows x 4 SFs.
uint32_t cutlass_sf_offset(uint32_t mn, uint32_t sf) { return 16 * (mn % 32) + 4 * (mn / 32) + sf; }

// tcgen05.cp.32x128b.warpx4 of one such chunk to column c0: (lane, column, byte) -> chunk offset.
uint32_t cp_warpx4_source(uint32_t lane, uint32_t column, uint32_t byte, uint32_t c0) {
  return 16 * (lane % 32) + 4 * (column - c0) + byte;
}

}  // namespace

TEST_CASE("scale factors: the MMA reads what CUTLASS's chunk + tcgen05.cp.32x128b.warpx4 put in TMEM") {
  using W = TmemScaleLayout::Operand;
  // M = 128, cta_group::1 (layout D), N = 256; SFA at column 256, SFB at 260 (two chunks: N = 256).
  const TmemDLayout d = dl(128, 256, 1);
  for (int nsf : {1, 2, 4})
    for (int id = 0; id + nsf <= 4; id += nsf) {
      const TmemScaleLayout a = sl(d, 0, 128, 1, W::A, 256, id, nsf);
      const TmemScaleLayout b = sl(d, 0, 128, 1, W::B, 260, id, nsf);
      CHECK(a.columns() == 4);
      CHECK(b.columns() == 8);
      for (uint32_t m = 0; m < 128; m += 7)
        for (uint32_t n = 0; n < 256; n += 13)
          for (int j = 0; j < nsf; ++j) {
            const TmemCell dc = d.locate(m, n);
            const TmemByteCell ca = a.locate(dc, m, uint32_t(j));
            // SF j of this MMA is SF (id + j) of the chunk: the SF-ID selects the byte.
            CHECK(cp_warpx4_source(ca.lane, ca.column, ca.byte, 256) == cutlass_sf_offset(m, uint32_t(id + j)));
            CHECK(ca.lane / 32 == dc.lane / 32);  // read in the sub-partition that computes D[m][n]
            const TmemByteCell cb = b.locate(dc, m, uint32_t(j));
            const uint32_t chunk = (cb.column - 260) / 4;  // 128 columns of B per chunk
            CHECK(chunk == n / 128);
            CHECK(cp_warpx4_source(cb.lane, cb.column - 4 * chunk, cb.byte, 260) ==
                  cutlass_sf_offset(n % 128, uint32_t(id + j)));
            CHECK(cb.lane / 32 == dc.lane / 32);
          }
    }
}

TEST_CASE("scale factors of the CTA-pair data paths") {
  using W = TmemScaleLayout::Operand;
  // M = 256 (layout A): each CTA holds 128 rows, its own scale factors at the same address.
  const TmemDLayout a = dl(256, 128, 2);
  const TmemScaleLayout sa = sl(a, 0, 256, 2, W::A, 128, 0, 4);
  const TmemScaleLayout sb = sl(a, 0, 256, 2, W::B, 132, 0, 4);
  const TmemCell c = a.locate(200, 70);  // CTA 1, lane 72
  CHECK(c.cta == 1);
  const TmemByteCell x = sa.locate(c, 200, 3);
  CHECK(x.cta == 1);
  CHECK(x.lane == 72);  // row 72 of CTA 1: lane 8 of sub-partition 2
  CHECK(x.column == 128 + 2);
  CHECK(x.byte == 3);
  const TmemByteCell y = sb.locate(c, 200, 1);
  CHECK(y.cta == 1);
  CHECK(y.lane == 64 + 70 % 32);
  CHECK(y.column == 132 + 70 / 32);
  // M = 128 (layout B): 64 rows per CTA, N split across lane halves: column n >= N/2 of D sits at
  // lanes 64..127, and reads scale_B there (CUTLASS ScaleFactorDuplicated2by2: n < N/2 at lanes
  // n%32 + {0, 32}, n >= N/2 at lanes n%32 + {64, 96}, column (n mod N/2) / 32).
  const TmemDLayout bl = dl(128, 128, 2);
  const TmemScaleLayout bsa = sl(bl, 0, 128, 2, W::A, 64, 2, 2);
  const TmemScaleLayout bsb = sl(bl, 0, 128, 2, W::B, 66, 0, 2);
  CHECK(bsa.columns() == 2);
  CHECK(bsb.columns() == 2);
  for (uint32_t m : {0u, 31u, 40u, 63u, 64u, 100u})
    for (uint32_t n : {0u, 33u, 63u, 64u, 90u, 127u}) {
      const TmemCell dc = bl.locate(m, n);
      const TmemByteCell ya = bsa.locate(dc, m, 1);
      CHECK(ya.lane == (n >= 64 ? 64u : 0u) + (m % 64));  // row m%64 duplicated into both halves
      CHECK(ya.column == 64 + (m % 64) / 32);
      CHECK(ya.byte == 3);
      const TmemByteCell yb = bsb.locate(dc, m, 0);
      CHECK(yb.lane == (n >= 64 ? 64u : 0u) + 32 * ((m % 64) / 32) + (n % 64) % 32);
      CHECK(yb.column == 66 + (n % 64) / 32);
    }
}

TEST_CASE("scale-factor layouts refuse what cannot be encoded") {
  using W = TmemScaleLayout::Operand;
  const TmemDLayout d = dl(128, 64, 1);
  CHECK_FALSE(TmemScaleLayout::make(d, 0, 128, 1, W::A, 1u << 16, 0, 1));  // lane field
  CHECK_FALSE(TmemScaleLayout::make(d, 0, 128, 1, W::A, 0, 2, 4));        // 4X: bytes 2..5
  CHECK_FALSE(TmemScaleLayout::make(d, 0, 128, 1, W::A, 0, 3, 2));        // 2X from byte 3
  CHECK_FALSE(TmemScaleLayout::make(d, 0, 128, 1, W::A, 510, 0, 1));      // past column 511
  CHECK_FALSE(TmemScaleLayout::make(d, 0, 128, 1, W::A, 0, 0, 3));        // 3 per row: K=96 only
}

// JAX's permutation for 16-bit operands: meta (M, K/4, 2) of 2-bit entries reshaped
// (M/128, 8, 2, 8, K/64, 4, 2, 8), transposed (0, 4, 1, 6, 3, 5, 2, 7) and read as
// (M/128, K/64, 128 rows, 64 entries); the 128 x 64 tile goes to TMEM as 128 lanes x 4 columns of
// 16 entries (tcgen05.cp.128x128b). So entry i (0..63) of row m lands at TMEM row
// 16a + 8e + c, entry 16d + 8b + f of that row, with m = 16a + 8b + c and i = 16d + 8e + f.
std::tuple<uint32_t, uint32_t, uint32_t> jax16(uint32_t m, uint32_t i) {
  const uint32_t a = m / 16, b = (m / 8) % 2, c = m % 8, d = i / 16, e = (i / 8) % 2, f = i % 8;
  const uint32_t row = 16 * a + 8 * e + c, entry = 16 * d + 8 * b + f;
  return {row, entry / 16, 2 * (entry % 16)};  // (lane, column, bit)
}

TEST_CASE("sparse metadata of kind::f16: JAX's layout, one column per MMA, the selector picks it") {
  // Four MMAs (K = 4 x 32) at sp-meta-tmem column 40: JAX names the column pair 40 (MMAs 0, 1:
  // selector 0, 1) and 42 (MMAs 2, 3).
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
  for (uint32_t step = 0; step < 4; ++step) {
    auto L = TmemSparseMetaLayout::make(MmaKind::F16, 128, 1, 40 + step / 2 * 2, int(step % 2));
    REQUIRE(L.has_value());
    CHECK(L->groups() == 8);
    CHECK(L->columns() == 1);
    for (uint32_t m = 0; m < 128; ++m)
      for (uint32_t g = 0; g < 8; ++g) {
        const TmemBitCell x = L->locate(m, g);
        const auto [lane, col, bit] = jax16(m, 16 * step + 2 * g);  // the group's first entry
        CHECK(x.lane == lane);
        CHECK(x.column == 40 + col);
        CHECK(x.bit == bit);
        CHECK(seen.insert({x.lane, x.column, x.bit}).second);
      }
  }
  CHECK(seen.size() == 4 * 128 * 8);  // every nibble of 128 lanes x 4 columns, once
}

TEST_CASE("sparse metadata of the 8-bit kinds: row m in lane m, two columns per MMA") {
  // JAX, 8-bit operands: (M/128, 128, K/64, 64) -> transpose (0, 2, 1, 3): row m's 64 entries of
  // each K/64 block stay in order on lane m (4 columns of 16 entries); one MMA (K = 64) has 32.
  for (MmaKind k : {MmaKind::F8F6F4, MmaKind::I8, MmaKind::MXF8F6F4, MmaKind::MXF4}) {
    auto L = TmemSparseMetaLayout::make(k, 256, 2, 8, 0);
    REQUIRE(L.has_value());
    CHECK(L->groups() == 16);
    CHECK(L->columns() == 2);
    const TmemBitCell x = L->locate(130, 11);  // CTA 1, row 2; entries 22, 23
    CHECK(x.cta == 1);
    CHECK(x.lane == 2);
    CHECK(x.column == 8 + 22 / 16);
    CHECK(x.bit == 2 * (22 % 16));
    CHECK_FALSE(TmemSparseMetaLayout::make(k, 256, 2, 8, 1));  // selector must be 0
  }
  CHECK_FALSE(TmemSparseMetaLayout::make(MmaKind::F16, 64, 1, 0, 0));   // layout F: not modelled
  CHECK_FALSE(TmemSparseMetaLayout::make(MmaKind::F16, 128, 2, 0, 0));  // layout C: not modelled
  CHECK_FALSE(TmemSparseMetaLayout::make(MmaKind::F16, 128, 1, 1u << 16, 0));
}

TEST_CASE("sparse index pairs (PTX ISA §9.7.16.10.8): positions and legality") {
  uint32_t p[4];
  // 2:4: 0b1101 = indices (1, 3).
  CHECK(sparse_positions(MmaKind::F16, 0xD, p));
  CHECK(p[0] == 1);
  CHECK(p[1] == 3);
  // 0b0110 = (2, 1): legal, values in storage order.
  CHECK(sparse_positions(MmaKind::I8, 0x6, p));
  CHECK(p[0] == 2);
  CHECK(p[1] == 1);
  // Illegal: equal indices, descending pairs other than 0b0110.
  for (uint8_t x : {0x0, 0x5, 0xA, 0xF, 0x1, 0x2, 0x3, 0x7, 0xB}) CHECK_FALSE(sparse_positions(MmaKind::F16, x, p));
  int legal = 0;
  for (uint8_t x = 0; x < 16; ++x) legal += sparse_positions(MmaKind::F8F6F4, x, p);
  CHECK(legal == 7);
  // 1:2 (tf32): 0b0100 keeps element 0, 0b1110 element 1; nothing else.
  CHECK(sparse_positions(MmaKind::TF32, 0x4, p));
  CHECK(p[0] == 0);
  CHECK(sparse_positions(MmaKind::TF32, 0xE, p));
  CHECK(p[0] == 1);
  CHECK_FALSE(sparse_positions(MmaKind::TF32, 0x8, p));
  // 4:8 in pairs (mxf4): 0b1000 = pairs (0, 2) = elements 0, 1, 4, 5.
  CHECK(sparse_positions(MmaKind::MXF4NVF4, 0x8, p));
  CHECK(p[0] == 0);
  CHECK(p[1] == 1);
  CHECK(p[2] == 4);
  CHECK(p[3] == 5);
  CHECK(sparse_group(MmaKind::MXF4).elems == 8);
  CHECK(sparse_group(MmaKind::TF32).kept == 1);
}
