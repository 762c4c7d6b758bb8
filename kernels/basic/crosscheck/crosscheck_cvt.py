#!/usr/bin/env python3
"""reference.py's conversion code against CUDA's own host implementations (a CTest when the CUDA
headers exist): runs cuda_host_cvt (built from cuda_host_cvt.cc) on ~23k f32 bit patterns --
random ones plus values at and around every rounding boundary from 2^-30 to 2^20 -- and compares
every column with reference.py. Usage: crosscheck_cvt.py PATH/TO/cuda_host_cvt
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import reference as REF  # noqa: E402
import refops as R  # noqa: E402
from refcore import E2M1, E2M3, E3M2, E4M3, E5M2, F32, F64, RM, RN, RP, RZ, f32_bits, f64_bits, is_nan_bits  # noqa: E402

COLUMNS = ["f16 rn", "f16 rz", "f16 rd", "f16 ru", "bf16 rn", "bf16 rz", "bf16 rd", "bf16 ru",
           "f16(f64)", "bf16(f64)", "e4m3 satfinite", "e5m2 satfinite", "e4m3 nosat", "e5m2 nosat",
           "e2m3", "e3m2", "e2m1", "e8m0 sat rz", "e8m0 nosat rp", "e8m0 sat rp", "e8m0 nosat rz",
           "e4m3 of f16", "e5m2 of f16"]


def inputs():
    rng = random.Random(99)
    xs = [rng.getrandbits(32) for _ in range(10000)]
    for e in range(-30, 21):
        for m in range(64):
            x = f32_bits((1 + m / 64) * 2.0 ** e)
            xs += [x, x ^ 0x80000000, x + 1, x - 1]
    xs += [0x7FC00000, 0xFFC00001, 0x7F800001, 0x7F800000, 0xFF800000, 0, 0x80000000, 0x7F7FFFFF, 1]
    return xs


def mine(x):
    P = REF.plain
    d3 = R.f_mul("f64", P(REF.cvt_float("f32", "f64", x)), f64_bits(3.0))
    r = [P(REF.cvt_float("f32", "f16", x, m)) for m in (RN, RZ, RM, RP)]
    r += [P(REF.cvt_float("f32", "bf16", x, m)) for m in (RN, RZ, RM, RP)]
    r += [P(REF.cvt_float("f64", "f16", P(d3))), P(REF.cvt_float("f64", "bf16", P(d3)))]
    r += [P(REF.fp8_from("f32", x, E4M3)), P(REF.fp8_from("f32", x, E5M2))]
    if is_nan_bits(F32, x):  # the header canonicalises a NaN to 0x7FFFFFFF first
        r += [0x7F, 0x7F]
    else:
        r += [P(REF.fp8_from("f32", x, E4M3, sat=False)), P(REF.fp8_from("f32", x, E5M2, sat=False))]
    r += [REF.narrow_from_f32(x, E2M3), REF.narrow_from_f32(x, E3M2), REF.narrow_from_f32(x, E2M1)]
    r += [REF.e8m0_from_f32(x, True, False), REF.e8m0_from_f32(x, False, True),
          REF.e8m0_from_f32(x, True, True), REF.e8m0_from_f32(x, False, False)]
    h = x & 0xFFFF
    r += [P(REF.fp8_from("f16", h, E4M3)), P(REF.fp8_from("f16", h, E5M2))]
    return r


def main(argv):
    xs = inputs()
    run = subprocess.run([argv[0]], input="\n".join("%x" % x for x in xs), capture_output=True,
                         text=True, check=True)
    lines = run.stdout.split("\n")
    bad = {}
    for x, line in zip(xs, lines):
        got = [int(t, 16) for t in line.split()]
        for k, (a, b) in enumerate(zip(mine(x), got)):
            if a != b:
                bad.setdefault(COLUMNS[k], []).append(f"x=0x{x:08x} reference 0x{a:x} cuda 0x{b:x}")
    for col, items in bad.items():
        print(f"MISMATCH {col}: {len(items)} inputs, e.g. " + "; ".join(items[:3]))
    print(f"crosscheck_cvt: {len(xs)} inputs x {len(COLUMNS)} conversions: "
          f"{'OK' if not bad else 'FAILED'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
