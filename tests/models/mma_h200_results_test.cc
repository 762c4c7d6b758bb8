// The H200 probe and differential results (kernels/probes/results/h200-2026-11-30/: NVIDIA H200,
// driver 580.159.04, CUDA 13.0) replayed through the sm_90a parameter rows, so that the rows
// cannot drift from the hardware facts:
//  * every PROBE line of probes_sm90.txt (the Q1-Q20 probes on all 58 path/type combinations):
//    the row's D -- fast path and Boost oracle -- equals the word the GPU wrote;
//  * every MISMATCH line of diff_sm90.txt (the outputs where the GPU differed from the rows that
//    run compiled in; all are mma.sync e4m3/e5m2, whose row was then a wgmma-like fused 32/13
//    datapath): the current row reproduces the GPU's word, and the printed inputs are exactly
//    what kernels/probes/sm90/gen.h regenerates for that (combination, tile), so the whole
//    differential can be replayed on the host;
//  * up to each combination's 5th printed mismatch, every output the run did not print matched
//    that run's row, so the current row must agree with it there;
//  * "H200 differential: all 10M mma.sync fp8 outputs" (skipped in the suite run; its own CTest
//    mma_dot_h200_differential_full runs it): over all 10,000,000 outputs of each of the 8
//    mma.sync fp8 combinations, the current row differs from that run's row exactly as often, per
//    input regime, as the GPU did (diff_sm90.txt's DIFF counts), and first where the GPU did.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "kernels/probes/sm90/gen.h"
#include "models/mma/engine.h"
#include "models/mma/oracle.h"
#include "models/mma/param_table.h"

using namespace tcsim::models::mma;
using tcsim::isa::DType;
using tcsim::isa::MmaKind;

namespace {

const std::string kDir = TCSIM_SOURCE_DIR "/kernels/probes/results/h200-2026-11-30/";

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, sep);) out.push_back(t);
  return out;
}

// "hw=3f800000" style field of a tab-separated result line ("" when absent).
std::string field(const std::vector<std::string>& f, const std::string& key) {
  for (const std::string& x : f)
    if (x.rfind(key + "=", 0) == 0) return x.substr(key.size() + 1);
  return {};
}

uint32_t hex32(const std::string& s) { return static_cast<uint32_t>(std::stoul(s, nullptr, 16)); }

// One combination name of the probe programs (kernels/probes/sm90/combos_*.cu), e.g.
// "mma.sync e4m3*e5m2->f16", "wgmma.SS bf16*bf16->f32 imm-scale-a=-1",
// "wgmma.RS s8*s8->s32.satfinite".
struct Combo {
  Path path;
  int m, n;
  DotShape shape;
};

std::optional<DType> type_of(const std::string& t) {
  static const std::map<std::string, DType> m = {
      {"f16", DType::F16},   {"bf16", DType::BF16}, {"tf32", DType::TF32}, {"f32", DType::F32},
      {"e4m3", DType::E4M3}, {"e5m2", DType::E5M2}, {"s8", DType::S8},     {"u8", DType::U8},
      {"s32", DType::S32}};
  const auto it = m.find(t);
  return it == m.end() ? std::nullopt : std::optional<DType>(it->second);
}

