#!/usr/bin/env python3
"""Checks the launch specs of the asynchronous-machine corpus without a GPU or a simulator.

1. No drift: the committed specs are exactly what gen_specs.py writes today, and no committed
   spec is orphaned.
2. Each spec against its PTX: the .ptx exists, the kernel names exactly one .entry, the args match
   the .entry's parameters in count and size (tensor map 128 bytes, buffer 8, scalars their size).
3. Each spec against the launch-spec rules (shared/LAUNCH_SPEC.md, docs/launch_spec.md): buffer
   dtypes and shapes, init forms, tensor maps inside their buffers, outputs are buffers, the
   cluster divides the grid, block and dynamic shared memory within the sm_90 limits.
4. Each tensor map of a launchable spec is valid under cuTensorMapEncodeTiled's documented rules
   (docs/tma_and_mbarrier.md §1, transcribed in tensor_map_verdict below); a spec whose map uses
   a 128B_ATOM swizzle (rejected by the H200's driver, README.md "Facts settled on the H200") runs
   on sm_100a, every other on sm_90a.
5. facts/tensor_map_edges.json: every "_expect" verdict other than FACT is what tensor_map_verdict
   says, so the expectations handed to the H200 are consistent with the rules as written.

Usage: check_specs.py [KERNELS_DIR]. Exit 0 = all good; prints one line per problem.
"""
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_specs  # noqa: E402

SPEC_DTYPES = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "f16": 2, "bf16": 2,
               "f32": 4, "f64": 8, "e4m3": 1, "e5m2": 1, "e2m3": 1, "e3m2": 1, "e2m1x2": 1, "ue8m0": 1, "ue4m3": 1}
SCALARS = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4, "u64": 8, "i64": 8, "f32": 4, "f64": 8}
TM_DTYPES = {"u8": 1, "u16": 2, "u32": 4, "i32": 4, "u64": 8, "i64": 8, "f16": 2, "f32": 4, "f64": 8, "bf16": 2,
             "f32_ftz": 4, "tf32": 4, "tf32_ftz": 4, "16u4_align8b": 0, "16u4_align16b": 0, "16u6_align16b": 0}
FLOAT_TM = {"f16", "f32", "f64", "bf16", "f32_ftz", "tf32", "tf32_ftz"}
SWIZZLE_SPAN = {"none": 0, "32B": 32, "64B": 64, "128B": 128, "128B_atom_32B": 128, "128B_atom_32B_flip_8B": 128,
                "128B_atom_64B": 128}
MAX_DYN_SMEM_SM90 = 227 * 1024


def tensor_map_verdict(t, address_mod=0):
    """(ok, reason) under the documented cuTensorMapEncodeTiled rules (cuda.h 13.0 doc comment,
    docs/tma_and_mbarrier.md §1). address_mod: the global address modulo 256 (buffers are
    256-byte aligned, so this is offset_bytes % 256)."""
    dt = t["dtype"]
    dims, box = t["global_dims"], t["box_dims"]
    strides = t.get("global_strides_bytes", [])
    estr = t.get("element_strides", [1] * len(dims))
    il, sw, oob = t.get("interleave", "none"), t.get("swizzle", "none"), t.get("oob_fill", "none")
    rank = len(dims)
    packed16 = dt in ("16u4_align16b", "16u6_align16b")
    if not 1 <= rank <= 5:
        return False, "rank must be 1..5"
    if il != "none" and rank < 3:
        return False, "interleave needs rank >= 3"
    align = 32 if (il == "32B" or packed16) else 16
    if address_mod % align:
        return False, f"globalAddress must be {align}-byte aligned"
    for d in dims:
        if not 1 <= d <= 2 ** 32:
            return False, "globalDim must be in 1..2^32"
    if packed16 and dims[0] % 128:
        return False, "globalDim[0] must be a multiple of 128 for 16U4_ALIGN16B / 16U6_ALIGN16B"
    if dt == "16u4_align8b" and dims[0] % 2:
        return False, "globalDim[0] must be even for 16U4_ALIGN8B"
    if len(strides) != rank - 1:
        return False, "rank-1 global strides"
    smul = 32 if (il == "32B" or packed16) else 16
    for s in strides:
        if s % smul or s >= 2 ** 40:
            return False, f"globalStrides must be multiples of {smul} and < 2^40"
    for b in box:
        if not 1 <= b <= 256:
            return False, "boxDim must be in 1..256"
    esize = TM_DTYPES[dt]
    inner_bytes = box[0] * esize if esize else (box[0] * (6 if dt == "16u6_align16b" else 4)) // 8
    if il == "none" and inner_bytes % 16:
        return False, "boxDim[0] * elementSize must be a multiple of 16 bytes"
    if packed16 and box[0] != 128:
        return False, "boxDim[0] must be 128 for 16U4_ALIGN16B / 16U6_ALIGN16B"
    for i, e in enumerate(estr):
        if not 1 <= e <= 8:
            return False, "elementStrides must be in 1..8"
    if il == "none" and sw != "none" and inner_bytes > SWIZZLE_SPAN[sw]:
        return False, f"inner box {inner_bytes} B exceeds the {sw} swizzle span"
    if il == "32B" and sw != "32B":
        return False, "INTERLEAVE_32B requires SWIZZLE_32B"
    if dt == "16u6_align16b" and il != "none":
        return False, "16U6_ALIGN16B requires interleave NONE"
    if dt == "16u6_align16b" and sw not in ("none", "128B", "128B_atom_32B", "128B_atom_64B"):
        return False, "16U6_ALIGN16B: swizzle NONE, 128B, 128B_ATOM_32B or 128B_ATOM_64B"
    if dt == "16u4_align16b" and sw not in ("none", "128B", "128B_atom_32B"):
        return False, "16U4_ALIGN16B: swizzle NONE, 128B or 128B_ATOM_32B"
    if oob == "nan" and dt not in FLOAT_TM:
        return False, "OOB NaN fill needs a (non-packed) float type"
    return True, "valid"


