// The fast path (models/mma/engine.h) against the independent Boost oracle (oracle.h), step for
// step, on random and adversarial inputs for every parameter row and for every alternative the
// probes may select. Any difference is an engine bug: the oracle decodes through unpack(), keeps
// values as big dyadics and rounds with its own code.
#include <doctest/doctest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "models/mma/engine.h"
#include "models/mma/oracle.h"
#include "models/mma/param_table.h"
#include "models/mma/simd_kernels.h"
#include "tests/models/mma_test_inputs.h"

using namespace tcsim::models::mma;
using namespace tcsim::models::mma::testing;
using tcsim::isa::DType;
using tcsim::isa::MmaKind;
using tcsim::models::Round;

namespace {

std::string dump(const DotShape& s, const Vectors& v) {
  std::ostringstream o;
  o << std::hex << "kind::" << tcsim::isa::kind_name(s.kind) << " "
    << tcsim::isa::dtype_name(s.atype) << "x" << tcsim::isa::dtype_name(s.btype) << "->"
    << tcsim::isa::dtype_name(s.dtype) << " K=" << std::dec << s.k << " [" << describe(s.num)
    << "] neg=" << s.negate_a << s.negate_b << " sid=" << s.scale_input_d << std::hex << "\n a:";
  for (uint32_t x : v.a) o << " " << x;
  o << "\n b:";
  for (uint32_t x : v.b) o << " " << x;
  o << "\n c: " << v.c;
  if (!v.sa.empty()) {
    o << "\n sa:";
    for (unsigned x : v.sa) o << " " << x;
    o << "\n sb:";
    for (unsigned x : v.sb) o << " " << x;
  }
  return o.str();
}

// The block-scaling variants a kind takes (PTX ISA §9.7.16.10.7 Tables 56/57).
std::vector<std::pair<ScaleType, int>> scalings(MmaKind k) {
  switch (k) {
    case MmaKind::MXF8F6F4:
    case MmaKind::MXF4: return {{ScaleType::UE8M0, 32}};
    case MmaKind::MXF4NVF4:
      return {{ScaleType::UE8M0, 32}, {ScaleType::UE8M0, 16}, {ScaleType::UE4M3, 16}};
    default: return {{ScaleType::None, 0}};
  }
}

// Runs `n` vectors per regime; returns the number of engine/oracle disagreements.
int compare(const DotShape& s, uint64_t seed, int n, int* exact_mismatch = nullptr) {
  const DotEngine e(s);
  Rng r(seed);
  int bad = 0;
  const DType st = s.scale_type == ScaleType::UE4M3 ? DType::UE4M3 : DType::UE8M0;
  for (int g = 0; g < static_cast<int>(Regime::kCount); ++g) {
    for (int i = 0; i < n; ++i) {
      const Vectors v = vectors(r, s.atype, s.btype, s.dtype, s.k, static_cast<Regime>(g),
                                s.scale_blocks(), st);
      const oracle::Inputs in{v.a.data(), v.b.data(), v.c, v.sa.empty() ? nullptr : v.sa.data(),
                              v.sb.empty() ? nullptr : v.sb.data()};
      const uint32_t got = e.dot(v.a.data(), v.b.data(), v.c, in.sa, in.sb);
      std::vector<std::string> trace;
      const uint32_t want = oracle::model(s, in, &trace);
      if (got != want) {
        if (++bad <= 3) {
          std::string t;
          for (const auto& l : trace) t += "\n  " + l;
          char buf[64];
          std::snprintf(buf, sizeof buf, "engine %08x oracle %08x", got, want);
          FAIL_CHECK(buf << "\n" << dump(s, v) << t);
        }
      }
      if (exact_mismatch) *exact_mismatch += want != oracle::exact_rounded(s, in);
    }
  }
  return bad;
}

DotShape shape_of(const ParamRow& row, int k, std::pair<ScaleType, int> sc) {
  DotShape s;
  s.num = row.num;
  s.kind = row.kind;
  s.atype = row.atype;
  s.btype = row.btype;
  s.dtype = row.dtype;
  s.k = k;
  s.scale_type = sc.first;
  s.scale_block = sc.second;
  return s;
}

}  // namespace

