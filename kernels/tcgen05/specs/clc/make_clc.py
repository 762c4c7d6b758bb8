#!/usr/bin/env python3
"""Writes the launch specs of kernels/tcgen05/clc_persistent.cu and their goldens.

The goldens follow from the PTX ISA (§9.7.13.17 clusterlaunchcontrol.try_cancel: a granted cancel
names a cluster that never launches, and no two grants name the same cluster) and the machine's
residency (docs/machine.md: B200, 148 SMs in 74 TPCs; 200000 bytes of dynamic shared memory leave
one CTA per SM): every tile is visited exactly once, 148 CTAs start (all co-resident clusters launch
before any can finish, since a CTA only exits after a failed cancel, i.e. when no cluster is left),
and the other grid - 148 tiles are stolen."""
import json, os, struct

HERE = os.path.dirname(os.path.abspath(__file__))
GRID, SMS = 400, 148


def npy_u32(path, vals):
    hdr = "{'descr': '<u4', 'fortran_order': False, 'shape': (%d,), }" % len(vals)
    hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
        f.write(struct.pack("<%dI" % len(vals), *vals))


def write(name, cluster, multicast):
    spec = {
        "_comment": f"persistent tile loop over clusterlaunchcontrol.try_cancel, cluster [{cluster}, 1, 1]"
                    + (", .multicast::cluster::all" if multicast else ""),
        "ptx": "../../clc_persistent.ptx", "kernel": "clc_persistent", "arch": "sm_100a",
        "grid": [GRID, 1, 1], "block": [64, 1, 1], "cluster": [cluster, 1, 1], "dynamic_smem_bytes": 200000,
        "buffers": {"visits": {"dtype": "u32", "shape": [GRID], "init": {"fill": 0}},
                    "stolen": {"dtype": "u32", "shape": [1], "init": {"fill": 0}},
                    "started": {"dtype": "u32", "shape": [1], "init": {"fill": 0}}},
        "args": [{"buffer": "visits"}, {"buffer": "stolen"}, {"buffer": "started"}, {"i32": multicast}],
        "outputs": ["visits", "stolen", "started"]}
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(spec, f, indent=2)
        f.write("\n")
    g = os.path.join(HERE, "golden_" + name)
    os.makedirs(g, exist_ok=True)
    outs = {"visits": [1] * GRID, "stolen": [GRID - SMS], "started": [SMS]}
    man = {"version": 1, "tool": "python (PTX ISA invariants, machine residency)", "arch": "sm_100a",
           "spec": name, "kernel": "clc_persistent", "outputs": {}}
    for k, v in outs.items():
        npy_u32(os.path.join(g, k + ".npy"), v)
        man["outputs"][k] = {"dtype": "u32", "shape": [len(v)], "file": k + ".npy"}
    with open(os.path.join(g, "manifest.json"), "w") as f:
        json.dump(man, f, indent=2)
        f.write("\n")


write("clc_cluster2", 2, 1)
write("clc_cta", 1, 0)