def entry_params(ptx_text, kernel):
    """{entry: [param sizes]} for the .entry names in the PTX; params in declaration order."""
    entries = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\)", ptx_text, re.S):
        sizes = []
        for p in m.group(2).split(","):
            p = p.strip()
            if not p:
                continue
            arr = re.search(r"\[(\d+)\]", p)
            if arr:
                sizes.append(int(arr.group(1)))
            else:
                ty = re.search(r"\.(u|s|b|f)(8|16|32|64)\b", p)
                sizes.append(int(ty.group(2)) // 8)
        entries[m.group(1)] = sizes
    return entries


def check_spec(path, s, problems):
    def bad(msg):
        problems.append(f"{path}: {msg}")

    d = os.path.dirname(path)
    for k in ("ptx", "kernel", "grid", "block"):
        if k not in s:
            bad(f"missing {k}")
            return
    ptx_path = os.path.join(d, s["ptx"])
    if not os.path.exists(ptx_path):
        bad(f"ptx {s['ptx']} does not exist")
        return
    entries = entry_params(open(ptx_path).read(), s["kernel"])
    names = [e for e in entries if e == s["kernel"]] or [e for e in entries if s["kernel"] in e]
    if len(names) != 1:
        bad(f"kernel {s['kernel']} matches {names} of {list(entries)}")
        return
    params = entries[names[0]]

    bufs = s.get("buffers", {})
    sizes = {}
    for n, b in bufs.items():
        if b["dtype"] not in SPEC_DTYPES:
            bad(f"buffer {n}: dtype {b['dtype']}")
            continue
        count = 1
        for x in b["shape"]:
            if not isinstance(x, int) or x < 1:
                bad(f"buffer {n}: shape {b['shape']}")
            count *= x
        sizes[n] = count * SPEC_DTYPES[b["dtype"]]
        init = b.get("init", {})
        if len(init) != 1 or next(iter(init)) not in ("fill", "iota", "random", "file"):
            bad(f"buffer {n}: init {init}")

    check_only = "_expect" in s
    for n, t in s.get("tensor_maps", {}).items():
        if t["buffer"] not in bufs:
            bad(f"tensor map {n}: no buffer {t['buffer']}")
            continue
        if t["dtype"] not in TM_DTYPES:
            bad(f"tensor map {n}: dtype {t['dtype']}")
            continue
        ok, why = tensor_map_verdict(t, t.get("offset_bytes", 0) % 256)
        if check_only:
            exp = s["_expect"].get(n)
            if exp is None:
                bad(f"tensor map {n}: no _expect")
            elif not exp.startswith("FACT") and exp.startswith("ACCEPT") != ok:
                bad(f"tensor map {n}: _expect says {exp!r} but the documented rules say {'ACCEPT' if ok else 'REJECT'} "
                    f"({why})")
            continue
        if not ok:
            bad(f"tensor map {n}: invalid under the documented rules: {why}")
        esize = TM_DTYPES[t["dtype"]]
        extent = t.get("offset_bytes", 0) + t["global_dims"][0] * esize
        for dim, st in zip(t["global_dims"][1:], t.get("global_strides_bytes", [])):
            extent += (dim - 1) * st
        if extent > sizes.get(t["buffer"], 0):
            bad(f"tensor map {n}: extent {extent} B exceeds buffer {t['buffer']} ({sizes.get(t['buffer'])} B)")

    args = s.get("args", [])
    if not check_only:
        if len(args) != len(params):
            bad(f"{len(args)} args for {len(params)} parameters of {names[0]}")
        for i, (a, p) in enumerate(zip(args, params)):
            if "tensor_map" in a:
                size = 128
                if a["tensor_map"] not in s.get("tensor_maps", {}):
                    bad(f"args[{i}]: no tensor map {a['tensor_map']}")
            elif "buffer" in a:
                size = 8
                if a["buffer"] not in bufs:
                    bad(f"args[{i}]: no buffer {a['buffer']}")
            else:
                (ty, v), = a.items()
                size = SCALARS.get(ty, 0)
                if ty.startswith("u") and isinstance(v, int) and not 0 <= v < 2 ** (8 * size):
                    bad(f"args[{i}]: {v} does not fit {ty}")
                if ty.startswith("i") and isinstance(v, int) and not -2 ** (8 * size - 1) <= v < 2 ** (8 * size - 1):
                    bad(f"args[{i}]: {v} does not fit {ty}")
            if size != p:
                bad(f"args[{i}] is {size} bytes, parameter {i} of {names[0]} is {p}")
    for o in s.get("outputs", []):
        if o not in bufs:
            bad(f"output {o} is not a buffer")

    grid, block, cluster = s["grid"], s["block"], s.get("cluster", [1, 1, 1])
    if block[0] * block[1] * block[2] > 1024:
        bad("more than 1024 threads per block")
    if any(g % c for g, c in zip(grid, cluster)):
        bad(f"cluster {cluster} does not divide grid {grid}")
    # 8 is the portable maximum; up to 16 with the non-portable attribute, which tcsim-hw sets (the
    # H200 ran clusters of 9..16: kernels/probes/results/h200-2026-12-01-machine).
    if cluster[0] * cluster[1] * cluster[2] > 16:
        bad("a cluster of more than 16 CTAs (the non-portable maximum)")
    if s.get("dynamic_smem_bytes", 0) > MAX_DYN_SMEM_SM90:
        bad("dynamic shared memory above the sm_90 limit of 227 KB")
    # The H200 judges the specs: they run the sm_90a PTX on sm_90a, except those using a swizzle the
    # H200's driver rejects (the 128B_ATOM modes: measured on H200, driver 580.159.04, 2026-11-30),
    # which run the sm_100a PTX on sm_100a (tcsim's Blackwell runs; run_hw.sh skips them on sm_90).
    sm100_only = any(t.get("swizzle") in gen_specs.SM100_ONLY_SWIZZLES for t in s.get("tensor_maps", {}).values())
    # ... and the sm_100a twins of kernels whose Blackwell path uses sm_100a-only PTX (.cta_group::2).
    sm100_only = sm100_only or os.path.basename(path) in gen_specs.SM100_ONLY_SPECS
    want = "sm_100a" if sm100_only else "sm_90a"
    if not check_only and (s.get("arch") != want or f".{want}.ptx" not in s["ptx"]):
        bad(f"this spec must run the {want} PTX on arch {want}"
            + (" (a 128B_ATOM swizzle: the H200's driver rejects it)" if sm100_only else " (the H200 judges it)"))


def main():
    kernels = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(HERE)
    problems = []
    generated = gen_specs.all_specs()

    # 1. drift
    with tempfile.TemporaryDirectory() as tmp:
        for rel, s in generated.items():
            want = gen_specs.dump(s)
            path = os.path.join(kernels, rel)
            if not os.path.exists(path):
                problems.append(f"{rel}: not committed (run gen_specs.py)")
            elif open(path).read() != want:
                problems.append(f"{rel}: differs from what gen_specs.py writes (run gen_specs.py)")
    committed = []
    for sub in ("tma", "tma/bad", "tma/swizzle", "tma/facts", "cluster", "cluster/bad"):
        for f in sorted(os.listdir(os.path.join(kernels, sub))):
            if f.endswith(".json"):
                committed.append(f"{sub}/{f}")
    for rel in committed:
        if rel not in generated:
            problems.append(f"{rel}: not written by gen_specs.py (stale?)")

    # 2-5. each spec
    for rel in committed:
        path = os.path.join(kernels, rel)
        try:
            s = json.load(open(path))
        except json.JSONDecodeError as e:
            problems.append(f"{rel}: not valid JSON: {e}")
            continue
        check_spec(path, s, problems)

    for p in problems:
        print("FAIL:", p)
    print(f"check_specs: {len(committed)} specs, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
