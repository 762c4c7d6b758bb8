#!/usr/bin/env python3
"""Writes the committed input files under kernels/basic/data/ (standard library only).

Run from anywhere: python3 kernels/basic/make_data.py. Each file is described where it is made;
reference.py rebuilds the same values from these definitions, so a change here changes both.
Symbols (`.const`/`.global` variables) are declared by nvcc as `.b8 name[bytes]` arrays, so their
files hold raw little-endian bytes (|u1) of exactly the declared size.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from refcore import write_npy  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def crc32_table():
    """The reflected CRC-32 table (polynomial 0xEDB88320), as zlib uses it."""
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (0xEDB88320 ^ (c >> 1)) if c & 1 else c >> 1
        table.append(c)
    return table


# Horner coefficients for const_tables, highest degree first (exact in f32).
POLY_COEF = [0.0123291015625, -0.25, 0.5, -1.5, 2.0, 0.75, -3.0, 1.0]

# g_bias for const_tables.
G_BIAS = [17, -3, 100000, -77777]

# bad/args.cu's __constant__ scale_table (used by bad/args_ok.json and friends).
SCALE_TABLE = [1, 2, 3, 4]

# Initial contents of atomics_int's global slots: the identity of each slot's operation where it
# needs one (see the slot list in atomics_int.cu).
ATOMICS_G32 = [0] * 32
ATOMICS_G32[1] = 1000000           # sub
ATOMICS_G32[2] = 0x7FFFFFFF        # min.s32
ATOMICS_G32[3] = 0x80000000        # max.s32
ATOMICS_G32[4] = 0xFFFFFFFF        # min.u32
ATOMICS_G32[6] = 0xFFFFFFFF        # and
ATOMICS_G32[8] = 0x12345678        # xor
ATOMICS_G32[21] = 0x7FFFFFFF       # red.min.s32
ATOMICS_G64 = [0] * 16
ATOMICS_G64[1] = 0x7FFFFFFFFFFFFFFF  # min.s64
ATOMICS_G64[2] = 0x8000000000000000  # max.s64
ATOMICS_G64[3] = 0xFFFFFFFFFFFFFFFF  # min.u64
ATOMICS_G64[5] = 0xFFFFFFFFFFFFFFFF  # and.b64
ATOMICS_G64[8] = 0x0123456789ABCDEF  # CAS xor-rotate
ATOMICS_G64[10] = 0x8000000000000000  # red.max.s64


def as_bytes(fmt, values):
    return list(struct.pack("<%d%s" % (len(values), fmt), *values))


def main():
    os.makedirs(DATA, exist_ok=True)
    files = {
        "crc32_table.npy": ("|u1", [1024], as_bytes("I", crc32_table())),
        "poly_coef.npy": ("|u1", [32], as_bytes("f", POLY_COEF)),
        "g_bias.npy": ("|u1", [16], as_bytes("i", G_BIAS)),
        "scale_table.npy": ("|u1", [16], as_bytes("I", SCALE_TABLE)),
        "atomics_g32.npy": ("<u4", [32], ATOMICS_G32),
        "atomics_g64.npy": ("<u8", [16], ATOMICS_G64),
    }
    for name, (descr, shape, values) in sorted(files.items()):
        write_npy(os.path.join(DATA, name), descr, shape, values)
        print("wrote", os.path.join("data", name))


if __name__ == "__main__":
    main()
