#!/usr/bin/env python3
"""Static check of every launch spec in kernels/basic (and bad/) against LAUNCH_SPEC.md version 1
and against the PTX it names, without running anything:

  * the fields and their forms (grid/block/cluster, dtypes, init forms, outputs, symbols);
  * `kernel` resolves to exactly one .entry (exact name, else a unique substring);
  * the args match the .entry parameters in count and in size, in order;
  * symbols name .const/.global variables of the module, and a file init has the declared size;
  * file inits exist and hold shape-many elements of the buffer's element size;
  * arch is the PTX's .target; blocks have at most 1024 threads; the grid is a multiple of the
    cluster shape.

The bad specs in bad/ must fail, each with the reason listed in EXPECTED_BAD (the runtime-error
specs -- infinite loop, deadlock, out-of-bounds, misaligned, trap, malformed PTX -- are valid
statically and must pass here; bad/README.md says what the simulator must report for them).
Exit 0 when every good spec passes and every bad spec fails as expected. Standard library only.
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from refcore import DTYPES, read_npy  # noqa: E402

# Bad specs whose problem is visible statically: file -> substring of the expected message.
EXPECTED_BAD = {
    "bad/wrong_arg_count.json": "argument count",
    "bad/wrong_arg_size.json": "size",
    "bad/unknown_kernel.json": "no .entry",
    "bad/ambiguous_kernel.json": "ambiguous",
    "bad/unknown_symbol.json": "unknown symbol",
    "bad/unknown_buffer.json": "unknown buffer",
}
SCALAR_SIZES = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4, "u64": 8, "i64": 8,
                "f32": 4, "f64": 8}
PARAM_TYPE_SIZES = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2,
                    "b32": 4, "u32": 4, "s32": 4, "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8}


class SpecError(Exception):
    pass


def ptx_entries(text):
    """.entry name -> list of parameter sizes in bytes."""
    entries = {}
    for m in re.finditer(r"\.entry\s+([\w$]+)\s*\((.*?)\)", text, re.S):
        sizes = []
        # ".param .u64 name", ".param .align 8 .b8 name[24]", and sm_100's
        # ".param .u64 .ptr .align 1 name" (pointer attributes after the type).
        for p in re.finditer(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)((?:\s+\.(?:ptr|global|shared|const|local)"
                             r"|\s+\.align\s+\d+)*)\s+[\w$]+(?:\[(\d+)\])?", m.group(2)):
            sizes.append(PARAM_TYPE_SIZES[p.group(1)] * (int(p.group(3)) if p.group(3) else 1))
        entries[m.group(1)] = sizes
    for m in re.finditer(r"\.entry\s+([\w$]+)\s*$", text, re.M):  # entries without parameters
        entries.setdefault(m.group(1), [])
    return entries


def ptx_symbols(text):
    """module-scope .const/.global variable -> size in bytes."""
    syms = {}
    for m in re.finditer(r"^\.(?:visible\s+)?\.?(const|global)\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+([\w$]+)(?:\[(\d+)\])?",
                         text, re.M):
        syms[m.group(3)] = PARAM_TYPE_SIZES.get(m.group(2), 0) * (int(m.group(4)) if m.group(4) else 1)
    return syms


def three(spec, key, default=None):
    v = spec.get(key, default)
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and x > 0 for x in v)):
        raise SpecError(f"'{key}' must be three positive integers, got {v!r}")
    return v


def check_init(spec_dir, name, init, elem_size, count, what):
    if not isinstance(init, dict) or len(init) != 1:
        raise SpecError(f"{what} {name}: init must have exactly one of fill/file/random/iota")
    kind, val = next(iter(init.items()))
    if kind == "fill":
        if not isinstance(val, (int, float)) and not (isinstance(val, str) and val.startswith("0x")):
            raise SpecError(f"{what} {name}: fill must be a number or a \"0x...\" string")
    elif kind == "iota":
        if not isinstance(val, dict) or set(val) - {"start", "step"}:
            raise SpecError(f"{what} {name}: iota takes start and step")
    elif kind == "random":
        if not isinstance(val, dict) or not isinstance(val.get("seed"), int):
            raise SpecError(f"{what} {name}: random needs an integer seed")
        dist = val.get("dist")
        if dist not in ("uniform", "normal", "bits"):
            raise SpecError(f"{what} {name}: random dist must be uniform, normal or bits")
        if dist == "uniform" and not (val.get("low", 0) < val.get("high", 1)):
            raise SpecError(f"{what} {name}: uniform needs low < high")
    elif kind == "file":
        path = os.path.join(spec_dir, val)
        if not os.path.exists(path):
            raise SpecError(f"{what} {name}: file {val} does not exist")
        descr, shape, vals = read_npy(path)
        size = int(descr[2:])
        if size * len(vals) != elem_size * count:
            raise SpecError(f"{what} {name}: file {val} holds {size * len(vals)} bytes, "
                            f"{elem_size * count} needed")
    else:
        raise SpecError(f"{what} {name}: unknown init form '{kind}'")


def check_spec(path):
    with open(path) as f:
        spec = json.load(f)
    spec_dir = os.path.dirname(path)
    for key in ("ptx", "kernel", "grid", "block", "buffers", "args", "outputs"):
        if key not in spec:
            raise SpecError(f"missing field '{key}'")
    ptx_path = os.path.join(spec_dir, spec["ptx"])
    if not os.path.exists(ptx_path):
        raise SpecError(f"ptx file {spec['ptx']} does not exist")
    text = open(ptx_path).read()
    target = re.search(r"^\.target\s+(\w+)", text, re.M).group(1)
    if spec.get("arch", target) != target:
        raise SpecError(f"arch {spec['arch']} differs from the PTX .target {target}")

    entries = ptx_entries(text)
    name = spec["kernel"]
    if name in entries:
        entry = name
    else:
        cands = [e for e in entries if name in e]
        if not cands:
            raise SpecError(f"no .entry matches kernel '{name}' (entries: {', '.join(sorted(entries))})")
        if len(cands) > 1:
            raise SpecError(f"kernel '{name}' is ambiguous: {', '.join(sorted(cands))}")
        entry = cands[0]

    grid, block = three(spec, "grid"), three(spec, "block")
    cluster = three(spec, "cluster", [1, 1, 1])
    if block[0] * block[1] * block[2] > 1024:
        raise SpecError(f"block {block} has more than 1024 threads")
    if any(g % c for g, c in zip(grid, cluster)):
        raise SpecError(f"grid {grid} is not a multiple of cluster {cluster}")

    buffers = spec["buffers"]
    for bname, b in buffers.items():
        if b.get("dtype") not in DTYPES:
            raise SpecError(f"buffer {bname}: unknown dtype {b.get('dtype')!r}")
        shape = b.get("shape")
        if not (isinstance(shape, list) and shape and all(isinstance(d, int) and d > 0 for d in shape)):
            raise SpecError(f"buffer {bname}: shape must be a list of positive integers")
        count = 1
        for d in shape:
            count *= d
        check_init(spec_dir, bname, b.get("init"), DTYPES[b["dtype"]][0], count, "buffer")

    params = entries[entry]
    args = spec["args"]
    if len(args) != len(params):
        raise SpecError(f"argument count: .entry {entry} has {len(params)} parameters, "
                        f"the spec gives {len(args)}")
    for k, (a, psize) in enumerate(zip(args, params)):
        if "buffer" in a:
            if a["buffer"] not in buffers:
                raise SpecError(f"argument {k}: unknown buffer '{a['buffer']}'")
            size = 8
        elif "tensor_map" in a:
            if a["tensor_map"] not in spec.get("tensor_maps", {}):
                raise SpecError(f"argument {k}: unknown tensor map '{a['tensor_map']}'")
            size = 128
        else:
            (kind, _), = a.items()
            if kind not in SCALAR_SIZES:
                raise SpecError(f"argument {k}: unknown argument kind '{kind}'")
            size = SCALAR_SIZES[kind]
        if size != psize:
            raise SpecError(f"argument {k} ({entry}_param_{k}): size {size} bytes, "
                            f"the parameter has {psize}")

    for out in spec["outputs"]:
        if out not in buffers:
            raise SpecError(f"output '{out}' is not a buffer")
    syms = ptx_symbols(text)
    for sname, s in spec.get("symbols", {}).items():
        if sname not in syms:
            raise SpecError(f"unknown symbol '{sname}' (module variables: {', '.join(sorted(syms))})")
        init = s.get("init", {})
        # The runners know a symbol's size only, not its PTX type: the values are read as `dtype`
        # (docs/launch_spec.md, default u8), which must divide the size and hold the fill.
        dtype = s.get("dtype", "u8")
        if dtype not in DTYPES:
            raise SpecError(f"symbol {sname}: unknown dtype '{dtype}'")
        esize = DTYPES[dtype][0]
        if syms[sname] % esize:
            raise SpecError(f"symbol {sname}: {syms[sname]} bytes is not a whole number of {dtype}")
        fill = init.get("fill")
        if isinstance(fill, float) and not fill.is_integer() and dtype[0] in "ui":
            raise SpecError(f"symbol {sname}: fill {fill} is not an integer ({dtype} holds integers; "
                            f"set the symbol's \"dtype\")")
        if "file" in init:
            check_init(spec_dir, sname, init, 1, syms[sname], "symbol")
        else:
            check_init(spec_dir, sname, init, esize, syms[sname] // esize, "symbol")
    if not isinstance(spec.get("dynamic_smem_bytes", 0), int):
        raise SpecError("dynamic_smem_bytes must be an integer")
    return entry


def main():
    specs = sorted(glob.glob(os.path.join(HERE, "*.json"))) + sorted(glob.glob(os.path.join(HERE, "bad", "*.json")))
    failures = 0
    for path in specs:
        rel = os.path.relpath(path, HERE)
        try:
            entry = check_spec(path)
            err = None
        except (SpecError, KeyError, ValueError) as e:
            entry, err = None, str(e)
        expected = EXPECTED_BAD.get(rel)
        if expected is None and err is None:
            print(f"ok    {rel} -> {entry}")
        elif expected is None:
            print(f"FAIL  {rel}: {err}")
            failures += 1
        elif err is not None and expected in err:
            print(f"ok    {rel} rejected as expected: {err}")
        else:
            print(f"FAIL  {rel}: expected an error containing '{expected}', got {err or 'no error'}")
            failures += 1
    missing = [k for k in EXPECTED_BAD if not os.path.exists(os.path.join(HERE, k))]
    for k in missing:
        print(f"FAIL  {k}: listed in EXPECTED_BAD but missing")
    failures += len(missing)
    print(f"check_specs: {len(specs)} specs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