Combo parse_combo(const std::string& name) {
  Combo c{};
  const size_t sp = name.find(' ');
  REQUIRE_MESSAGE(sp != std::string::npos, name);
  const std::string path = name.substr(0, sp);
  std::string rest = name.substr(sp + 1);
  if (path == "mma.sync") {
    c.path = Path::MmaSync, c.m = 16, c.n = 8;
  } else {
    REQUIRE_MESSAGE((path == "wgmma.SS" || path == "wgmma.RS"), name);
    c.path = Path::Wgmma, c.m = 64, c.n = 64;
  }
  const std::string neg = " imm-scale-a=-1";
  if (rest.size() > neg.size() && rest.compare(rest.size() - neg.size(), neg.size(), neg) == 0) {
    c.shape.negate_a = true;
    rest.resize(rest.size() - neg.size());
  }
  const std::string sat = ".satfinite";
  if (rest.size() > sat.size() && rest.compare(rest.size() - sat.size(), sat.size(), sat) == 0) {
    c.shape.saturate = true;
    rest.resize(rest.size() - sat.size());
  }
  const size_t star = rest.find('*'), arrow = rest.find("->");
  REQUIRE_MESSAGE((star != std::string::npos && arrow != std::string::npos), name);
  const auto a = type_of(rest.substr(0, star));
  const auto b = type_of(rest.substr(star + 1, arrow - star - 1));
  const auto d = type_of(rest.substr(arrow + 2));
  REQUIRE_MESSAGE((a && b && d), name);
  c.shape.atype = *a, c.shape.btype = *b, c.shape.dtype = *d;
  switch (*a) {
    case DType::F16: case DType::BF16: c.shape.kind = MmaKind::F16, c.shape.k = 16; break;
    case DType::TF32: c.shape.kind = MmaKind::TF32, c.shape.k = 8; break;
    case DType::E4M3: case DType::E5M2: c.shape.kind = MmaKind::F8F6F4, c.shape.k = 32; break;
    default: c.shape.kind = MmaKind::I8, c.shape.k = 32; break;
  }
  const ParamRow* row = find_row(Arch::Sm90a, c.path, c.shape.kind, *a, *b, *d);
  REQUIRE_MESSAGE(row, name);
  REQUIRE(row->allows_k(c.shape.k));
  c.shape.num = row->num;
  return c;
}

// The row the recorded run compiled in for the mma.sync fp8 combinations (param_table.cc at
// commit 6be4f66: hopper_fp8() for f32 D, fused(32, 13) for f16 D); every other combination's
// row is unchanged since that run.
DotShape recorded_run_shape(const Combo& c) {
  DotShape s = c.shape;
  if (c.path == Path::MmaSync && c.shape.kind == MmaKind::F8F6F4) {
    for (const char* set : {"structure=fused", "group=32", "nfrac=13"})
      REQUIRE(set_numerics_field(s.num, set).empty());
    if (s.dtype == DType::F32) REQUIRE(set_numerics_field(s.num, "f32_out_frac=13").empty());
  }
  return s;
}

std::vector<std::vector<std::string>> lines_of(const std::string& file, const std::string& tag) {
  std::ifstream in(kDir + file);
  REQUIRE_MESSAGE(in, (kDir + file));
  std::vector<std::vector<std::string>> out;
  for (std::string l; std::getline(in, l);)
    if (l.rfind(tag + "\t", 0) == 0) out.push_back(split(l, '\t'));
  return out;
}

// The differential's records, with each combination's index in the run (its seed input).
struct DiffRecord {
  std::string combo;
  int index = 0;
  std::vector<std::vector<std::string>> mismatches;
  std::vector<std::string> diff;  // the DIFF line
};

