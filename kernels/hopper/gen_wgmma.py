#!/usr/bin/env python3
"""Generator of the single-instruction wgmma corpus (kernels/hopper/README.md, "wgmma_*").

From the tables below it writes
  common/wgmma_ops.h       one struct per instruction shape and types: the inline-asm wrappers of
                           wgmma.mma_async (A from shared memory: ss<>, from registers: rs<>)
  wgmma_<family>.cu        one kernel per (types, N), all instances of wgmma_single.cuh
  specs/wgmma/*.json       one launch spec per case (kernel x layouts x flags x K chain x data)
Then run gen_ptx.sh to regenerate the PTX. Usage: gen_wgmma.py [--check] (--check: write nothing,
exit 1 if any generated file would change). Standard library only.

PTX facts used (PTX ISA 9.2 §9.7.15.5.2, checked with ptxas 13.0 -arch=sm_90a):
  f16:  m64nNk16 .f16|.f32 D, N = 8..256 step 8, imm-scale-a/b, imm-trans-a/b (smem A only)
  bf16: m64nNk16 .f32 D, same immediates
  tf32: m64nNk8 .f32 D, imm-scale-a/b, no transpose
  e4m3/e5m2 (A, B mixable): m64nNk32 .f16|.f32 D, imm-scale-a/b, no transpose
  s8/u8 (A, B mixable): m64nNk32 .s32 D, optional .satfinite, N in 8, 16, 24, 32, 48..256 step 16
  b1: m64nNk256 .s32 .and.popc, same N as the integer types
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import specgen  # noqa: E402
from specgen import buf, uniform, bits, fill  # noqa: E402

HERE = specgen.HERE

# ---- operand types: PTX name -> (element bytes as laid out, spec dtype) ---------------------------
ELEM = {"f16": (2, "f16"), "bf16": (2, "bf16"), "tf32": (4, "f32"), "e4m3": (1, "e4m3"),
        "e5m2": (1, "e5m2"), "s8": (1, "i8"), "u8": (1, "u8"), "b1": (1, "u8")}
DSPEC = {"f32": "f32", "f16": "f16", "s32": "i32"}
K_OF = {2: 16, 4: 8, 1: 32}  # K per instruction by element bytes (b1: 256, handled apart)

# Default input ranges (values rounded to the type by the spec's generator).
RANGE = {"f16": (-2, 2), "bf16": (-2, 2), "tf32": (-2, 2), "e4m3": (-4, 4), "e5m2": (-4, 4),
         "s8": (-128, 127), "u8": (0, 255)}
C_RANGE = {"f32": (-4, 4), "f16": (-4, 4), "s32": (-1000000, 1000000)}
INT32_MAX, INT32_MIN = 2147483647, -2147483648

INT_N = [8, 16, 24, 32] + list(range(48, 257, 16))
FLOAT_N = list(range(8, 257, 8))


class Inst:
    """One wgmma.mma_async shape with its types."""

    def __init__(self, d, a, b, n):
        self.d, self.a, self.b, self.n = d, a, b, n
        self.b1 = a == "b1"
        self.e = ELEM[a][0]
        self.k = 256 if self.b1 else K_OF[self.e]
        self.integer = a in ("s8", "u8", "b1")
        self.can_trans = a in ("f16", "bf16")
        self.can_neg = not self.integer
        self.can_sat = a in ("s8", "u8")
        self.acc = "float" if d == "f32" else "uint32_t"
        self.regs = n // 4 if d == "f16" else n // 2
        legal_n = INT_N if self.integer else FLOAT_N
        assert n in legal_n, (a, n)
        assert ELEM[a][0] == ELEM[b][0]

    @property
    def types(self):
        return f"{self.d}_b1_b1_and" if self.b1 else f"{self.d}_{self.a}_{self.b}"

    @property
    def op(self):
        return f"Wgmma_m64n{self.n}k{self.k}_{self.types}"

    @property
    def kernel(self):
        return f"wgmma_{'s32_b1_and' if self.b1 else self.types}_n{self.n}"

    def opcode(self, sat=False):
        tail = f"{self.d}.b1.b1.and.popc" if self.b1 else f"{self.d}.{self.a}.{self.b}"
        return f"wgmma.mma_async.sync.aligned.m64n{self.n}k{self.k}{'.satfinite' if sat else ''}.{tail}"


# ---- the kernels: family file -> instructions ------------------------------------------------------
def family_table():
    fam = {}
    fam["bf16"] = [Inst("f32", "bf16", "bf16", n) for n in FLOAT_N]  # the full N sweep
    fam["f16"] = ([Inst("f32", "f16", "f16", n) for n in (8, 16, 24, 32, 48, 64, 96, 128, 192, 256)] +
                  [Inst("f16", "f16", "f16", n) for n in (8, 16, 24, 64, 128, 256)])
    fam["tf32"] = [Inst("f32", "tf32", "tf32", n) for n in (8, 16, 24, 32, 64, 128, 256)]
    fam["fp8"] = ([Inst("f32", "e4m3", "e4m3", n) for n in (8, 16, 24, 64, 128, 256)] +
                  [Inst("f16", "e4m3", "e4m3", n) for n in (8, 64, 256)] +
                  [Inst("f32", "e5m2", "e5m2", n) for n in (8, 64, 256)] +
                  [Inst("f16", "e5m2", "e5m2", n) for n in (16, 64)] +
                  [Inst("f32", "e4m3", "e5m2", n) for n in (16, 128)] +
                  [Inst("f32", "e5m2", "e4m3", n) for n in (24,)] +
                  [Inst("f16", "e4m3", "e5m2", n) for n in (32,)])
    fam["int8"] = ([Inst("s32", "s8", "s8", n) for n in (8, 16, 24, 32, 48, 64, 128, 256)] +
                   [Inst("s32", "u8", "u8", n) for n in (8, 64, 256)] +
                   [Inst("s32", "s8", "u8", n) for n in (16, 128)] +
                   [Inst("s32", "u8", "s8", n) for n in (24, 240)])
    fam["b1"] = [Inst("s32", "b1", "b1", n) for n in (8, 16, 24, 64, 256)]
    return fam


# ---- common/wgmma_ops.h ------------------------------------------------------------------------------
def regs_list(first, count):
    return ", ".join(f"%{first + i}" for i in range(count))


def constraint_list(kind, var, count):
    return ", ".join(f'"{kind}"({var}[{i}])' for i in range(count))


def variants(ins, form):
    """Legal immediates of the form ("ss" or "rs"): list of (variant code, sa, sb, ta, tb, sat).
    Variant code bits: 0 imm-scale-a = -1, 1 imm-scale-b = -1, 2 imm-trans-a, 3 imm-trans-b,
    4 .satfinite (wgmma_single.cuh computes it from the kernel arguments)."""
    out = []
    for code in range(32):
        na, nb, ta, tb, sat = [(code >> i) & 1 for i in range(5)]
        if (na or nb) and not ins.can_neg:
            continue
        if (ta or tb) and not ins.can_trans:
            continue
        if ta and form == "rs":  # no imm-trans-a with A in registers
            continue
        if sat and not ins.can_sat:
            continue
        out.append((code, -1 if na else 1, -1 if nb else 1, ta, tb, sat))
    return out


def op_struct(ins):
    r = ins.regs
    kc = "+f" if ins.acc == "float" else "+r"
    outs = constraint_list(kc, "d", r)
    lines = [f"// {ins.opcode()}",
             f"struct {ins.op} {{",
             f"  using Acc = {ins.acc};",
             f"  static constexpr uint32_t kN = {ins.n}, kK = {ins.k}, kRegs = {r}, kElemBytes = {ins.e};",
             f"  static constexpr bool kCanTranspose = {str(ins.can_trans).lower()}, "
             f"kCanNegate = {str(ins.can_neg).lower()}, kCanSatfinite = {str(ins.can_sat).lower()};"]
    for form in ("ss", "rs"):
        if form == "ss":
            lines.append(f"  __device__ static __forceinline__ void ss(Acc (&d)[{r}], uint64_t a, uint64_t b, "
                         "uint32_t scale_d, uint32_t variant) {")
            a_ops, ins_ops = f"%{r}", '"l"(a), "l"(b), "r"(scale_d)'
            b_idx, sd_idx = r + 1, r + 2
        else:
            lines.append(f"  __device__ static __forceinline__ void rs(Acc (&d)[{r}], const uint32_t (&a)[4], "
                         "uint64_t b, uint32_t scale_d, uint32_t variant) {")
            a_ops = "{" + regs_list(r, 4) + "}"
            ins_ops = '"r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(scale_d)'
            b_idx, sd_idx = r + 4, r + 5
        # One asm statement holding every legal variant, selected by PTX branches on `variant`:
        # all variants then share the same accumulator registers (a C++ switch would give each
        # its own copies and the PTX grows by N/2 movs per variant).
        tag = form.upper()
        lines.append("    asm volatile(")
        lines.append(f'        "{{\\n.reg .pred p, v;\\nsetp.ne.b32 p, %{sd_idx}, 0;\\n"')
        for code, sa, sb, ta, tb, sat in variants(ins, form):
            # Immediates after scale-d (§9.7.15.5.2): f16/bf16 imm-scale-a, imm-scale-b, imm-trans-a
            # (descriptor A only), imm-trans-b; tf32/fp8 imm-scale-a, imm-scale-b; integer none.
            if ins.can_trans:
                imms = [sa, sb] + ([ta] if form == "ss" else []) + [tb]
            elif ins.can_neg:
                imms = [sa, sb]
            else:
                imms = []
            imm_text = "".join(f", {v}" for v in imms)
            lines.append(f'        "setp.ne.u32 v, %{sd_idx + 1}, {code};\\n@v bra {tag}_NOT{code};\\n"')
            lines.append(f'        "{ins.opcode(bool(sat))} "')
            lines.append(f'        "{{{regs_list(0, r)}}}, "')
            lines.append(f'        "{a_ops}, %{b_idx}, p{imm_text};\\nbra.uni {tag}_DONE;\\n{tag}_NOT{code}:\\n"')
        lines.append(f'        "trap;\\n{tag}_DONE:\\n}}\\n"')
        lines.append(f"        : {outs}")
        lines.append(f'        : {ins_ops}, "r"(variant)')
        lines.append('        : "memory");')
        lines.append("  }")
    # Fixed-immediate forms for pipelined kernels (the GEMMs): no negation, A and B K-major
    # (ss0) or B MN-major (ss_tb), descriptor A.
    plain = [("ss0", 0)] + ([("ss_tb", 1)] if ins.can_trans else [])
    for fname, tb in plain:
        imms = ([1, 1, 0, tb] if ins.can_trans else [1, 1] if ins.can_neg else [])
        imm_text = "".join(f", {v}" for v in imms)
        lines.append(f"  __device__ static __forceinline__ void {fname}(Acc (&d)[{r}], uint64_t a, uint64_t b, "
                     "uint32_t scale_d) {")
        lines.append("    asm volatile(")
        lines.append(f'        "{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{r + 2}, 0;\\n"')
        lines.append(f'        "{ins.opcode()} "')
        lines.append(f'        "{{{regs_list(0, r)}}}, "')
        lines.append(f'        "%{r}, %{r + 1}, p{imm_text};\\n}}\\n"')
        lines.append(f"        : {outs}")
        lines.append('        : "l"(a), "l"(b), "r"(scale_d)')
        lines.append('        : "memory");')
        lines.append("  }")
    lines.append("};")
    return "\n".join(lines)


def ops_header(fams):
    out = ["// GENERATED by kernels/hopper/gen_wgmma.py -- edit the tables there, not this file.",
           "// Inline-asm wrappers of wgmma.mma_async (PTX ISA 9.2 §9.7.15.5.2), one struct per shape",
           "// and types: ss() takes A by descriptor, rs() from four registers. scale-d is a run-time value",
           "// (a predicate set from it); the immediates are chosen by `variant` (bits: 0 imm-scale-a = -1,",
           "// 1 imm-scale-b = -1, 2 imm-trans-a, 3 imm-trans-b, 4 .satfinite): one instruction per legal",
           "// combination, selected by branches inside the asm (warp-uniform: `variant` comes from kernel",
           "// arguments), anything else traps. ss0() / ss_tb() are the fixed forms pipelined kernels use",
           "// (A and B K-major / B MN-major, no negation).",
           "#pragma once", "#include <cstdint>", "", "namespace hopper {", ""]
    for fam in fams.values():
        for ins in fam:
            out.append(op_struct(ins))
            out.append("")
    out.append("}  // namespace hopper")
    return "\n".join(out) + "\n"


def family_cu(name, insts):
    out = [f"// GENERATED by kernels/hopper/gen_wgmma.py -- the {name} single-instruction wgmma kernels,",
           "// one per instruction shape; the kernel body is wgmma_single.cuh.",
           '#include "wgmma_single.cuh"', ""]
    for ins in insts:
        out.append(f"HOPPER_WGMMA_SINGLE_KERNEL({ins.kernel}, hopper::{ins.op})")
    return "\n".join(out) + "\n"


# ---- layouts (mirror of common/smem_layout.h, for the shared-memory size of each spec) -------------
def layout_word(major=0, swz=3, order=0, anchored=0, pad=0, offset=0):
    return major | (swz << 1) | (order << 3) | (anchored << 4) | (pad << 8) | (offset << 16)


def footprint(word, rows, e, ksteps):
    major, swz, order = word & 1, (word >> 1) & 3, (word >> 3) & 1
    pad, offset = (word >> 8) & 15, word >> 16
    kbytes = 32 * ksteps
    cdiv = lambda a, b: (a + b - 1) // b  # noqa: E731
    if swz == 0:
        unit, inner = 16, 128 + pad * 16
        n_mn = cdiv(rows, 8) if major == 0 else cdiv(rows * e, 16)
        n_k = kbytes // 16 if major == 0 else kbytes // e // 8
        last = 128
    else:
        w = 16 << swz
        unit, inner, last = 8 * w, 8 * w + pad * 8 * w, 8 * w
        n_mn = cdiv(rows, 8) if major == 0 else cdiv(rows * e, w)
        n_k = cdiv(kbytes, w) if major == 0 else kbytes // e // 8
    if order == 0:
        k_stride = inner
        mn_stride = n_k * k_stride + pad * unit
    else:
        mn_stride = inner
        k_stride = n_mn * mn_stride + pad * unit
    return offset + (n_mn - 1) * mn_stride + (n_k - 1) * k_stride + last


def smem_bytes(ins, la, lb, ksteps, a_regs):
    fa = 0 if a_regs else (footprint(la, 64, ins.e, ksteps) + 1023) // 1024 * 1024
    return 1024 + fa + footprint(lb, ins.n, ins.e, ksteps)


# Flags (wgmma_single.cuh).
SCALE_D, NEG_A, NEG_B, A_REGS, SATF, COMMIT_EACH = 1, 2, 4, 8, 16, 32
SWZ_NAME = {0: "none", 1: "sw32", 2: "sw64", 3: "sw128"}


def layout_name(word):
    major, swz, order, anch = word & 1, (word >> 1) & 3, (word >> 3) & 1, (word >> 4) & 1
    pad, off = (word >> 8) & 15, word >> 16
    s = ("mn" if major else "k") + "-" + SWZ_NAME[swz]
    if order:
        s += "-o1"
    if pad:
        s += f"-p{pad}"
    if off:
        s += f"-off{off}"
    if anch:
        s += "-anch"
    return s


def describe_layout(word):
    major, swz, order, anch = word & 1, (word >> 1) & 3, (word >> 3) & 1, (word >> 4) & 1
    pad, off = (word >> 8) & 15, word >> 16
    s = f"{'MN' if major else 'K'}-major, {'no swizzle' if swz == 0 else SWZ_NAME[swz][2:] + 'B swizzle'}"
    s += f", order {order}"
    if pad:
        s += f", pad {pad}"
    if off:
        s += f", tile at +{off} B"
    if swz:
        s += ", pattern anchored at the tile start (base offset != 0)" if anch else ", absolute pattern"
    return s


class Case:
    def __init__(self, name, la=None, lb=None, flags=SCALE_D, ksteps=2, data="default", seed=1):
        self.name = name
        self.la = layout_word() if la is None else la
        self.lb = layout_word() if lb is None else lb
        self.flags, self.ksteps, self.data, self.seed = flags, ksteps, data, seed


def inputs(ins, case):
    """The buffers of a case: A, B, C random, D zero."""
    kel = (32 // ins.e) * case.ksteps  # K elements per row (bytes for b1)
    s = case.seed * 10
    ea, eb = ELEM[ins.a][1], ELEM[ins.b][1]

    def op_init(t, seed):
        if t == "b1":
            return bits(seed)
        lo, hi = RANGE[t]
        if case.data == "wide":  # the whole finite range: products overflow a f16 accumulator
            lo, hi = {"e4m3": (-448, 448), "e5m2": (-57344, 57344), "f16": (-65504, 65504)}[t]
        if case.data == "small":  # subnormal fp8/f16 inputs; bf16/tf32 products near f32's subnormals
            lo, hi = {"e4m3": (-0.03125, 0.03125), "e5m2": (-0.0001, 0.0001), "f16": (-0.0001, 0.0001),
                      "bf16": (-1e-19, 1e-19), "tf32": (-1e-19, 1e-19)}[t]
        return uniform(seed, lo, hi)

    lo, hi = C_RANGE[ins.d]
    if case.data == "sat_max":
        lo, hi = INT32_MAX - 200000, INT32_MAX
    elif case.data == "sat_min":
        lo, hi = INT32_MIN, INT32_MIN + 200000
    elif case.data == "small":
        lo, hi = {"f16": (-0.0001, 0.0001), "f32": (-1e-37, 1e-37) if ins.a in ("bf16", "tf32") else (-1e-7, 1e-7)}[ins.d]
    return {
        "A": buf(ea, [64, kel], op_init(ins.a, s + 1)),
        "B": buf(eb, [ins.n, kel], op_init(ins.b, s + 2)),
        "C": buf(DSPEC[ins.d], [64, ins.n], uniform(s + 3, lo, hi)),
        "D": buf(DSPEC[ins.d], [64, ins.n], fill(0)),
    }


def spec_for(ins, family, case):
    a_regs = bool(case.flags & A_REGS)
    fl = []
    if case.flags & SCALE_D:
        fl.append("D = A*B + C")
    else:
        fl.append("D = A*B (scale-d 0: C must be ignored)")
    if case.flags & NEG_A:
        fl.append("imm-scale-a -1")
    if case.flags & NEG_B:
        fl.append("imm-scale-b -1")
    if case.flags & SATF:
        fl.append(".satfinite")
    if case.flags & COMMIT_EACH:
        fl.append("one wgmma-group per K-step, wait_group 1 between")
    comment = (f"{ins.opcode(bool(case.flags & SATF))} x{case.ksteps} K-steps; "
               f"A: {'registers' if a_regs else describe_layout(case.la)}; B: {describe_layout(case.lb)}; "
               + "; ".join(fl) + f"; data {case.data}, seed {case.seed}. Generated by gen_wgmma.py.")
    return {
        "comment": comment,
        "ptx": f"../../wgmma_{family}.ptx",
        "kernel": ins.kernel,
        "arch": "sm_90a",
        "grid": [1, 1, 1],
        "block": [128, 1, 1],
        "dynamic_smem_bytes": smem_bytes(ins, case.la, case.lb, case.ksteps, a_regs),
        "buffers": inputs(ins, case),
        "args": [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "C"}, {"buffer": "D"},
                 {"u32": case.la}, {"u32": case.lb}, {"u32": case.flags}, {"u32": case.ksteps}],
        "outputs": ["D"],
    }


# ---- which cases each kernel gets ----------------------------------------------------------------------
def L(major=0, swz=3, **kw):
    return layout_word(major, swz, **kw)


def majors(ins):
    return (0, 1) if ins.can_trans else (0,)


def base_cases(ins):
    """Every kernel: the production layout (K-major, 128B swizzle, K chain 2), A from registers
    with one K-step, MN-major operands where the type allows, and scale-d 0 with negation
    (floating point) or .satfinite near INT32_MAX (integer)."""
    cs = [Case("base"), Case("areg-k1", flags=SCALE_D | A_REGS, ksteps=1)]
    if ins.can_trans:
        cs.append(Case("a-mn-sw128_b-mn-sw64", la=L(1, 3), lb=L(1, 2)))
    if ins.can_neg:
        cs.append(Case("scaled0-nega-negb", flags=NEG_A | NEG_B))
    elif ins.can_sat:
        cs.append(Case("satmax", flags=SCALE_D | SATF, data="sat_max"))
    else:
        cs.append(Case("scaled0", flags=0))
    return cs


def mid_cases(ins):
    """Every layout of A against the base B and of B against the base A, plus the flags."""
    cs = base_cases(ins)
    for m in majors(ins):
        for s in (0, 1, 2, 3):
            w = L(m, s)
            if w != L():
                cs.append(Case(f"a-{layout_name(w)}", la=w))
                cs.append(Case(f"b-{layout_name(w)}", lb=w))
    cs += [Case("k4", ksteps=4), Case("commit-each-k4", flags=SCALE_D | COMMIT_EACH, ksteps=4),
           Case("areg-b-k-none-k4", lb=L(0, 0), flags=SCALE_D | A_REGS, ksteps=4),
           Case("ab-k-sw64-o1-p1", la=L(0, 2, order=1, pad=1), lb=L(0, 2, order=1, pad=1)),
           Case("ab-k-sw128-off384-anch", la=L(0, 3, offset=384, anchored=1),
                lb=L(0, 3, offset=1408, anchored=1))]
    if ins.can_neg:
        cs += [Case("scaled0", flags=0), Case("nega", flags=SCALE_D | NEG_A), Case("negb", flags=SCALE_D | NEG_B)]
    if ins.can_sat:
        cs += [Case("satmin", flags=SCALE_D | SATF, data="sat_min"), Case("wrapmax", data="sat_max")]
    return cs


def full_cases(ins):
    """The layout judges: every layout of A and of B, stride orders and padding, tile offsets and
    anchored swizzle patterns, register A against several B layouts, every flag, K chains."""
    cs = mid_cases(ins)
    layouts = [(m, s) for m in majors(ins) for s in (0, 1, 2, 3)]
    for m, s in layouts:
        w = L(m, s)
        cs.append(Case(f"ab-{layout_name(w)}", la=w, lb=w, ksteps=3))
    for m, s in layouts:  # stride order and padding (non-packed LBO/SBO)
        for order, pad in ((1, 0), (0, 1), (1, 2)):
            w = L(m, s, order=order, pad=pad)
            cs.append(Case(f"ab-{layout_name(w)}", la=w, lb=w, ksteps=4))
    for m in majors(ins):  # tile offsets; swizzle pattern absolute or anchored at the tile start
        cs.append(Case(f"ab-{layout_name(L(m, 0, offset=48))}", la=L(m, 0, offset=48), lb=L(m, 0, offset=176)))
        for s in (1, 2, 3):
            for off, anch in ((384, 0), (384, 1), (640, 1)):
                w = L(m, s, offset=off, anchored=anch)
                cs.append(Case(f"ab-{layout_name(w)}", la=w, lb=L(m, s, offset=off + 1024, anchored=anch)))
    for lb in [L(0, 0), L(0, 1), L(0, 3, order=1, pad=1)] + ([L(1, 2), L(1, 0, order=1)] if ins.can_trans else []):
        for k in (1, 4):
            cs.append(Case(f"areg-b-{layout_name(lb)}-k{k}", lb=lb, flags=SCALE_D | A_REGS, ksteps=k))
    cs += [Case("k1", ksteps=1), Case("k3", ksteps=3),
           Case("areg-commit-each-k4", flags=SCALE_D | A_REGS | COMMIT_EACH, ksteps=4),
           Case("scaled0-k4", flags=0, ksteps=4), Case("seed2", seed=2)]
    if ins.can_neg:
        cs += [Case("areg-nega-negb", flags=SCALE_D | A_REGS | NEG_A | NEG_B), Case("small", data="small")]
        if ins.a in ("e4m3", "e5m2", "f16"):
            cs.append(Case("wide", data="wide"))
    if ins.can_sat:
        cs += [Case("wrapmin", data="sat_min"),
               Case("areg-satmax-k4", flags=SCALE_D | SATF | A_REGS, data="sat_max", ksteps=4)]
    return cs


def reduced_cases(ins):
    """Second-line kernels: the base cases plus each swizzle of B, no-swizzle A, and stride order."""
    cs = base_cases(ins)
    for s in (0, 1, 2):
        cs.append(Case(f"b-{layout_name(L(0, s))}", lb=L(0, s)))
    cs.append(Case("a-k-none-o1_b-k-sw64-o1", la=L(0, 0, order=1), lb=L(0, 2, order=1, pad=1)))
    if ins.can_trans:
        cs.append(Case("a-mn-none_b-mn-sw32", la=L(1, 0), lb=L(1, 1)))
    if ins.can_neg and ins.d == "f16":
        cs.append(Case("wide", data="wide"))
    if ins.can_sat:
        cs += [Case("satmin", flags=SCALE_D | SATF, data="sat_min"), Case("wrapmax", data="sat_max")]
    return cs


FULL = {"wgmma_f32_bf16_bf16_n64", "wgmma_f32_e4m3_e4m3_n64", "wgmma_s32_s8_s8_n64"}
MID = {"wgmma_f32_bf16_bf16_n24", "wgmma_f16_f16_f16_n128", "wgmma_f32_tf32_tf32_n32", "wgmma_s32_b1_and_n64"}
REDUCED = {"wgmma_f32_bf16_bf16_n8", "wgmma_f32_bf16_bf16_n256", "wgmma_f32_f16_f16_n256",
           "wgmma_f16_e5m2_e5m2_n64", "wgmma_f16_e4m3_e4m3_n256", "wgmma_s32_u8_s8_n24",
           "wgmma_s32_u8_u8_n256", "wgmma_f32_tf32_tf32_n256", "wgmma_s32_b1_and_n256"}


def cases_for(ins):
    if ins.kernel in FULL:
        cs = full_cases(ins)
    elif ins.kernel in MID:
        cs = mid_cases(ins)
    elif ins.kernel in REDUCED:
        cs = reduced_cases(ins)
    elif ins.a == "bf16" and ins.d == "f32":  # the N sweep: base layout and register A
        cs = [Case("base"), Case("areg-k1", flags=SCALE_D | A_REGS, ksteps=1)]
    else:
        cs = base_cases(ins)
    unique = {}
    for c in cs:  # a case reached from two sweeps is kept once; one name, one configuration
        key = (c.la, c.lb, c.flags, c.ksteps, c.data, c.seed)
        if c.name in unique:
            assert unique[c.name][0] == key, (ins.kernel, c.name)
            continue
        unique[c.name] = (key, c)
    return [c for _, c in unique.values()]


def generate():
    """Returns {relative path: text} of every generated file."""
    fams = family_table()
    files = {"common/wgmma_ops.h": ops_header(fams)}
    for fam, insts in fams.items():
        files[f"wgmma_{fam}.cu"] = family_cu(fam, insts)
        for ins in insts:
            for case in cases_for(ins):
                path = f"specs/wgmma/{ins.kernel}__{case.name}.json"
                files[path] = specgen.dumps(spec_for(ins, fam, case)) + "\n"
    return files


def main(argv):
    check = "--check" in argv
    files = generate()
    changed = []
    for rel, text in sorted(files.items()):
        path = os.path.join(HERE, rel)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            changed.append(rel)
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
    spec_dir = os.path.join(HERE, "specs", "wgmma")
    stale = [f"specs/wgmma/{n}" for n in sorted(os.listdir(spec_dir)) if f"specs/wgmma/{n}" not in files] \
        if os.path.isdir(spec_dir) else []
    if not check:
        for rel in stale:
            os.remove(os.path.join(HERE, rel))
    n_specs = sum(1 for r in files if r.startswith("specs/"))
    if check:
        for rel in changed + stale:
            print(f"gen_wgmma --check: {rel} is out of date (run gen_wgmma.py)")
        print(f"gen_wgmma --check: {len(files) - n_specs} sources, {n_specs} specs, "
              f"{len(changed) + len(stale)} out of date")
        return 1 if changed or stale else 0
    print(f"gen_wgmma: {len(files) - n_specs} sources, {n_specs} specs; {len(changed)} written, "
          f"{len(stale)} stale specs removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
