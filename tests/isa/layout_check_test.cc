// check_tma_mma_layout (isa/layouts/layout_check.h): consistent tiles pass; each classic bug is
// caught, its first mismatches are the ones worked out by hand, and the named cause is the
// single field that was broken.
#include <doctest/doctest.h>

#include <string>

#include "isa/layouts/layout_check.h"

using namespace tcsim::isa;

namespace {

SmemDesc desc(uint32_t start, uint32_t lbo, uint32_t sbo, SwizzleMode layout, uint8_t bo = 0) {
  SmemDesc d;
  d.start_address = start, d.lbo = lbo, d.sbo = sbo, d.version = 1, d.base_offset = bo;
  d.layout = layout;
  return d;
}

LayoutCheckReport run(TmaSwizzle s, uint32_t b0, uint32_t b1, ElementFormat f, SmemDesc d,
                      Major m) {
  auto r = check_tma_mma_layout({s, b0, b1, f, d, m, true});
  REQUIRE_MESSAGE(r.has_value(), (r.has_value() ? "" : r.error().message));
  return *r;
}

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("consistent tiles") {
  // bf16 64 x 128 box, SWIZZLE_128B, K-major SW128 descriptor with SBO 1024 (docs/smem_layouts.md §7 S1).
  auto r = run(TmaSwizzle::B128, 64, 128, dense_format(16),
               desc(0x400, 16, 1024, SwizzleMode::B128), Major::K);
  CHECK(r.consistent);
  CHECK(r.elements == 64 * 128);
  CHECK(r.wrong == 0);
  CHECK(r.cause.empty());
  // Same tile read MN-major (dim0 = MN, 64 x 128 K rows): one 128-byte MN atom, SBO = 8 rows.
  CHECK(run(TmaSwizzle::B128, 64, 128, dense_format(16), desc(0x400, 16, 1024, SwizzleMode::B128),
            Major::MN)
            .consistent);
}

TEST_CASE("descriptor SWIZZLE_NONE reading a 128B-swizzled tile") {
  auto r = run(TmaSwizzle::B128, 64, 16, dense_format(16),
               desc(0x400, 16, 1024, SwizzleMode::None), Major::K);
  CHECK_FALSE(r.consistent);
  CHECK(has(r.cause, "descriptor layout SWIZZLE_NONE, tile written with 128B swizzle: use "
                     "SWIZZLE_128B"));
  REQUIRE(r.fix);
  CHECK(r.fix->desc.layout == SwizzleMode::B128);
  // First mismatch by hand. TMA puts (mn, k) at 0x400 + 128 mn + 2k with chunk k/8 XOR (mn & 7)
  // (0x400 >> 7 = 8 has phase 0). The no-swizzle descriptor reads (mn, k) at 0x400 + 16 (mn % 8)
  // + 16 (k / 8) + 2 (k % 8). Row 0: both 0x400 + 2k — all 64 agree. Row 1, k 0: the MMA reads
  // 0x410, where TMA put chunk 1 of row 0 = element (0, 8); (1, 0) itself is at 0x480 ^ 0x10.
  REQUIRE(!r.first.empty());
  CHECK(r.first[0].mn == 1);
  CHECK(r.first[0].k == 0);
  REQUIRE(r.first[0].address);
  CHECK(r.first[0].address->byte == 0x410);
  REQUIRE(r.first[0].found);
  CHECK(*r.first[0].found == std::pair<uint32_t, uint32_t>{0, 8});
}

TEST_CASE("SBO 512 B but the tile's 8-row groups repeat every 1024 B") {
  auto r = run(TmaSwizzle::B128, 64, 128, dense_format(16),
               desc(0x400, 16, 512, SwizzleMode::B128), Major::K);
  CHECK_FALSE(r.consistent);
  CHECK(has(r.cause, "SBO 512 B but the tile's groups of 8 MN rows repeat every 1024 B: use SBO "
                     "1024 B"));
  REQUIRE(r.fix);
  CHECK(r.fix->desc.sbo == 1024);
  // Rows 0-7 agree; row 8 is read at 0x400 + 512, where TMA put row 4: first mismatch (8, 0),
  // found (4, 0) (phase of 0x600 is 4 in both).
  REQUIRE(!r.first.empty());
  CHECK(r.first[0].mn == 8);
  CHECK(r.first[0].k == 0);
  CHECK(*r.first[0].found == std::pair<uint32_t, uint32_t>{4, 0});
  // 120 of 128 rows are wrong (rows 0-7 are right), all 64 elements each.
  CHECK(r.wrong == 120 * 64);
}

TEST_CASE("base_offset 3 on a TMA tile at a 128-aligned, not 1024-aligned address") {
  // dstMem 0x580: (0x580 >> 7) & 7 = 3, the PTX formula's "base offset" — but TMA wrote with the
  // absolute pattern (measured on H200), so the descriptor needs 0.
  auto r = run(TmaSwizzle::B128, 64, 64, dense_format(16),
               desc(0x580, 16, 1024, SwizzleMode::B128, 3), Major::K);
  CHECK_FALSE(r.consistent);
  CHECK(has(r.cause, "base_offset 3 but TMA writes with the absolute address pattern"));
  CHECK(has(r.cause, "use 0"));
  REQUIRE(r.fix);
  CHECK(r.fix->desc.base_offset == 0);
}

TEST_CASE("two broken fields: no swizzle and the no-swizzle SBO") {
  // A descriptor for an interleaved tile (layout none, SBO 128) reading a 128B-swizzled tile
  // needs both the layout and SBO changed.
  auto r = run(TmaSwizzle::B128, 64, 32, dense_format(16),
               desc(0x400, 16, 128, SwizzleMode::None), Major::K);
  CHECK_FALSE(r.consistent);
  REQUIRE(r.fix);
  CHECK(r.fix->desc.layout == SwizzleMode::B128);
  CHECK(r.fix->desc.sbo == 1024);
  CHECK(has(r.cause, "SWIZZLE_NONE"));
  CHECK(has(r.cause, "SBO 128 B"));
}

TEST_CASE("major: a descriptor built for the other major") {
  // 16-byte-wide no-swizzle box (8 bf16 x 64 rows): rows 16 B apart. MN-major reading (mn = i0
  // < 8, k = i1): (k/8)*LBO + (k%8)*16 + 2mn with LBO 128 = 16k + 2mn — consistent. The same
  // descriptor read K-major puts row mn at (mn/8)*SBO(16) + (mn%8)*16: rows 8.. collide.
  const SmemDesc d = desc(0x400, 128, 16, SwizzleMode::None);
  CHECK(run(TmaSwizzle::None, 8, 64, dense_format(16), d, Major::MN).consistent);
  auto r = run(TmaSwizzle::None, 8, 64, dense_format(16), d, Major::K);
  CHECK_FALSE(r.consistent);
  REQUIRE(r.fix);
  CHECK(r.fix->major == Major::MN);
  CHECK(has(r.cause, "the MMA reads the operand K-major but the tile is MN-major"));
}

TEST_CASE("no descriptor can read it: explained") {
  // TMA without swizzle and 128-byte rows: no canonical K-major layout reads row-major rows.
  auto r = run(TmaSwizzle::None, 64, 16, dense_format(16),
               desc(0x400, 16, 1024, SwizzleMode::B128), Major::K);
  CHECK_FALSE(r.consistent);
  CHECK_FALSE(r.fix);
  CHECK(has(r.cause, "128-byte rows without swizzle"));
  // 64-byte atoms have no MMA counterpart.
  auto a64 = run(TmaSwizzle::B128Atom64B, 64, 16, dense_format(16),
                 desc(0x400, 16, 1024, SwizzleMode::B128), Major::K);
  CHECK_FALSE(a64.consistent);
  CHECK(has(a64.cause, "no tcgen05/wgmma descriptor counterpart"));
}

TEST_CASE("bad input is an error, not a report") {
  // box inner 256 B > 128B span
  CHECK_FALSE(check_tma_mma_layout({TmaSwizzle::B128, 128, 8, dense_format(16),
                                    desc(0x400, 16, 1024, SwizzleMode::B128), Major::K, true}));
  // MN-major fp4
  CHECK_FALSE(check_tma_mma_layout({TmaSwizzle::B128, 128, 8, padded_format(4),
                                    desc(0x400, 16, 1024, SwizzleMode::B128), Major::MN, true}));
}
