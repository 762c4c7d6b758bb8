#!/usr/bin/env python3
"""Checks the outputs of a kernels/hopper launch against the mathematics the kernel is meant to
compute, independently of tcsim: the inputs are regenerated from the spec with the launch-spec
generator (docs/launch_spec.md, "Initialisation": splitmix64 draws, RN encoding), the expected
result is computed in exact or double-precision arithmetic, and the output directory written by
`tcsim-hw run` or `tcsim run` is compared with it.

This is the semantic judge that complements `tcsim diff` (which only says that two runs agree):
run it on the H200 outputs once, and a layout, descriptor or fragment mistake *in the kernel
itself* shows up as FAIL instead of being faithfully reproduced by the simulator.

  integer and b1 results, ldmatrix/stmatrix/movmatrix, cp.async    exact
  floating-point results     |got - exact| <= tol * sqrt(sum of squared terms) + tiny, per element,
                             tol by accumulator (f32 2^-12, fp8 into f32 2^-8, f16 2^-6); a
                             misplaced operand element moves a result by ~ its term, far above tol
  data "small" (subnormal inputs, flushing unspecified) and overflowing "wide" elements: INFO only

Usage:  reference.py SPEC.json OUT_DIR [SPEC.json OUT_DIR ...]
        reference.py --self-test
Exit 0 when nothing FAILs. Standard library only (no numpy).
"""
import ast
import json
import math
import os
import re
import struct
import sys

M64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


# ---- the launch-spec generator (docs/launch_spec.md) ------------------------------------------------
def mix64(z):
    z &= M64
    z ^= z >> 30
    z = (z * 0xBF58476D1CE4E5B9) & M64
    z ^= z >> 27
    z = (z * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def key(seed, i):
    return mix64(seed + (i + 1) * GOLDEN)


def draw(seed, i, k=0):
    return mix64(key(seed, i) + (k + 1) * GOLDEN)


def unit(x):
    return (x >> 11) * 2.0 ** -53


# ---- number formats -----------------------------------------------------------------------------------
class Fmt:
    def __init__(self, ebits, mbits, has_inf, max_finite):
        self.e, self.m, self.has_inf, self.max = ebits, mbits, has_inf, max_finite
        self.bias = (1 << (ebits - 1)) - 1
        self.bits = 1 + ebits + mbits

    def decode(self, code):
        s = -1.0 if code >> (self.e + self.m) & 1 else 1.0
        ef = (code >> self.m) & ((1 << self.e) - 1)
        mf = code & ((1 << self.m) - 1)
        if ef == (1 << self.e) - 1:
            if self.has_inf:
                return s * math.inf if mf == 0 else math.nan
            if mf == (1 << self.m) - 1:  # e4m3: S.1111.111 is the only NaN
                return math.nan
        if ef == 0:
            return s * mf * 2.0 ** (1 - self.bias - self.m)
        return s * (1 + mf * 2.0 ** -self.m) * 2.0 ** (ef - self.bias)

    def encode(self, v):
        """Round to nearest even, saturating to the largest finite value (the generator's rule)."""
        sign = 1 if (v < 0 or (v == 0 and math.copysign(1.0, v) < 0)) else 0
        a = min(abs(v), self.max)
        if a == 0:
            return sign << (self.e + self.m)
        _, ex = math.frexp(a)
        exp = max(ex - 1, 1 - self.bias)
        q = 2.0 ** (exp - self.m)
        r = round(a / q)  # exact quotient; Python rounds halves to even
        if r == 1 << (self.m + 1):
            exp, r = exp + 1, r >> 1
        if r * 2.0 ** (exp - self.m) > self.max:
            return self.encode(math.copysign(self.max, -1.0 if sign else 1.0))
        if r < 1 << self.m:
            return (sign << (self.e + self.m)) | r
        return (sign << (self.e + self.m)) | ((exp + self.bias) << self.m) | (r - (1 << self.m))


FMT = {"f16": Fmt(5, 10, True, 65504.0), "bf16": Fmt(8, 7, True, 3.3895313892515355e38),
       "e4m3": Fmt(4, 3, False, 448.0), "e5m2": Fmt(5, 2, True, 57344.0),
       "f32": Fmt(8, 23, True, 3.4028234663852886e38)}
INT_RANGE = {"i8": (-128, 127), "u8": (0, 255), "i16": (-2 ** 15, 2 ** 15 - 1), "u16": (0, 2 ** 16 - 1),
             "i32": (-2 ** 31, 2 ** 31 - 1), "u32": (0, 2 ** 32 - 1)}
BYTES = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
         "e4m3": 1, "e5m2": 1}


