// The probe suite of docs/mma_numerics.md §6 (Q1-Q20) on every sm_90a tensor-core path:
// mma.sync, wgmma with A from shared memory (SS) and from registers (RS), every type and D type.
//
// Each probe is one dot product (row 0 of A, column 0 of B, C[0][0]; everything else zero) run
// as a whole MMA tile; D[0][0] is read back. Output, one line per probe (tab-separated):
//   PROBE <combo> <id> hw=<D word> row=<tcsim row's D> <hypothesis>=<D> ... a=<k:code,...>
//         b=<k:code,...> c=<code> # <what it asks>
// then per combination
//   LAYOUT <combo> ok|FAIL ...   (exact small-integer tile: fragment/descriptor self-check)
//   SUMMARY <combo> probes=<n> <hypothesis>=<matched> ... all=<hypotheses matching every probe>
// D words: f32 and s32 as 8 hex digits, f16 D as 4. Hypotheses are tcsim Numerics overrides
// (models/mma/param_table.h set_numerics_field), so a result can be pasted into the rows.
// Expected outcomes under the competing hypotheses are in the comment of each probe builder.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "kernels/probes/sm90/combos.h"
#include "kernels/probes/sm90/host_util.h"
#include "kernels/probes/common/probe_set.h"

namespace probes {
namespace {

uint32_t encode_el(const El& e, DType t, bool* ok) {
  if (e.raw) return e.code;
  const auto c = encode(t, e.v);
  if (!c) *ok = false;
  return c.value_or(0);
}

std::string list(const std::vector<uint32_t>& codes, int digits) {
  std::string s;
  for (size_t k = 0; k < codes.size(); ++k) {
    if (!codes[k]) continue;
    if (!s.empty()) s += ',';
    s += std::to_string(k) + ":" + hex(codes[k], digits);
  }
  return s.empty() ? "-" : s;
}

int digits(DType t) {
  switch (t) {
    case DType::F32: case DType::TF32: case DType::S32: return 8;
    case DType::F16: case DType::BF16: return 4;
    default: return 2;
  }
}

// Runs probes (each one tile) with the same reps; returns D[0][0] per probe.
std::vector<uint32_t> run_tiles(const Combo& cb, const std::vector<std::vector<uint32_t>>& A,
                                const std::vector<std::vector<uint32_t>>& B,
                                const std::vector<std::vector<uint32_t>>& C, int reps,
                                std::vector<std::vector<uint32_t>>* full = nullptr) {
  const int n = static_cast<int>(A.size());
  const size_t mn = static_cast<size_t>(cb.M) * cb.N;
  if (fake_gpu()) {  // host model in place of the GPU (see host_util.h)
    const mm::DotEngine e(cb.shape());
    std::vector<uint32_t> out;
    if (full) full->clear();
    for (int t = 0; t < n; ++t) {
      std::vector<uint32_t> d = C[t];
      for (int r = 0; r < reps; ++r) e.tile(cb.M, cb.N, A[t].data(), B[t].data(), d.data(), d.data());
      out.push_back(d[0]);
      if (full) full->push_back(d);
    }
    return out;
  }
  std::vector<uint32_t> a, b, c;
  for (int t = 0; t < n; ++t) {
    a.insert(a.end(), A[t].begin(), A[t].end());
    b.insert(b.end(), B[t].begin(), B[t].end());
    c.insert(c.end(), C[t].begin(), C[t].end());
  }
  std::vector<uint8_t> pa, pb;
  pack(a, cb.ebytes, pa);
  pack(b, cb.ebytes, pb);
  DevBuf<uint8_t> da, db;
  DevBuf<uint32_t> dc, dd;
  da.ensure(pa.size());
  db.ensure(pb.size());
  dc.ensure(c.size());
  dd.ensure(c.size());
  PROBES_CK(cudaMemcpy(da.p, pa.data(), pa.size(), cudaMemcpyHostToDevice));
  PROBES_CK(cudaMemcpy(db.p, pb.data(), pb.size(), cudaMemcpyHostToDevice));
  PROBES_CK(cudaMemcpy(dc.p, c.data(), c.size() * 4, cudaMemcpyHostToDevice));
  cb.launch(n, da.p, db.p, dc.p, dd.p, reps);
  PROBES_CK(cudaGetLastError());
  PROBES_CK(cudaDeviceSynchronize());
  std::vector<uint32_t> d(c.size());
  PROBES_CK(cudaMemcpy(d.data(), dd.p, d.size() * 4, cudaMemcpyDeviceToHost));
  std::vector<uint32_t> out;
  for (int t = 0; t < n; ++t) out.push_back(d[t * mn]);
  if (full) {
    full->clear();
    for (int t = 0; t < n; ++t) full->emplace_back(d.begin() + t * mn, d.begin() + (t + 1) * mn);
  }
  return out;
}

uint32_t model_dot(const mm::DotEngine& e, const std::vector<uint32_t>& a,
                   const std::vector<uint32_t>& b, uint32_t c, int reps) {
  for (int r = 0; r < reps; ++r) c = e.dot(a.data(), b.data(), c);
  return c;
}

// Exact small-integer tile: every product and sum is exact in every type, so any difference
// is a fragment-layout or descriptor error of this program, not arithmetic.
void layout_check(const Combo& cb) {
  const int M = cb.M, N = cb.N, K = cb.K;
  const bool isint = cb.kind == MmaKind::I8;
  const double vals[] = {0, 1, -1, 2, 0.5, -2, 1.5, -0.5};
  std::vector<uint32_t> A(M * K), B(N * K), C(M * N);
  bool ok = true;
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      double x = vals[(i * 5 + k * 3 + i * k) % 8];
      if (isint) x = static_cast<int>((i * 7 + k * 3) % 11) - (cb.at == DType::S8 ? 5 : 0);
      A[i * K + k] = encode(cb.at, x).value_or(0);
      ok = ok && encode(cb.at, x);
    }
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k) {
      double x = vals[(j * 3 + k * 7 + 2 * j * k + 1) % 8];
      if (isint) x = static_cast<int>((j * 5 + k) % 13) - (cb.bt == DType::S8 ? 6 : 0);
      B[j * K + k] = encode(cb.bt, x).value_or(0);
    }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const double x = isint ? (i * 31 + j * 17) % 1000 - 500 : ((i + 2 * j) % 9) * 0.25 - 1;
      C[i * N + j] = encode(cb.dt == DType::S32 ? DType::S32 : cb.dt, x).value_or(0);
    }
  std::vector<std::vector<uint32_t>> full;
  run_tiles(cb, {A}, {B}, {C}, 1, &full);
  const mm::DotEngine e(cb.shape());
  std::vector<uint32_t> want(M * N);
  e.tile(M, N, A.data(), B.data(), C.data(), want.data());
  int bad = 0;
  std::string first;
  for (int o = 0; o < M * N; ++o)
    if (full[0][o] != want[o] && bad++ == 0)
      first = "(" + std::to_string(o / N) + "," + std::to_string(o % N) + ") hw=" +
              hex(full[0][o], 8) + " model=" + hex(want[o], 8);
  std::printf("LAYOUT\t%s\t%s\t%d/%d outputs differ %s\n", cb.name.c_str(),
              bad == 0 && ok ? "ok" : "FAIL", bad, M * N, first.c_str());
}

