#!/usr/bin/env python3
"""Writes the launch specs of ../../idioms.cu (one per idiom, and all together) and the goldens they
are checked against: D = A · Bᵀ computed here with exact integer arithmetic from the formulas the
kernel uses (A[m][k] = (3m + k) % 5 - 2, B[n][k] = (n + 2k) % 7 - 3, K = 32; every sum is a small
integer, exact in f32). Uses nothing but Python's struct and json modules. Run from this folder."""
import json, os, struct

N, K = 64, 32
IDIOMS = {"plain": 0, "dealloc_other_warp": 1, "no_wait_ld": 2, "lane_field": 4, "generic_addresses": 8,
          "imm_enable_input_d": 16, "all": 31}

def write_npy(path, shape, floats):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % dims
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(floats), *floats))

for cg in (1, 2):
    M = 128 * cg
    d = [float(sum(((3 * m + k) % 5 - 2) * ((n + 2 * k) % 7 - 3) for k in range(K))) for m in range(M) for n in range(N)]
    gdir = f"golden_cg{cg}"
    os.makedirs(gdir, exist_ok=True)
    write_npy(os.path.join(gdir, "D.npy"), [M, N], d)
    with open(os.path.join(gdir, "manifest.json"), "w") as f:
        json.dump({"version": 1, "tool": "python (exact arithmetic)", "arch": "sm_100a", "spec": "idioms",
                   "kernel": f"idiom_gemm_cg{cg}", "outputs": {"D": {"dtype": "f32", "shape": [M, N], "file": "D.npy"}}},
                  f, indent=2)
        f.write("\n")
    for name, flags in IDIOMS.items():
        spec = {"ptx": "../../idioms.ptx", "kernel": f"idiom_gemm_cg{cg}", "arch": "sm_100a", "grid": [cg, 1, 1],
                "block": [256, 1, 1], "cluster": [cg, 1, 1], "dynamic_smem_bytes": 0,
                "buffers": {"D": {"dtype": "f32", "shape": [M, N], "init": {"fill": 0}}},
                "args": [{"buffer": "D"}, {"u32": flags}], "outputs": ["D"]}
        with open(f"cg{cg}_{name}.json", "w") as f:
            json.dump(spec, f, indent=2)
            f.write("\n")
