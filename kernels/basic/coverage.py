#!/usr/bin/env python3
"""Family coverage of the basic corpus: which PTX instruction families of issue 3 ("sim - the SIMT
core") each committed .ptx exercises, found by reading the PTX itself (not the .cu comments).

  coverage.py            check: every family is exercised (exit 1 and list the gaps otherwise),
                         and every family that the H200 can run is exercised by an sm_90a kernel
  coverage.py --table    print the family -> main kernels table in Markdown (for README.md)
  coverage.py --kernels  print the kernel -> families table in Markdown

A family is a list of patterns; it is covered when every pattern matches some PTX statement of
the corpus (a statement is one instruction or directive, comments and guards removed, whitespace
normalised, e.g. "add.rz.f32 %f3, %f1, %f2"). kernels/basic/bad/ counts only for the families
that only a bad kernel can show (trap).
"""
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (id, description, [patterns], sm_100a_only)
FAMILIES = [
    # ---- integer ---------------------------------------------------------------------------------
    ("int.add_sub", "add/sub .s32/.u32/.s64/.u64", [r"^add\.(s|u)32 ", r"^sub\.(s|u)32 ", r"^add\.(s|u)64 ", r"^sub\.(s|u)64 "], False),
    ("int.add_sub.sat", "add.sat/sub.sat .s32", [r"^add\.sat\.s32 ", r"^sub\.sat\.s32 "], False),
    ("int.carry", "add.cc/addc/sub.cc/subc carry chains", [r"^add\.cc\.", r"^addc(\.cc)?\.", r"^sub\.cc\.", r"^subc(\.cc)?\."], False),
    ("int.mul", "mul .lo/.hi/.wide, 32 and 64 bit", [r"^mul\.lo\.(s|u)32 ", r"^mul\.hi\.(s|u)32 ", r"^mul\.wide\.s32 ", r"^mul\.wide\.u32 ", r"^mul\.lo\.(s|u)64 ", r"^mul\.hi\.s64 ", r"^mul\.hi\.u64 "], False),
    ("int.mad", "mad .lo/.hi/.hi.sat/.wide", [r"^mad\.lo\.(s|u)32 ", r"^mad\.hi\.s32 ", r"^mad\.hi\.u32 ", r"^mad\.hi\.sat\.s32 ", r"^mad\.wide\.s32 ", r"^mad\.wide\.u32 "], False),
    ("int.mul24", "mul24/mad24 .lo/.hi", [r"^mul24\.lo\.", r"^mul24\.hi\.", r"^mad24\.lo\.", r"^mad24\.hi\."], False),
    ("int.div_rem", "div/rem signed and unsigned, 32 and 64 bit", [r"^div\.s32 ", r"^div\.u32 ", r"^div\.s64 ", r"^div\.u64 ", r"^rem\.s32 ", r"^rem\.u32 ", r"^rem\.s64 ", r"^rem\.u64 "], False),
    ("int.min_max", "min/max signed and unsigned", [r"^min\.s32 ", r"^max\.s32 ", r"^min\.u32 ", r"^max\.u32 ", r"^min\.s64 ", r"^max\.u64 "], False),
    ("int.abs_neg", "abs/neg integer", [r"^abs\.s32 ", r"^abs\.s64 ", r"^neg\.s32 ", r"^neg\.s64 "], False),
    ("int.logic", "and/or/xor/not/cnot", [r"^and\.b32 ", r"^or\.b32 ", r"^xor\.b32 ", r"^not\.b32 ", r"^and\.b64 ", r"^or\.b64 ", r"^xor\.b64 ", r"^not\.b64 ", r"^cnot\.b32 "], False),
    ("int.lop3", "lop3", [r"^lop3\.b32 "], False),
    ("int.shift", "shl/shr (logical and arithmetic, 32 and 64 bit)", [r"^shl\.b32 ", r"^shr\.u32 ", r"^shr\.s32 ", r"^shl\.b64 ", r"^shr\.u64 ", r"^shr\.s64 "], False),
    ("int.shf", "shf funnel shifts .l/.r .wrap/.clamp", [r"^shf\.l\.wrap\.b32 ", r"^shf\.l\.clamp\.b32 ", r"^shf\.r\.wrap\.b32 ", r"^shf\.r\.clamp\.b32 "], False),
    ("int.bfe_bfi", "bfe/bfi, 32 and 64 bit", [r"^bfe\.u32 ", r"^bfe\.s32 ", r"^bfe\.u64 ", r"^bfe\.s64 ", r"^bfi\.b32 ", r"^bfi\.b64 "], False),
    ("int.prmt", "prmt in all modes", [r"^prmt\.b32 ", r"^prmt\.b32\.f4e ", r"^prmt\.b32\.b4e ", r"^prmt\.b32\.rc8 ", r"^prmt\.b32\.ecl ", r"^prmt\.b32\.ecr ", r"^prmt\.b32\.rc16 "], False),
    ("int.bitcount", "popc/clz/brev/bfind (32 and 64 bit, bfind.shiftamt)", [r"^popc\.b32 ", r"^popc\.b64 ", r"^clz\.b32 ", r"^clz\.b64 ", r"^brev\.b32 ", r"^brev\.b64 ", r"^bfind\.u32 ", r"^bfind\.s32 ", r"^bfind\.shiftamt\.u32 ", r"^bfind\.u64 ", r"^bfind\.s64 "], False),
    ("int.fns_bmsk_szext", "fns, bmsk, szext", [r"^fns\.b32 ", r"^bmsk\.clamp\.b32 ", r"^bmsk\.wrap\.b32 ", r"^szext\.clamp\.s32 ", r"^szext\.wrap\.u32 "], False),
    ("int.sad", "sad", [r"^sad\.s32 ", r"^sad\.u32 "], False),
    ("int.simd16x2", "16x2 SIMD add/min/max (sm_90)", [r"^add\.(u|s)16x2 ", r"^max\.(u|s)16x2 ", r"^min\.(u|s)16x2 "], False),
    ("int.video_simd", "SIMD video ops (vadd2/vsub2/vavrg2/vabsdiff2/vmin2/vmax2/vset2 and x4)", [r"^vadd2\.", r"^vsub2\.", r"^vavrg2\.", r"^vabsdiff2\.", r"^vmin2\.", r"^vmax2\.", r"^vset2\.", r"^vadd4\.", r"^vsub4\.", r"^vavrg4\.", r"^vabsdiff4\.", r"^vmin4\.", r"^vmax4\.", r"^vset4\."], False),
    ("int.video_scalar", "scalar video ops (vadd/vsub/vabsdiff/vmin/vmax/vshl/vshr/vmad/vset)", [r"^vadd\.", r"^vsub\.", r"^vabsdiff\.", r"^vmin\.", r"^vmax\.", r"^vshl\.", r"^vshr\.", r"^vmad\.", r"^vset\."], False),
    ("int.dp", "dp4a/dp2a", [r"^dp4a\.s32\.s32 ", r"^dp4a\.u32\.u32 ", r"^dp4a\.s32\.u32 ", r"^dp2a\.lo\.", r"^dp2a\.hi\."], False),
    # ---- floating point --------------------------------------------------------------------------
    ("f16.arith", "f16 add/sub/mul/fma (+.rn no-contract, .sat, .relu)", [r"^add(\.rn)?\.f16 ", r"^sub(\.rn)?\.f16 ", r"^mul(\.rn)?\.f16 ", r"^fma\.rn\.f16 ", r"^add\.rn\.f16 ", r"^add\.sat\.f16 ", r"^mul\.sat\.f16 ", r"^fma\.rn\.sat\.f16 ", r"^fma\.rn\.relu\.f16 "], False),
    ("f16x2.arith", "f16x2 add/sub/mul/fma (.sat, .relu)", [r"^add\.f16x2 ", r"^mul\.f16x2 ", r"^fma\.rn\.f16x2 ", r"^fma\.rn\.relu\.f16x2 ", r"^sub\.sat\.f16x2 "], False),
    ("bf16.arith", "bf16 add/sub/mul/fma (+.rn, .relu)", [r"^add(\.rn)?\.bf16 ", r"^sub\.bf16 ", r"^mul(\.rn)?\.bf16 ", r"^fma\.rn\.bf16 ", r"^fma\.rn\.relu\.bf16 "], False),
    ("bf16x2.arith", "bf16x2 add/mul/fma (.relu)", [r"^add\.bf16x2 ", r"^mul\.bf16x2 ", r"^fma\.rn\.bf16x2 ", r"^fma\.rn\.relu\.bf16x2 "], False),
    ("f16.minmax_absneg", "f16/bf16 min/max (+.NaN), abs, neg, scalar and x2", [r"^min\.f16 ", r"^max\.f16 ", r"^min\.NaN\.f16 ", r"^max\.NaN\.f16 ", r"^min\.f16x2 ", r"^max\.NaN\.f16x2 ", r"^min\.bf16 ", r"^max\.NaN\.bf16 ", r"^max\.bf16x2 ", r"^min\.NaN\.bf16x2 ", r"^abs\.f16 ", r"^neg\.f16x2 ", r"^abs\.bf16x2 ", r"^neg\.bf16 "], False),
    ("f32.rnd", "f32 add/sub/mul/fma/div/rcp/sqrt in all four rounding modes", [rf"^{op}\.{m}\.f32 " for op in ("add", "sub", "mul", "fma", "div", "rcp", "sqrt") for m in ("rn", "rz", "rm", "rp")], False),
    ("f32.ftz", "f32 .ftz forms", [r"^add\.ftz\.f32 ", r"^mul\.ftz\.f32 ", r"^fma\.rn\.ftz\.f32 ", r"^div\.rn\.ftz\.f32 ", r"^sqrt\.rn\.ftz\.f32 ", r"^rcp\.rn\.ftz\.f32 ", r"^min\.ftz\.f32 ", r"^setp\.[a-z]+\.ftz\.f32 "], False),
    ("f32.sat", "f32 .sat forms", [r"^add\.rz\.sat\.f32 ", r"^fma\.rn\.sat\.f32 ", r"^cvt\.sat\.f32\.f32 ", r"^cvt\.ftz\.sat\.f32\.f32 "], False),
    ("f32.minmax", "f32 min/max incl. .NaN and .xorsign.abs", [r"^min\.f32 ", r"^max\.f32 ", r"^max\.NaN\.f32 ", r"^min\.xorsign\.abs\.f32 "], False),
    ("f32.misc", "f32 abs/neg/copysign/testp", [r"^abs\.f32 ", r"^neg\.f32 ", r"^copysign\.f32 "] + [rf"^testp\.{p}\.f32 " for p in ("finite", "infinite", "number", "notanumber", "normal", "subnormal")], False),
    ("f64.rnd", "f64 add/sub/mul/fma/div/rcp/sqrt in all four rounding modes", [rf"^{op}\.{m}\.f64 " for op in ("add", "sub", "mul", "fma", "div", "rcp", "sqrt") for m in ("rn", "rz", "rm", "rp")], False),
    ("f64.misc", "f64 min/max/abs/neg/copysign/testp", [r"^min\.f64 ", r"^max\.f64 ", r"^abs\.f64 ", r"^neg\.f64 ", r"^copysign\.f64 "] + [rf"^testp\.{p}\.f64 " for p in ("finite", "infinite", "number", "notanumber", "normal", "subnormal")], False),
    ("f32x2.arith", "f32x2 add/mul/fma in all rounding modes (sm_100)", [rf"^{op}\.{m}\.f32x2 " for op in ("add", "mul", "fma") for m in ("rn", "rz", "rm", "rp")], True),
    # ---- conversions -----------------------------------------------------------------------------
    ("cvt.int_int", "cvt integer <-> integer (narrow, widen, .sat)", [r"^cvt\.u32\.u16 ", r"^cvt\.s32\.s16 ", r"^cvt\.u64\.u32 ", r"^cvt\.s64\.s32 ", r"^cvt\.u32\.u64 ", r"^cvt\.u16\.u32 ", r"^cvt\.s64\.s8 ", r"^cvt\.sat\.s8\.s32 ", r"^cvt\.sat\.u8\.s32 ", r"^cvt\.sat\.u16\.s64 ", r"^cvt\.sat\.s32\.u64 "], False),
    ("cvt.float_int", "cvt float -> integer in all integer rounding modes", [rf"^cvt\.{m}\.(s|u)(32|64)\.f32 " for m in ("rni", "rzi", "rmi", "rpi")] + [rf"^cvt\.{m}\.(s|u)(32|64)\.f64 " for m in ("rni", "rzi", "rmi", "rpi")] + [r"^cvt\.rni\.sat\.s16\.f32 ", r"^cvt\.r[a-z]+\.(s|u)(16|32|64)\.f16 ", r"^cvt\.r[a-z]+\.(s|u)(16|32)\.bf16 "], False),
    ("cvt.int_float", "cvt integer -> float in all rounding modes", [rf"^cvt\.{m}\.f32\.(s|u)(32|64) " for m in ("rn", "rz", "rm", "rp")] + [rf"^cvt\.{m}\.f64\.(s|u)(32|64) " for m in ("rn", "rz", "rm", "rp")] + [r"^cvt\.r[nzmp]\.f16\.(s|u)(16|32|64) ", r"^cvt\.rz\.bf16\.s32 "], False),
    ("cvt.float_float", "cvt between f64/f32/f16/bf16 in all rounding modes, x2 pairs, .relu/.satfinite", [rf"^cvt\.{m}\.f32\.f64 " for m in ("rn", "rz", "rm", "rp")] + [rf"^cvt\.{m}\.f16\.f32 " for m in ("rn", "rz", "rm", "rp")] + [rf"^cvt\.{m}\.bf16\.f32 " for m in ("rn", "rz", "rm", "rp")] + [r"^cvt\.f64\.f32 ", r"^cvt\.f32\.f16 ", r"^cvt\.f64\.f16 ", r"^cvt\.f32\.bf16 ", r"^cvt\.rn\.f16\.f64 ", r"^cvt\.rn\.bf16\.f64 ", r"^cvt\.rn\.bf16\.f16 ", r"^cvt\.rn\.f16x2\.f32 ", r"^cvt\.rn\.bf16x2\.f32 ", r"^cvt\.rz\.relu\.f16x2\.f32 ", r"^cvt\.rn\.satfinite\.f16x2\.f32 ", r"^cvt\.rz\.relu\.satfinite\.bf16x2\.f32 ", r"^cvt\.rn\.relu\.f16\.f32 ", r"^cvt\.ftz\.f64\.f32 "], False),
    ("cvt.integral", "cvt round to integral value (rni/rzi/rmi/rpi f32 and f64)", [rf"^cvt\.{m}\.f32\.f32 " for m in ("rni", "rzi", "rmi", "rpi")] + [rf"^cvt\.{m}\.f64\.f64 " for m in ("rni", "rzi", "rmi", "rpi")], False),
    ("cvt.tf32", "cvt to tf32 (rna, rn, rz, .satfinite, .relu)", [r"^cvt\.rna\.tf32\.f32 ", r"^cvt\.rna\.satfinite\.tf32\.f32 ", r"^cvt\.rn\.tf32\.f32 ", r"^cvt\.rz\.tf32\.f32 ", r"^cvt\.rn\.relu\.tf32\.f32 "], False),
    ("cvt.fp8", "fp8 packed conversions (e4m3x2/e5m2x2 from f32 and f16x2, to f16x2, .relu)", [r"^cvt\.rn\.satfinite\.e4m3x2\.f32 ", r"^cvt\.rn\.satfinite\.e5m2x2\.f32 ", r"^cvt\.rn\.satfinite\.e4m3x2\.f16x2 ", r"^cvt\.rn\.satfinite\.e5m2x2\.f16x2 ", r"^cvt\.rn\.f16x2\.e4m3x2 ", r"^cvt\.rn\.f16x2\.e5m2x2 ", r"^cvt\.rn\.satfinite\.relu\.e4m3x2\.f32 ", r"^cvt\.rn\.satfinite\.relu\.e5m2x2\.f16x2 ", r"^cvt\.rn\.relu\.f16x2\.e4m3x2 "], False),
    ("cvt.fp6_fp4_ue8m0", "fp6/fp4/ue8m0 packed conversions, stochastic rounding (sm_100a)", [r"^cvt\.rn\.satfinite\.e2m3x2\.f32 ", r"^cvt\.rn\.satfinite\.e3m2x2\.f32 ", r"^cvt\.rn\.satfinite\.e2m1x2\.f32 ", r"^cvt\.rn\.f16x2\.e2m3x2 ", r"^cvt\.rn\.f16x2\.e3m2x2 ", r"^cvt\.rn\.f16x2\.e2m1x2 ", r"^cvt\.rz(\.satfinite)?\.ue8m0x2\.f32 ", r"^cvt\.rp(\.satfinite)?\.ue8m0x2\.f32 ", r"^cvt\.r[zp](\.satfinite)?\.ue8m0x2\.bf16x2 ", r"^cvt\.rn\.bf16x2\.ue8m0x2 ", r"^cvt\.rs\.satfinite\.e4m3x4\.f32 ", r"^cvt\.rs\.relu\.satfinite\.e2m1x4\.f32 ", r"^cvt\.rn\.satfinite\.tf32\.f32 "], True),
    # ---- comparison and selection ----------------------------------------------------------------
    ("setp.int", "setp integer comparisons (eq ne lt le gt ge lo ls hi hs; s32 u32 s64 u64 b32)", [r"^setp\.eq\.s32 ", r"^setp\.ne\.s32 ", r"^setp\.lt\.s32 ", r"^setp\.le\.s32 ", r"^setp\.gt\.s32 ", r"^setp\.ge\.s32 ", r"^setp\.lt\.u32 ", r"^setp\.ge\.u32 ", r"^setp\.lo\.u32 ", r"^setp\.ls\.u32 ", r"^setp\.hi\.u32 ", r"^setp\.hs\.u32 ", r"^setp\.lt\.s64 ", r"^setp\.gt\.u64 ", r"^setp\.eq\.b32 "], False),
    ("setp.float", "setp float comparisons, ordered and unordered, num/nan (f16/bf16/f32/f64)", [rf"^setp\.{c}\.f32 " for c in ("eq", "ne", "lt", "le", "gt", "ge", "neu", "ltu", "leu", "gtu", "geu", "num", "nan")] + [rf"^setp\.{c}\.f16 " for c in ("equ", "ltu", "geu")] + [rf"^setp\.{c}\.bf16 " for c in ("eq", "gtu")] + [rf"^setp\.{c}\.f64 " for c in ("lt", "geu", "ltu", "neu")], False),
    ("setp.bool", "setp with .and/.or/.xor and two destinations p|q", [r"^setp\.[a-z]+\.and\.", r"^setp\.[a-z]+\.or\.", r"^setp\.[a-z]+\.xor\.", r"\|"], False),
    ("set", "set (integer mask / float 1.0 results, with .and/.or; f16x2/bf16x2 masks)", [r"^set\.lt\.u32\.s32 ", r"^set\.ge\.s32\.f32 ", r"^set\.ne\.f32\.s32 ", r"^set\.ltu\.and\.u32\.f32 ", r"^set\.eq\.or\.f32\.u32 ", r"^set\.[a-z]+\.u32\.f16x2 ", r"^set\.[a-z]+\.u32\.bf16x2 ", r"^set\.[a-z]+\.f16x2\.f16x2 "], False),
    ("selp_slct", "selp and slct", [r"^selp\.b32 ", r"^selp\.b64 ", r"^selp\.u32 ", r"^slct\.u32\.s32 ", r"^slct\.f32\.f32 ", r"^slct\.ftz\.s32\.f32 "], False),
    # ---- data movement ---------------------------------------------------------------------------
    ("mov", "mov of registers, immediates, symbols and {lo, hi} packing", [r"^mov\.u32 ", r"^mov\.b32 \S+, \{", r"^mov\.b64 \S+, \{", r"^mov\.u32 %r\d+, _Z"], False),
    ("cvta_isspacep", "cvta / cvta.to for global/shared/local/const, isspacep", [r"^cvta\.to\.global\.u64 ", r"^cvta\.shared\.u64 ", r"^cvta\.local\.u64 ", r"^cvta\.const\.u64 ", r"^isspacep\.global ", r"^isspacep\.shared ", r"^isspacep\.local ", r"^isspacep\.const "], False),
    ("ld_st.spaces", "ld/st in every state space (global, shared, local, const, param, generic)", [r"^ld\.global\.", r"^st\.global\.", r"^ld\.shared\.", r"^st\.shared\.", r"^ld\.local\.", r"^st\.local\.", r"^ld\.const\.", r"^ld\.param\.", r"^st\.param\.", r"^ld\.u32 ", r"^st\.u32 "], False),
    ("ld_st.vector", "vector ld/st (.v2/.v4)", [r"^ld\.global\.(nc\.)?v2\.", r"^ld\.global\.nc\.v4\.", r"^st\.global\.v4\.", r"^ld\.shared\.v4\.", r"^st\.shared\.v4\.", r"^ld\.local\.v4\.", r"^st\.local\.v4\."], False),
    ("ld_st.widths", "ld/st of 8/16/32/64-bit scalars", [r"^ld\.global\.(nc\.)?u8 ", r"^ld\.global\.(nc\.)?u16 ", r"^st\.global\.u8 ", r"^st\.global\.u16 ", r"^st\.global\.u64 ", r"^ld\.global\.(nc\.)?f64 ", r"^st\.local\.u8 ", r"^ld\.local\.u8 "], False),
    ("ld_st.qualifiers", "ld.nc, cache operators, volatile", [r"^ld\.global\.nc\.", r"^ld\.global\.ca\.", r"^ld\.global\.cg\.", r"^ld\.global\.cs\.", r"^ld\.global\.lu\.", r"^ld\.global\.cv\.", r"^st\.global\.wb\.", r"^st\.global\.cg\.", r"^st\.global\.cs\.", r"^st\.global\.wt\.", r"^ld\.volatile\.shared\.", r"^st\.volatile\.shared\.", r"^ld\.volatile\.global\.", r"^st\.volatile\.global\."], False),
    ("ld_st.memory_order", "ld.relaxed/acquire, st.relaxed/release at cta/gpu/sys scope", [r"^ld\.acquire\.gpu\.", r"^ld\.acquire\.cta\.", r"^ld\.relaxed\.sys\.", r"^st\.release\.gpu\.", r"^st\.release\.cta\.", r"^st\.relaxed\.sys\."], False),
    # ---- atomics ---------------------------------------------------------------------------------
    ("atom.int", "atom integer ops (add min max and or xor inc dec exch cas) on global and shared", [rf"^atom\.global\.{op}\." for op in ("add", "min", "max", "and", "or", "xor", "inc", "dec", "exch", "cas")] + [rf"^atom\.shared\.{op}\." for op in ("add", "min", "max", "and", "or", "xor", "inc", "dec", "exch", "cas")], False),
    ("atom.types", "atom types u32 s32 u64 s64 b32 b64 b16", [r"^atom\.[a-z.]*\.u32 ", r"^atom\.[a-z.]*\.s32 ", r"^atom\.[a-z.]*\.u64 ", r"^atom\.[a-z.]*\.s64 ", r"^atom\.[a-z.]*\.b32 ", r"^atom\.[a-z.]*\.b64 ", r"^atom\.global\.cas\.b16 "], False),
    ("atom.float", "atom add f32/f64/f16/f16x2/bf16/bf16x2", [r"^atom\.global\.add\.f32 ", r"^atom\.global\.add\.f64 ", r"^atom\.shared\.add\.f32 ", r"^atom\.shared\.add\.f64 ", r"^atom\.add\.noftz\.f16 ", r"^atom\.add\.noftz\.f16x2 ", r"^atom\.add\.noftz\.bf16 ", r"^atom\.add\.noftz\.bf16x2 "], False),
    ("atom.scope", "atom scopes and orders (.cta .sys .relaxed.gpu .acq_rel.cta)", [r"^atom\.global\.cta\.", r"^atom\.global\.sys\.", r"^atom\.[a-z]+\.relaxed\.gpu\.", r"^atom\.[a-z]+\.acq_rel\.cta\."], False),
    ("red", "red (global and shared, int and float, with orders)", [r"^red\.global\.add\.u32 ", r"^red\.global\.min\.s32 ", r"^red\.global\.inc\.u32 ", r"^red\.global\.dec\.u32 ", r"^red\.global\.add\.u64 ", r"^red\.global\.add\.f32 ", r"^red\.global\.add\.noftz\.f16x2 ", r"^red\.shared\.add\.u32 ", r"^red\.shared\.max\.u64 ", r"^red\.relaxed\.gpu\.global\.", r"^red\.release\.gpu\.global\."], False),
    # ---- barriers and fences ---------------------------------------------------------------------
    ("bar", "bar.sync/bar.arrive/barrier.sync with ids and thread counts", [r"^bar\.sync 0$", r"^bar\.sync \S+, \S+$", r"^bar\.arrive \S+, \S+$", r"^barrier\.sync \d+, \d+$", r"^barrier\.sync\.aligned \d+, \d+$"], False),
    ("bar.red", "bar.red popc/and/or, incl. a named counted barrier", [r"^bar\.red\.popc\.u32 \S+, 0, ", r"^bar\.red\.and\.pred ", r"^bar\.red\.or\.pred ", r"^bar\.red\.popc\.u32 \S+, \d+, \d+, "], False),
    ("bar.warp", "bar.warp.sync (full and partial masks)", [r"^bar\.warp\.sync -1$", r"^bar\.warp\.sync 1431655765$"], False),
    ("fence", "membar.cta/gl/sys and fence.sc/acq_rel", [r"^membar\.cta$", r"^membar\.gl$", r"^membar\.sys$", r"^fence\.acq_rel\.gpu$", r"^fence\.sc\.cta$"], False),
    # ---- warp collectives ------------------------------------------------------------------------
    ("shfl", "shfl.sync idx/up/down/bfly (with predicate output)", [r"^shfl\.sync\.idx\.b32 ", r"^shfl\.sync\.up\.b32 ", r"^shfl\.sync\.down\.b32 ", r"^shfl\.sync\.bfly\.b32 ", r"^shfl\.sync\.\w+\.b32 %r\d+\|"], False),
    ("vote", "vote.sync all/any/uni/ballot", [r"^vote\.sync\.all\.pred ", r"^vote\.sync\.any\.pred ", r"^vote\.sync\.uni\.pred ", r"^vote\.sync\.ballot\.b32 "], False),
    ("match", "match.any/all .b32/.b64", [r"^match\.any\.sync\.b32 ", r"^match\.any\.sync\.b64 ", r"^match\.all\.sync\.b32 ", r"^match\.all\.sync\.b64 "], False),
    ("redux", "redux.sync add/min/max/and/or/xor", [r"^redux\.sync\.add\.", r"^redux\.sync\.min\.u32 ", r"^redux\.sync\.max\.s32 ", r"^redux\.sync\.and\.b32 ", r"^redux\.sync\.or\.b32 ", r"^redux\.sync\.xor\.b32 "], False),
    ("redux.f32", "redux.sync min/max .f32 (.abs, .NaN) (sm_100a)", [r"^redux\.sync\.min\.f32 ", r"^redux\.sync\.max\.abs\.f32 ", r"^redux\.sync\.min\.NaN\.f32 "], True),
    ("activemask_elect", "activemask, elect.sync", [r"^activemask\.b32 ", r"^elect\.sync "], False),
    # ---- special registers -----------------------------------------------------------------------
    ("sreg.ids", "%tid %ntid %ctaid %nctaid (x, y, z)", [rf"%{r}\.{d}\b" for r in ("tid", "ntid", "ctaid", "nctaid") for d in "xyz"], False),
    ("sreg.machine", "%laneid %warpid %nwarpid %smid %nsmid", [r"%laneid\b", r"%warpid\b", r"%nwarpid\b", r"%smid\b", r"%nsmid\b"], False),
    ("sreg.lanemask", "%lanemask_eq/lt/le/gt/ge", [rf"%lanemask_{m}\b" for m in ("eq", "lt", "le", "gt", "ge")], False),
    ("sreg.time", "%clock %clock64 %globaltimer", [r"%clock\b", r"%clock64\b", r"%globaltimer\b"], False),
    ("sreg.smem", "%dynamic_smem_size %total_smem_size", [r"%dynamic_smem_size\b", r"%total_smem_size\b"], False),
    ("sreg.cluster", "%clusterid %nclusterid %cluster_ctaid %cluster_nctaid %cluster_ctarank %cluster_nctarank %is_explicit_cluster", [r"%clusterid\.x", r"%nclusterid\.y", r"%cluster_ctaid\.z", r"%cluster_nctaid\.x", r"%cluster_ctarank\b", r"%cluster_nctarank\b", r"%is_explicit_cluster\b"], False),
    # ---- control flow ----------------------------------------------------------------------------
    ("ctrl.branch", "bra, bra.uni, predicated branches", [r"^bra ", r"^bra\.uni ", r"^@!?%p\d+ bra "], False),
    ("ctrl.brx", "brx.idx over .branchtargets", [r"^brx\.idx ", r"\.branchtargets "], False),
    ("ctrl.call", "call/call.uni/ret with .param passing, struct params, indirect call with .callprototype", [r"^call\.uni ", r"^call ", r"^ret$", r"\.callprototype", r"^\.param \.align \d+ \.b8 param\d+\[\d+\]$", r"^st\.param\.b32 \[param\d+"], False),
    ("ctrl.exit", "exit", [r"^exit$"], False),
    ("ctrl.trap", "trap (bad/ corpus)", [r"^trap$"], False),
    ("ctrl.nanosleep", "nanosleep", [r"^nanosleep\.u32 "], False),
    ("local", ".local stack frames (__local_depot, %SP)", [r"^\.local \.align \d+ \.b8 __local_depot\d+\[\d+\]$", r"^mov\.u64 %SPL, __local_depot\d+$"], False),
    ("module_vars", ".const/.global module variables, with and without initialisers, extern .shared", [r"^\.const \.align \d+ \.b8 \w+\[\d+\]$", r"^\.const \.align \d+ \.b8 \w+\[\d+\] = \{", r"^\.global \.align \d+ \.u64 \w+ = ", r"^\.global \.align \d+ \.u64 \w+\[\d+\] = \{_Z", r"^\.extern \.shared \.align \d+ \.b8 \w+\[\]$"], False),
    # ---- approximate ---------------------------------------------------------------------------
    ("approx", ".approx transcendentals (ex2 lg2 sin cos rsqrt sqrt rcp tanh div), f32/f64/f16/bf16", [r"^ex2\.approx\.(ftz\.)?f32 ", r"^lg2\.approx\.(ftz\.)?f32 ", r"^sin\.approx\.", r"^cos\.approx\.", r"^rsqrt\.approx\.(ftz\.)?f32 ", r"^rsqrt\.approx\.f64 ", r"^sqrt\.approx\.", r"^rcp\.approx\.(ftz\.)?f32 ", r"^rcp\.approx\.ftz\.f64 ", r"^tanh\.approx\.f32 ", r"^tanh\.approx\.f16x2 ", r"^tanh\.approx\.bf16 ", r"^ex2\.approx\.f16x2 ", r"^ex2\.approx\.ftz\.bf16x2 ", r"^div\.approx\.f32 "], False),
]

