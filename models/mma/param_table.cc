#include "models/mma/param_table.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace tcsim::models::mma {
namespace {

using D = DType;
using K = MmaKind;

// Datapath presets (docs/mma_numerics.md §2). The zero-operand rule, the C=0 rule and the exponent
// floor default to sf-tensor's hardware-fitted tcgen05 model (zero products and a zero C take
// no part in maxE, no floor), which also reproduces all 60 B200 words; on sm_90a they are
// assumed to match until probes Q1/Q2/Q20 run (kernels/probes/).
constexpr Numerics fused(int group, int nfrac) {
  Numerics n;
  n.group = group;
  n.nfrac = nfrac;
  return n;
}
// Hopper fp8: 32 products, 13 fraction bits (C truncated too), f32 D rounded toward zero to 13
// fraction bits ("FP22" = e8m13; DSV3 §3.3.2, SageAttention2, MMA-Sim f32_e8m13, KM neab=-10).
constexpr Numerics hopper_fp8() {
  Numerics n = fused(32, 13);
  n.f32_out_frac = 13;
  return n;
}
// mma.sync e4m3/e5m2 on sm_90a and sm_100a: not an fp8 tensor-core datapath but ptxas's emulation
// on the f16 one (numerics.h Structure::F16Halves): two HMMAs of the row's f16 mma.sync numbers
// (fused 16 products, 25 bits) over the products with k%4 in {0,1} (C = +0) and then k%4 in
// {2,3}, and one IEEE RN add of C (FADD / HADD2). SASS: kernels/probes/results/h200-2026-11-30/
// sass_mma_sync_fp8.txt.
constexpr Numerics f16_halves() {
  Numerics n = fused(16, 25);
  n.structure = Structure::F16Halves;
  return n;
}
// Block-scaled K=64 (mxf4, mxf4nvf4): 16-product exact units, 35 bits below the largest
// E_sA+E_sB (MMA-Sim). The B200 word "nvfp4-k4-product-carry" rules out per-product (and
// per-pair) truncation; it is reproduced with units of 4 (sf-tensor's description of the UE4M3
// path) and of 16 alike (tests/models/mma_b200_words_test.cc); probe B4(e) tells them apart.
constexpr Numerics block4() {
  Numerics n = fused(0, 25);
  n.bs_unit = 16;
  n.bs_nfrac = 35;
  return n;
}

constexpr D kFp8[] = {D::E4M3, D::E5M2};
constexpr D kF8F6F4[] = {D::E4M3, D::E5M2, D::E2M3, D::E3M2, D::E2M1};
constexpr D kI8[] = {D::S8, D::U8};

struct Family {
  Arch arch;
  Path path;
  K kind;
  std::span<const D> atypes, btypes;  // every A x B combination
  std::span<const D> dtypes;
  uint8_t ks[3];
  Numerics num;
  Confidence conf;
  std::string_view source;
  bool same_type = false;  // only A == B pairs
};

constexpr D kF16[] = {D::F16};
constexpr D kBF16[] = {D::BF16};
constexpr D kTF32[] = {D::TF32};
constexpr D kE2M1[] = {D::E2M1};
constexpr D kDF32[] = {D::F32};
constexpr D kDF16[] = {D::F16};
constexpr D kDBoth[] = {D::F32, D::F16};
constexpr D kDS32[] = {D::S32};

using C = Confidence;

// clang-format off
const Family kFamilies[] = {
  // ---------------------------------------------------------------- sm_90a (H100/H200) mma.sync
  // "H200 2026-11-30": kernels/probes/results/h200-2026-11-30/ (NVIDIA H200, driver 580.159.04,
  // CUDA 13.0): every Q1-Q20 probe line (probes_sm90.txt) and 10,000,000 random + adversarial
  // outputs per combination (diff_sm90.txt) reproduced; tests/models/mma_h200_results_test.cc
  // replays them. The answers are in that folder's ANSWERS.md.
  {Arch::Sm90a, Path::MmaSync, K::F16, kF16, kF16, kDBoth, {8, 16, 0}, fused(16, 25), C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): probes 97/97 (f32 D), 91/91 "
   "(f16 D), differential 10M/10M each; published H100+H200 fp16 vectors 5000/5000. One group of "
   "16 (Q7), 25 bits (Q3), RZ f32 / RN f16 (Q6), zero operands skip maxE (Q20), an f16 C keeps "
   "its f16 exponent (Q2), zero results +0 (Q12), canonical NaN 7fffffff/7fff (Q13)"},
  {Arch::Sm90a, Path::MmaSync, K::F16, kBF16, kBF16, kDF32, {8, 16, 0}, fused(16, 25), C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): probes 110/110, differential "
   "10M/10M; published H100+H200 bf16 vectors 5000/5000. No exponent floor at -126 with C=+0 "
   "(Q1: 16 x 2^-152 -> 2^-148); bf16 0*2^127 does not raise maxE (Q20)"},
  {Arch::Sm90a, Path::MmaSync, K::TF32, kTF32, kTF32, kDF32, {4, 8, 0}, fused(8, 25), C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): probes 110/110, differential "
   "10M/10M; published H100+H200 tf32 vectors (K=4) 5000/5000. Operand bits 12..0 ignored "
   "(truncation, Q16), one group of 8"},
  {Arch::Sm90a, Path::MmaSync, K::F8F6F4, kFp8, kFp8, kDBoth, {16, 32, 0}, f16_halves(),
   C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): not an fp8 datapath (Q10) but "
   "ptxas's emulation F2FP fp8->f16, HMMA(k%4<2, C=0), HMMA(k%4>=2, chained), FADD/HADD2 of C "
   "(RN); reproduces all 828 probe lines and the recorded differential mismatches, where the "
   "earlier wgmma-like row (32 products, 13 bits) matched 52-87%; KM's published H100/H200 fp8 "
   "f16-D files (mma.sync) 5000/5000 (Q9: their f16 D is this structure's)"},
  {Arch::Sm90a, Path::MmaSync, K::I8, kI8, kI8, kDS32, {16, 32, 0}, fused(0, 25), C::Hardware,
   "exact s32 sum, wrap or .satfinite clamp (PTX ISA §9.7.14.5.14); confirmed on hardware (H200, "
   "driver 580.159.04, 2026-11-30): Q18 probes, differential 10M/10M for all 8 s8/u8 variants"},
  // ------------------------------------------------------------------ sm_90a (H100/H200) wgmma
  // The same run: SS (A from shared memory) and RS (A from registers) agree bit for bit on every
  // probe and differential output; imm-scale-a = -1 negates A exactly (bf16, e4m3 checked).
  {Arch::Sm90a, Path::Wgmma, K::F16, kF16, kF16, kDBoth, {16, 0, 0}, fused(16, 25), C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): SS and RS, probes 97/97 (f32 D) "
   "and 91/91 (f16 D), differential 10,002,432/10,002,432 each; same datapath as mma.sync k16"},
  {Arch::Sm90a, Path::Wgmma, K::F16, kBF16, kBF16, kDF32, {16, 0, 0}, fused(16, 25), C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): SS, RS and SS with "
   "imm-scale-a=-1, probes 110/110, differential 10,002,432/10,002,432 each"},
  {Arch::Sm90a, Path::Wgmma, K::TF32, kTF32, kTF32, kDF32, {8, 0, 0}, fused(8, 25), C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): SS and RS, probes 110/110, "
   "differential 10,002,432/10,002,432 each; operands truncated (PTX ISA §9.7.15.5.2, Q16)"},
  {Arch::Sm90a, Path::Wgmma, K::F8F6F4, kFp8, kFp8, kDF32, {32, 0, 0}, hopper_fp8(), C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): all four type pairs, SS, RS and "
   "imm-scale-a=-1, probes 100-121/100-121, differential 10,002,432/10,002,432 each: one group "
   "of 32, 13 bits (C truncated too), RZ to e8m13 (Q3-Q6, Q10 C alone 1+2^-23 -> 1.0, Q11 stall "
   "at 64.0); published H100+H200 e4m3/e5m2 vectors (C=0) 5000/5000"},
  {Arch::Sm90a, Path::Wgmma, K::F8F6F4, kFp8, kFp8, kDF16, {32, 0, 0}, fused(32, 13), C::Hardware,
   "confirmed on hardware (H200, driver 580.159.04, 2026-11-30): all four type pairs, SS and RS, "
   "probes 90-112, differential 10,002,432/10,002,432 each (Q9): the same 32-product 13-bit "
   "window, then RN to f16 from the truncated sum"},
  {Arch::Sm90a, Path::Wgmma, K::I8, kI8, kI8, kDS32, {32, 0, 0}, fused(0, 25), C::Hardware,
   "exact s32 sum, wrap or .satfinite clamp (PTX ISA §9.7.15.5.2); confirmed on hardware (H200, "
   "driver 580.159.04, 2026-11-30): Q18 probes, differential 10,002,432/10,002,432 (SS and RS, "
   "s8/u8 pairs, .satfinite for s8*s8 and u8*u8)"},
  // ----------------------------------------------------------------- sm_100a (B200) tcgen05.mma
  {Arch::Sm100a, Path::Tcgen05, K::F16, kF16, kF16, kDBoth, {16, 0, 0}, fused(16, 25), C::Hardware,
   "B200 tcgen05 words (f16 random, -0, subnormal, NaN, Inf, 0*Inf) reproduced; MMA-Sim "
   "tcgen05 and KM B200TC (fma=16, neab=2) agree; f16 D from MMA-Sim/sf-tensor"},
  {Arch::Sm100a, Path::Tcgen05, K::F16, kBF16, kBF16, kDF32, {16, 0, 0}, fused(16, 25), C::Hardware,
   "B200 tcgen05 bf16 words (2 random incl. overflow to Inf, specials) reproduced; MMA-Sim, KM"},
  {Arch::Sm100a, Path::Tcgen05, K::TF32, kTF32, kTF32, kDF32, {8, 0, 0}, fused(8, 25), C::Hardware,
   "B200 tcgen05 tf32 words (random, specials, NaN payload only in ignored bits -> Inf) "
   "reproduced; MMA-Sim, KM (fma=8)"},
  {Arch::Sm100a, Path::Tcgen05, K::F8F6F4, kF8F6F4, kF8F6F4, kDF32, {32, 0, 0}, fused(32, 25),
   C::Hardware,
   "B200 words for e4m3, e5m2, e2m3, e3m2, e2m1 (same-type pairs) reproduced: the Hopper 13-bit "
   "limit is gone (25 bits: MMA-Sim, KM B200TC, DeepGEMM #176)", true},
  {Arch::Sm100a, Path::Tcgen05, K::F8F6F4, kF8F6F4, kF8F6F4, kDBoth, {32, 0, 0}, fused(32, 25),
   C::PublishedModel,
   "mixed A/B types and f16 D: sf-tensor's hardware-fitted model (same 25-bit window, f16 D RNE); "
   "the B200 words check only their NaN handling; probes B2/B9"},
  {Arch::Sm100a, Path::Tcgen05, K::I8, kI8, kI8, kDS32, {32, 0, 0}, fused(0, 25), C::Hardware,
   "B200 words for all four s8/u8 pairs, wrap and saturate, reproduced (PTX ISA §9.7.16.4.2)"},
  {Arch::Sm100a, Path::Tcgen05, K::MXF8F6F4, kE2M1, kE2M1, kDF32, {32, 0, 0}, fused(32, 25),
   C::Hardware,
   "B200 words mxf8f6f4-e2m1 and its NaN scale reproduced: UE8M0 exponents added to the product "
   "exponents before the 25-bit window (MMA-Sim); probe B3"},
  {Arch::Sm100a, Path::Tcgen05, K::MXF8F6F4, kF8F6F4, kF8F6F4, kDF32, {32, 0, 0}, fused(32, 25),
   C::PublishedModel, "MMA-Sim mxf8f6f4 (scale exponents folded into products, 25 bits); probe B3"},
  {Arch::Sm100a, Path::Tcgen05, K::MXF4, kE2M1, kE2M1, kDF32, {64, 0, 0}, block4(), C::Hardware,
   "B200 word mxf4 reproduced (block32 scales); MMA-Sim: 16-element exact chunks x scale "
   "significands, 35 bits below max E_sA+E_sB; probes B4/B5"},
  {Arch::Sm100a, Path::Tcgen05, K::MXF4NVF4, kE2M1, kE2M1, kDF32, {64, 0, 0}, block4(), C::Hardware,
   "B200 words nvfp4 (UE4M3) x2, k4-product-carry, NaN scale, UE8M0 2X/4X reproduced; unit 16 "
   "(MMA-Sim) and 4 (sf-tensor) both fit the carry word; probes B4/B5/B6"},
  // ------------------------------------------------------- sm_100a (B200) legacy mma.sync path
  {Arch::Sm100a, Path::MmaSync, K::F16, kF16, kF16, kDBoth, {8, 16, 0}, fused(16, 25), C::Hardware,
   "published B200 fp16 vectors (wmma, K=16, f32 and f16 D) replay 5000/5000; MMA-Sim "
   "Blackwell mma (25 bits, no split)"},
  {Arch::Sm100a, Path::MmaSync, K::F16, kBF16, kBF16, kDF32, {8, 16, 0}, fused(16, 25),
   C::PublishedModel, "MMA-Sim Blackwell mma; KM B200TC"},
  {Arch::Sm100a, Path::MmaSync, K::TF32, kTF32, kTF32, kDF32, {4, 8, 0}, fused(8, 25),
   C::PublishedModel, "MMA-Sim Blackwell mma (25 bits, no split); KM B200TC (fma=8)"},
  {Arch::Sm100a, Path::MmaSync, K::F8F6F4, kFp8, kFp8, kDBoth, {16, 32, 0}, f16_halves(),
   C::Hardware,
   "ptxas 13.0 emits for sm_100a the same emulation as for sm_90a (F2FP + 2 HMMA + FADD/HADD2); "
   "with the B200 f16 mma.sync numbers it reproduces KM's published B200 mma.sync fp8 files "
   "5000/5000 each (e4m3, e5m2; f32 and f16 D), where the earlier exact-sum + RNE row matched "
   "5000/4999 (f32) and ~62-68% (f16 D); probe B12 would confirm on a B200"},
  {Arch::Sm100a, Path::MmaSync, K::I8, kI8, kI8, kDS32, {16, 32, 0}, fused(0, 25), C::Spec,
   "exact s32 sum, wrap or .satfinite clamp (PTX ISA §9.7.14.5.14)"},
};
// clang-format on

