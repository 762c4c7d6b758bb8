// tcgen05.ld/st (thread, register) <-> (lane, column) maps (isa/layouts/tmem_ld_st.h).
//
// Independent source: the PTX fragment figures are images, so the maps are checked against
// NVIDIA CUTLASS's hardware-tested CuTe layouts `Copy_Traits<SM100_TMEM_LOAD_*>`
// (include/cute/atom/copy_traits_sm100.hpp @ 7107b05). Each entry below is only the *data* of
// one trait — ValID (bits per data path, data paths) and DstLayout (thread modes, value modes as
// shape:stride) — evaluated here by a small CuTe-layout interpreter:
//   bit(t, v) = sum_i coord_i(t) * thread_stride_i + sum_j coord_j(v) * value_stride_j
// with colexicographic coordinates; data path = bit / bits_per_dp, column = (bit % bits_per_dp)
// / 32. Register j holds values v = 32j .. 32j + 31. The _16b (pack::16b) traits add a
// ValID ((16, E), DP) : ((1, 32), DP_b): logical 16-bit element e of a data path sits in TMEM
// column e (its low 16 bits).
#include <doctest/doctest.h>

#include <set>
#include <tuple>
#include <vector>

#include "isa/layouts/tmem_ld_st.h"

using namespace tcsim::isa;

namespace {

struct Mode {
  uint32_t shape, stride;
};
uint32_t eval(const std::vector<Mode>& modes, uint32_t x) {
  uint32_t r = 0;
  for (const Mode& m : modes) {
    r += (x % m.shape) * m.stride;
    x /= m.shape;
  }
  return r;
}

struct Trait {
  const char* name;
  TmemLdStShape shape;
  uint32_t num;
  uint32_t bits_per_dp;  // ValID mode 0
  std::vector<Mode> thr, val;
};

// CUTLASS copy_traits_sm100.hpp, DstLayout and ValID of each SM100_TMEM_LOAD_* trait.
const std::vector<Trait>& traits() {
  static const std::vector<Trait> t = {
      // SM100_TMEM_LOAD_32dp32b1x: ValID (32,32); Dst (32,32):(32,1)
      {"32dp32b1x", TmemLdStShape::S32x32b, 1, 32, {{32, 32}}, {{32, 1}}},
      // 32dp32b2x: ValID (64,32); Dst (32,64):(64,1)
      {"32dp32b2x", TmemLdStShape::S32x32b, 2, 64, {{32, 64}}, {{64, 1}}},
      // 16dp64b1x: ValID (64,16); Dst ((2,2,8),32):((512,32,64),1)
      {"16dp64b1x", TmemLdStShape::S16x64b, 1, 64, {{2, 512}, {2, 32}, {8, 64}}, {{32, 1}}},
      // 16dp64b2x: ValID (128,16); Dst ((2,2,8),(32,2)):((1024,32,128),(1,64))
      {"16dp64b2x", TmemLdStShape::S16x64b, 2, 128, {{2, 1024}, {2, 32}, {8, 128}},
       {{32, 1}, {2, 64}}},
      // 16dp128b1x: ValID (128,16); Dst ((4,8),(32,2)):((32,128),(1,1024))
      {"16dp128b1x", TmemLdStShape::S16x128b, 1, 128, {{4, 32}, {8, 128}}, {{32, 1}, {2, 1024}}},
      // 16dp128b2x: ValID (256,16); Dst ((4,8),(32,2,2)):((32,256),(1,2048,128))
      {"16dp128b2x", TmemLdStShape::S16x128b, 2, 256, {{4, 32}, {8, 256}},
       {{32, 1}, {2, 2048}, {2, 128}}},
      // 16dp256b1x: ValID (256,16); Dst ((4,8),(64,2)):((64,256),(1,2048))
      {"16dp256b1x", TmemLdStShape::S16x256b, 1, 256, {{4, 64}, {8, 256}}, {{64, 1}, {2, 2048}}},
      // 16dp256b2x: ValID (512,16); Dst ((4,8),(64,2,2)):((64,512),(1,4096,256))
      {"16dp256b2x", TmemLdStShape::S16x256b, 2, 512, {{4, 64}, {8, 512}},
       {{64, 1}, {2, 4096}, {2, 256}}},
      // 16dp32b1x (16x32bx2.x1, imm 1): ValID (64,16); Dst ((16,2),32):((64,32),1)
      {"16dp32b1x", TmemLdStShape::S16x32bx2, 1, 64, {{16, 64}, {2, 32}}, {{32, 1}}},
      // 16dp32b2x (16x32bx2.x2, imm 2): ValID (128,16); Dst ((16,2),64):((128,64),1)
      {"16dp32b2x", TmemLdStShape::S16x32bx2, 2, 128, {{16, 128}, {2, 64}}, {{64, 1}}},
  };
  return t;
}

TmemLdStMap ld(TmemLdStShape s, uint32_t num, bool pack, uint32_t imm = 0) {
  auto m = TmemLdStMap::make(s, num, pack, imm);
  REQUIRE_MESSAGE(m.has_value(), (m.has_value() ? "" : m.error().message));
  return *m;
}

}  // namespace

