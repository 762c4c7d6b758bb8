// PTX ISA §9.7.18 Video Instructions.
// Scalar (§9.7.18.1):
//   vop.dtype.atype.btype{.sat}       d, a{.asel}, b{.bsel};        vop = { vadd, vsub, vabsdiff, vmin, vmax }
//   vop.dtype.atype.btype{.sat}.op2   d, a{.asel}, b{.bsel}, c;     .op2 = { .add, .min, .max }
//   vop.dtype.atype.btype{.sat}       d.dsel, a{.asel}, b{.bsel}, c;   (merge into c)
//   vshl/vshr.dtype.atype.u32{.sat}.mode{.op2} ... ;  .mode = { .clamp, .wrap }
//   vmad.dtype.atype.btype{.sat}{.scale} d, {-}a{.asel}, {-}b{.bsel}, {-}c;  .scale = { .shr7, .shr15 }
//   vmad.dtype.atype.btype.po{.sat}{.scale} d, a{.asel}, b{.bsel}, c;
//   vset.atype.btype.cmp{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c};  .cmp = { .eq .ne .lt .le .gt .ge }
//   .dtype = .atype = .btype = { .u32, .s32 };  .dsel = .asel = .bsel = { .b0 .b1 .b2 .b3 .h0 .h1 }
// SIMD (§9.7.18.2):
//   vop2.dtype.atype.btype{.sat}{.add} d{.mask}, a{.asel}, b{.bsel}, c;   .mask = { .h0 .h1 .h10 }
//     vop2 = { vadd2, vsub2, vavrg2, vabsdiff2, vmin2, vmax2 };  .asel/.bsel = .hxy (x, y in 0..3)
//   vop4.dtype.atype.btype{.sat}{.add} d{.mask}, a{.asel}, b{.bsel}, c;   .mask = .b3210 and subsets
//     vop4 = { vadd4, vsub4, vavrg4, vabsdiff4, vmin4, vmax4 };  .asel/.bsel = .bxyzw (0..7)
//   vset2/vset4.atype.btype.cmp{.add} d{.mask}, a{.asel}, b{.bsel}, c;
// The semantics are the pseudo-code of those sections, evaluated in 64/128-bit integers:
//  - scalar: a, b are selected (byte/half/word) and sign- or zero-extended by their types to .s33;
//    the primary op gives an .s34 tmp; .sat clamps it to the signed/unsigned (dtype) range of the
//    destination part (byte/half for a merge, word otherwise); then .op2 with c (extended by dtype)
//    or a merge of tmp's low byte/half into c; the low 32 bits are written. vshl/vshr: the shift
//    amount is b (.u32, selected) clamped to 32 (.clamp) or masked to 5 bits (.wrap). vset: tmp is
//    0/1 (unsigned); vmad follows its 128-bit pseudo-code (negation as one's complement plus the
//    lsb, .po adds 1, .shr7/.shr15 shift before .sat, which clamps per the sign of the final result;
//    c is sign-extended, as the H200 does, where the pseudo-code zero-extends it for unsigned forms).
//  - SIMD: the selectors pick lanes out of the 4 halfwords / 8 bytes of {b, a} (a the low word),
//    written high lane first (.h10 = lane 1 from halfword 1, lane 0 from halfword 0; defaults
//    asel .h10/.b3210, bsel .h32/.b7654); .sat clamps each lane to 16/8-bit dtype range; .add
//    accumulates the masked lanes into c (d = c + sum t[i]), otherwise the masked lanes replace
//    those of c (§9.7.18.2 semantics: "d |= mask[i] ? t[i] : Vc[i]").
// Forms a 3-operand scalar instruction writes without .op2 or a merge (vadd ... d, a, b, c): c is
// not used (the pseudo-code has no consumer for it); the H200 golden simd_video column 36 checks it.
#include <fmt/format.h>

#include "isa/ptx/ir.h"
#include "sim/exec/lane_ops.h"

