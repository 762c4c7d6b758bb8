// TMEM data-path layouts of D (PTX ISA §9.7.16.10.5 layouts A-G) and of A in TMEM
// (isa/layouts/tmem_layout.h): bijections onto the expected lanes x columns, spot values worked
// by hand from the layout table (docs/tensor_memory.md §1, docs/smem_layouts.md §7 T1), and the legality rules.
#include <doctest/doctest.h>

#include <set>
#include <tuple>

#include "isa/layouts/tmem_layout.h"

using namespace tcsim::isa;

namespace {

TmemDLayout dl(uint32_t m, uint32_t n, int cg, bool sparse, bool ws, uint32_t taddr = 0) {
  auto p = TmemDLayout::make(m, n, cg, sparse, ws, taddr);
  REQUIRE_MESSAGE(p.has_value(), (p.has_value() ? "" : p.error().message));
  return *p;
}

}  // namespace

TEST_CASE("the data-path table picks layouts A-G") {
  CHECK(dl(256, 64, 2, false, false).datapath() == TmemDatapath::A);
  CHECK(dl(256, 64, 2, true, false).datapath() == TmemDatapath::A);
  CHECK(dl(128, 64, 2, false, false).datapath() == TmemDatapath::B);
  CHECK(dl(128, 64, 2, true, false).datapath() == TmemDatapath::C);
  CHECK(dl(128, 64, 1, false, false).datapath() == TmemDatapath::D);
  CHECK(dl(128, 64, 1, false, true).datapath() == TmemDatapath::D);
  CHECK(dl(64, 64, 1, false, true).datapath() == TmemDatapath::E);
  CHECK(dl(64, 64, 1, true, false).datapath() == TmemDatapath::F);
  CHECK(dl(32, 64, 1, false, true).datapath() == TmemDatapath::G);
  // Not in the table / Table 39.
  CHECK_FALSE(TmemDLayout::make(64, 64, 2, false, false));    // M 64 with cta_group::2
  CHECK_FALSE(TmemDLayout::make(256, 64, 1, false, false));   // M 256 with cta_group::1
  CHECK_FALSE(TmemDLayout::make(32, 64, 1, false, false));    // M 32 without .ws
  CHECK_FALSE(TmemDLayout::make(128, 64, 2, false, true));    // .ws with cta_group::2
  CHECK_FALSE(TmemDLayout::make(128, 12, 1, false, false));   // N not a multiple of 8
  CHECK_FALSE(TmemDLayout::make(128, 24, 2, false, false));   // cg2: N multiple of 16
  CHECK_FALSE(TmemDLayout::make(64, 96, 1, false, true));     // .ws N in {64, 128, 256}
  CHECK_FALSE(TmemDLayout::make(64, 256, 1, true, true));     // .ws sparse N in {64, 128}
  // Lane alignment: 0, or 0/16 for the half-lane layouts C and F.
  CHECK(dl(64, 64, 1, false, false, 16u << 16).datapath() == TmemDatapath::F);
  CHECK_FALSE(TmemDLayout::make(128, 64, 1, false, false, 16u << 16));
  CHECK_FALSE(TmemDLayout::make(64, 64, 1, false, false, 32u << 16));
  // Columns must fit in 512.
  CHECK(dl(128, 256, 1, false, false, 256).columns_used() == 256);
  CHECK_FALSE(TmemDLayout::make(128, 256, 1, false, false, 264));
}

TEST_CASE("spot values worked by hand") {
  // docs/smem_layouts.md §7 T1: D[40][5] of an M = 64 cta_group::1 tile (layout F) at 0 -> lane
  // 32*(40/16) + 40%16 = 64 + 8 = 72, column 5 (TMEM address 0x00480005).
  CHECK(dl(64, 64, 1, false, false).locate(40, 5) == TmemCell{0, 72, 5});
  // The second tile interleaved at lane 16: lane 16 + 72 = 88.
  CHECK(dl(64, 64, 1, false, false, 16u << 16).locate(40, 5) == TmemCell{0, 88, 5});
  // Layout D at column 100: D[77][9] -> lane 77, column 109.
  CHECK(dl(128, 64, 1, false, false, 100).locate(77, 9) == TmemCell{0, 77, 109});
  // Layout A (M 256, cg2): D[200][7] -> CTA 200/128 = 1, lane 200%128 = 72, column 7.
  CHECK(dl(256, 64, 2, false, false).locate(200, 7) == TmemCell{1, 72, 7});
  // Layout B (M 128 cg2 dense, N 256): D[70][200] -> CTA 70/64 = 1, r = 6, half 200/128 = 1:
  // lane 6 + 64 = 70, column 200 - 128 = 72.
  CHECK(dl(128, 256, 2, false, false).locate(70, 200) == TmemCell{1, 70, 72});
  // Layout C (M 128 cg2 sparse): D[40][3] -> CTA 0, r = 40: lane 32*2 + 8 = 72 (UNCONFIRMED
  // analogy with F).
  CHECK(dl(128, 64, 2, true, false).locate(40, 3) == TmemCell{0, 72, 3});
  // Layout E (M 64 .ws, N 128): D[10][100] -> half 100/64 = 1: lane 10 + 64 = 74, column 36.
  CHECK(dl(64, 128, 1, false, true).locate(10, 100) == TmemCell{0, 74, 36});
  // Layout G (M 32 .ws, N 256): D[5][200] -> quarter 200/64 = 3: lane 5 + 96 = 101, column 8.
  CHECK(dl(32, 256, 1, false, true).locate(5, 200) == TmemCell{0, 101, 8});
}