// Restores the best kernels when a test that pinned the portable ones ends.
struct ScalarKernels {
  explicit ScalarKernels(bool on) { simd::force_scalar(on); }
  ~ScalarKernels() { simd::force_scalar(false); }
};

TEST_CASE("engine equals the oracle's step-by-step model on every parameter row") {
  bool scalar = false;
  SUBCASE("best kernels") { scalar = false; }
  SUBCASE("portable scalar kernels") { scalar = true; }
  const ScalarKernels pin(scalar);
  MESSAGE("kernels: " << std::string(simd::kernels().name));
  int rows = 0, shapes = 0;
  uint64_t seed = 1;
  for (const ParamRow& row : param_rows()) {
    ++rows;
    for (uint8_t k : row.ks) {
      if (!k) continue;
      for (auto sc : scalings(row.kind)) {
        const DotShape s = shape_of(row, k, sc);
        CAPTURE(dump(s, {}));
        CHECK(compare(s, seed++, 60) == 0);
        ++shapes;
      }
    }
  }
  MESSAGE(rows << " parameter rows, " << shapes << " shapes, 7 regimes x 60 vectors each");
  CHECK(rows >= 90);
}

// Every alternative the public models disagree on is a parameter a probe can select; each must
// be implemented identically by the engine and the oracle.
TEST_CASE("engine equals the oracle for every alternative datapath parameter") {
  struct Variant {
    const char* name;
    void (*apply)(Numerics&);
  };
  const Variant variants[] = {
      {"zero=fixed(-126), c0 in max (MMA-Sim)",
       [](Numerics& n) { n.zero_operand = ZeroExp::Fixed, n.c_zero_in_max = true; }},
      {"zero=emin", [](Numerics& n) { n.zero_operand = ZeroExp::FormatEmin; }},
      {"floor -133 (KM)", [](Numerics& n) { n.exp_floor = -133; }},
      {"floor -126", [](Numerics& n) { n.exp_floor = -126; }},
      {"f16 C fp32 view (KM)", [](Numerics& n) { n.f16_c_fp32_view = true; }},
      {"zero sign ieee", [](Numerics& n) { n.zero_sign = ZeroSign::Ieee; }},
      {"nfrac 24", [](Numerics& n) { n.nfrac = 24; }},
      {"nfrac 3 (below the product width)", [](Numerics& n) { n.nfrac = 3; }},
      {"nfrac 48", [](Numerics& n) { n.nfrac = 48; }},
      {"exact + RN", [](Numerics& n) { n.nfrac = kExactNfrac, n.f32_round = Round::RN; }},
      {"group 4 (chained)", [](Numerics& n) { n.group = 4; }},
      {"group 1 (chained)", [](Numerics& n) { n.group = 1; }},
      {"f32 RN", [](Numerics& n) { n.f32_round = Round::RN; }},
      {"f16 RZ", [](Numerics& n) { n.f16_round = Round::RZ; }},
      {"e8m13 out", [](Numerics& n) { n.f32_out_frac = 13; }},
      {"bs unit 1", [](Numerics& n) { n.bs_unit = 1; }},
      {"bs unit 4", [](Numerics& n) { n.bs_unit = 4; }},
      {"bs zero units out of max", [](Numerics& n) { n.bs_zero_units_in_max = false; }},
      {"bs nfrac 25", [](Numerics& n) { n.bs_nfrac = 25; }},
      {"nan payload 7fc00000/7e00", [](Numerics& n) { n.nan_f32 = 0x7fc00000u, n.nan_f16 = 0x7e00; }},
      {"f16 halves (mma.sync fp8 emulation)",
       [](Numerics& n) { n.structure = Structure::F16Halves, n.group = 16, n.nfrac = 25; }},
      {"f16 halves, group 4, nfrac 24, f16 RZ",
       [](Numerics& n) {
         n.structure = Structure::F16Halves, n.group = 4, n.nfrac = 24, n.f16_round = Round::RZ;
       }},
  };
  // One row of every kind and operand width.
  const struct {
    Path path;
    MmaKind kind;
    DType a, b, d;
    int k;
  } picks[] = {
      {Path::MmaSync, MmaKind::F16, DType::F16, DType::F16, DType::F16, 16},
      {Path::MmaSync, MmaKind::F16, DType::BF16, DType::BF16, DType::F32, 16},
      {Path::MmaSync, MmaKind::TF32, DType::TF32, DType::TF32, DType::F32, 8},
      {Path::Wgmma, MmaKind::F8F6F4, DType::E4M3, DType::E5M2, DType::F32, 32},
      {Path::Wgmma, MmaKind::F8F6F4, DType::E5M2, DType::E5M2, DType::F16, 32},
      {Path::Tcgen05, MmaKind::F8F6F4, DType::E2M1, DType::E3M2, DType::F16, 32},
      {Path::Tcgen05, MmaKind::MXF8F6F4, DType::E2M3, DType::E4M3, DType::F32, 32},
      {Path::Tcgen05, MmaKind::MXF4NVF4, DType::E2M1, DType::E2M1, DType::F32, 64},
  };
  uint64_t seed = 1000;
  for (const auto& p : picks) {
    const Arch arch = p.path == Path::Tcgen05 ? Arch::Sm100a : Arch::Sm90a;
    const ParamRow* row = find_row(arch, p.path, p.kind, p.a, p.b, p.d);
    REQUIRE(row);
    for (auto sc : scalings(p.kind)) {
      for (const Variant& v : variants) {
        DotShape s = shape_of(*row, p.k, sc);
        v.apply(s.num);
        if (!check_shape(s).empty()) continue;  // e.g. bs unit 4 with the default 16 block
        CAPTURE(v.name);
        CAPTURE(dump(s, {}));
        CHECK(compare(s, seed++, 25) == 0);
      }
    }
  }
}

