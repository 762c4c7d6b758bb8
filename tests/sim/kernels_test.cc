// End-to-end: CUDA kernels compiled by nvcc (tests/sim/data/kernels.cu, committed PTX) run on the
// simulator; every result is compared with a host computation of the same algorithm.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include "tests/sim/harness.h"

using namespace tcsim;

namespace {

std::string read_file(const std::string& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct Arch {
  isa::Arch arch;
  const char* file;
};
// The -G build (no optimisation: every helper is a real call, locals live on the .local stack)
// stresses the call ABI and local memory.
const Arch kArchs[] = {{isa::Arch::Sm100a, "kernels_sm_100a.ptx"},
                       {isa::Arch::Sm90a, "kernels_sm_90a.ptx"},
                       {isa::Arch::Sm100a, "kernels_sm_100a_G.ptx"}};

std::string kernel_name(const sim::Device& d, const sim::Module& m, const std::string& part) {
  for (const auto& n : d.kernel_names(m))
    if (n.find(part) != std::string::npos) return n;
  FAIL("no kernel containing " << part);
  return {};
}

}  // namespace

TEST_CASE("kernels: reduction, scan, transpose, collatz, calls, indirect, math64, named barriers, early exit") {
  for (const Arch& a : kArchs) {
    CAPTURE(a.file);
    test::Harness h(a.arch);
    h.load(read_file(std::string(TCSIM_SOURCE_DIR) + "/tests/sim/data/" + a.file), a.file);
    auto K = [&](const char* part) { return kernel_name(h.dev, *h.mod, part); };

    SUBCASE("reduce_sum") {
      const int n = 5000, blocks = 7, threads = 256;
      std::vector<int> in(n);
      long long total = 0;
      for (int i = 0; i < n; ++i) total += in[i] = (i * 37) % 101 - 50;
      uint64_t din = h.upload(in), dout = h.zeros(blocks * 4);
      h.launch(K("reduce_sum"), {blocks, 1, 1}, {threads, 1, 1}, test::Params().add(din).add(dout).add(n));
      auto out = h.download<int>(dout, blocks);
      long long sum = 0;
      for (int v : out) sum += v;
      CHECK(sum == total);
    }
    SUBCASE("block_scan") {
      const int blocks = 3, threads = 512;
      std::vector<unsigned> in(blocks * threads);
      for (size_t i = 0; i < in.size(); ++i) in[i] = (i * 2654435761u) % 1000;
      uint64_t din = h.upload(in), dout = h.zeros(in.size() * 4);
      h.launch(K("block_scan"), {blocks, 1, 1}, {threads, 1, 1}, test::Params().add(din).add(dout));
      auto out = h.download<unsigned>(dout, in.size());
      for (int b = 0; b < blocks; ++b) {
        unsigned s = 0;
        for (int t = 0; t < threads; ++t) {
          s += in[b * threads + t];
          REQUIRE(out[b * threads + t] == s);
        }
      }
    }
    SUBCASE("transpose") {
      const int rows = 70, cols = 45;
      std::vector<float> in(rows * cols);
      for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f;
      uint64_t din = h.upload(in), dout = h.zeros(in.size() * 4);
      h.launch(K("transpose"), {(cols + 31) / 32, (rows + 31) / 32, 1}, {32, 8, 1},
               test::Params().add(din).add(dout).add(rows).add(cols));
      auto out = h.download<float>(dout, in.size());
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) REQUIRE(out[c * rows + r] == in[r * cols + c]);
    }
    SUBCASE("collatz (divergent loops with break/continue)") {
      const int n = 300;
      std::vector<unsigned> in(n);
      for (int i = 0; i < n; ++i) in[i] = i + 1;
      uint64_t din = h.upload(in), dout = h.zeros(n * 4);
      h.launch(K("collatz"), {3, 1, 1}, {128, 1, 1}, test::Params().add(din).add(dout).add(n));
      auto out = h.download<unsigned>(dout, n);
      for (int i = 0; i < n; ++i) {
        unsigned long long x = in[i];
        unsigned s = 0;
        while (x != 1 && s <= 1000) x = (x & 1) ? 3 * x + 1 : x >> 1, ++s;
        REQUIRE(out[i] == s);
      }
    }
    SUBCASE("calls (recursion, struct return, local arrays, constant table)") {
      const int n = 64;
      uint64_t dout = h.zeros(n * 4), d64 = h.zeros(n * 8);
      h.launch(K("calls"), {2, 1, 1}, {32, 1, 1}, test::Params().add(dout).add(d64));
      auto out = h.download<int>(dout, n);
      auto o64 = h.download<long long>(d64, n);
      const int ctable[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
      std::function<int(int)> fib = [&](int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); };
      std::function<int(int, int)> ack = [&](int m, int k) -> int {
        return m == 0 ? k + 1 : k == 0 ? ack(m - 1, 1) : ack(m - 1, ack(m, k - 1));
      };
      for (int i = 0; i < n; ++i) {
        int loc = (i * 7 + (i % 12) * 13) % 23;
        int pa = i * 3 + ctable[i & 15];
        long long y = (long long)i * 100000;
        CHECK(out[i] == fib(i % 15) + pa + loc + ack(i % 3, i % 4) + 7);
        CHECK(o64[i] == y * y - i);
      }
    }
    SUBCASE("indirect calls and switch") {
      const int n = 96;
      std::vector<int> va(n), vb(n);
      for (int i = 0; i < n; ++i) va[i] = i * 13 - 400, vb[i] = 7 - i * 3;
      uint64_t da = h.upload(va), db = h.upload(vb), dout = h.zeros(n * 4);
      h.launch(K("indirect"), {1, 1, 1}, {n, 1, 1}, test::Params().add(da).add(db).add(dout));
      auto out = h.download<int>(dout, n);
      for (int i = 0; i < n; ++i) {
        int x = va[i], y = vb[i];
        int r = (i & 3) == 0 ? x + y : (i & 3) == 1 ? x - y : (i & 3) == 2 ? x * y : x ^ y;
        switch (i % 7) {
          case 0: r += 1; break;
          case 1: r *= 3; break;
          case 2: r ^= 0x55; break;
          case 3: r -= 100; break;
          case 4: r = r >> 2; break;
          case 5: r = ~r; break;
          default: r = -r; break;
        }
        CHECK(out[i] == r);
      }
    }
    SUBCASE("math64 (f64, u64, conversions, 3D grid)") {
      const int nb = 2 * 3 * 2, nt = 64, n = nb * nt;
      std::vector<double> x(n);
      for (int i = 0; i < n; ++i) x[i] = (i - 300) * 0.37 + 0.001 * i * i;
      uint64_t dx = h.upload(x), dy = h.zeros(n * 8), du = h.zeros(n * 8), di = h.zeros(n * 4);
      h.launch(K("math64"), {2, 3, 2}, {nt, 1, 1}, test::Params().add(dx).add(dy).add(du).add(di));
      auto y = h.download<double>(dy, n);
      auto u = h.download<unsigned long long>(du, n);
      auto iv = h.download<int>(di, n);
      for (int i = 0; i < n; ++i) {
        double v = x[i];
        const double ey = ((v * v + 3.0 * v) - 1.0 / (v + 2.0) + std::sqrt(std::fabs(v))) + std::fma(v, 0.5, -v);
        CHECK(y[i] == ey);
        unsigned long long a = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
        unsigned long long hi = (unsigned long long)(((unsigned __int128)a * 0x1234567890abcdefull) >> 64);
        unsigned long long br = 0;
        for (int k = 0; k < 64; ++k) br |= ((a >> k) & 1) << (63 - k);
        unsigned long long expect = (a >> 17) ^ (a << 5) ^ hi ^ br ^ (unsigned long long)__builtin_popcountll(a) ^
                                    (unsigned long long)(a ? __builtin_clzll(a) : 64);
        CHECK(u[i] == expect);
        int e = (int)(v * 1000.0) + (int)std::nearbyint((float)v * 3.7f) + (int)(long long)std::trunc(v * -1e3);
        CHECK(iv[i] == e);
      }
    }
    SUBCASE("named barriers: producer warp and consumer warps") {
      const int iters = 5;
      uint64_t dout = h.zeros(128 * 4);
      h.launch(K("producer_consumer"), {1, 1, 1}, {128, 1, 1}, test::Params().add(dout).add(iters));
      auto out = h.download<int>(dout, 128);
      for (int t = 0; t < 128; ++t) {
        int w = t >> 5, lane = t & 31, acc = 0;
        if (w > 0)
          for (int it = 0; it < iters; ++it) acc += it * 32 + ((lane + w) & 31);
        CHECK(out[t] == acc);
      }
    }
    SUBCASE("early exit before __syncthreads, partial __syncwarp") {
      const int n = 200;
      uint64_t dout = h.zeros(256 * 4);
      h.launch(K("early_exit"), {1, 1, 1}, {256, 1, 1}, test::Params().add(dout).add(n));
      auto out = h.download<int>(dout, 256);
      for (int t = 0; t < 256; ++t) {
        int expect = t < n ? ((t + 1) % n) * ((t + 1) % n) + (t & 1) : 0;
        CHECK(out[t] == expect);
      }
    }
  }
}
