// Host check of umma_layout.h, the layout code the tcgen05 kernels place their operands with.
// Three independent truths:
//  1. worked encodings (../shared/ref/tcgen05.md §17: descriptor S1-S4 and idesc E1-E5, each
//     recomputed there by hand from the PTX field tables);
//  2. a second, independent reading of every descriptor the kernels build: decode the 64-bit
//     descriptor's fields and compute each element's address with the §9.7.16.3 canonical-layout
//     formulas (the way the tensor core reads), then require it to be exactly where the kernel's
//     placement (chunk_offset + step_offset) put that element -- for every layout type, major-ness,
//     element size, variant, row count and K-chain length the spec generator uses; plus: the
//     placement is injective and stays inside the tile;
//  3. the TMEM data-path layouts and tcgen05.ld register maps are bijections onto their cells.
// Exit status 0 = all pass; every failure is printed.
#include <cstdint>
#include <cstdio>
#include <set>
#include <utility>

#include "umma_layout.h"

namespace {

int g_failures = 0;

void expect_eq(uint64_t got, uint64_t want, const char* what) {
  if (got != want) {
    std::printf("FAIL %s: got 0x%016llx want 0x%016llx\n", what,
                static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
    ++g_failures;
  }
}

// Worked encodings of ref/tcgen05.md §17.
void check_worked_encodings() {
  using namespace tck;
  // S1: K-major SW128 bf16 tile 128 x 64 at 0x400: SBO 1024, LBO "1", layout 2.
  const OperandLayout s1 = make_operand_layout(kSwizzle128B, 0, 128, 2, 16, 4, 0);
  expect_eq(smem_desc(s1, 0x400, 0), 0x4000404000010040ull, "S1 step 0");
  expect_eq(smem_desc(s1, 0x400, 1), 0x4000404000010042ull, "S1 step 1 (+32 B)");
  // S2: MN-major SW128 bf16 B tile N=256 x K=64 at 0x8000: LBO 1024, SBO 4096.
  const OperandLayout s2 = make_operand_layout(kSwizzle128B, 1, 256, 2, 16, 4, 0);
  expect_eq(smem_desc(s2, 0x8000, 0), 0x4000410000400800ull, "S2");
  // S3: PTX's K-major no-swizzle tf32 example ((8,2),(4,4)):((4,32),(1,64)) at 0x1000.
  const OperandLayout s3 = make_operand_layout(kSwizzleNone, 0, 16, 4, 8, 2, 1);
  expect_eq(smem_desc(s3, 0x1000, 0), 0x0000400800100100ull, "S3");
  // S4: PTX's K-major 32B-swizzle tf32 example ((8,2),(4,4)):((8,64),(1,4)) at 0x1000.
  const OperandLayout s4 = make_operand_layout(kSwizzle32B, 0, 16, 4, 8, 2, 0);
  expect_eq(smem_desc(s4, 0x1000, 0), 0xC000401000010100ull, "S4");
  // E1-E5: instruction descriptors.
  expect_eq(make_idesc(128, 256, 1, 1, 1, 0, 0, 0, 0, 0), 0x08400490u, "E1 bf16 M128 N256");
  expect_eq(make_idesc(64, 8, 0, 0, 0, 0, 0, 0, 0, 0), 0x04020000u, "E2 f16 M64 N8");
  expect_eq(make_idesc(128, 128, 1, 2, 2, 0, 1, 0, 0, 0), 0x08210910u, "E3 tf32 B N-major");
  expect_eq(make_idesc(256, 256, 1, 0, 1, 0, 0, 0, 0, 0), 0x10400410u, "E4 e4m3 x e5m2 M256");
  expect_eq(make_idesc(128, 64, 2, 1, 1, 0, 0, 0, 0, 1), 0x081004A8u, "E5 s8 saturate");
}

// The reader: from the descriptor bits alone (plus major-ness and element size, which come from
// the instruction descriptor), the byte address of element (r, k) of one MMA's operand, per the
// canonical layouts of §9.7.16.3 (ref/tcgen05.md §7.1/§7.3). Written from the formulas, not from
// the placement code.
uint32_t read_addr(uint64_t desc, bool mn_major, uint32_t ebytes, uint32_t r, uint32_t k) {
  const uint32_t start = static_cast<uint32_t>(desc & 0x3FFF) << 4;
  const uint32_t lbo = static_cast<uint32_t>((desc >> 16) & 0x3FFF) << 4;
  const uint32_t sbo = static_cast<uint32_t>((desc >> 32) & 0x3FFF) << 4;
  const uint32_t lt = static_cast<uint32_t>(desc >> 61);
  uint32_t a = 0;
  if (!mn_major) {
    const uint32_t kb = k * ebytes;
    switch (lt) {
      case 0: a = start + (r / 8) * sbo + (r % 8) * 16 + (kb / 16) * lbo + kb % 16; break;
      case 6: a = start + (r / 8) * sbo + (r % 8) * 32 + kb; break;
      case 4: a = start + (r / 8) * sbo + (r % 8) * 64 + kb; break;
      case 2: a = start + (r / 8) * sbo + (r % 8) * 128 + kb; break;
      default: a = 0xFFFFFFFF;
    }
  } else {
    const uint32_t t = 16 / ebytes, rb = r * ebytes;
    switch (lt) {
      case 0: a = start + (r / t) * sbo + (k / 8) * lbo + (k % 8) * 16 + (r % t) * ebytes; break;
      case 6: a = start + (rb / 32) * lbo + (k / 8) * sbo + (k % 8) * 32 + rb % 32; break;
      case 4: a = start + (rb / 64) * lbo + (k / 8) * sbo + (k % 8) * 64 + rb % 64; break;
      case 2: a = start + (rb / 128) * lbo + (k / 8) * sbo + (k % 8) * 128 + rb % 128; break;
      case 1: a = start + (rb / 128) * lbo + (k / 4) * sbo + (k % 4) * 128 + rb % 128; break;
      default: a = 0xFFFFFFFF;
    }
  }
  switch (lt) {  // the swizzles on byte addresses (CuTe Swizzle<B,M,S>)
    case 6: return a ^ ((a >> 3) & 0x10);
    case 4: return a ^ ((a >> 3) & 0x30);
    case 2: return a ^ ((a >> 3) & 0x70);
    case 1: return a ^ ((a >> 2) & 0x60);
    default: return a;
  }
}

// Where the kernel's placement puts element (r, k) (k over the whole K chain).
uint32_t placed_addr(const tck::OperandLayout& L, uint32_t tile, uint32_t r, uint32_t k) {
  if (!L.mn_major) {
    const uint32_t kb = k * L.ebytes;
    return tck::swizzle_addr(tile + tck::chunk_offset(L, r, kb / 16), L.lt) + kb % 16;
  }
  const uint32_t rb = r * L.ebytes;
  return tck::swizzle_addr(tile + tck::chunk_offset(L, rb / 16, k), L.lt) + rb % 16;
}

void check_layout(uint32_t lt, uint32_t mn, uint32_t rows, uint32_t ebytes, uint32_t kstep,
                  uint32_t ksteps, uint32_t variant) {
  const uint32_t tile = 0x2000;  // 1024-aligned, like the kernels' tiles
  const tck::OperandLayout L = tck::make_operand_layout(lt, mn, rows, ebytes, kstep, ksteps, variant);
  std::set<uint32_t> seen;
  for (uint32_t s = 0; s < ksteps; ++s) {
    const uint64_t d = tck::smem_desc(L, tile, s);
    if (((d >> 46) & 7) != 1 || ((d >> 49) & 7) != 0) {
      std::printf("FAIL fixed bits lt=%u mn=%u\n", lt, mn);
      ++g_failures;
    }
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t k = 0; k < kstep; ++k) {
        const uint32_t want = placed_addr(L, tile, r, s * kstep + k);
        const uint32_t got = read_addr(d, mn != 0, ebytes, r, k);
        if (got != want) {
          if (g_failures < 20)
            std::printf("FAIL lt=%u mn=%u rows=%u eb=%u ksteps=%u var=%u step %u (r=%u,k=%u): "
                        "descriptor reads 0x%x, placed at 0x%x\n",
                        lt, mn, rows, ebytes, ksteps, variant, s, r, k, got, want);
          ++g_failures;
        }
        if (want < tile || want + ebytes > tile + L.bytes) {
          std::printf("FAIL lt=%u mn=%u: element outside the tile\n", lt, mn);
          ++g_failures;
        }
        if (!seen.insert(want).second) {
          std::printf("FAIL lt=%u mn=%u rows=%u: two elements at 0x%x\n", lt, mn, rows, want);
          ++g_failures;
        }
      }
    }
  }
}