std::vector<ParamRow> expand() {
  std::vector<ParamRow> rows;
  const auto find = [&](const ParamRow& r) -> ParamRow* {
    for (auto& x : rows)
      if (x.arch == r.arch && x.path == r.path && x.kind == r.kind && x.atype == r.atype &&
          x.btype == r.btype && x.dtype == r.dtype)
        return &x;
    return nullptr;
  };
  for (const Family& f : kFamilies)
    for (D a : f.atypes)
      for (D b : f.btypes)
        for (D d : f.dtypes) {
          if (f.same_type && a != b) continue;
          ParamRow r{f.arch, f.path, f.kind, a, b, d, {f.ks[0], f.ks[1], f.ks[2]}, f.num, f.conf,
                     f.source};
          // A family listed earlier is more specific (e.g. same-type tcgen05 f8f6f4 confirmed by
          // hardware words): later families fill only the combinations still missing.
          if (!find(r)) rows.push_back(r);
        }
  return rows;
}

}  // namespace

std::string_view path_name(Path p) {
  switch (p) {
    case Path::MmaSync: return "mma.sync";
    case Path::Wgmma: return "wgmma";
    case Path::Tcgen05: return "tcgen05";
  }
  return "?";
}

std::optional<Path> parse_path(std::string_view s) {
  for (Path p : {Path::MmaSync, Path::Wgmma, Path::Tcgen05})
    if (path_name(p) == s) return p;
  return std::nullopt;
}

