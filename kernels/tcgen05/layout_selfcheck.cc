// Host check of umma_layout.h, the layout code the tcgen05 kernels place their operands with.
// Three independent truths:
//  1. worked encodings (docs/smem_layouts.md §7: descriptor S1-S4 and idesc E1-E5, each
//     recomputed there by hand from the PTX field tables);
//  2. a second, independent reading of every descriptor the kernels build: decode the 64-bit
//     descriptor's fields and compute each element's address with the §9.7.16.3 canonical-layout
//     formulas (the way the tensor core reads), then require it to be exactly where the kernel's
//     placement (chunk_offset + step_offset) put that element -- for every layout type, major-ness,
//     element size, variant, row count and K-chain length the spec generator uses; plus: the
//     placement is injective and stays inside the tile;
//  3. the TMEM data-path layouts and tcgen05.ld register maps are bijections onto their cells;
//  4. the operand bytes the kernels build (operand_fill.h) read back through the descriptors are
//     the global elements, for every element format (incl. padded fp6/fp4) and TMEM A words;
//  5. the swizzle-bug demo's claims in README.md (which rows read right, first misread element).
// Exit status 0 = all pass; every failure is printed.
#include <cstdint>
#include <cstdio>
#include <set>
#include <utility>
#include <vector>

#include "operand_fill.h"
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

// Worked encodings of docs/smem_layouts.md §7.
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
// canonical layouts of §9.7.16.3 (docs/smem_layouts.md §2, §4). Written from the formulas, not from
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

// The kernels' operand bytes end to end: a random global operand, the shared-memory image built
// exactly as mma_single.cu's fill_tile does (operand_fill.h chunks at chunk_offset, swizzled), then
// every element of every MMA step read back through the descriptor (read_addr) must be the global
// element -- for 16-, 32- and 8-bit elements and the padded fp6/fp4 formats (16 per 16-byte unit,
// element i at bits [6i, 6i+6) / nibble i of the unit's low bytes). Also the TMEM words of A.
uint32_t global_elem(const std::vector<uint8_t>& g, uint32_t bits, uint32_t row_bytes, uint32_t r,
                     uint32_t k) {
  const uint8_t* row = g.data() + r * row_bytes;
  if (bits == 4) return (row[k / 2] >> (4 * (k % 2))) & 0xF;
  if (bits == 6) return row[k] & 0x3F;
  uint32_t v = 0;
  for (uint32_t i = 0; i < bits / 8; ++i) v |= uint32_t{row[k * (bits / 8) + i]} << (8 * i);
  return v;
}

uint32_t smem_elem(const std::vector<uint8_t>& smem, uint32_t bits, uint32_t addr) {
  if (bits == 4 || bits == 6) {
    const uint8_t* unit = smem.data() + (addr & ~15u);
    const uint32_t slot = addr & 15u, bit = slot * bits;
    uint32_t v = 0;
    for (uint32_t b = 0; b < bits; ++b) v |= ((unit[(bit + b) / 8] >> ((bit + b) % 8)) & 1u) << b;
    return v;
  }
  uint32_t v = 0;
  for (uint32_t i = 0; i < bits / 8; ++i) v |= uint32_t{smem[addr + i]} << (8 * i);
  return v;
}