std::vector<DiffRecord> diff_records() {
  std::ifstream in(kDir + "diff_sm90.txt");
  REQUIRE(in);
  std::vector<DiffRecord> out;
  std::vector<std::vector<std::string>> pending;
  for (std::string l; std::getline(in, l);) {
    const auto f = split(l, '\t');
    if (f.empty()) continue;
    if (f[0] == "MISMATCH") pending.push_back(f);
    if (f[0] == "SKIP") FAIL("the recorded run skipped a combination: " << l);
    if (f[0] != "DIFF") continue;
    DiffRecord r{f[1], static_cast<int>(out.size()), std::move(pending), f};
    pending.clear();
    for (const auto& m : r.mismatches) REQUIRE(m[1] == r.combo);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<uint32_t> codes(const std::string& list) {
  std::vector<uint32_t> v;
  for (const std::string& x : split(list, ',')) v.push_back(hex32(x));
  return v;
}

// One tile of the recorded run's inputs (gen.h), A M x K row-major, B N x K, C M x N.
struct Tile {
  std::vector<uint32_t> a, b, c;
};
constexpr uint64_t kSeed = 0x5eed5eedull;  // diff_sm90.txt: "# seed=0x5eed5eed"
Tile tile_inputs(const Combo& c, int index, uint64_t tile) {
  const int m = c.m, n = c.n, k = c.shape.k;
  Tile t{std::vector<uint32_t>(m * k), std::vector<uint32_t>(n * k), std::vector<uint32_t>(m * n)};
  probes::tile_inputs(kSeed, index, tile, static_cast<int>(tile % probes::kRegimes),
                      c.shape.atype, c.shape.btype, c.shape.dtype, m, n, k, t.a.data(), t.b.data(),
                      t.c.data());
  return t;
}

}  // namespace

TEST_CASE("every H200 probe line is reproduced by the sm_90a rows (engine and oracle)") {
  for (const auto& f : lines_of("probes_sm90.txt", "LAYOUT")) CHECK_MESSAGE(f[2] == "ok", f[1]);
  const auto probes = lines_of("probes_sm90.txt", "PROBE");
  CHECK(probes.size() == 3992);
  std::map<std::string, Combo> combos;
  std::map<std::string, int> per_combo;
  int bad = 0;
  for (const auto& f : probes) {
    const std::string& name = f[1];
    if (!combos.count(name)) combos.emplace(name, parse_combo(name));
    const Combo& c = combos.at(name);
    std::vector<uint32_t> a(c.shape.k, 0), b(c.shape.k, 0);
    for (auto* v : {&a, &b}) {
      const std::string list = field(f, v == &a ? "a" : "b");
      if (list == "-") continue;
      for (const std::string& e : split(list, ',')) {
        const size_t colon = e.find(':');
        const int k = std::stoi(e.substr(0, colon));
        REQUIRE(k < c.shape.k);
        (*v)[k] = hex32(e.substr(colon + 1));
      }
    }
    const uint32_t c0 = hex32(field(f, "c")), hw = hex32(field(f, "hw"));
    const std::string reps_s = field(f, "reps");
    const int reps = reps_s.empty() ? 1 : std::stoi(reps_s);
    const DotEngine e(c.shape);
    uint32_t d = c0, o = c0;
    for (int r = 0; r < reps; ++r) {  // D fed back as C (the probe kernels' reps loop)
      d = e.dot(a.data(), b.data(), d);
      o = oracle::model(c.shape, {a.data(), b.data(), o});
    }
    ++per_combo[name];
    if (d != hw || o != hw) {
      if (++bad <= 10)
        FAIL_CHECK(name << " " << f[2] << ": hw=" << field(f, "hw") << " engine=" << std::hex << d
                        << " oracle=" << o);
    }
  }
  CHECK(bad == 0);
  CHECK(combos.size() == 58);
  MESSAGE(probes.size() << " probe lines on " << combos.size() << " combinations, " << bad
                        << " not reproduced");
}

TEST_CASE("every recorded H200 differential mismatch is reproduced, on regenerated inputs") {
  const auto recs = diff_records();
  REQUIRE(recs.size() == 58);
  int mismatches = 0, combos_with = 0;
  for (const DiffRecord& r : recs) {
    CAPTURE(r.combo);
    const Combo c = parse_combo(r.combo);
    const bool fp8_sync = c.path == Path::MmaSync && c.shape.kind == MmaKind::F8F6F4;
    // the run's row disagreed with the GPU only on mma.sync fp8, and there on every printed line
    CHECK(fp8_sync == !r.mismatches.empty());
    if (r.mismatches.empty()) continue;
    ++combos_with;
    const DotEngine now(c.shape), then(recorded_run_shape(c));
    const int mn = c.m * c.n, k = c.shape.k;
    // walk the outputs in the run's order up to the last printed mismatch
    size_t next = 0;
    for (uint64_t tile = 0; next < r.mismatches.size(); ++tile) {
      const Tile t = tile_inputs(c, r.index, tile);
      std::vector<uint32_t> d_now(mn), d_then(mn);
      now.tile(c.m, c.n, t.a.data(), t.b.data(), t.c.data(), d_now.data());
      then.tile(c.m, c.n, t.a.data(), t.b.data(), t.c.data(), d_then.data());
      for (int o = 0; o < mn && next < r.mismatches.size(); ++o) {
        const auto& m = r.mismatches[next];
        const bool printed = std::stoull(field(m, "tile")) == tile &&
                             std::stoi(field(m, "row")) == o / c.n &&
                             std::stoi(field(m, "col")) == o % c.n;
        if (!printed) {  // the GPU matched the run's row here
          CHECK(d_now[o] == d_then[o]);
          continue;
        }
        ++next;
        ++mismatches;
        // the printed inputs are the regenerated ones
        const int i = o / c.n, j = o % c.n;
        const auto slice = [k](const std::vector<uint32_t>& v, int r) {
          return std::vector<uint32_t>(v.begin() + r * k, v.begin() + (r + 1) * k);
        };
        CHECK(codes(field(m, "a")) == slice(t.a, i));
        CHECK(codes(field(m, "b")) == slice(t.b, j));
        CHECK(hex32(field(m, "c")) == t.c[o]);
        CHECK(hex32(field(m, "model")) == d_then[o]);
        // the current row gives the GPU's word (fast path, per-output path and oracle)
        const uint32_t hw = hex32(field(m, "hw"));
        const oracle::Inputs in{&t.a[i * k], &t.b[j * k], t.c[o]};
        CHECK(d_now[o] == hw);
        CHECK(now.dot(in.a, in.b, in.c) == hw);
        CHECK(oracle::model(c.shape, in) == hw);
      }
      REQUIRE(tile < 1000);
    }
  }
  CHECK(combos_with == 8);
  CHECK(mismatches == 40);
}

// ~35 s on two cores: skipped in the suite run, run by its own CTest
// (tests/cli/mma_dot_h200.cmake).
TEST_CASE("H200 differential: all 10M mma.sync fp8 outputs" * doctest::skip()) {
  struct Job {
    const DiffRecord* rec;
    std::array<uint64_t, probes::kRegimes> same{}, total{};
    std::vector<std::array<uint64_t, 3>> first;  // (tile, row, col) of the first 5 differences
  };
  const auto recs = diff_records();
  std::vector<Job> jobs;
  for (const DiffRecord& r : recs)
    if (!r.mismatches.empty()) jobs.push_back({&r, {}, {}, {}});
  REQUIRE(jobs.size() == 8);
  std::vector<Combo> combos;
  for (const Job& j : jobs) combos.push_back(parse_combo(j.rec->combo));
  const auto run = [&](size_t ji) {
    Job& job = jobs[ji];
    const Combo& c = combos[ji];
    const DotEngine now(c.shape), then(recorded_run_shape(c));
    const uint64_t outputs = std::stoull(field(job.rec->diff, "outputs"));
    const int mn = c.m * c.n;
    std::vector<uint32_t> d_now(mn), d_then(mn);
    for (uint64_t tile = 0; tile * mn < outputs; ++tile) {
      const Tile t = tile_inputs(c, job.rec->index, tile);
      now.tile(c.m, c.n, t.a.data(), t.b.data(), t.c.data(), d_now.data());
      then.tile(c.m, c.n, t.a.data(), t.b.data(), t.c.data(), d_then.data());
      const int reg = static_cast<int>(tile % probes::kRegimes);
      for (int o = 0; o < mn; ++o) {
        job.total[reg]++;
        if (d_now[o] == d_then[o]) {
          job.same[reg]++;
        } else if (job.first.size() < 5) {
          job.first.push_back({tile, uint64_t(o / c.n), uint64_t(o % c.n)});
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t w = 0; w < 2; ++w)
    pool.emplace_back([&, w] {
      for (size_t ji = w; ji < jobs.size(); ji += 2) run(ji);
    });
  for (auto& th : pool) th.join();
  for (const Job& job : jobs) {
    CAPTURE(job.rec->combo);
    for (int r = 0; r < probes::kRegimes; ++r) {
      // "<regime>=<identical>/<total>": where the GPU equalled the run's row
      const auto v = split(field(job.rec->diff, probes::regime_name(r)), '/');
      REQUIRE(v.size() == 2);
      CAPTURE(probes::regime_name(r));
      CHECK(job.total[r] == std::stoull(v[1]));
      CHECK(job.same[r] == std::stoull(v[0]));
    }
    REQUIRE(job.first.size() == job.rec->mismatches.size());
    for (size_t i = 0; i < job.first.size(); ++i) {
      const auto& m = job.rec->mismatches[i];
      CHECK(job.first[i][0] == std::stoull(field(m, "tile")));
      CHECK(job.first[i][1] == std::stoull(field(m, "row")));
      CHECK(job.first[i][2] == std::stoull(field(m, "col")));
    }
    uint64_t same = 0, total = 0;
    for (int r = 0; r < probes::kRegimes; ++r) same += job.same[r], total += job.total[r];
    MESSAGE(job.rec->combo << ": the current row differs from the run's row on " << total - same
                           << " of " << total << " outputs; the GPU did on "
                           << field(job.rec->diff, "mismatches"));
  }
}
