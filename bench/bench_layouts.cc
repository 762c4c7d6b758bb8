// Layout functions, addresses per second on one core (issue 2, Performance: >= 200 million/s).
// Each figure: a plan built once from runtime values, then locate() per element, results folded
// into a checksum so nothing is optimised away. "sweep" walks the tile in order (what the
// simulator does for an MMA operand); "random" takes (mn, k) pairs from a shuffled list (no loop
// structure for the compiler to exploit). Prints; asserts nothing.
#include <algorithm>
#include <cstdint>
#include <ctime>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "bench/bench_util.h"
#include "isa/layouts/canonical_layout.h"
#include "isa/layouts/tma_layout.h"
#include "isa/layouts/tmem_ld_st.h"
#include "isa/layouts/tmem_layout.h"

using namespace tcsim::isa;
using tcsim::bench::do_not_optimize;

namespace {

// This thread's CPU time: time the scheduler gave to other processes on a shared machine does
// not count, so the figure is "addresses per second of one core".
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// Runs body(reps) (which returns the number of addresses computed) for ~0.1 s of CPU, 7 times,
// and prints the best and the median rate per CPU-second.
void report(const std::string& what, const std::function<uint64_t(int)>& body) {
  int reps = 1;
  for (;;) {
    const double t0 = thread_cpu_seconds();
    body(reps);
    if (thread_cpu_seconds() - t0 > 0.1) break;
    reps *= 2;
  }
  std::vector<double> rates;
  for (int trial = 0; trial < 7; ++trial) {
    const double t0 = thread_cpu_seconds();
    const uint64_t n = body(reps);
    rates.push_back(double(n) / (thread_cpu_seconds() - t0) / 1e6);
  }
  std::sort(rates.begin(), rates.end());
  fmt::print("  {:<58} best {:6.0f}  median {:6.0f} M/s\n", what, rates.back(),
             rates[rates.size() / 2]);
}

SmemDesc desc(uint32_t start, uint32_t lbo, uint32_t sbo, SwizzleMode layout) {
  SmemDesc d;
  d.start_address = start, d.lbo = lbo, d.sbo = sbo, d.version = 1, d.layout = layout;
  return d;
}

void bench_canonical(const char* name, const SmemDesc& d, ElementFormat f, Major m, uint32_t n_mn,
                     uint32_t n_k) {
  auto p = CanonicalLayout::make(d, f, m);
  if (!p) {
    fmt::print("  {}: {}\n", name, p.error().message);
    return;
  }
  const CanonicalLayout plan = *p;
  report(fmt::format("canonical {} sweep", name), [&](int reps) {
    uint32_t sum = 0;
    for (int r = 0; r < reps; ++r)
      for (uint32_t mn = 0; mn < n_mn; ++mn)
        for (uint32_t k = 0; k < n_k; ++k) {
          const SmemLocation l = plan.locate(mn, k);
          sum += l.byte ^ l.bit;
        }
    do_not_optimize(sum);
    return uint64_t(reps) * n_mn * n_k;
  });
  std::vector<std::pair<uint32_t, uint32_t>> order;
  for (uint32_t mn = 0; mn < n_mn; ++mn)
    for (uint32_t k = 0; k < n_k; ++k) order.push_back({mn, k});
  std::shuffle(order.begin(), order.end(), std::mt19937(42));
  report(fmt::format("canonical {} random order", name), [&](int reps) {
    uint32_t sum = 0;
    for (int r = 0; r < reps; ++r)
      for (auto [mn, k] : order) {
        const SmemLocation l = plan.locate(mn, k);
        sum += l.byte ^ l.bit;
      }
    do_not_optimize(sum);
    return uint64_t(reps) * order.size();
  });
  std::vector<SmemLocation> tile(size_t(n_mn) * n_k);
  report(fmt::format("canonical {} locate_tile", name), [&](int reps) {
    for (int r = 0; r < reps; ++r) {
      plan.locate_tile(0, n_mn, 0, n_k, tile.data());
      do_not_optimize(tile[r % tile.size()]);
    }
    return uint64_t(reps) * tile.size();
  });
}

void bench_tma(const char* name, TmaBox box, uint32_t dst) {
  auto t = TmaLayout::make(box, dst);
  if (!t) {
    fmt::print("  {}: {}\n", name, t.error().message);
    return;
  }
  const TmaLayout plan = *t;
  const uint32_t e0 = plan.extent(0), e1 = plan.extent(1);
  report(fmt::format("TMA {} sweep", name), [&](int reps) {
    uint32_t sum = 0;
    for (int r = 0; r < reps; ++r)
      for (uint32_t i1 = 0; i1 < e1; ++i1)
        for (uint32_t i0 = 0; i0 < e0; ++i0) {
          const SmemLocation l = plan.locate(i0, i1);
          sum += l.byte ^ l.bit;
        }
    do_not_optimize(sum);
    return uint64_t(reps) * e0 * e1;
  });
}

}  // namespace

