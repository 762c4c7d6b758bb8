#!/usr/bin/env python3
"""Writes the launch specs of the tcgen05 corpus (LAUNCH_SPEC.md, version 1).

  specs/mma/*.json    single-instruction kernels of mma_single.cu, one spec per case
  specs/gemm/*.json   the GEMMs of gemm.cu (exact, random, bench, swizzle-bug demo)
  gemm_bf16.json      the README's main job

Every single-instruction spec carries a "case" object (an extra field, allowed by LAUNCH_SPEC.md)
that says exactly what the kernel computes, so a test can build the reference without reading the
kernel: see README.md "The case object". Exact cases draw every input from small integers (or full
8-bit integer ranges for kind::i8), so every product and partial sum is exactly representable and
D must equal the exact result bit for bit whatever the accumulation order; random cases use
uniform floats and must equal the models::mma sm_100a reference.

Legality (PTX ISA 9.2 §9.7.16.2.1 Table 39, §9.7.16.10.1 Tables 51/52, §9.7.16.10.3 Table 54):
encoded in shapes_ok() / layout_ok() below; CUTLASS's stricter static_asserts for A in tensor memory
(N % 16 for M=128 cta_group::1, N % 32 for cta_group::2) are honoured too.

Usage: gen_specs.py [--check]   (--check: verify the committed files are what this script writes)
"""
import json
import os
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# ------------------------------------------------------------------------------------------------
# Types: idesc codes (Table 42), element bits, buffer dtype (LAUNCH_SPEC.md).
TYPES = {
    # name: (kind, idesc code, bits, buffer dtype)
    "f16": ("f16", 0, 16, "f16"),
    "bf16": ("f16", 1, 16, "bf16"),
    "tf32": ("tf32", 2, 32, "f32"),  # tf32 operands live in f32 containers
    "e4m3": ("f8f6f4", 0, 8, "e4m3"),
    "e5m2": ("f8f6f4", 1, 8, "e5m2"),
    "e2m3": ("f8f6f4", 3, 6, "e2m3"),
    "e3m2": ("f8f6f4", 4, 6, "e3m2"),
    "e2m1": ("f8f6f4", 5, 4, "e2m1x2"),
    "u8": ("i8", 0, 8, "u8"),
    "s8": ("i8", 1, 8, "i8"),
}
DTYPES = {"f16": (0, "f16", 2), "f32": (1, "f32", 4), "s32": (2, "i32", 4)}
KSTEP = {"f16": 16, "tf32": 8, "f8f6f4": 32, "i8": 32}
LAYOUTS = {"none": 0, "128B_base32B": 1, "128B": 2, "64B": 4, "32B": 6}
SW_BYTES = {"none": 16, "128B_base32B": 128, "128B": 128, "64B": 64, "32B": 32}
LD_SHAPES = ["32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"]

FLAG_NEG_A, FLAG_NEG_B, FLAG_SAT, FLAG_ACC_C, FLAG_SCALE, FLAG_A_CP, FLAG_PACK16 = (
    1, 2, 4, 8, 16, 32, 64)


