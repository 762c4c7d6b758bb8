// The tile-mode TMA box (sim/units/tma_box.h) against an independent model written from the PTX ISA
// (§5.5.3, §5.5.7 swizzle tables as byte-address XORs) and the H200 facts (kernels/tma/README.md
// "Facts settled on the H200"), the same model kernels/tma/expect.py uses: elements packed densely,
// dimension 0 fastest, rows padded to the swizzle span, the XOR applied to absolute addresses, OOB
// elements 0 or 0x7ff7 per 16-bit half, stores in 16-byte dimension-0 granules.
// The model here never calls isa/layouts; hand-worked cases pin individual bytes.
#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "sim/units/tma_box.h"

using namespace tcsim;
using isa::TensorMapDataType;
using isa::TensorMapParams;
using isa::TensorMapSwizzle;
using sim::tma::BoxDir;
using sim::tma::TileBox;

namespace {

// PTX ISA §5.5.7 Table (byte-address form, docs/smem_layouts.md §4).
uint32_t model_swizzle(TensorMapSwizzle s, uint32_t a) {
  switch (s) {
    case TensorMapSwizzle::None: return a;
    case TensorMapSwizzle::B32: return a ^ ((a >> 3) & 0x10);
    case TensorMapSwizzle::B64: return a ^ ((a >> 3) & 0x30);
    case TensorMapSwizzle::B128: return a ^ ((a >> 3) & 0x70);
    case TensorMapSwizzle::B128Atom32B: return a ^ ((a >> 2) & 0x60);
    case TensorMapSwizzle::B128Atom64B: return a ^ ((a >> 1) & 0x40);
    case TensorMapSwizzle::B128Atom32BFlip8B: return (a ^ ((a >> 2) & 0x60)) ^ (((a >> 7) & 1) ? 8 : 0);
  }
  return a;
}
uint32_t span_of(TensorMapSwizzle s) {
  switch (s) {
    case TensorMapSwizzle::None: return 0;
    case TensorMapSwizzle::B32: return 32;
    case TensorMapSwizzle::B64: return 64;
    default: return 128;
  }
}

// A map over a byte-addressed "global memory" starting at address kBase.
constexpr uint64_t kBase = 0x10000;

struct Model {
  TensorMapParams m;
  int esize;
  std::vector<int> counts;
  uint32_t row_bytes, pitch;
  uint64_t fill;
  Model(const TensorMapParams& p) : m(p) {
    esize = isa::tensor_map_global_bits(p.data_type) / 8;
    counts.push_back(static_cast<int>(p.box_dim[0]));
    for (uint32_t d = 1; d < p.rank; ++d)
      counts.push_back(static_cast<int>((p.box_dim[d] + p.element_strides[d] - 1) / p.element_strides[d]));
    row_bytes = p.box_dim[0] * static_cast<uint32_t>(esize);
    pitch = std::max(row_bytes, span_of(p.swizzle));
    fill = 0;
    if (p.oob_fill == isa::TensorMapOobFill::NanRequestZeroFma)
      for (int b = 0; b < esize * 8; b += 16) fill |= uint64_t{0x7ff7} << b;
  }
  // Visits (linear box index, global byte offset from kBase or -1 when OOB), dim0_lim: elements in
  // bounds along dimension 0.
  template <class F>
  void elements(const std::vector<int32_t>& c, int64_t dim0_lim, F f) const {
    const size_t rank = m.rank;
    std::vector<int> idx(rank, 0);
    int lin = 0;
    for (;;) {
      bool inb = true;
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d) {
        const int64_t g = c[d] + int64_t{idx[d]} * (d ? m.element_strides[d] : 1);
        const int64_t lim = d ? static_cast<int64_t>(m.global_dim[d]) : dim0_lim;
        if (g < 0 || g >= lim) inb = false;
        off += d ? g * static_cast<int64_t>(m.global_strides[d - 1]) : g * esize;
      }
      f(lin, inb ? off : -1);
      ++lin;
      size_t d = 0;
      for (; d < rank; ++d) {
        if (++idx[d] < counts[d]) break;
        idx[d] = 0;
      }
      if (d == rank) return;
    }
  }
  uint32_t smem_off(int lin, int k) const {
    const int row = lin / counts[0], e = lin % counts[0];
    return static_cast<uint32_t>(row) * pitch + static_cast<uint32_t>(e * esize + k);
  }
};