std::string_view confidence_name(Confidence c) {
  switch (c) {
    case Confidence::Hardware: return "hardware";
    case Confidence::Spec: return "spec";
    case Confidence::PublishedModel: return "published-model";
    case Confidence::Assumed: return "assumed";
  }
  return "?";
}

std::string ParamRow::legal_ks() const {
  std::string s;
  for (uint8_t k : ks) {
    if (!k) continue;
    if (!s.empty()) s += '|';
    s += std::to_string(k);
  }
  return s;
}

std::span<const ParamRow> param_rows() {
  static const std::vector<ParamRow> rows = expand();
  return rows;
}

const ParamRow* find_row(Arch arch, Path path, MmaKind kind, DType a, DType b, DType d) {
  for (const ParamRow& r : param_rows())
    if (r.arch == arch && r.path == path && r.kind == kind && r.atype == a && r.btype == b &&
        r.dtype == d)
      return &r;
  return nullptr;
}

namespace {

std::string_view zero_exp_name(ZeroExp z) {
  switch (z) {
    case ZeroExp::Skip: return "skip";
    case ZeroExp::Fixed: return "fixed";
    case ZeroExp::FormatEmin: return "emin";
  }
  return "?";
}
std::string_view structure_name(Structure s) {
  return s == Structure::F16Halves ? "f16-halves" : "fused";
}
std::string_view round_name(Round r) { return r == Round::RZ ? "rz" : r == Round::RN ? "rn" : "?"; }

bool parse_int(std::string_view v, int& out) {
  const char* e = v.data() + v.size();
  auto [p, ec] = std::from_chars(v.data(), e, out);
  return ec == std::errc() && p == e;
}
bool parse_bool(std::string_view v, bool& out) {
  if (v == "1" || v == "true") return out = true, true;
  if (v == "0" || v == "false") return out = false, true;
  return false;
}
bool parse_round(std::string_view v, Round& out) {
  if (v == "rz") return out = Round::RZ, true;
  if (v == "rn") return out = Round::RN, true;
  return false;
}

}  // namespace