void check_all_layouts() {
  int n = 0;
  // (element bytes, K per MMA): f16/bf16, tf32, 8-bit (and padded fp6/fp4, same footprint).
  const uint32_t kinds[3][2] = {{2, 16}, {4, 8}, {1, 32}};
  for (const auto& kind : kinds) {
    const uint32_t eb = kind[0], kstep = kind[1];
    for (uint32_t rows : {8u, 16u, 32u, 64u, 128u, 256u}) {
      for (uint32_t ksteps : {1u, 2u, 3u, 4u, 5u, 8u}) {
        for (uint32_t variant : {0u, 1u}) {
          for (uint32_t lt : {0u, 6u, 4u, 2u}) {  // K-major: no base-32B mode (CUTLASS assert)
            check_layout(lt, 0, rows, eb, kstep, ksteps, variant);
            ++n;
          }
          for (uint32_t lt : {0u, 6u, 4u, 2u, 1u}) {
            if (lt == 1 && eb != 4) continue;  // base-32B: tf32 MN-major only (Table 51)
            if (rows * eb % tck::swizzle_row_bytes(lt) != 0) continue;  // whole atoms along MN
            check_layout(lt, 1, rows, eb, kstep, ksteps, variant);
            ++n;
          }
        }
      }
    }
  }
  std::printf("descriptor reading == kernel placement for %d layouts\n", n);
}