def container_bytes(t):
    """Bytes per element inside a 16-byte chunk (padded fp6/fp4 count as 1: 16 per chunk)."""
    return max(1, TYPES[t][2] // 8)


def global_row_bytes(t, k):
    bits = TYPES[t][2]
    return k // 2 if bits == 4 else k if bits == 6 else k * bits // 8


def buffer_shape(t, rows, k):
    return [rows, k // 2] if TYPES[t][2] == 4 else [rows, k]


# ------------------------------------------------------------------------------------------------
# Mirror of umma_layout.h make_operand_layout(...).bytes (the kernel traps if the spec gives it
# less dynamic shared memory than it needs, so a mismatch cannot go unnoticed).
def layout_bytes(lt_name, mn_major, rows, ebytes, kstep, ksteps):
    w = SW_BYTES[lt_name]
    if not mn_major:
        kbytes = 32 * ksteps
        if lt_name == "none":
            return rows * kbytes
        katoms = (kbytes + w - 1) // w
        return katoms * (rows // 8) * 8 * w
    return rows * ebytes * kstep * ksteps


def align(x, a):
    return (x + a - 1) // a * a


# ------------------------------------------------------------------------------------------------
# Legality.
def n_values_ok(kind, cg, m, n, ws, a_tmem, b_mn8):
    if ws:
        return n in (64, 128, 256)
    if cg == 1:
        if kind == "i8":
            # Table 39: 8, 16, 24, 32, then 48..256 step 16; CUTLASS: 8 or a multiple of 16.
            ok = n in (8, 16, 32) or (48 <= n <= 256 and n % 16 == 0)
        else:
            ok = 8 <= n <= 256 and n % 8 == 0
        if a_tmem and m == 128:
            ok = ok and n % 16 == 0  # CUTLASS SM100_MMA_*_TS static_assert
        if b_mn8:
            ok = ok and n % 16 == 0  # Table 52: 8-bit MN-major B
        return ok
    step = 32 if kind == "i8" else 16
    ok = 16 <= n <= 256 and n % step == 0
    if a_tmem or b_mn8:
        ok = ok and n % 32 == 0
    return ok


def m_values(cg, ws):
    if ws:
        return (32, 64, 128)
    return (64, 128) if cg == 1 else (128, 256)


def layout_ok(kind, t, major, lt_name, rows):
    """Can operand type t use this (major, layout) with `rows` rows in this CTA?"""
    if major == "MN":
        if TYPES[t][2] < 8:
            return False  # Table 51: 4/6-bit operands must be K-major
        if kind == "tf32":
            if lt_name != "128B_base32B":
                return False  # Table 51: tf32 transpose only with 128B/32B-atom swizzle
        elif lt_name == "128B_base32B":
            return False
        return rows * container_bytes(t) % SW_BYTES[lt_name] == 0  # whole swizzle atoms along MN
    return lt_name != "128B_base32B"  # K-major with mode 1 is invalid (CUTLASS static_assert)


# ------------------------------------------------------------------------------------------------
# Inputs.
def seed_of(name, operand):
    return zlib.crc32(f"{name}:{operand}".encode()) & 0x7FFFFFFF


def exact_init(t, name, operand):
    if TYPES[t][0] == "i8":  # integer arithmetic is exact over the whole 8-bit range
        return {"random": {"seed": seed_of(name, operand), "dist": "bits"}}
    return {"random": {"seed": seed_of(name, operand), "dist": "integers", "low": -4, "high": 4}}


def random_init(t, name, operand):
    if TYPES[t][0] == "i8":
        return {"random": {"seed": seed_of(name, operand), "dist": "bits"}}
    rng = {"e2m1": 6, "e2m3": 7, "e3m2": 16}.get(t, 2)
    return {"random": {"seed": seed_of(name, operand), "dist": "uniform", "low": -rng, "high": rng}}


# ------------------------------------------------------------------------------------------------
class Case:
    """One single-instruction launch."""

    def __init__(self, kind, cg=1, m=128, n=64, ksteps=2, a="", b="", d="", a_src="smem",
                 a_major="K", b_major="K", a_lt="128B", b_lt="128B", a_var=0, b_var=0, neg_a=False,
                 neg_b=False, sat=False, acc_c=False, scale=None, ld="32x32b", pack16=False,
                 mask=None, zcm=0, ws=False, exact=True, c_init=None, a_init=None, b_init=None,
                 note=None):
        self.__dict__.update(locals())
        del self.__dict__["self"]
        defaults = {"f16": ("bf16", "bf16", "f32"), "tf32": ("tf32", "tf32", "f32"),
                    "f8f6f4": ("e4m3", "e4m3", "f32"), "i8": ("s8", "s8", "s32")}[kind]
        self.a = a or defaults[0]
        self.b = b or defaults[1]
        self.d = d or defaults[2]

    # --- legality of the whole case; returns a reason string or None ---
    def illegal(self):
        k = self.kind
        if TYPES[self.a][0] != k or TYPES[self.b][0] != k:
            return "operand type not of this kind"
        if k == "f16" and self.a != self.b:
            return "kind::f16 A and B of one type"
        if k == "f16" and self.a == "bf16" and self.d != "f32":
            return "bf16 -> f32 only"
        if k in ("tf32",) and self.d != "f32":
            return "tf32 -> f32"
        if k == "i8" and self.d != "s32":
            return "i8 -> s32"
        if k == "f8f6f4" and self.d not in ("f32", "f16"):
            return "f8f6f4 -> f32/f16"
        if self.m not in m_values(self.cg, self.ws):
            return "M"
        if self.ws and (self.cg != 1 or self.a_src != "smem"):
            return ".ws: cta_group::1, A from shared memory (here)"
        a_tmem = self.a_src != "smem"
        if a_tmem and self.a_major != "K":
            return "A in TMEM is K-major"
        if self.a_src == "tmem_cp" and self.cg != 1:
            return "tcgen05.cp fill only in the cta_group::1 kernels"
        b_mn8 = self.b_major == "MN" and TYPES[self.b][2] == 8
        if not n_values_ok(k, self.cg, self.m, self.n, self.ws, a_tmem, b_mn8):
            return "N"
        if not a_tmem and not layout_ok(k, self.a, self.a_major, self.a_lt, self.m // self.cg):
            return "A layout"
        if not layout_ok(k, self.b, self.b_major, self.b_lt, self.n // self.cg):
            return "B layout"
        if k == "i8" and (self.neg_a or self.neg_b):
            return "i8 cannot negate (Table 54)"
        if self.sat and k != "i8":
            return "saturate is kind::i8"
        if self.scale is not None and (k not in ("f16", "tf32") or not self.acc_c or self.ws):
            return "scale-input-d: f16/tf32 with C"
        if self.mask is not None and (not self.acc_c or self.d_layout() not in "ADF"):
            return "masks only with C and whole-row layouts"
        if self.zcm and not self.ws:
            return "zero-column mask is .ws"
        if self.pack16 and (self.d != "f16" or self.ld != "32x32b"):
            return "pack::16b with 16-bit D and 32x32b"
        if self.d_layout() == "F" and self.ld == "32x32b":
            return "layout F has D in 16 lanes of each quarter: 16-lane shapes"
        if self.ksteps < 1 or self.ksteps > 8:
            return "ksteps"
        return None

    def d_layout(self):
        if self.cg == 2:
            return "A" if self.m == 256 else "B"
        if self.ws and self.m == 64:
            return "E"
        if self.ws and self.m == 32:
            return "G"
        return "D" if self.m == 128 else "F"

    def k_total(self):
        return KSTEP[self.kind] * self.ksteps

    def entry(self):
        if self.ws:
            return f"tc_mma_ws_{self.kind}_ss"
        src = "ss" if self.a_src == "smem" else "ts"
        return f"tc_mma_{self.kind}_{src}_cg{self.cg}"

    def name(self):
        src = {"smem": "ss", "tmem_st": "ts", "tmem_cp": "tscp"}[self.a_src]
        parts = [self.kind, f"{self.a}x{self.b}_{self.d}", src + ("_ws" if self.ws else ""),
                 f"cg{self.cg}", f"m{self.m}n{self.n}k{self.k_total()}"]
        if self.a_src == "smem":
            parts.append(f"a{self.a_major}{self.a_lt}" + ("v1" if self.a_var else ""))
        parts.append(f"b{self.b_major}{self.b_lt}" + ("v1" if self.b_var else ""))
        extra = []
        if self.neg_a: extra.append("nega")
        if self.neg_b: extra.append("negb")
        if self.sat: extra.append("sat")
        if self.acc_c: extra.append("c")
        if self.scale is not None: extra.append(f"scale{self.scale}")
        if self.mask is not None: extra.append(f"mask{self.mask[0]:08x}")
        if self.zcm: extra.append("zcm")
        if self.pack16: extra.append("pack16")
        extra.append(self.ld)
        parts += extra
        parts.append("exact" if self.exact else "random")
        return "_".join(parts).replace("128B_base32B", "128Bb32")

    # --- the launch spec ---
    def spec(self, name):
        k = self.k_total()
        a_eb, b_eb = container_bytes(self.a), container_bytes(self.b)
        kstep = KSTEP[self.kind]
        arows, brows = self.m // self.cg, self.n // self.cg
        if self.a_src == "smem":
            a_bytes = layout_bytes(self.a_lt, self.a_major == "MN", arows, a_eb, kstep, self.ksteps)
        elif self.a_src == "tmem_cp":
            a_bytes = layout_bytes("none", False, 128, a_eb, kstep, self.ksteps)
        else:
            a_bytes = 0
        b_bytes = layout_bytes(self.b_lt, self.b_major == "MN", brows, b_eb, kstep, self.ksteps)
        smem = 1024 + align(a_bytes, 1024) + b_bytes
        init = exact_init if self.exact else random_init
        dcode, ddtype, _ = DTYPES[self.d]
        buffers = {
            "A": {"dtype": TYPES[self.a][3], "shape": buffer_shape(self.a, self.m, k),
                  "init": self.a_init or init(self.a, name, "A")},
            "B": {"dtype": TYPES[self.b][3], "shape": buffer_shape(self.b, self.n, k),
                  "init": self.b_init or init(self.b, name, "B")},
        }
        if self.acc_c:
            c_init = self.c_init
            if c_init is None:
                if self.exact:
                    c_init = {"random": {"seed": seed_of(name, "C"), "dist": "integers",
                                         "low": -4, "high": 4}}
                else:
                    c_init = {"random": {"seed": seed_of(name, "C"), "dist": "uniform",
                                         "low": -2, "high": 2}}
            buffers["C"] = {"dtype": ddtype, "shape": [self.m, self.n], "init": c_init}
        else:
            buffers["C"] = {"dtype": ddtype, "shape": [1], "init": {"fill": 0}}  # unused
        buffers["D"] = {"dtype": ddtype, "shape": [self.m, self.n], "init": {"fill": 0}}

        flags = ((FLAG_NEG_A if self.neg_a else 0) | (FLAG_NEG_B if self.neg_b else 0) |
                 (FLAG_SAT if self.sat else 0) | (FLAG_ACC_C if self.acc_c else 0) |
                 (FLAG_SCALE if self.scale is not None else 0) |
                 (FLAG_A_CP if self.a_src == "tmem_cp" else 0) | (FLAG_PACK16 if self.pack16 else 0))
        words = [0] * 8
        if self.mask is not None:
            words = list(self.mask) + list(self.mask) if self.cg == 2 else list(self.mask) + [0] * 4
        if self.ws:
            words = [self.zcm & 0xFFFFFFFF, self.zcm >> 32, 0, 0, 0, 0, 0, 0]
        args = [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "C"}, {"buffer": "D"},
                {"u32": self.m}, {"u32": self.n}, {"u32": self.ksteps},
                {"u32": TYPES[self.a][1]}, {"u32": TYPES[self.b][1]}, {"u32": dcode},
                {"u32": 1 if self.a_major == "MN" else 0}, {"u32": 1 if self.b_major == "MN" else 0},
                {"u32": LAYOUTS[self.a_lt]}, {"u32": LAYOUTS[self.b_lt]},
                {"u32": self.a_var | (self.b_var << 1)}, {"u32": flags},
                {"u32": self.scale or 0}, {"u32": LD_SHAPES.index(self.ld)}]
        args += [{"u32": w} for w in words]
        return {
            "ptx": "../../mma_single.ptx",
            "kernel": self.entry(),
            "arch": "sm_100a",
            "grid": [self.cg, 1, 1],
            "block": [128, 1, 1],
            "cluster": [self.cg, 1, 1],
            "dynamic_smem_bytes": smem,
            "buffers": buffers,
            "args": args,
            "outputs": ["D"],
            "case": self.case_object(words),
        }

    def case_object(self, words):
        c = {
            "form": self.entry(), "kind": self.kind, "cta_group": self.cg, "ws": self.ws,
            "a_source": self.a_src, "M": self.m, "N": self.n, "K": self.k_total(),
            "ksteps": self.ksteps, "a_type": self.a, "b_type": self.b, "d_type": self.d,
            "a_major": self.a_major if self.a_src == "smem" else "K",
            "b_major": self.b_major,
            "a_layout": self.a_lt if self.a_src == "smem" else None, "b_layout": self.b_lt,
            "a_variant": self.a_var, "b_variant": self.b_var, "d_tmem_layout": self.d_layout(),
            "negate_a": self.neg_a, "negate_b": self.neg_b, "saturate": self.sat,
            "accumulate_c": self.acc_c, "scale_input_d": self.scale,
            "disable_output_lane": [f"0x{w:08x}" for w in words] if self.mask is not None else None,
            "masked_rows": self.masked_rows(), "zero_column_mask": f"0x{self.zcm:016x}" if self.zcm else None,
            "zero_columns": self.zero_columns(), "ld_shape": self.ld, "pack16": self.pack16,
            "exact": self.exact,
        }
        c["expect"] = self.expectation()
        if self.note:
            c["note"] = self.note
        return c

    def masked_rows(self):
        """Rows of D whose TMEM lanes the disable-output-lane vector masks (they keep C)."""
        if self.mask is None:
            return None
        rows = []
        for m in range(self.m):
            lay = self.d_layout()
            if lay == "F":
                lane = 32 * (m // 16) + m % 16
            elif lay == "A":
                lane = m % 128  # both halves of the 256-bit vector carry the same pattern
            else:
                lane = m
            if (self.mask[lane // 32] >> (lane % 32)) & 1:
                rows.append(m)
        return rows

    def zero_columns(self):
        """B columns the .ws zero-column mask zeroes (PTX §9.7.16.4.3, example 2 reading)."""
        if not self.zcm:
            return None
        z = self.zcm
        assert (z >> 39) & 1 and (z & 0xFFFFFFFF) == 0 and (z >> 56) == 0 and ((z >> 32) & 0xF) == 0
        skip, use = ((z >> 40) & 0xFF) + 1, ((z >> 48) & 0xFF) + 1
        sub = {128: 1, 64: 2, 32: 4}[self.m]
        span = self.n // sub  # one sub-mask per N/sub columns, each starting with a use span
        return [c for c in range(self.n) if (c % span) % (use + skip) >= use]

    def expectation(self):
        s = "D[m][n] = sum_k A[m][k]*B[n][k]"
        if self.neg_a or self.neg_b:
            s += " with " + " and ".join(x for x, y in (("A", self.neg_a), ("B", self.neg_b)) if y) + " negated"
        if self.zcm:
            s += ", B[n][:] = 0 for n in zero_columns"
        if self.acc_c:
            s += " + C[m][n]" + (f" * 2^-{self.scale}" if self.scale else "")
        if self.kind == "i8":
            s += ", in s32 " + ("saturating at INT32_MIN/INT32_MAX" if self.sat else "wrapping modulo 2^32")
        if self.mask is not None:
            s += "; rows in masked_rows keep C"
        if self.exact:
            s += "; exact (every product and partial sum representable): must match bit for bit"
        else:
            s += "; random inputs: must match the models::mma sm_100a reference bit for bit"
        return s


# ------------------------------------------------------------------------------------------------
# The corpus plan.
REPRESENTATIVE = {"f16": ("bf16", "bf16", "f32"), "tf32": ("tf32", "tf32", "f32"),
                  "f8f6f4": ("e4m3", "e4m3", "f32"), "i8": ("s8", "s8", "s32")}
N_CHOICES = {1: [8, 24, 64, 136, 256, 128, 48, 200, 16, 96], 2: [16, 32, 112, 256, 64, 160, 128, 224]}
KSTEP_CYCLE = [1, 2, 4, 3, 5, 8, 2, 1]


class Plan:
    def __init__(self):
        self.cases = []
        self.rot = 0

    def add(self, case):
        why = case.illegal()
        if why:
            raise ValueError(f"illegal case {case.name()}: {why}")
        self.cases.append(case)

    def try_add(self, make, ns, required=True):
        """Adds make(n) for the first n (rotating through ns) that is legal. Not required: the
        combination may be impossible for every N (e.g. an MN-major 128B tile of 64 one-byte rows
        is narrower than one swizzle atom); then nothing is added."""
        for i in range(len(ns)):
            n = ns[(self.rot + i) % len(ns)]
            c = make(n)
            if c.illegal() is None:
                self.rot += 1
                self.cases.append(c)
                return c
        if required:
            raise ValueError(f"no legal N for {make(ns[0]).name()}: {make(ns[0]).illegal()}")
        return None

    def next_ld(self, layout_f):
        shapes = LD_SHAPES[1:] if layout_f else LD_SHAPES
        self.rot += 1
        return shapes[self.rot % len(shapes)]


def layout_configs(kind, t):
    """(major, layout, variant) triples an operand of type t may use."""
    out = [("K", "none", 0), ("K", "none", 1), ("K", "32B", 0), ("K", "64B", 0),
           ("K", "128B", 0), ("K", "128B", 1)]
    if TYPES[t][2] >= 8:
        if kind == "tf32":
            out += [("MN", "128B_base32B", 0), ("MN", "128B_base32B", 1)]
        else:
            out += [("MN", "none", 0), ("MN", "none", 1), ("MN", "32B", 0), ("MN", "64B", 0),
                    ("MN", "128B", 0), ("MN", "128B", 1)]
    return out


def build_plan():
    p = Plan()
    kinds = ("f16", "tf32", "f8f6f4", "i8")

    # A. Layout sweep: every (major, swizzle, variant) for A and for B, every cta_group and M, with
    #    N and the K-chain length rotating; the other operand K-major 128B.
    for kind in kinds:
        a, b, d = REPRESENTATIVE[kind]
        for cg in (1, 2):
            for m in m_values(cg, False):
                for op in ("A", "B"):
                    for (major, lt, var) in layout_configs(kind, a if op == "A" else b):
                        ks = KSTEP_CYCLE[len(p.cases) % len(KSTEP_CYCLE)]

                        def make(n, kind=kind, cg=cg, m=m, op=op, major=major, lt=lt, var=var, ks=ks):
                            kw = dict(kind=kind, cg=cg, m=m, n=n, ksteps=ks, a=a, b=b, d=d)
                            if op == "A":
                                kw.update(a_major=major, a_lt=lt, a_var=var, b_lt="128B")
                            else:
                                kw.update(b_major=major, b_lt=lt, b_var=var, a_lt="128B")
                            c = Case(**kw)
                            c.ld = LD_SHAPES[(len(p.cases) + 1) % 5] if c.d_layout() != "F" else LD_SHAPES[1 + len(p.cases) % 4]
                            return c
                        # MN-major swizzled tiles need whole atoms along N: prefer big N then.
                        ns = N_CHOICES[cg] if major == "K" else sorted(N_CHOICES[cg], reverse=True)
                        p.try_add(make, ns, required=not (op == "A" and major == "MN"))
        # Both operands MN-major / both non-default, same swizzle.
        for cg in (1, 2):
            for (major, lt, var) in layout_configs(kind, a):
                if major == "K" and lt == "128B" and var == 0:
                    continue
                m = 128 if cg == 1 else 256

                def make(n, kind=kind, cg=cg, m=m, major=major, lt=lt, var=var):
                    return Case(kind, cg, m, n, ksteps=2, a=a, b=b, d=d, a_major=major, a_lt=lt,
                                a_var=var, b_major=major, b_lt=lt, b_var=1 - var, ld="16x256b")
                p.try_add(make, [256, 128, 64])

    # B. Type sweep.
    for (a, b, d) in (("f16", "f16", "f16"), ("f16", "f16", "f32"), ("bf16", "bf16", "f32")):
        p.add(Case("f16", 1, 128, 64, 4, a, b, d, ld="32x32b"))
        p.add(Case("f16", 1, 64, 256, 2, a, b, d, a_major="MN", a_lt="64B", b_major="MN",
                   b_lt="64B", ld="16x64b"))
        p.add(Case("f16", 2, 256, 128, 3, a, b, d, a_lt="32B", b_lt="none", ld="16x128b"))
        p.add(Case("f16", 2, 128, 64, 1, a, b, d, b_major="MN", b_lt="64B", ld="16x32bx2"))
    f8 = ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1")
    for i, a in enumerate(f8):
        for j, b in enumerate(f8):
            p.add(Case("f8f6f4", 1, 128, 32, 2, a, b, "f32", a_lt=("128B", "64B", "32B", "none", "128B")[j],
                       b_lt=("none", "32B", "64B", "128B", "128B")[i], ld=LD_SHAPES[(i + j) % 5]))
            p.add(Case("f8f6f4", 2, 128 if (i + j) % 2 else 256, 64, 1, a, b, "f16",
                       a_lt="32B", b_lt="64B", ld=LD_SHAPES[(i + 2 * j) % 5]))
    for a in ("e4m3", "e5m2"):
        for b in ("e4m3", "e5m2"):
            p.add(Case("f8f6f4", 1, 128, 128, 2, a, b, "f32", a_major="MN", a_lt="128B",
                       b_major="MN", b_lt="64B", ld="16x128b"))
            p.add(Case("f8f6f4", 2, 256, 64, 2, a, b, "f16", a_major="MN", a_lt="32B",
                       b_major="MN", b_lt="none", b_var=1, ld="32x32b", pack16=True))
    for a in ("s8", "u8"):
        for b in ("s8", "u8"):
            for sat in (False, True):
                p.add(Case("i8", 1, 128, 48, 2, a, b, "s32", sat=sat, ld="16x256b"))
                p.add(Case("i8", 2, 256, 128, 1, a, b, "s32", sat=sat, b_major="MN", b_lt="32B",
                           ld="16x64b"))
    # Saturation: C near the s32 limits so A*B pushes every element past them.
    for sat in (False, True):
        p.add(Case("i8", 1, 128, 64, 1, "u8", "u8", "s32", sat=sat, acc_c=True, ld="32x32b",
                   c_init={"fill": 2147483000},
                   note="every D element overflows INT32_MAX unless all of A's row or B's column is 0"))
        p.add(Case("i8", 2, 128, 64, 2, "s8", "u8", "s32", sat=sat, acc_c=True, ld="16x128b",
                   c_init={"fill": -2147483000},
                   a_init={"random": {"seed": 77, "dist": "integers", "low": -128, "high": -1}},
                   b_init={"random": {"seed": 78, "dist": "integers", "low": 1, "high": 255}},
                   note="every product is negative: every D element goes below INT32_MIN"))

    # C. A from tensor memory: tcgen05.st fill (every kind, cta_group, M), tcgen05.cp fill.
    for kind in kinds:
        a, b, d = REPRESENTATIVE[kind]
        for cg in (1, 2):
            for m in m_values(cg, False):
                for blt in ("128B", "none"):
                    ks = KSTEP_CYCLE[len(p.cases) % len(KSTEP_CYCLE)]

                    def make(n, kind=kind, cg=cg, m=m, blt=blt, ks=ks):
                        c = Case(kind, cg, m, n, ks, a, b, d, a_src="tmem_st", b_lt=blt,
                                 b_var=1 if blt == "none" else 0)
                        c.ld = p.next_ld(c.d_layout() == "F")
                        return c
                    p.try_add(make, N_CHOICES[cg])
        for m in (64, 128):
            def make(n, kind=kind, m=m):
                c = Case(kind, 1, m, n, 2, a, b, d, a_src="tmem_cp", b_lt="64B")
                c.ld = p.next_ld(c.d_layout() == "F")
                return c
            p.try_add(make, [64, 128, 32])
    for a in ("e2m3", "e3m2", "e2m1", "e5m2"):
        p.add(Case("f8f6f4", 1, 128, 64, 2, a, "e4m3", "f32", a_src="tmem_st", ld="16x256b",
                   note="fp6/fp4 A in TMEM: one element per 8-bit container (e2m1 in bits 5:2, "
                        "e2m3/e3m2 in bits 5:0) -- UNCONFIRMED container convention"))
        p.add(Case("f8f6f4", 1, 128, 64, 2, a, "e2m1", "f32", a_src="tmem_cp", ld="32x32b",
                   note="tcgen05.cp .b8x16.b6x16_p32 / .b4x16_p64 decompression for fp6/fp4 A"))
        p.add(Case("f8f6f4", 2, 256, 64, 1, a, "e3m2", "f16", a_src="tmem_st", ld="16x32bx2"))
    p.add(Case("f16", 2, 128, 64, 2, "f16", "f16", "f16", a_src="tmem_st", ld="32x32b", pack16=True))

    # D. Features: negate, C + scale-input-d, disable-output-lane, ld shapes and pack::16b, .ws.
    for kind in ("f16", "tf32", "f8f6f4"):
        a, b, d = REPRESENTATIVE[kind]
        p.add(Case(kind, 1, 128, 64, 2, a, b, d, neg_a=True, ld="16x64b"))
        p.add(Case(kind, 1, 64, 32, 1, a, b, d, neg_b=True, ld="16x128b"))
        p.add(Case(kind, 2, 256, 32, 2, a, b, d, neg_a=True, neg_b=True, ld="32x32b"))
        p.add(Case(kind, 2, 128, 64, 1, a, b, d, a_src="tmem_st", neg_a=True, ld="16x256b"))
    for kind in kinds:
        a, b, d = REPRESENTATIVE[kind]
        p.add(Case(kind, 1, 128, 64, 2, a, b, d, acc_c=True, ld="16x32bx2"))
        p.add(Case(kind, 1, 64, 64, 1, a, b, d, acc_c=True, a_src="tmem_st", ld="16x256b"))
        p.add(Case(kind, 2, 256, 64, 3, a, b, d, acc_c=True, ld="32x32b"))
        p.add(Case(kind, 2, 128, 128, 1, a, b, d, acc_c=True, a_src="tmem_st", ld="16x64b"))
    p.add(Case("f16", 1, 128, 64, 2, "f16", "f16", "f16", acc_c=True, ld="32x32b", pack16=True))
    for kind in ("f16", "tf32"):
        a, b, d = REPRESENTATIVE[kind]
        for i, s in enumerate((0, 1, 4, 15)):
            # C = iota * 2^s, so C * 2^-s is an integer and D stays exact in f32.
            p.add(Case(kind, 1 + i % 2, 128 if i % 2 == 0 else 256, 64, 2, a, b, d, acc_c=True,
                       scale=s, ld=LD_SHAPES[i], a_src="tmem_st" if i == 3 else "smem",
                       c_init={"iota": {"start": 0, "step": 2 ** s}}))
        p.add(Case(kind, 1, 128, 32, 1, a, b, d, acc_c=True, scale=3, ld="16x64b", exact=False))
    masks = ([0x55555555, 0xF0F0F0F0, 0x00000001, 0x80000000], [0xFFFFFFFF, 0, 0xFFFF0000, 0x0000FFFF],
             [0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF, 0x7FFFFFFF])
    for i, mk in enumerate(masks):
        for kind in ("f16", "i8") if i < 2 else ("tf32",):
            a, b, d = REPRESENTATIVE[kind]
            p.add(Case(kind, 1, 128, 32, 1, a, b, d, acc_c=True, mask=mk, ld="32x32b"))
            p.add(Case(kind, 1, 64, 32, 1, a, b, d, acc_c=True, mask=mk, ld="16x128b"))
            p.add(Case(kind, 2, 256, 32, 1, a, b, d, acc_c=True, mask=mk, ld="16x32bx2"))
    for layout_case in ((1, 128), (1, 64), (2, 256), (2, 128)):
        for ld in LD_SHAPES:
            cg, m = layout_case
            c = Case("f16", cg, m, 64, 1, "f16", "f16", "f32", ld=ld)
            if c.illegal() is None:
                p.add(c)
    for (cg, m) in ((1, 128), (2, 256), (2, 128)):
        p.add(Case("f16", cg, m, 64, 2, "f16", "f16", "f16", ld="32x32b", pack16=True))
        p.add(Case("f8f6f4", cg, m, 32 * cg, 1, "e5m2", "e2m1", "f16", ld="32x32b", pack16=True))
    for kind in kinds:
        a, b, d = REPRESENTATIVE[kind]
        for i, m in enumerate((32, 64, 128)):
            for j, n in enumerate((64, 128, 256)):
                if (i + j) % 2 and not (m == 32 and n == 256):
                    continue
                p.add(Case(kind, 1, m, n, 1 + (i + j) % 3, a, b, d, ws=True,
                           a_lt=("128B", "none", "64B")[j], b_lt=("32B", "128B", "none")[i],
                           b_major="MN" if kind != "tf32" and i == 1 else "K",
                           ld=LD_SHAPES[(i + 2 * j) % 5]))
    # .ws zero-column mask: non-zero-mask bit 39, skip span 3 (field 2), use span 4 (field 3).
    zcm = (1 << 39) | (2 << 40) | (3 << 48)
    for (kind, m) in (("f16", 128), ("i8", 64), ("f8f6f4", 32)):
        a, b, d = REPRESENTATIVE[kind]
        p.add(Case(kind, 1, m, 128, 1, a, b, d, ws=True, zcm=zcm, ld="16x256b",
                   note="zero-column mask semantics read from the PTX example of §9.7.16.4.3 -- "
                        "UNCONFIRMED on hardware"))

    # E. Random inputs (reference: models::mma, sm_100a parameters).
    for (a, b, d) in (("f16", "f16", "f16"), ("f16", "f16", "f32"), ("bf16", "bf16", "f32")):
        p.add(Case("f16", 1, 128, 128, 4, a, b, d, exact=False, ld="32x32b"))
        p.add(Case("f16", 2, 256, 128, 2, a, b, d, exact=False, b_major="MN", b_lt="128B", ld="16x64b"))
    p.add(Case("tf32", 1, 128, 128, 4, exact=False, ld="16x256b"))
    p.add(Case("tf32", 2, 256, 64, 2, exact=False, a_major="MN", a_lt="128B_base32B", ld="32x32b"))
    for a in f8:
        for b in f8:
            p.add(Case("f8f6f4", 1, 128, 64, 2, a, b, "f32", exact=False, ld="32x32b"))
        p.add(Case("f8f6f4", 1, 64, 64, 2, a, a, "f16", exact=False, ld="16x128b"))
    for a in ("s8", "u8"):
        for b in ("s8", "u8"):
            p.add(Case("i8", 1, 128, 64, 4, a, b, "s32", exact=False, ld="16x32bx2"))
    for kind in kinds:
        a, b, d = REPRESENTATIVE[kind]
        p.add(Case(kind, 1, 128, 64, 2, a, b, d, a_src="tmem_st", exact=False, acc_c=True,
                   ld="16x64b"))
    # ... and at least one random-input launch of every entry.
    covered = {c.entry() for c in p.cases if not c.exact}
    for kind in kinds:
        a, b, d = REPRESENTATIVE[kind]
        for c in (Case(kind, 1, 64, 64, 2, a, b, d, a_src="tmem_cp", exact=False, ld="16x256b"),
                  Case(kind, 2, 256, 64, 2, a, b, d, exact=False, ld="16x128b"),
                  Case(kind, 2, 128, 64, 2, a, b, d, a_src="tmem_st", exact=False, ld="32x32b"),
                  Case(kind, 1, 64, 128, 2, a, b, d, ws=True, exact=False, ld="16x32bx2")):
            if c.entry() not in covered:
                p.add(c)
                covered.add(c.entry())
    return p.cases


# ------------------------------------------------------------------------------------------------
# GEMM specs.
GEMM_KINDS = {
    # entry stem: (A/B buffer dtype, tensor-map dtype, bytes, D dtype, exact init, K-tile elements)
    "bf16_f32": ("bf16", "bf16", 2, "f32", "integers", 64),
    "e4m3_f32": ("e4m3", "u8", 1, "f32", "integers", 128),
    "f16_f16": ("f16", "f16", 2, "f16", "integers", 64),
    "s8_s32": ("i8", "u8", 1, "i32", "bits", 128),
}


def gemm_spec(stem, cta2, m, n, k, grid, init, bug=0, seed=1, description=""):
    dt, tmdt, eb, ddt, exact_dist, bk = GEMM_KINDS[stem]
    brows = 128 if cta2 else 256
    stages, stage_bytes = (6, 128 * 128 + 128 * 128) if cta2 else (4, 128 * 128 + 256 * 128)
    smem = stages * stage_bytes + 1024

    def tmap(buf, rows, box_rows):
        return {"buffer": buf, "dtype": tmdt, "global_dims": [k, rows],
                "global_strides_bytes": [k * eb], "box_dims": [bk, box_rows],
                "element_strides": [1, 1], "interleave": "none", "swizzle": "128B",
                "l2_promotion": "256B", "oob_fill": "none"}

    def init_of(op):
        s = seed * 2 + (0 if op == "A" else 1)
        if init == "exact":
            if exact_dist == "bits":
                return {"random": {"seed": s, "dist": "bits"}}
            return {"random": {"seed": s, "dist": "integers", "low": -2, "high": 2}}
        if exact_dist == "bits":
            return {"random": {"seed": s, "dist": "bits"}}
        return {"random": {"seed": s, "dist": "uniform", "low": -1, "high": 1}}

    entry = f"gemm_{stem}" + ("_2cta" if cta2 else "")
    return {
        "description": description,
        "ptx": None,  # filled by the caller (path relative to the spec)
        "kernel": entry,
        "arch": "sm_100a",
        "grid": [grid, 1, 1],
        "block": [192, 1, 1],
        "cluster": [2 if cta2 else 1, 1, 1],
        "dynamic_smem_bytes": smem,
        "buffers": {
            "A": {"dtype": dt, "shape": [m, k], "init": init_of("A")},
            "B": {"dtype": dt, "shape": [n, k], "init": init_of("B")},
            "D": {"dtype": ddt, "shape": [m, n], "init": {"fill": 0}},
        },
        "tensor_maps": {"tmA": tmap("A", m, 128), "tmB": tmap("B", n, brows)},
        "args": [{"tensor_map": "tmA"}, {"tensor_map": "tmB"}, {"buffer": "D"}, {"u32": m},
                 {"u32": n}, {"u32": k}, {"u32": bug}],
        "outputs": ["D"],
        "case": {"gemm": entry, "M": m, "N": n, "K": k, "cta_pair": cta2, "bug": bug,
                 "exact": init == "exact",
                 "expect": ("D = A * B^T exactly (integer inputs in [-2,2]" if init == "exact" and exact_dist != "bits"
                            else "D = A * B^T exactly in s32 (wrapping)" if exact_dist == "bits" and init == "exact"
                            else "D = A * B^T per the models::mma sm_100a reference")
                           + ("" if exact_dist == "bits" or init != "exact" else ", every partial sum exact)")
                           + ("" if not bug else "; WRONG on purpose: see README 'swizzle-bug demo'")},
    }


def gemm_plan():
    """(relative path, spec) pairs."""
    out = []

    def put(path, spec):
        depth = path.count("/")
        spec["ptx"] = "../" * depth + "gemm.ptx"
        out.append((path, spec))

    put("gemm_bf16.json", gemm_spec(
        "bf16_f32", False, 1024, 1024, 512, 16, "random", seed=1,
        description="The main job: bf16 x bf16 -> f32 GEMM, 1024 x 1024 x 512, warp-specialised "
                    "persistent kernel (16 CTAs x 2 tiles of 128 x 256), TMA 128B swizzle, "
                    "4-stage ring, double-buffered TMEM accumulators"))
    for stem in GEMM_KINDS:
        for cta2 in (False, True):
            tag = stem + ("_2cta" if cta2 else "")
            # exact: 512 x 512 x 256 (1-CTA: 8 tiles on 4 CTAs; pair: 4 pair-tiles on 2 pairs)
            put(f"specs/gemm/{tag}_exact.json", gemm_spec(
                stem, cta2, 512, 512, 256, 4, "exact", seed=3,
                description=f"{tag}: exact-input GEMM, 512 x 512 x 256"))
            put(f"specs/gemm/{tag}_random.json", gemm_spec(
                stem, cta2, 256 if cta2 else 128, 512, 640, 2 if cta2 else 1, "random", seed=5,
                description=f"{tag}: random-input GEMM, every CTA walks 2 tiles with a K loop "
                            "longer than the ring"))
    # 4096^3 and 8192^3: production sizes for --timing-only estimates (148 CTAs: one per B200 SM,
    # persistent over 512 / 2048 tiles of 128 x 256).
    for size in (1024, 2048, 4096, 8192):
        for cta2 in (False, True):
            tag = f"bench_bf16_{size}" + ("_2cta" if cta2 else "")
            grid = {1024: 32, 2048: 64}.get(size, 148)
            put(f"specs/gemm/{tag}.json", gemm_spec(
                "bf16_f32", cta2, size, size, size, grid, "random", seed=7,
                description=f"bench: bf16 GEMM {size}^3 ({'CTA pairs' if cta2 else '1 CTA'}), "
                            f"{2 * size ** 3 / 1e9:.1f} GFLOP"))
    for bug, what in ((1, "layout SWIZZLE_NONE although TMA wrote 128B-swizzled tiles"),
                      (2, "SBO 512 B instead of 1024 B (8-row atoms overlap)")):
        put(f"specs/gemm/swizzle_bug{bug}.json", gemm_spec(
            "bf16_f32", False, 256, 256, 128, 1, "exact", bug=bug, seed=9,
            description=f"swizzle-bug demo {bug}: the descriptors of A and B say {what}; "
                        "D is wrong and tcsim must say which element was read instead of which"))
        put(f"specs/gemm/swizzle_bug{bug}_fixed.json", gemm_spec(
            "bf16_f32", False, 256, 256, 128, 1, "exact", bug=0, seed=9,
            description=f"the same launch as swizzle_bug{bug}.json with the correct descriptors"))
    return out


# ------------------------------------------------------------------------------------------------
def render(spec):
    """JSON with one buffer / tensor map / argument per line (readable diffs)."""
    lines = ["{"]
    items = list(spec.items())
    for i, (key, val) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if key in ("buffers", "tensor_maps"):
            lines.append(f'  "{key}": {{')
            sub = list(val.items())
            for j, (bk, bv) in enumerate(sub):
                lines.append(f"    {json.dumps(bk)}: {json.dumps(bv)}" + ("," if j + 1 < len(sub) else ""))
            lines.append("  }" + comma)
        elif key == "args":
            lines.append('  "args": [')
            for j, a in enumerate(val):
                lines.append("    " + json.dumps(a) + ("," if j + 1 < len(val) else ""))
            lines.append("  ]" + comma)
        elif key == "case":
            lines.append('  "case": {')
            sub = list(val.items())
            for j, (ck, cv) in enumerate(sub):
                lines.append(f"    {json.dumps(ck)}: {json.dumps(cv)}" + ("," if j + 1 < len(sub) else ""))
            lines.append("  }" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(val)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def all_files():
    files = {}
    names = set()
    for c in build_plan():
        name = c.name()
        base, i = name, 2
        while name in names:
            name = f"{base}_{i}"
            i += 1
        names.add(name)
        files[f"specs/mma/{name}.json"] = render(c.spec(name))
    for path, spec in gemm_plan():
        files[path] = render(spec)
    return files


def main():
    check = "--check" in sys.argv[1:]
    files = all_files()
    bad = 0
    if check:
        on_disk = set()
        for sub in ("specs/mma", "specs/gemm"):
            d = os.path.join(HERE, sub)
            if os.path.isdir(d):
                on_disk |= {f"{sub}/{f}" for f in os.listdir(d) if f.endswith(".json")}
        for rel, text in files.items():
            path = os.path.join(HERE, rel)
            if not os.path.exists(path) or open(path).read() != text:
                print(f"FAIL: {rel} is not what gen_specs.py writes (run kernels/tcgen05/gen_specs.py)")
                bad += 1
        for rel in sorted(on_disk - set(files)):
            print(f"FAIL: {rel} is not written by gen_specs.py (stale)")
            bad += 1
        print(f"gen_specs --check: {len(files)} specs, {bad} problems")
        return 1 if bad else 0
    for sub in ("specs/mma", "specs/gemm"):
        d = os.path.join(HERE, sub)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            if f.endswith(".json") and f"{sub}/{f}" not in files:
                os.remove(os.path.join(d, f))
    for rel, text in files.items():
        with open(os.path.join(HERE, rel), "w") as f:
            f.write(text)
    print(f"wrote {len(files)} specs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