TensorMapParams map2d(TensorMapDataType t, uint64_t d0, uint64_t d1, uint64_t stride, uint32_t b0, uint32_t b1,
                      TensorMapSwizzle sw) {
  TensorMapParams p;
  p.data_type = t;
  p.rank = 2;
  p.global_address = kBase;
  p.global_dim = {d0, d1, 0, 0, 0};
  p.global_strides = {stride, 0, 0, 0};
  p.box_dim = {b0, b1, 0, 0, 0};
  p.element_strides = {1, 1, 0, 0, 0};
  p.swizzle = sw;
  return p;
}

std::vector<uint8_t> global_image(size_t n, uint32_t seed) {
  std::vector<uint8_t> g(n);
  std::mt19937 r(seed);
  for (auto& b : g) b = static_cast<uint8_t>(r());
  return g;
}

}  // namespace

TEST_CASE("tma box: hand-worked 128B-swizzled load with OOB NaN fill") {
  // bf16 tensor 16 x 4 (32-byte rows), box 8 x 2 (16-byte rows) at (-8, 3): row 0 = (g1 = 3) is
  // entirely OOB along dimension 0 (columns -8..-1), row 1 (g1 = 4) OOB along dimension 1.
  // Every element is the NaN fill 0x7ff7. Rows are 128 bytes apart (SWIZZLE_128B span): row 1 at
  // line 1, its 16 bytes XOR (1 << 4) -> bytes 0x90..0x9f of a 1024-aligned dst 0x400.
  auto m = map2d(TensorMapDataType::BFloat16, 16, 4, 32, 8, 2, TensorMapSwizzle::B128);
  m.oob_fill = isa::TensorMapOobFill::NanRequestZeroFma;
  const int32_t c[2] = {-8, 3};
  auto b = TileBox::plan(m, c, 0x400, BoxDir::Load);
  REQUIRE(b.has_value());
  CHECK(b->tx_bytes() == 32);  // dense: 2 rows x 16 B
  CHECK(b->smem_lo() == 0x400);
  CHECK(b->smem_hi() == 0x400 + 128 + 16);  // last row counted by its data
  std::vector<uint8_t> smem(0x800, 0xA5);
  b->load(smem.data(), [](uint64_t, void*, uint32_t) { FAIL("no in-bound element to read"); });
  for (uint32_t a = 0x400; a < 0x410; a += 2) CHECK((smem[a] | smem[a + 1] << 8) == 0x7ff7);
  for (uint32_t a = 0x490; a < 0x4a0; a += 2) CHECK((smem[a] | smem[a + 1] << 8) == 0x7ff7);
  CHECK(smem[0x480] == 0xA5);  // the unswizzled spot of row 1 stays untouched
  CHECK(smem[0x410] == 0xA5);  // the padding of row 0
}

TEST_CASE("tma box: planning errors name the rule") {
  auto m = map2d(TensorMapDataType::UInt32, 64, 8, 256, 16, 8, TensorMapSwizzle::None);
  const int32_t c1[1] = {0};
  CHECK(TileBox::plan(m, c1, 0, BoxDir::Load).error().message.find("rank 2") != std::string::npos);
  const int32_t c5[2] = {5, 0};  // 20 bytes into the row (swizzle/sw_none_u32_w48 on the H200)
  CHECK(TileBox::plan(m, c5, 0, BoxDir::Load).error().message.find("16-byte aligned") != std::string::npos);
  const int32_t cm5[2] = {-5, 0};  // -20 bytes: not aligned either
  CHECK(TileBox::plan(m, cm5, 0, BoxDir::Load).error().message.find("16-byte aligned") != std::string::npos);
  const int32_t cm4[2] = {-4, 0};  // -16 bytes: aligned (the fp_* fact runs)
  CHECK(TileBox::plan(m, cm4, 0, BoxDir::Load).has_value());
  const int32_t c0[2] = {0, 0};
  CHECK(TileBox::plan(m, c0, 8, BoxDir::Load).error().message.find("16-byte aligned") != std::string::npos);
  auto il = m;
  il.rank = 3;
  il.interleave = isa::TensorMapInterleave::B16;
  const int32_t c3[3] = {0, 0, 0};
  CHECK(TileBox::plan(il, c3, 0, BoxDir::Load).error().message.find("not implemented yet") != std::string::npos);
}

