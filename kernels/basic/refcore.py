"""Shared helpers for reference.py: .npy I/O, launch-spec inputs, and exact floating-point rounding.

Standard library only. Floating-point results are computed exactly with fractions.Fraction and then
rounded to the target format with an explicit rounding mode, so no host FPU mode or library is
trusted. Values are carried as raw bit patterns (ints) wherever a bit-exact comparison follows.
"""
import ast
import json
import math
import os
import struct
from fractions import Fraction

# --------------------------------------------------------------------------------------------------
# .npy files (format 1.0/2.0/3.0, little-endian, C order) — only what the launch-spec tools write.

NPY_CODES = {
    "|u1": ("B", 1), "|i1": ("b", 1), "<u2": ("H", 2), "<i2": ("h", 2), "<u4": ("I", 4),
    "<i4": ("i", 4), "<u8": ("Q", 8), "<i8": ("q", 8), "<f2": ("H", 2), "<f4": ("I", 4),
    "<f8": ("Q", 8), "|b1": ("B", 1),
}


def read_npy(path):
    """Returns (descr, shape, list of raw unsigned integers; floats are returned as their bits)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    major = data[6]
    if major == 1:
        hlen = struct.unpack_from("<H", data, 8)[0]
        off = 10
    else:
        hlen = struct.unpack_from("<I", data, 8)[0]
        off = 12
    header = ast.literal_eval(data[off:off + hlen].decode("latin1"))
    descr = header["descr"]
    if header.get("fortran_order"):
        raise ValueError(f"{path}: Fortran order not supported")
    shape = tuple(header["shape"])
    if descr not in NPY_CODES:
        raise ValueError(f"{path}: dtype {descr} not supported")
    code, size = NPY_CODES[descr]
    # unsigned codes everywhere: floats come back as bits; signed ints are re-signed by callers.
    ucode = code.upper() if code in "bhiq" else code
    count = 1
    for d in shape:
        count *= d
    body = data[off + hlen:]
    vals = list(struct.unpack_from("<%d%s" % (count, ucode), body, 0))
    return descr, shape, vals


def write_npy(path, descr, shape, values):
    """Writes raw unsigned integer values (bit patterns) with the given descr."""
    code, size = NPY_CODES[descr]
    ucode = code.upper() if code in "bhiq" else code
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{d}," for d in shape) if len(shape) == 1 else ", ".join(map(str, shape)))
    total = 10 + len(header) + 1
    pad = (64 - total % 64) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), ucode), *values))


# --------------------------------------------------------------------------------------------------
# Launch-spec dtypes (LAUNCH_SPEC.md): size in bytes and the .npy storage descriptor.

DTYPES = {
    "i8": (1, "|i1"), "u8": (1, "|u1"), "i16": (2, "<i2"), "u16": (2, "<u2"), "i32": (4, "<i4"),
    "u32": (4, "<u4"), "i64": (8, "<i8"), "u64": (8, "<u8"), "f16": (2, "<f2"), "bf16": (2, "<u2"),
    "f32": (4, "<f4"), "f64": (8, "<f8"), "e4m3": (1, "|u1"), "e5m2": (1, "|u1"),
    "e2m3": (1, "|u1"), "e3m2": (1, "|u1"), "e2m1x2": (1, "|u1"), "ue8m0": (1, "|u1"),
    "ue4m3": (1, "|u1"),
}


def to_signed(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


# --------------------------------------------------------------------------------------------------
# Binary floating-point formats and exact rounding.

class Fmt:
    """A binary format: exponent bits, explicit mantissa bits, and its special-value policy."""

    def __init__(self, name, ebits, mbits, inf=True, nan="ieee", bias=None):
        self.name, self.ebits, self.mbits = name, ebits, mbits
        self.inf = inf          # has infinities (all-ones exponent, zero mantissa)
        self.nan = nan          # "ieee": all-ones exponent; "e4m3": only S.1111.111; None: no NaN
        self.bias = bias if bias is not None else (1 << (ebits - 1)) - 1
        self.width = 1 + ebits + mbits
        self.emin = 1 - self.bias
        if inf or nan == "ieee":
            self.emax = (1 << ebits) - 2 - self.bias
            self.max_mant = (1 << mbits) - 1
        elif nan == "e4m3":
            self.emax = (1 << ebits) - 1 - self.bias
            self.max_mant = (1 << mbits) - 2
        else:
            self.emax = (1 << ebits) - 1 - self.bias
            self.max_mant = (1 << mbits) - 1

    def max_finite(self):
        return Fraction((1 << self.mbits) + self.max_mant, 1 << self.mbits) * Fraction(2) ** self.emax

    def max_finite_bits(self):
        return ((self.emax + self.bias) << self.mbits) | self.max_mant

    def inf_bits(self):
        return ((1 << self.ebits) - 1) << self.mbits

    def sign_bit(self):
        return 1 << (self.width - 1)


F64 = Fmt("f64", 11, 52)
F32 = Fmt("f32", 8, 23)
F16 = Fmt("f16", 5, 10)
BF16 = Fmt("bf16", 8, 7)
TF32 = Fmt("tf32", 8, 10)        # result stored in f32 bits with the low 13 mantissa bits zero
E4M3 = Fmt("e4m3", 4, 3, inf=False, nan="e4m3")
E5M2 = Fmt("e5m2", 5, 2)
E2M3 = Fmt("e2m3", 2, 3, inf=False, nan=None)
E3M2 = Fmt("e3m2", 3, 2, inf=False, nan=None)
E2M1 = Fmt("e2m1", 2, 1, inf=False, nan=None)

RN, RZ, RM, RP, RNA = "rn", "rz", "rm", "rp", "rna"


def is_nan_bits(fmt, b):
    e = (b >> fmt.mbits) & ((1 << fmt.ebits) - 1)
    m = b & ((1 << fmt.mbits) - 1)
    if fmt.nan == "ieee":
        return e == (1 << fmt.ebits) - 1 and m != 0
    if fmt.nan == "e4m3":
        return e == (1 << fmt.ebits) - 1 and m == (1 << fmt.mbits) - 1
    return False


def is_inf_bits(fmt, b):
    return fmt.inf and (b & ~fmt.sign_bit()) == fmt.inf_bits()


def decode(fmt, b):
    """Exact value of finite bits as a Fraction; ('nan') or ('inf', sign) otherwise. Zero keeps
    its sign through the returned tuple form ('zero', sign)."""
    s = (b >> (fmt.width - 1)) & 1
    e = (b >> fmt.mbits) & ((1 << fmt.ebits) - 1)
    m = b & ((1 << fmt.mbits) - 1)
    if is_nan_bits(fmt, b):
        return "nan"
    if is_inf_bits(fmt, b):
        return ("inf", s)
    if e == 0 and m == 0:
        return ("zero", s)
    if e == 0:
        v = Fraction(m, 1 << fmt.mbits) * Fraction(2) ** fmt.emin
    else:
        v = Fraction((1 << fmt.mbits) + m, 1 << fmt.mbits) * Fraction(2) ** (e - fmt.bias)
    return -v if s else v


def value(fmt, b):
    """Decode to Fraction for finite numbers (±0 -> 0), float('nan'/'inf') otherwise."""
    d = decode(fmt, b)
    if d == "nan":
        return math.nan
    if isinstance(d, tuple):
        if d[0] == "inf":
            return -math.inf if d[1] else math.inf
        return Fraction(0)
    return d


def _round_int(q, mode, negative):
    """Rounds a non-negative Fraction q to an integer with `mode` (the sign is `negative`)."""
    fl = q.numerator // q.denominator
    rem = q - fl
    if rem == 0:
        return fl
    if mode == RZ:
        return fl
    if mode == RM:
        return fl + 1 if negative else fl
    if mode == RP:
        return fl if negative else fl + 1
    if mode == RNA:
        return fl + 1 if rem >= Fraction(1, 2) else fl
    # RN: ties to even
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl & 1):
        return fl + 1
    return fl


def encode(fmt, q, mode=RN, sat=False, negzero=False):
    """Rounds the exact value q (Fraction; 0 uses `negzero` for its sign) to fmt's bits.
    sat: clamp overflow to ±max finite (satfinite); otherwise IEEE overflow per rounding mode,
    and for formats without infinity the overflow result is NaN (e4m3) or max finite (no NaN)."""
    neg = q < 0 or (q == 0 and negzero)
    a = -q if q < 0 else q
    sbit = fmt.sign_bit() if neg else 0
    if a == 0:
        return sbit
    # exponent of a: 2^e <= a < 2^(e+1)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, fmt.emin)
    scale = Fraction(2) ** (e - fmt.mbits)       # one ulp at this exponent
    n = _round_int(a / scale, mode, neg)         # significand in ulps
    if n >= (2 << fmt.mbits):                    # rounded up into the next binade
        e += 1
        n //= 2
    # overflow?
    biased = e + fmt.bias if n >= (1 << fmt.mbits) else 0
    over = e > fmt.emax or (e == fmt.emax and n - (1 << fmt.mbits) > fmt.max_mant)
    if over:
        to_max = sat or mode == RZ or (mode == RM and not neg) or (mode == RP and neg)
        if to_max or not fmt.inf:
            if not to_max and fmt.nan == "e4m3":
                return sbit | 0x7F
            return sbit | fmt.max_finite_bits()
        return sbit | fmt.inf_bits()
    if n < (1 << fmt.mbits):                     # subnormal (or rounded to zero)
        return sbit | n
    return sbit | (biased << fmt.mbits) | (n - (1 << fmt.mbits))


def f32_bits(x):
    """Python float (double) -> nearest f32 bits, RNE, with IEEE overflow to inf."""
    if math.isnan(x):
        return 0x7FFFFFFF
    if math.isinf(x):
        return 0xFF800000 if x < 0 else 0x7F800000
    return encode(F32, Fraction(x), RN, negzero=math.copysign(1.0, x) < 0)


def f32_val(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def f64_val(b):
    return struct.unpack("<d", struct.pack("<Q", b & 0xFFFFFFFFFFFFFFFF))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


# --------------------------------------------------------------------------------------------------
# Spec inputs

def load_spec(path):
    with open(path) as f:
        spec = json.load(f)
    spec["_dir"] = os.path.dirname(os.path.abspath(path))
    return spec


def elem_count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def initial_buffer(spec, name, outdir):
    """Initial contents of buffer `name` as raw unsigned ints: from fill/iota, or from the output
    directory when the buffer is echoed there (random inputs are listed as outputs for that)."""
    b = spec["buffers"][name]
    size, descr = DTYPES[b["dtype"]]
    n = elem_count(b["shape"])
    init = b["init"]
    if "fill" in init:
        v = init["fill"]
        return [raw_of(b["dtype"], v)] * n
    if "iota" in init:
        start, step = init["iota"].get("start", 0), init["iota"].get("step", 1)
        return [raw_of(b["dtype"], start + i * step) for i in range(n)]
    if "file" in init:
        return read_npy(os.path.join(spec["_dir"], init["file"]))[2]
    path = os.path.join(outdir, name + ".npy")
    if name in spec["outputs"] and os.path.exists(path):
        return read_npy(path)[2]
    raise LookupError(f"input {name} has a random init and is not in {outdir}")


def raw_of(dtype, v):
    """A fill/iota value (number or "0x..." string) as the raw bits of `dtype`."""
    size = DTYPES[dtype][0] * 8
    if isinstance(v, str):
        return int(v, 16) & ((1 << size) - 1)
    if dtype == "f32":
        return f32_bits(float(v))
    if dtype == "f64":
        return f64_bits(float(v))
    if dtype == "f16":
        return encode(F16, Fraction(v), RN)
    if dtype == "bf16":
        return encode(BF16, Fraction(v), RN)
    return int(v) & ((1 << size) - 1)