TEST_CASE("engine equals the oracle with the negate bits and scale-input-d") {
  uint64_t seed = 5000;
  for (const ParamRow& row : param_rows()) {
    if (row.path != Path::Tcgen05 || row.kind == MmaKind::I8) continue;
    for (auto sc : scalings(row.kind)) {
      DotShape s = shape_of(row, row.ks[0], sc);
      s.negate_a = true;
      CHECK(compare(s, seed++, 15) == 0);
      s.negate_b = true;
      CHECK(compare(s, seed++, 15) == 0);
      if (row.kind == MmaKind::F16 || row.kind == MmaKind::TF32) {
        for (int sid : {1, 7, 15}) {
          s.scale_input_d = sid;
          CAPTURE(sid);
          CHECK(compare(s, seed++, 15) == 0);
        }
      }
    }
  }
}

TEST_CASE("tile() equals dot() element by element, on every row, with either kernel") {
  bool scalar = false;
  SUBCASE("best kernels") { scalar = false; }
  SUBCASE("portable scalar kernels") { scalar = true; }
  const ScalarKernels pin(scalar);
  uint64_t seed = 77;
  for (const ParamRow& row : param_rows()) {
    for (auto sc : scalings(row.kind)) {
      for (int variant = 0; variant < 4; ++variant) {
        const uint8_t kk = row.ks[variant % 2];
        if (!kk) continue;
        DotShape s = shape_of(row, kk, sc);
        if (variant >= 2) {  // chained groups (no row chains today; probes may select it)
          if (row.kind == MmaKind::I8 || row.kind == MmaKind::MXF4 ||
              row.kind == MmaKind::MXF4NVF4 || kk < 2)
            continue;
          s.num.group = kk / 2;
        }
        // The mxf4 kinds' tile sums units in 16-bit lanes (engine.cc tile_block4): the other units
        // the probes may select too.
        if (row.kind == MmaKind::MXF4 || row.kind == MmaKind::MXF4NVF4) s.num.bs_unit = variant == 1 ? 4 : 16;
        const DotEngine e(s);
        Rng r(seed++);
        const int m = 5, n = 7, k = s.k, nb = s.scale_blocks();
        std::vector<uint32_t> a, b, c, d(m * n);
        std::vector<uint8_t> sa, sb;
        const DType st = s.scale_type == ScaleType::UE4M3 ? DType::UE4M3 : DType::UE8M0;
        for (int i = 0; i < m; ++i) {  // rows: mostly finite, one with specials
          const Regime g = i == 3 ? Regime::Specials : i == 4 ? Regime::Sparse : Regime::WideSpread;
          const Vectors v = vectors(r, s.atype, s.btype, s.dtype, k, g, nb, st);
          a.insert(a.end(), v.a.begin(), v.a.end());
          sa.insert(sa.end(), v.sa.begin(), v.sa.end());
          for (int j = 0; j < n; ++j)
            c.push_back(vectors(r, s.atype, s.btype, s.dtype, 1, j == 2 ? Regime::Specials
                                                                        : Regime::WideSpread,
                                0, st).c);
        }
        for (int j = 0; j < n; ++j) {
          const Regime g = j == 5 ? Regime::Cancel : Regime::Typical;
          const Vectors v = vectors(r, s.atype, s.btype, s.dtype, k, g, nb, st);
          b.insert(b.end(), v.b.begin(), v.b.end());
          sb.insert(sb.end(), v.sb.begin(), v.sb.end());
        }
        const uint8_t* psa = nb ? sa.data() : nullptr;
        const uint8_t* psb = nb ? sb.data() : nullptr;
        e.tile(m, n, a.data(), b.data(), c.data(), d.data(), psa, psb);
        std::vector<uint32_t> inplace = c;  // d aliasing c
        e.tile(m, n, a.data(), b.data(), inplace.data(), inplace.data(), psa, psb);
        int bad = 0;
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            const uint32_t want = e.dot(&a[i * k], &b[j * k], c[i * n + j],
                                        nb ? &sa[i * nb] : nullptr, nb ? &sb[j * nb] : nullptr);
            bad += d[i * n + j] != want;
            bad += inplace[i * n + j] != want;
          }
        CAPTURE(dump(s, {}));
        CHECK(bad == 0);
      }
    }
  }
}