TEST_CASE("tma box: footprint of boxes narrower than the swizzle span (the H200's fp_* fact runs)") {
  // fp_w<W>_sw<S>_r<R>: u32 boxes of W bytes per row, R rows. The H200 faulted exactly when
  // dst + footprint passed the allocation rounded up to 128 B; here: footprint = (R-1)*pitch + W.
  struct Case { uint32_t w, rows; TensorMapSwizzle sw; uint32_t footprint; };
  const Case cases[] = {
      {64, 8, TensorMapSwizzle::B128, 7 * 128 + 64},  // avail 896 faulted, 960 (-> 1024 allocated) ran
      {64, 4, TensorMapSwizzle::B128, 3 * 128 + 64},  // 448 ran
      {64, 5, TensorMapSwizzle::B128, 4 * 128 + 64},  // 320 faulted, 640 ran
      {16, 8, TensorMapSwizzle::B32, 7 * 32 + 16},    // 128 faulted, 256 ran
      {32, 8, TensorMapSwizzle::B64, 7 * 64 + 32},    // 256 faulted, 512 ran
      {64, 8, TensorMapSwizzle::B64, 8 * 64},          // W = span: dense
      {64, 8, TensorMapSwizzle::None, 8 * 64},
  };
  for (const Case& k : cases) {
    auto m = map2d(TensorMapDataType::UInt32, 64, 64, 256, k.w / 4, k.rows, k.sw);
    const int32_t c[2] = {-4, -2};
    auto b = TileBox::plan(m, c, 0x800, BoxDir::Load);
    REQUIRE(b.has_value());
    CHECK(b->smem_hi() - b->smem_lo() == k.footprint);
    CHECK(b->tx_bytes() == k.w * k.rows);
  }
}

TEST_CASE("tma box: loads equal the independent model for every swizzle, element size, rank and OOB side") {
  std::mt19937 rng(1234);
  const TensorMapDataType types[] = {TensorMapDataType::UInt8, TensorMapDataType::UInt16, TensorMapDataType::UInt32,
                                     TensorMapDataType::UInt64, TensorMapDataType::BFloat16, TensorMapDataType::Float32,
                                     TensorMapDataType::Float64};
  int checked = 0;
  for (int iter = 0; iter < 400; ++iter) {
    const TensorMapDataType t = types[rng() % 7];
    const int es = isa::tensor_map_global_bits(t) / 8;
    const auto sw = static_cast<TensorMapSwizzle>(rng() % 7);
    const uint32_t span = span_of(sw);
    TensorMapParams p;
    p.data_type = t;
    p.rank = 1 + rng() % 5;
    p.global_address = kBase;
    p.swizzle = sw;
    if (isa::tensor_map_is_float(t) && rng() % 2) p.oob_fill = isa::TensorMapOobFill::NanRequestZeroFma;
    // Inner box: a multiple of 16 bytes, at most the span (or 128 without swizzle).
    const uint32_t max_inner = span ? span : 128;
    const uint32_t inner = 16 * (1 + rng() % (max_inner / 16));
    p.box_dim[0] = inner / static_cast<uint32_t>(es);
    p.global_dim[0] = p.box_dim[0] + rng() % 40;
    p.element_strides[0] = 1;
    uint64_t stride = (p.global_dim[0] * static_cast<uint64_t>(es) + 15) / 16 * 16 + 16 * (rng() % 2);
    for (uint32_t d = 1; d < p.rank; ++d) {
      p.box_dim[d] = 1 + rng() % 5;
      p.element_strides[d] = 1 + rng() % 3;
      p.global_dim[d] = 1 + rng() % 7;
      p.global_strides[d - 1] = stride;
      stride *= p.global_dim[d];
    }
    REQUIRE(isa::validate_tensor_map(p).empty());
    std::vector<int32_t> c(p.rank);
    // dimension 0: 16-byte aligned start, possibly negative or past the end
    c[0] = static_cast<int32_t>((static_cast<int>(rng() % 7) - 3) * (16 / es));
    for (uint32_t d = 1; d < p.rank; ++d) c[d] = static_cast<int32_t>(rng() % 9) - 3;
    const uint32_t dst = 0x400 + 128 * (rng() % 4) * (span ? 1 : 0) + (span ? 0 : 16 * (rng() % 3));
    auto b = TileBox::plan(p, c, dst, BoxDir::Load);
    REQUIRE_MESSAGE(b.has_value(), b.error().message);
    const std::vector<uint8_t> g = global_image(stride + 64, static_cast<uint32_t>(iter));
    std::vector<uint8_t> got(dst + b->smem_hi() + 2048, 0xA5), want = got;
    b->load(got.data(), [&](uint64_t a, void* d, uint32_t n) {
      REQUIRE(a >= kBase);
      REQUIRE(a - kBase + n <= g.size());
      std::memcpy(d, g.data() + (a - kBase), n);
    });
    Model model(p);
    model.elements(c, static_cast<int64_t>(p.global_dim[0]), [&](int lin, int64_t off) {
      for (int k = 0; k < es; ++k) {
        const uint8_t v = off >= 0 ? g[static_cast<size_t>(off + k)] : static_cast<uint8_t>(model.fill >> (8 * k));
        want[model_swizzle(sw, dst + model.smem_off(lin, k))] = v;
      }
    });
    REQUIRE(got == want);
    ++checked;
  }
  CHECK(checked == 400);
}

