// What the tensor core does with misplaced scale factors, illegal sparse metadata and changed
// collector operands (sim/units/tensor_core_mma.cc), on the corpus kernels:
//   * scale factors written into sub-partition 0 only (mma_block_scaled.cu sf_mode 2): rows 0-31 of D
//     (computed by sub-partition 0) are exact with their scales, rows 32-127 (sub-partitions 1-3)
//     multiply by the scale code 0 their lanes hold (2^-127 each, so the products vanish), and the
//     finding says the scales are not replicated;
//   * a metadata nibble that is not a legal index pair (gemm_sparse.cu, 0b0101: both kept values at
//     position 1) is computed as written and reported;
//   * B changed in shared memory between a .collector::b0::fill and its ::use (gemm_ws.cu mode 2):
//     the uses compute with the kept copy, and the change is reported; a ::use without a fill is
//     reported and reads shared memory (mode 1).
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::set<std::string> rules_of(const sim::LaunchResult& r) {
  std::set<std::string> s;
  for (const auto& g : r.findings) s.insert(std::string(sim::rule_info(g.rule).id));
  return s;
}

uint8_t e4m3_of_int(int v) {  // small integers in e4m3 (bias 7, 3 mantissa bits)
  if (v == 0) return 0;
  const uint8_t sign = v < 0 ? 0x80 : 0;
  int a = v < 0 ? -v : v, e = 0;
  while ((a >> e) > 1) ++e;
  const int mant = ((a << 3) >> e) & 7;
  return static_cast<uint8_t>(sign | (e + 7) << 3 | mant);
}

uint16_t bf16_of_int(int v) {
  const float f = static_cast<float>(v);
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return static_cast<uint16_t>(w >> 16);
}

}  // namespace

TEST_CASE("scale factors in one sub-partition only: the other sub-partitions read their own (zero) lanes") {
  test::Harness h;
  h.load(read_file(TCSIM_SOURCE_DIR "/kernels/tcgen05/mma_block_scaled.ptx"), "mma_block_scaled.ptx");
  constexpr uint32_t M = 128, N = 64, K = 32;
  std::vector<uint8_t> a(M * K), b(N * K);
  for (uint32_t i = 0; i < M * K; ++i) a[i] = e4m3_of_int(static_cast<int>(i % 5) - 2);
  for (uint32_t i = 0; i < N * K; ++i) b[i] = e4m3_of_int(static_cast<int>(i % 3) - 1);
  // scale_A 2^1 (0x80) for every row, scale_B 2^-1 (0x7e): the exact result is A B^T.
  const uint64_t A = h.upload(a), B = h.upload(b), SA = h.upload(std::vector<uint8_t>(M, 0x80)),
                 SB = h.upload(std::vector<uint8_t>(N, 0x7e)), C = h.zeros(4), D = h.zeros(M * N * 4);
  test::Params p;
  p.add(A).add(B).add(SA).add(SB).add(C).add(D);
  // M, N, ksteps, variant 1 (mxf8f6f4 1X), atype/btype E4M3 0, UE8M0, sf_mode 2, flags 0, layouts 2 (128B).
  for (uint32_t x : {M, N, 1u, 1u, 0u, 0u, 1u, 2u, 0u, 2u, 2u}) p.add(x);
  const auto r = h.launch("tc_mma_bs_ss_cg1", {1, 1, 1}, {128, 1, 1}, p, 64 * 1024);
  const auto d = h.download<float>(D, M * N);
  int exact_rows_ok = 0, zero_rows_ok = 0;
  for (uint32_t m = 0; m < M; ++m) {
    bool ok = true;
    for (uint32_t n = 0; n < N; ++n) {
      int s = 0;
      for (uint32_t k = 0; k < K; ++k)
        s += (static_cast<int>((m * K + k) % 5) - 2) * (static_cast<int>((n * K + k) % 3) - 1);
      ok = ok && d[m * N + n] == (m < 32 ? static_cast<float>(s) : 0.0f);
    }
    (m < 32 ? exact_rows_ok : zero_rows_ok) += ok;
  }
  CHECK(exact_rows_ok == 32);
  CHECK(zero_rows_ok == 96);
  CHECK(rules_of(r).count("tcgen05-scales-not-replicated") == 1);
}