def f64_bits_of(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def init_codes(b):
    """The raw element codes of a buffer (list of ints), as the generator writes them."""
    dt, n = b["dtype"], 1
    for s in b["shape"]:
        n *= s
    init = b.get("init", {"fill": 0})
    form, p = next(iter(init.items()))
    nbits = 8 * BYTES[dt]
    if form == "fill":
        if isinstance(p, str):
            return [int(p, 16)] * n
        return [encode_value(dt, p)] * n
    if form != "random":
        raise ValueError(f"init {form} not supported by reference.py")
    seed, dist = p["seed"], p["dist"]
    if dist == "bits":
        return [draw(seed, i) & ((1 << nbits) - 1) for i in range(n)]
    if dist != "uniform":
        raise ValueError("only uniform and bits random inits are used in kernels/hopper")
    lo, hi = p.get("low", 0), p.get("high", 1)
    if dt in INT_RANGE:
        span = hi - lo + 1
        return [(lo + ((draw(seed, i) * span) >> 64)) & ((1 << nbits) - 1) for i in range(n)]
    return [encode_value(dt, lo + (hi - lo) * unit(draw(seed, i))) for i in range(n)]


def encode_value(dt, v):
    if dt in INT_RANGE:
        return int(v) & ((1 << (8 * BYTES[dt])) - 1)
    if dt == "f64":
        return f64_bits_of(float(v))
    return FMT[dt].encode(float(v))


def decode_value(dt, code):
    if dt in INT_RANGE:
        bits = 8 * BYTES[dt]
        return code - (1 << bits) if dt[0] == "i" and code >> (bits - 1) else code
    if dt == "f64":
        return struct.unpack("<d", struct.pack("<Q", code))[0]
    return FMT[dt].decode(code)


# ---- .npy (format 1.0) ----------------------------------------------------------------------------------
NPY_CODES = {"<f2": ("e", 2), "<f4": ("f", 4), "<f8": ("d", 8), "|u1": ("B", 1), "<u1": ("B", 1), "|i1": ("b", 1),
             "<u2": ("H", 2), "<i2": ("h", 2), "<u4": ("I", 4), "<i4": ("i", 4), "<u8": ("Q", 8), "<i8": ("q", 8)}


def read_npy_codes(path):
    """Raw element codes (unsigned ints of the storage width) of an .npy file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not an .npy file")
    hlen = struct.unpack("<H", data[8:10])[0] if data[6] == 1 else struct.unpack("<I", data[8:12])[0]
    start = 10 + hlen if data[6] == 1 else 12 + hlen
    header = ast.literal_eval(data[start - hlen:start].decode("latin1"))
    ch, size = NPY_CODES[header["descr"]]
    n = (len(data) - start) // size
    unsigned = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
    return list(struct.unpack(f"<{n}{unsigned}", data[start:start + n * size]))


def write_npy_codes(path, codes, descr):
    ch, size = NPY_CODES[descr]
    unsigned = {1: "B", 2: "H", 4: "I", 8: "Q"}[size]
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({len(codes)},), }}"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack(f"<{len(codes)}{unsigned}", *codes))


def storage_descr(dt):
    return {"f16": "<f2", "bf16": "<u2", "f32": "<f4", "f64": "<f8", "i32": "<i4", "u32": "<u4", "u16": "<u2",
            "u8": "|u1", "i8": "|i1", "e4m3": "|u1", "e5m2": "|u1"}[dt]


def output_values(spec, out_dir, name):
    dt = spec["buffers"][name]["dtype"]
    codes = read_npy_codes(os.path.join(out_dir, f"{name}.npy"))
    return [decode_value(dt, c) for c in codes], codes


# ---- expected values ------------------------------------------------------------------------------------
class Result:
    def __init__(self, name):
        self.name, self.checked, self.failed, self.info, self.worst, self.first = name, 0, 0, 0, 0.0, None

    def close(self, idx, got, exact, scale, tol, info=False):
        if info:
            self.info += 1
            return
        self.checked += 1
        if math.isnan(got) or math.isinf(got):
            err = math.inf
        else:
            err = abs(got - exact)
        bound = tol * scale + 1e-30
        ratio = err / bound if bound > 0 else (0.0 if err == 0 else math.inf)
        self.worst = max(self.worst, ratio)
        if err > bound:
            self.failed += 1
            if self.first is None:
                self.first = f"{self.name}[{idx}]: got {got!r}, expected {exact!r} (+- {bound:.3g})"

    def exact(self, idx, got, expected):
        self.checked += 1
        if got != expected:
            self.failed += 1
            if self.first is None:
                self.first = f"{self.name}[{idx}]: got {got!r}, expected {expected!r}"


def operand_values(b, atype):
    """Operand element values; tf32 operands have their low 13 mantissa bits dropped (§9.7.15.5.2)."""
    codes = init_codes(b)
    if atype == "tf32":
        return [decode_value("f32", c & ~0x1FFF) for c in codes]
    return [decode_value(b["dtype"], c) for c in codes]


def wrap32(v):
    return ((v + 2 ** 31) % 2 ** 32) - 2 ** 31


TOL = {"f32": 2.0 ** -12, "f16": 2.0 ** -6}


def check_wgmma(spec, out_dir):
    m = re.match(r"wgmma_(f32|f16|s32)_(\w+?)_(\w+?)_n(\d+)$", spec["kernel"])
    m_b1 = re.match(r"wgmma_s32_b1_and_n(\d+)$", spec["kernel"])
    bufs, args = spec["buffers"], spec["args"]
    flags, ksteps = args[6]["u32"], args[7]["u32"]
    data = spec.get("comment", "")
    res = Result("D")
    got, _ = output_values(spec, out_dir, "D")
    if m_b1:
        n = int(m_b1.group(1))
        a, bb = init_codes(bufs["A"]), init_codes(bufs["B"])
        c = [decode_value("i32", x) for x in init_codes(bufs["C"])]
        kb = 32 * ksteps
        for r in range(64):
            for j in range(n):
                s = sum(bin(a[r * kb + x] & bb[j * kb + x]).count("1") for x in range(kb))
                res.exact(r * n + j, got[r * n + j], wrap32((c[r * n + j] if flags & 1 else 0) + s))
        return res
    dt, at, bt, n = m.group(1), m.group(2), m.group(3), int(m.group(4))
    a, b = operand_values(bufs["A"], at), operand_values(bufs["B"], bt)
    cdt = bufs["C"]["dtype"]
    c = [decode_value(cdt, x) for x in init_codes(bufs["C"])]
    kel = bufs["A"]["shape"][1]
    sa = -1 if flags & 2 else 1
    sb = -1 if flags & 4 else 1
    for r in range(64):
        for j in range(n):
            terms = [a[r * kel + k] * b[j * kel + k] for k in range(kel)]
            cc = c[r * n + j] if flags & 1 else 0
            i = r * n + j
            if dt == "s32":
                s = cc + sa * sb * sum(int(t) for t in terms)
                exp = max(-2 ** 31, min(2 ** 31 - 1, s)) if flags & 16 else wrap32(s)
                res.exact(i, got[i], exp)
                continue
            exact = cc + sa * sb * math.fsum(terms)
            scale = math.sqrt(math.fsum(t * t for t in terms) + cc * cc)
            tol = TOL[dt] if at not in ("e4m3", "e5m2") or dt == "f16" else 2.0 ** -8
            big = dt == "f16" and math.fsum(abs(t) for t in terms) + abs(cc) > 60000
            res.close(i, got[i], exact, scale, tol, info=("data small" in data) or big)
    return res


MMA_BITS = {"s4": 4, "u4": 4, "b1": 1}


def unpack(codes, t, row_bytes, rows):
    """Sub-byte operands: elements along K, lowest bits of each byte first."""
    bits = MMA_BITS[t]
    out = []
    for r in range(rows):
        for byte in codes[r * row_bytes:(r + 1) * row_bytes]:
            for e in range(8 // bits):
                v = (byte >> (e * bits)) & ((1 << bits) - 1)
                out.append(v - 16 if t == "s4" and v >= 8 else v)
    return out


def check_mma(spec, out_dir):
    m = re.match(r"mma_m(\d+)n8k(\d+)_(f32|f16|s32|f64)_(\w+?)_(\w+?)_(f32|f16|s32|f64)(_satfinite)?(?:_(and|xor)_popc)?$",
                 spec["kernel"])
    mm, dt, at, bt = int(m.group(1)), m.group(3), m.group(4), m.group(5)
    sat, bitop = bool(m.group(7)), m.group(8)
    bufs = spec["buffers"]
    rows = 4 * mm
    res = Result("D")
    got, _ = output_values(spec, out_dir, "D")
    c = [decode_value(bufs["C"]["dtype"], x) for x in init_codes(bufs["C"])]
    if at in MMA_BITS:
        rb = bufs["A"]["shape"][1]
        a, b = unpack(init_codes(bufs["A"]), at, rb, rows), unpack(init_codes(bufs["B"]), bt, rb, 8)
        kel = rb * 8 // MMA_BITS[at]
    else:
        a, b = operand_values(bufs["A"], at), operand_values(bufs["B"], bt)
        kel = bufs["A"]["shape"][1]
    for r in range(rows):
        for j in range(8):
            i = r * 8 + j
            if bitop:
                op = (lambda x, y: x & y) if bitop == "and" else (lambda x, y: x ^ y)
                s = sum(op(a[r * kel + k], b[j * kel + k]) for k in range(kel))
                res.exact(i, got[i], wrap32(c[i] + s))
                continue
            terms = [a[r * kel + k] * b[j * kel + k] for k in range(kel)]
            if dt == "s32":
                s = c[i] + sum(int(t) for t in terms)
                res.exact(i, got[i], max(-2 ** 31, min(2 ** 31 - 1, s)) if sat else wrap32(s))
                continue
            exact = c[i] + math.fsum(terms)
            scale = math.sqrt(math.fsum(t * t for t in terms) + c[i] * c[i])
            # tf32 through mma.sync: the PTX ISA does not say whether the low 13 bits are truncated
            # (as for wgmma) or rounded, so the tolerance admits either (2^-10 per operand).
            tol = {"f64": 2.0 ** -40, "f32": 2.0 ** -12 if at not in ("e4m3", "e5m2", "tf32") else 2.0 ** -8,
                   "f16": 2.0 ** -6}[dt]
            big = dt == "f16" and math.fsum(abs(t) for t in terms) + abs(c[i]) > 60000
            res.close(i, got[i], exact, scale, tol, info=big)
    return res


def sample_positions(m, n, count=1536):
    """A fixed spread of (row, col) positions: every tile corner region plus pseudo-random ones."""
    pos = set()
    for r in (0, 1, 63, 64, 127, m - 1):
        for cc in (0, 7, 8, 63, 64, n - 1):
            if r < m and cc < n:
                pos.add((r, cc))
    i = 0
    while len(pos) < min(count, m * n):
        x = draw(12345, i)
        pos.add(((x >> 32) % m, (x & 0xFFFFFFFF) % n))
        i += 1
    return sorted(pos)


def check_gemm(spec, out_dir):
    bufs, k = spec["buffers"], spec["kernel"]
    if "_ws" in k:
        mm, nn, kk = (x["u32"] for x in spec["args"][4:7])
        b_mn = k.endswith("_bmn")
    else:
        mm, nn, kk = (x["u32"] for x in spec["args"][3:6])
        b_mn = k.endswith("_nn")
    at = bufs["A"]["dtype"]
    a, b = operand_values(bufs["A"], at), operand_values(bufs["B"], at)
    got, _ = output_values(spec, out_dir, "D")
    ddt = bufs["D"]["dtype"]
    res = Result("D")
    tol = 2.0 ** -12 if at != "e4m3" else 2.0 ** -6
    if ddt == "bf16":
        tol = 2.0 ** -7
    for r, cc in sample_positions(mm, nn):
        if b_mn:
            terms = [a[r * kk + x] * b[x * nn + cc] for x in range(kk)]
        else:
            terms = [a[r * kk + x] * b[cc * kk + x] for x in range(kk)]
        exact = math.fsum(terms)
        scale = math.sqrt(math.fsum(t * t for t in terms))
        res.close(r * nn + cc, got[r * nn + cc], exact, scale + (abs(exact) if ddt == "bf16" else 0.0), tol)
    return res


def expected_ldst(spec):
    X = init_codes(spec["buffers"]["X"])
    Y = init_codes(spec["buffers"]["Y"])
    Z = init_codes(spec["buffers"]["Z"])
    pitch = 72
    tile = [[(X[r * 64 + c] if c < 64 else 0) for c in range(pitch)] for r in range(64)]
    ld = []
    for v in range(6):
        nmat, trans = 1 << (v // 2), v & 1

        def matrix(j):  # 8x8 elements of matrix j: the rows lanes 8j..8j+7 point at
            rows = []
            for rr in range(8):
                lane = 8 * j + rr
                mi, r = lane // 8, lane % 8
                row, col = (8 * mi + 5 * r + 3 * v) % 64, 8 * ((mi + v) % 8)
                rows.append(tile[row][col:col + 8])
            return rows
        for t in range(32):
            for j in range(4):
                if j >= nmat:
                    ld.append(0)
                    continue
                mat = matrix(j)
                r, cpair = t // 4, 2 * (t % 4)
                if trans:  # element (2(t%4)+i, t/4)
                    lo, hi = mat[cpair][r], mat[cpair + 1][r]
                else:
                    lo, hi = mat[r][cpair], mat[r][cpair + 1]
                ld.append(lo | (hi << 16))
    st = []
    for v in range(6):
        nmat, trans = 1 << (v // 2), v & 1
        stage = [[0] * pitch for _ in range(32)]
        for j in range(nmat):
            mat = [[0] * 8 for _ in range(8)]  # the 8x8 matrix the registers hold
            for t in range(32):
                reg = Y[(v * 32 + t) * 4 + j]
                r, cpair = t // 4, 2 * (t % 4)
                mat[r][cpair], mat[r][cpair + 1] = reg & 0xFFFF, reg >> 16
            if trans:
                mat = [[mat[c][r] for c in range(8)] for r in range(8)]
            for rr in range(8):
                lane = 8 * j + rr
                mi, r = lane // 8, lane % 8
                row, col = (8 * mi + 3 * r + v) % 32, 8 * ((2 * mi + v) % 8)
                stage[row][col:col + 8] = mat[rr]
        st += [x for row in stage for x in row]
    mov = []
    mat = [[0] * 8 for _ in range(8)]
    for t in range(32):
        r, cpair = t // 4, 2 * (t % 4)
        mat[r][cpair], mat[r][cpair + 1] = Z[t] & 0xFFFF, Z[t] >> 16
    for t in range(32):
        r, cpair = t // 4, 2 * (t % 4)
        mov.append(mat[cpair][r] | (mat[cpair + 1][r] << 16))
    return {"ld_out": ld, "st_out": st, "mov_out": mov}


def expected_cp_async(spec):
    src = init_codes(spec["buffers"]["src"])
    out = [[0] * 2048 for _ in range(6)]
    for t in range(128):
        out[0][16 * t:16 * t + 16] = src[16 * t:16 * t + 16]
        out[1][16 * t:16 * t + 8] = src[2048 + 16 * t + 8:2048 + 16 * t + 16]
        out[1][16 * t + 8:16 * t + 16] = src[2048 + 16 * t:2048 + 16 * t + 8]
        for i in range(4):
            s0 = 4096 + 16 * ((7 * t) % 128) + 4 * (3 - i)
            out[2][16 * t + 4 * i:16 * t + 4 * i + 4] = src[s0:s0 + 4]
        n = 0 if t % 5 == 0 else t % 17
        out[3][16 * t:16 * t + 16] = src[6144 + 16 * t:6144 + 16 * t + n] + [0] * (16 - n)
        s0 = 16 * ((t + 1) % 128)
        out[4][16 * t:16 * t + 16] = src[s0:s0 + 16]
        s0 = 2048 + 16 * (127 - t)
        out[5][16 * t:16 * t + 16] = src[s0:s0 + 16]
    return {"out": [x for region in out for x in region]}


def check_exact_outputs(spec, out_dir, expected):
    results = []
    for name, exp in expected.items():
        res = Result(name)
        _, codes = output_values(spec, out_dir, name)
        if len(codes) != len(exp):
            res.checked, res.failed, res.first = 1, 1, f"{name}: {len(codes)} elements, expected {len(exp)}"
        else:
            for i, (g, e) in enumerate(zip(codes, exp)):
                res.exact(i, g, e)
        results.append(res)
    return results


def check(spec_path, out_dir):
    spec = json.load(open(spec_path))
    k = spec["kernel"]
    if k.startswith("wgmma_"):
        return [check_wgmma(spec, out_dir)]
    if k.startswith("mma_"):
        return [check_mma(spec, out_dir)]
    if k.startswith("gemm_"):
        return [check_gemm(spec, out_dir)]
    if k == "ldst_matrix":
        return check_exact_outputs(spec, out_dir, expected_ldst(spec))
    if k == "cp_async_groups":
        return check_exact_outputs(spec, out_dir, expected_cp_async(spec))
    raise ValueError(f"{spec_path}: no reference for kernel {k}")


def report(spec_path, results):
    bad = any(r.failed for r in results)
    status = "FAIL" if bad else ("INFO" if all(r.checked == 0 for r in results) else "PASS")
    parts = [f"{r.name}: {r.checked - r.failed}/{r.checked} ok" + (f", {r.info} info-only" if r.info else "") +
             (f", worst {r.worst:.2g} of tolerance" if r.worst else "") for r in results]
    print(f"{status} {spec_path}: " + "; ".join(parts))
    for r in results:
        if r.first:
            print(f"     first difference {r.first}")
    return not bad


# ---- self-test ------------------------------------------------------------------------------------------
def self_test():
    import tempfile
    here = os.path.dirname(os.path.abspath(__file__))
    ok = True

    def expect(cond, what):
        nonlocal ok
        if not cond:
            ok = False
            print(f"self-test FAIL: {what}")

    # Pinned generator values (docs/launch_spec.md; tools/spec tests of tcsim: splitmix64's sequence).
    expect([key(1234567, i) for i in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423],
           "key(1234567, i)")
    expect([draw(42, i) for i in range(4)] == [0x57e1faba65107204, 0xfc991bca1a1aa1ae, 0x0018a66858653d4b,
                                               0x3304d23db2a8b503], "draw(42, i, 0)")
    u8 = {"dtype": "u8", "shape": [6], "init": {"random": {"seed": 7, "dist": "uniform", "low": 0, "high": 255}}}
    expect(init_codes(u8) == [184, 130, 156, 174, 186, 110], "uniform u8 seed 7")
    i16 = {"dtype": "i16", "shape": [8], "init": {"random": {"seed": 7, "dist": "uniform", "low": -3, "high": 3}}}
    expect([decode_value("i16", c) for c in init_codes(i16)] == [2, 0, 1, 1, 2, 0, 3, 2], "uniform i16 seed 7")
    f32 = {"dtype": "f32", "shape": [4], "init": {"random": {"seed": 3, "dist": "uniform", "low": -2, "high": 2}}}
    expect(init_codes(f32) == [0x3f7337f6, 0xbf09bcb6, 0xbe3b9015, 0xbe520b2a], "uniform f32 seed 3")
    # Formats: RN ties to even, saturation, subnormals, against hand-worked codes.
    expect(FMT["bf16"].encode(1.0 + 2 ** -8) == 0x3F80, "bf16 tie to even down")
    expect(FMT["bf16"].encode(1.0 + 3 * 2 ** -8) == 0x3F82, "bf16 tie to even up")
    expect(FMT["e4m3"].encode(448.0) == 0x7E and FMT["e4m3"].encode(500.0) == 0x7E, "e4m3 max / saturation")
    expect(FMT["e4m3"].encode(2 ** -9) == 0x01 and FMT["e4m3"].decode(0x01) == 2 ** -9, "e4m3 min subnormal")
    expect(FMT["e5m2"].encode(-57344.0) == 0xFB and math.isinf(FMT["e5m2"].decode(0x7C)), "e5m2 max, inf")
    expect(FMT["f16"].encode(65504.0) == 0x7BFF and FMT["f16"].encode(2 ** -24) == 0x0001, "f16 max, subnormal")
    for code in range(256):  # e4m3 / e5m2 round trip of every finite code
        for name in ("e4m3", "e5m2"):
            v = FMT[name].decode(code)
            if math.isfinite(v) and not (v == 0 and code & 0x80):
                expect(FMT[name].encode(v) == code, f"{name} round trip {code:#x}")
    for v in (1.0, -2.5, 3.1415926, 1e-7, 65000.0):
        expect(FMT["f16"].encode(v) == struct.unpack("<H", struct.pack("<e", v))[0], f"f16 encode {v}")
        expect(FMT["f32"].encode(v) == struct.unpack("<I", struct.pack("<f", v))[0], f"f32 encode {v}")

    # The checkers themselves: a fabricated correct output passes, a layout-broken one fails.
    def fabricate(spec_rel, mutate):
        spec_path = os.path.join(here, spec_rel)
        spec = json.load(open(spec_path))
        with tempfile.TemporaryDirectory() as d:
            for name in spec["outputs"]:
                dt = spec["buffers"][name]["dtype"]
                exp = fabricate_expected(spec, name)
                codes = [encode_value(dt, v) if dt not in INT_RANGE else v & ((1 << 8 * BYTES[dt]) - 1)
                         for v in exp]
                write_npy_codes(os.path.join(d, f"{name}.npy"), mutate(codes), storage_descr(dt))
            return all(not r.failed for r in check(spec_path, d))

    def fabricate_expected(spec, name):
        # Reuse the checker's arithmetic: exact sums rounded into the output format.
        bufs = spec["buffers"]
        if spec["kernel"] == "ldst_matrix":
            return expected_ldst(spec)[name]
        if spec["kernel"] == "cp_async_groups":
            return expected_cp_async(spec)[name]
        m = re.match(r"wgmma_(f32|f16|s32)_(\w+?)_(\w+?)_n(\d+)$", spec["kernel"])
        n = int(m.group(4))
        a, b = operand_values(bufs["A"], m.group(2)), operand_values(bufs["B"], m.group(3))
        c = [decode_value(bufs["C"]["dtype"], x) for x in init_codes(bufs["C"])]
        kel, flags = bufs["A"]["shape"][1], spec["args"][6]["u32"]
        out = []
        for r in range(64):
            for j in range(n):
                s = math.fsum(a[r * kel + k] * b[j * kel + k] for k in range(kel))
                out.append((c[r * n + j] if flags & 1 else 0) + s)
        if m.group(1) == "s32":
            out = [int(x) for x in out]
        return out

    swap_rows = lambda codes: codes[8:16] + codes[0:8] + codes[16:]  # noqa: E731
    for spec_rel in ("specs/wgmma/wgmma_f32_bf16_bf16_n64__base.json",
                     "specs/wgmma/wgmma_s32_s8_s8_n64__base.json",
                     "specs/misc/ldst_matrix__seed1.json", "specs/misc/cp_async_groups__seed1.json"):
        expect(fabricate(spec_rel, lambda c: c), f"{spec_rel}: the exact result passes")
        expect(not fabricate(spec_rel, swap_rows), f"{spec_rel}: a permuted result fails")
    print("reference self-test: " + ("OK" if ok else "FAILED"))
    return ok


def main(argv):
    if argv == ["--self-test"]:
        return 0 if self_test() else 1
    if not argv or len(argv) % 2:
        print(__doc__)
        return 2
    good = True
    for spec_path, out_dir in zip(argv[0::2], argv[1::2]):
        try:
            good &= report(spec_path, check(spec_path, out_dir))
        except (OSError, ValueError, KeyError) as e:
            print(f"FAIL {spec_path}: {e}")
            good = False
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