TEST_CASE("tma box: stores write 16-byte dimension-0 granules; reduces the exact bound") {
  // tma_store_2d_sw64 on the H200: bf16, globalDim[0] = 70 (140 B), row stride 160: columns 70
  // and 71 written too (bytes 140-143), 72-79 untouched.
  auto m = map2d(TensorMapDataType::BFloat16, 70, 9, 160, 32, 2, TensorMapSwizzle::B64);
  const int32_t c[2] = {64, 0};
  auto b = TileBox::plan(m, c, 0x400, BoxDir::Store);
  REQUIRE(b.has_value());
  std::vector<uint8_t> smem(0x800);
  for (size_t i = 0; i < smem.size(); ++i) smem[i] = static_cast<uint8_t>(i);
  std::map<uint64_t, uint8_t> written;
  b->store(smem.data(), [&](uint64_t a, const void* s, uint32_t n) {
    for (uint32_t k = 0; k < n; ++k) written[a + k] = static_cast<const uint8_t*>(s)[k];
  });
  // Columns 64..71 of rows 0 and 1: 16 bytes each row.
  CHECK(written.size() == 32);
  CHECK(written.count(kBase + 143));
  CHECK_FALSE(written.count(kBase + 144));
  CHECK(written.count(kBase + 160 + 143));
  // Element (column 70, row 0) is box element i0 = 6: smem byte 0x400 + 12, swizzled (line 0: none).
  CHECK(written[kBase + 140] == smem[0x400 + 12]);
  // Row 1 (64-byte pitch, line 0 half 1): box bytes 64..79 -> XOR ((0x440 >> 3) & 0x30) = 0x00.
  CHECK(written[kBase + 160 + 128] == smem[0x440]);
  std::map<uint64_t, int> reduced;
  auto r = TileBox::plan(m, c, 0x400, BoxDir::Reduce);
  REQUIRE(r.has_value());
  r->reduce(smem.data(), [&](uint64_t a, const void*, uint32_t n) { reduced[a] += static_cast<int>(n); });
  CHECK(reduced.size() == 12);  // columns 64..69 of 2 rows
}

TEST_CASE("tma box: stores equal the independent model (random shapes, every swizzle)") {
  std::mt19937 rng(99);
  for (int iter = 0; iter < 200; ++iter) {
    const TensorMapDataType t = (rng() % 2) ? TensorMapDataType::UInt16 : TensorMapDataType::UInt32;
    const int es = isa::tensor_map_global_bits(t) / 8;
    const auto sw = static_cast<TensorMapSwizzle>(rng() % 4);
    const uint32_t span = span_of(sw) ? span_of(sw) : 128;
    auto p = map2d(t, 1 + rng() % 100, 1 + rng() % 9, 0, (16 * (1 + rng() % (span / 16))) / static_cast<uint32_t>(es),
                   1 + rng() % 6, sw);
    p.global_strides[0] = (p.global_dim[0] * static_cast<uint64_t>(es) + 15) / 16 * 16 + 16;
    const std::vector<int32_t> c = {static_cast<int32_t>(16 / es * (rng() % 8)), static_cast<int32_t>(rng() % 9) - 2};
    auto b = TileBox::plan(p, c, 0x400, BoxDir::Store);
    REQUIRE_MESSAGE(b.has_value(), b.error().message);
    const std::vector<uint8_t> smem = global_image(0x400 + 4096, static_cast<uint32_t>(iter) + 7);
    const size_t gbytes = p.global_strides[0] * p.global_dim[1] + 64;
    std::vector<uint8_t> got(gbytes, 0xEE), want(gbytes, 0xEE);
    b->store(smem.data(), [&](uint64_t a, const void* s, uint32_t n) {
      REQUIRE(a - kBase + n <= gbytes);
      std::memcpy(got.data() + (a - kBase), s, n);
    });
    Model model(p);
    const int64_t lim0 = static_cast<int64_t>((p.global_dim[0] * static_cast<uint64_t>(es) + 15) / 16 * 16) / es;
    model.elements(c, lim0, [&](int lin, int64_t off) {
      if (off < 0) return;
      for (int k = 0; k < es; ++k) want[static_cast<size_t>(off + k)] = smem[model_swizzle(sw, 0x400 + model.smem_off(lin, k))];
    });
    REQUIRE(got == want);
  }
}