COMMENT = re.compile(r"//.*$")


def statements(path):
    """Instructions and directives of a PTX file, one normalised string each."""
    out = []
    with open(path) as f:
        for line in f:
            line = COMMENT.sub("", line).strip()
            if not line or re.match(r"^\.(loc|file)\s", line):
                continue
            for part in line.split(";"):
                s = part.strip().strip("{}").strip()
                s = re.sub(r"^[\w$]+:\s*", "", s)  # a label in front
                if not s:
                    continue
                s = re.sub(r"\s+", " ", s)
                s = re.sub(r"\s*,\s*", ", ", s)
                out.append(s)
                # A guarded instruction also counts without its guard.
                g = re.match(r"^@!?%\w+\s+(.*)$", s)
                if g:
                    out.append(g.group(1))
    return out


def target_of(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"^\.target\s+(\w+)", line)
            if m:
                return m.group(1)
    return "?"


def corpus():
    files = sorted(glob.glob(os.path.join(HERE, "*.ptx")))
    bad = sorted(p for p in glob.glob(os.path.join(HERE, "bad", "*.ptx")) if not p.endswith("malformed.ptx"))
    return [(os.path.relpath(p, HERE), target_of(p), statements(p)) for p in files + bad]


def coverage(kernels):
    """family id -> {pattern -> [files]}"""
    result = {}
    for fid, _, pats, _ in FAMILIES:
        hits = {}
        for pat in pats:
            rx = re.compile(pat)
            hits[pat] = [name for name, _, stmts in kernels if any(rx.search(s) for s in stmts)]
        result[fid] = hits
    return result


