#!/usr/bin/env python3
"""The expected outputs of the asynchronous-machine corpus, computed from the launch specs alone.

An independent model, written from the PTX ISA and the kernels' own headers, of what each golden
kernel of kernels/tma and kernels/cluster must output. It shares no code with tcsim: it rebuilds
the inputs with the launch spec's documented generator (docs/launch_spec.md "Initialisation") and
applies the TMA layout model of docs/tma_and_mbarrier.md §2 (box rows dimension 0
fastest, swizzle XOR on the absolute shared address) with the facts the H200 settled (FACTS below,
README.md "Facts settled on the H200": rows narrower than the swizzle span padded to it, the OOB
NaN pattern, TMA stores in 16-byte granules, pending_count, ...).

  expect.py SPEC.json --out DIR      write DIR/NAME.npy for each output (+ manifest.json), in the
                                     format of `tcsim run --out`, so `tcsim diff DIR OTHER` compares
  expect.py SPEC.json --check DIR    compare DIR/NAME.npy (from tcsim-hw or tcsim) with the model;
                                     exit 0 when identical, 1 when not (first differences printed)
  expect.py --all [--check-root R]   every golden spec; with R, compares R/<spec path without .json>/
  expect.py --selftest               the layout model against the PTX ISA swizzle tables, hand-worked
                                     cases of the facts, and the committed H200 fact runs
  expect.py --replay-facts DIR       the facts/fp_* runs of a run_facts.sh result against the model
  expect.py --facts                  the hardware facts the model follows

Predictions that rest on an UNCONFIRMED modelling choice are listed by `expect.py --assumptions`;
a difference there is a fact about the hardware to record, not necessarily a tcsim bug.
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.dirname(HERE)
M64 = (1 << 64) - 1
G = 0x9E3779B97F4A7C15

H200 = "measured on H200, driver 580.159.04, 2026-11-30"

# Hardware facts the model follows (README.md "Facts settled on the H200"); each was an assumption
# until the H200 runs of the golden specs and of facts/ settled it.
FACTS = {
    "oob_nan_bits": "OOB NaN fill (CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA) writes 0x7ff7 into every "
                    "16-bit half of an OOB element, not the canonical NaN: bf16 0x7ff7 (tma_load_2d), f32 0x7ff77ff7 "
                    f"(tma_load_3d; {H200}); f16 and tf32 are modelled with the same pattern.",
    "element_strides": "with traversal strides the box is packed densely, E_d = ceil(box_d / stride_d) elements per "
                       f"dimension, element e_d at coordinate c_d + e_d * stride_d (tma_load_3d; {H200}).",
    "narrow_box_pitch": "a box row narrower than its swizzle span (box[0] * esize < 32/64/128 B) still occupies a whole "
                        "span: row r starts at r * span, its bytes then swizzled by the absolute address, the rest of "
                        "the span untouched; the complete_tx byte count stays the dense box size "
                        f"(facts/fp_*; {H200}).",
    "store_16B_granules": "a TMA store writes whole 16-byte chunks along dimension 0: when globalDim[0] * esize is not "
                          "a multiple of 16, the elements up to the next 16-byte boundary of the row are written too "
                          f"(tma_store_2d_sw64: columns 70, 71 of a 70-wide bf16 tensor written; {H200}).",
    "pending_count": "mbarrier.pending_count of the state returned by arrive.noComplete(1) on a phase with 2 pending "
                     "arrivals is 2: the state is taken before the arrive-on operation (PTX ISA §9.7.13.15.13, "
                     f"§9.7.13.15.17; mbarrier_ops seq[10]; {H200}).",
    "atom_modes_on_sm90": "cuTensorMapEncodeTiled rejects the 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B and 128B_ATOM_64B "
                          "swizzles on an sm_90 device (CUDA_ERROR_INVALID_VALUE): the swizzle/sw_128B_atom_* specs "
                          f"are sm_100a-only (facts e52-e54, swizzle/sw_128B_atom_*; {H200}).",
    "elect_lowest": f"elect.sync elects the lowest active lane of the mask (elect_sync; {H200}).",
    "cluster_rank": "%cluster_ctarank = x + y * nx + z * nx * ny of %cluster_ctaid (tma_multicast_2x2, "
                    f"dsmem_exchange_2x2, cluster_barrier_1x2x2; {H200}).",
}

# Predictions that still rest on an unconfirmed choice: a difference there is a fact to record.
ASSUMPTIONS = {
    "oob_nan_f64": "OOB NaN fill of f64 writes 0x7ff77ff77ff77ff7: the 16-bit pattern measured for f16/bf16/f32 in "
                   "every half (tma_load_5d; it faulted on the H200 before its spec fix, so f64 is unmeasured).",
    "flip_8B": "SWIZZLE_128B_ATOM_32B_FLIP_8B = the 32B-atom swizzle, then the two 8-byte halves of each 16-byte "
               "chunk swapped on odd 128-byte lines (swizzle/sw_128B_atom_32B_flip_8B_*, sm_100a only).",
    "atom_modes": "the 128B_ATOM_* swizzles act as documented for sm_100 (swizzle/sw_128B_atom_*, sm_100a only).",
    "narrow_box_store": "a TMA store of a box narrower than its swizzle span reads shared memory at the same padded "
                        "pitch as a load writes it (no golden spec stores such a box).",
}

# ----------------------------------------------------------------------------------------------
# The launch spec's generator and element encodings

SIZE = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "f16": 2, "bf16": 2, "i32": 4, "u32": 4, "f32": 4, "i64": 8, "u64": 8,
        "f64": 8}
NPY = {"i8": "|i1", "u8": "|u1", "i16": "<i2", "u16": "<u2", "f16": "<f2", "bf16": "<u2", "i32": "<i4", "u32": "<u4",
       "f32": "<f4", "i64": "<i8", "u64": "<u8", "f64": "<f8"}


def mix64(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def draw(seed, i, k=0):
    key = mix64((seed + (i + 1) * G) & M64)
    return mix64((key + (k + 1) * G) & M64)


def float_bits(dtype, v):
    """Bits of v in dtype; v must be exactly representable (the specs only use such values)."""
    if dtype == "f32":
        b = struct.unpack("<I", struct.pack("<f", v))[0]
        assert struct.unpack("<f", struct.pack("<I", b))[0] == v, v
        return b
    if dtype == "f64":
        return struct.unpack("<Q", struct.pack("<d", v))[0]
    if dtype == "f16":
        b = struct.unpack("<H", struct.pack("<e", v))[0]
        assert struct.unpack("<e", struct.pack("<H", b))[0] == v, v
        return b
    if dtype == "bf16":
        b = struct.unpack("<I", struct.pack("<f", v))[0]
        assert b & 0xFFFF == 0 and struct.unpack("<f", struct.pack("<I", b))[0] == v, v
        return b >> 16
    raise ValueError(dtype)


def bits_float(dtype, b):
    if dtype == "f32":
        return struct.unpack("<f", struct.pack("<I", b))[0]
    if dtype == "f64":
        return struct.unpack("<d", struct.pack("<Q", b))[0]
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<H", b))[0]
    if dtype == "bf16":
        return struct.unpack("<f", struct.pack("<I", b << 16))[0]
    raise ValueError(dtype)


def to_signed(v, nbytes):
    return v - (1 << (8 * nbytes)) if v >> (8 * nbytes - 1) else v


def init_buffer(b):
    dt, n = b["dtype"], 1
    for x in b["shape"]:
        n *= x
    size, mask = SIZE[dt], (1 << (8 * SIZE[dt])) - 1
    (kind, arg), = b["init"].items()
    isfloat = dt in ("f16", "bf16", "f32", "f64")
    if kind == "fill":
        if isinstance(arg, str) and arg.startswith("0x"):
            return [int(arg, 16)] * n
        return [float_bits(dt, float(arg)) if isfloat else int(arg) & mask] * n
    if kind == "iota":
        start, step = arg.get("start", 0), arg.get("step", 1)
        if isfloat:
            return [float_bits(dt, start + step * i) for i in range(n)]
        return [((start + step * i) & M64) & mask for i in range(n)]
    if kind == "random":
        seed, dist = arg["seed"], arg["dist"]
        if dist == "bits":
            return [draw(seed, i) & mask for i in range(n)]
        if dist == "uniform" and not isfloat:
            lo, hi = arg.get("low", 0), arg.get("high", 1)
            span = hi - lo + 1
            return [(lo + ((draw(seed, i) * span) >> 64)) & mask for i in range(n)]
    raise ValueError(f"init {b['init']} is not modelled here")


def to_bytes(vals, size):
    out = bytearray()
    for v in vals:
        out += v.to_bytes(size, "little")
    return out


def from_bytes(data, size):
    return [int.from_bytes(data[i:i + size], "little") for i in range(0, len(data), size)]


# ----------------------------------------------------------------------------------------------
# .npy

def write_npy(path, dtype, shape, vals):
    descr = NPY[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{s}, " for s in shape) if len(shape) == 1 else ", ".join(str(s) for s in shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(to_bytes(vals, SIZE[dtype]))


def read_npy(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    if data[6] == 1:
        hlen, off = struct.unpack("<H", data[8:10])[0], 10
    else:
        hlen, off = struct.unpack("<I", data[8:12])[0], 12
    header = data[off:off + hlen].decode("latin1")
    descr = header.split("'descr':")[1].split("'")[1]
    size = int(descr[2:])
    return from_bytes(data[off + hlen:], size)


# ----------------------------------------------------------------------------------------------
# The TMA layout model

SPAN = {"none": 0, "32B": 32, "64B": 64, "128B": 128, "128B_atom_32B": 128, "128B_atom_64B": 128,
        "128B_atom_32B_flip_8B": 128}


def swizzle(mode, a):
    """Byte address a (absolute shared address) -> where the TMA stores that byte (§5.5.7)."""
    if mode == "none":
        return a
    if mode == "32B":
        return a ^ ((a >> 3) & 0x10)
    if mode == "64B":
        return a ^ ((a >> 3) & 0x30)
    if mode == "128B":
        return a ^ ((a >> 3) & 0x70)
    if mode == "128B_atom_32B":
        return a ^ ((a >> 2) & 0x60)
    if mode == "128B_atom_64B":
        return a ^ ((a >> 1) & 0x40)
    if mode == "128B_atom_32B_flip_8B":  # ASSUMPTION flip_8B (sm_100a)
        return (a ^ ((a >> 2) & 0x60)) ^ (8 if (a >> 7) & 1 else 0)
    raise ValueError(mode)


# FACT oob_nan_bits (ASSUMPTION oob_nan_f64 for f64): the 16-bit pattern 0x7ff7 in every half.
NAN_BITS = {"f16": 0x7FF7, "bf16": 0x7FF7, "f32": 0x7FF77FF7, "tf32": 0x7FF77FF7, "f32_ftz": 0x7FF77FF7,
            "tf32_ftz": 0x7FF77FF7, "f64": 0x7FF77FF77FF77FF7}


class Tensor:
    """A tensor map over an initialised buffer."""

    def __init__(self, spec, name, buffers):
        t = spec["tensor_maps"][name]
        self.t = t
        self.data = buffers[t["buffer"]]  # bytearray
        self.esize = SIZE.get(t["dtype"], 4) if t["dtype"] not in ("tf32", "f32_ftz", "tf32_ftz") else 4
        self.dims = t["global_dims"]
        self.strides = [self.esize] + t.get("global_strides_bytes", [])
        self.box = t["box_dims"]
        self.estr = t.get("element_strides", [1] * len(self.dims))
        self.swz = t.get("swizzle", "none")
        self.base = t.get("offset_bytes", 0)
        self.fill = NAN_BITS[t["dtype"]] if t.get("oob_fill") == "nan" else 0
        self.counts = [self.box[0]] + [-(-b // s) for b, s in zip(self.box[1:], self.estr[1:])]
        # FACT narrow_box_pitch: a row narrower than the swizzle span still takes a whole span.
        self.row_bytes = self.box[0] * self.esize
        self.pitch = max(self.row_bytes, SPAN[self.swz])

    def box_bytes(self):
        """The bytes the TMA moves (and complete_tx counts): the dense box."""
        n = self.esize
        for c in self.counts:
            n *= c
        return n

    def footprint(self):
        """The shared-memory bytes the box spans: rows x pitch (the last row's unwritten tail included,
        which is what the H200's bound check amounts to; README.md "Facts settled on the H200")."""
        return self.box_bytes() // self.row_bytes * self.pitch

    def smem_offset(self, lin, k):
        """Shared-memory offset (before the swizzle) of byte k of box element `lin` (box order)."""
        row, e = divmod(lin, self.counts[0])
        return row * self.pitch + e * self.esize + k

    def elements(self, coords, dim0_limit=None):
        """(linear index in the box, global byte address or None when OOB) in box order. dim0_limit:
        the number of dimension-0 elements counted as in bounds (default globalDim[0])."""
        rank = len(self.dims)
        lim = [self.dims[0] if dim0_limit is None else dim0_limit] + self.dims[1:]
        idx = [0] * rank
        lin = 0
        while True:
            g = [coords[0] + idx[0]] + [coords[d] + idx[d] * self.estr[d] for d in range(1, rank)]
            inb = all(0 <= g[d] < lim[d] for d in range(rank))
            yield lin, (self.base + sum(g[d] * self.strides[d] for d in range(rank))) if inb else None
            lin += 1
            d = 0
            while d < rank:
                idx[d] += 1
                if idx[d] < self.counts[d]:
                    break
                idx[d] = 0
                d += 1
            if d == rank:
                return

    def load_image(self, coords, image, dst):
        """Writes the box at coords into bytearray `image` at offset dst (relative to a 1024-aligned
        base, so the absolute-address swizzle equals the swizzle of the offset)."""
        e = self.esize
        for lin, addr in self.elements(coords):
            v = self.data[addr:addr + e] if addr is not None else self.fill.to_bytes(e, "little")
            for k in range(e):
                image[swizzle(self.swz, dst + self.smem_offset(lin, k))] = v[k]

    def store_from(self, coords, smem, dst_bytes):
        """TMA store of the (swizzled) box image `smem` to coords. FACT store_16B_granules: along
        dimension 0 the store writes whole 16-byte chunks, so the in-bounds test uses globalDim[0]
        rounded up to 16 bytes (the rows start 16-byte aligned: address and strides are multiples of
        16, and the box's first dimension-0 byte is too, see tma-mbarrier facts in README.md)."""
        e = self.esize
        lim0 = -(-self.dims[0] * e // 16) * 16 // e
        for lin, addr in self.elements(coords, dim0_limit=lim0):
            if addr is not None:
                if addr + e > len(dst_bytes):
                    raise ValueError(f"the TMA store writes bytes [{addr}, {addr + e}) past the end of its "
                                     f"{len(dst_bytes)}-byte buffer (16-byte granules): size the buffer for them")
                for k in range(e):
                    dst_bytes[addr + k] = smem[swizzle(self.swz, self.smem_offset(lin, k))]


# ----------------------------------------------------------------------------------------------
# Launch geometry

def ctas(spec):
    """[(g, (bx,by,bz), cluster_linear_id, rank, n)] for every CTA, g = linear block id."""
    gx, gy, gz = spec["grid"]
    cx, cy, cz = spec.get("cluster", [1, 1, 1])
    ncx, ncy = gx // cx, gy // cy
    out = []
    for bz in range(gz):
        for by in range(gy):
            for bx in range(gx):
                g = bx + gx * (by + gy * bz)
                rank = bx % cx + cx * ((by % cy) + cy * (bz % cz))  # FACT cluster_rank
                cl = bx // cx + ncx * ((by // cy) + ncy * (bz // cz))
                out.append((g, (bx, by, bz), cl, rank, cx * cy * cz))
    return out


def scal(a):
    (_, v), = a.items()
    return v


# ----------------------------------------------------------------------------------------------
# Models, one per kernel: f(spec, bufs: {name: bytearray}) -> {output name: bytearray}

def m_tma_load(spec, bufs):
    t = Tensor(spec, "tm", bufs)
    a = spec["args"]
    o = [scal(x) for x in a[1:6]]
    s = [scal(x) for x in a[6:9]]
    bb = scal(a[10])
    assert bb == t.box_bytes()
    if t.footprint() != bb:
        # The kernel dumps box_bytes from the window: with padded rows that is a mix of box rows and
        # padding the TMA never writes (uninitialised shared memory), so there is nothing to model.
        raise ValueError(f"{spec['kernel']}: a box narrower than its swizzle span cannot be dumped densely")
    out = bytearray(len(bufs["out"]))
    for g, (bx, by, bz), *_ in ctas(spec):
        c = [o[0] + bx * s[0], o[1] + by * s[1], o[2] + bz * s[2], o[3], o[4]][:len(t.dims)]
        img = bytearray(bb)
        t.load_image(c, img, 0)
        out[g * bb:(g + 1) * bb] = img
    return {"out": out}


def m_smem_image(spec, bufs):
    t = Tensor(spec, "tm", bufs)
    a = spec["args"]
    rank = 3 if spec["kernel"].endswith("3d") else 2
    coords = [scal(x) for x in a[1:1 + rank]]
    dst_off, tx, image_bytes = (scal(x) for x in a[1 + rank:4 + rank])
    assert tx == t.box_bytes()
    img = bytearray(b"\xA5" * image_bytes)
    big = bytearray(b"\xA5" * max(image_bytes, dst_off + t.footprint() + 1024))
    t.load_image(coords, big, dst_off)
    img[:] = big[:image_bytes]
    return {"out": img}


def m_tma_store(spec, bufs):
    src = Tensor(spec, "tm_src", bufs)
    dst_bytes = bytearray(bufs["dst"])
    dstt = Tensor(spec, "tm_dst", bufs)
    a = spec["args"]
    tile_bytes = scal(a[2])
    n = [scal(x) for x in a[3:8]]
    box = [scal(x) for x in a[8:13]]
    rank = len(src.dims)
    tiles = 1
    for d in range(rank):
        tiles *= n[d]
    for t in range(tiles):
        c, r = [], t
        for d in range(rank):
            c.append((r % n[d]) * box[d])
            r //= n[d]
        img = bytearray(tile_bytes)
        src.load_image(c, img, 0)
        img = bytearray(x ^ 0x5A for x in img)
        dstt.store_from(c, img, dst_bytes)
    return {"dst": dst_bytes}


def m_tma_multicast(spec, bufs):
    t = Tensor(spec, "tm_a", bufs)
    a = spec["args"]
    tile_rows, tile_bytes, chunk = scal(a[1]), scal(a[2]), scal(a[4])
    tiles, vecs = bytearray(len(bufs["tiles"])), bytearray(len(bufs["vecs"]))
    for g, _, k, r, n in ctas(spec):
        cta = k * n + r
        img = bytearray(tile_bytes)
        sl = tile_rows // n
        for q in range(n):
            t.load_image([0, k * tile_rows + q * sl], img, q * (tile_bytes // n))
        tiles[cta * tile_bytes:(cta + 1) * tile_bytes] = img
        vecs[cta * n * chunk:(cta + 1) * n * chunk] = bufs["vec"][k * n * chunk:(k + 1) * n * chunk]
    return {"tiles": tiles, "vecs": vecs}


def m_tma_pipeline(spec, bufs):
    a = from_bytes(bufs["a"], 4)
    ntiles = scal(spec["args"][1])
    sums = [0] * (spec["grid"][0] * 128)
    for b in range(spec["grid"][0]):
        for w in range(4):
            for l in range(32):
                s = 0
                for k in range(ntiles):
                    for j in range(8):
                        s += (k + 1) * a[(32 * (b * ntiles + k) + 8 * w + j) * 32 + l]
                sums[b * 128 + w * 32 + l] = s & 0xFFFFFFFF
    return {"copy": bytearray(bufs["a"]), "sums": to_bytes(sums, 4)}


def inc(x, c):
    return 0 if x >= c else x + 1


def dec(x, c):
    return c if (x == 0 or x > c) else x - 1


INT_OPS = {
    "add": lambda x, y, nb, sg: (x + y) & ((1 << (8 * nb)) - 1),
    "min": lambda x, y, nb, sg: min(x, y, key=(lambda v: to_signed(v, nb)) if sg else None),
    "max": lambda x, y, nb, sg: max(x, y, key=(lambda v: to_signed(v, nb)) if sg else None),
    "and": lambda x, y, nb, sg: x & y, "or": lambda x, y, nb, sg: x | y, "xor": lambda x, y, nb, sg: x ^ y,
    "inc": lambda x, y, nb, sg: inc(x, y), "dec": lambda x, y, nb, sg: dec(x, y),
}


def float_op(op, dt, x, y):
    fx, fy = bits_float(dt, x), bits_float(dt, y)
    r = fx + fy if op == "add" else (min(fx, fy) if op == "min" else max(fx, fy))
    return float_bits(dt, r)


def reduce_into(dst_vals, contribs, op, dt):
    """dst op= every contribution, elementwise; the specs make the order irrelevant."""
    nb = SIZE[dt]
    out = list(dst_vals)
    for c in contribs:
        for i in range(len(out)):
            if dt in ("f16", "bf16", "f32", "f64"):
                out[i] = float_op(op, dt, out[i], c[i])
            else:
                out[i] = INT_OPS[op](out[i], c[i], nb, dt.startswith("i"))
    return out


def m_tma_reduce_int(spec, bufs):
    n = spec["grid"][0]
    src32, common, src64 = from_bytes(bufs["src32"], 4), from_bytes(bufs["common32"], 4), from_bytes(bufs["src64"], 8)
    a = [src32[b * 128:(b + 1) * 128] for b in range(n)]
    d = [src64[b * 64:(b + 1) * 64] for b in range(n)]
    plan = {"add_u32": ("add", a), "min_i32": ("min", a), "max_i32": ("max", a), "and_u32": ("and", a),
            "or_u32": ("or", a), "xor_u32": ("xor", a), "inc_u32": ("inc", [common] * n),
            "dec_u32": ("dec", [common] * n), "add_u64": ("add", d), "min_i64": ("min", d)}
    out = {}
    for name, (op, contribs) in plan.items():
        dt = spec["buffers"][name]["dtype"]
        out[name] = to_bytes(reduce_into(from_bytes(bufs[name], SIZE[dt]), contribs, op, dt), SIZE[dt])
    return out


def m_tma_reduce_float(spec, bufs):
    n = spec["grid"][0]
    src = [to_signed(v, 4) for v in from_bytes(bufs["src"], 4)]
    out = {}
    for name, op in [("add_f32", "add"), ("add_f16", "add"), ("add_bf16", "add"), ("min_f16", "min"),
                     ("max_bf16", "max")]:
        dt = spec["buffers"][name]["dtype"]
        cnt = len(bufs[name]) // SIZE[dt]
        contribs = [[float_bits(dt, float(src[b * 256 + i])) for i in range(cnt)] for b in range(n)]
        out[name] = to_bytes(reduce_into(from_bytes(bufs[name], SIZE[dt]), contribs, op, dt), SIZE[dt])
    return out


def m_bulk_copy(spec, bufs):
    words = scal(spec["args"][3]) // 4
    src = from_bytes(bufs["src"], 4)
    dst = [(v + 1) & 0xFFFFFFFF for v in src]
    dst2 = []
    for b in range(spec["grid"][0]):
        dst2 += [(~v) & 0xFFFFFFFF for v in dst[b * 4 * words:b * 4 * words + 2 * words]]
    return {"dst": to_bytes(dst, 4), "dst2": to_bytes(dst2, 4)}


def m_bulk_reduce(spec, bufs):
    n = spec["grid"][0]
    src32, common = from_bytes(bufs["src32"], 4), from_bytes(bufs["common"], 4)
    src64, srci = from_bytes(bufs["src64"], 8), [to_signed(v, 4) for v in from_bytes(bufs["srci"], 4)]
    a = [src32[b * 64:(b + 1) * 64] for b in range(n)]
    d = [src64[b * 64:(b + 1) * 64] for b in range(n)]

    def fl(dt):
        return [[float_bits(dt, float(srci[b * 64 + i])) for i in range(64)] for b in range(n)]

    plan = {"add_u32": ("add", a), "min_u32": ("min", a), "max_s32": ("max", a), "and_b32": ("and", a),
            "or_b32": ("or", a), "xor_b32": ("xor", a), "inc_u32": ("inc", [common] * n),
            "dec_u32": ("dec", [common] * n), "add_u64": ("add", d), "min_s64": ("min", d), "add_s64": ("add", d),
            "add_f32": ("add", fl("f32")), "add_f64": ("add", fl("f64")), "add_f16": ("add", fl("f16")),
            "add_bf16": ("add", fl("bf16")), "min_f16": ("min", fl("f16")), "max_bf16": ("max", fl("bf16"))}
    out = {}
    for name, (op, contribs) in plan.items():
        dt = spec["buffers"][name]["dtype"]
        out[name] = to_bytes(reduce_into(from_bytes(bufs[name], SIZE[dt]), contribs, op, dt), SIZE[dt])
    return out


def m_mbarrier_ops(spec, bufs):
    seq = [0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 2, 0, 0, 1, 1, 0, 0, 1, 1, 0xC0FFEE]  # [10]: FACT pending_count
    sum_b = from_bytes(bufs["sum_b"], 4)
    for w in range(4):
        for r in range(4):
            if w == 3 and r >= 1:
                continue
            arrived = 4 if r < 2 else 3
            sum_b[w * 4 + r] = sum(1000 * (v + 1) + r for v in range(arrived))
    nb = []
    for p in range(2):
        x = [t * t + p for t in range(128)]
        nb += [(x[(t + 1) % 128] + x[(t + 127) % 128]) & 0xFFFFFFFF for t in range(128)]
    return {"seq": to_bytes(seq, 4), "sum_b": to_bytes(sum_b, 4), "nb_c": to_bytes(nb, 4)}


def m_tensormap_replace(spec, bufs):
    a, b = from_bytes(bufs["a"], 4), from_bytes(bufs["b"], 4)
    out = a[:16 * 32]
    out += b[:8 * 32] + [0] * (8 * 32)
    out += b[2 * 32:8 * 32] + [0] * (10 * 32)
    return {"out": to_bytes(out, 4)}


def m_cuda_barrier_tma(spec, bufs):
    return {"dst": to_bytes([(v * 2 + 1) & 0xFFFF for v in from_bytes(bufs["src"], 2)], 2)}


def m_dsmem_exchange(spec, bufs):
    inp = from_bytes(bufs["in"], 4)
    cs = ctas(spec)
    members = {}
    for g, _, cl, r, n in cs:
        members.setdefault(cl, {})[r] = g
    N = len(cs)
    peek, peek2, inbox = [0] * (N * 128), [0] * (N * 128), [0] * (N * 16)
    count, xors, ranks = [0] * N, [0] * N, [0] * (N * 2)
    for g, _, cl, r, n in cs:
        right, left = members[cl][(r + 1) % n], members[cl][(r + n - 1) % n]
        for t in range(128):
            peek[g * 128 + t] = inp[right * 128 + (5 * t) % 128]
            peek2[g * 128 + t] = inp[left * 128 + t] ^ 0xFFFF
        for q in range(n):
            inbox[g * 16 + q] = 0x1000 * (q + 1) + r
        count[g] = n * sum(t + 1 for t in range(128)) if r == 0 else 0
        x = 0
        for q in range(n):
            x ^= 0x5A5A0000 | q
        xors[g] = x
        ranks[g * 2:g * 2 + 2] = [(r + 1) % n, (r + n - 1) % n]
    return {"peek": to_bytes(peek, 4), "peek2": to_bytes(peek2, 4), "inbox": to_bytes(inbox, 4),
            "count": to_bytes(count, 4), "xors": to_bytes(xors, 4), "ranks": to_bytes(ranks, 4)}


def m_dsmem_bulk(spec, bufs):
    inp = from_bytes(bufs["in"], 4)
    cs = ctas(spec)
    members = {}
    for g, _, cl, r, n in cs:
        members.setdefault(cl, {})[r] = g
    N = len(cs)
    recv, words, acc, racc = [0] * (N * 64), [0] * (N * 4), [0] * N, [0] * (N * 64)
    for g, _, cl, r, n in cs:
        L = (r + n - 1) % n
        gl = members[cl][L]
        for i in range(64):
            recv[g * 64 + i] = inp[gl * 64 + i]
            racc[g * 64 + i] = (inp[g * 64 + i] + inp[gl * 64 + i]) & 0xFFFFFFFF
        for t in range(4):
            words[g * 4 + t] = inp[gl * 64 + t] ^ 0xABCD0000
        acc[g] = 1000 * r + L + 7
    return {"recv": to_bytes(recv, 4), "words": to_bytes(words, 4), "acc": to_bytes(acc, 4),
            "racc": to_bytes(racc, 4)}


def m_cluster_barrier(spec, bufs):
    inp = from_bytes(bufs["in"], 4)
    cs = ctas(spec)
    members = {}
    for g, _, cl, r, n in cs:
        members.setdefault(cl, {})[r] = g
    N, n = len(cs), cs[0][4]
    steps = 2 * n
    tok = {g: inp[g * 64:(g + 1) * 64] for g, *_ in cs}
    trace = [0] * (N * steps * 64)
    for s in range(steps):
        new = {}
        for g, _, cl, r, n_ in cs:
            L = (r + n - 1) % n
            gl = members[cl][L]
            new[g] = [(tok[gl][j] * 3 + L + s) & 0xFFFFFFFF for j in range(64)]
        tok = new
        for g, *_ in cs:
            trace[(g * steps + s) * 64:(g * steps + s + 1) * 64] = tok[g]
    local = []
    for g in range(N):
        local += [sum((s + 1) * (j + 1) for s in range(steps)) & 0xFFFFFFFF for j in range(64)]
    ids = [0] * (N * 16)
    cl, gr = spec.get("cluster", [1, 1, 1]), spec["grid"]
    for g, b, _, r, n_ in cs:
        ids[g * 16:(g + 1) * 16] = ([1] + [b[d] % cl[d] for d in range(3)] + list(cl) + [b[d] // cl[d] for d in range(3)]
                                    + [gr[d] // cl[d] for d in range(3)] + [r, n_, 0])
    return {"trace": to_bytes(trace, 4), "local": to_bytes(local, 4), "ids": to_bytes(ids, 4)}


def m_multicast_pipeline(spec, bufs):
    a = from_bytes(bufs["a"], 4)
    ntiles = scal(spec["args"][1])
    cs = ctas(spec)
    copy, sums = [0] * (len(cs) * ntiles * 1024), [0] * (len(cs) * 64)
    for g, _, c, r, n in cs:
        for k in range(ntiles):
            base = 32 * (c * ntiles + k)
            copy[(g * ntiles + k) * 1024:(g * ntiles + k + 1) * 1024] = a[base * 32:(base + 32) * 32]
        for w in range(2):
            for l in range(32):
                s = 0
                for k in range(ntiles):
                    for j in range(16):
                        s += (k + r + 1) * a[(32 * (c * ntiles + k) + 16 * w + j) * 32 + l]
                sums[g * 64 + w * 32 + l] = s & 0xFFFFFFFF
    return {"copy": to_bytes(copy, 4), "sums": to_bytes(sums, 4)}


def m_elect_sync(spec, bufs):  # FACT elect_lowest
    out = [0xFFFFFFFF] * (2 * 6 * 32)
    for w in range(2):
        o = w * 6 * 32
        for l in range(32):
            out[o + l] = (0 << 8) | (l == 0)
            if (0xF0F0F0F0 >> l) & 1:
                out[o + 32 + l] = (4 << 8) | (l == 4)
            if l & 1:
                out[o + 64 + l] = (1 << 8) | (l == 1)
            out[o + 96 + l] = l
            if 8 <= l < 24:
                out[o + 128 + l] = (8 << 8) | (l == 8)
            if l >= 16:
                out[o + 160 + l] = int(l == 16)
    return {"out": to_bytes(out, 4)}


# ---- shared-memory addresses, residency (smem_addr.cu, smem_sregs.cu, coresident.cu) ----
# The H200's shared-memory address encoding and layout (docs/shared_memory.md): a 32-bit shared
# address is rank << 24 | offset; the offsets start after a 1 KiB reserve; a generic address is
# the shared window's high half over the shared address.
SMEM_RESERVE = 0x400


def saddr(rank, off):  # FACT smem_rank_bits
    return (rank & 0xFF) << 24 | (off & 0xFFFFFF)


def smem_words(rank, n, dyn_bytes, offs, dyn_off, static_bytes):
    """Words 0..39 and 54..55 of smem_addr: offs = offsets of s8, s1, s16, s128, mbar."""
    o = [0] * 64
    peer = (rank + 1) % n
    d = saddr(rank, dyn_off)
    o[0], o[1] = rank, n
    for i, off in enumerate(offs):
        o[2 + i] = saddr(rank, off)
    o[7] = o[8] = o[10] = d
    o[9] = 1
    o[12] = dyn_bytes
    o[13] = (static_bytes + dyn_bytes + 127) // 128 * 128  # FACT total_smem_size
    o[14] = SMEM_RESERVE + static_bytes + dyn_bytes  # FACT aggr_smem_size
    o[15], o[16], o[17], o[18], o[19] = 0, 0x120, 0x400, 0, 0  # FACT reserved_smem_offsets
    m = saddr(peer, dyn_off)
    o[20] = o[21] = o[23] = m
    o[24] = 1
    o[25], o[26], o[27], o[28] = rank, peer, 0, rank ^ 1
    o[29], o[30] = rank, peer
    o[31], o[32], o[33], o[34], o[35], o[36] = 1, 1, int(peer == rank), 1, int(peer == rank), 0  # FACT isspacep
    o[37] = o[38] = d
    o[39] = 1
    o[54] = rank
    o[55] = offs[3]
    return o


def m_smem_addr(spec, bufs):
    cs = ctas(spec)
    dyn = spec.get("dynamic_smem_bytes", 0)
    out = [0] * (len(cs) * 64)
    stamp = {g: 0xABC00000 | g << 8 | r for g, _, _, r, _ in cs}
    member = {(cl, r): g for g, _, cl, r, _ in cs}
    for g, _, cl, r, n in cs:
        # s8 0x400, s1 0x408, s16 0x410, s128 0x480, mbar 0x498, recv 0x4c0, dyn 0x4e0 (align 16);
        # the module's largest extern alignment is 1024 (smem_addr_a1024), so ptxas counts 1024
        # static bytes.
        o = smem_words(r, n, dyn, [0x400, 0x408, 0x410, 0x480, 0x498], 0x4E0, 1024)
        peer, left, even = (r + 1) % n, (r + n - 1) % n, r & ~1
        o[40] = stamp[member[(cl, peer)]]
        o[41] = stamp[member[(cl, even)]]
        o[42] = stamp[member[(cl, peer)]]
        o[43] = stamp[member[(cl, left)]]
        o[44] = 2 if r % 2 == 0 else 0
        if r & 1:
            o[45] = o[47] = o[52] = 2
        else:
            odd = stamp[member[(cl, r + 1)]]
            o[45], o[47], o[52] = 1, 1, 1
            o[48:52] = [odd, odd + 1, odd + 2, odd + 3]
            o[53] = odd ^ 0x5555
        o[46] = 1 if r == 0 else 2
        out[g * 64:(g + 1) * 64] = o
    return {"out": to_bytes(out, 4)}


def m_smem_addr_a1024(spec, bufs):
    cs = ctas(spec)
    dyn = spec.get("dynamic_smem_bytes", 0)
    out = [0] * (len(cs) * 64)
    for g, _, cl, r, n in cs:
        # dyn1024 (align 1024) at 0x400 + align_up(0xb8, 1024) = 0x800.
        out[g * 64:(g + 1) * 64] = smem_words(r, n, dyn, [0x400, 0x408, 0x410, 0x480, 0x498], 0x800, 1024)
    return {"out": to_bytes(out, 4)}


def m_smem_probe(spec, bufs):
    mode = scal(spec["args"][0])
    cs = ctas(spec)
    out = [0] * (len(cs) * 8)
    for g, _, cl, r, n in cs:
        o = [0] * 8
        own = saddr(r, 0x400)
        if mode == 2:  # generic load through window | (own ^ 1 << 24): the peer's stamp
            o[0] = 0x5A000000 | (r ^ 1)
        elif mode == 5:  # mapa / getctarank without range checks  # FACT mapa_no_range_check
            o[0:7] = [saddr(2, 0x400), saddr(16, 0x400), saddr(17, 0x400), saddr(255, 0x400), 0x0F, 0x1F, 0xFF]
        elif mode == 7:  # isspacep of a peer's / a non-existent rank's generic address
            o[0:6] = [0, 1, 0, 0, 1, 0]
        elif mode == 9:  # generic mbarrier.arrive by rank 1 onto rank 0's barrier
            o[0] = 1 if r == 0 else 0
        del own
        out[g * 8:(g + 1) * 8] = o
    return {"out": to_bytes(out, 4)}


def m_smem_sregs(spec, bufs):
    st = int(spec["kernel"].rsplit("_s", 1)[1])
    static_bytes = (st + 15) // 16 * 16  # the module's extern array is 16-aligned
    dyn = spec.get("dynamic_smem_bytes", 0)
    cs = ctas(spec)
    out = [0] * (len(cs) * 16)
    for g, _, cl, r, n in cs:
        o = [0] * 16
        o[0] = dyn
        o[1] = (static_bytes + dyn + 127) // 128 * 128
        o[2] = SMEM_RESERVE + static_bytes + dyn
        o[3:8] = [0, 0x120, 0x400, 0, 0]
        o[8] = saddr(r, 0x400) if st else 0
        o[9] = saddr(r, SMEM_RESERVE + static_bytes)
        o[10] = n
        out[g * 16:(g + 1) * 16] = o
    return {"out": to_bytes(out, 4)}


def m_peer_bit_tma(spec, bufs):  # each CTA g copies rows [8g, 8g + 8); every pair's leader saw both halves
    a = from_bytes(bufs["a"], 4)
    n = spec["grid"][0]
    return {"out": to_bytes(a[:n * 256], 4), "done": to_bytes([1] * (n // 2), 4)}


def m_coresident(spec, bufs):  # every CTA of a grid that fits at once sees all the others
    n = spec["grid"][0]
    return {"counter": to_bytes([n], 4), "seen": to_bytes([1] * n, 4)}


MODELS = {
    "tma_load_1d": m_tma_load, "tma_load_2d": m_tma_load, "tma_load_3d": m_tma_load, "tma_load_4d": m_tma_load,
    "tma_load_5d": m_tma_load, "tma_smem_image_2d": m_smem_image, "tma_smem_image_3d": m_smem_image,
    "tma_store_1d": m_tma_store, "tma_store_2d": m_tma_store, "tma_store_3d": m_tma_store,
    "tma_store_4d": m_tma_store, "tma_store_5d": m_tma_store, "tma_multicast": m_tma_multicast,
    "tma_pipeline": m_tma_pipeline, "tma_reduce_int": m_tma_reduce_int, "tma_reduce_float": m_tma_reduce_float,
    "bulk_copy": m_bulk_copy, "bulk_reduce": m_bulk_reduce, "mbarrier_ops": m_mbarrier_ops,
    "tensormap_replace": m_tensormap_replace, "cuda_barrier_tma": m_cuda_barrier_tma,
    "dsmem_exchange": m_dsmem_exchange, "dsmem_bulk": m_dsmem_bulk, "cluster_barrier": m_cluster_barrier,
    "multicast_pipeline": m_multicast_pipeline, "elect_sync": m_elect_sync,
    "smem_addr": m_smem_addr, "smem_addr_a1024": m_smem_addr_a1024, "smem_probe": m_smem_probe,
    "coresident": m_coresident, "peer_bit_tma": m_peer_bit_tma,
    **{f"smem_sregs_s{st}": m_smem_sregs for st in (0, 224, 1000, 1100, 3000)},
}


def golden_specs():
    """Specs whose outputs are defined: all but bad/ and the facts (whose point is the unknown)."""
    out = []
    for sub in ("tma", "tma/swizzle", "cluster"):
        d = os.path.join(KERNELS, sub)
        out += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".json")]
    return out


def expected(spec_path):
    spec = json.load(open(spec_path))
    bufs = {n: to_bytes(init_buffer(b), SIZE[b["dtype"]]) for n, b in spec["buffers"].items()}
    outs = MODELS[spec["kernel"]](spec, bufs)
    res = {}
    for name in spec["outputs"]:
        b = spec["buffers"][name]
        data = outs[name]
        n = 1
        for x in b["shape"]:
            n *= x
        assert len(data) == n * SIZE[b["dtype"]], (spec_path, name, len(data))
        res[name] = (b["dtype"], b["shape"], from_bytes(data, SIZE[b["dtype"]]))
    return res


def write_expected(spec_path, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    manifest = {"version": 1, "tool": "expect.py", "arch": "model", "spec": spec_path, "outputs": {}}
    for name, (dt, shape, vals) in expected(spec_path).items():
        write_npy(os.path.join(out_dir, name + ".npy"), dt, shape, vals)
        manifest["outputs"][name] = {"dtype": dt, "shape": shape, "file": name + ".npy"}
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


def check(spec_path, out_dir, max_shown=5):
    ok = True
    for name, (dt, shape, want) in expected(spec_path).items():
        path = os.path.join(out_dir, name + ".npy")
        if not os.path.exists(path):
            print(f"{spec_path}: {name}: missing {path}")
            ok = False
            continue
        got = read_npy(path)
        diffs = [i for i in range(len(want)) if i >= len(got) or got[i] != want[i]]
        if diffs:
            ok = False
            print(f"{spec_path}: {name}: {len(diffs)} of {len(want)} elements differ from the model")
            for i in diffs[:max_shown]:
                print(f"  [{i}] got 0x{got[i] if i < len(got) else -1:x} want 0x{want[i]:x}")
    return ok


def selftest():
    """The layout model against hand-worked values: the PTX ISA §5.5.7 swizzle tables (line r ->
    the 16-byte chunk stored at each position, digits verbatim), and a 2-D box extraction."""
    tables = {
        "32B": ["01234567", "10325476"],
        "64B": ["01234567", "10325476", "23016745", "32107654"],
        "128B": ["01234567", "10325476", "23016745", "32107654", "45670123", "54761032", "67452301", "76543210"],
        "128B_atom_32B": ["01234567", "23016745", "45670123", "67452301"],
        "128B_atom_64B": ["01234567", "45670123"],
    }
    for mode, rows in tables.items():
        for rep in range(2):  # the pattern repeats every len(rows) lines
            for r, row in enumerate(rows):
                line = rep * len(rows) + r
                for pos, ch in enumerate(row):
                    src = line * 128 + int(ch) * 16
                    assert swizzle(mode, src) == line * 128 + pos * 16, (mode, line, pos)
                    assert swizzle(mode, src + 5) == line * 128 + pos * 16 + 5, (mode, line, pos)
    # A 4x3 u16 box at (1, -1) of a 6x2 tensor with 16-byte rows (stride 16): row -1 is OOB.
    spec = {"tensor_maps": {"tm": {"buffer": "a", "dtype": "u16", "global_dims": [6, 2], "global_strides_bytes": [16],
                                   "box_dims": [4, 3]}}}
    data = to_bytes(list(range(0x100, 0x110)), 2)
    t = Tensor(spec, "tm", {"a": data})
    img = bytearray(24)
    t.load_image([1, -1], img, 0)
    assert from_bytes(img, 2) == [0, 0, 0, 0, 0x101, 0x102, 0x103, 0x104, 0x109, 0x10A, 0x10B, 0x10C], img
    # FACT narrow_box_pitch, hand-worked: an 8x4 u32 box (32 B rows) under SWIZZLE_128B puts row r at
    # r * 128 and moves its 16-byte chunk c to chunk c ^ (r % 8) of that line (§5.5.7): row 1's
    # first element at 128 + 16 = 144, row 3's element 4 (chunk 1) at 384 + (1 ^ 3) * 16 = 416.
    spec = {"tensor_maps": {"tm": {"buffer": "a", "dtype": "u32", "global_dims": [8, 4], "global_strides_bytes": [32],
                                   "box_dims": [8, 4], "swizzle": "128B"}}}
    t = Tensor(spec, "tm", {"a": to_bytes(list(range(32)), 4)})
    assert (t.pitch, t.box_bytes(), t.footprint()) == (128, 128, 512)
    img = bytearray(b"\xA5" * 512)
    t.load_image([0, 0], img, 0)
    assert from_bytes(img[144:148], 4) == [8] and from_bytes(img[416:420], 4) == [28], img
    assert img.count(0xA5) == 512 - 128  # the other 96 bytes of each line are not written
    # FACT store_16B_granules, hand-worked: a 9-wide u16 tensor (18 B rows, stride 32 B) stored from
    # a 16x1 box at (0, 0): the row's bytes 0..31 are two 16-byte chunks, both hold in-bounds
    # elements, so elements 0..15 are written; a 5-wide one (10 B) writes elements 0..7.
    for width, written in [(9, 16), (5, 8)]:
        spec = {"tensor_maps": {"tm": {"buffer": "d", "dtype": "u16", "global_dims": [width, 1],
                                       "global_strides_bytes": [32], "box_dims": [16, 1]}}}
        dst = bytearray(b"\xFF" * 32)
        Tensor(spec, "tm", {"d": dst}).store_from([0, 0], bytearray(range(32)), dst)
        assert dst == bytearray(range(2 * written)) + b"\xFF" * (32 - 2 * written), (width, dst)
    # The model against the H200's fact runs (committed under facts/results/), when present.
    results = os.path.join(HERE, "facts", "results", "h200-2026-11-30")
    if os.path.isdir(results):
        bad = facts_replay(results)
        for b in bad:
            print("expect: selftest: " + b)
        assert not bad, "the model disagrees with the H200 fact runs"
    print("expect: selftest OK")
    return 0


def footprint_verdict(spec):
    """(predicted fault?, why) of a facts/fp_* run under the settled footprint rule (README.md
    "Facts settled on the H200"): the box spans rows x pitch from its destination; the H200 faults
    when that leaves the CTA's shared memory, whose size (%total_smem_size) is the requested size
    rounded up to 128 bytes. The fact kernel puts the 1024-aligned window 1024 bytes after the start
    of the dynamic window (which is 1024-aligned on the H200: info[0] = 0x400)."""
    t = Tensor(spec, "tm", {"a": bytearray()})
    a = spec["args"]
    dst_off, image_bytes = a[3]["u32"], a[5]["u32"]
    alloc = -(-spec["dynamic_smem_bytes"] // 128) * 128
    avail = alloc - 1024
    end = dst_off + t.footprint()
    return end > avail, f"box end {end} (pitch {t.pitch}, {t.footprint() // t.pitch} rows) vs {avail} bytes"


def facts_replay(results):
    """Every facts/fp_* run in `results` against the model: fault or not as footprint_verdict
    predicts, and the image of a run that did not fault byte for byte (padded rows, swizzle on the
    absolute address, untouched sentinel bytes). Returns the disagreements."""
    bad = []
    n = 0
    for f in sorted(os.listdir(os.path.join(HERE, "facts"))):
        if not (f.startswith("fp_") and f.endswith(".json")):
            continue
        d = os.path.join(results, f[:-5])
        if not os.path.exists(os.path.join(d, "status")):
            continue
        n += 1
        spec = json.load(open(os.path.join(HERE, "facts", f)))
        faulted = open(os.path.join(d, "status")).read().split()[0] != "0"
        predicted, why = footprint_verdict(spec)
        if faulted != predicted:
            bad.append(f"{f}: the H200 {'faulted' if faulted else 'ran'}, the footprint rule says "
                       f"{'fault' if predicted else 'no fault'} ({why})")
        if not faulted:
            bufs = {k: to_bytes(init_buffer(b), SIZE[b["dtype"]]) for k, b in spec["buffers"].items()}
            want = list(m_smem_image(spec, bufs)["out"])
            if read_npy(os.path.join(d, "out.npy")) != want:
                bad.append(f"{f}: the H200's image differs from the model's")
    if n == 0:
        bad.append(f"no fact runs under {results}")
    return bad


def main(argv):
    if "--selftest" in argv:
        return selftest()
    if "--assumptions" in argv:
        for k, v in ASSUMPTIONS.items():
            print(f"{k}: {v}")
        return 0
    if "--facts" in argv:
        for k, v in FACTS.items():
            print(f"{k}: {v}")
        return 0
    if len(argv) == 2 and argv[0] == "--replay-facts":
        bad = facts_replay(argv[1])
        for b in bad:
            print(b)
        print(f"expect: fact runs under {argv[1]}: {len(bad)} disagreements with the model")
        return 1 if bad else 0
    if "--all" in argv:
        root = argv[argv.index("--check-root") + 1] if "--check-root" in argv else None
        bad = 0
        for p in golden_specs():
            rel = os.path.relpath(p, KERNELS)[:-5]
            if root:
                bad += not check(p, os.path.join(root, rel))
            else:
                expected(p)
        print(f"expect: {len(golden_specs())} golden specs modelled" + (f", {bad} differ" if root else ""))
        return 1 if bad else 0
    if len(argv) >= 3 and argv[1] == "--out":
        write_expected(argv[0], argv[2])
        return 0
    if len(argv) >= 3 and argv[1] == "--check":
        return 0 if check(argv[0], argv[2]) else 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
