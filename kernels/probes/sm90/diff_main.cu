// Random differential test of tcsim's sm_90a rows against the GPU: for every combination of
// combos.h, at least --outputs (default 10,000,000) MMA outputs from counter-based random and
// adversarial inputs (gen.h regimes), computed on the GPU and by the tcsim fast path compiled
// into this program (models/mma/engine.cc), compared bit for bit.
//
// Output (tab-separated):
//   DIFF <combo> outputs=<n> identical=<m> mismatches=<n-m> <regime>=<identical>/<total> ...
//   MISMATCH <combo> tile=<t> regime=<r> row=<i> col=<j> hw=<D> model=<D> a=<K codes> b=<K codes> c=<C>
//     (the first 5 per combination; a/b are the row of A and the column of B, in order)
//   TOTAL combinations=<n> outputs=<n> identical=<m>
// Usage: diff_sm90 [--outputs N] [--filter SUBSTRING] [--seed S] [--threads T]
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "kernels/probes/sm90/combos.h"
#include "kernels/probes/sm90/gen.h"
#include "kernels/probes/sm90/host_util.h"

namespace probes {
namespace {

struct Options {
  uint64_t outputs = 10000000;
  std::string filter;
  uint64_t seed = 0x5eed5eedull;
  unsigned threads = 0;
};

template <class F>
void parallel(unsigned threads, int n, F f) {
  std::vector<std::thread> pool;
  std::atomic<int> next{0};
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (int i; (i = next.fetch_add(64)) < n;)
        for (int j = i; j < std::min(n, i + 64); ++j) f(j);
    });
  for (auto& th : pool) th.join();
}

std::string codes(const uint32_t* p, int n, int stride, int digits) {
  std::string s;
  for (int k = 0; k < n; ++k) {
    if (k) s += ',';
    s += hex(p[static_cast<size_t>(k) * stride], digits);
  }
  return s;
}

int digits(DType t) {
  switch (t) {
    case DType::F32: case DType::TF32: case DType::S32: return 8;
    case DType::F16: case DType::BF16: return 4;
    default: return 2;
  }
}

struct Stats {
  uint64_t outputs = 0, identical = 0;
  uint64_t by_regime[kRegimes][2] = {};
};