// Exhaustive over every pair of codes of the narrow formats (K=1; C from a fixed list), for the
// tcgen05 f8f6f4 rows with f32 and f16 D: products, subnormals, specials, and both roundings.
TEST_CASE("engine equals the oracle on every code pair of the narrow formats") {
  const DType fmts[] = {DType::E2M1, DType::E3M2, DType::E2M3, DType::E4M3, DType::E5M2};
  const uint32_t c32[] = {0, 0x80000000u, 0x3f800000u, 0xbf800001u, 0x00000001u, 0x7f7fffffu,
                          0x7f800000u, 0x33800000u};
  const uint32_t c16[] = {0, 0x8000u, 0x3c00u, 0xbc01u, 0x0001u, 0x7bffu, 0x7c00u, 0x0400u};
  for (DType at : fmts) {
    const int na = at == DType::E2M1 ? 16 : at == DType::E2M3 || at == DType::E3M2 ? 64 : 256;
    for (DType dt : {DType::F32, DType::F16}) {
      DotShape s;
      s.num = find_row(Arch::Sm100a, Path::Tcgen05, MmaKind::F8F6F4, at, at, dt)->num;
      s.kind = MmaKind::F8F6F4;
      s.atype = s.btype = at;
      s.dtype = dt;
      s.k = 1;
      s.num.group = 0;
      const DotEngine e(s);
      int bad = 0;
      for (uint32_t x = 0; x < static_cast<uint32_t>(na); ++x)
        for (uint32_t y = 0; y < static_cast<uint32_t>(na); ++y)
          for (int ci = 0; ci < 8; ++ci) {
            const uint32_t c = dt == DType::F32 ? c32[ci] : c16[ci];
            const oracle::Inputs in{&x, &y, c};
            bad += e.dot(&x, &y, c) != oracle::model(s, in);
          }
      CAPTURE(tcsim::isa::dtype_name(at));
      CAPTURE(tcsim::isa::dtype_name(dt));
      CHECK(bad == 0);
    }
  }
}

