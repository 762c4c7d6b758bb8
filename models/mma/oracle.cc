#include "models/mma/oracle.h"

#include <optional>
#include <sstream>

#include "models/formats/convert.h"
#include "models/formats/format.h"

namespace tcsim::models::mma::oracle {
namespace {

// One decoded operand: class, signed exact value and its nominal exponent (the exponent field,
// clamped to emin for subnormals; docs/mma_numerics.md §1).
struct Val {
  FpClass cls = FpClass::Zero;
  bool neg = false;
  Dyadic v;     // signed
  int nominal = 0;
};

Val decode(DType t, uint32_t code, bool negate) {
  Val r;
  if (t == DType::S8 || t == DType::U8) {
    const int x = t == DType::S8 ? static_cast<int8_t>(code & 0xff) : static_cast<int>(code & 0xff);
    r.cls = x ? FpClass::Normal : FpClass::Zero;
    r.neg = x < 0;
    r.v = {BigInt(x), 0};
    return r;
  }
  const Unpacked u = unpack(t, code);
  r.cls = u.cls;
  r.neg = u.neg != negate;
  r.nominal = u.exp;
  if (u.cls == FpClass::Normal || u.cls == FpClass::Subnormal) {
    r.v.m = BigInt(u.sig);
    if (r.neg) r.v.m = -r.v.m;
    r.v.e = u.exp - u.frac_bits;
  }
  return r;
}

bool is_finite(const Val& v) { return v.cls != FpClass::NaN && v.cls != FpClass::Inf; }

Dyadic mul(const Dyadic& a, const Dyadic& b) { return {a.m * b.m, a.e + b.e}; }

Dyadic add(const Dyadic& a, const Dyadic& b) {
  if (a.m == 0) return b;
  if (b.m == 0) return a;
  if (a.e <= b.e) return {a.m + (b.m << (b.e - a.e)), a.e};
  return {(a.m << (a.e - b.e)) + b.m, b.e};
}

// trunc(v / 2^q) toward zero.
BigInt trunc_to(const Dyadic& v, int q) {
  if (v.m == 0) return 0;
  if (v.e >= q) return v.m << (v.e - q);
  const BigInt mag = (v.m < 0 ? BigInt(-v.m) : v.m) >> (q - v.e);
  return v.m < 0 ? BigInt(-mag) : mag;
}

bool is_mx4(MmaKind k) { return k == MmaKind::MXF4 || k == MmaKind::MXF4NVF4; }

struct OutFmt {
  int frac, mant_bits, exp_bits, bias;
};
OutFmt out_fmt(const DotShape& s) {
  if (s.dtype == DType::F16) return {10, 10, 5, 15};
  return {s.num.f32_out_frac, 23, 8, 127};
}
Round out_round(const DotShape& s) {
  return s.dtype == DType::F16 ? s.num.f16_round : s.num.f32_round;
}
uint32_t sign_bit(const OutFmt& f) { return 1u << (f.exp_bits + f.mant_bits); }
uint32_t inf_code(const OutFmt& f) { return ((1u << f.exp_bits) - 1) << f.mant_bits; }

uint32_t encode_special(const DotShape& s, Special sp) {
  const OutFmt f = out_fmt(s);
  switch (sp) {
    case Special::NaN: return s.dtype == DType::F16 ? s.num.nan_f16 : s.num.nan_f32;
    case Special::PosInf: return inf_code(f);
    case Special::NegInf: return sign_bit(f) | inf_code(f);
    case Special::None: break;
  }
  return 0;
}

// Accumulates the special-value outcome (docs/mma_numerics.md §3).
struct SpecialState {
  bool nan = false, pinf = false, ninf = false;
  void product(const Val& a, const Val& b) {
    if (a.cls == FpClass::NaN || b.cls == FpClass::NaN) nan = true;
    if (a.cls == FpClass::Inf || b.cls == FpClass::Inf) {
      if (a.cls == FpClass::Zero || b.cls == FpClass::Zero) nan = true;
      ((a.neg != b.neg) ? ninf : pinf) = true;
    }
  }
  void term(const Val& c) {
    if (c.cls == FpClass::NaN) nan = true;
    if (c.cls == FpClass::Inf) (c.neg ? ninf : pinf) = true;
  }
  Special result() const {
    if (nan || (pinf && ninf)) return Special::NaN;
    if (pinf) return Special::PosInf;
    if (ninf) return Special::NegInf;
    return Special::None;
  }
};

// Nominal exponent of a zero operand under the row's rule; nullopt = takes no part in maxE.
std::optional<int> zero_nominal(const Numerics& n, DType t) {
  switch (n.zero_operand) {
    case ZeroExp::Skip: return std::nullopt;
    case ZeroExp::Fixed: return n.zero_operand_exp;
    case ZeroExp::FormatEmin: return format_spec(t).emin();
  }
  return std::nullopt;
}

std::optional<int> operand_nominal(const Numerics& n, DType t, const Val& v) {
  if (v.cls == FpClass::Zero) return zero_nominal(n, t);
  return v.nominal;
}

struct Scale {
  bool nan = false;
  bool zero = false;
  Dyadic v;
  int nominal = 0;
};

Scale decode_scale(const DotShape& s, uint8_t code) {
  Scale r;
  const DType t = s.scale_type == ScaleType::UE8M0 ? DType::UE8M0 : DType::UE4M3;
  const Unpacked u = unpack(t, code);
  if (u.cls == FpClass::NaN) return r.nan = true, r;
  r.nominal = u.exp;
  r.zero = u.cls == FpClass::Zero;
  r.v = {BigInt(u.sig), u.exp - u.frac_bits};
  return r;
}

// C (or a chained group's input) as a term: value and nominal exponent.
struct CTerm {
  Val val;
  std::optional<int> nominal;
};

CTerm decode_c(const DotShape& s, uint32_t word, bool first) {
  CTerm t;
  if (s.dtype == DType::S32) return t;
  t.val = decode(s.dtype, word, false);
  if (t.val.cls == FpClass::Zero) {
    if (s.num.c_zero_in_max) t.nominal = s.num.c_zero_exp;
    return t;
  }
  if (!is_finite(t.val)) return t;
  int nominal = t.val.nominal;
  if (s.dtype == DType::F16 && s.num.f16_c_fp32_view) {
    // the exponent of the value itself (an f16 subnormal is a normal fp32)
    nominal = t.val.v.e + static_cast<int>(msb(abs(t.val.v.m)));
  }
  if (first && s.scale_input_d) {  // D * 2^-s (tcgen05 scale-input-d), exact
    t.val.v.e -= s.scale_input_d;
    nominal -= s.scale_input_d;
  }
  t.nominal = nominal;
  return t;
}

uint32_t zero_result(const DotShape& s, bool all_neg_zero) {
  if (s.num.zero_sign == ZeroSign::Ieee && all_neg_zero) return sign_bit(out_fmt(s));
  return 0;
}

uint32_t round_out(const DotShape& s, const Dyadic& v) {
  const OutFmt f = out_fmt(s);
  uint32_t r = round_dyadic(v, f.frac, f.mant_bits, f.exp_bits, f.bias, out_round(s));
  if (s.num.zero_sign == ZeroSign::Positive && (r & ~sign_bit(f)) == 0) r = 0;
  return r;
}

std::string str(const Dyadic& d) {
  std::ostringstream o;
  o << d.m << "*2^" << d.e;
  return o.str();
}

struct Decoded {
  std::vector<Val> a, b;
  std::vector<Scale> sa, sb;
  bool nan_scale = false;
};

Decoded decode_all(const DotShape& s, const Inputs& in) {
  Decoded d;
  for (int k = 0; k < s.k; ++k) {
    d.a.push_back(decode(s.atype, in.a[k], s.negate_a));
    d.b.push_back(decode(s.btype, in.b[k], s.negate_b));
  }
  for (int i = 0; i < s.scale_blocks(); ++i) {
    d.sa.push_back(decode_scale(s, in.sa[i]));
    d.sb.push_back(decode_scale(s, in.sb[i]));
    d.nan_scale = d.nan_scale || d.sa.back().nan || d.sb.back().nan;
  }
  return d;
}

uint32_t model_int(const DotShape& s, const Inputs& in) {
  BigInt sum = static_cast<int32_t>(in.c);
  for (int k = 0; k < s.k; ++k)
    sum += decode(s.atype, in.a[k], false).v.m * decode(s.btype, in.b[k], false).v.m;
  if (s.saturate) {
    if (sum > INT32_MAX) sum = INT32_MAX;
    if (sum < INT32_MIN) sum = INT32_MIN;
  }
  const BigInt mod = BigInt(1) << 32;
  BigInt wrapped = sum % mod;  // two's-complement wrap
  if (wrapped < 0) wrapped += mod;
  return static_cast<uint32_t>(wrapped);
}

uint32_t model_mx4(const DotShape& s, const Inputs& in, std::vector<std::string>* trace) {
  const Decoded d = decode_all(s, in);
  const CTerm c = decode_c(s, in.c, true);
  if (d.nan_scale || c.val.cls == FpClass::NaN) return encode_special(s, Special::NaN);
  if (c.val.cls == FpClass::Inf)
    return encode_special(s, c.val.neg ? Special::NegInf : Special::PosInf);
  struct Term {
    Dyadic v;
    std::optional<int> nominal;
  };
  std::vector<Term> terms;
  const int unit = s.num.bs_unit;
  for (int u0 = 0; u0 < s.k; u0 += unit) {
    Dyadic sum;
    for (int k = u0; k < u0 + unit; ++k) sum = add(sum, mul(d.a[k].v, d.b[k].v));
    const int blk = u0 / s.scale_block;
    const Scale &xa = d.sa[blk], &xb = d.sb[blk];
    Term t{mul(mul(sum, xa.v), xb.v), std::nullopt};
    const auto na = xa.zero ? zero_nominal(s.num, DType::UE4M3) : std::optional<int>(xa.nominal);
    const auto nb = xb.zero ? zero_nominal(s.num, DType::UE4M3) : std::optional<int>(xb.nominal);
    if (na && nb && (t.v.m != 0 || s.num.bs_zero_units_in_max)) t.nominal = *na + *nb;
    terms.push_back(t);
  }
  std::optional<int> mx;
  const auto upd = [&](std::optional<int> e) {
    if (e) mx = mx ? std::max(*mx, *e) : *e;
  };
  for (const Term& t : terms) upd(t.nominal);
  upd(c.nominal);
  if (s.num.exp_floor != kNoFloor) upd(s.num.exp_floor);
  if (!mx) return zero_result(s, false);
  const int q = *mx - s.num.bs_nfrac;
  BigInt sum = trunc_to(c.val.v, q);
  for (const Term& t : terms) sum += trunc_to(t.v, q);
  if (trace)
    trace->push_back("mx4: maxE=" + std::to_string(*mx) + " q=2^" + std::to_string(q) +
                     " S=" + sum.str());
  if (sum == 0) return zero_result(s, false);
  return round_out(s, {sum, q});
}

uint32_t model_fused(const DotShape& s, const Inputs& in, std::vector<std::string>* trace);

// Structure::F16Halves, written from the SASS (kernels/probes/results/h200-2026-11-30/
// sass_mma_sync_fp8.txt): F2FP.F16.E4M3/E5M2.UNPACK_B (PTX cvt.rn.f16x2.e4m3x2, exact), HMMA
// over bytes 0-1 of each operand register (k%4 < 2) with C = RZ, HMMA over bytes 2-3 with the
// first's D as C, then FADD / HADD2 of the instruction's C (IEEE, round to nearest even).
uint32_t model_halves(const DotShape& s, const Inputs& in, std::vector<std::string>* trace) {
  std::vector<uint32_t> a[2], b[2];
  for (int k = 0; k < s.k; ++k) {
    const int h = (k % 4) >= 2;
    a[h].push_back(static_cast<uint32_t>(cvt_float(DType::F16, s.atype, in.a[k] & 0xff, {})));
    b[h].push_back(static_cast<uint32_t>(cvt_float(DType::F16, s.btype, in.b[k] & 0xff, {})));
  }
  DotShape hs = s;  // one HMMA: the row's f16 datapath over K/2 products
  hs.num.structure = Structure::Fused;
  hs.kind = MmaKind::F16;
  hs.atype = hs.btype = DType::F16;
  hs.k = s.k / 2;
  uint32_t p = model_fused(hs, {a[0].data(), b[0].data(), 0}, trace);
  p = model_fused(hs, {a[1].data(), b[1].data(), p}, trace);
  const Val vc = decode(s.dtype, in.c, false), vp = decode(s.dtype, p, false);
  SpecialState sp;
  sp.term(vc);
  sp.term(vp);
  if (trace) trace->push_back("ieee add: C + " + str(vp.v));
  if (sp.result() != Special::None) return encode_special(s, sp.result());
  const Dyadic sum = add(vc.v, vp.v);
  const OutFmt f = s.dtype == DType::F16 ? OutFmt{10, 10, 5, 15} : OutFmt{23, 23, 8, 127};
  if (sum.m == 0) return vc.neg && vp.neg && vc.v.m == 0 && vp.v.m == 0 ? sign_bit(f) : 0;
  return round_dyadic(sum, f.frac, f.mant_bits, f.exp_bits, f.bias, Round::RN);
}

}  // namespace

uint32_t round_dyadic(const Dyadic& v, int frac, int mant_bits, int exp_bits, int bias,
                      Round mode) {
  const bool neg = v.m < 0;
  const BigInt a = neg ? BigInt(-v.m) : v.m;
  const int e_lead = v.e + static_cast<int>(msb(a));
  const int emin = 1 - bias;
  int eq = std::max(e_lead, emin);
  const int qexp = eq - frac;
  BigInt m;
  bool up = false;
  if (qexp <= v.e) {
    m = a << (v.e - qexp);
  } else {
    const int sh = qexp - v.e;
    m = a >> sh;
    const BigInt rem = a - (m << sh);
    const BigInt half = BigInt(1) << (sh - 1);
    if (mode == Round::RN) up = rem > half || (rem == half && bit_test(m, 0));
  }
  if (up) m += 1;
  if (m == (BigInt(1) << (frac + 1))) {
    m >>= 1;
    ++eq;
  }
  const uint32_t sign = neg ? 1u << (exp_bits + mant_bits) : 0;
  if (eq > bias) return sign | (((1u << exp_bits) - 1) << mant_bits);
  const uint32_t mm = static_cast<uint32_t>(m);
  if (mm >> frac)
    return sign | (static_cast<uint32_t>(eq + bias) << mant_bits) |
           ((mm & ((1u << frac) - 1)) << (mant_bits - frac));
  return sign | (mm << (mant_bits - frac));
}

ExactValue exact(const DotShape& s, const Inputs& in) {
  ExactValue r;
  const Decoded d = decode_all(s, in);
  SpecialState sp;
  sp.nan = d.nan_scale;
  Dyadic sum;
  for (int k = 0; k < s.k; ++k) {
    sp.product(d.a[k], d.b[k]);
    if (!is_finite(d.a[k]) || !is_finite(d.b[k])) continue;
    Dyadic p = mul(d.a[k].v, d.b[k].v);
    if (s.scale_block) {
      const int blk = k / s.scale_block;
      if (!d.sa[blk].nan && !d.sb[blk].nan) p = mul(mul(p, d.sa[blk].v), d.sb[blk].v);
    }
    sum = add(sum, p);
  }
  if (s.dtype == DType::S32) {
    sum = add(sum, {BigInt(static_cast<int32_t>(in.c)), 0});
  } else {
    const CTerm c = decode_c(s, in.c, true);
    sp.term(c.val);
    if (is_finite(c.val)) sum = add(sum, c.val.v);
  }
  r.special = sp.result();
  r.value = sum;
  return r;
}

uint32_t exact_rounded(const DotShape& s, const Inputs& in) {
  const ExactValue v = exact(s, in);
  if (s.dtype == DType::S32) return model_int(s, in);
  if (v.special != Special::None) return encode_special(s, v.special);
  if (v.value.m == 0) return 0;
  return round_out(s, v.value);
}

uint32_t model(const DotShape& s, const Inputs& in, std::vector<std::string>* trace) {
  if (s.kind == MmaKind::I8) return model_int(s, in);
  if (is_mx4(s.kind)) return model_mx4(s, in, trace);
  if (s.num.structure == Structure::F16Halves) return model_halves(s, in, trace);
  return model_fused(s, in, trace);
}

namespace {

uint32_t model_fused(const DotShape& s, const Inputs& in, std::vector<std::string>* trace) {
  const Decoded d = decode_all(s, in);
  if (d.nan_scale) return encode_special(s, Special::NaN);
  const int group = (s.num.group > 0 && s.num.group < s.k) ? s.num.group : s.k;
  uint32_t c_word = in.c;
  for (int k0 = 0; k0 < s.k; k0 += group) {
    const CTerm c = decode_c(s, c_word, k0 == 0);
    SpecialState sp;
    for (int k = k0; k < k0 + group; ++k) sp.product(d.a[k], d.b[k]);
    sp.term(c.val);
    if (sp.result() != Special::None) {
      c_word = encode_special(s, sp.result());
      if (trace) trace->push_back("group " + std::to_string(k0) + ": special");
      continue;
    }
    struct Term {
      Dyadic v;
      std::optional<int> nominal;
      bool neg_zero;
    };
    std::vector<Term> terms;
    for (int k = k0; k < k0 + group; ++k) {
      const Val &a = d.a[k], &b = d.b[k];
      Term t{mul(a.v, b.v), std::nullopt, false};
      const auto na = operand_nominal(s.num, s.atype, a), nb = operand_nominal(s.num, s.btype, b);
      if (na && nb) {
        int e = *na + *nb;
        if (s.kind == MmaKind::MXF8F6F4) {  // UE8M0 exponents folded into the product exponent
          const int blk = k / s.scale_block;
          e += d.sa[blk].nominal + d.sb[blk].nominal;
          t.v = mul(mul(t.v, d.sa[blk].v), d.sb[blk].v);
        }
        t.nominal = e;
      } else if (s.kind == MmaKind::MXF8F6F4) {
        const int blk = k / s.scale_block;
        t.v = mul(mul(t.v, d.sa[blk].v), d.sb[blk].v);
      }
      t.neg_zero = t.v.m == 0 && (a.neg != b.neg);
      terms.push_back(t);
    }
    const bool all_neg_zero = [&] {
      if (c.val.cls != FpClass::Zero || !c.val.neg) return false;
      for (const Term& t : terms)
        if (!t.neg_zero) return false;
      return true;
    }();
    uint32_t result = 0;
    if (s.num.nfrac == kExactNfrac) {
      Dyadic sum = c.val.v;
      for (const Term& t : terms) sum = add(sum, t.v);
      result = sum.m == 0 ? zero_result(s, all_neg_zero) : round_out(s, sum);
      if (trace) trace->push_back("group " + std::to_string(k0) + ": exact sum " + str(sum));
    } else {
      std::optional<int> mx;
      const auto upd = [&](std::optional<int> e) {
        if (e) mx = mx ? std::max(*mx, *e) : *e;
      };
      for (const Term& t : terms) upd(t.nominal);
      upd(c.nominal);
      if (s.num.exp_floor != kNoFloor) upd(s.num.exp_floor);
      if (!mx) {
        result = zero_result(s, all_neg_zero);
      } else {
        const int q = *mx - s.num.nfrac;
        BigInt sum = trunc_to(c.val.v, q);
        for (const Term& t : terms) sum += trunc_to(t.v, q);
        result = sum == 0 ? zero_result(s, all_neg_zero) : round_out(s, {sum, q});
        if (trace)
          trace->push_back("group " + std::to_string(k0) + ": maxE=" + std::to_string(*mx) +
                           " q=2^" + std::to_string(q) + " S=" + sum.str());
      }
    }
    c_word = result;
  }
  return c_word;
}

}  // namespace

}  // namespace tcsim::models::mma::oracle
