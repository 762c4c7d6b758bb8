#!/usr/bin/env python3
"""Writes every launch spec of the asynchronous-machine corpus (kernels/tma, kernels/cluster).

The specs are committed; this script is their single source, so the many variants (swizzle modes x
element sizes, the footprint facts, the tensor-map edge cases) stay consistent with each other and
with the kernels' parameter lists. `check_specs.py` regenerates them into a temporary folder and
fails when the committed files differ (run this script after changing it).

Usage: gen_specs.py [KERNELS_DIR]     (default: the kernels/ folder this script lives under)

Launch-spec format: shared/LAUNCH_SPEC.md (version 1) and docs/launch_spec.md (extensions used
here: "_"-prefixed keys are comments; tensor_maps.NAME.offset_bytes).
"""
import json
import os
import sys

# ----------------------------------------------------------------------------------------------
# Spec building blocks

ESIZE = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "f16": 2, "bf16": 2, "u32": 4, "i32": 4, "f32": 4,
         "u64": 8, "i64": 8, "f64": 8}


def buf(dtype, shape, init):
    return {"dtype": dtype, "shape": shape, "init": init}


def bits(seed):
    return {"random": {"seed": seed, "dist": "bits"}}


def uniform(seed, lo, hi):
    return {"random": {"seed": seed, "dist": "uniform", "low": lo, "high": hi}}


def iota(start=0, step=1):
    return {"iota": {"start": start, "step": step}}


def fill(v):
    return {"fill": v}


def tmap(buffer, dtype, dims, box, strides=None, estr=None, interleave="none", swizzle="none",
         oob="none", offset=None, l2="none"):
    t = {"buffer": buffer, "dtype": dtype, "global_dims": dims}
    if len(dims) > 1 or strides is not None:
        t["global_strides_bytes"] = strides if strides is not None else []
    t["box_dims"] = box
    t["element_strides"] = estr if estr is not None else [1] * len(dims)
    t["interleave"] = interleave
    t["swizzle"] = swizzle
    t["l2_promotion"] = l2
    t["oob_fill"] = oob
    if offset is not None:
        t["offset_bytes"] = offset
    return t


def TM(name):
    return {"tensor_map": name}


def B(name):
    return {"buffer": name}


def u32(v):
    return {"u32": v}


def i32(v):
    return {"i32": v}


def spec(ptx, kernel, grid, block, buffers, args, outputs, tensor_maps=None, cluster=None, dyn=0,
         comment=None, extra=None, arch="sm_90a"):
    s = {}
    if comment:
        s["_comment"] = comment
    s["ptx"] = ptx
    s["kernel"] = kernel
    s["arch"] = arch
    s["grid"] = grid
    s["block"] = block
    if cluster:
        s["cluster"] = cluster
    if dyn:
        s["dynamic_smem_bytes"] = dyn
    s["buffers"] = buffers
    if tensor_maps:
        s["tensor_maps"] = tensor_maps
    s["args"] = args
    s["outputs"] = outputs
    if extra:
        s.update(extra)
    return s


