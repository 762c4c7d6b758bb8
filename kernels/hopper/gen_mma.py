#!/usr/bin/env python3
"""Generator of the single-instruction mma.sync corpus (kernels/hopper/README.md, "mma_sync").

From the table below it writes
  common/mma_ops.h      one struct per mma.sync form: its inline-asm wrapper and fragment sizes
  mma_sync.cu           one kernel per form, all instances of mma_single.cuh
  specs/mma/*.json      launch specs
Then run gen_ptx.sh. Usage: gen_mma.py [--check]. Standard library only.

Forms: PTX ISA 9.2 §9.7.14.5.14 (syntax) and §9.7.14.5.x (fragments); every one assembles with
ptxas 13.0 for sm_90a. The m8n8k4 .f16 (Volta) form is left out: its quad-pair fragments are not
the unit layout of common/mma_fragments.h and nvcc never emits it for sm_80+. C and D types must be
equal for every other shape (ptxas: ".dtype must be '.f16' when .ctype is '.f16'"), so every form
chains.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import specgen  # noqa: E402
from specgen import buf, uniform, bits, fill  # noqa: E402

HERE = specgen.HERE

BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8, "s4": 4, "u4": 4,
        "b1": 1, "f64": 64}
SPEC_DTYPE = {"f16": "f16", "bf16": "bf16", "tf32": "f32", "e4m3": "e4m3", "e5m2": "e5m2", "s8": "i8",
              "u8": "u8", "f64": "f64"}  # s4/u4/b1: packed bytes (u8)
ACC = {"f32": ("float", "f", 4), "f16": ("uint32_t", "r", 2), "s32": ("int32_t", "r", 4),
       "f64": ("double", "d", 8)}
RANGE = {"f16": (-2, 2), "bf16": (-2, 2), "tf32": (-2, 2), "e4m3": (-4, 4), "e5m2": (-4, 4),
         "s8": (-128, 127), "u8": (0, 255), "f64": (-2, 2)}
C_RANGE = {"f32": (-4, 4), "f16": (-4, 4), "s32": (-1000000, 1000000), "f64": (-4, 4)}
INT32_MAX, INT32_MIN = 2147483647, -2147483648


class Form:
    def __init__(self, m, k, d, a, b, c, sat=False, bitop=None):
        self.m, self.n, self.k, self.d, self.a, self.b, self.c = m, 8, k, d, a, b, c
        self.sat, self.bitop = sat, bitop
        self.unit_bits = 64 if a == "f64" else 32
        self.k_units = k * BITS[a] // self.unit_bits
        self.a_regs = m * k * BITS[a] // 32 // self.unit_bits
        self.b_regs = k * 8 * BITS[b] // 32 // self.unit_bits
        self.c_elems = m * 8 // 32
        per_reg = 2 if c == "f16" else 1
        self.c_regs = self.c_elems // per_reg
        self.d_regs = self.c_elems // (2 if d == "f16" else 1)
        assert self.a_regs in (1, 2, 4, 8) and self.b_regs in (1, 2, 4)

    @property
    def shape(self):
        return f"m{self.m}n8k{self.k}"

    @property
    def types(self):
        return f"{self.d}_{self.a}_{self.b}_{self.c}"

    @property
    def name(self):
        s = f"{self.shape}_{self.types}"
        if self.sat:
            s += "_satfinite"
        if self.bitop:
            s += f"_{self.bitop}_popc"
        return s

    @property
    def op(self):
        return "Mma_" + self.name

    @property
    def kernel(self):
        return "mma_" + self.name

    @property
    def opcode(self):
        s = f"mma.sync.aligned.{self.shape}.row.col{'.satfinite' if self.sat else ''}"
        s += f".{self.d}.{self.a}.{self.b}.{self.c}"
        if self.bitop:
            s += f".{self.bitop}.popc"
        return s


FORMS = [
    # f16 / bf16 (sm_80+)
    Form(16, 16, "f32", "f16", "f16", "f32"), Form(16, 16, "f16", "f16", "f16", "f16"),
    Form(16, 16, "f32", "bf16", "bf16", "f32"),
    Form(16, 8, "f32", "f16", "f16", "f32"), Form(16, 8, "f16", "f16", "f16", "f16"),
    Form(16, 8, "f32", "bf16", "bf16", "f32"),
    # tf32 (sm_80+)
    Form(16, 8, "f32", "tf32", "tf32", "f32"), Form(16, 4, "f32", "tf32", "tf32", "f32"),
    # fp8 (sm_89+; f16 accumulation since PTX 8.7)
    Form(16, 32, "f32", "e4m3", "e4m3", "f32"), Form(16, 32, "f32", "e5m2", "e5m2", "f32"),
    Form(16, 32, "f32", "e4m3", "e5m2", "f32"), Form(16, 32, "f32", "e5m2", "e4m3", "f32"),
    Form(16, 32, "f16", "e4m3", "e4m3", "f16"), Form(16, 32, "f16", "e5m2", "e5m2", "f16"),
    # 8-bit integer
    Form(16, 32, "s32", "s8", "s8", "s32"), Form(16, 32, "s32", "s8", "s8", "s32", sat=True),
    Form(16, 32, "s32", "u8", "s8", "s32"), Form(16, 32, "s32", "u8", "u8", "s32", sat=True),
    Form(16, 16, "s32", "s8", "s8", "s32"), Form(16, 16, "s32", "s8", "u8", "s32", sat=True),
    Form(8, 16, "s32", "s8", "s8", "s32"), Form(8, 16, "s32", "u8", "s8", "s32"),
    # 4-bit integer
    Form(16, 64, "s32", "s4", "s4", "s32"), Form(16, 64, "s32", "u4", "s4", "s32", sat=True),
    Form(16, 32, "s32", "s4", "s4", "s32"), Form(8, 32, "s32", "s4", "u4", "s32"),
    Form(8, 32, "s32", "u4", "u4", "s32", sat=True),
    # 1-bit
    Form(16, 256, "s32", "b1", "b1", "s32", bitop="and"), Form(16, 256, "s32", "b1", "b1", "s32", bitop="xor"),
    Form(16, 128, "s32", "b1", "b1", "s32", bitop="and"), Form(8, 128, "s32", "b1", "b1", "s32", bitop="xor"),
    # f64 (DMMA: m8n8k4 sm_80+, m16n8k4/k8/k16 sm_90)
    Form(8, 4, "f64", "f64", "f64", "f64"), Form(16, 4, "f64", "f64", "f64", "f64"),
    Form(16, 8, "f64", "f64", "f64", "f64"), Form(16, 16, "f64", "f64", "f64", "f64"),
]


def op_struct(f):
    unit = "double" if f.a == "f64" else "uint32_t"
    ucon = "d" if f.a == "f64" else "r"
    dtype, dcon, dbytes = ACC[f.d]
    ctype, ccon, cbytes = ACC[f.c]
    n = 0
    d_ops = ", ".join(f"%{n + i}" for i in range(f.d_regs))
    n += f.d_regs
    a_ops = ", ".join(f"%{n + i}" for i in range(f.a_regs))
    n += f.a_regs
    b_ops = ", ".join(f"%{n + i}" for i in range(f.b_regs))
    n += f.b_regs
    c_ops = ", ".join(f"%{n + i}" for i in range(f.c_regs))
    outs = ", ".join(f'"={dcon}"(d[{i}])' for i in range(f.d_regs))
    ins = ", ".join([f'"{ucon}"(a[{i}])' for i in range(f.a_regs)] + [f'"{ucon}"(b[{i}])' for i in range(f.b_regs)] +
                    [f'"{ccon}"(c[{i}])' for i in range(f.c_regs)])
    return "\n".join([
        f"// {f.opcode}",
        f"struct {f.op} {{",
        f"  using Unit = {unit};",
        f"  using CReg = {ctype};",
        f"  using DReg = {dtype};",
        f"  static constexpr uint32_t kM = {f.m}, kKUnits = {f.k_units}, kARegs = {f.a_regs}, kBRegs = {f.b_regs};",
        f"  static constexpr uint32_t kCElems = {f.c_elems}, kCRegs = {f.c_regs}, kDRegs = {f.d_regs}, "
        f"kCBytes = {cbytes}, kDBytes = {dbytes};",
        f"  static constexpr bool kChainable = {'true' if f.c == f.d else 'false'};",
        f"  __device__ static __forceinline__ void mma(DReg (&d)[{f.d_regs}], const Unit (&a)[{f.a_regs}], "
        f"const Unit (&b)[{f.b_regs}], const CReg (&c)[{f.c_regs}]) {{",
        f'    asm volatile("{f.opcode} {{{d_ops}}}, {{{a_ops}}}, {{{b_ops}}}, {{{c_ops}}};"',
        f"                 : {outs}",
        f"                 : {ins});",
        "  }",
        "};",
    ])


def ops_header():
    out = ["// GENERATED by kernels/hopper/gen_mma.py -- edit the table there, not this file.",
           "// Inline-asm wrappers of mma.sync (PTX ISA 9.2 §9.7.14.5.14), one struct per form, with the",
           "// fragment sizes mma_single.cuh needs (registers of A, B, C, D; K in 32/64-bit units).",
           "#pragma once", "#include <cstdint>", "", "namespace hopper {", ""]
    for f in FORMS:
        out += [op_struct(f), ""]
    out.append("}  // namespace hopper")
    return "\n".join(out) + "\n"


def kernels_cu():
    out = ["// GENERATED by kernels/hopper/gen_mma.py -- the single-instruction mma.sync kernels, one per",
           "// form; the kernel body is mma_single.cuh.",
           '#include "mma_single.cuh"', ""]
    for f in FORMS:
        out.append(f"HOPPER_MMA_SINGLE_KERNEL({f.kernel}, hopper::{f.op})")
    return "\n".join(out) + "\n"


def operand(t, rows, kel, seed, data):
    if t in ("s4", "u4", "b1"):
        return buf("u8", [rows, kel * BITS[t] // 8], bits(seed))
    lo, hi = RANGE[t]
    if data == "wide":
        lo, hi = {"e4m3": (-448, 448), "e5m2": (-57344, 57344), "f16": (-65504, 65504)}.get(t, (lo, hi))
    return buf(SPEC_DTYPE[t], [rows, kel], uniform(seed, lo, hi))


def spec(f, name, ksteps, data="default", seed=1):
    kel = f.k * ksteps
    s = seed * 10
    lo, hi = C_RANGE[f.c]
    if data == "sat_max":
        lo, hi = INT32_MAX - 200000, INT32_MAX
    elif data == "sat_min":
        lo, hi = INT32_MIN, INT32_MIN + 200000
    cdt = {"f32": "f32", "f16": "f16", "s32": "i32", "f64": "f64"}
    return name, {
        "comment": (f"{f.opcode} x{ksteps} chained (D of a step is the C of the next), 4 warps, "
                    f"fragments loaded from global memory; data {data}, seed {seed}. Generated by gen_mma.py."),
        "ptx": "../../mma_sync.ptx",
        "kernel": f.kernel,
        "arch": "sm_90a",
        "grid": [1, 1, 1],
        "block": [128, 1, 1],
        "buffers": {
            "A": operand(f.a, 4 * f.m, kel, s + 1, data),
            "B": operand(f.b, 8, kel, s + 2, data),
            "C": buf(cdt[f.c], [4 * f.m, 8], uniform(s + 3, lo, hi)),
            "D": buf(cdt[f.d], [4 * f.m, 8], fill(0)),
        },
        "args": [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "C"}, {"buffer": "D"}, {"u32": ksteps}],
        "outputs": ["D"],
    }


def cases(f):
    chain = f.c == f.d
    cs = [spec(f, "base", 2 if chain else 1)]
    if chain:
        cs.append(spec(f, "k8", 8, seed=2))
    if f.d == "s32" and f.a not in ("b1",):
        cs.append(spec(f, "satmax", 2, data="sat_max"))
        cs.append(spec(f, "satmin", 2, data="sat_min"))
    if f.d == "f16" and f.a in ("e4m3", "e5m2", "f16"):
        cs.append(spec(f, "wide", 1, data="wide"))
    return cs


def generate():
    files = {"common/mma_ops.h": ops_header(), "mma_sync.cu": kernels_cu()}
    for f in FORMS:
        for name, sp in cases(f):
            files[f"specs/mma/{f.kernel}__{name}.json"] = specgen.dumps(sp) + "\n"
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
                with open(path, "w") as fh:
                    fh.write(text)
    spec_dir = os.path.join(HERE, "specs", "mma")
    stale = [f"specs/mma/{n}" for n in sorted(os.listdir(spec_dir)) if f"specs/mma/{n}" not in files] \
        if os.path.isdir(spec_dir) else []
    if check:
        for rel in changed + stale:
            print(f"gen_mma --check: {rel} is out of date (run gen_mma.py)")
        return 1 if changed or stale else 0
    for rel in stale:
        os.remove(os.path.join(HERE, rel))
    n_specs = sum(1 for r in files if r.startswith("specs/"))
    print(f"gen_mma: {len(files) - n_specs} sources, {n_specs} specs; {len(changed)} written, {len(stale)} stale removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