// Every D element lives in exactly one TMEM cell; A rows sit in the lanes of D's rows.
void check_tmem_layouts() {
  struct Case { uint32_t m, cg, ws; };
  const Case cases[] = {{64, 1, 0}, {128, 1, 0}, {128, 2, 0}, {256, 2, 0},
                        {32, 1, 1}, {64, 1, 1}, {128, 1, 1}};
  for (const Case& c : cases) {
    for (uint32_t n : {64u, 128u, 256u}) {
      const uint32_t layout = tck::d_layout(c.m, c.cg, c.ws);
      std::set<std::pair<uint32_t, uint32_t>> cells;
      for (uint32_t v = 0; v < c.cg; ++v)
        for (uint32_t lane = 0; lane < 128; ++lane)
          for (uint32_t col = 0; col < tck::d_columns(layout, n); ++col) {
            uint32_t m, nn;
            if (!tck::d_element(layout, n, v, lane, col, &m, &nn)) continue;
            if (m >= c.m || nn >= n || !cells.insert({m, nn}).second) {
              std::printf("FAIL D layout %u (M=%u N=%u): cell (%u,%u,%u) -> (%u,%u)\n", layout,
                          c.m, n, v, lane, col, m, nn);
              ++g_failures;
            }
            if (!c.ws && nn < (layout == tck::kDLayoutB ? n / 2 : n) &&
                tck::d_lane_of_row(layout, m) != lane) {
              std::printf("FAIL d_lane_of_row layout %u m=%u\n", layout, m);
              ++g_failures;
            }
            uint32_t am;
            if (!c.ws && (!tck::a_row_of_lane(layout, v, lane, &am) || am != m)) {
              std::printf("FAIL A row of lane layout %u lane %u\n", layout, lane);
              ++g_failures;
            }
          }
      if (cells.size() != c.m * n) {
        std::printf("FAIL D layout %u (M=%u N=%u) covers %zu of %u elements\n", layout, c.m, n,
                    cells.size(), c.m * n);
        ++g_failures;
      }
    }
  }
  // tcgen05.ld maps: each shape's (thread, register) pairs hit each (lane, column) of its
  // lanes x 8 columns exactly once.
  for (uint32_t shape = 0; shape <= 4; ++shape) {
    std::set<std::pair<uint32_t, uint32_t>> cells;
    for (uint32_t t = 0; t < 32; ++t)
      for (uint32_t j = 0; j < tck::ld_regs(shape); ++j) {
        uint32_t lane, col;
        tck::ld_map(shape, t, j, &lane, &col);
        if (lane >= tck::ld_lanes(shape) || col >= 8 || !cells.insert({lane, col}).second) {
          std::printf("FAIL ld shape %u: thread %u reg %u -> (%u,%u)\n", shape, t, j, lane, col);
          ++g_failures;
        }
      }
    if (cells.size() != tck::ld_lanes(shape) * 8) {
      std::printf("FAIL ld shape %u covers %zu cells\n", shape, cells.size());
      ++g_failures;
    }
  }
}

}  // namespace

int main() {
  check_worked_encodings();
  check_all_layouts();
  check_tmem_layouts();
  if (g_failures) {
    std::printf("layout_selfcheck: %d failures\n", g_failures);
    return 1;
  }
  std::printf("layout_selfcheck: all passed\n");
  return 0;
}
