#!/usr/bin/env python3
"""Writes the exactness-invariant inputs and expected outputs of the tcgen05 tile launch specs
(tcgen05_tile_*.json in this folder): small integers, halves and powers of two whose every product
and sum is exact in f32, so the expected D does not depend on the accumulation model and any
difference from it is a layout, descriptor, scale-factor or TMEM error (DESIGN.md, "Verification
without a B200", point 3). Pure Python (no numpy); .npy files are written by hand (format 1.0)."""
import json, os, struct
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
M, N = 128, 16

def npy(path, dtype, values):
    fmt = {'|u1': 'B', '<u4': 'I'}[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (dtype, len(values))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + ' ' * pad + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode())
        f.write(struct.pack('<%d%s' % (len(values), fmt), *values))

def f32(v):
    return struct.unpack('<I', struct.pack('<f', float(v)))[0]

VALS = [F(0), F(1), F(-1), F(2), F(1, 2), F(-2), F(3, 2), F(-1, 2)]

def bf16_code(v): return f32(v) >> 16
def e4m3_code(v):
    if v == 0: return 0
    s = 0x80 if v < 0 else 0
    a = abs(v); e = 0
    while a >= 2: a /= 2; e += 1
    while a < 1: a *= 2; e -= 1
    return s | ((e + 7) << 3) | int((a - 1) * 8)
def e2m1_code(v):
    table = {F(0): 0, F(1, 2): 1, F(1): 2, F(3, 2): 3, F(2): 4, F(3): 5, F(4): 6, F(6): 7}
    return (8 if v < 0 else 0) | table[abs(v)]
def ue4m3_value(c):
    e, m = (c >> 3) & 15, c & 7
    return F(m, 8) * F(2) ** -6 if e == 0 else (1 + F(m, 8)) * F(2) ** (e - 7)

def case(name, kernel, K, pack, code, idesc, nsf, scale_codes=None):
    a = [[VALS[(i * 5 + k * 3 + i * k) % 8] for k in range(K)] for i in range(M)]
    b = [[VALS[(j * 3 + k * 7 + 2 * j * k + 1) % 8] for k in range(K)] for j in range(N)]
    c = [[F((i + 2 * j) % 9, 4) - 1 for j in range(N)] for i in range(M)]
    sa = [[scale_codes[(i + blk) % 3] for blk in range(nsf)] for i in range(M)] if nsf else []
    sb = [[scale_codes[(j + 2 * blk) % 3] for blk in range(nsf)] for j in range(N)] if nsf else []
    A = b''.join(pack([code(x) for x in row]) for row in a)
    B = b''.join(pack([code(x) for x in col]) for col in b)
    d = []
    for i in range(M):
        for j in range(N):
            s = c[i][j]
            for k in range(K):
                p = a[i][k] * b[j][k]
                if nsf:
                    blk = k // (K // nsf)
                    p *= ue4m3_value(sa[i][blk]) * ue4m3_value(sb[j][blk])
                s += p
            d.append(f32(s))
            assert F(struct.unpack('<f', struct.pack('<I', d[-1]))[0]) == s, "not exact"
    pre = os.path.join(HERE, name)
    npy(pre + '_a.npy', '|u1', list(A))
    npy(pre + '_b.npy', '|u1', list(B))
    npy(pre + '_c.npy', '<u4', [f32(x) for row in c for x in row])
    npy(pre + '_d_expected.npy', '<u4', d)
    bufs = {
        "A": {"dtype": "u8", "shape": [M * 32], "init": {"file": name + "_a.npy"}},
        "B": {"dtype": "u8", "shape": [N * 32], "init": {"file": name + "_b.npy"}},
        "C": {"dtype": "u32", "shape": [M * N], "init": {"file": name + "_c.npy"}},
        "D": {"dtype": "u32", "shape": [M * N], "init": {"fill": 0}},
    }
    if nsf:
        npy(pre + '_sa.npy', '|u1', [x for row in sa for x in row])
        npy(pre + '_sb.npy', '|u1', [x for row in sb for x in row])
        bufs["SA"] = {"dtype": "u8", "shape": [M * nsf], "init": {"file": name + "_sa.npy"}}
        bufs["SB"] = {"dtype": "u8", "shape": [N * nsf], "init": {"file": name + "_sb.npy"}}
    else:
        bufs["SA"] = {"dtype": "u8", "shape": [1], "init": {"fill": 0}}
        bufs["SB"] = {"dtype": "u8", "shape": [1], "init": {"fill": 0}}
    spec = {
        "ptx": "../tcgen05_tile.ptx", "kernel": kernel, "arch": "sm_100a",
        "grid": [1, 1, 1], "block": [128, 1, 1], "cluster": [1, 1, 1],
        "buffers": bufs,
        "args": [{"buffer": "A"}, {"buffer": "B"}, {"buffer": "C"}, {"buffer": "D"},
                 {"buffer": "SA"}, {"buffer": "SB"}, {"u32": idesc}, {"i32": nsf}, {"i32": 1}],
        "outputs": ["D"],
    }
    with open(pre + '.json', 'w') as f:
        json.dump(spec, f, indent=2)
        f.write('\n')

def bytes16(codes): return b''.join(struct.pack('<H', x) for x in codes)
def bytes8(codes): return bytes(codes)
def nibbles(codes): return bytes((codes[2 * i] & 15) | ((codes[2 * i + 1] & 15) << 4) for i in range(len(codes) // 2))

# idesc (PTX ISA §9.7.16.4.2): N>>3 = 2 at bit 17, M>>4 = 8 at bit 24 (= M>>7 at bit 27)
SHAPE = (2 << 17) | (8 << 24)
case('tcgen05_tile_f16_bf16', 'tcgen05_tile_f16', 16, bytes16, bf16_code,
     SHAPE | (1 << 4) | (1 << 7) | (1 << 10), 0)                      # f32 D, bf16 x bf16
case('tcgen05_tile_f8f6f4_e4m3', 'tcgen05_tile_f8f6f4', 32, bytes8, e4m3_code,
     SHAPE | (1 << 4), 0)                                              # f32 D, e4m3 x e4m3
case('tcgen05_tile_mxf4nvf4_ue4m3', 'tcgen05_tile_mxf4nvf4_4x', 64, nibbles, e2m1_code,
     SHAPE | (1 << 7) | (1 << 10), 4, [0x30, 0x38, 0x40])              # e2m1 (code 1), UE4M3
print("ok")