def dump(s):
    """One key per line at the top level, one buffer / tensor map per line: diff-friendly."""
    lines = ["{"]
    items = list(s.items())
    for i, (k, v) in enumerate(items):
        end = "," if i + 1 < len(items) else ""
        if isinstance(v, dict) and k in ("buffers", "tensor_maps", "_expect"):
            lines.append(f"  {json.dumps(k)}: {{")
            sub = list(v.items())
            width = max(len(json.dumps(n)) for n, _ in sub)
            for j, (n, e) in enumerate(sub):
                e_end = "," if j + 1 < len(sub) else ""
                lines.append(f"    {json.dumps(n) + ':':<{width + 1}} {json.dumps(e)}{e_end}")
            lines.append("  }" + end)
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v)}{end}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def ceil_div(a, b):
    return -(-a // b)


def round_up(a, b):
    return ceil_div(a, b) * b


SPAN = {"none": 0, "32B": 32, "64B": 64, "128B": 128, "128B_atom_32B": 128,
        "128B_atom_32B_flip_8B": 128, "128B_atom_64B": 128}
# The H200's driver rejects these swizzles (CUDA_ERROR_INVALID_VALUE; facts e52-e54, measured on
# H200, driver 580.159.04, 2026-11-30): specs using them run the sm_100a PTX on arch sm_100a only.
SM100_ONLY_SWIZZLES = {"128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B"}


def box_footprint(dtype, box, estr, swizzle):
    """Shared-memory bytes of a TMA box (README.md "Facts settled on the H200"): rows x pitch, the
    pitch being the row's bytes or, when they are fewer, the swizzle span."""
    E = [box[0]] + [ceil_div(b, s) for b, s in zip(box[1:], estr[1:])]
    rows = 1
    for e in E[1:]:
        rows *= e
    row_bytes = E[0] * ESIZE[dtype]
    return rows * max(row_bytes, SPAN[swizzle])


def check_dim0_start(dtype, c0, what):
    """The H200 raises CUDA_ERROR_ILLEGAL_INSTRUCTION when a TMA box's first dimension-0 byte is not
    16-byte aligned (README.md "Facts settled on the H200"): golden specs keep it aligned."""
    if (c0 * ESIZE[dtype]) % 16:
        raise ValueError(f"{what}: dimension-0 coordinate {c0} ({c0 * ESIZE[dtype]} bytes) is not 16-byte aligned")

# ----------------------------------------------------------------------------------------------
# kernels/tma


def tma_specs():
    out = {}
    P = "tma_load_rank.sm_90a.ptx"

    def load(name, kernel, dtype, shape, init, tm, grid, origin, step, cmt):
        E = [ceil_div(b, s) for b, s in zip(tm["box_dims"], tm["element_strides"])]
        E[0] = tm["box_dims"][0]
        box_bytes = ESIZE[dtype]
        for e in E:
            box_bytes *= e
        ncta = grid[0] * grid[1] * grid[2]
        o = (origin + [0] * 5)[:5]
        st = (step + [0] * 3)[:3]
        for bx in range(grid[0]):
            check_dim0_start(dtype, o[0] + bx * st[0], name)
        # The kernel dumps the box densely from the window: its rows must fill the swizzle span.
        if box_footprint(dtype, tm["box_dims"], tm["element_strides"], tm["swizzle"]) != box_bytes:
            raise ValueError(f"{name}: box rows narrower than the {tm['swizzle']} span are padded in shared memory")
        out[name] = spec(P, kernel, grid, [128, 1, 1],
                         {"a": buf(dtype, shape, init), "out": buf(dtype, [ncta, box_bytes // ESIZE[dtype]], fill(0))},
                         [TM("tm")] + [i32(v) for v in o] + [i32(v) for v in st] + [B("out"), u32(box_bytes)],
                         ["out"], {"tm": tm}, dyn=1024 + box_bytes, comment=cmt)

    load("tma_load_1d.json", "tma_load_1d", "u8", [1000], bits(11),
         tmap("a", "u8", [1000], [128]), [9, 1, 1], [-64], [128],
         "1-D u8 boxes of 128 from -64 in steps of 128: OOB zero fill at both ends")
    load("tma_load_2d.json", "tma_load_2d", "bf16", [40, 128], bits(12),
         tmap("a", "bf16", [100, 40], [64, 16], strides=[256], swizzle="128B", oob="nan"),
         [2, 3, 1], [-8, -4], [64, 16],
         "2-D bf16 64x16 boxes (128 B rows, SWIZZLE_128B) around a 100x40 tensor: OOB NaN fill on every side")
    load("tma_load_2d_u64.json", "tma_load_2d", "u64", [9, 24], bits(16),
         tmap("a", "u64", [20, 9], [16, 8], strides=[192], swizzle="128B"),
         [2, 2, 1], [-4, -3], [16, 8],
         "2-D u64 16x8 boxes (128 B rows, SWIZZLE_128B) around a 20x9 tensor: OOB zero fill")
    load("tma_load_3d.json", "tma_load_3d", "f32", [6, 10, 24], bits(13),
         tmap("a", "f32", [24, 10, 6], [8, 4, 3], strides=[96, 960], estr=[1, 2, 3], oob="nan"),
         [3, 3, 2], [0, 0, 0], [8, 4, 3],
         "3-D f32 boxes 8x4x3 with element strides 1,2,3 (8x2x1 elements loaded): row 10 is OOB (NaN)")
    load("tma_load_4d.json", "tma_load_4d", "u16", [3, 4, 5, 16], iota(0, 1),
         tmap("a", "u16", [16, 5, 4, 3], [16, 4, 2, 3], strides=[32, 160, 640], swizzle="32B"),
         [1, 2, 2], [0, 0, 0, 0], [0, 4, 2],
         "4-D u16 boxes 16x4x2x3 (32 B rows, SWIZZLE_32B): rows 5..7 of the second y-tile are OOB (zero)")
    load("tma_load_5d.json", "tma_load_5d", "f64", [3, 2, 2, 3, 4], bits(15),
         tmap("a", "f64", [4, 3, 2, 2, 3], [8, 3, 2, 2, 2], strides=[32, 96, 192, 384], swizzle="64B", oob="nan"),
         [2, 1, 1], [-2, 0, 0, 0, 2], [2],
         "5-D f64 boxes 8x3x2x2x2 (64 B rows = the SWIZZLE_64B span) over a 4-wide tensor: columns -2,-1 and "
         "4..5 (CTA 0), 4..7 (CTA 1) and dim-4 index 3 are OOB (NaN)")

    # Stores: load -> bytewise XOR 0x5A -> store, tiles clipped at the far edges.
    P = "tma_store.sm_90a.ptx"

    def store(name, rank, dtype, shape, dims, strides, box, swz, grid, seed, fill_bits, cmt):
        n = [ceil_div(d, b) for d, b in zip(dims, box)]
        tile_bytes = ESIZE[dtype]
        for b in box:
            tile_bytes *= b
        n5 = (n + [1] * 5)[:5]
        b5 = (box + [1] * 5)[:5]
        out[name] = spec(P, f"tma_store_{rank}d", [grid, 1, 1], [128, 1, 1],
                         {"src": buf(dtype, shape, bits(seed)), "dst": buf(dtype, shape, fill(fill_bits))},
                         [TM("tm_src"), TM("tm_dst"), u32(tile_bytes)] + [u32(v) for v in n5] + [u32(v) for v in b5],
                         ["dst"],
                         {"tm_src": tmap("src", dtype, dims, box, strides=strides, swizzle=swz),
                          "tm_dst": tmap("dst", dtype, dims, box, strides=strides, swizzle=swz)},
                         dyn=1024 + 2 * round_up(tile_bytes, 1024), comment=cmt)

    store("tma_store_1d.json", 1, "u8", [1024], [1000], None, [256], "none", 2, 21, "0xff",
          "1-D u8 tensor of 1000 in a 1024-byte buffer, 4 tiles of 256, the last clipped to 1000 (TMA stores "
          "write whole 16-byte chunks: bytes 1000..1007 too)")
    store("tma_store_2d_sw128.json", 2, "u32", [20, 96], [72, 20], [384], [32, 8], "128B", 2, 22, "0xffffffff",
          "2-D u32 72x20 (row pitch 96), 32x8 tiles, SWIZZLE_128B: 3x3 tiles, right and bottom ones clipped")
    store("tma_store_2d_sw32.json", 2, "u16", [12, 64], [40, 12], [128], [16, 4], "32B", 2, 23, "0xffff",
          "2-D u16 40x12 (row pitch 64), 16x4 tiles, SWIZZLE_32B")
    store("tma_store_2d_sw64.json", 2, "bf16", [9, 80], [70, 9], [160], [32, 4], "64B", 2, 24, "0xffff",
          "2-D bf16 70x9 (row pitch 80), 32x4 tiles, SWIZZLE_64B")
    store("tma_store_3d.json", 3, "f32", [5, 6, 24], [20, 6, 5], [96, 576], [8, 4, 2], "none", 3, 25, "0xffffffff",
          "3-D f32 20x6x5 (row pitch 24), 8x4x2 tiles: 3x2x3 tiles")
    store("tma_store_4d.json", 4, "u16", [2, 5, 3, 16], [16, 3, 5, 2], [32, 96, 480], [16, 2, 2, 2], "none", 2, 26,
          "0xffff", "4-D u16 16x3x5x2, 16x2x2x2 tiles")
    store("tma_store_5d.json", 5, "u64", [2, 3, 2, 3, 2], [2, 3, 2, 3, 2], [16, 48, 96, 288], [2, 2, 2, 2, 2],
          "none", 2, 27, "0xffffffffffffffff", "5-D u64 2x3x2x3x2, 2x2x2x2x2 tiles")

    # Multicast into 2- and 4-CTA clusters.
    def multicast(name, grid, cluster, n, nclusters, cmt):
        tile_rows, chunk = 16, 256
        tile_bytes = tile_rows * 128
        ncta = nclusters * n
        out[name] = spec("tma_multicast.sm_90a.ptx", "tma_multicast", grid, [128, 1, 1],
                         {"a": buf("u32", [nclusters * tile_rows, 32], bits(31)),
                          "vec": buf("u8", [nclusters * n * chunk], bits(32)),
                          "tiles": buf("u32", [ncta, tile_bytes // 4], fill(0)),
                          "vecs": buf("u8", [ncta, n * chunk], fill(0))},
                         [TM("tm_a"), u32(tile_rows), u32(tile_bytes), B("vec"), u32(chunk), B("tiles"), B("vecs")],
                         ["tiles", "vecs"],
                         {"tm_a": tmap("a", "u32", [32, nclusters * tile_rows], [32, tile_rows // n], strides=[128],
                                       swizzle="128B")},
                         cluster=cluster, dyn=1024 + round_up(tile_bytes, 1024) + n * chunk, comment=cmt)

    multicast("tma_multicast_2cta.json", [4, 1, 1], [2, 1, 1], 2, 2, "2 clusters of 2 CTAs, 2 slices of 8 rows")
    multicast("tma_multicast_4cta.json", [8, 1, 1], [4, 1, 1], 4, 2, "2 clusters of 4 CTAs, 4 slices of 4 rows")
    multicast("tma_multicast_2x2.json", [2, 4, 1], [2, 2, 1], 4, 2, "2 clusters of 2x2 CTAs (2-D cluster ranks)")

    out["tma_pipeline.json"] = spec(
        "tma_pipeline.sm_90a.ptx", "tma_pipeline", [2, 1, 1], [160, 1, 1],
        {"a": buf("u32", [768, 32], bits(41)), "copy": buf("u32", [768, 32], fill(0)),
         "sums": buf("u32", [2, 128], fill(0))},
        [TM("tm_a"), u32(12), B("copy"), B("sums")], ["copy", "sums"],
        {"tm_a": tmap("a", "u32", [32, 768], [32, 32], strides=[128], swizzle="128B")},
        dyn=1024 + 4 * 4096, comment="2 CTAs x 12 tiles of 32x32 u32 through a 4-stage ring (1 producer + 4 consumer warps)")

    def t2(buffer, dtype, cols, rows):
        return tmap(buffer, dtype, [cols, rows], [cols, rows], strides=[cols * ESIZE[dtype]])

    red_int = {"add_u32": ("u32", 16, bits(51)), "min_i32": ("i32", 16, bits(52)), "max_i32": ("i32", 16, bits(53)),
               "and_u32": ("u32", 16, bits(54)), "or_u32": ("u32", 16, bits(55)), "xor_u32": ("u32", 16, bits(56)),
               "inc_u32": ("u32", 16, uniform(57, 0, 20)), "dec_u32": ("u32", 16, uniform(58, 0, 20)),
               "add_u64": ("u64", 8, bits(59)), "min_i64": ("i64", 8, bits(60))}
    bufs = {k: buf(t, [8, c], init) for k, (t, c, init) in red_int.items()}
    bufs.update({"src32": buf("u32", [4, 128], bits(61)), "common32": buf("u32", [128], uniform(62, 0, 20)),
                 "src64": buf("u64", [4, 64], bits(63))})
    out["tma_reduce_int.json"] = spec(
        "tma_reduce.sm_90a.ptx", "tma_reduce_int", [4, 1, 1], [128, 1, 1], bufs,
        [TM("tm_" + k) for k in red_int] + [B("src32"), B("common32"), B("src64")], list(red_int),
        {"tm_" + k: t2(k, t, c, 8) for k, (t, c, _) in red_int.items()},
        comment="4 CTAs reduce-store into the same 16x8 (8x8 for 64-bit) tiles with every operator")
    red_f = {"add_f32": ("f32", 16, iota(-64, 1)), "add_f16": ("f16", 32, iota(-100, 1)),
             "add_bf16": ("bf16", 32, iota(-120, 1)), "min_f16": ("f16", 32, iota(-128, 1)),
             "max_bf16": ("bf16", 32, iota(-128, 1))}
    bufs = {k: buf(t, [8, c], init) for k, (t, c, init) in red_f.items()}
    bufs["src"] = buf("i32", [4, 256], uniform(71, -30, 30))
    out["tma_reduce_float.json"] = spec(
        "tma_reduce.sm_90a.ptx", "tma_reduce_float", [4, 1, 1], [128, 1, 1], bufs,
        [TM("tm_" + k) for k in red_f] + [B("src")], list(red_f),
        {"tm_" + k: t2(k, t, c, 8) for k, (t, c, _) in red_f.items()},
        comment="4 CTAs reduce-store small integers (exact sums) into f32/f16/bf16 tiles: add, min, max")

    out["bulk_copy.json"] = spec(
        "bulk_copy.sm_90a.ptx", "bulk_copy", [3, 1, 1], [128, 1, 1],
        {"src": buf("u32", [3, 512], bits(81)), "dst": buf("u32", [3, 512], fill(0)),
         "dst2": buf("u32", [3, 256], fill(0))},
        [B("src"), B("dst"), B("dst2"), u32(512)], ["dst", "dst2"], dyn=128 + 4 * 512,
        comment="3 CTAs x 4 chunks of 512 bytes, four ways in, bulk-group stores out")

    red_b = [("add_u32", "u32", bits(91)), ("min_u32", "u32", bits(92)), ("max_s32", "i32", bits(93)),
             ("and_b32", "u32", bits(94)), ("or_b32", "u32", bits(95)), ("xor_b32", "u32", bits(96)),
             ("inc_u32", "u32", uniform(97, 0, 20)), ("dec_u32", "u32", uniform(98, 0, 20)),
             ("add_u64", "u64", bits(99)), ("min_s64", "i64", bits(100)), ("add_s64", "i64", bits(101)),
             ("add_f32", "f32", iota(-32, 1)), ("add_f64", "f64", iota(-32, 0.5)), ("add_f16", "f16", iota(-32, 1)),
             ("add_bf16", "bf16", iota(-32, 1)), ("min_f16", "f16", iota(-40, 1)), ("max_bf16", "bf16", iota(-40, 1))]
    bufs = {"src32": buf("u32", [4, 64], bits(102)), "common": buf("u32", [64], uniform(103, 0, 20)),
            "src64": buf("u64", [4, 64], bits(104)), "srci": buf("i32", [4, 64], uniform(105, -30, 30))}
    bufs.update({k: buf(t, [64], init) for k, t, init in red_b})
    out["bulk_reduce.json"] = spec(
        "bulk_reduce.sm_90a.ptx", "bulk_reduce", [4, 1, 1], [64, 1, 1], bufs,
        [B("src32"), B("common"), B("src64"), B("srci")] + [B(k) for k, _, _ in red_b], [k for k, _, _ in red_b],
        comment="4 CTAs cp.reduce.async.bulk into 17 accumulators of 64 elements")

    out["mbarrier_ops.json"] = spec(
        "mbarrier_ops.sm_90a.ptx", "mbarrier_ops", [1, 1, 1], [128, 1, 1],
        {"seq": buf("u32", [20], fill(0)), "sum_b": buf("u32", [4, 4], fill("0xffffffff")),
         "nb_c": buf("u32", [2, 128], fill(0))},
        [B("seq"), B("sum_b"), B("nb_c")], ["seq", "sum_b", "nb_c"],
        comment="mbarrier rules observed: seq (one thread), sum_b (arrive_drop), nb_c (state tokens)")

    out["tensormap_replace.json"] = spec(
        "tensormap_replace.sm_90a.ptx", "tensormap_replace", [3, 1, 1], [128, 1, 1],
        {"a": buf("u32", [32, 32], bits(111)), "b": buf("u32", [8, 32], bits(112)),
         "scratch": buf("u8", [3, 128], fill(0)), "out": buf("u32", [3, 16, 32], fill(0))},
        [TM("tm"), B("b"), B("scratch"), B("out")], ["out"],
        {"tm": tmap("a", "u32", [32, 32], [32, 16], strides=[128])},
        comment="CTA 0: the map as given; CTA 1: edited in shared memory; CTA 2: edited in global memory")

    out["cuda_barrier_tma.json"] = spec(
        "cuda_barrier_tma.sm_90a.ptx", "cuda_barrier_tma", [2, 1, 1], [128, 1, 1],
        {"src": buf("u16", [48, 64], bits(121)), "dst": buf("u16", [48, 64], fill(0))},
        [TM("tm_src"), TM("tm_dst")], ["dst"],
        {"tm_src": tmap("src", "u16", [64, 48], [32, 16], strides=[128]),
         "tm_dst": tmap("dst", "u16", [64, 48], [32, 16], strides=[128])},
        comment="libcu++ cuda::barrier + experimental TMA API, double-buffered: dst = 2*src + 1 (mod 2^16)")
    return out


# ----------------------------------------------------------------------------------------------
# kernels/tma/swizzle: one shared-memory image per swizzle mode and element size


def image_spec(ptx, dtype, dims, strides, box, swz, coords, dst_offset, image_bytes, init, cmt, oob="none",
               interleave="none", with_info=False, dyn=None, rank=2, unaligned_ok=False):
    box_bytes = ESIZE[dtype]
    for b in box:
        box_bytes *= b
    if not unaligned_ok:
        check_dim0_start(dtype, coords[0], cmt)
    arch = "sm_90a"
    if swz in SM100_ONLY_SWIZZLES:
        arch, ptx = "sm_100a", ptx.replace(".sm_90a.ptx", ".sm_100a.ptx")
    shape = list(reversed(dims))
    if strides:  # the buffer spans the outermost stride
        shape = [dims[-1], strides[-1] // ESIZE[dtype]]
    kernel = f"tma_smem_image_{rank}d"
    bufs = {"a": buf(dtype, shape, init), "out": buf("u8", [image_bytes], fill(0)),
            "info": buf("u32", [4], fill(0))}
    args = [TM("tm")] + [i32(c) for c in coords] + [u32(dst_offset), u32(box_bytes), u32(image_bytes), B("out"),
                                                     B("info")]
    if dyn is None and interleave == "none" and dst_offset + box_footprint(dtype, box, [1] * len(box), swz) > image_bytes:
        raise ValueError(f"{cmt}: the box's shared-memory footprint leaves the {image_bytes}-byte window")
    return spec(ptx, kernel, [1, 1, 1], [128, 1, 1], bufs, args, ["out", "info"] if with_info else ["out"],
                {"tm": tmap("a", dtype, dims, box, strides=strides, swizzle=swz, oob=oob, interleave=interleave)},
                dyn=dyn if dyn is not None else 1024 + image_bytes, comment=cmt, arch=arch)


def swizzle_specs():
    out = {}
    P = "../tma_smem_image.sm_90a.ptx"
    inits = {"u8": bits(201), "u16": iota(0, 1), "u32": iota(0x01000000, 1), "u64": iota(0x0100000000000000, 1)}
    for mode in ["none", "32B", "64B", "128B", "128B_atom_32B", "128B_atom_32B_flip_8B", "128B_atom_64B"]:
        span = SPAN[mode] or 64
        for dt in ["u8", "u16", "u32", "u64"]:
            inner = span // ESIZE[dt]
            rows = 16
            dims = [2 * inner, 24]
            strides = [2 * span]
            box_bytes = rows * span
            note = ("" if mode not in SM100_ONLY_SWIZZLES else
                    " (a CUDA 12.8 swizzle mode for sm_100: sm_100a only, the H200's driver rejects it)")
            out[f"sw_{mode}_{dt}.json"] = image_spec(
                P, dt, dims, strides, [inner, rows], mode, [inner // 2, 3], 0, box_bytes, inits[dt],
                f"{mode} swizzle, {dt}, box {inner}x{rows} ({span} B rows) at ({inner // 2}, 3) into a 1024-aligned "
                f"destination{note}")
    for mode, offs in [("32B", [128, 256]), ("64B", [128, 256]), ("128B", [128, 256, 512])]:
        span = SPAN[mode]
        inner = span // 4
        for off in offs:
            out[f"sw_{mode}_u32_off{off}.json"] = image_spec(
                P, "u32", [2 * inner, 24], [2 * span], [inner, 16], mode, [inner // 2, 3], off,
                off + 16 * span, inits["u32"],
                f"{mode} swizzle, u32, destination 1024-aligned + {off}: the XOR follows the absolute address")
    out["sw_none_u32_w48.json"] = image_spec(
        P, "u32", [24, 24], [96], [12, 16], "none", [4, 3], 0, 16 * 48, inits["u32"],
        "no swizzle, 48-byte rows (12 x u32) from column 4 (16 bytes into the row): packed densely")
    return out


# ----------------------------------------------------------------------------------------------
# kernels/tma/facts: the shared-memory footprint of a box narrower than its swizzle span, and the
# driver's accept/reject of tensor-map edge cases


def footprint_specs():
    out = {}
    P = "../tma_smem_image.sm_90a.ptx"
    init = iota(0x10000, 1)  # nonzero, never the 0xA5A5A5A5 sentinel

    def fp(W, S, R, coords, avail, off=0, cmt=""):
        tag = f"fp_w{W}_{'sw' + S if S != 'none' else 'nosw'}_r{R}_c{coords[0]}_{coords[1]}_avail{avail}"
        if off:
            tag += f"_off{off}"
        out[tag.replace("-", "m") + ".json"] = image_spec(
            P, "u32", [64, 32], [256], [W // 4, R], S, coords, off, avail, init,
            (cmt + "; " if cmt else "") + f"box {W // 4}x{R} u32 ({W} B rows), swizzle {S}, coords {tuple(coords)}, "
            f"{avail} bytes from the 1024-aligned window to the end of shared memory, destination at +{off}",
            with_info=True, dyn=1024 + avail)

    # The observation to reproduce, and its in-bounds twin.
    fp(64, "128B", 8, [-4, -2], 512, cmt="THE ORIGINAL OBSERVATION (faulted on the H200)")
    fp(64, "128B", 8, [0, 0], 512, cmt="same, in bounds")
    fp(64, "64B", 8, [-4, -2], 512, cmt="same box, 64B swizzle (did not fault)")
    fp(64, "none", 8, [-4, -2], 512, cmt="same box, no swizzle (did not fault)")
    # Room for a 128-byte pitch: the image shows where each row went.
    fp(64, "128B", 8, [-4, -2], 1024)
    fp(64, "128B", 8, [0, 0], 1024)
    # Bracket the end of the footprint (rows 4..7 land in the upper halves of their lines if rows
    # are padded to 128 B and the XOR acts within the line).
    for avail in [640, 768, 896, 960, 1008]:
        fp(64, "128B", 8, [-4, -2], avail)
    # 4 rows: actual bytes end at 448 (padded, XOR), the padded footprint at 512, dense at 256.
    for avail in [256, 448, 512]:
        fp(64, "128B", 4, [0, 0], avail)
    # 5 rows.
    for avail in [320, 640, 1024]:
        fp(64, "128B", 5, [0, 0], avail)
    # Other widths and swizzles, roomy images (2048 bytes).
    for W, S in [(16, "32B"), (32, "32B"), (16, "64B"), (32, "64B"), (16, "128B"), (32, "128B"), (128, "128B"),
                 (16, "none"), (32, "none"), (128, "none")]:
        fp(W, S, 8, [-4, -2], 2048)
    # Tight (dense bytes) and padded (span per row) sizes for the narrow-in-span cases.
    for W, S in [(16, "32B"), (32, "64B"), (16, "128B"), (32, "128B")]:
        fp(W, S, 8, [-4, -2], 8 * W)
        fp(W, S, 8, [-4, -2], 8 * SPAN[S])
    # Destinations off the 1024-byte repeat.
    for off in [128, 512]:
        fp(64, "128B", 8, [0, 0], 2048, off=off)

    # The dimension-0 start of a box 16-byte aligned or not (swizzle/sw_none_u32_w48 at column 5 =
    # 20 bytes raised CUDA_ERROR_ILLEGAL_INSTRUCTION on the H200): the same 64-byte rows as the
    # footprint runs, from 20 bytes into the row and from 4 bytes before it (partly OOB).
    for c0, tag in [(5, "20B"), (-1, "m4B")]:
        out[f"fa_c0_{tag}_w64_nosw.json"] = image_spec(
            P, "u32", [64, 32], [256], [16, 8], "none", [c0, 2], 0, 2048, init,
            f"box 16x8 u32 (64 B rows), no swizzle, dimension-0 coordinate {c0} ({4 * c0} bytes: not 16-byte "
            "aligned); the prediction is a fault (CUDA_ERROR_ILLEGAL_INSTRUCTION)", with_info=True, dyn=1024 + 2048,
            unaligned_ok=True)

    # Interleaved layouts (rank 3), outcome unknown: images to record.
    P3 = P
    out["il16_u16.json"] = image_spec(
        P3, "u16", [8, 12, 4], [16, 192], [8, 6, 2], "none", [0, 3, 1], 0, 1024, iota(0x100, 1),
        "INTERLEAVE_16B (NC/8HWC8: dim 0 = 8 channels = 16 B), box 8x6x2, no swizzle", interleave="16B",
        with_info=True, rank=3)
    out["il32_u16_sw32.json"] = image_spec(
        P3, "u16", [16, 12, 4], [32, 384], [16, 6, 2], "32B", [0, 3, 1], 0, 1024, iota(0x100, 1),
        "INTERLEAVE_32B (NC/16HWC16), box 16x6x2, SWIZZLE_32B (required with 32B interleave)", interleave="32B",
        with_info=True, rank=3)
    return out


def tensor_map_edges():
    """One spec whose tensor maps are the edge cases of cuTensorMapEncodeTiled's rules, each with the
    verdict our reading of the driver documentation (docs/tma_and_mbarrier.md §1) predicts.
    Run with `tcsim-hw check-tensor-map` on the H200, and with tcsim's validation; compare."""
    maps = {}
    expect = {}

    def m(name, verdict, why, buffer="g", **kw):
        maps[name] = tmap(buffer, **kw)
        expect[name] = f"{verdict}: {why}"

    base = dict(dtype="u16", dims=[64, 64], box=[64, 8], strides=[128])
    m("e00_baseline", "ACCEPT", "2-D u16, 128 B rows", **base)
    m("e01_addr_8B", "REJECT", "globalAddress must be 16-B aligned", offset=8, **base)
    m("e02_addr_16B", "ACCEPT", "16-B aligned address", offset=16, **base)
    m("e03_rank5", "ACCEPT", "rank 5", dtype="u8", dims=[16, 2, 2, 2, 2], box=[16, 2, 2, 2, 2],
      strides=[16, 32, 64, 128])
    m("e04_interleave_rank2", "REJECT", "interleave needs rank >= 3", dtype="u16", dims=[8, 64], box=[8, 8],
      strides=[16], interleave="16B")
    m("e05_dim0_zero", "REJECT", "globalDim must be non-zero", dtype="u16", dims=[0, 64], box=[64, 8], strides=[128])
    m("e06_dim_2p32", "ACCEPT", "globalDim <= 2^32", dtype="u8", dims=[4294967296], box=[16])
    m("e07_dim_2p32_plus1", "REJECT", "globalDim > 2^32", dtype="u8", dims=[4294967297], box=[16])
    m("e08_stride_not16", "REJECT", "globalStrides must be multiples of 16", dtype="u16", dims=[64, 64], box=[64, 8],
      strides=[136])
    m("e09_stride_2p40", "REJECT", "globalStrides < 2^40", dtype="u8", dims=[16, 2], box=[16, 2],
      strides=[1099511627776])
    m("e10_stride_2p40_minus16", "ACCEPT", "globalStrides < 2^40", dtype="u8", dims=[16, 2], box=[16, 2],
      strides=[1099511627760])
    m("e11_stride_overlaps_dim0", "FACT", "stride 64 < 64 u16 = 128 B: rows overlap (documented recurrence, "
      "checked?)", dtype="u16", dims=[64, 64], box=[32, 8], strides=[64])
    m("e12_stride_overlaps_dim1", "FACT", "stride[1] 256 < stride[0] * dim1 = 128 * 64 (dims overlap)",
      dtype="u16", dims=[64, 64, 4], box=[64, 8, 1], strides=[128, 256])
    m("e13_box_zero", "REJECT", "boxDim must be non-zero", dtype="u16", dims=[64, 64], box=[64, 0], strides=[128])
    m("e14_box_256", "ACCEPT", "boxDim <= 256", dtype="u8", dims=[256, 256], box=[16, 256], strides=[256])
    m("e15_box_257", "REJECT", "boxDim > 256", dtype="u8", dims=[512, 512], box=[16, 257], strides=[512])
    m("e16_box_inner_8B", "REJECT", "boxDim[0] * elemsize must be a multiple of 16 B (interleave NONE)",
      dtype="u16", dims=[64, 64], box=[4, 8], strides=[128])
    m("e17_box_inner_48B", "ACCEPT", "48 B is a multiple of 16", dtype="u16", dims=[64, 64], box=[24, 8],
      strides=[128])
    m("e18_estride_zero", "REJECT", "elementStrides must be in 1..8", dtype="u16", dims=[64, 64], box=[64, 8],
      strides=[128], estr=[1, 0])
    m("e19_estride_8", "ACCEPT", "elementStrides <= 8", dtype="u16", dims=[64, 64], box=[64, 8], strides=[128],
      estr=[1, 8])
    m("e20_estride_9", "REJECT", "elementStrides > 8", dtype="u16", dims=[64, 64], box=[64, 9], strides=[128],
      estr=[1, 9])
    m("e21_estride0_9_ignored", "FACT", "elementStrides[0] is ignored with interleave NONE: range-checked anyway?",
      dtype="u16", dims=[64, 64], box=[64, 8], strides=[128], estr=[9, 1])
    m("e22_estride_not_dividing_box", "ACCEPT", "box 5, stride 2 (3 elements loaded)", dtype="u16", dims=[64, 64],
      box=[64, 5], strides=[128], estr=[1, 2])
    m("e23_sw32_inner64", "REJECT", "SWIZZLE_32B needs inner box <= 32 B", dtype="u16", dims=[64, 64], box=[32, 8],
      strides=[128], swizzle="32B")
    m("e24_sw32_inner32", "ACCEPT", "inner 32 B with SWIZZLE_32B", dtype="u16", dims=[64, 64], box=[16, 8],
      strides=[128], swizzle="32B")
    m("e25_sw64_inner128", "REJECT", "SWIZZLE_64B needs inner box <= 64 B", dtype="u16", dims=[64, 64], box=[64, 8],
      strides=[128], swizzle="64B")
    m("e26_sw128_inner128", "ACCEPT", "inner 128 B with SWIZZLE_128B", dtype="u16", dims=[64, 64], box=[64, 8],
      strides=[128], swizzle="128B")
    m("e27_sw128_inner256", "REJECT", "SWIZZLE_128B needs inner box <= 128 B", dtype="u16", dims=[256, 64],
      box=[128, 8], strides=[512], swizzle="128B")
    m("e28_sw128_inner16", "ACCEPT", "a 16-byte box under the 128-byte span (narrow box)", dtype="u16",
      dims=[64, 64], box=[8, 8], strides=[128], swizzle="128B")
    m("e29_il32_sw64", "REJECT", "INTERLEAVE_32B requires SWIZZLE_32B", dtype="u16", dims=[16, 8, 8],
      box=[16, 8, 2], strides=[32, 256], interleave="32B", swizzle="64B")
    m("e30_il32_sw32", "ACCEPT", "INTERLEAVE_32B with SWIZZLE_32B", dtype="u16", dims=[16, 8, 8], box=[16, 8, 2],
      strides=[32, 256], interleave="32B", swizzle="32B")
    m("e31_il32_addr16", "REJECT", "INTERLEAVE_32B needs a 32-B aligned address", dtype="u16", dims=[16, 8, 8],
      box=[16, 8, 2], strides=[32, 256], interleave="32B", swizzle="32B", offset=16)
    m("e32_il32_stride48", "REJECT", "INTERLEAVE_32B needs strides that are multiples of 32", dtype="u16",
      dims=[16, 8, 8], box=[16, 8, 2], strides=[48, 384], interleave="32B", swizzle="32B")
    m("e33_il16_sw128", "ACCEPT", "INTERLEAVE_16B allows any swizzle", dtype="u16", dims=[8, 8, 8], box=[8, 8, 2],
      strides=[16, 128], interleave="16B", swizzle="128B")
    m("e34_il16_box_inner8B", "FACT", "interleaved: the 16-B inner-box rule is stated for NONE only", dtype="u16",
      dims=[8, 8, 8], box=[4, 8, 2], strides=[16, 128], interleave="16B")
    m("e35_oobnan_u16", "REJECT", "OOB NaN fill needs a float type", dtype="u16", oob="nan", **{
        k: v for k, v in base.items() if k != "dtype"})
    m("e36_oobnan_f16", "ACCEPT", "f16 with NaN fill", dtype="f16", oob="nan", **{
        k: v for k, v in base.items() if k != "dtype"})
    m("e37_oobnan_bf16", "ACCEPT", "bf16 with NaN fill", dtype="bf16", oob="nan", **{
        k: v for k, v in base.items() if k != "dtype"})
    m("e38_oobnan_tf32", "ACCEPT", "tf32 with NaN fill", dtype="tf32", oob="nan", dims=[32, 64], box=[32, 8],
      strides=[128])
    m("e39_oobnan_i32", "REJECT", "OOB NaN fill needs a float type", dtype="i32", oob="nan", dims=[32, 64],
      box=[32, 8], strides=[128])
    m("e40_u4_16b_ok", "ACCEPT", "16U4_ALIGN16B: dim0 % 128 == 0, box[0] == 128, 32-B address and strides",
      dtype="16u4_align16b", dims=[256, 16], box=[128, 8], strides=[128])
    m("e41_u4_16b_dim0_64", "REJECT", "16U4_ALIGN16B needs globalDim[0] % 128 == 0", dtype="16u4_align16b",
      dims=[64, 16], box=[128, 8], strides=[128])
    m("e42_u4_16b_box64", "REJECT", "16U4_ALIGN16B needs boxDim[0] == 128", dtype="16u4_align16b", dims=[256, 16],
      box=[64, 8], strides=[128])
    m("e43_u4_16b_addr16", "REJECT", "16U4_ALIGN16B needs a 32-B aligned address", dtype="16u4_align16b",
      dims=[256, 16], box=[128, 8], strides=[128], offset=16)
    m("e44_u4_16b_stride144", "REJECT", "16U4_ALIGN16B needs strides that are multiples of 32",
      dtype="16u4_align16b", dims=[256, 16], box=[128, 8], strides=[144])
    m("e45_u4_8b_dim0_odd", "REJECT", "16U4_ALIGN8B needs an even globalDim[0]", dtype="16u4_align8b",
      dims=[255, 16], box=[32, 8], strides=[128])
    m("e46_u4_8b_ok", "ACCEPT", "16U4_ALIGN8B, 32 values = 16 B per box row", dtype="16u4_align8b",
      dims=[256, 16], box=[32, 8], strides=[128])
    m("e47_u6_il16", "REJECT", "16U6_ALIGN16B needs interleave NONE", dtype="16u6_align16b", dims=[128, 8, 2],
      box=[128, 8, 1], strides=[96, 768], interleave="16B")
    m("e48_u6_flip8B", "REJECT", "16U6_ALIGN16B: swizzle NONE/128B/128B_ATOM_32B/128B_ATOM_64B only (the flip "
      "mode's 128-B span would fit the box)", dtype="16u6_align16b", dims=[128, 8], box=[128, 8], strides=[96],
      swizzle="128B_atom_32B_flip_8B")
    m("e49_u6_sw128", "ACCEPT", "16U6_ALIGN16B with SWIZZLE_128B", dtype="16u6_align16b", dims=[128, 8],
      box=[128, 8], strides=[96], swizzle="128B")
    m("e50_u4_16b_atom64", "REJECT", "16U4_ALIGN16B: swizzle NONE/128B/128B_ATOM_32B only (the 128-B span "
      "would fit the box)", dtype="16u4_align16b", dims=[256, 16], box=[128, 8], strides=[128],
      swizzle="128B_atom_64B")
    m("e51_u4_16b_oobnan", "REJECT", "NaN fill not for packed types", dtype="16u4_align16b", dims=[256, 16],
      box=[128, 8], strides=[128], oob="nan")
    m("e52_atom32_u8", "FACT", "SWIZZLE_128B_ATOM_32B on an sm_90 device", dtype="u8", dims=[256, 64],
      box=[128, 8], strides=[256], swizzle="128B_atom_32B")
    m("e53_atom32flip_u8", "FACT", "SWIZZLE_128B_ATOM_32B_FLIP_8B on an sm_90 device", dtype="u8", dims=[256, 64],
      box=[128, 8], strides=[256], swizzle="128B_atom_32B_flip_8B")
    m("e54_atom64_u8", "FACT", "SWIZZLE_128B_ATOM_64B on an sm_90 device", dtype="u8", dims=[256, 64],
      box=[128, 8], strides=[256], swizzle="128B_atom_64B")
    m("e55_l2_256", "ACCEPT", "L2 promotion 256B", l2="256B", **base)
    m("e56_box_256x256_u32", "FACT", "a 256 KiB box (larger than any shared memory): no documented limit",
      dtype="u32", dims=[256, 256], box=[256, 256], strides=[1024])
    m("e57_f32_ftz_tf32_ftz", "ACCEPT", "FLOAT32_FTZ", dtype="f32_ftz", dims=[32, 64], box=[32, 8], strides=[128])
    m("e58_il16_inner_dim_64B", "FACT", "INTERLEAVE_16B with a 64-byte dim 0 (32 x u16)", dtype="u16",
      dims=[32, 8, 8], box=[32, 8, 2], strides=[64, 512], interleave="16B")
    m("e59_stride_zero", "FACT", "a zero stride (a multiple of 16, but every row aliases row 0)",
      dtype="u16", dims=[64, 64], box=[64, 8], strides=[0])

    s = spec("../tma_smem_image.sm_90a.ptx", "tma_smem_image_2d", [1, 1, 1], [32, 1, 1],
             {"g": buf("u8", [65536], fill(0))}, [], [], maps,
             comment="check-tensor-map only (tcsim-hw check-tensor-map / tcsim's validation): not a launch. "
                     "_expect gives the verdict the documented rules predict; FACT = undocumented, record it.")
    s["_expect"] = expect
    return s


# ----------------------------------------------------------------------------------------------
# kernels/cluster


# smem_addr.cu smem_probe: the modes whose run ends normally on the H200, and those that fault there
# (kernels/probes/results/h200-2026-12-01-machine/smem_probe_faults.txt): a .shared::cta access
# through another rank's address (0 ld, 1 st, 4 mbarrier.arrive, 6 red, 8 plain ld.shared) and a
# .shared::cluster access to a rank outside the cluster (3).
SMEM_PROBE_OK = (2, 5, 7, 9)
# Specs that run their kernel's sm_100a PTX on sm_100a (an sm_100a-only instruction form; tcsim alone
# runs them, judged by expect.py's model): check_specs.py.
SM100_ONLY_SPECS = ("peer_bit_tma_sm100.json",)
SMEM_PROBE_FAULTS = (0, 1, 3, 4, 6, 8)


def cluster_specs():
    out = {}

    def ex(name, grid, cluster):
        ncta = grid[0] * grid[1] * grid[2]
        out[name] = spec("dsmem_exchange.sm_90a.ptx", "dsmem_exchange", grid, [128, 1, 1],
                         {"in": buf("u32", [ncta, 128], bits(301)), "peek": buf("u32", [ncta, 128], fill(0)),
                          "peek2": buf("u32", [ncta, 128], fill(0)), "inbox": buf("u32", [ncta, 16], fill(0)),
                          "count": buf("u32", [ncta], fill(0)), "xors": buf("u32", [ncta], fill(0)),
                          "ranks": buf("u32", [ncta, 2], fill(0))},
                         [B("in"), B("peek"), B("peek2"), B("inbox"), B("count"), B("xors"), B("ranks")],
                         ["peek", "peek2", "inbox", "count", "xors", "ranks"], cluster=cluster,
                         comment=f"DSMEM exchange, cluster {cluster}")

    ex("dsmem_exchange_2x1.json", [4, 1, 1], [2, 1, 1])
    ex("dsmem_exchange_4x1.json", [4, 2, 1], [4, 1, 1])
    ex("dsmem_exchange_2x2.json", [4, 2, 1], [2, 2, 1])

    def bulk(name, grid, cluster):
        ncta = grid[0] * grid[1] * grid[2]
        out[name] = spec("dsmem_bulk.sm_90a.ptx", "dsmem_bulk", grid, [128, 1, 1],
                         {"in": buf("u32", [ncta, 64], bits(311)), "recv": buf("u32", [ncta, 64], fill(0)),
                          "words": buf("u32", [ncta, 4], fill(0)), "acc": buf("u32", [ncta], fill(0)),
                          "racc": buf("u32", [ncta, 64], fill(0))},
                         [B("in"), B("recv"), B("words"), B("acc"), B("racc")], ["recv", "words", "acc", "racc"],
                         cluster=cluster, comment=f"async DSMEM traffic to the right neighbour, cluster {cluster}")

    bulk("dsmem_bulk_2cta.json", [4, 1, 1], [2, 1, 1])
    bulk("dsmem_bulk_4cta.json", [8, 1, 1], [4, 1, 1])

    def cb(name, grid, cluster):
        ncta = grid[0] * grid[1] * grid[2]
        n = cluster[0] * cluster[1] * cluster[2]
        out[name] = spec("cluster_barrier.sm_90a.ptx", "cluster_barrier", grid, [64, 1, 1],
                         {"in": buf("u32", [ncta, 64], bits(321)), "trace": buf("u32", [ncta, 2 * n, 64], fill(0)),
                          "local": buf("u32", [ncta, 64], fill(0)), "ids": buf("u32", [ncta, 16], fill(0))},
                         [B("in"), B("trace"), B("local"), B("ids")], ["trace", "local", "ids"], cluster=cluster,
                         comment=f"token ring over cluster barriers, cluster {cluster}")

    cb("cluster_barrier_2.json", [4, 1, 1], [2, 1, 1])
    cb("cluster_barrier_4.json", [8, 1, 1], [4, 1, 1])
    cb("cluster_barrier_1x2x2.json", [2, 2, 2], [1, 2, 2])

    def mp(name, grid, cluster, ntiles):
        ncta = grid[0]
        n = cluster[0]
        nclusters = ncta // n
        rows = nclusters * ntiles * 32
        out[name] = spec("multicast_pipeline.sm_90a.ptx", "multicast_pipeline", grid, [96, 1, 1],
                         {"a": buf("u32", [rows, 32], bits(331)), "copy": buf("u32", [ncta, ntiles, 32, 32], fill(0)),
                          "sums": buf("u32", [ncta, 64], fill(0))},
                         [TM("tm_a"), u32(ntiles), B("copy"), B("sums")], ["copy", "sums"],
                         {"tm_a": tmap("a", "u32", [32, rows], [32, 32 // n], strides=[128], swizzle="128B")},
                         cluster=cluster, dyn=1024 + 3 * 4096,
                         comment=f"multicast pipeline, {nclusters} cluster(s) of {n}, {ntiles} tiles, 3 stages")

    mp("multicast_pipeline_2cta.json", [4, 1, 1], [2, 1, 1], 6)
    mp("multicast_pipeline_4cta.json", [4, 1, 1], [4, 1, 1], 6)

    # Shared-memory addresses rank by rank (smem_addr.cu; docs/shared_memory.md).
    def sa(name, kernel, grid, cluster, dyn):
        ncta = grid[0] * grid[1] * grid[2]
        out[name] = spec("smem_addr.sm_90a.ptx", kernel, grid, [64, 1, 1],
                         {"out": buf("u32", [ncta, 64], fill(0))}, [B("out")], ["out"], cluster=cluster, dyn=dyn,
                         comment=f"shared-memory address encoding, cluster {cluster}")

    sa("smem_addr_c2.json", "smem_addr", [4, 1, 1], [2, 1, 1], 2000)
    sa("smem_addr_c4.json", "smem_addr", [8, 1, 1], [4, 1, 1], 2000)
    sa("smem_addr_c8.json", "smem_addr", [8, 1, 1], [8, 1, 1], 2000)
    sa("smem_addr_c16.json", "smem_addr", [16, 1, 1], [16, 1, 1], 2000)
    sa("smem_addr_2x2.json", "smem_addr", [4, 2, 1], [2, 2, 1], 2000)
    sa("smem_addr_a1024.json", "smem_addr_a1024", [4, 1, 1], [2, 1, 1], 3000)
    # The modes the H200 ran to the end (the others fault: bad_specs()).
    for mode in SMEM_PROBE_OK:
        out[f"smem_probe_m{mode}.json"] = spec(
            "smem_addr.sm_90a.ptx", "smem_probe", [2, 1, 1], [32, 1, 1], {"out": buf("u32", [2, 8], fill(0))},
            [u32(mode), B("out")], ["out"], cluster=[2, 1, 1],
            comment=f"one questionable shared-memory access (smem_addr.cu smem_probe mode {mode})")

    # As many clusters as the H200 runs at once (coresident.cu): cudaOccupancyMaxActiveClusters(k)
    # with one CTA per SM (227 KiB of dynamic shared memory), measured on the H200 on 2026-12-01
    # (kernels/probes/results/h200-2026-12-01-machine/machine_shape.txt, the OCC block=128 dyn=232448 rows).
    h200_max_active_clusters = {1: 132, 2: 66, 3: 39, 4: 30, 5: 22, 6: 17, 7: 15, 8: 15, 9: 9, 10: 7, 11: 7, 12: 7,
                                13: 7, 14: 7, 15: 7, 16: 7}
    for k, m in h200_max_active_clusters.items():
        n = k * m
        out[f"coresident_c{k}_fit.json"] = spec(
            "coresident.sm_90a.ptx", "coresident", [n, 1, 1], [32, 1, 1],
            {"counter": buf("u32", [1], fill(0)), "seen": buf("u32", [n], fill(7))},
            [B("counter"), B("seen"), u32(n), {"u64": 20000000}], ["counter", "seen"], cluster=[k, 1, 1],
            dyn=232448, comment=f"{m} clusters of {k}: as many as the H200 holds at once")

    # The shared-memory special registers by static size, dynamic size and cluster (smem_sregs.cu).
    for st in (0, 224, 1000, 1100, 3000):
        for dyn in (0, 420, 2000, 5000):
            if st == 0 and dyn == 0:
                continue  # the kernel stores dyn[0]: it needs dynamic shared memory
            for cl in (None, [2, 1, 1]):
                name = f"smem_sregs_s{st}_d{dyn}" + ("_c2" if cl else "")
                out[name + ".json"] = spec(
                    "smem_sregs.sm_90a.ptx", f"smem_sregs_s{st}", [2, 1, 1], [32, 1, 1],
                    {"out": buf("u32", [2, 16], fill(0))}, [B("out")], ["out"], cluster=cl, dyn=dyn,
                    comment=f"shared-memory special registers: {st} B static, {dyn} B dynamic"
                            + (", cluster of 2" if cl else ""))

    # The CUTLASS 2-SM idiom: the odd CTA reaches the leader's barrier through its own address with
    # bit 24 cleared (peer_bit_tma.cu); 2 pairs.
    for arch, tag in (("sm_90a", "sm90"), ("sm_100a", "sm100")):
        out[f"peer_bit_tma_{tag}.json"] = spec(
            f"peer_bit_tma.{arch}.ptx", "peer_bit_tma", [4, 1, 1], [32, 1, 1],
            {"a": buf("u32", [32, 32], bits(341)), "out": buf("u32", [4, 8, 32], fill(0)),
             "done": buf("u32", [2], fill(0))},
            [TM("tm_a"), B("out"), B("done")], ["out", "done"],
            {"tm_a": tmap("a", "u32", [32, 32], [32, 8], strides=[128])}, cluster=[2, 1, 1], arch=arch,
            comment=f"the odd CTA signals the leader's mbarrier through its own address & 0xFEFFFFFF ({arch})")

    out["elect_sync.json"] = spec("elect_sync.sm_90a.ptx", "elect_sync", [1, 1, 1], [64, 1, 1],
                                  {"out": buf("u32", [2, 6, 32], fill("0xffffffff"))}, [B("out")], ["out"],
                                  comment="elect.sync leaders and election order")
    return out


# ----------------------------------------------------------------------------------------------
# Broken kernels: specs that launch them (the report, not the outputs, is the point)


def bad_specs():
    tma, cl = {}, {}
    a32 = lambda rows: buf("u32", [rows, 32], bits(401))
    tm32 = lambda rows, box_rows=32: tmap("a", "u32", [32, rows], [32, box_rows], strides=[128])
    tma["missing_expect_tx.json"] = spec(
        "missing_expect_tx.sm_90a.ptx", "missing_expect_tx", [1, 1, 1], [128, 1, 1],
        {"a": a32(32), "out": buf("u32", [1024], fill(0))}, [TM("tm"), B("out")], ["out"], {"tm": tm32(32)},
        comment="BROKEN: arrive without expect_tx -> race on the TMA destination")
    tma["wrong_parity.json"] = spec(
        "wrong_parity.sm_90a.ptx", "wrong_parity", [1, 1, 1], [64, 1, 1],
        {"a": a32(128), "out": buf("u32", [4, 1024], fill(0))}, [TM("tm"), u32(4), B("out")], ["out"],
        {"tm": tm32(128)}, comment="BROKEN: consumers never flip the parity -> race in round 2")
    tma["missing_fence_proxy_async.json"] = spec(
        "missing_fence_proxy_async.sm_90a.ptx", "missing_fence_proxy_async", [1, 1, 1], [128, 1, 1],
        {"in": buf("u32", [1024], bits(402)), "out": buf("u32", [32, 32], fill(0))},
        [TM("tm_out"), B("in")], ["out"], {"tm_out": tmap("out", "u32", [32, 32], [32, 32], strides=[128])},
        comment="BROKEN: st.shared then TMA store without fence.proxy.async -> proxy race")
    tma["deadlock_pipeline.json"] = spec(
        "deadlock_pipeline.sm_90a.ptx", "deadlock_pipeline", [1, 1, 1], [96, 1, 1],
        {"a": a32(128), "out": buf("u32", [4, 1024], fill(0))}, [TM("tm"), u32(4), B("out")], ["out"],
        {"tm": tm32(128)}, comment="BROKEN: producer waits on the wrong empty parity -> deadlock")
    for mode, tag in [(0, "arrival"), (1, "tx")]:
        tma[f"mbarrier_never_completes_{tag}.json"] = spec(
            "mbarrier_never_completes.sm_90a.ptx", "mbarrier_never_completes", [1, 1, 1], [128, 1, 1],
            {"a": a32(32), "out": buf("u32", [1024], fill(0))}, [TM("tm"), u32(mode), B("out")], ["out"],
            {"tm": tm32(32)}, comment=f"BROKEN: mode {mode}: a phase nothing can complete -> deadlock")
    tma["tma_box_outside_smem.json"] = spec(
        "tma_box_outside_smem.sm_90a.ptx", "tma_box_outside_smem", [1, 1, 1], [32, 1, 1],
        {"a": buf("u32", [32, 64], bits(403)), "out": buf("u32", [1], fill(0))}, [TM("tm"), B("out")], ["out"],
        {"tm": tmap("a", "u32", [64, 32], [64, 32], strides=[256])}, dyn=4096,
        comment="BROKEN: an 8 KB box into a 4 KB dynamic allocation")
    tma["misaligned_mbarrier.json"] = spec(
        "misaligned_mbarrier.sm_90a.ptx", "misaligned_mbarrier", [1, 1, 1], [32, 1, 1],
        {"out": buf("u32", [1], fill(0))}, [B("out")], ["out"], comment="BROKEN: mbarrier at 4 mod 8")
    for mode in SMEM_PROBE_FAULTS:
        cl[f"smem_probe_m{mode}.json"] = spec(
            "../smem_addr.sm_90a.ptx", "smem_probe", [2, 1, 1], [32, 1, 1], {"out": buf("u32", [2, 8], fill(0))},
            [u32(mode), B("out")], ["out"], cluster=[2, 1, 1],
            comment=f"FAULTS on the H200: smem_addr.cu smem_probe mode {mode}")
    cl["dsmem_after_exit.json"] = spec(
        "dsmem_after_exit.sm_90a.ptx", "dsmem_after_exit", [2, 1, 1], [128, 1, 1],
        {"out": buf("u32", [128], fill(0))}, [B("out")], ["out"], cluster=[2, 1, 1],
        comment="BROKEN: remote stores into a CTA that may have exited")
    return tma, cl


def all_specs():
    """{relative path under kernels/: spec dict}."""
    files = {}
    for n, s in tma_specs().items():
        files["tma/" + n] = s
    for n, s in swizzle_specs().items():
        files["tma/swizzle/" + n] = s
    for n, s in footprint_specs().items():
        files["tma/facts/" + n] = s
    files["tma/facts/tensor_map_edges.json"] = tensor_map_edges()
    for n, s in cluster_specs().items():
        files["cluster/" + n] = s
    bt, bc = bad_specs()
    for n, s in bt.items():
        files["tma/bad/" + n] = s
    for n, s in bc.items():
        files["cluster/bad/" + n] = s
    return files


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for rel, s in sorted(all_specs().items()):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(dump(s))
    print(f"gen_specs: {len(all_specs())} specs written under {root}")


if __name__ == "__main__":
    main()