int main(int argc, char**) {
  fmt::print("bench_layouts — {}\n", tcsim::bench::machine_context());
  fmt::print("(addresses per second of this thread's CPU time, one core; best and median of 7)\n");
  // Runtime values (argc) so the plans are not compile-time constants.
  const uint32_t base = 0x400 * uint32_t(argc);
  fmt::print("shared-memory canonical layouts (per element (mn, k) -> byte, bit):\n");
  bench_canonical("K-major SW128 bf16 128x64", desc(base, 16, 1024, SwizzleMode::B128),
                  dense_format(16), Major::K, 128, 64);
  bench_canonical("MN-major SW64 bf16 256x32", desc(base, 512, 4096, SwizzleMode::B64),
                  dense_format(16), Major::MN, 256, 32);
  bench_canonical("K-major none tf32 128x32", desc(base, 128, 1024, SwizzleMode::None),
                  dense_format(32), Major::K, 128, 32);
  bench_canonical("K-major SW128 fp4 (padded) 128x128", desc(base, 16, 1024, SwizzleMode::B128),
                  padded_format(4), Major::K, 128, 128);
  bench_canonical("MN-major SW128_BASE32B tf32 128x32",
                  desc(base, 512, 2048, SwizzleMode::B128Base32B), dense_format(32), Major::MN,
                  128, 32);

  fmt::print("TMA box image (per box element (i0, i1) -> byte, bit):\n");
  TmaBox b;
  b.rank = 2;
  b.box_dim = {64, 256, 1, 1, 1};
  b.elem = dense_format(16);
  b.swizzle = TmaSwizzle::B128;
  bench_tma("SWIZZLE_128B bf16 64x256", b, base);
  b.box_dim = {128, 256, 1, 1, 1};
  b.elem = padded_format(6);
  bench_tma("SWIZZLE_128B fp6 16U6_ALIGN16B 128x256", b, base);
  b.box_dim = {64, 256, 1, 1, 1};
  b.elem = dense_format(16);
  b.swizzle = TmaSwizzle::B128Atom32BFlip8B;
  bench_tma("SWIZZLE_128B_ATOM_32B_FLIP_8B bf16 64x256", b, base);

  fmt::print("TMEM (per element):\n");
  auto d = TmemDLayout::make(128, 256, 2, false, false, uint32_t(argc - 1));
  report("D layout B (M 128, cta_group::2, N 256)", [&](int reps) {
    uint32_t sum = 0;
    for (int r = 0; r < reps; ++r)
      for (uint32_t m = 0; m < 128; ++m)
        for (uint32_t n = 0; n < 256; ++n) {
          const TmemCell c = d->locate(m, n);
          sum += c.lane ^ c.column ^ c.cta;
        }
    do_not_optimize(sum);
    return uint64_t(reps) * 128 * 256;
  });
  auto ldm = TmemLdStMap::make(TmemLdStShape::S16x256b, 32, false);
  report("tcgen05.ld .16x256b.x32 (thread, register)", [&](int reps) {
    uint32_t sum = 0;
    for (int r = 0; r < reps; ++r)
      for (uint32_t t = 0; t < 32; ++t)
        for (uint32_t j = 0; j < 128; ++j) {
          const auto c = ldm->locate(t, j);
          sum += c.lane ^ c.column;
        }
    do_not_optimize(sum);
    return uint64_t(reps) * 32 * 128;
  });
  return 0;
}
