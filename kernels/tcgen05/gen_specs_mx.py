#!/usr/bin/env python3
"""Writes the launch specs of the block-scaled, sparse and weight-stationary kernels of the tcgen05
corpus (LAUNCH_SPEC.md, version 1), next to gen_specs.py's dense ones:

  specs/mx/*.json    single-instruction block-scaled kernels of mma_block_scaled.cu
  specs/mxgemm/*.json, specs/spgemm/*.json, specs/wsgemm/*.json, specs/clcgemm/*.json: the GEMMs

Every single-instruction spec carries a "case" object (README.md "The case object", with the
block-scaled fields scale_type / scale_block): `tcsim verify-case` builds its reference from the
spec alone. Exact cases draw elements from small integers and scale factors from powers of two
near 1 (UE8M0: 2^-2 .. 2^2; UE4M3: values in [0.5, 2], 3 mantissa bits), drawn independently per
row and scale block, so a scale factor read from the wrong row, column or K block changes the
exact answer; every product and partial sum is exact, so D must equal the exact result bit for bit.
Random cases use any codes of the types and must equal the models::mma sm_100a reference.

Legality (PTX ISA 9.2 §9.7.16.2.1 Table 39, §9.7.16.10.7 Tables 56/57): M = 128 (cta_group::1) or
128/256 (cta_group::2); N 8..256 step 8 (16 for cta_group::2); K per MMA 32 (mxf8f6f4) or 64.

Usage: gen_specs_mx.py [--check]   (--check: verify the committed files are what this script writes)
"""
import os
import sys

from gen_specs import LAYOUTS, SW_BYTES, align, layout_bytes, render, seed_of

HERE = os.path.dirname(os.path.abspath(__file__))

# The kernel's variants (tc_ptx_mx.cuh): (kind, qualifier, scale factors per MMA, K per MMA).
VARIANTS = {
    0: ("mxf8f6f4", "", 1, 32), 1: ("mxf8f6f4", "scale_vec::1X", 1, 32), 2: ("mxf8f6f4", "block32", 1, 32),
    3: ("mxf4", "", 2, 64), 4: ("mxf4", "scale_vec::2X", 2, 64), 5: ("mxf4", "block32", 2, 64),
    6: ("mxf4nvf4", "scale_vec::2X", 2, 64), 7: ("mxf4nvf4", "block32", 2, 64),
    8: ("mxf4nvf4", "scale_vec::4X", 4, 64), 9: ("mxf4nvf4", "block16", 4, 64),
}
# Element types: idesc code per kind family, bits, buffer dtype.
MX8_TYPES = {"e4m3": (0, 8, "e4m3"), "e5m2": (1, 8, "e5m2"), "e2m3": (3, 6, "e2m3"), "e3m2": (4, 6, "e3m2"),
             "e2m1": (5, 4, "e2m1x2")}
FLAG_NEG_A, FLAG_NEG_B, FLAG_ACC_C, FLAG_A_CP, FLAG_SFID_ADDR = 1, 2, 8, 32, 64


def type_code(variant, t):
    return MX8_TYPES[t][0] if variant <= 2 else 1  # E2M1 is 1 in mxf4 / mxf4nvf4 (Table 44)