Stats run_combo(const Combo& cb, int combo_index, const Options& o) {
  Stats st;
  const mm::DotEngine engine(cb.shape());
  const int M = cb.M, N = cb.N, K = cb.K, MN = M * N;
  const uint64_t tiles_total = (o.outputs + MN - 1) / MN;
  const int batch = static_cast<int>(std::min<uint64_t>(tiles_total, (1u << 21) / MN + 1));
  std::vector<uint32_t> A(static_cast<size_t>(batch) * M * K), B(static_cast<size_t>(batch) * N * K),
      C(static_cast<size_t>(batch) * MN), D(static_cast<size_t>(batch) * MN),
      W(static_cast<size_t>(batch) * MN);
  std::vector<uint8_t> pa, pb;
  DevBuf<uint8_t> da, db;
  DevBuf<uint32_t> dc, dd;
  int printed = 0;
  for (uint64_t t0 = 0; t0 < tiles_total; t0 += batch) {
    const int nt = static_cast<int>(std::min<uint64_t>(batch, tiles_total - t0));
    parallel(o.threads, nt, [&](int t) {
      const uint64_t tile = t0 + t;
      tile_inputs(o.seed, combo_index, tile, static_cast<int>(tile % kRegimes), cb.at, cb.bt,
                  cb.dt, M, N, K, &A[static_cast<size_t>(t) * M * K], &B[static_cast<size_t>(t) * N * K],
                  &C[static_cast<size_t>(t) * MN]);
      engine.tile(M, N, &A[static_cast<size_t>(t) * M * K], &B[static_cast<size_t>(t) * N * K],
                  &C[static_cast<size_t>(t) * MN], &W[static_cast<size_t>(t) * MN]);
    });
    if (fake_gpu()) {  // host model in place of the GPU (see host_util.h)
      std::copy(W.begin(), W.begin() + static_cast<size_t>(nt) * MN, D.begin());
    } else {
    pack(std::vector<uint32_t>(A.begin(), A.begin() + static_cast<size_t>(nt) * M * K), cb.ebytes, pa);
    pack(std::vector<uint32_t>(B.begin(), B.begin() + static_cast<size_t>(nt) * N * K), cb.ebytes, pb);
    da.ensure(pa.size());
    db.ensure(pb.size());
    dc.ensure(static_cast<size_t>(nt) * MN);
    dd.ensure(static_cast<size_t>(nt) * MN);
    PROBES_CK(cudaMemcpy(da.p, pa.data(), pa.size(), cudaMemcpyHostToDevice));
    PROBES_CK(cudaMemcpy(db.p, pb.data(), pb.size(), cudaMemcpyHostToDevice));
    PROBES_CK(cudaMemcpy(dc.p, C.data(), static_cast<size_t>(nt) * MN * 4, cudaMemcpyHostToDevice));
    cb.launch(nt, da.p, db.p, dc.p, dd.p, 1);
    PROBES_CK(cudaGetLastError());
    PROBES_CK(cudaDeviceSynchronize());
    PROBES_CK(cudaMemcpy(D.data(), dd.p, static_cast<size_t>(nt) * MN * 4, cudaMemcpyDeviceToHost));
    }
    for (int t = 0; t < nt; ++t) {
      const uint64_t tile = t0 + t;
      const int reg = static_cast<int>(tile % kRegimes);
      for (int o2 = 0; o2 < MN; ++o2) {
        const size_t idx = static_cast<size_t>(t) * MN + o2;
        const bool same = D[idx] == W[idx];
        st.outputs++;
        st.identical += same;
        st.by_regime[reg][0] += same;
        st.by_regime[reg][1]++;
        if (!same && printed < 5) {
          ++printed;
          const int i = o2 / N, j = o2 % N;
          const uint32_t* a = &A[static_cast<size_t>(t) * M * K + static_cast<size_t>(i) * K];
          const uint32_t* b = &B[static_cast<size_t>(t) * N * K + static_cast<size_t>(j) * K];
          const int dd_ = cb.dt == DType::F16 ? 4 : 8;
          std::printf("MISMATCH\t%s\ttile=%llu\tregime=%s\trow=%d\tcol=%d\thw=%s\tmodel=%s\ta=%s\tb=%s\tc=%s\n",
                      cb.name.c_str(), static_cast<unsigned long long>(tile), regime_name(reg), i,
                      j, hex(D[idx], dd_).c_str(), hex(W[idx], dd_).c_str(),
                      codes(a, K, 1, digits(cb.at)).c_str(), codes(b, K, 1, digits(cb.bt)).c_str(),
                      hex(C[idx], dd_).c_str());
        }
      }
    }
  }
  std::string line = "DIFF\t" + cb.name + "\toutputs=" + std::to_string(st.outputs) +
                     "\tidentical=" + std::to_string(st.identical) +
                     "\tmismatches=" + std::to_string(st.outputs - st.identical);
  for (int r = 0; r < kRegimes; ++r)
    line += "\t" + std::string(regime_name(r)) + "=" + std::to_string(st.by_regime[r][0]) + "/" +
            std::to_string(st.by_regime[r][1]);
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
  return st;
}

}  // namespace
}  // namespace probes

int main(int argc, char** argv) {
  using namespace probes;
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--outputs") o.outputs = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--filter") o.filter = v;
    else if (k == "--seed") o.seed = std::strtoull(v.c_str(), nullptr, 0);
    else if (k == "--threads") o.threads = static_cast<unsigned>(std::atoi(v.c_str()));
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (o.threads == 0) o.threads = std::max(1u, std::thread::hardware_concurrency());
  print_environment("diff_sm90");
  std::printf("# seed=0x%llx outputs/combination=%llu threads=%u model kernels=%s\n",
              static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(o.outputs),
              o.threads, mm::simd::kernels().name);
  uint64_t n = 0, outputs = 0, identical = 0;
  const auto& all = combos();
  for (size_t c = 0; c < all.size(); ++c) {
    if (!o.filter.empty() && all[c].name.find(o.filter) == std::string::npos) continue;
    if (!all[c].row()) {
      std::printf("SKIP\t%s\tno tcsim row\n", all[c].name.c_str());
      continue;
    }
    const Stats s = run_combo(all[c], static_cast<int>(c), o);
    ++n;
    outputs += s.outputs;
    identical += s.identical;
  }
  std::printf("TOTAL\tcombinations=%llu\toutputs=%llu\tidentical=%llu\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(outputs),
              static_cast<unsigned long long>(identical));
  return 0;
}