std::string describe(const Numerics& n) {
  std::string s = "structure=" + std::string(structure_name(n.structure)) +
                  " group=" + std::to_string(n.group) +
                  " nfrac=" + (n.nfrac == kExactNfrac ? "exact" : std::to_string(n.nfrac)) +
                  " f32_out_frac=" + std::to_string(n.f32_out_frac) +
                  " f32_round=" + std::string(round_name(n.f32_round)) +
                  " f16_round=" + std::string(round_name(n.f16_round)) +
                  " zero_operand=" + std::string(zero_exp_name(n.zero_operand)) +
                  " zero_operand_exp=" + std::to_string(n.zero_operand_exp) +
                  " c_zero_in_max=" + (n.c_zero_in_max ? "1" : "0") +
                  " c_zero_exp=" + std::to_string(n.c_zero_exp) +
                  " exp_floor=" + (n.exp_floor == kNoFloor ? "none" : std::to_string(n.exp_floor)) +
                  " f16_c_fp32_view=" + (n.f16_c_fp32_view ? "1" : "0") +
                  " zero_sign=" + (n.zero_sign == ZeroSign::Positive ? "positive" : "ieee");
  char buf[32];
  std::snprintf(buf, sizeof buf, " nan_f32=%08x nan_f16=%04x", n.nan_f32, n.nan_f16);
  s += buf;
  s += " bs_unit=" + std::to_string(n.bs_unit) + " bs_nfrac=" + std::to_string(n.bs_nfrac) +
       " bs_zero_units_in_max=" + (n.bs_zero_units_in_max ? "1" : "0");
  return s;
}