TEST_CASE("every layout is a bijection onto its lanes x columns") {
  struct Case {
    uint32_t m, n;
    int cg;
    bool sparse, ws;
    uint32_t lanes_per_cta;  // distinct lanes used per CTA
  };
  const Case cases[] = {
      {256, 256, 2, false, false, 128}, {128, 256, 2, false, false, 128},
      {128, 64, 2, true, false, 64},    {128, 256, 1, false, false, 128},
      {128, 64, 1, false, true, 128},   {64, 256, 1, false, true, 128},
      {64, 136, 1, false, false, 64},   {32, 128, 1, true, true, 128},
  };
  for (const Case& c : cases) {
    CAPTURE(c.m);
    CAPTURE(c.n);
    const auto p = dl(c.m, c.n, c.cg, c.sparse, c.ws, 32);
    std::set<std::tuple<int, int, int>> cells;
    std::set<std::pair<int, int>> lanes;
    bool cols_ok = true;
    for (uint32_t m = 0; m < c.m; ++m)
      for (uint32_t n = 0; n < c.n; ++n) {
        const TmemCell x = p.locate(m, n);
        cells.insert({x.cta, x.lane, x.column});
        lanes.insert({x.cta, x.lane});
        cols_ok &= x.column >= 32 && x.column < 32 + p.columns_used() && x.lane < 128 &&
                   x.cta < p.ctas();
      }
    CHECK(cells.size() == size_t(c.m) * c.n);  // injective, and with the counts below, onto
    CHECK(lanes.size() == size_t(c.lanes_per_cta) * p.ctas());
    CHECK(cells.size() == size_t(c.lanes_per_cta) * p.ctas() * p.columns_used());
    CHECK(cols_ok);
  }
  // Two M = 64 tiles at lanes 0 and 16 interleave into all 128 lanes without overlap.
  std::set<std::pair<int, int>> both;
  for (uint32_t l0 : {0u, 16u}) {
    const auto p = dl(64, 8, 1, false, false, l0 << 16);
    for (uint32_t m = 0; m < 64; ++m)
      for (uint32_t n = 0; n < 8; ++n) both.insert({p.locate(m, n).lane, p.locate(m, n).column});
  }
  CHECK(both.size() == 128 * 8);
}

TEST_CASE("A in TMEM: packing along K and the datapath's lanes") {
  auto al = [](uint32_t m, int cg, DType t, MmaKind k, uint32_t taddr = 0) {
    auto p = TmemALayout::make(m, cg, false, t, k, taddr);
    REQUIRE_MESSAGE(p.has_value(), (p.has_value() ? "" : p.error().message));
    return *p;
  };
  // bf16, M 128: A[5][7] -> lane 5, column 7/2 = 3, bit (7%2)*16 = 16.
  auto a = al(128, 1, DType::BF16, MmaKind::F16).locate(5, 7);
  CHECK(a.lane == 5);
  CHECK(a.column == 3);
  CHECK(a.bit == 16);
  CHECK(a.dup_lane == -1);
  // tf32: one per column. A[0][9] -> column 9, bit 0.
  CHECK(al(128, 1, DType::TF32, MmaKind::TF32).locate(0, 9).column == 9);
  // e2m1 under f8f6f4: 8-bit containers, value in bits [5:2]. A[3][6] -> column 1, bit
  // (6%4)*8 + 2 = 18.
  a = al(128, 1, DType::E2M1, MmaKind::F8F6F4).locate(3, 6);
  CHECK(a.column == 1);
  CHECK(a.bit == 18);
  // e3m2 under mxf8f6f4: bits [5:0]. A[3][6] -> bit 16.
  CHECK(al(128, 1, DType::E3M2, MmaKind::MXF8F6F4).locate(3, 6).bit == 16);
  // e2m1 under mxf4: two per container, 8 per column. A[3][13] -> column 1, bit (13%8)*4 = 20.
  a = al(128, 1, DType::E2M1, MmaKind::MXF4).locate(3, 13);
  CHECK(a.column == 1);
  CHECK(a.bit == 20);
  // M 64 (layout F) at lane 16: A[40][0] -> lane 16 + 72 = 88.
  CHECK(al(64, 1, DType::F16, MmaKind::F16, 16u << 16).locate(40, 0).lane == 88);
  // M 128 cta_group::2 (layout B): A[70][0] -> CTA 1, lane 6, duplicated in lane 70.
  a = al(128, 2, DType::F16, MmaKind::F16).locate(70, 0);
  CHECK(a.cta == 1);
  CHECK(a.lane == 6);
  CHECK(a.dup_lane == 70);
  // M 256: A[130][0] -> CTA 1, lane 2.
  a = al(256, 2, DType::S8, MmaKind::I8).locate(130, 0);
  CHECK(a.cta == 1);
  CHECK(a.lane == 2);
  // Types the kind does not take; sparse M 128 cg2 (layout C) not modelled.
  CHECK_FALSE(TmemALayout::make(128, 1, false, DType::E4M3, MmaKind::F16));
  CHECK_FALSE(TmemALayout::make(128, 1, false, DType::E4M3, MmaKind::MXF4));
  CHECK_FALSE(TmemALayout::make(128, 2, true, DType::F16, MmaKind::F16));
  // Injective over (row, k) for a packed type: every (lane, column, bit) distinct.
  const auto p = al(128, 1, DType::E2M1, MmaKind::MXF4);
  std::set<std::tuple<int, int, int>> seen;
  for (uint32_t m = 0; m < 128; ++m)
    for (uint32_t k = 0; k < 64; ++k) {
      const auto c = p.locate(m, k);
      seen.insert({c.lane, c.column, c.bit});
    }
  CHECK(seen.size() == 128 * 64);
}
