#include "models/mma/engine.h"

#include <algorithm>
#include <stdexcept>

#include "models/mma/simd_kernels.h"

namespace tcsim::models::mma {
namespace {

bool is_mx4(MmaKind k) { return k == MmaKind::MXF4 || k == MmaKind::MXF4NVF4; }

constexpr int kMaxUnits = 256;  // mxf4 kinds: K / bs_unit terms at most

int imax(int a, int b) { return a > b ? a : b; }

// Aligns one term (value sig * 2^(exp - frac), sig >= 0) to units of 2^(maxE - nfrac), truncating
// toward zero (the magnitude loses its low bits; no sticky): docs/mma_numerics.md §1.
int64_t align(int64_t sig, int exp, int frac, int max_e, int nfrac) {
  // A zero term (a zero C, whose exponent field is arbitrary) aligns to 0 at any distance; shifting
  // it by 64 or more bits would be undefined behaviour (UBSan: shift exponent 92, the ASan+UBSan
  // run of tcsim_models_tests).
  if (sig == 0) return 0;
  const int sh = nfrac - frac - (max_e - exp);
  if (sh >= 0) return sig << sh;
  return -sh >= 63 ? 0 : sig >> -sh;
}

}  // namespace

struct DotEngine::Buf {
  std::vector<int32_t> exp, sig, uexp, usig;
  std::vector<uint8_t> cls, neg, flags;
  int k = 0, blocks = 0;
  void resize(int slots, int k_, int blocks_) {
    k = k_;
    blocks = blocks_ > 0 ? blocks_ : 1;
    const size_t n = static_cast<size_t>(slots) * k;
    if (exp.size() < n) {
      exp.resize(n);
      sig.resize(n);
      cls.resize(n);
      neg.resize(n);
    }
    const size_t nb = static_cast<size_t>(slots) * blocks;
    if (uexp.size() < nb) {
      uexp.resize(nb);
      usig.resize(nb);
    }
    if (flags.size() < static_cast<size_t>(slots)) flags.resize(slots);
  }
  Vec vec(int slot) const {
    const size_t o = static_cast<size_t>(slot) * k, ob = static_cast<size_t>(slot) * blocks;
    return {exp.data() + o, sig.data() + o, cls.data() + o, neg.data() + o,
            uexp.data() + ob, usig.data() + ob, flags[slot]};
  }
};

std::string check_shape(const DotShape& s) {
  const auto name = [](DType t) { return std::string(isa::dtype_name(t)); };
  const auto is_f8f6f4 = [](DType t) {
    return t == DType::E4M3 || t == DType::E5M2 || t == DType::E2M3 || t == DType::E3M2 ||
           t == DType::E2M1;
  };
  const std::string types = name(s.atype) + " x " + name(s.btype) + " -> " + name(s.dtype);
  const std::string kind = "kind::" + std::string(isa::kind_name(s.kind));
  // Type combinations: PTX ISA §9.7.16.2.1 Table 39 (tcgen05), §9.7.15.2 (wgmma), §9.7.14.5 (mma).
  switch (s.kind) {
    case MmaKind::F16:
      if (!((s.atype == DType::F16 && s.btype == DType::F16 &&
             (s.dtype == DType::F32 || s.dtype == DType::F16)) ||
            (s.atype == DType::BF16 && s.btype == DType::BF16 && s.dtype == DType::F32)))
        return kind + " takes f16 x f16 -> f16|f32 or bf16 x bf16 -> f32, not " + types;
      break;
    case MmaKind::TF32:
      if (!(s.atype == DType::TF32 && s.btype == DType::TF32 && s.dtype == DType::F32))
        return kind + " takes tf32 x tf32 -> f32, not " + types;
      break;
    case MmaKind::F8F6F4:
      if (!(is_f8f6f4(s.atype) && is_f8f6f4(s.btype) &&
            (s.dtype == DType::F32 || s.dtype == DType::F16)))
        return kind + " takes e4m3|e5m2|e2m3|e3m2|e2m1 operands -> f32|f16, not " + types;
      break;
    case MmaKind::I8:
      if (!((s.atype == DType::S8 || s.atype == DType::U8) &&
            (s.btype == DType::S8 || s.btype == DType::U8) && s.dtype == DType::S32))
        return kind + " takes s8|u8 operands -> s32, not " + types;
      break;
    case MmaKind::MXF8F6F4:
      if (!(is_f8f6f4(s.atype) && is_f8f6f4(s.btype) && s.dtype == DType::F32))
        return kind + " takes e4m3|e5m2|e2m3|e3m2|e2m1 operands -> f32, not " + types;
      if (s.scale_type != ScaleType::UE8M0 || s.scale_block != 32)
        return kind + " needs ue8m0 scales, one per 32 K (scale_vec::1X) (PTX ISA §9.7.16.10.7)";
      break;
    case MmaKind::MXF4:
    case MmaKind::MXF4NVF4:
      if (!(s.atype == DType::E2M1 && s.btype == DType::E2M1 && s.dtype == DType::F32))
        return kind + " takes e2m1 x e2m1 -> f32, not " + types;
      if (s.kind == MmaKind::MXF4 && (s.scale_type != ScaleType::UE8M0 || s.scale_block != 32))
        return kind + " needs ue8m0 scales, one per 32 K (scale_vec::2X) (PTX ISA §9.7.16.10.7)";
      if (s.kind == MmaKind::MXF4NVF4 &&
          !((s.scale_type == ScaleType::UE8M0 && (s.scale_block == 32 || s.scale_block == 16)) ||
            (s.scale_type == ScaleType::UE4M3 && s.scale_block == 16)))
        return kind + " needs ue8m0 scales per 32 or 16 K, or ue4m3 scales per 16 K "
                      "(PTX ISA §9.7.16.10.7 Table 57)";
      break;
  }
  if (!isa::is_block_scaled(s.kind) && s.scale_type != ScaleType::None)
    return kind + " is not block-scaled; it takes no scale factors";
  if (s.k <= 0 || s.k > 1024) return "K must be in 1..1024, not " + std::to_string(s.k);
  if (s.num.structure == Structure::F16Halves) {
    // ptxas's mma.sync fp8 emulation (numerics.h): e4m3/e5m2 -> f16 conversions, two HMMAs
    // over the k%4 < 2 and k%4 >= 2 halves, one IEEE add of C
    if (s.kind != MmaKind::F8F6F4 || !(s.atype == DType::E4M3 || s.atype == DType::E5M2) ||
        !(s.btype == DType::E4M3 || s.btype == DType::E5M2))
      return "the f16-halves structure (mma.sync fp8 emulation) takes kind::f8f6f4 with e4m3|e5m2 "
             "operands, not " + kind + " " + types;
    if (s.k % 8 != 0)
      return "the f16-halves structure needs K a multiple of 8 (two halves of k%4), not " +
             std::to_string(s.k);
  }
  const int fused_k = s.num.structure == Structure::F16Halves ? s.k / 2 : s.k;
  if (s.num.group < 0 || (s.num.group > 0 && fused_k > s.num.group && fused_k % s.num.group != 0))
    return "K=" + std::to_string(fused_k) + " is not a multiple of the datapath group " +
           std::to_string(s.num.group);
  if (s.scale_block > 0 && s.k % s.scale_block != 0)
    return "K=" + std::to_string(s.k) + " is not a multiple of the scale block " +
           std::to_string(s.scale_block);
  if (is_mx4(s.kind) && (s.num.bs_unit <= 0 || s.scale_block % s.num.bs_unit != 0 ||
                         s.k / s.num.bs_unit > kMaxUnits))
    return "block-scaled reduction unit " + std::to_string(s.num.bs_unit) +
           " must divide the scale block " + std::to_string(s.scale_block) + " (at most " +
           std::to_string(kMaxUnits) + " units)";
  if (s.num.nfrac != kExactNfrac && (s.num.nfrac < 0 || s.num.nfrac > 48))
    return "nfrac must be in 0..48 (or exact), not " + std::to_string(s.num.nfrac);
  if (s.num.bs_nfrac < 0 || s.num.bs_nfrac > 40)
    return "bs_nfrac must be in 0..40, not " + std::to_string(s.num.bs_nfrac);
  if (s.num.f32_out_frac < 1 || s.num.f32_out_frac > 23)
    return "f32_out_frac must be in 1..23, not " + std::to_string(s.num.f32_out_frac);
  for (Round r : {s.num.f32_round, s.num.f16_round})
    if (r != Round::RZ && r != Round::RN) return "final rounding must be RZ or RN";
  if (s.scale_input_d != 0 &&
      (s.kind != MmaKind::F16 && s.kind != MmaKind::TF32))
    return "scale-input-d is only allowed for kind::f16 and kind::tf32 (PTX ISA §9.7.16.10.9.1)";
  if (s.scale_input_d < 0 || s.scale_input_d > 15)
    return "scale-input-d must be in 0..15, not " + std::to_string(s.scale_input_d);
  if ((s.negate_a || s.negate_b) && s.kind == MmaKind::I8)
    return "negate is not supported for kind::i8 (PTX ISA §9.7.16.10.3)";
  if (s.saturate && s.kind != MmaKind::I8) return "saturate is only for kind::i8";
  return {};
}

DotEngine::DotEngine(const DotShape& shape) : s_(shape) {
  if (const std::string e = check_shape(s_); !e.empty()) throw std::invalid_argument(e);
  const bool is_int = s_.kind == MmaKind::I8;
  halves_ = s_.num.structure == Structure::F16Halves;
  if (halves_) {  // the HMMAs see f16 operands (F2FP conversions, exact)
    da_ = Decoder::fp8_as_f16(s_.atype, zero_operand_exp(s_.num, DType::F16));
    db_ = Decoder::fp8_as_f16(s_.btype, zero_operand_exp(s_.num, DType::F16));
  } else {
    da_ = Decoder(s_.atype, is_int ? 0 : zero_operand_exp(s_.num, s_.atype));
    db_ = Decoder(s_.btype, is_int ? 0 : zero_operand_exp(s_.num, s_.btype));
  }
  zero_c_exp_ = s_.num.c_zero_in_max ? s_.num.c_zero_exp : kSkipExp;
  if (s_.dtype != DType::S32) dc_ = Decoder(s_.dtype, zero_c_exp_);
  if (s_.scale_type != ScaleType::None) {
    const DType st = s_.scale_type == ScaleType::UE8M0 ? DType::UE8M0 : DType::UE4M3;
    dscale_ = Decoder(st, zero_operand_exp(s_.num, st));
  }
  fp_ = da_.frac_bits() + db_.frac_bits();
  const int fused_k = halves_ ? s_.k / 2 : s_.k;  // products per HMMA of the emulation
  group_ = s_.num.group > 0 && s_.num.group < fused_k ? s_.num.group : fused_k;  // K <= group: one
  if (is_mx4(s_.kind)) group_ = s_.k;
  out_ = s_.dtype == DType::F16 ? kOutF16 : out_f32(s_.num.f32_out_frac);
  // products fit the 32-bit lanes of simd_kernels.h
  simd_ok_ = s_.num.nfrac != kExactNfrac && s_.num.nfrac <= 29 && s_.num.nfrac >= fp_;
  kernels_ = &simd::kernels();
  round_ = s_.dtype == DType::F16 ? s_.num.f16_round : s_.num.f32_round;
}

void DotEngine::decode_vec(const uint32_t* codes, const uint8_t* scales, const Decoder& d,
                           bool negate, Buf& buf, int slot) const {
  const int k = s_.k;
  const size_t o = static_cast<size_t>(slot) * buf.k;
  int32_t* exp = buf.exp.data() + o;
  int32_t* sig = buf.sig.data() + o;
  uint8_t* cls = buf.cls.data() + o;
  uint8_t* neg = buf.neg.data() + o;
  uint8_t flags = 0;
  const bool mx4 = is_mx4(s_.kind);
  for (int i0 = 0; i0 < k; ++i0) {
    // F16Halves: element k goes to the HMMA that reads its register bytes, k%4 < 2 first (the
    // order inside an HMMA does not matter: its products are fused)
    const int i = halves_ ? ((i0 & 2) ? k / 2 : 0) + (i0 >> 2) * 2 + (i0 & 1) : i0;
    Elem e = d(codes[i0]);
    e.neg ^= negate;
    const auto c = static_cast<FpClass>(e.cls);
    if (c == FpClass::NaN) flags |= kHasSpecial | kHasNaN;
    if (c == FpClass::Inf) flags |= kHasSpecial;
    if (mx4 && e.sig)  // fixed point in units of 2^(emin - frac): e2m1 in halves
      e.sig <<= e.exp - d.emin();
    exp[i] = e.exp;
    sig[i] = e.neg ? -e.sig : e.sig;
    cls[i] = e.cls;
    neg[i] = e.neg;
  }
  if (s_.scale_type != ScaleType::None) {
    const int nb = s_.scale_blocks();
    const size_t ob = static_cast<size_t>(slot) * buf.blocks;
    for (int b = 0; b < nb; ++b) {
      const Elem se = dscale_(scales[b]);
      if (se.cls == static_cast<uint8_t>(FpClass::NaN)) flags |= kHasSpecial | kHasNaN;
      buf.uexp[ob + b] = se.exp;
      buf.usig[ob + b] = se.sig;
      if (s_.kind == MmaKind::MXF8F6F4) {
        // UE8M0 has significand 1: the scale is an exact exponent added to each product's
        // nominal exponent before alignment (docs/mma_numerics.md §2, MMA-Sim).
        for (int i = b * s_.scale_block; i < (b + 1) * s_.scale_block; ++i)
          if (exp[i] != kSkipExp) exp[i] += se.exp;
      }
    }
  }
  buf.flags[slot] = flags;
}

[[gnu::always_inline]] inline Elem DotEngine::decode_c(uint32_t c, bool first) const {
  Elem e = dc_(c);
  if (s_.dtype == DType::F16 && s_.num.f16_c_fp32_view && e.cls == uint8_t(FpClass::Subnormal)) {
    // KM reads an f16 C through its fp32 bit pattern: a subnormal f16 is a normal fp32 with a
    // smaller exponent (probe Q2).
    while (!(e.sig >> 10)) {
      e.sig <<= 1;
      --e.exp;
    }
  }
  if (first && s_.scale_input_d && e.sig) e.exp -= s_.scale_input_d;  // D * 2^-s, exact (B7)
  return e;
}

uint32_t DotEngine::special_or_zero(bool nan, bool pinf, bool ninf) const {
  if (nan || (pinf && ninf)) return s_.dtype == DType::F16 ? s_.num.nan_f16 : s_.num.nan_f32;
  return (ninf ? out_.sign_bit() : 0) | out_.inf();
}

[[gnu::always_inline]] inline uint32_t DotEngine::finish(int64_t s, int lsb_exp,
                                                      bool all_neg_zero) const {
  if (s == 0)
    return (s_.num.zero_sign == ZeroSign::Ieee && all_neg_zero) ? out_.sign_bit() : 0;
  const bool neg = s < 0;
  const uint64_t mag = neg ? uint64_t(0) - uint64_t(s) : uint64_t(s);
  uint32_t r = round_finite(neg, mag, lsb_exp, false, out_, round_);
  if (s_.num.zero_sign == ZeroSign::Positive && (r & ~out_.sign_bit()) == 0) r = 0;
  return r;
}

// Special-value pre-pass (docs/mma_numerics.md §3): any NaN, 0*Inf, or +Inf with -Inf -> NaN;
// otherwise an infinite product or C gives that infinity. Returns false when nothing is special.
[[gnu::noinline]] bool DotEngine::group_special(const Vec& a, const Vec& b, int k0, int k1,
                                                const Elem& ce, uint32_t* out) const {
  const auto ccls = static_cast<FpClass>(ce.cls);
  bool nan = ((a.flags | b.flags) & kHasNaN) || ccls == FpClass::NaN;
  bool pinf = false, ninf = false;
  for (int k = k0; k < k1; ++k) {
    const auto ca = static_cast<FpClass>(a.cls[k]), cb = static_cast<FpClass>(b.cls[k]);
    if (ca == FpClass::NaN || cb == FpClass::NaN) nan = true;
    if (ca == FpClass::Inf || cb == FpClass::Inf) {
      if (ca == FpClass::Zero || cb == FpClass::Zero) nan = true;
      (a.neg[k] ^ b.neg[k] ? ninf : pinf) = true;
    }
  }
  if (ccls == FpClass::Inf) (ce.neg ? ninf : pinf) = true;
  if (!(nan || pinf || ninf)) return false;
  *out = special_or_zero(nan, pinf, ninf);
  return true;
}

bool DotEngine::all_neg_zero(const Vec& a, const Vec& b, int k0, int k1, const Elem& ce) const {
  if (s_.num.zero_sign != ZeroSign::Ieee || ce.sig != 0 || !ce.neg) return false;
  for (int k = k0; k < k1; ++k)
    if (a.sig[k] * b.sig[k] != 0 || !(a.neg[k] ^ b.neg[k])) return false;
  return true;
}

// The exact-sum datapath: no window, one rounding of the exact value.
[[gnu::noinline]] uint32_t DotEngine::group_exact(const Vec& a, const Vec& b, int k0, int k1,
                                                  const Elem& ce) const {
  WideAcc acc;
  for (int k = k0; k < k1; ++k) {
    const int64_t p = int64_t{a.sig[k]} * b.sig[k];
    if (p) acc.add(p < 0, p < 0 ? uint64_t(-p) : uint64_t(p), a.exp[k] + b.exp[k] - fp_);
  }
  acc.add(ce.neg, uint64_t(ce.sig), ce.exp - dc_.frac_bits());
  if (acc.is_zero()) return finish(0, 0, all_neg_zero(a, b, k0, k1, ce));
  uint32_t r = acc.round(out_, round_);
  if (s_.num.zero_sign == ZeroSign::Positive && (r & ~out_.sign_bit()) == 0) r = 0;
  return r;
}

// Products with more than 29 window bits or fewer window bits than product bits (probe
// alternatives only): 64-bit scalar alignment.
[[gnu::noinline]] int64_t DotEngine::sum_wide(const Vec& a, const Vec& b, int k0, int k1,
                                              int* mx) const {
  const int base = s_.num.nfrac - fp_;
  for (int k = k0; k < k1; ++k) *mx = imax(*mx, a.exp[k] + b.exp[k]);
  int64_t sum = 0;
  for (int k = k0; k < k1; ++k) {
    const int32_t p = a.sig[k] * b.sig[k];
    int d = *mx - (a.exp[k] + b.exp[k]) - (base < 0 ? base : 0);
    d = d < 63 ? d : 63;
    const int64_t m = (p < 0 ? -int64_t{p} : int64_t{p}) << (base > 0 ? base : 0);
    const int64_t t = m >> d;
    sum += p < 0 ? -t : t;
  }
  return sum;
}

uint32_t DotEngine::group_fp(const Vec& a, const Vec& b, int k0, int k1, uint32_t c,
                             bool first) const {
  const Elem ce = decode_c(c, first);
  uint32_t special = 0;
  if (((a.flags | b.flags) & kHasSpecial) || ce.cls >= static_cast<uint8_t>(FpClass::Inf))
    if (group_special(a, b, k0, k1, ce, &special)) return special;
  if (s_.num.nfrac == kExactNfrac) return group_exact(a, b, k0, k1, ce);
  // maxE over the products' nominal exponents, C's exponent and the floor (§2.3). Zero operands
  // already carry the zero rule's exponent (kSkipExp keeps them out).
  const int nfrac = s_.num.nfrac;
  int mx = imax(s_.num.exp_floor, ce.sig ? ce.exp : zero_c_exp_);
  int64_t sum = simd_ok_ ? kernels_->group(a.exp + k0, a.sig + k0, b.exp + k0, b.sig + k0,
                                           k1 - k0, nfrac - fp_, &mx)
                         : sum_wide(a, b, k0, k1, &mx);
  if (ce.sig) {
    const int64_t t = align(ce.sig, ce.exp, dc_.frac_bits(), mx, nfrac);
    sum += ce.neg ? -t : t;
  }
  return finish(sum, mx - nfrac, sum == 0 && all_neg_zero(a, b, k0, k1, ce));
}

uint32_t DotEngine::dot_int(const Vec& a, const Vec& b, uint32_t c) const {
  // kind::i8: exact products and sum; wrap modulo 2^32, or clamp with .satfinite / idesc
  // saturate (PTX ISA §9.7.14.5.14, §9.7.15.5.2, §9.7.16.4.2 bit 3).
  int64_t s = static_cast<int32_t>(c);
  for (int k = 0; k < s_.k; ++k) s += int64_t{a.sig[k]} * b.sig[k];
  if (s_.saturate) {
    if (s > INT32_MAX) s = INT32_MAX;
    if (s < INT32_MIN) s = INT32_MIN;
  }
  return static_cast<uint32_t>(static_cast<uint64_t>(s));
}

uint32_t DotEngine::dot_block4(const Vec& a, const Vec& b, uint32_t c) const {
  // The exact integer sum of each unit of bs_unit products (significands in fixed point).
  const int unit = s_.num.bs_unit, nu = s_.k / unit;
  int64_t raw[kMaxUnits];
  for (int u = 0; u < nu; ++u) {
    int64_t acc = 0;
    for (int k = u * unit; k < (u + 1) * unit; ++k) acc += int64_t{a.sig[k]} * b.sig[k];
    raw[u] = acc;
  }
  return combine_block4(a, b, c, raw);
}

uint32_t DotEngine::combine_block4(const Vec& a, const Vec& b, uint32_t c, const int64_t* raw) const {
  // mxf4 / mxf4nvf4 (docs/mma_numerics.md §2, MMA-Sim nv_fused_dot_add_with_block_scale): the exact
  // sum of each unit of bs_unit products (raw), times the two scale significands, is one term with
  // the nominal exponent E_sA + E_sB; C is a term as usual; window bs_nfrac below the max.
  const Elem ce = decode_c(c, true);
  const auto ccls = static_cast<FpClass>(ce.cls);
  if (((a.flags | b.flags) & kHasNaN) || ccls == FpClass::NaN) return special_or_zero(true, 0, 0);
  if (ccls == FpClass::Inf) return special_or_zero(false, !ce.neg, ce.neg);
  const int unit = s_.num.bs_unit, nu = s_.k / unit;
  const int fs = 2 * dscale_.frac_bits();
  const int fe = 2 * (da_.frac_bits() - da_.emin());  // e2m1: products in quarters
  const int nfrac = s_.num.bs_nfrac;
  int64_t usum[kMaxUnits];
  int uexp[kMaxUnits];
  int mx = imax(s_.num.exp_floor, ce.sig ? ce.exp : zero_c_exp_);
  for (int u = 0; u < nu; ++u) {
    const int blk = u * unit / s_.scale_block;
    const int64_t acc = raw[u] * (int64_t{a.unit_scale_sig[blk]} * b.unit_scale_sig[blk]);
    usum[u] = acc;
    uexp[u] = a.unit_scale_exp[blk] + b.unit_scale_exp[blk];
    if (acc != 0 || s_.num.bs_zero_units_in_max) mx = imax(mx, uexp[u]);
  }
  int64_t sum = 0;
  for (int u = 0; u < nu; ++u) {
    if (!usum[u]) continue;
    const int64_t m = usum[u] < 0 ? -usum[u] : usum[u];
    const int64_t t = align(m, uexp[u], fe + fs, mx, nfrac);
    sum += usum[u] < 0 ? -t : t;
  }
  if (ce.sig) {
    const int64_t t = align(ce.sig, ce.exp, dc_.frac_bits(), mx, nfrac);
    sum += ce.neg ? -t : t;
  }
  return finish(sum, mx - nfrac, false);
}

// The tile of the mxf4 kinds: the unit sums of every column of a row at once, in 16-bit lanes
// (e2m1 significands are at most 12 in magnitude, so a product fits in 8 bits and a unit of up
// to 64 products in 15; the loop over columns vectorises), then per output the same combination
// as dot_block4 — the same integers, so the same words.
void DotEngine::tile_block4(int m, int n, const Vec* vecs, const uint32_t* c, uint32_t* d) const {
  const int k = s_.k, unit = s_.num.bs_unit, nu = k / unit;
  thread_local std::vector<int16_t> bt, acc;
  bt.resize(static_cast<size_t>(k) * n);
  acc.resize(static_cast<size_t>(nu) * n);
  for (int j = 0; j < n; ++j)
    for (int kk = 0; kk < k; ++kk) bt[static_cast<size_t>(kk) * n + j] = static_cast<int16_t>(vecs[m + j].sig[kk]);
  int64_t raw[kMaxUnits];
  for (int i = 0; i < m; ++i) {
    const Vec& va = vecs[i];
    std::fill(acc.begin(), acc.end(), int16_t{0});
    for (int u = 0; u < nu; ++u) {
      int16_t* au = acc.data() + static_cast<size_t>(u) * n;
      for (int kk = u * unit; kk < (u + 1) * unit; ++kk) {
        const int16_t av = static_cast<int16_t>(va.sig[kk]);
        if (!av) continue;
        const int16_t* bk = bt.data() + static_cast<size_t>(kk) * n;
        for (int j = 0; j < n; ++j) au[j] = static_cast<int16_t>(au[j] + av * bk[j]);
      }
    }
    for (int j = 0; j < n; ++j) {
      for (int u = 0; u < nu; ++u) raw[u] = acc[static_cast<size_t>(u) * n + j];
      const size_t o = static_cast<size_t>(i) * n + j;
      d[o] = combine_block4(va, vecs[m + j], c[o], raw);
    }
  }
}

// FADD / HADD2 as ptxas uses them after the emulated mma.sync fp8 (PTX add.rn.f32 / add.rn.f16,
// IEEE 754 addition): the exact sum rounded to nearest even, subnormals kept, a NaN result the
// canonical NaN, x + (-x) = +0 and (-0) + (-0) = -0.
uint32_t DotEngine::ieee_add(uint32_t x, uint32_t y) const {
  const OutFormat& f = s_.dtype == DType::F16 ? kOutF16 : kOutF32;
  const Elem ex = dc_(x), ey = dc_(y);
  const auto cx = static_cast<FpClass>(ex.cls), cy = static_cast<FpClass>(ey.cls);
  if (cx == FpClass::NaN || cy == FpClass::NaN) return special_or_zero(true, false, false);
  if (cx == FpClass::Inf || cy == FpClass::Inf) {
    const bool pinf = (cx == FpClass::Inf && !ex.neg) || (cy == FpClass::Inf && !ey.neg);
    const bool ninf = (cx == FpClass::Inf && ex.neg) || (cy == FpClass::Inf && ey.neg);
    return special_or_zero(false, pinf, ninf);
  }
  if (!ex.sig || !ey.sig) {  // x + 0 = x; zeros: +0 unless both are -0
    if (ex.sig) return x;
    if (ey.sig) return y;
    return ex.neg && ey.neg ? f.sign_bit() : 0;
  }
  // |x| >= |y| by exponent; a y more than 31 binades below x is under a quarter ulp of x (whose
  // significand has at most 24 bits): RN returns x unchanged
  const bool swap = ey.exp > ex.exp;
  const Elem& big = swap ? ey : ex;
  const Elem& small = swap ? ex : ey;
  const int gap = big.exp - small.exp;
  if (gap > 31) return swap ? y : x;
  // exact: significands < 2^24, shifted by at most 31 bits
  const int64_t sb = int64_t{big.sig} << gap, ss = small.sig;
  const int64_t sum = (big.neg ? -sb : sb) + (small.neg ? -ss : ss);
  if (sum == 0) return 0;  // x + (-x) = +0 under RN
  const bool neg = sum < 0;
  return round_finite(neg, neg ? uint64_t(-sum) : uint64_t(sum), small.exp - dc_.frac_bits(),
                      false, f, Round::RN);
}

// Structure::F16Halves (numerics.h): the operands are already f16 values, permuted so that the
// first K/2 are the first HMMA's; each HMMA is this row's fused datapath (group_ chained), the
// first with C = +0 (register RZ), then C is added by one IEEE add.
uint32_t DotEngine::dot_halves(const Vec& a, const Vec& b, uint32_t c) const {
  uint32_t p = 0;
  for (int k0 = 0; k0 < s_.k; k0 += group_) p = group_fp(a, b, k0, k0 + group_, p, false);
  return ieee_add(c, p);
}

uint32_t DotEngine::dot_decoded(const Vec& a, const Vec& b, uint32_t c) const {
  if (s_.kind == MmaKind::I8) return dot_int(a, b, c);
  if (is_mx4(s_.kind)) return dot_block4(a, b, c);
  if (halves_) return dot_halves(a, b, c);
  // Groups are chained: each group's rounded result is the next group's C (§1.1.6).
  for (int k0 = 0; k0 < s_.k; k0 += group_) c = group_fp(a, b, k0, k0 + group_, c, k0 == 0);
  return c;
}

uint32_t DotEngine::dot(const uint32_t* a, const uint32_t* b, uint32_t c, const uint8_t* sa,
                        const uint8_t* sb) const {
  thread_local Buf buf;
  buf.resize(2, s_.k, s_.scale_blocks());
  decode_vec(a, sa, da_, s_.negate_a, buf, 0);
  decode_vec(b, sb, db_, s_.negate_b, buf, 1);
  return dot_decoded(buf.vec(0), buf.vec(1), c);
}

// The tile fast path: per row of A, every column's group goes through one row kernel
// (simd_kernels.h); C's decoding and alignment and the rounding are per output, specialised at
// compile time on D's format and rounding mode. Outputs with a special operand or C (or a
// chained group that overflowed) are recomputed by the general path.
template <int kOutFrac, bool kF16, bool kRN>
void DotEngine::tile_rows_t(int m, int n, const Vec* vecs, const uint32_t* c, uint32_t* d) const {
  constexpr OutFormat kOut = kF16 ? kOutF16 : out_f32(kOutFrac);
  constexpr Round kMode = kRN ? Round::RN : Round::RZ;
  thread_local std::vector<int32_t> mx, cexp, csig;
  thread_local std::vector<int64_t> sum;
  thread_local std::vector<uint8_t> slow, cneg;
  thread_local std::vector<uint32_t> c0;  // the row's C words (d may alias c)
  for (auto* v : {&mx, &cexp, &csig}) v->resize(n);
  for (auto* v : {&slow, &cneg}) v->resize(n);
  sum.resize(n);
  c0.resize(n);
  const int k = s_.k, nfrac = s_.num.nfrac, base = nfrac - fp_, fc = dc_.frac_bits();
  const int floor = s_.num.exp_floor;
  const bool ieee_zero = s_.num.zero_sign == ZeroSign::Ieee;
  const Vec* cols = vecs + m;
  for (int i = 0; i < m; ++i) {
    const Vec& va = vecs[i];
    std::copy(c + static_cast<size_t>(i) * n, c + static_cast<size_t>(i + 1) * n, c0.begin());
    uint32_t* di = d + static_cast<size_t>(i) * n;
    for (int j = 0; j < n; ++j) slow[j] = (va.flags | cols[j].flags) & kHasSpecial;
    for (int k0 = 0; k0 < k; k0 += group_) {
      const uint32_t* cin = k0 == 0 ? c0.data() : di;
      for (int j = 0; j < n; ++j) {
        const Elem e = decode_c(cin[j], k0 == 0);
        slow[j] |= e.cls >= static_cast<uint8_t>(FpClass::Inf);
        cexp[j] = e.exp;
        csig[j] = e.sig;
        cneg[j] = e.neg;
        mx[j] = imax(floor, e.sig ? e.exp : zero_c_exp_);
      }
      kernels_->row_group(va.exp + k0, va.sig + k0, cols[0].exp + k0, cols[0].sig + k0, group_,
                          k, n, base, mx.data(), sum.data());
      for (int j = 0; j < n; ++j) {
        const int64_t t = align(csig[j], cexp[j], fc, mx[j], nfrac);
        const int64_t sv = sum[j] + (cneg[j] ? -t : t);
        if (sv == 0) {
          const Elem e{cexp[j], csig[j], 0, cneg[j]};
          di[j] = ieee_zero && all_neg_zero(va, cols[j], k0, k0 + group_, e) ? kOut.sign_bit() : 0;
          continue;
        }
        const bool neg = sv < 0;
        uint32_t r = round_finite(neg, neg ? uint64_t(0) - uint64_t(sv) : uint64_t(sv),
                                  mx[j] - nfrac, false, kOut, kMode);
        if (!ieee_zero && (r & ~kOut.sign_bit()) == 0) r = 0;
        di[j] = r;
      }
    }
    for (int j = 0; j < n; ++j)
      if (slow[j]) di[j] = dot_decoded(va, cols[j], c0[j]);
  }
}

void DotEngine::tile_rows(int m, int n, const Vec* vecs, const uint32_t* c, uint32_t* d) const {
  if (s_.dtype == DType::F16)
    return round_ == Round::RN ? tile_rows_t<10, true, true>(m, n, vecs, c, d)
                               : tile_rows_t<10, true, false>(m, n, vecs, c, d);
  if (s_.num.f32_out_frac == 23)
    return round_ == Round::RN ? tile_rows_t<23, false, true>(m, n, vecs, c, d)
                               : tile_rows_t<23, false, false>(m, n, vecs, c, d);
  if (s_.num.f32_out_frac == 13)
    return round_ == Round::RN ? tile_rows_t<13, false, true>(m, n, vecs, c, d)
                               : tile_rows_t<13, false, false>(m, n, vecs, c, d);
  // other widths (probe alternatives): the general path
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      d[static_cast<size_t>(i) * n + j] = dot_decoded(vecs[i], vecs[m + j], c[static_cast<size_t>(i) * n + j]);
}

void DotEngine::tile(int m, int n, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                     uint32_t* d, const uint8_t* sa, const uint8_t* sb) const {
  thread_local Buf buf;
  const int k = s_.k, nb = s_.scale_blocks();
  buf.resize(m + n, k, nb);
  for (int i = 0; i < m; ++i)
    decode_vec(a + static_cast<size_t>(i) * k, sa ? sa + static_cast<size_t>(i) * nb : nullptr,
               da_, s_.negate_a, buf, i);
  for (int j = 0; j < n; ++j)
    decode_vec(b + static_cast<size_t>(j) * k, sb ? sb + static_cast<size_t>(j) * nb : nullptr,
               db_, s_.negate_b, buf, m + j);
  thread_local std::vector<Vec> vecs;
  vecs.clear();
  for (int v = 0; v < m + n; ++v) vecs.push_back(buf.vec(v));
  if (simd_ok_ && s_.kind != MmaKind::I8 && !is_mx4(s_.kind) && !halves_) {
    tile_rows(m, n, vecs.data(), c, d);
    return;
  }
  if (is_mx4(s_.kind) && s_.num.bs_unit <= 64) {
    // 16-bit unit sums need |significand| <= 12 (e2m1 in halves): true for every e2m1 code.
    bool small = true;
    for (int v = 0; v < m + n && small; ++v)
      for (int kk = 0; kk < k; ++kk) small = small && vecs[v].sig[kk] >= -12 && vecs[v].sig[kk] <= 12;
    if (small) return tile_block4(m, n, vecs.data(), c, d);
  }
  for (int i = 0; i < m; ++i) {
    const Vec& va = vecs[i];
    for (int j = 0; j < n; ++j) {
      const size_t o = static_cast<size_t>(i) * n + j;
      d[o] = dot_decoded(va, vecs[m + j], c[o]);
    }
  }
}

}  // namespace tcsim::models::mma