// The exact-sum datapath (a probe alternative: no window, one rounding) must equal the exactly
// rounded sum always.
TEST_CASE("the exact-sum datapath equals the exactly rounded sum on every input") {
  const ParamRow* rows[] = {
      find_row(Arch::Sm90a, Path::Wgmma, MmaKind::F8F6F4, DType::E4M3, DType::E5M2, DType::F32),
      find_row(Arch::Sm100a, Path::Tcgen05, MmaKind::F16, DType::BF16, DType::BF16, DType::F32),
      find_row(Arch::Sm100a, Path::Tcgen05, MmaKind::F8F6F4, DType::E2M1, DType::E3M2, DType::F16)};
  uint64_t seed = 9000;
  for (const ParamRow* row : rows) {
    REQUIRE(row);
    for (Round r : {Round::RN, Round::RZ}) {
      DotShape s = shape_of(*row, row->ks[0], {ScaleType::None, 0});
      s.num.nfrac = kExactNfrac;
      s.num.f32_round = s.num.f16_round = r;
      int exact_mismatch = 0;
      CAPTURE(dump(s, {}));
      CHECK(compare(s, seed++, 60, &exact_mismatch) == 0);
      CHECK(exact_mismatch == 0);
    }
  }
}

// mma.sync fp8 on sm_90a / sm_100a (Structure::F16Halves) is not one fused sum: it must differ
// from every fused alternative on ordinary inputs, and its f32 D must carry more than the
// 13-bit window of the wgmma fp8 datapath it was first assumed to share.
TEST_CASE("the f16-halves structure differs from the fused fp8 datapaths, and the tests can tell") {
  for (DType d : {DType::F32, DType::F16}) {
    const ParamRow* row =
        find_row(Arch::Sm90a, Path::MmaSync, MmaKind::F8F6F4, DType::E4M3, DType::E4M3, d);
    REQUIRE(row);
    REQUIRE(row->num.structure == Structure::F16Halves);
    DotShape s = shape_of(*row, 32, {ScaleType::None, 0});
    DotShape fused = s;
    fused.num.structure = Structure::Fused;
    fused.num.group = 32;
    fused.num.nfrac = 13;
    fused.num.f32_out_frac = d == DType::F32 ? 13 : 23;
    const DotEngine e(s), f(fused);
    Rng r(d == DType::F32 ? 31 : 32);
    int differ = 0, n = 0;
    for (int i = 0; i < 400; ++i, ++n) {
      const Vectors v =
          vectors(r, s.atype, s.btype, s.dtype, s.k, Regime::Typical, 0, DType::UE8M0);
      differ += e.dot(v.a.data(), v.b.data(), v.c) != f.dot(v.a.data(), v.b.data(), v.c);
    }
    CAPTURE(tcsim::isa::dtype_name(d));
    MESSAGE("mma.sync e4m3 f16-halves != fused 32/13 on " << differ << "/" << n);
    CHECK(differ > n / 10);
    int compare_bad = compare(s, d == DType::F32 ? 33 : 34, 60);
    CHECK(compare_bad == 0);
  }
}

// "The model differs from exact": windowed rows lose bits on purpose. Measured rates (printed),
// and a lower bound that proves the comparison can fail: with cancellation, Hopper fp8's 13-bit
// window and RZ must differ from the exactly rounded sum on many inputs.
TEST_CASE("windowed datapaths differ from the exact sum, and the tests can tell") {
  const ParamRow* fp8 = find_row(Arch::Sm90a, Path::Wgmma, MmaKind::F8F6F4, DType::E4M3,
                                 DType::E4M3, DType::F32);
  const ParamRow* bf16 = find_row(Arch::Sm100a, Path::Tcgen05, MmaKind::F16, DType::BF16,
                                  DType::BF16, DType::F32);
  REQUIRE(fp8);
  REQUIRE(bf16);
  int m1 = 0, m2 = 0;
  CHECK(compare(shape_of(*fp8, 32, {ScaleType::None, 0}), 42, 40, &m1) == 0);
  CHECK(compare(shape_of(*bf16, 16, {ScaleType::None, 0}), 43, 40, &m2) == 0);
  MESSAGE("model != exactly rounded sum: sm_90a wgmma e4m3->f32 " << m1 << "/280, sm_100a "
          "tcgen05 bf16->f32 " << m2 << "/280");
  CHECK(m1 > 50);
  CHECK(m2 > 20);
}