namespace tcsim::sim {
namespace {

using isa::ptx::CmpOp;
using isa::ptx::Mod;
using isa::ptx::Type;

enum class VOp : uint8_t { Add, Sub, Absdiff, Min, Max, Shl, Shr, Set, Avrg };
enum class Op2 : uint8_t { None, Add, Min, Max };

// ---- scalar ----------------------------------------------------------------------------------------
// A selector: kind 0 = word, 'b' byte k, 'h' half k.
struct Sel {
  char kind = 0;
  uint8_t k = 0;
};
struct Scalar {
  VOp op;
  Op2 op2;
  bool sd, sa, sb;  // signedness of dtype, atype, btype
  bool sat, clamp;  // clamp: vshl/vshr .clamp (else .wrap)
  CmpOp cmp;
  Sel asel, bsel, dsel;
};
uint64_t pack_sel(Sel s) { return uint64_t(uint8_t(s.kind)) | uint64_t(s.k) << 8; }
Sel unpack_sel(uint64_t v) { return {char(v & 0xff), uint8_t(v >> 8 & 0xff)}; }
uint64_t pack(const Scalar& s) {
  return uint64_t(s.op) | uint64_t(s.op2) << 4 | uint64_t(s.sd) << 8 | uint64_t(s.sa) << 9 | uint64_t(s.sb) << 10 |
         uint64_t(s.sat) << 11 | uint64_t(s.clamp) << 12 | uint64_t(s.cmp) << 16 | pack_sel(s.asel) << 24 |
         pack_sel(s.bsel) << 40 | uint64_t(uint8_t(s.dsel.kind)) << 56;
}
Scalar unpack(uint64_t v, uint8_t dk) {
  Scalar s;
  s.op = VOp(v & 15);
  s.op2 = Op2(v >> 4 & 15);
  s.sd = v >> 8 & 1;
  s.sa = v >> 9 & 1;
  s.sb = v >> 10 & 1;
  s.sat = v >> 11 & 1;
  s.clamp = v >> 12 & 1;
  s.cmp = CmpOp(v >> 16 & 0xff);
  s.asel = unpack_sel(v >> 24);
  s.bsel = unpack_sel(v >> 40);
  s.dsel = {char(v >> 56 & 0xff), dk};
  return s;
}

// partSelectSignExtend: the selected byte/half/word, sign- or zero-extended.
inline int64_t part(uint64_t v, Sel s, bool sgn) {
  const uint32_t w = static_cast<uint32_t>(v);
  switch (s.kind) {
    case 'b': {
      const uint8_t x = static_cast<uint8_t>(w >> (8 * s.k));
      return sgn ? int64_t{static_cast<int8_t>(x)} : int64_t{x};
    }
    case 'h': {
      const uint16_t x = static_cast<uint16_t>(w >> (16 * s.k));
      return sgn ? int64_t{static_cast<int16_t>(x)} : int64_t{x};
    }
    default: return sgn ? int64_t{static_cast<int32_t>(w)} : int64_t{w};
  }
}

inline int64_t clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

// optSaturate: the range of the destination part, signed or unsigned by dtype.
inline int64_t saturate(int64_t t, bool sgn, char dkind) {
  const int bits = dkind == 'b' ? 8 : dkind == 'h' ? 16 : 32;
  if (sgn) return clamp(t, -(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1);
  return clamp(t, 0, (int64_t{1} << bits) - 1);
}

inline bool vcompare(CmpOp c, int64_t x, int64_t y) {
  switch (c) {
    case CmpOp::EQ: return x == y;
    case CmpOp::NE: return x != y;
    case CmpOp::LT: return x < y;
    case CmpOp::LE: return x <= y;
    case CmpOp::GT: return x > y;
    case CmpOp::GE: return x >= y;
    default: return false;
  }
}

inline uint32_t scalar1(const Scalar& s, uint64_t a, uint64_t b, uint64_t c) {
  const int64_t ta = part(a, s.asel, s.sa);
  int64_t tmp;
  if (s.op == VOp::Shl || s.op == VOp::Shr) {
    int64_t tb = part(b, s.bsel, false);
    tb = s.clamp ? (tb > 32 ? 32 : tb) : (tb & 0x1f);
    // ta is an .s33 and tb <= 32: the left shift fits in 128 bits.
    const __int128 w = s.op == VOp::Shl ? static_cast<__int128>(ta) * (static_cast<__int128>(1) << tb)
                                        : static_cast<__int128>(ta >> tb);
    if (s.sat) {
      const int bits = s.dsel.kind == 'b' ? 8 : s.dsel.kind == 'h' ? 16 : 32;
      const __int128 lo = s.sd ? -(static_cast<__int128>(1) << (bits - 1)) : 0;
      const __int128 hi = s.sd ? (static_cast<__int128>(1) << (bits - 1)) - 1 : (static_cast<__int128>(1) << bits) - 1;
      tmp = static_cast<int64_t>(w < lo ? lo : w > hi ? hi : w);
    } else {
      tmp = static_cast<int64_t>(w);  // only the low 32 bits (and a merge's byte/half) survive
    }
  } else {
    const int64_t tb = part(b, s.bsel, s.sb);
    switch (s.op) {
      case VOp::Add: tmp = ta + tb; break;
      case VOp::Sub: tmp = ta - tb; break;
      case VOp::Absdiff: tmp = ta > tb ? ta - tb : tb - ta; break;
      case VOp::Min: tmp = ta < tb ? ta : tb; break;
      case VOp::Max: tmp = ta > tb ? ta : tb; break;
      default: tmp = vcompare(s.cmp, ta, tb) ? 1 : 0; break;  // vset
    }
    if (s.sat && s.op != VOp::Set) tmp = saturate(tmp, s.sd, s.dsel.kind);
  }
  // The third operand, extended by dtype (vset: unsigned).
  const bool csgn = s.op != VOp::Set && s.sd;
  const int64_t tc = csgn ? int64_t{static_cast<int32_t>(c)} : int64_t{static_cast<uint32_t>(c)};
  switch (s.dsel.kind) {
    case 'h': {
      const int sh = 16 * s.dsel.k;
      return static_cast<uint32_t>(((static_cast<uint64_t>(tmp) & 0xffff) << sh) | (c & ~(uint64_t{0xffff} << sh)));
    }
    case 'b': {
      const int sh = 8 * s.dsel.k;
      return static_cast<uint32_t>(((static_cast<uint64_t>(tmp) & 0xff) << sh) | (c & ~(uint64_t{0xff} << sh)));
    }
    default: break;
  }
  switch (s.op2) {
    case Op2::Add: tmp = tmp + tc; break;
    case Op2::Min: tmp = tmp < tc ? tmp : tc; break;
    case Op2::Max: tmp = tmp > tc ? tmp : tc; break;
    case Op2::None: break;
  }
  return static_cast<uint32_t>(tmp);
}

// o[3]: c (or the sink/zero immediate when absent); flags: dsel index in the low byte.
void exec_vscalar(ExecCtx& c, const ExecInstr& in) {
  const Scalar s = unpack(in.aux, in.flags);
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t { return scalar1(s, a[i], b[i], e[i]); });
}

// vmad (§9.7.18.1.3). aux: bit 0 sa, 1 sb, 2 a.neg^b.neg, 3 c.neg, 4 .po, 5 .sat, 6-7 scale (0, 7, 15),
// bits 16.. asel, 32.. bsel.
void exec_vmad(ExecCtx& c, const ExecInstr& in) {
  const uint64_t x = in.aux;
  const bool sa = x & 1, sb = x & 2, pneg = x & 4, cneg = x & 8, po = x & 16, sat = x & 32;
  const int scale = (x >> 6 & 3) == 1 ? 7 : (x >> 6 & 3) == 2 ? 15 : 0;
  const Sel asel = unpack_sel(x >> 16), bsel = unpack_sel(x >> 32);
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  const bool signed_final = sa || sb || pneg || cneg;
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    __int128 tmp = static_cast<__int128>(part(a[i], asel, sa)) * part(b[i], bsel, sb);
    uint32_t cv = static_cast<uint32_t>(e[i]);
    int lsb = 0;
    if (po) {
      lsb = 1;
    } else if (pneg) {
      tmp = ~tmp;
      lsb = 1;
    } else if (cneg) {
      cv = ~cv;
      lsb = 1;
    }
    // The pseudo-code zero-extends c when the final result is unsigned; the H200 sign-extends it
    // in every form (simd_video column 45, vmad.u32.u32.u32.sat.shr15: 500 of 500 outputs, e.g.
    // a.h1*b.h0 = 0x12a7affe, c = 0xe673b697 gives 0xffffffff: the negative sum saturates).
    const __int128 c128 = static_cast<__int128>(static_cast<int32_t>(cv));
    tmp = tmp + c128 + lsb;
    int64_t r = static_cast<int64_t>(static_cast<uint64_t>(tmp >> scale));  // & 0xffffffffffffffff
    if (sat) {
      if (signed_final) r = clamp(r, INT32_MIN, INT32_MAX);
      else r = static_cast<int64_t>(std::min<uint64_t>(static_cast<uint64_t>(r), 0xffffffffu));
    }
    return static_cast<uint32_t>(r);
  });
}