TEST_CASE("tcgen05.mma.sp with an illegal metadata nibble: computed as the indices say, and reported") {
  test::Harness h;
  h.load(read_file(TCSIM_SOURCE_DIR "/kernels/tcgen05/gemm_sparse.ptx"), "gemm_sparse.ptx");
  constexpr uint32_t M = 128, N = 128, K = 128;
  std::vector<uint16_t> as(M * K / 2), b(N * K);
  for (uint32_t i = 0; i < as.size(); ++i) as[i] = bf16_of_int(static_cast<int>(i % 5) - 2);
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = bf16_of_int(static_cast<int>(i % 7) - 3);
  std::vector<uint8_t> e(M * K / 4, 0xD);  // (1, 3): legal
  e[5 * (K / 4) + 3] = 0x5;                // row 5, group 3: (1, 1) — not a legal pair
  const uint64_t A = h.upload(as), B = h.upload(b), E = h.upload(e), D = h.zeros(M * N * 4);
  const auto r = h.launch("gemm_sp_bf16_f32", {1, 1, 1}, {128, 1, 1},
                          test::Params().add(A).add(B).add(E).add(D).add(M).add(N).add(K), 64 * 1024);
  const auto d = h.download<float>(D, M * N);
  int bad = 0;
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      int s = 0;
      for (uint32_t g = 0; g < K / 4; ++g) {
        const uint8_t nib = e[m * (K / 4) + g];
        const int a0 = static_cast<int>((m * (K / 2) + 2 * g) % 5) - 2, a1 = static_cast<int>((m * (K / 2) + 2 * g + 1) % 5) - 2;
        const auto bv = [&](uint32_t pos) { return static_cast<int>((n * K + 4 * g + pos) % 7) - 3; };
        s += a0 * bv(nib & 3) + a1 * bv(nib >> 2);
      }
      bad += d[m * N + n] != static_cast<float>(s);
    }
  CHECK(bad == 0);
  CHECK(rules_of(r).count("tcgen05-sparse-metadata-invalid") == 1);
}

TEST_CASE(".ws collector b0: a changed B is reported and the uses keep the filled copy; use without fill is reported") {
  test::Harness h;
  h.load(read_file(TCSIM_SOURCE_DIR "/kernels/tcgen05/gemm_ws.ptx"), "gemm_ws.ptx");
  constexpr uint32_t M = 256, N = 128, K = 64;
  std::vector<uint16_t> a(M * K), b(N * K);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = bf16_of_int(static_cast<int>(i % 5) - 2);
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = bf16_of_int(static_cast<int>(i % 3) - 1);
  for (uint32_t mode : {0u, 1u, 2u}) {
    CAPTURE(mode);
    const uint64_t A = h.upload(a), B = h.upload(b), D = h.zeros(M * N * 4);
    const auto r = h.launch("gemm_ws_bf16_f32", {1, 1, 1}, {128, 1, 1},
                            test::Params().add(A).add(B).add(D).add(M).add(N).add(K).add(mode), 64 * 1024);
    const auto d = h.download<float>(D, M * N);
    int bad = 0;
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        int s = 0;
        for (uint32_t k = 0; k < K; ++k)
          s += (static_cast<int>((m * K + k) % 5) - 2) * (static_cast<int>((n * K + k) % 3) - 1);
        bad += d[m * N + n] != static_cast<float>(s);
      }
    const auto rules = rules_of(r);
    if (mode == 2) {
      // The filling MMA (tile 0) read B before the change; tiles 1-3 use the kept copy: all exact.
      CHECK(bad == 0);
      CHECK(rules.count("tcgen05-collector-operand-changed") == 1);
    } else {
      CHECK(bad == 0);  // mode 1 reads shared memory for every use: the same numbers
      CHECK(rules.count("tcgen05-collector-use-without-fill") == (mode == 1 ? 1u : 0u));
      CHECK(rules.count("tcgen05-collector-operand-changed") == 0);
    }
  }
}
