#!/usr/bin/env python3
"""The expected outputs of params_struct.json / params_struct_sm100.json, computed from the spec
alone (an independent model of what params_struct.cu must write), compared with a run's output
directory (`tcsim run --out DIR` or `tcsim-hw run --out DIR`).

  check.py SPEC DIR      exit 0: Y and info are exactly what the kernel must produce; 1 otherwise.

Inputs come from the launch spec's documented generator (docs/launch_spec.md "Initialisation";
`integers` draws low + floor(x * n / 2^64) with x = draw(seed, i, 0)). Every input is an integer
or a quarter, and scale is 0.5, so every intermediate is exact in float32: the expected values are
plain arithmetic, independent of FMA contraction or summation order.
"""
import json
import os
import struct
import sys

G = 0x9E3779B97F4A7C15
M = (1 << 64) - 1


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def draw(seed, i, k=0):
    key = mix64((seed + (i + 1) * G) & M)
    return mix64((key + (k + 1) * G) & M)


def integers(spec_init, n):
    r = spec_init["random"]
    lo, hi = r["low"], r["high"]
    span = hi - lo + 1
    return [lo + ((draw(r["seed"], i) * span) >> 64) for i in range(n)]


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    hlen = struct.unpack("<H", data[8:10])[0] if data[6] == 1 else struct.unpack("<I", data[8:12])[0]
    start = (10 if data[6] == 1 else 12) + hlen
    header = data[:start].decode("latin1")
    return header, data[start:]


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    spec_path, out = sys.argv[1], sys.argv[2]
    spec = json.load(open(spec_path))
    here = os.path.dirname(os.path.abspath(spec_path))
    b = spec["buffers"]
    a = integers(b["A"]["init"], 32 * 32)
    x = integers(b["X"]["init"], 1088)
    _, tdata = read_npy(os.path.join(here, spec["symbols"]["kTable"]["init"]["file"]))
    table = struct.unpack("<32f", tdata)
    fields = {f["offset"]: f for f in spec["args"][0]["struct"]["fields"]}
    shape = [g["u32"] for g in fields[16]["struct"]["fields"]]
    scale, bias, flag = fields[24]["f32"], fields[28]["i16"], fields[30]["u8"]
    tag = bytes.fromhex(fields[31]["bytes"])
    seq = int(fields[40]["u64"], 16)
    tail, iters = fields[192]["u32"], spec["args"][1]["u32"]
    x_off = fields[0]["offset_bytes"] // 4
    extra = bias + flag + (seq & 0xFF) + (shape[1] - shape[0]) + tail + iters
    want_y = []
    for cta in range(2):
        for e in range(512):
            r, c = divmod(e, 32)
            want_y.append(a[(16 * cta + r) * 32 + c] * scale + x[x_off + 512 * cta + e] + table[c] + extra)
    pad = [g["u32"] for g in spec["args"][2]["struct"]["fields"]]
    want_info = [shape[0], shape[1], struct.unpack("<I", struct.pack("<f", scale))[0], bias & M, flag,
                 int.from_bytes(tag, "little"), seq, (iters << 32) | tail, (pad[1] << 32) | pad[0]]
    _, ydata = read_npy(os.path.join(out, "Y.npy"))
    _, idata = read_npy(os.path.join(out, "info.npy"))
    got_y = struct.unpack("<1024f", ydata)
    got_info = struct.unpack("<9Q", idata)
    bad = [(i, got_y[i], want_y[i]) for i in range(1024) if struct.pack("<f", got_y[i]) != struct.pack("<f", want_y[i])]
    ok = True
    if bad:
        ok = False
        print(f"Y: {len(bad)} of 1024 elements differ; first: " +
              ", ".join(f"[{i}] got {g!r} want {w!r}" for i, g, w in bad[:4]))
    for i, (g, w) in enumerate(zip(got_info, want_info)):
        if g != w:
            ok = False
            print(f"info[{i}]: got 0x{g:x}, want 0x{w:x}")
    print(f"{spec_path}: {'as expected' if ok else 'DIFFERENT'} (Y: 1024 elements, info: 9 fields)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