void check_operand_fill() {
  struct Cls { uint32_t bits, ebytes, kstep; };
  const Cls classes[] = {{16, 2, 16}, {32, 4, 8}, {8, 1, 32}, {6, 1, 32}, {4, 1, 32}};
  uint32_t lcg = 12345;
  int n = 0;
  for (const Cls& c : classes) {
    for (uint32_t mn : {0u, 1u}) {
      if (mn && c.bits < 8) continue;  // Table 51: 4/6-bit operands are K-major only
      for (uint32_t lt : {0u, 6u, 4u, 2u, 1u}) {
        if (lt == 1 && !(mn && c.bits == 32)) continue;  // base-32B: tf32 MN-major only
        for (uint32_t rows : {8u, 32u, 64u, 256u}) {
          if (mn && rows * c.ebytes % tck::swizzle_row_bytes(lt)) continue;
          for (uint32_t ksteps : {1u, 3u, 4u, 8u}) {
            for (uint32_t variant : {0u, 1u}) {
              const tck::OperandLayout L =
                  tck::make_operand_layout(lt, mn, rows, c.ebytes, c.kstep, ksteps, variant);
              const uint32_t kt = c.kstep * ksteps, row_bytes = tck::global_row_bytes(c.bits, kt);
              std::vector<uint8_t> g(rows * row_bytes);
              for (auto& b : g) { lcg = lcg * 1664525u + 1013904223u; b = uint8_t(lcg >> 24); }
              const uint32_t tile = 0x2000;
              std::vector<uint8_t> smem(tile + L.bytes + 1024, 0);
              auto put = [&](uint32_t off, const uint32_t (&w)[4]) {
                const uint32_t a = tck::swizzle_addr(tile + off, lt);
                for (uint32_t i = 0; i < 16; ++i) smem[a + i] = uint8_t(w[i / 4] >> (8 * (i % 4)));
              };
              if (!mn) {
                for (uint32_t r = 0; r < rows; ++r)
                  for (uint32_t kc = 0; kc < 2 * ksteps; ++kc) {
                    uint32_t w[4];
                    tck::kmajor_chunk(g.data(), c.bits, row_bytes, r, kc, w);
                    put(tck::chunk_offset(L, r, kc), w);
                  }
              } else {
                for (uint32_t k = 0; k < kt; ++k)
                  for (uint32_t rc = 0; rc < rows * c.ebytes / 16; ++rc) {
                    uint32_t w[4];
                    tck::mnmajor_chunk(g.data(), c.ebytes, row_bytes, rc, k, w);
                    put(tck::chunk_offset(L, rc, k), w);
                  }
              }
              for (uint32_t s = 0; s < ksteps; ++s) {
                const uint64_t d = tck::smem_desc(L, tile, s);
                for (uint32_t r = 0; r < rows; ++r)
                  for (uint32_t kk = 0; kk < c.kstep; ++kk) {
                    const uint32_t got = smem_elem(smem, c.bits, read_addr(d, mn, c.ebytes, r, kk));
                    const uint32_t want = global_elem(g, c.bits, row_bytes, r, s * c.kstep + kk);
                    if (got != want) {
                      if (g_failures < 20)
                        std::printf("FAIL fill bits=%u mn=%u lt=%u rows=%u ksteps=%u var=%u: "
                                    "element (%u,%u) of step %u reads 0x%x, global 0x%x\n",
                                    c.bits, mn, lt, rows, ksteps, variant, r, kk, s, got, want);
                      ++g_failures;
                    }
                  }
              }
              // A in TMEM (K-major rows): column j of step s holds 32 bits of K.
              if (!mn && variant == 0 && lt == 0) {
                for (uint32_t m = 0; m < rows; ++m)
                  for (uint32_t s = 0; s < ksteps; ++s) {
                    uint32_t w[8];
                    tck::a_tmem_words(g.data(), c.bits, row_bytes, m, s, w);
                    const uint32_t per = c.bits >= 8 ? 32 / c.bits : 4;  // elements per column
                    for (uint32_t j = 0; j < 8; ++j)
                      for (uint32_t e = 0; e < per; ++e) {
                        const uint32_t fw = c.bits >= 8 ? c.bits : 8;
                        uint32_t v = (w[j] >> (fw * e)) & (fw == 32 ? ~0u : (1u << fw) - 1);
                        if (c.bits == 4) v = (v >> 2) & 0xF;  // e2m1 container: bits 5:2
                        if (c.bits == 6) v &= 0x3F;
                        const uint32_t k = s * c.kstep + j * per + e;
                        if (v != global_elem(g, c.bits, row_bytes, m, k)) {
                          if (g_failures < 20)
                            std::printf("FAIL TMEM A bits=%u row %u k %u\n", c.bits, m, k);
                          ++g_failures;
                        }
                      }
                  }
              }
              ++n;
            }
          }
        }
      }
    }
  }
  std::printf("operand bytes read back through the descriptors for %d tiles\n", n);
}

// The swizzle-bug demo of README.md: gemm.cu's A tile (128 rows x 64 bf16, one 128-B swizzle row
// per M row, written by TMA at absolute-address 128B swizzle) read through the buggy descriptors.
// Checks the README's claims: which rows read right, and the first misread element.
void check_swizzle_bug_claims() {
  const uint32_t tile = 0x4000;
  // Where TMA put A[m][k]: logical offset m*128 + 2k, swizzled by absolute address.
  auto owner = [&](uint32_t phys, uint32_t* m, uint32_t* k) {
    const uint32_t logical = tck::swizzle_addr(phys, tck::kSwizzle128B) - tile;  // an involution
    *m = logical / 128;
    *k = (logical % 128) / 2;
  };
  struct Bug { uint64_t desc; uint32_t first_m, first_k, read_m, read_k; const char* name; };
  const Bug bugs[] = {
      {tck::smem_desc_encode(tile, 16, 1024, tck::kSwizzleNone), 1, 0, 0, 8, "bug 1 (layout none)"},
      {tck::smem_desc_encode(tile, 16, 512, tck::kSwizzle128B), 8, 0, 4, 0, "bug 2 (SBO 512)"},
      {tck::smem_desc_encode(tile, 16, 1024, tck::kSwizzle128B), 0, 0, 0, 0, "fixed"},
  };
  for (const Bug& b : bugs) {
    bool found = false;
    for (uint32_t m = 0; m < 128; ++m) {
      for (uint32_t step = 0; step < 4; ++step) {
        for (uint32_t kk = 0; kk < 16; ++kk) {
          uint32_t rm, rk;
          owner(read_addr(b.desc + 2 * step, false, 2, m, kk), &rm, &rk);
          const uint32_t k = 16 * step + kk;
          const bool right = rm == m && rk == k;
          const bool claimed_right = b.first_m == 0 ? true
                                   : b.first_m == 1 ? m % 8 == 0 : m < 8;
          if (right != claimed_right) {
            std::printf("FAIL %s: A[%u][%u] read %s\n", b.name, m, k, right ? "right" : "wrong");
            ++g_failures;
          }
          if (!right && !found) {
            found = true;
            if (m != b.first_m || k != b.first_k || rm != b.read_m || rk != b.read_k) {
              std::printf("FAIL %s: first misread A[%u][%u] <- A[%u][%u]\n", b.name, m, k, rm, rk);
              ++g_failures;
            }
          }
        }
      }
    }
    if (!found && b.first_m != 0) {
      std::printf("FAIL %s: nothing misread\n", b.name);
      ++g_failures;
    }
  }
}

}  // namespace

int main() {
  check_worked_encodings();
  check_all_layouts();
  check_tmem_layouts();
  check_operand_fill();
  check_swizzle_bug_claims();
  if (g_failures) {
    std::printf("layout_selfcheck: %d failures\n", g_failures);
    return 1;
  }
  std::printf("layout_selfcheck: all passed\n");
  return 0;
}