def main(argv):
    kernels = corpus()
    cov = coverage(kernels)
    targets = {name: tgt for name, tgt, _ in kernels}
    if "--table" in argv:
        # Per family: the files that match the most of its patterns (at most four), with how many.
        print("| family | what | main kernels (patterns matched / family patterns) |")
        print("|---|---|---|")
        for fid, desc, pats, sm100 in FAMILIES:
            per_file = {}
            for pat, files in cov[fid].items():
                for f in files:
                    per_file[f] = per_file.get(f, 0) + 1
            best = sorted(per_file.items(), key=lambda kv: (-kv[1], kv[0]))[:4]
            names = ", ".join(f"{os.path.splitext(f)[0]} ({k}/{len(pats)})" for f, k in best)
            print(f"| {fid}{' (sm_100a)' if sm100 else ''} | {desc} | {names} |")
        return 0
    if "--kernels" in argv:
        print("| kernel file | target | families |")
        print("|---|---|---|")
        for name, tgt, _ in kernels:
            fams = [fid for fid, _, _, _ in FAMILIES if any(name in fs for fs in cov[fid].values())]
            print(f"| {name} | {tgt} | {', '.join(fams)} |")
        return 0

    missing = []
    not_on_h200 = []
    for fid, desc, pats, sm100 in FAMILIES:
        for pat, files in cov[fid].items():
            real = [f for f in files if not f.startswith("bad/")] if fid != "ctrl.trap" else files
            if not real:
                missing.append(f"{fid}: no PTX statement matches /{pat}/ ({desc})")
            elif not sm100 and not any(targets[f] == "sm_90a" for f in real):
                not_on_h200.append(f"{fid}: /{pat}/ only in sm_100a kernels ({', '.join(real)})")
    n_pats = sum(len(p) for _, _, p, _ in FAMILIES)
    print(f"coverage: {len(FAMILIES)} families, {n_pats} patterns, {len(kernels)} PTX files")
    for m in missing + not_on_h200:
        print("MISSING " + m)
    if missing or not_on_h200:
        print("coverage: FAILED")
        return 1
    print("coverage: OK (every family exercised; all but the sm_100a-only ones by sm_90a kernels)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
