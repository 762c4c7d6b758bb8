#!/usr/bin/env python3
"""Writes the goldens of add_bias.json with nothing but Python's struct module (independent of
tcsim's own .npy writer): golden/ holds the exact result y[i] = i + 100 + 10 * (i % 4) (every value
an integer below 2^24, so exact in f32); golden_off_by_one_ulp/ the same with y[1][2] (flat
index 34) one ulp higher, which `tcsim run --golden` must report. Run from this directory."""
import json, os, struct

def write_npy(path, descr, shape, payload):
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * (pad % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload)

def write(dirname, values):
    os.makedirs(dirname, exist_ok=True)
    bits = [struct.unpack("<I", struct.pack("<f", v))[0] for v in values]
    write_npy(os.path.join(dirname, "y.npy"), "<f4", (2, 32), struct.pack("<64I", *bits))
    manifest = {"version": 1, "tool": "python (exact arithmetic)", "arch": "sm_90a",
                "spec": "tests/cli/run_data/add_bias.json", "kernel": "add_bias",
                "outputs": {"y": {"dtype": "f32", "shape": [2, 32], "file": "y.npy"}}}
    with open(os.path.join(dirname, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")

exact = [float(i + 100 + 10 * (i % 4)) for i in range(64)]
write("golden", exact)
off = list(exact)
bits = struct.unpack("<I", struct.pack("<f", off[34]))[0] + 1
off[34] = struct.unpack("<f", struct.pack("<I", bits))[0]
write("golden_off_by_one_ulp", off)