void run_combo(const Combo& cb) {
  if (!cb.row()) {
    std::printf("SKIP\t%s\tno tcsim row\n", cb.name.c_str());
    return;
  }
  layout_check(cb);
  const mm::Numerics& rn = cb.row()->num;
  const ProbeTarget tgt{cb.at, cb.bt, cb.dt, cb.K, rn.nfrac == mm::kExactNfrac ? 25 : rn.nfrac,
                        rn.f32_out_frac};
  const std::vector<Probe> ps = cb.kind == MmaKind::I8 ? int_probes(tgt) : float_probes(tgt);
  const int dd = cb.dt == DType::F16 ? 4 : 8;
  // engines: the row and each hypothesis (skipped where the shape rejects it)
  std::vector<std::pair<std::string, std::optional<mm::DotEngine>>> engines;
  engines.emplace_back("row", mm::DotEngine(cb.shape()));
  for (const Hyp& h : hypotheses()) {
    std::optional<mm::DotEngine> e;
    try {
      mm::DotShape s = cb.shape(h.sets);
      if (mm::check_shape(s).empty()) e.emplace(s);
    } catch (const std::exception&) {
    }
    engines.emplace_back(h.name, std::move(e));
  }
  std::vector<int> matched(engines.size(), 0);
  int nprobes = 0;
  std::map<int, std::vector<int>> by_reps;
  std::vector<std::vector<uint32_t>> A(ps.size()), B(ps.size()), C(ps.size());
  std::vector<std::vector<uint32_t>> av(ps.size()), bv(ps.size());
  std::vector<uint32_t> cw(ps.size());
  std::vector<bool> valid(ps.size(), true);
  for (size_t p = 0; p < ps.size(); ++p) {
    bool ok = static_cast<int>(ps[p].a.size()) <= cb.K && static_cast<int>(ps[p].b.size()) <= cb.K;
    av[p].assign(cb.K, 0);
    bv[p].assign(cb.K, 0);
    for (size_t k = 0; k < ps[p].a.size() && ok; ++k) av[p][k] = encode_el(ps[p].a[k], cb.at, &ok);
    for (size_t k = 0; k < ps[p].b.size() && ok; ++k) bv[p][k] = encode_el(ps[p].b[k], cb.bt, &ok);
    cw[p] = encode_el(ps[p].c, cb.dt, &ok);
    valid[p] = ok;
    if (!ok) continue;
    A[p].assign(static_cast<size_t>(cb.M) * cb.K, 0);
    B[p].assign(static_cast<size_t>(cb.N) * cb.K, 0);
    C[p].assign(static_cast<size_t>(cb.M) * cb.N, 0);
    std::copy(av[p].begin(), av[p].end(), A[p].begin());
    std::copy(bv[p].begin(), bv[p].end(), B[p].begin());
    C[p][0] = cw[p];
    by_reps[ps[p].reps].push_back(static_cast<int>(p));
  }
  std::vector<uint32_t> hw(ps.size(), 0);
  for (const auto& [reps, idx] : by_reps) {
    std::vector<std::vector<uint32_t>> a, b, c;
    for (int p : idx) a.push_back(A[p]), b.push_back(B[p]), c.push_back(C[p]);
    const std::vector<uint32_t> d = run_tiles(cb, a, b, c, reps);
    for (size_t i = 0; i < idx.size(); ++i) hw[idx[i]] = d[i];
  }
  for (size_t p = 0; p < ps.size(); ++p) {
    if (!valid[p]) continue;  // a value the type cannot hold: the probe does not apply
    ++nprobes;
    std::string line = "PROBE\t" + cb.name + "\t" + ps[p].id + "\thw=" + hex(hw[p], dd);
    for (size_t e = 0; e < engines.size(); ++e) {
      if (!engines[e].second) {
        line += "\t" + engines[e].first + "=-";
        continue;
      }
      const uint32_t m = model_dot(*engines[e].second, av[p], bv[p], cw[p], ps[p].reps);
      matched[e] += m == hw[p];
      line += "\t" + engines[e].first + "=" + hex(m, dd) + (m == hw[p] ? "" : "*");
    }
    line += "\ta=" + list(av[p], digits(cb.at)) + "\tb=" + list(bv[p], digits(cb.bt)) +
            "\tc=" + hex(cw[p], dd) + (ps[p].reps > 1 ? "\treps=" + std::to_string(ps[p].reps) : "") +
            "\t# " + ps[p].desc;
    std::printf("%s\n", line.c_str());
  }
  std::string sum = "SUMMARY\t" + cb.name + "\tprobes=" + std::to_string(nprobes);
  std::string all;
  for (size_t e = 0; e < engines.size(); ++e) {
    if (!engines[e].second) continue;
    sum += "\t" + engines[e].first + "=" + std::to_string(matched[e]);
    if (matched[e] == nprobes) {
      if (!all.empty()) all += ',';
      all += engines[e].first;
    }
  }
  std::printf("%s\tall=%s\n", sum.c_str(), all.empty() ? "NONE" : all.c_str());
  std::fflush(stdout);
}

}  // namespace
}  // namespace probes

int main(int argc, char** argv) {
  using namespace probes;
  print_environment("probes_sm90");
  std::printf("# PROBE lines: hw = the GPU's D word; row = tcsim's sm_90a row; other columns: the row "
              "with one alternative (a '*' marks a value that differs from hw)\n");
  for (const Combo& cb : combos()) {
    if (argc > 1 && cb.name.find(argv[1]) == std::string::npos) continue;
    run_combo(cb);
  }
  return 0;
}