def rows_k(t, rows, k):
    return [rows, k // 2] if MX8_TYPES[t][1] == 4 else [rows, k]


def exact_elems(t, name, operand):
    return {"random": {"seed": seed_of(name, operand), "dist": "integers", "low": -4, "high": 4}}


def random_elems(t, name, operand):
    return {"random": {"seed": seed_of(name, operand), "dist": "bits"}}


def scale_init(st, name, operand, exact):
    if not exact:  # any finite scale near 1 (UE8M0 2^-8 .. 2^8; UE4M3 1/64 .. 16)
        lo, hi = (2.0 ** -8, 2.0 ** 8) if st == "ue8m0" else (1 / 64, 16.0)
        return {"random": {"seed": seed_of(name, operand), "dist": "uniform", "low": lo, "high": hi}}
    # UE8M0 rounds up (LAUNCH_SPEC: RP), so [0.25, 4] gives 2^-2 .. 2^2; UE4M3 rounds to 3 bits.
    lo, hi = (0.25, 4.0) if st == "ue8m0" else (0.5, 2.0)
    return {"random": {"seed": seed_of(name, operand), "dist": "uniform", "low": lo, "high": hi}}


class BsCase:
    def __init__(self, variant, cg=1, m=128, n=64, ksteps=2, a="e2m1", b="e2m1", a_src="smem", sf_mode=0,
                 a_lt="128B", b_lt="128B", st="ue8m0", neg_a=False, neg_b=False, acc_c=False, exact=True,
                 sfid_addr=False):
        self.__dict__.update(locals())
        del self.__dict__["self"]
        self.kind, self.qual, self.nsf, self.kstep = VARIANTS[variant]

    def name(self):
        src = {"smem": "ss", "tmem_st": "ts", "tmem_cp": "tscp"}[self.a_src]
        q = self.qual.replace("scale_vec::", "").lower() or "default"
        feats = "".join(f for f, on in (("_nega", self.neg_a), ("_negb", self.neg_b), ("_c", self.acc_c),
                                        ("_sfidaddr", self.sfid_addr)) if on)
        return (f"{self.kind}_{q}_{self.a}x{self.b}_{self.st}_{src}_cg{self.cg}_m{self.m}n{self.n}"
                f"k{self.ksteps * self.kstep}_a{self.a_lt}_b{self.b_lt}_sf{['st', 'cp'][self.sf_mode]}{feats}_"
                f"{'exact' if self.exact else 'random'}")

    def smem_bytes(self):
        # Mirror of mma_block_scaled.cu: tiles 1024-aligned, then the scale-factor chunks.
        arows, brows = self.m // self.cg, self.n // self.cg
        a_bytes = 0
        if self.a_src == "smem":
            a_bytes = align(layout_bytes(self.a_lt, False, arows, 1, self.kstep, self.ksteps), 1024)
        elif self.a_src == "tmem_cp":
            a_bytes = align(layout_bytes("none", False, 128, 1, self.kstep, self.ksteps), 1024)
        b_bytes = align(layout_bytes(self.b_lt, False, brows, 1, self.kstep, self.ksteps), 1024)
        nwords = (self.ksteps * self.nsf + 3) // 4
        sf = nwords * 1536 if self.sf_mode == 1 else 0
        return 1024 + a_bytes + b_bytes + sf  # + 1024: the kernel aligns the start up to 1024

    def spec(self, name):
        k = self.ksteps * self.kstep
        blk = self.kstep // self.nsf
        nblk = k // blk
        form = f"tc_mma_bs_{'ss' if self.a_src == 'smem' else 'ts'}_cg{self.cg}"
        elems = exact_elems if self.exact else random_elems
        flags = ((FLAG_NEG_A if self.neg_a else 0) | (FLAG_NEG_B if self.neg_b else 0) |
                 (FLAG_ACC_C if self.acc_c else 0) | (FLAG_A_CP if self.a_src == "tmem_cp" else 0) |
                 (FLAG_SFID_ADDR if self.sfid_addr else 0))
        c_init = ({"random": {"seed": seed_of(name, "C"), "dist": "integers", "low": -8, "high": 8}} if self.exact
                  else {"random": {"seed": seed_of(name, "C"), "dist": "uniform", "low": -4, "high": 4}})
        buffers = {
            "A": {"dtype": MX8_TYPES[self.a][2], "shape": rows_k(self.a, self.m, k), "init": elems(self.a, name, "A")},
            "B": {"dtype": MX8_TYPES[self.b][2], "shape": rows_k(self.b, self.n, k), "init": elems(self.b, name, "B")},
            "SFA": {"dtype": self.st, "shape": [self.m, nblk], "init": scale_init(self.st, name, "SFA", self.exact)},
            "SFB": {"dtype": self.st, "shape": [self.n, nblk], "init": scale_init(self.st, name, "SFB", self.exact)},
            "C": {"dtype": "f32", "shape": [self.m, self.n] if self.acc_c else [1],
                  "init": c_init if self.acc_c else {"fill": 0}},
            "D": {"dtype": "f32", "shape": [self.m, self.n], "init": {"fill": 0}},
        }
        args = [{"buffer": x} for x in ("A", "B", "SFA", "SFB", "C", "D")]
        for v in (self.m, self.n, self.ksteps, self.variant, type_code(self.variant, self.a),
                  type_code(self.variant, self.b), 1 if self.st == "ue8m0" else 0, self.sf_mode, flags,
                  LAYOUTS[self.a_lt], LAYOUTS[self.b_lt]):
            args.append({"u32": v})
        layout = "D" if self.cg == 1 else ("A" if self.m == 256 else "B")
        return {
            "ptx": "../../mma_block_scaled.ptx",
            "kernel": form,
            "arch": "sm_100a",
            "grid": [self.cg, 1, 1],
            "block": [128, 1, 1],
            "cluster": [self.cg, 1, 1],
            "dynamic_smem_bytes": self.smem_bytes(),
            "buffers": buffers,
            "args": args,
            "outputs": ["D"],
            "case": {
                "form": form, "kind": self.kind, "qualifier": self.qual, "cta_group": self.cg,
                "a_source": self.a_src, "M": self.m, "N": self.n, "K": k, "ksteps": self.ksteps,
                "a_type": self.a, "b_type": self.b, "d_type": "f32", "a_layout": self.a_lt, "b_layout": self.b_lt,
                "d_tmem_layout": layout, "scale_type": self.st, "scale_block": blk,
                "scale_factors": ["tcgen05.st at fixed columns",
                                  "tcgen05.cp from CUTLASS scale-factor chunks"][self.sf_mode],
                "sf_id_in_address": self.sfid_addr, "negate_a": self.neg_a, "negate_b": self.neg_b,
                "saturate": False, "accumulate_c": self.acc_c, "scale_input_d": None, "masked_rows": None,
                "zero_columns": None, "exact": self.exact,
                "expect": ("D[m][n] = sum_k A[m][k]*SFA[m][k/blk] * B[n][k]*SFB[n][k/blk] (+ C); " +
                           ("exact: must match bit for bit" if self.exact else
                            "the models::mma sm_100a reference, bit for bit")),
            },
        }


def bs_plan():
    cases = []
    mx8 = list(MX8_TYPES)
    # Every A x B type pair of kind::mxf8f6f4 (any pair is legal), exact, one layout each.
    for i, a in enumerate(mx8):
        for j, b in enumerate(mx8):
            cases.append(BsCase(1, a=a, b=b, n=[32, 64, 128, 8, 256][(i + j) % 5], ksteps=1 + (i + 2 * j) % 4,
                                sf_mode=(i + j) % 2))
    # Every spelling of every kind, both scale-factor paths, both sources, both CTA groups.
    for v in VARIANTS:
        kind = VARIANTS[v][0]
        st_list = ["ue8m0"] + (["ue4m3"] if v in (8, 9) else [])
        a = "e4m3" if kind == "mxf8f6f4" else "e2m1"
        b = "e2m1"
        for st in st_list:
            for sf in (0, 1):
                for cg, m, n in ((1, 128, 64), (2, 256, 128), (2, 128, 64)):
                    cases.append(BsCase(v, cg=cg, m=m, n=n, ksteps=4, a=a, b=b, st=st, sf_mode=sf,
                                        a_lt="128B" if cg == 1 else "64B"))
            cases.append(BsCase(v, n=128, ksteps=2, a=a, b=b, st=st, a_src="tmem_st", sf_mode=v % 2))
            cases.append(BsCase(v, cg=2, m=256, n=64, ksteps=2, a=a, b=b, st=st, a_src="tmem_st", sf_mode=1 - v % 2))
    # Shapes, layouts, scale words over several MMAs, modifiers, the CUTLASS SF-ID address bits.
    for n in (8, 16, 24, 136, 256):
        cases.append(BsCase(8, n=n, ksteps=3, st="ue4m3", a_lt="none", b_lt="32B", sf_mode=n % 2))
    for ks in (1, 2, 5, 8):
        cases.append(BsCase(1, a="e5m2", b="e3m2", n=96, ksteps=ks, b_lt="64B", sf_mode=ks % 2))
    cases.append(BsCase(1, a="e2m1", b="e2m3", a_src="tmem_cp", n=64, ksteps=3, sf_mode=1))
    cases.append(BsCase(1, a="e3m2", b="e4m3", a_src="tmem_cp", n=32, ksteps=2))
    cases.append(BsCase(8, st="ue4m3", neg_a=True, acc_c=True, n=64, ksteps=2, sf_mode=1))
    cases.append(BsCase(6, neg_b=True, acc_c=True, cg=2, m=256, n=64, ksteps=2))
    cases.append(BsCase(1, a="e4m3", b="e4m3", sfid_addr=True, ksteps=4, sf_mode=1))
    cases.append(BsCase(8, st="ue4m3", sfid_addr=True, ksteps=2))
    # Random inputs: every kind / scale type / CTA group, the models::mma reference.
    for v, st, cg, m in ((1, "ue8m0", 1, 128), (4, "ue8m0", 2, 256), (6, "ue8m0", 1, 128), (8, "ue4m3", 1, 128),
                         (9, "ue4m3", 2, 128), (7, "ue8m0", 2, 256)):
        a = "e4m3" if v <= 2 else "e2m1"
        cases.append(BsCase(v, cg=cg, m=m, n=64, ksteps=4, a=a, st=st, exact=False, acc_c=True, sf_mode=v % 2))
    cases.append(BsCase(1, a="e5m2", b="e2m3", n=128, ksteps=2, exact=False))
    return cases


# ------------------------------------------------------------------------------------------------
# The block-scaled GEMMs of gemm_mx.cu: entry -> (A/B dtype, bytes per K element x 2, scale dtype,
# scale block, scale words per row per stage, K per stage).
MX_GEMMS = {
    "gemm_mxfp8_f32": ("e4m3", 2, "ue8m0", 32, 1, 128),
    "gemm_mxfp8_f32_2cta": ("e4m3", 2, "ue8m0", 32, 1, 128),
    "gemm_nvfp4_f32": ("e2m1x2", 1, "ue4m3", 16, 4, 256),
}


def mx_gemm_spec(entry, m, n, k, grid, exact, seed, description):
    dt, half_bytes, st, blk, sfw, bk = MX_GEMMS[entry]
    cg = 2 if entry.endswith("_2cta") else 1
    kbytes = k * half_bytes // 2  # bytes of K per row
    stage = 128 * 128 + (128 // cg) * 128 + 2 * sfw * 512
    nw = k // (4 * blk)  # scale words per row

    def op_tmap(buf, rows, box_rows):
        return {"buffer": buf, "dtype": "u8", "global_dims": [kbytes, rows], "global_strides_bytes": [kbytes],
                "box_dims": [128, box_rows], "element_strides": [1, 1], "interleave": "none", "swizzle": "128B",
                "l2_promotion": "256B", "oob_fill": "none"}

    def sf_tmap(buf, mn):
        return {"buffer": buf, "dtype": "u32", "global_dims": [mn, nw], "global_strides_bytes": [mn * 4],
                "box_dims": [128, sfw], "element_strides": [1, 1], "interleave": "none", "swizzle": "none",
                "l2_promotion": "none", "oob_fill": "none"}

    def el(op):
        sd = seed * 4 + {"A": 0, "B": 1}[op]
        if exact:
            return {"random": {"seed": sd, "dist": "integers", "low": -2, "high": 2}}
        return {"random": {"seed": sd, "dist": "uniform", "low": -2, "high": 2}}

    def sc(op):
        sd = seed * 4 + {"SFA": 2, "SFB": 3}[op]
        if exact:  # UE8M0 rounds up: 2^-2 .. 2^2; UE4M3: [0.5, 2] with 3 mantissa bits
            lo, hi = (0.25, 4.0) if st == "ue8m0" else (0.5, 2.0)
        else:
            lo, hi = (2.0 ** -6, 2.0 ** 6) if st == "ue8m0" else (0.25, 8.0)
        return {"random": {"seed": sd, "dist": "uniform", "low": lo, "high": hi}}

    shape_ab = (lambda rows: [rows, k // 2]) if dt == "e2m1x2" else (lambda rows: [rows, k])
    return {
        "description": description,
        "ptx": "../../gemm_mx.ptx",
        "kernel": entry,
        "arch": "sm_100a",
        "grid": [grid, 1, 1],
        "block": [224, 1, 1],
        "cluster": [cg, 1, 1],
        "dynamic_smem_bytes": 4 * stage + 1024,
        "buffers": {
            "A": {"dtype": dt, "shape": shape_ab(m), "init": el("A")},
            "B": {"dtype": dt, "shape": shape_ab(n), "init": el("B")},
            "SFA": {"dtype": st, "shape": [nw, m, 4], "init": sc("SFA")},
            "SFB": {"dtype": st, "shape": [nw, n, 4], "init": sc("SFB")},
            "D": {"dtype": "f32", "shape": [m, n], "init": {"fill": 0}},
        },
        "tensor_maps": {"tmA": op_tmap("A", m, 128), "tmB": op_tmap("B", n, 128 // cg),
                        "tmSFA": sf_tmap("SFA", m), "tmSFB": sf_tmap("SFB", n)},
        "args": [{"tensor_map": "tmA"}, {"tensor_map": "tmB"}, {"tensor_map": "tmSFA"}, {"tensor_map": "tmSFB"},
                 {"buffer": "D"}, {"u32": m}, {"u32": n}, {"u32": k}],
        "outputs": ["D"],
        "case": {"gemm": entry, "M": m, "N": n, "K": k, "cta_pair": cg == 2, "exact": exact,
                 "scale_layout": "mn_words",
                 "expect": ("D = (A * SFA) (B * SFB)^T " +
                            ("exactly (integer elements in [-2, 2], scales powers of two / 3-bit UE4M3 near 1)"
                             if exact else "per the models::mma sm_100a reference (chained per MMA)"))},
    }


def mx_gemm_plan():
    out = []
    for entry in MX_GEMMS:
        cg = 2 if entry.endswith("_2cta") else 1
        stem = entry[len("gemm_"):]
        # exact: every CTA walks 2 tiles, K longer than the 4-stage ring
        out.append((f"specs/mxgemm/{stem}_exact.json",
                    mx_gemm_spec(entry, 256 * cg, 256, 1024 if "nvfp4" in entry else 768, 2, True, 3,
                                 f"{entry}: exact-input block-scaled GEMM")))
        out.append((f"specs/mxgemm/{stem}_random.json",
                    mx_gemm_spec(entry, 128 * cg, 256, 512, cg, False, 5,
                                 f"{entry}: random-input block-scaled GEMM (models::mma reference)")))
    for entry, size in (("gemm_mxfp8_f32", 1024), ("gemm_nvfp4_f32", 1024), ("gemm_mxfp8_f32", 2048),
                        ("gemm_nvfp4_f32", 2048)):
        out.append((f"specs/mxgemm/bench_{entry[5:]}_{size}.json",
                    mx_gemm_spec(entry, size, size, size, 64 if size == 2048 else 32, False, 7,
                                 f"bench: {entry} {size}^3, {2 * size ** 3 / 1e9:.1f} GFLOP")))
    return out


# ------------------------------------------------------------------------------------------------
# The sparse, weight-stationary and CLC-scheduled GEMMs (gemm_sparse.cu, gemm_ws.cu, gemm_clc.cu):
# bf16 operands by ordinary loads, D f32; exact: integers in [-2, 2].
def bf16_init(seed, exact):
    if exact:
        return {"random": {"seed": seed, "dist": "integers", "low": -2, "high": 2}}
    return {"random": {"seed": seed, "dist": "uniform", "low": -1, "high": 1}}


def sp_gemm_spec(m, n, k, exact, seed, nib_lo, nib_hi, description):
    return {
        "description": description,
        "ptx": "../../gemm_sparse.ptx",
        "kernel": "gemm_sp_bf16_f32",
        "arch": "sm_100a",
        "grid": [n // 128, m // 128, 1],
        "block": [128, 1, 1],
        "dynamic_smem_bytes": 1024 + 128 * 128 + 128 * 256 + 2048,
        "buffers": {
            "A": {"dtype": "bf16", "shape": [m, k // 2], "init": bf16_init(seed * 4, exact)},
            "B": {"dtype": "bf16", "shape": [n, k], "init": bf16_init(seed * 4 + 1, exact)},
            # one metadata nibble per group of 4 (a legal index pair, PTX ISA §9.7.16.10.8)
            "E": {"dtype": "u8", "shape": [m, k // 4],
                  "init": {"random": {"seed": seed * 4 + 2, "dist": "uniform", "low": nib_lo, "high": nib_hi}}},
            "D": {"dtype": "f32", "shape": [m, n], "init": {"fill": 0}},
        },
        "args": [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "E"}, {"buffer": "D"}, {"u32": m}, {"u32": n},
                 {"u32": k}],
        "outputs": ["D"],
        "case": {"gemm": "gemm_sp_bf16_f32", "M": m, "N": n, "K": k, "cta_pair": False, "exact": exact,
                 "expect": "D = A * B^T with A 2:4 sparse (A: the kept values, E: their positions) " +
                           ("exactly" if exact else "per the models::mma sm_100a reference")},
    }


def ws_gemm_spec(m, n, k, exact, seed, mode, description):
    return {
        "description": description,
        "ptx": "../../gemm_ws.ptx",
        "kernel": "gemm_ws_bf16_f32",
        "arch": "sm_100a",
        "grid": [n // 128, m // 256, 1],
        "block": [128, 1, 1],
        "dynamic_smem_bytes": 1024 + 4 * 64 * 128 + 128 * 128,
        "buffers": {
            "A": {"dtype": "bf16", "shape": [m, k], "init": bf16_init(seed * 4, exact)},
            "B": {"dtype": "bf16", "shape": [n, k], "init": bf16_init(seed * 4 + 1, exact)},
            "D": {"dtype": "f32", "shape": [m, n], "init": {"fill": 0}},
        },
        "args": [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "D"}, {"u32": m}, {"u32": n}, {"u32": k},
                 {"u32": mode}],
        "outputs": ["D"],
        "case": {"gemm": "gemm_ws_bf16_f32", "M": m, "N": n, "K": k, "cta_pair": False, "exact": exact,
                 "expect": "D = A * B^T; B read once per K step and kept in collector b0 for 4 A tiles " +
                           ("exactly" if exact else "per the models::mma sm_100a reference")},
    }


def clc_gemm_spec(m, n, k, exact, seed, description):
    return {
        "description": description,
        "ptx": "../../gemm_clc.ptx",
        "kernel": "gemm_clc_bf16_f32",
        "arch": "sm_100a",
        "grid": [n // 128, m // 128, 1],
        "block": [128, 1, 1],
        # more than half an SM's shared memory: one CTA per SM, so CTAs beyond the SMs wait and get stolen
        "dynamic_smem_bytes": 120 * 1024,
        "buffers": {
            "A": {"dtype": "bf16", "shape": [m, k], "init": bf16_init(seed * 4, exact)},
            "B": {"dtype": "bf16", "shape": [n, k], "init": bf16_init(seed * 4 + 1, exact)},
            "D": {"dtype": "f32", "shape": [m, n], "init": {"fill": 0}},
            "owner": {"dtype": "u32", "shape": [(m // 128) * (n // 128)], "init": {"fill": "0xffffffff"}},
            "steals": {"dtype": "u32", "shape": [(m // 128) * (n // 128)], "init": {"fill": "0xffffffff"}},
        },
        "args": [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "D"}, {"buffer": "owner"}, {"buffer": "steals"},
                 {"u32": m}, {"u32": n}, {"u32": k}],
        "outputs": ["D", "owner", "steals"],
        "case": {"gemm": "gemm_clc_bf16_f32", "M": m, "N": n, "K": k, "cta_pair": False, "exact": exact,
                 "expect": "D = A * B^T, every tile computed once by its CTA or the CTA that canceled it " +
                           ("exactly" if exact else "per the models::mma sm_100a reference")},
    }


def other_gemm_plan():
    out = []
    out.append(("specs/spgemm/sp_bf16_f32_exact.json",
                sp_gemm_spec(256, 256, 512, True, 11, 12, 14, "2:4 sparse GEMM, metadata pairs (0,3) (1,3) (2,3)")))
    out.append(("specs/spgemm/sp_bf16_f32_exact_pairs01.json",
                sp_gemm_spec(128, 256, 256, True, 12, 8, 9, "2:4 sparse GEMM, metadata pairs (0,2) (1,2)")))
    out.append(("specs/spgemm/sp_bf16_f32_random.json",
                sp_gemm_spec(256, 128, 256, False, 13, 12, 14, "2:4 sparse GEMM, random inputs")))
    out.append(("specs/wsgemm/ws_bf16_f32_exact.json",
                ws_gemm_spec(512, 256, 256, True, 21, 0, "weight-stationary GEMM, B kept in collector b0")))
    out.append(("specs/wsgemm/ws_bf16_f32_random.json",
                ws_gemm_spec(256, 128, 128, False, 22, 0, "weight-stationary GEMM, random inputs")))
    out.append(("specs/wsgemm/ws_use_without_fill.json",
                ws_gemm_spec(256, 128, 64, True, 23, 1, "misuse demo: .collector::b0::use with no earlier fill")))
    out.append(("specs/clcgemm/clc_bf16_f32_exact.json",
                clc_gemm_spec(2048, 2048, 64, True, 31, "CLC-scheduled persistent GEMM: 256 tiles, 148 SMs")))
    out.append(("specs/clcgemm/clc_bf16_f32_random.json",
                clc_gemm_spec(1536, 2048, 128, False, 32, "CLC-scheduled persistent GEMM, random inputs")))
    return out


def all_files():
    files = {}
    for path, spec in other_gemm_plan():
        files[path] = render(spec)
    for path, spec in mx_gemm_plan():
        files[path] = render(spec)
    for c in bs_plan():
        name = c.name()
        base, i = name, 2
        while f"specs/mx/{name}.json" in files:
            name = f"{base}_{i}"
            i += 1
        files[f"specs/mx/{name}.json"] = render(c.spec(name))
    return files


SUBDIRS = ("specs/mx", "specs/mxgemm", "specs/spgemm", "specs/wsgemm", "specs/clcgemm")


def main():
    check = "--check" in sys.argv[1:]
    files = all_files()
    bad = 0
    if check:
        on_disk = set()
        for sub in SUBDIRS:
            d = os.path.join(HERE, sub)
            if os.path.isdir(d):
                on_disk |= {f"{sub}/{f}" for f in os.listdir(d) if f.endswith(".json")}
        for rel, text in files.items():
            path = os.path.join(HERE, rel)
            if not os.path.exists(path) or open(path).read() != text:
                print(f"FAIL: {rel} is not what gen_specs_mx.py writes (run kernels/tcgen05/gen_specs_mx.py)")
                bad += 1
        for rel in sorted(on_disk - set(files)):
            print(f"FAIL: {rel} is not written by gen_specs_mx.py (stale)")
            bad += 1
        print(f"gen_specs_mx --check: {len(files)} specs, {bad} problems")
        return 1 if bad else 0
    for sub in SUBDIRS:
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