// ---- SIMD --------------------------------------------------------------------------------------------
// aux: bits 0-3 op, 4 sd, 5 sa, 6 sb, 7 sat, 8 add, 9 four-way, 12-15 mask, 16-23 cmp,
// 24-35 asel (3 bits per lane, lane 0 first), 36-47 bsel.
template <bool Four>
void exec_vsimd(ExecCtx& c, const ExecInstr& in) {
  const uint64_t x = in.aux;
  const VOp op = VOp(x & 15);
  const bool sd = x >> 4 & 1, sa = x >> 5 & 1, sb = x >> 6 & 1, sat = x >> 7 & 1, add = x >> 8 & 1;
  const unsigned mask = x >> 12 & 15;
  const CmpOp cmp = CmpOp(x >> 16 & 0xff);
  constexpr int n = Four ? 4 : 2, w = Four ? 8 : 16;
  constexpr uint64_t lm = Four ? 0xff : 0xffff;
  uint64_t* d = c.dst(in.o[0]);
  const uint64_t* a = c.src(in.o[1]);
  const uint64_t* b = c.src(in.o[2]);
  const uint64_t* e = c.src(in.o[3]);
  blend_lanes(c.mask, d, [&](int i) -> uint64_t {
    const uint64_t ab = (b[i] & 0xffffffffu) << 32 | (a[i] & 0xffffffffu);  // {b, a}
    const uint32_t cv = static_cast<uint32_t>(e[i]);
    uint32_t r = add ? cv : 0;
    for (int k = 0; k < n; ++k) {
      auto lane_of = [&](int sel, bool sgn) -> int64_t {
        const uint64_t v = ab >> (w * sel) & lm;
        return sgn ? (Four ? int64_t{static_cast<int8_t>(v)} : int64_t{static_cast<int16_t>(v)}) : static_cast<int64_t>(v);
      };
      const int64_t va = lane_of(static_cast<int>(x >> (24 + 3 * k) & 7), sa);
      const int64_t vb = lane_of(static_cast<int>(x >> (36 + 3 * k) & 7), sb);
      int64_t t;
      switch (op) {
        case VOp::Add: t = va + vb; break;
        case VOp::Sub: t = va - vb; break;
        case VOp::Avrg: t = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1; break;
        case VOp::Absdiff: t = va > vb ? va - vb : vb - va; break;
        case VOp::Min: t = va < vb ? va : vb; break;
        case VOp::Max: t = va > vb ? va : vb; break;
        default: t = vcompare(cmp, va, vb) ? 1 : 0; break;  // vset2/vset4
      }
      if (sat && op != VOp::Set) {
        t = sd ? clamp(t, -(int64_t{1} << (w - 1)), (int64_t{1} << (w - 1)) - 1) : clamp(t, 0, static_cast<int64_t>(lm));
      }
      const bool m = mask >> k & 1;
      if (add) {
        if (m) r += static_cast<uint32_t>(t);
      } else {
        r |= static_cast<uint32_t>((m ? static_cast<uint64_t>(t) : cv >> (w * k)) & lm) << (w * k);
      }
    }
    return r;
  });
}

