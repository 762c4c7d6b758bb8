#!/usr/bin/env python3
"""Static check of every launch spec under kernels/hopper/specs against shared/LAUNCH_SPEC.md
(version 1), the PTX it names, and the H200 (sm_90a) launch limits, without running anything:

  * fields and their forms: grid/block/cluster, dtypes, init forms, tensor maps, args, outputs;
  * `kernel` names exactly one .entry of the PTX; the args match its parameters in count and
    size (buffer 8, tensor map 128, scalars their size);
  * tensor maps: rank 2, box <= 256 per dimension, inner box bytes a multiple of 16 and at most the
    swizzle span, strides multiples of 16, the map inside its buffer (cuTensorMapEncodeTiled rules,
    docs/tma_and_mbarrier.md §1);
  * block <= 1024 threads, the grid a multiple of the cluster, cluster <= 8 CTAs, dynamic shared
    memory <= 227 KB (232448 bytes, the H200 opt-in maximum);
  * the kernel-family rules the generators promise: single-instruction wgmma/mma specs have the
    operand shapes of their instruction; GEMM specs have sizes the tile shapes divide.
Exit 0 when every spec passes. Standard library only. Usage: check_specs.py [SPEC ...]
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPE_BYTES = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "f16": 2,
               "bf16": 2, "f32": 4, "f64": 8, "e4m3": 1, "e5m2": 1, "e2m3": 1, "e3m2": 1, "e2m1x2": 1,
               "ue8m0": 1, "ue4m3": 1}
TM_DTYPE_BYTES = {"u8": 1, "u16": 2, "u32": 4, "i32": 4, "u64": 8, "i64": 8, "f16": 2, "f32": 4, "f64": 8,
                  "bf16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1, "i8": 1}
SCALAR_BYTES = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4, "u64": 8, "i64": 8, "f32": 4, "f64": 8}
PARAM_BYTES = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2, "b32": 4, "u32": 4, "s32": 4,
               "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8}
SWIZZLE_SPAN = {"none": None, "32B": 32, "64B": 64, "128B": 128}
TOP_KEYS = {"comment", "ptx", "kernel", "arch", "grid", "block", "cluster", "dynamic_smem_bytes", "buffers",
            "tensor_maps", "args", "symbols", "outputs", "version"}
MAX_DYN_SMEM = 232448


class SpecError(Exception):
    pass


_ptx_cache = {}


def ptx_entries(path):
    if path not in _ptx_cache:
        text = open(path).read()
        entries = {}
        for m in re.finditer(r"\.entry\s+([\w$]+)\s*\((.*?)\)", text, re.S):
            sizes = []
            for p in re.finditer(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)((?:\s+\.(?:ptr|global|shared|const|local)"
                                 r"|\s+\.align\s+\d+)*)\s+[\w$]+(?:\[(\d+)\])?", m.group(2)):
                sizes.append(PARAM_BYTES[p.group(1)] * (int(p.group(3)) if p.group(3) else 1))
            entries[m.group(1)] = sizes
        target = re.search(r"^\.target\s+(\w+)", text, re.M)
        _ptx_cache[path] = (entries, target.group(1) if target else None)
    return _ptx_cache[path]


def three(spec, key, default=None):
    v = spec.get(key, default)
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and x > 0 for x in v)):
        raise SpecError(f"'{key}' must be three positive integers, got {v!r}")
    return v


def check_init(name, b):
    init = b.get("init", {"fill": 0})
    if not isinstance(init, dict) or len(init) != 1:
        raise SpecError(f"buffer {name}: init must have one form")
    form, v = next(iter(init.items()))
    if form == "fill":
        if not isinstance(v, (int, float, str)):
            raise SpecError(f"buffer {name}: bad fill {v!r}")
    elif form == "random":
        if v.get("dist") not in ("uniform", "normal", "bits") or not isinstance(v.get("seed"), int):
            raise SpecError(f"buffer {name}: random needs an integer seed and dist uniform/normal/bits")
        if v["dist"] == "uniform" and not v.get("low", 0) <= v.get("high", 1):
            raise SpecError(f"buffer {name}: uniform low > high")
        if v["dist"] == "uniform" and b["dtype"] in ("i8", "u8", "i16", "u16", "i32", "u32"):
            bits = 8 * DTYPE_BYTES[b["dtype"]]
            lo, hi = (0, 2 ** bits - 1) if b["dtype"][0] == "u" else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
            if not (lo <= v["low"] and v["high"] <= hi):
                raise SpecError(f"buffer {name}: uniform range outside {b['dtype']}")
    elif form == "iota":
        pass
    elif form == "file":
        raise SpecError(f"buffer {name}: file inits are not used in kernels/hopper")
    else:
        raise SpecError(f"buffer {name}: unknown init form {form!r}")


def check_tensor_map(name, tm, buffers):
    b = buffers.get(tm.get("buffer"))
    if b is None:
        raise SpecError(f"tensor map {name}: no buffer {tm.get('buffer')!r}")
    eb = TM_DTYPE_BYTES.get(tm.get("dtype", b["dtype"]))
    if eb is None:
        raise SpecError(f"tensor map {name}: dtype {tm.get('dtype')!r}")
    if eb != DTYPE_BYTES[b["dtype"]]:
        raise SpecError(f"tensor map {name}: element size differs from buffer {tm['buffer']}")
    dims, strides, box = tm["global_dims"], tm["global_strides_bytes"], tm["box_dims"]
    if not (len(dims) == 2 and len(strides) == 1 and len(box) == 2):
        raise SpecError(f"tensor map {name}: the hopper kernels use rank-2 maps")
    if any(not 1 <= x <= 256 for x in box) or any(x > d for x, d in zip(box, dims)):
        raise SpecError(f"tensor map {name}: box {box} must be 1..256 and within the dims {dims}")
    if (box[0] * eb) % 16 or strides[0] % 16:
        raise SpecError(f"tensor map {name}: inner box bytes and strides must be multiples of 16")
    span = SWIZZLE_SPAN.get(tm.get("swizzle", "none"), "bad")
    if span == "bad" or (span and box[0] * eb > span):
        raise SpecError(f"tensor map {name}: inner box {box[0] * eb} B exceeds the swizzle span")
    if strides[0] < dims[0] * eb:
        raise SpecError(f"tensor map {name}: rows overlap (stride {strides[0]} < {dims[0] * eb})")
    extent = (dims[1] - 1) * strides[0] + dims[0] * eb
    size = DTYPE_BYTES[b["dtype"]]
    for s in b["shape"]:
        size *= s
    if extent > size:
        raise SpecError(f"tensor map {name}: extends {extent} B past buffer {tm['buffer']} ({size} B)")


def family_rules(spec, path):
    """What the generators promise per kernel family (shapes of the operands)."""
    k, bufs = spec["kernel"], spec["buffers"]
    m = re.match(r"wgmma_(\w+?)_n(\d+)$", k)
    if m:
        n = int(m.group(2))
        if bufs["C"]["shape"] != [64, n] or bufs["D"]["shape"] != [64, n]:
            raise SpecError("wgmma: C and D must be 64 x N")
        if bufs["A"]["shape"][0] != 64 or bufs["B"]["shape"][0] != n or bufs["A"]["shape"][1] != bufs["B"]["shape"][1]:
            raise SpecError("wgmma: A must be 64 x K, B N x K")
        ksteps = spec["args"][7]["u32"]
        eb = DTYPE_BYTES[bufs["A"]["dtype"]]
        if bufs["A"]["shape"][1] * eb != 32 * ksteps:
            raise SpecError(f"wgmma: A rows must hold 32 bytes per K-step ({ksteps} steps)")
        if spec["block"] != [128, 1, 1] or spec["grid"] != [1, 1, 1]:
            raise SpecError("wgmma: one warpgroup")
    m = re.match(r"mma_m(\d+)n8k(\d+)_", k)
    if m:
        mm = int(m.group(1))
        if bufs["D"]["shape"] != [4 * mm, 8] or spec["block"] != [128, 1, 1]:
            raise SpecError("mma: D must be 4M x 8, 4 warps")
    if k.startswith("gemm_") and "_ws" in k:
        mm, nn, kk = (a["u32"] for a in spec["args"][4:7])
        if bufs["A"]["shape"] != [mm, kk] or spec["block"] != [384, 1, 1]:
            raise SpecError("gemm_ws: A must be M x K, 384 threads")
        if mm % 128 or kk % 64 or (spec.get("cluster", [1, 1, 1])[0] == 2 and mm % 256):
            raise SpecError("gemm_ws: M, K must be multiples of the tile")
    if k.startswith("gemm_mma_"):
        mm, nn, kk = (a["u32"] for a in spec["args"][3:6])
        if mm % 64 or nn % 64 or kk % 32 or spec["grid"] != [nn // 64, mm // 64, 1]:
            raise SpecError("gemm_mma: sizes must be multiples of 64 x 64 x 32 and the grid N/64 x M/64")


def check_spec(path):
    spec = json.load(open(path))
    unknown = set(spec) - TOP_KEYS
    if unknown:
        raise SpecError(f"unknown fields {sorted(unknown)}")
    ptx = os.path.normpath(os.path.join(os.path.dirname(path), spec["ptx"]))
    if not os.path.exists(ptx):
        raise SpecError(f"no PTX {spec['ptx']}")
    entries, target = ptx_entries(ptx)
    if spec["kernel"] not in entries:
        raise SpecError(f"no .entry {spec['kernel']} in {spec['ptx']}")
    if spec.get("arch", target) != target:
        raise SpecError(f"arch {spec['arch']} is not the PTX target {target}")
    grid, block, cluster = three(spec, "grid"), three(spec, "block"), three(spec, "cluster", [1, 1, 1])
    if block[0] * block[1] * block[2] > 1024:
        raise SpecError("more than 1024 threads per block")
    if any(g % c for g, c in zip(grid, cluster)) or cluster[0] * cluster[1] * cluster[2] > 8:
        raise SpecError("the grid must be a multiple of a cluster of at most 8 CTAs")
    smem = spec.get("dynamic_smem_bytes", 0)
    if not 0 <= smem <= MAX_DYN_SMEM:
        raise SpecError(f"dynamic_smem_bytes {smem} above {MAX_DYN_SMEM}")
    bufs = spec["buffers"]
    for name, b in bufs.items():
        if b.get("dtype") not in DTYPE_BYTES or not all(isinstance(s, int) and s > 0 for s in b.get("shape", [])):
            raise SpecError(f"buffer {name}: bad dtype or shape")
        check_init(name, b)
    for name, tm in spec.get("tensor_maps", {}).items():
        check_tensor_map(name, tm, bufs)
    params = entries[spec["kernel"]]
    args = spec["args"]
    if len(args) != len(params):
        raise SpecError(f"argument count {len(args)} != {len(params)} .entry parameters")
    for i, (a, size) in enumerate(zip(args, params)):
        if "buffer" in a:
            got = 8
            if a["buffer"] not in bufs:
                raise SpecError(f"args[{i}]: unknown buffer {a['buffer']}")
        elif "tensor_map" in a:
            got = 128
            if a["tensor_map"] not in spec.get("tensor_maps", {}):
                raise SpecError(f"args[{i}]: unknown tensor map {a['tensor_map']}")
        else:
            (kind, v), = a.items()
            got = SCALAR_BYTES[kind]
            if kind[0] == "u" and not 0 <= v < 2 ** (8 * got):
                raise SpecError(f"args[{i}]: {v} does not fit {kind}")
        if got != size:
            raise SpecError(f"args[{i}]: size {got} != parameter size {size}")
    for o in spec["outputs"]:
        if o not in bufs:
            raise SpecError(f"output {o} is not a buffer")
    family_rules(spec, path)


def self_test():
    """Each mutation of a valid spec must be rejected, with the reason named."""
    import copy
    import tempfile
    base = json.load(open(os.path.join(HERE, "specs", "gemm", "gemm_bf16_ws__256x256x256.json")))
    mutations = {
        "argument count": lambda s: s["args"].pop(),
        "size 4 != parameter size 8": lambda s: s["args"].__setitem__(3, {"u32": 1}),
        "no .entry": lambda s: s.__setitem__("kernel", "gemm_bf16_missing"),
        "box": lambda s: s["tensor_maps"]["tmA"].__setitem__("box_dims", [64, 512]),
        "swizzle span": lambda s: s["tensor_maps"]["tmA"].__setitem__("box_dims", [128, 128]),
        "past buffer": lambda s: s["tensor_maps"]["tmA"].__setitem__("global_dims", [256, 1024]),
        "dynamic_smem_bytes": lambda s: s.__setitem__("dynamic_smem_bytes", 300000),
        "1024 threads": lambda s: s.__setitem__("block", [2048, 1, 1]),
        "cluster": lambda s: s.__setitem__("cluster", [2, 1, 1]) or s.__setitem__("grid", [3, 1, 1]),
        "unknown fields": lambda s: s.__setitem__("dynamic_smem", 1),
        "not a buffer": lambda s: s.__setitem__("outputs", ["E"]),
        "multiples of the tile": lambda s: s["args"].__setitem__(4, {"u32": 320}) or
        s["buffers"]["A"].__setitem__("shape", [320, 256]),
    }
    ok = True
    with tempfile.TemporaryDirectory() as d:
        for reason, mutate in mutations.items():
            spec = copy.deepcopy(base)
            spec["ptx"] = os.path.join(HERE, "gemm_bf16.ptx")
            mutate(spec)
            path = os.path.join(d, "bad.json")
            json.dump(spec, open(path, "w"))
            try:
                check_spec(path)
                print(f"self-test FAIL: the '{reason}' mutation was accepted")
                ok = False
            except (SpecError, KeyError, TypeError, ValueError) as e:
                if reason not in str(e):
                    print(f"self-test FAIL: the '{reason}' mutation was rejected for another reason: {e}")
                    ok = False
    print(f"check_specs self-test: {len(mutations)} bad specs, " + ("all rejected" if ok else "FAILED"))
    return ok


def main(argv):
    if argv == ["--self-test"]:
        return 0 if self_test() else 1
    paths = argv or sorted(glob.glob(os.path.join(HERE, "specs", "**", "*.json"), recursive=True))
    bad = 0
    for p in paths:
        try:
            check_spec(p)
        except (SpecError, KeyError, TypeError, ValueError) as e:
            bad += 1
            print(f"FAIL {os.path.relpath(p, HERE)}: {e}")
    print(f"check_specs: {len(paths) - bad} of {len(paths)} specs valid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