std::string set_numerics_field(Numerics& n, std::string_view a) {
  const size_t eq = a.find('=');
  if (eq == std::string_view::npos) return "expected name=value, got '" + std::string(a) + "'";
  const std::string_view k = a.substr(0, eq), v = a.substr(eq + 1);
  const std::string bad = "bad value '" + std::string(v) + "' for " + std::string(k);
  if (k == "structure") {
    if (v == "fused") return n.structure = Structure::Fused, "";
    if (v == "f16-halves") return n.structure = Structure::F16Halves, "";
    return bad + " (fused|f16-halves)";
  }
  if (k == "group") return parse_int(v, n.group) ? "" : bad;
  if (k == "nfrac") {
    if (v == "exact") return n.nfrac = kExactNfrac, "";
    return parse_int(v, n.nfrac) ? "" : bad;
  }
  if (k == "f32_out_frac") return parse_int(v, n.f32_out_frac) ? "" : bad;
  if (k == "f32_round") return parse_round(v, n.f32_round) ? "" : bad + " (rz|rn)";
  if (k == "f16_round") return parse_round(v, n.f16_round) ? "" : bad + " (rz|rn)";
  if (k == "zero_operand") {
    if (v == "skip") return n.zero_operand = ZeroExp::Skip, "";
    if (v == "fixed") return n.zero_operand = ZeroExp::Fixed, "";
    if (v == "emin") return n.zero_operand = ZeroExp::FormatEmin, "";
    return bad + " (skip|fixed|emin)";
  }
  if (k == "zero_operand_exp") return parse_int(v, n.zero_operand_exp) ? "" : bad;
  if (k == "c_zero_in_max") return parse_bool(v, n.c_zero_in_max) ? "" : bad;
  if (k == "c_zero_exp") return parse_int(v, n.c_zero_exp) ? "" : bad;
  if (k == "exp_floor") {
    if (v == "none") return n.exp_floor = kNoFloor, "";
    return parse_int(v, n.exp_floor) ? "" : bad;
  }
  if (k == "f16_c_fp32_view") return parse_bool(v, n.f16_c_fp32_view) ? "" : bad;
  if (k == "zero_sign") {
    if (v == "positive") return n.zero_sign = ZeroSign::Positive, "";
    if (v == "ieee") return n.zero_sign = ZeroSign::Ieee, "";
    return bad + " (positive|ieee)";
  }
  if (k == "nan_f32" || k == "nan_f16") {
    unsigned long x = 0;
    const char* e = v.data() + v.size();
    auto [p, ec] = std::from_chars(v.data(), e, x, 16);
    if (ec != std::errc() || p != e) return bad + " (hex)";
    if (k == "nan_f32") n.nan_f32 = static_cast<uint32_t>(x);
    else n.nan_f16 = static_cast<uint16_t>(x);
    return "";
  }
  if (k == "bs_unit") return parse_int(v, n.bs_unit) ? "" : bad;
  if (k == "bs_nfrac") return parse_int(v, n.bs_nfrac) ? "" : bad;
  if (k == "bs_zero_units_in_max") return parse_bool(v, n.bs_zero_units_in_max) ? "" : bad;
  return "unknown datapath parameter '" + std::string(k) +
         "' (one of: structure group nfrac f32_out_frac f32_round f16_round zero_operand "
         "zero_operand_exp "
         "c_zero_in_max c_zero_exp exp_floor f16_c_fp32_view zero_sign nan_f32 nan_f16 bs_unit "
         "bs_nfrac bs_zero_units_in_max)";
}

}  // namespace tcsim::models::mma