// ---- binding ----------------------------------------------------------------------------------------

bool is_ut(Type t) { return t == Type::U32 || t == Type::S32; }

}  // namespace

void bind_video(BindCtx& b) {
  using isa::ptx::Op;
  const Op op = b.in.op;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) b.fail(what);
  };
  const bool four = op == Op::vadd4 || op == Op::vsub4 || op == Op::vavrg4 || op == Op::vabsdiff4 || op == Op::vmin4 ||
                    op == Op::vmax4 || op == Op::vset4;
  const bool two = op == Op::vadd2 || op == Op::vsub2 || op == Op::vavrg2 || op == Op::vabsdiff2 || op == Op::vmin2 ||
                   op == Op::vmax2 || op == Op::vset2;
  const bool is_set = op == Op::vset || op == Op::vset2 || op == Op::vset4;
  // Types: dtype.atype.btype, or atype.btype for vset*.
  const int nt = is_set ? 2 : 3;
  need(b.in.ntypes == nt, is_set ? "vset takes two types (.atype.btype), each .u32 or .s32"
                                 : "video instructions take three types (.dtype.atype.btype), each .u32 or .s32");
  for (int i = 0; i < nt; ++i) need(is_ut(b.type(i)), "video operand types are .u32 or .s32");
  const bool sd = !is_set && b.type(0) == Type::S32;
  const bool sa = b.type(nt - 2) == Type::S32, sb = b.type(nt - 1) == Type::S32;
  const size_t nops = b.nops();
  const isa::ptx::Operand& d0 = b.operand(0);
  for (size_t i = 0; i < nops; ++i) {
    const isa::ptx::Operand& o = b.operand(static_cast<int>(i));
    need(!o.minus || op == Op::vmad, "'-' negation applies to vmad operands only");
    if (i == 3) need(!o.has_selector(), "the c operand takes no selector");
  }
  auto sel_digits = [&](const isa::ptx::Operand& o, std::vector<int>& v) {
    for (int k = 0; k < o.sel_n; ++k) v.push_back(o.sel_digit(k));
  };

  if (two || four) {
    b.only_mods({Mod::sat, Mod::add, Mod::eq, Mod::ne, Mod::lt, Mod::le, Mod::gt, Mod::ge});
    need(nops == 4, "SIMD video instructions take d, a, b, c");
    const char kind = four ? 'b' : 'h';
    const int n = four ? 4 : 2, maxsel = four ? 7 : 3;
    const bool add = b.has(Mod::add), sat = b.has(Mod::sat);
    need(!(add && sat), ".sat cannot be used with the .add accumulate operation");
    uint64_t aux = 0;
    VOp v;
    switch (op) {
      case Op::vadd2: case Op::vadd4: v = VOp::Add; break;
      case Op::vsub2: case Op::vsub4: v = VOp::Sub; break;
      case Op::vavrg2: case Op::vavrg4: v = VOp::Avrg; break;
      case Op::vabsdiff2: case Op::vabsdiff4: v = VOp::Absdiff; break;
      case Op::vmin2: case Op::vmin4: v = VOp::Min; break;
      case Op::vmax2: case Op::vmax4: v = VOp::Max; break;
      default: v = VOp::Set; break;
    }
    if (is_set) {
      need(b.in.cmp >= CmpOp::EQ && b.in.cmp <= CmpOp::GE, "vset needs .eq, .ne, .lt, .le, .gt or .ge");
      need(!sat, "vset takes no .sat");
    }
    // Destination mask: the listed lanes (default all).
    unsigned mask = (1u << n) - 1;
    if (d0.has_selector()) {
      need(d0.sel_kind == kind, fmt::format("the destination mask of a {}-way instruction is .{}...", n, kind));
      std::vector<int> ds;
      sel_digits(d0, ds);
      mask = 0;
      for (int k : ds) {
        need(k < n && !(mask >> k & 1), fmt::format("bad destination mask (lanes 0..{}, each once, e.g. .{}{})", n - 1, kind,
                                                    four ? "3210" : "10"));
        mask |= 1u << k;
      }
    }
    // Source selectors: written high lane first; default a: lanes of a, b: lanes of b.
    auto selector = [&](int i, int def_base) -> uint64_t {
      const isa::ptx::Operand& o = b.operand(i);
      uint64_t r = 0;
      if (!o.has_selector()) {
        for (int k = 0; k < n; ++k) r |= uint64_t(def_base + k) << (3 * k);
        return r;
      }
      std::vector<int> ds;
      sel_digits(o, ds);
      need(o.sel_kind == kind && static_cast<int>(ds.size()) == n,
           fmt::format("a {}-way source selector names {} lanes: .{}{}", n, n, kind, four ? "xyzw" : "xy"));
      for (int k = 0; k < n; ++k) {
        need(ds[k] <= maxsel, fmt::format("selector digits are 0..{}", maxsel));
        r |= uint64_t(ds[n - 1 - k]) << (3 * k);  // lane k = the k-th digit from the right
      }
      return r;
    };
    aux = uint64_t(v) | uint64_t(sd) << 4 | uint64_t(sa) << 5 | uint64_t(sb) << 6 | uint64_t(sat) << 7 |
          uint64_t(add) << 8 | uint64_t(four) << 9 | uint64_t(mask) << 12 | uint64_t(b.in.cmp) << 16 |
          selector(1, 0) << 24 | selector(2, n) << 36;
    b.out.aux = aux;
    b.out.fn = four ? &exec_vsimd<true> : &exec_vsimd<false>;
    b.out.o[0] = b.dst(0, 32);
    b.out.o[1] = b.src(1, b.type(nt - 2));
    b.out.o[2] = b.src(2, b.type(nt - 1));
    b.out.o[3] = b.src(3, Type::U32);
    return;
  }

  // Scalar selectors: one digit, .b0-.b3 or .h0/.h1.
  auto scalar_sel = [&](const isa::ptx::Operand& o) -> Sel {
    if (!o.has_selector()) return {};
    need(o.sel_n == 1 && ((o.sel_kind == 'b' && o.sel_digit(0) <= 3) || (o.sel_kind == 'h' && o.sel_digit(0) <= 1)),
         "scalar video selectors are .b0, .b1, .b2, .b3, .h0 and .h1");
    return {o.sel_kind, static_cast<uint8_t>(o.sel_digit(0))};
  };

  if (op == Op::vmad) {
    b.only_mods({Mod::sat, Mod::shr7, Mod::shr15, Mod::po});
    need(nops == 4, "vmad takes d, a, b, c");
    need(!d0.has_selector(), "vmad's destination takes no selector");
    const bool po = b.has(Mod::po);
    const bool an = b.operand(1).minus, bn = b.operand(2).minus, cn = b.operand(3).minus;
    if (po) need(!an && !bn && !cn, "operands may not be negated in .po mode");
    need(!(b.has(Mod::shr7) && b.has(Mod::shr15)), "one scale at most (.shr7 or .shr15)");
    need(!(an != bn && cn), "PTX allows negating (a*b) or c, not both");
    const uint64_t scale = b.has(Mod::shr7) ? 1 : b.has(Mod::shr15) ? 2 : 0;
    b.out.aux = uint64_t(sa) | uint64_t(sb) << 1 | uint64_t(an != bn) << 2 | uint64_t(cn) << 3 | uint64_t(po) << 4 |
                uint64_t(b.has(Mod::sat)) << 5 | scale << 6 | pack_sel(scalar_sel(b.operand(1))) << 16 |
                pack_sel(scalar_sel(b.operand(2))) << 32;
    b.out.fn = exec_vmad;
    b.out.o[0] = b.dst(0, 32);
    b.out.o[1] = b.src(1, b.type(1));
    b.out.o[2] = b.src(2, b.type(2));
    b.out.o[3] = b.src(3, Type::U32);
    return;
  }

  Scalar s{};
  switch (op) {
    case Op::vadd: s.op = VOp::Add; break;
    case Op::vsub: s.op = VOp::Sub; break;
    case Op::vabsdiff: s.op = VOp::Absdiff; break;
    case Op::vmin: s.op = VOp::Min; break;
    case Op::vmax: s.op = VOp::Max; break;
    case Op::vshl: s.op = VOp::Shl; break;
    case Op::vshr: s.op = VOp::Shr; break;
    case Op::vset: s.op = VOp::Set; break;
    default: b.fail("internal: not a video row");
  }
  const bool shift = s.op == VOp::Shl || s.op == VOp::Shr;
  if (shift) {
    b.only_mods({Mod::sat, Mod::clamp, Mod::wrap, Mod::add, Mod::min, Mod::max});
    need(b.has(Mod::clamp) != b.has(Mod::wrap), "vshl/vshr need exactly one of .clamp and .wrap");
    need(b.type(2) == Type::U32, "the shift amount's type (btype) must be .u32");
    s.clamp = b.has(Mod::clamp);
  } else if (s.op == VOp::Set) {
    b.only_mods({Mod::add, Mod::min, Mod::max, Mod::eq, Mod::ne, Mod::lt, Mod::le, Mod::gt, Mod::ge});
    need(b.in.cmp >= CmpOp::EQ && b.in.cmp <= CmpOp::GE, "vset needs .eq, .ne, .lt, .le, .gt or .ge");
    s.cmp = b.in.cmp;
  } else {
    b.only_mods({Mod::sat, Mod::add, Mod::min, Mod::max});
  }
  const int nop2 = b.has(Mod::add) + b.has(Mod::min) + b.has(Mod::max);
  need(nop2 <= 1, "one secondary operation at most (.add, .min or .max)");
  s.op2 = b.has(Mod::add) ? Op2::Add : b.has(Mod::min) ? Op2::Min : b.has(Mod::max) ? Op2::Max : Op2::None;
  s.sd = sd;
  s.sa = sa;
  s.sb = shift ? false : sb;
  s.sat = b.has(Mod::sat);
  s.asel = scalar_sel(b.operand(1));
  s.bsel = scalar_sel(b.operand(2));
  s.dsel = scalar_sel(d0);
  need(nops == 3 || nops == 4, "scalar video instructions take d, a, b and an optional c");
  if (s.op2 != Op2::None || s.dsel.kind) need(nops == 4, "a secondary operation or a destination selector needs operand c");
  need(!(s.op2 != Op2::None && s.dsel.kind), "a secondary operation and a destination merge cannot be combined");
  b.out.aux = pack(s);
  b.out.flags = s.dsel.k;
  b.out.fn = exec_vscalar;
  b.out.o[0] = b.dst(0, 32);
  b.out.o[1] = b.src(1, b.type(nt - 2));
  b.out.o[2] = b.src(2, b.type(nt - 1));
  b.out.o[3] = nops == 4 ? b.src(3, Type::U32) : b.imm(0);
}

}  // namespace tcsim::sim