TEST_CASE("thread maps equal CUTLASS's Copy_Traits<SM100_TMEM_LOAD_*> (x1, x2)") {
  for (const Trait& tr : traits()) {
    CAPTURE(tr.name);
    // CUTLASS issues 16x32bx2 with immHalfSplitoff = one half's span (= num here).
    const uint32_t imm = tr.shape == TmemLdStShape::S16x32bx2 ? tr.num : 0;
    const auto map = ld(tr.shape, tr.num, false, imm);
    for (uint32_t t = 0; t < 32; ++t)
      for (uint32_t j = 0; j < map.registers(); ++j) {
        const uint32_t b0 = eval(tr.thr, t) + eval(tr.val, 32 * j);
        // all 32 bits of the register in one cell, in order
        const uint32_t b31 = eval(tr.thr, t) + eval(tr.val, 32 * j + 31);
        CHECK(b31 == b0 + 31);
        const uint32_t dp = b0 / tr.bits_per_dp, col = (b0 % tr.bits_per_dp) / 32;
        CAPTURE(t);
        CAPTURE(j);
        CHECK(map.locate(t, j) == TmemLdStMap::Cell{uint16_t(dp), uint16_t(col)});
      }
  }
}

TEST_CASE("pack::16b maps equal CUTLASS's *_16b traits (x1)") {
  struct Packed {
    const char* name;
    TmemLdStShape shape;
    uint32_t elems;      // ValID ((16, E), DP): 16-bit elements per data path
    const char* base;    // the unpacked trait whose DstLayout it shares
  };
  const Packed packed[] = {
      {"32dp32b1x_16b", TmemLdStShape::S32x32b, 2, "32dp32b1x"},
      {"16dp64b1x_16b", TmemLdStShape::S16x64b, 4, "16dp64b1x"},
      {"16dp128b1x_16b", TmemLdStShape::S16x128b, 8, "16dp128b1x"},
      {"16dp256b1x_16b", TmemLdStShape::S16x256b, 16, "16dp256b1x"},
      {"16dp32b1x_16b", TmemLdStShape::S16x32bx2, 4, "16dp32b1x"},  // imm 2
  };
  for (const Packed& p : packed) {
    CAPTURE(p.name);
    const Trait* tr = nullptr;
    for (const Trait& t : traits())
      if (std::string_view(t.name) == p.base) tr = &t;
    REQUIRE(tr);
    const uint32_t imm = p.shape == TmemLdStShape::S16x32bx2 ? 2 : 0;
    const auto map = ld(p.shape, 1, true, imm);
    for (uint32_t t = 0; t < 32; ++t)
      for (uint32_t j = 0; j < map.registers(); ++j)
        for (uint32_t half = 0; half < 2; ++half) {
          const uint32_t l = eval(tr->thr, t) + eval(tr->val, 32 * j + 16 * half);
          const uint32_t dp = l / (16 * p.elems), elem = (l % (16 * p.elems)) / 16;
          CAPTURE(t);
          CAPTURE(j);
          CAPTURE(half);
          CHECK(map.locate(t, j, half) == TmemLdStMap::Cell{uint16_t(dp), uint16_t(elem)});
        }
  }
}

