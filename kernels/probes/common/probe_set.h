// The probe vectors of docs/mma_numerics.md §6 (Q1-Q20), shared by the sm_90a program
// (sm90/probes_main.cu) and the sm_100a tcgen05 program (tcgen05/tcgen05_probes.cu). Host-only.
// Each probe is one dot product given by values (encoded exactly per type; a probe whose value
// the type cannot hold is skipped) or raw codes; the comments give each probe's expected result
// under the competing hypotheses.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "isa/dtype.h"
#include "kernels/probes/sm90/host_util.h"

namespace probes {

using tcsim::isa::DType;

std::string hex(uint32_t v, int digits);

// What the probes are built for: operand and D types, K, and the window the row expects (the
// probes straddle it: nfrac 25 / 13, f32 D keeping 23 or 13 fraction bits).
struct ProbeTarget {
  DType at, bt, dt;
  int K;
  int nfrac;
  int f32_out_frac;
};

// One operand element: an exact value (encoded per type) or a raw code.
struct El {
  bool raw = false;
  double v = 0;
  uint32_t code = 0;
};
inline El V(double v) { return {false, v, 0}; }
inline El R(uint32_t c) { return {true, 0, c}; }
inline double p2(int e) { return std::ldexp(1.0, e); }

struct Probe {
  std::string id, desc;
  std::vector<El> a, b;
  El c = V(0);
  int reps = 1;
};

// The competing hypotheses, as parameter overrides of the tcsim row.
struct Hyp {
  const char* name;
  std::vector<std::string> sets;
};
inline const std::vector<Hyp>& hypotheses() {
  static const std::vector<Hyp> h = {
      {"zero=fixed(MMA-Sim)", {"zero_operand=fixed", "c_zero_in_max=1"}},
      {"zero=emin", {"zero_operand=emin"}},
      {"floor=-126", {"exp_floor=-126"}},
      {"floor=-133(KM)", {"exp_floor=-133"}},
      {"c16=fp32view(KM)", {"f16_c_fp32_view=1"}},
      {"zsign=ieee", {"zero_sign=ieee"}},
      {"nfrac=24", {"nfrac=24"}},
      {"nfrac=26", {"nfrac=26"}},
      {"nfrac=13", {"nfrac=13"}},
      {"nfrac=25", {"nfrac=25"}},
      {"group=8", {"group=8"}},
      {"group=16", {"group=16"}},
      // fused single-datapath readings; "f16-halves" is ptxas's mma.sync fp8 emulation (F2FP, two
      // HMMAs over the k%4 halves, FADD/HADD2 of C: models/mma/numerics.h), the sm_90a row since
      // the 2026-11-30 H200 run (fp8 combinations only; '-' elsewhere)
      {"hmma(16x2,25,f32/23)", {"structure=fused", "group=16", "nfrac=25", "f32_out_frac=23"}},
      {"wgmma-fp8(32,13,e8m13)", {"structure=fused", "group=32", "nfrac=13", "f32_out_frac=13"}},
      {"f16-halves", {"structure=f16-halves", "group=16", "nfrac=25", "f32_out_frac=23"}},
      {"f32=rn", {"f32_round=rn"}},
      {"f16=rz", {"f16_round=rz"}},
      {"exact+rn", {"structure=fused", "group=0", "nfrac=exact", "f32_round=rn"}},
      {"nan=7fc00000/7e00", {"nan_f32=7fc00000", "nan_f16=7e00"}},
  };
  return h;
}

inline bool is8(DType t) { return t == DType::E4M3 || t == DType::E5M2; }
inline bool is_narrow(DType t) {
  return is8(t) || t == DType::E2M3 || t == DType::E3M2 || t == DType::E2M1;
}

// -------------------------------------------------------------------------- probe builders
// Scale of the "big" operand M: products M*M = 2^14 for 16-bit/tf32 inputs, 2^8 for fp8, so the
// window's last kept bit is 2^(14-nfrac) (2^-11 for nfrac 25) or 2^(8-nfrac) (2^-5 for nfrac 13).
struct Scale {
  int logm;   // M = 2^logm
  int maxe;   // 2*logm
};
inline Scale scale_of(const ProbeTarget& c) {
  if (!is_narrow(c.at) && !is_narrow(c.bt)) return {7, 14};
  int l = 4;  // fp8: M = 16; fp6/fp4 hold less (e2m1 and e2m3: 4)
  for (DType t : {c.at, c.bt})
    if (t == DType::E2M1 || t == DType::E2M3) l = 2;
  return {l, 2 * l};
}

inline void add(std::vector<Probe>& v, std::string id, std::string desc, std::vector<El> a,
         std::vector<El> b, El c, int reps = 1) {
  v.push_back({std::move(id), std::move(desc), std::move(a), std::move(b), c, reps});
}

// u * v = 2^-s from two operands of similar size (exact in every input type used here)
inline std::pair<double, double> split(int s) { return {p2(-(s / 2)), p2(-(s - s / 2))}; }

inline std::vector<Probe> float_probes(const ProbeTarget& cb) {
  std::vector<Probe> v;
  const Scale sc = scale_of(cb);
  const double M = p2(sc.logm);
  const bool f16d = cb.dt == DType::F16;
  const int K = cb.K;

  // Q1 exponent floor with C = +0 (f32 D; only bf16/tf32 reach products below 2^-126).
  // All K products 2^-76 * 2^-76 = 2^-152, exact sum K*2^-152.
  //   no floor, zero C ignored (sf-tensor, KM without floor): K*2^-152 (16 -> 2^-148 = 0x2)
  //   MMA-Sim (C=+0 at exponent -126, window ends at 2^-151): 0
  //   KM floor -133 (window ends at 2^-158): exact, 0x2
  // Control: C = 2^-149 puts -126 in maxE in every model -> 2^-149 (0x1).
  if (!f16d && (cb.at == DType::BF16 || cb.at == DType::TF32)) {
    std::vector<El> t(K, V(p2(-76)));
    add(v, "Q1.c0", "floor: K products 2^-152, C=+0", t, t, V(0));
    add(v, "Q1.ctrl", "floor control: K products 2^-152, C=2^-149", t, t, R(1));
    std::vector<El> t2(K, V(p2(-70)));
    add(v, "Q1.c0b", "floor: K products 2^-140 (window at -126-25=-151 keeps them)", t2, t2, V(0));
  }
  // Q2 exponent of an f16 C with f16 D: C = 2^-23, products 2^-12*2^-13 = 2^-25 and
  // 2^-20*2^-20 = 2^-40 (f16 in) or 2^-16*2^-16 (e5m2 in).
  //   own-format C exponent (-14, MMA-Sim): 2^-40 dropped, 2.5*2^-24 tie -> even: 0x0002
  //   fp32 view of C (KM): everything kept -> rounds up: 0x0003
  if (f16d && cb.at == DType::F16)
    add(v, "Q2", "f16 C exponent: C=2^-23 + 2^-25 + 2^-40", {V(p2(-12)), V(p2(-20))},
        {V(p2(-13)), V(p2(-20))}, V(p2(-23)));
  if (f16d && cb.at == DType::E5M2 && cb.bt == DType::E5M2)
    add(v, "Q2", "f16 C exponent: C=2^-23 + 2^-25 + 2^-32", {V(p2(-12)), V(p2(-16))},
        {V(p2(-13)), V(p2(-16))}, V(p2(-23)));

  // Q3 window width: A=[M,-M,u], B=[M,M,v], C=0: the big terms cancel, maxE = 2*logM, and
  // u*v = 2^-s survives iff s <= nfrac - maxE (nfrac 25, 16-bit: s <= 11; fp8 nfrac 13: s <= 5).
  for (int s = sc.maxe - 30 + 12; s <= 30 - sc.maxe + 6; ++s) {
    if (s < 1) continue;
    const auto [u, w] = split(s);
    add(v, "Q3.s" + std::to_string(s), "window: cancel 2^" + std::to_string(sc.maxe) +
                                           " pair, keep 2^-" + std::to_string(s) + "?",
        {V(M), V(-M), V(u)}, {V(M), V(M), V(w)}, V(0));
  }
  // Q4 truncation direction of an aligned product: small product = w * ulp, ulp = 2^(maxE-25)
  // (2^(maxE-13) for the fp8 13-bit row). RZ (toward zero): 0.75, -0.75, 0.25, 0.5 -> 0;
  // 1.5 -> 1 ulp, -1.5 -> -1 ulp. Floor: -0.75 -> -1 ulp. RN: 0.75 -> 1 ulp.
  const int nf = cb.nfrac;  // the window width the probes are centred on
  for (double w : {0.75, -0.75, 0.25, -0.25, 1.5, -1.5, 0.5, -0.5}) {
    // small = w * 2^(maxE-nf) = (w * 2^-e1) * 2^(maxE-nf+e1), both factors exact in the type
    const int e1 = is_narrow(cb.at) ? sc.logm / 2 : 5;
    const double u = w * p2(-e1), vv = p2(sc.maxe - nf + e1);
    char id[32];
    std::snprintf(id, sizeof id, "Q4.w%+.2f", w);
    add(v, id, "truncation direction of a product of w window-ulps", {V(M), V(-M), V(u)},
        {V(M), V(M), V(vv)}, V(0));
  }
  // Q5 is C truncated like a product? A=[M,-M], B=[M,M], C = 2^-s and +-0.75/1.5 ulp.
  if (!f16d) {
    for (int s = nf - sc.maxe - 2; s <= nf - sc.maxe + 3; ++s)
      add(v, "Q5.s" + std::to_string(s), "C=2^-" + std::to_string(s) + " next to a cancelling pair",
          {V(M), V(-M)}, {V(M), V(M)}, V(p2(-s)));
    for (double w : {0.75, -0.75, 1.5, -1.5}) {
      char id[32];
      std::snprintf(id, sizeof id, "Q5.w%+.2f", w);
      add(v, id, "C = w window-ulps next to a cancelling pair", {V(M), V(-M)}, {V(M), V(M)},
          V(w * p2(sc.maxe - nf)));
    }
  }
  // Q6 final rounding. (a) 1 + 2^-p: exact while p <= 23 (f32) / 10 (f16); beyond, RZ drops it,
  // RN rounds ties to even. (b) product 1 plus C = w ulps of the output at 1.0.
  const int ofrac = f16d ? 10 : cb.f32_out_frac;
  for (int p = ofrac - 1; p <= ofrac + 3; ++p)
    add(v, "Q6.p" + std::to_string(p), "1*1 + 2^-p*1", {V(1), V(p2(-p))}, {V(1), V(1)}, V(0));
  add(v, "Q6.tie", "1 + 2^-(f+1) + 2^-(f+2): above the tie", {V(1), V(p2(-ofrac - 1)), V(p2(-ofrac - 2))},
      {V(1), V(1), V(1)}, V(0));
  for (double w : {0.75, -0.75, 0.5, -0.5, 0.25, -0.25, 1.5, -1.5}) {
    char id[32];
    std::snprintf(id, sizeof id, "Q6.w%+.2f", w);
    add(v, id, "product 1.0 + C = w ulps of the output", {V(1)}, {V(1)}, V(w * p2(-ofrac)));
  }
  // Q6c output rounding away from 1.0: sum of 4 * (M/2)^2 = M^2 with C = 0.75 ulp(M^2)
  add(v, "Q6.big", "4*(M/2)^2 + 0.75 ulp", {V(M / 2), V(M / 2), V(M / 2), V(M / 2)},
      {V(M / 2), V(M / 2), V(M / 2), V(M / 2)}, V(0.75 * p2(2 * sc.logm - ofrac)));

  // Q7 group size (FPRev): all a_k = b_k = y except a_j = b_j = X, C = -X^2. One fused group of
  // K: X^2 cancels C and every y^2 (below the window) is truncated -> 0 for every j. Groups of
  // g chained: j in an earlier group -> the later groups' y^2 terms survive: (#later) * y^2.
  {
    const double X = M, y = is_narrow(cb.at) ? p2(-sc.logm) : p2(-9);
    for (int j = 0; j < K; ++j) {
      std::vector<El> a(K, V(y));
      a[j] = V(X);
      add(v, "Q7.j" + std::to_string(j), "group size: X at k=j, y elsewhere, C=-X^2", a, a,
          V(-X * X));
    }
  }
  // Q8 products aligned by e_a+e_b, not renormalised: [1.5M1,-1.5M1].[1.5M2,1.5M2] + C
  //   unnormalised: maxE = log M1 + log M2, C = 2^(maxE-nfrac) kept; normalised: dropped
  {
    const int l1 = is_narrow(cb.at) ? sc.logm / 2 : 6, l2 = l1 + 1;
    const double m1 = 1.5 * p2(l1), m2 = 1.5 * p2(l2);
    add(v, "Q8", "unnormalised product exponent", {V(m1), V(-m1)}, {V(m2), V(m2)},
        V(p2(l1 + l2 - nf)));
  }
  // Q10 C alone (A = B = 0): SageAttention2 - the 13-bit fp8 path truncates C = 1+2^-23 to 1.0
  add(v, "Q10.c1", "C alone: 1 + 2^-23 (f32) / 1 + 2^-10 (f16)", {}, {},
      f16d ? V(1 + p2(-10)) : V(1 + p2(-23)));
  add(v, "Q10.c2", "C alone: 1 + 2^-13", {}, {}, V(1 + p2(-13)));
  add(v, "Q10.c3", "C alone: 1 + 2^-14", {}, {}, f16d ? V(1 + p2(-10)) : V(1 + p2(-14)));
  // Q11 fp8 long accumulation (GH200 notes): a=b=1/16 x32, D fed back 600 times: the 13-bit
  // window stalls at exactly 64.0 (0x42800000); a 25-bit window reaches 75.0.
  if (is8(cb.at) && is8(cb.bt)) {
    std::vector<El> s(K, V(p2(-4)));
    add(v, "Q11.stall", "32 x (1/16)^2 chained 600 times from 0", s, s, V(0), 600);
    add(v, "Q11.32", "32 + 32 x (1/16)^2 (13-bit: 32.125)", s, s, V(32));
  }
  // Q12 signed zero of an exact-zero result (models: always +0; IEEE RN: -0 only if all -0)
  add(v, "Q12.a", "C=-0, all products +0", {}, {}, R(f16d ? 0x8000u : 0x80000000u));
  add(v, "Q12.b", "C=+0, product -0*1", {V(-0.0)}, {V(1)}, V(0));
  {  // every one of the K products must be -0 for an IEEE sum to stay -0 (padding too)
    const std::vector<El> mz(K, V(-0.0)), one(K, V(1)), pz(K, V(0));
    add(v, "Q12.c", "C=-0, all K products -0*1 (every term -0)", mz, one, R(f16d ? 0x8000u : 0x80000000u));
    add(v, "Q12.f", "C=-0, all K products -0*+0", mz, pz, R(f16d ? 0x8000u : 0x80000000u));
    add(v, "Q12.g", "C=+0, all K products -0*1", mz, one, V(0));
  }
  add(v, "Q12.d", "C=-0, products 1 and -1 cancel", {V(1), V(-1)}, {V(1), V(1)},
      R(f16d ? 0x8000u : 0x80000000u));
  add(v, "Q12.e", "C=-1, product 1 (cancel to zero)", {V(1)}, {V(1)}, V(-1));
  // Q13 NaN / Inf: canonical NaN (0x7fffffff / 0x7fff) or propagated payload/sign?
  {
    struct NanCode {
      DType t;
      uint32_t code;
      const char* what;
    };
    const NanCode nans[] = {
        {DType::F16, 0x7e00, "f16 qNaN"},        {DType::F16, 0x7c01, "f16 sNaN"},
        {DType::F16, 0xfe00, "f16 -qNaN"},       {DType::BF16, 0x7fc0, "bf16 qNaN"},
        {DType::BF16, 0x7f81, "bf16 sNaN"},      {DType::BF16, 0xffc0, "bf16 -qNaN"},
        {DType::TF32, 0x7fc00000u, "tf32 qNaN"}, {DType::TF32, 0x7f802000u, "tf32 sNaN"},
        {DType::TF32, 0x7f800001u, "tf32 NaN payload in ignored bits (Inf after truncation?)"},
        {DType::TF32, 0xffc00000u, "tf32 -qNaN"}, {DType::E4M3, 0x7f, "e4m3 NaN"},
        {DType::E4M3, 0xff, "e4m3 -NaN"},        {DType::E5M2, 0x7d, "e5m2 sNaN"},
        {DType::E5M2, 0x7e, "e5m2 qNaN"},        {DType::E5M2, 0xff, "e5m2 -NaN"},
    };
    int i = 0;
    for (const NanCode& n : nans)
      if (n.t == cb.at)
        add(v, "Q13.nan" + std::to_string(i++), std::string("NaN in A: ") + n.what, {R(n.code)},
            {V(1)}, V(0));
    const double inf = std::numeric_limits<double>::infinity();
    add(v, "Q13.infmininf", "Inf - Inf", {V(inf), V(inf)}, {V(1), V(-1)}, V(0));
    add(v, "Q13.zeroinf", "0 * Inf", {V(inf)}, {V(0)}, V(0));
    add(v, "Q13.inf", "Inf * 1 + 1", {V(inf)}, {V(1)}, V(1));
    add(v, "Q13.neginf", "-Inf * 1", {V(-inf)}, {V(1)}, V(0));
    add(v, "Q13.cinf", "C=+Inf, finite products", {V(1)}, {V(1)}, V(inf));
    add(v, "Q13.cinfminf", "C=+Inf, product -Inf", {V(-inf)}, {V(1)}, V(inf));
    if (f16d) {
      add(v, "Q13.cnan1", "C = f16 NaN 0x7e01", {V(1)}, {V(1)}, R(0x7e01));
      add(v, "Q13.cnan2", "C = f16 -NaN 0xfe00", {V(1)}, {V(1)}, R(0xfe00));
      add(v, "Q13.cnan3", "C = f16 sNaN 0x7c01", {V(1)}, {V(1)}, R(0x7c01));
    } else {
      add(v, "Q13.cnan1", "C = f32 NaN 0x7fc00001", {V(1)}, {V(1)}, R(0x7fc00001u));
      add(v, "Q13.cnan2", "C = f32 -NaN 0xffc00000", {V(1)}, {V(1)}, R(0xffc00000u));
      add(v, "Q13.cnan3", "C = f32 sNaN 0x7f800001", {V(1)}, {V(1)}, R(0x7f800001u));
    }
  }
  // Q14 overflow: no intermediate overflow, final overflow -> Inf even with RZ
  if (!f16d && (cb.at == DType::BF16 || cb.at == DType::TF32)) {
    add(v, "Q14.cancel", "[2^127,2^127].[2^127,-2^127] + 0 -> +0", {V(p2(127)), V(p2(127))},
        {V(p2(127)), V(-p2(127))}, V(0));
    add(v, "Q14.over", "2^127*2 + 2^127*2 -> +Inf", {V(p2(127)), V(p2(127))}, {V(2), V(2)}, V(0));
    add(v, "Q14.cover", "C=2^127 + 2^127*1 -> +Inf (KM)", {V(p2(127))}, {V(1)}, V(p2(127)));
    add(v, "Q14.max", "C=FLT_MAX + 2^103 (RZ keeps FLT_MAX)", {V(p2(103))}, {V(1)},
        R(0x7f7fffffu));
  }
  if (f16d && cb.at == DType::F16) {
    add(v, "Q14.h65520", "65520 = tie between 65504 and 2^16 -> RNE Inf, RZ 65504",
        {V(256), V(16)}, {V(255), V(15)}, V(0));
    add(v, "Q14.h65519", "65519 -> 65504", {V(256), V(239)}, {V(255), V(1)}, V(0));
  }
  if (f16d && cb.at == DType::E4M3 && cb.bt == DType::E4M3)
    add(v, "Q14.fp8", "448*448 = 200704 > 65504 -> Inf", {V(448)}, {V(448)}, V(0));
  // Q15 subnormals in and out
  if (cb.at == DType::F16)
    add(v, "Q15.f16in", "4 x 2^-24 -> 2^-22", {V(p2(-24)), V(p2(-24)), V(p2(-24)), V(p2(-24))},
        {V(1), V(1), V(1), V(1)}, V(0));
  if (f16d) add(v, "Q15.f16out", "2^-15 * 1 -> subnormal f16 D 0x0200", {V(p2(-15))}, {V(1)}, V(0));
  add(v, "Q15.cpass", "A=B=0, C = smallest subnormal", {}, {}, R(f16d ? 0x0001u : 0x00000001u));
  if (cb.at == DType::E4M3) add(v, "Q15.e4m3", "2^-9 * 1", {V(p2(-9))}, {V(1)}, V(0));
  if (cb.at == DType::E5M2) add(v, "Q15.e5m2", "2^-16 * 1", {V(p2(-16))}, {V(1)}, V(0));
  if (cb.at == DType::BF16) {
    add(v, "Q15.bf16", "2^-133 * 1", {V(p2(-133))}, {V(1)}, V(0));
    add(v, "Q15.bf16out", "2^-70 * 2^-70 -> f32 subnormal 2^-140", {V(p2(-70))}, {V(p2(-70))}, V(0));
  }
  if (cb.at == DType::TF32) add(v, "Q15.tf32", "2^-136 * 2^10", {V(p2(-136))}, {V(p2(10))}, V(0));
  // Q16 tf32 operands: bits 12..0 truncated (wgmma per PTX) or rounded (mma.sync: not stated)
  //   0x3f801fff: trunc 1.0, RN/RNA 1+2^-10 | 0x3f801000 (tie): trunc/RNE 1.0, RNA 1+2^-10
  //   0x3f803000 (tie, odd): trunc 1+2^-10, RNE/RNA 1+2^-9 | 0x3f800fff: 1.0 in all
  if (cb.at == DType::TF32) {
    for (uint32_t w : {0x3f801fffu, 0x3f801000u, 0x3f803000u, 0x3f800fffu}) {
      add(v, "Q16.a" + hex(w, 8), "tf32 A word with low bits", {R(w)}, {V(1)}, V(0));
      add(v, "Q16.b" + hex(w, 8), "tf32 B word with low bits", {V(1)}, {R(w)}, V(0));
    }
  }
  // Q17 FASI: carry (1+1.5+1.75+1.875+1.875 = 8) and monotonicity in C
  add(v, "Q17.carry", "1+1.5+1.75+1.875 + C=1.875 = 8", {V(1), V(1), V(1), V(1)},
      {V(1), V(1.5), V(1.75), V(1.875)}, V(1.875));
  if (!f16d && !is8(cb.at)) {
    const std::vector<El> a = {V(0.5), V(0.5), V(0.5), V(0.5)},
                          b = {V(p2(-24)), V(p2(-24)), V(p2(-24)), V(3 * p2(-24))};
    add(v, "Q17.mono1", "monotonicity: C = 1 - 2^-24", a, b, V(1 - p2(-24)));
    add(v, "Q17.mono2", "monotonicity: C = 1 (result must not be smaller)", a, b, V(1));
  }
  // Q20 does a zero operand take part in the max exponent? (KM: no; MMA-Sim: zero = 2^-126)
  if (cb.at == DType::BF16 || cb.at == DType::TF32) {
    add(v, "Q20.a", "[0,2^-15].[2^127,2^-15]: KM 2^-30, MMA-Sim 0", {V(0), V(p2(-15))},
        {V(p2(127)), V(p2(-15))}, V(0));
    add(v, "Q20.a-", "[-0,2^-15].[2^127,2^-15]", {V(-0.0), V(p2(-15))}, {V(p2(127)), V(p2(-15))}, V(0));
    add(v, "Q20.aB", "[2^127,2^-15].[0,2^-15] (zero in B)", {V(p2(127)), V(p2(-15))},
        {V(0), V(p2(-15))}, V(0));
  }
  if (cb.at == DType::F16)
    add(v, "Q20.b", "[0,2^-24].[2^15,2^-24]: KM/MMA-Sim 2^-48, zero=emin 0", {V(0), V(p2(-24))},
        {V(p2(15)), V(p2(-24))}, V(0));
  if (is_narrow(cb.at) && is_narrow(cb.bt)) {
    const auto maxv = [](DType t) {
      switch (t) {
        case DType::E4M3: return 448.0;
        case DType::E5M2: return 57344.0;
        case DType::E3M2: return 28.0;
        case DType::E2M3: return 7.5;
        default: return 6.0;
      }
    };
    const auto minv = [](DType t) {
      switch (t) {
        case DType::E4M3: return p2(-9);
        case DType::E5M2: return p2(-16);
        case DType::E3M2: return p2(-4);
        case DType::E2M3: return p2(-3);
        default: return p2(-1);
      }
    };
    const double big = maxv(cb.bt), tiny_a = minv(cb.at), tiny_b = minv(cb.bt);
    add(v, "Q20.c", "[0,tiny].[max,tiny]: KM keeps tiny^2, zero=emin drops it", {V(0), V(tiny_a)},
        {V(big), V(tiny_b)}, V(0));
  }
  return v;
}

inline std::vector<Probe> int_probes(const ProbeTarget& cb) {
  std::vector<Probe> v;
  const bool as = cb.at == DType::S8, bs = cb.bt == DType::S8;
  const double amin = as ? -128 : 0, amax = as ? 127 : 255, bmin = bs ? -128 : 0,
               bmax = bs ? 127 : 255;
  const int K = cb.K;
  // Q18 int32 overflow: wrap (two's complement) without .satfinite, clamp with it
  double pmax = -1e9, pmin = 1e9, xa = 0, xb = 0, ya = 0, yb = 0;
  for (double x : {amin, amax})
    for (double y : {bmin, bmax}) {
      if (x * y > pmax) pmax = x * y, xa = x, xb = y;
      if (x * y < pmin) pmin = x * y, ya = x, yb = y;
    }
  const auto fill = [&](double x) { return std::vector<El>(K, V(x)); };
  add(v, "Q18.pos", "largest products x K, C = INT32_MAX - 100 (wraps / clamps)", fill(xa),
      fill(xb), R(0x7fffff9bu));
  if (pmin < 0)
    add(v, "Q18.neg", "most negative products x K, C = INT32_MIN + 100", fill(ya), fill(yb),
        R(0x80000064u));
  add(v, "Q18.max", "C = INT32_MAX, products 0", {}, {}, R(0x7fffffffu));
  add(v, "Q18.exact", "mixed products", {V(amin), V(amax), V(1)}, {V(bmax), V(bmin), V(1)},
      V(12345));
  return v;
}


}  // namespace probes