TEST_CASE("every shape, .num and packing is a bijection onto lanes x columns") {
  for (auto s : {TmemLdStShape::S32x32b, TmemLdStShape::S16x64b, TmemLdStShape::S16x128b,
                 TmemLdStShape::S16x256b, TmemLdStShape::S16x32bx2})
    for (uint32_t num = 1; num <= TmemLdStMap::max_num(s); num *= 2)
      for (bool pack : {false, true}) {
        CAPTURE(tmem_ldst_shape_name(s));
        CAPTURE(num);
        CAPTURE(pack);
        // 16x32bx2: second half right after the first (as CUTLASS issues it).
        uint32_t imm = 0;
        if (s == TmemLdStShape::S16x32bx2) imm = pack ? 2 * num : num;
        auto m = TmemLdStMap::make(s, num, pack, imm);
        if (!m) {  // only the 512-column limit may refuse (x128 packed halves)
          CHECK(pack);
          continue;
        }
        CHECK(m->registers() == num * TmemLdStMap::registers_per_x1(s));
        std::set<std::pair<int, int>> cells;
        bool in_range = true;
        for (uint32_t t = 0; t < 32; ++t)
          for (uint32_t j = 0; j < m->registers(); ++j)
            for (uint32_t h = 0; h < (pack ? 2u : 1u); ++h) {
              const auto c = m->locate(t, j, h);
              cells.insert({c.lane, c.column});
              in_range &= c.lane < m->lanes() && c.column < m->columns();
            }
        // The inverse map returns every (thread, register, half).
        bool inverse_ok = true;
        for (uint32_t t = 0; t < 32; ++t)
          for (uint32_t j = 0; j < m->registers(); ++j)
            for (uint32_t h = 0; h < (pack ? 2u : 1u); ++h) {
              const auto c = m->locate(t, j, h);
              const auto sl = m->slot(c.lane, c.column);
              inverse_ok &= sl && *sl == TmemLdStMap::Slot{uint16_t(t), uint16_t(j), uint8_t(h)};
            }
        CHECK(inverse_ok);
        CHECK_FALSE(m->slot(m->lanes(), 0));
        CHECK_FALSE(m->slot(0, m->columns()));
        const size_t pieces = size_t(32) * m->registers() * (pack ? 2 : 1);
        CHECK(cells.size() == pieces);                               // injective
        CHECK(cells.size() == size_t(m->lanes()) * m->columns());    // onto
        CHECK(in_range);
      }
}

TEST_CASE("register counts and .num limits (Tables 49/50)") {
  CHECK(ld(TmemLdStShape::S32x32b, 128, false).registers() == 128);
  CHECK(ld(TmemLdStShape::S16x64b, 128, false).registers() == 128);
  CHECK(ld(TmemLdStShape::S16x128b, 64, false).registers() == 128);
  CHECK(ld(TmemLdStShape::S16x256b, 32, false).registers() == 128);
  CHECK(ld(TmemLdStShape::S16x256b, 1, true).registers() == 4);   // pack keeps the count
  CHECK(ld(TmemLdStShape::S16x256b, 1, true).columns() == 16);    // and doubles the columns
  CHECK(ld(TmemLdStShape::S16x32bx2, 128, false, 128).columns() == 256);
  CHECK_FALSE(TmemLdStMap::make(TmemLdStShape::S16x128b, 128, false));
  CHECK_FALSE(TmemLdStMap::make(TmemLdStShape::S16x256b, 64, false));
  CHECK_FALSE(TmemLdStMap::make(TmemLdStShape::S32x32b, 3, false));
  CHECK_FALSE(TmemLdStMap::make(TmemLdStShape::S32x32b, 256, false));
  CHECK_FALSE(TmemLdStMap::make(TmemLdStShape::S32x32b, 4, false, 4));  // imm only for 16x32bx2
  CHECK_FALSE(TmemLdStMap::make(TmemLdStShape::S16x32bx2, 128, true, 300));  // past column 511
  // Spot values (16x256b, the mma.sync-style groupID/threadID pattern): thread 6, register 3 ->
  // lane 6/4 + 8*((3/2)%2) = 9, column 2*(6%4) + 3%2 + 8*(3/4) = 5.
  CHECK(ld(TmemLdStShape::S16x256b, 1, false).locate(6, 3) == TmemLdStMap::Cell{9, 5});
  // 16x32bx2.x4, imm 64: thread 20, register 2 -> lane 4, column 64 + 2.
  CHECK(ld(TmemLdStShape::S16x32bx2, 4, false, 64).locate(20, 2) == TmemLdStMap::Cell{4, 66});
  for (auto s : {TmemLdStShape::S32x32b, TmemLdStShape::S16x64b, TmemLdStShape::S16x128b,
                 TmemLdStShape::S16x256b, TmemLdStShape::S16x32bx2}) {
    CHECK(parse_tmem_ldst_shape(tmem_ldst_shape_name(s)) == s);
    std::string dotted(1, '.');  // (not "." + name: GCC 12 -Wrestrict false positive)
    dotted.append(tmem_ldst_shape_name(s));
    CHECK(parse_tmem_ldst_shape(dotted) == s);
  }
}
