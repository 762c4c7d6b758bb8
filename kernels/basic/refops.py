"""PTX instruction semantics for reference.py, on raw bit patterns (standard library only).

Floating point is exact: operands are decoded to fractions.Fraction, the exact result is rounded
once by refcore.encode. Special values follow IEEE 754 with the GPU's choices, each marked where
it is an assumption rather than a PTX ISA statement:
  * every NaN result is the canonical NaN of the format: f32 0x7FFFFFFF, f16/bf16 0x7FFF
    (docs/mma_numerics.md §3; MMA-Sim, MED confidence), f64 0x7FFFFFFFFFFFFFFF (ASSUMED by analogy);
  * .ftz flushes subnormal inputs and subnormal (after rounding) results to a zero of the same
    sign (PTX ISA "Floating point instructions"; result-side rule ASSUMED after rounding);
  * min/max: NaN operands are ignored unless both are NaN (then canonical NaN); .NaN returns the
    canonical NaN if either operand is NaN; +0.0 > -0.0 (PTX ISA min/max).
Integer helpers implement the PTX ISA pseudo-code of the instruction sections they name.
"""
import struct
from fractions import Fraction

from refcore import (BF16, F16, F32, F64, RM, RN, RP, RZ, decode, encode, is_nan_bits,
                     to_signed)

CANON_NAN = {"f32": 0x7FFFFFFF, "f16": 0x7FFF, "bf16": 0x7FFF, "f64": 0x7FFFFFFFFFFFFFFF}
FMTS = {"f32": F32, "f16": F16, "bf16": BF16, "f64": F64}


class V:
    """A decoded operand: kind in {'nan', 'inf', 'zero', 'num'}, sign (0/1), q (Fraction)."""
    __slots__ = ("kind", "sign", "q")

    def __init__(self, kind, sign, q=Fraction(0)):
        self.kind, self.sign, self.q = kind, sign, q


def dec(fmt, b, ftz=False):
    d = decode(fmt, b)
    if d == "nan":
        return V("nan", (b >> (fmt.width - 1)) & 1)
    if isinstance(d, tuple):
        return V(d[0], d[1])
    sign = 1 if d < 0 else 0
    if ftz and abs(d) < Fraction(2) ** fmt.emin:
        return V("zero", sign)
    return V("num", sign, d)


def enc(name, q, mode, negzero=False, ftz=False):
    """Rounds exact q to format `name`; ftz flushes a subnormal result to a signed zero."""
    fmt = FMTS[name]
    b = encode(fmt, q, mode, negzero=negzero)
    if ftz:
        e = (b >> fmt.mbits) & ((1 << fmt.ebits) - 1)
        if e == 0:
            b &= fmt.sign_bit()
    return b


def inf_bits(name, sign):
    fmt = FMTS[name]
    return (fmt.sign_bit() if sign else 0) | fmt.inf_bits()


def zero_bits(name, sign):
    return FMTS[name].sign_bit() if sign else 0


def sat01(name, b, sat=True):
    """.sat: clamp to [0.0, 1.0]; NaN -> +0.0, -0.0 -> +0.0 (PTX ISA "add" .sat)."""
    if not sat:
        return b
    fmt = FMTS[name]
    if is_nan_bits(fmt, b) or (b >> (fmt.width - 1)):
        return 0
    if b == fmt.inf_bits():
        return encode(fmt, Fraction(1))
    d = decode(fmt, b)
    if not isinstance(d, tuple) and d > 1:
        return encode(fmt, Fraction(1))
    return b


def _f32_fast(a, b, op):
    """f32 RN add/mul of finite operands through host doubles: the double result of a single
    +/- or * of two f32 values rounds to the same f32 as the exact result (53 >= 2*24 + 2, so
    double rounding is innocuous), and the host's double->float cast is RNE. None if an operand
    is not finite or the result overflows (the exact path handles those)."""
    if (a & 0x7F800000) == 0x7F800000 or (b & 0x7F800000) == 0x7F800000:
        return None
    x = struct.unpack("<f", struct.pack("<I", a))[0]
    y = struct.unpack("<f", struct.pack("<I", b))[0]
    r = x + y if op == "+" else (x - y if op == "-" else x * y)
    try:
        return struct.unpack("<I", struct.pack("<f", r))[0]
    except OverflowError:
        return None


def f_add(name, a, b, mode=RN, ftz=False, sat=False, negate_b=False):
    if name == "f32" and mode == RN and not ftz and not sat:
        r = _f32_fast(a, b, "-" if negate_b else "+")
        if r is not None:
            return r
    fmt = FMTS[name]
    x, y = dec(fmt, a, ftz), dec(fmt, b, ftz)
    if negate_b:
        y.sign ^= 1
        y.q = -y.q
    if x.kind == "nan" or y.kind == "nan":
        return sat01(name, CANON_NAN[name], sat)
    if x.kind == "inf" or y.kind == "inf":
        if x.kind == "inf" and y.kind == "inf" and x.sign != y.sign:
            return sat01(name, CANON_NAN[name], sat)
        s = x.sign if x.kind == "inf" else y.sign
        return sat01(name, inf_bits(name, s), sat)
    q = x.q + y.q
    if q == 0:
        if x.kind == "zero" and y.kind == "zero" and x.sign == y.sign:
            neg = bool(x.sign)
        else:
            neg = mode == RM
        return sat01(name, enc(name, Fraction(0), mode, negzero=neg, ftz=ftz), sat)
    return sat01(name, enc(name, q, mode, ftz=ftz), sat)


def f_sub(name, a, b, mode=RN, ftz=False, sat=False):
    return f_add(name, a, b, mode, ftz, sat, negate_b=True)


def f_mul(name, a, b, mode=RN, ftz=False, sat=False):
    if name == "f32" and mode == RN and not ftz and not sat:
        r = _f32_fast(a, b, "*")
        if r is not None:
            return r
    fmt = FMTS[name]
    x, y = dec(fmt, a, ftz), dec(fmt, b, ftz)
    s = x.sign ^ y.sign
    if x.kind == "nan" or y.kind == "nan":
        return sat01(name, CANON_NAN[name], sat)
    if x.kind == "inf" or y.kind == "inf":
        if x.kind == "zero" or y.kind == "zero":
            return sat01(name, CANON_NAN[name], sat)
        return sat01(name, inf_bits(name, s), sat)
    if x.kind == "zero" or y.kind == "zero":
        return sat01(name, zero_bits(name, s), sat)
    return sat01(name, enc(name, x.q * y.q, mode, ftz=ftz), sat)


def f_fma(name, a, b, c, mode=RN, ftz=False, sat=False, relu=False):
    fmt = FMTS[name]
    x, y, z = dec(fmt, a, ftz), dec(fmt, b, ftz), dec(fmt, c, ftz)
    if "nan" in (x.kind, y.kind, z.kind):
        r = CANON_NAN[name]
    elif (x.kind == "inf" and y.kind == "zero") or (x.kind == "zero" and y.kind == "inf"):
        r = CANON_NAN[name]
    elif x.kind == "inf" or y.kind == "inf":
        ps = x.sign ^ y.sign
        if z.kind == "inf" and z.sign != ps:
            r = CANON_NAN[name]
        else:
            r = inf_bits(name, ps)
    elif z.kind == "inf":
        r = inf_bits(name, z.sign)
    else:
        p = x.q * y.q
        q = p + z.q
        if q == 0:
            pzero = x.kind == "zero" or y.kind == "zero"
            ps = x.sign ^ y.sign
            if pzero and z.kind == "zero" and ps == z.sign:
                neg = bool(ps)
            else:
                neg = mode == RM
            r = enc(name, Fraction(0), mode, negzero=neg, ftz=ftz)
        else:
            r = enc(name, q, mode, ftz=ftz)
    r = sat01(name, r, sat)
    if relu:  # .relu: negative results -> +0, NaN -> canonical NaN (PTX ISA fma .relu)
        if is_nan_bits(fmt, r):
            return CANON_NAN[name]
        if r >> (fmt.width - 1):
            return 0
    return r


def f_div(name, a, b, mode=RN, ftz=False):
    fmt = FMTS[name]
    x, y = dec(fmt, a, ftz), dec(fmt, b, ftz)
    s = x.sign ^ y.sign
    if x.kind == "nan" or y.kind == "nan":
        return CANON_NAN[name]
    if x.kind == "inf":
        return CANON_NAN[name] if y.kind == "inf" else inf_bits(name, s)
    if y.kind == "inf":
        return zero_bits(name, s)
    if y.kind == "zero":
        return CANON_NAN[name] if x.kind == "zero" else inf_bits(name, s)
    if x.kind == "zero":
        return zero_bits(name, s)
    return enc(name, x.q / y.q, mode, ftz=ftz)


def f_rcp(name, a, mode=RN, ftz=False):
    one = encode(FMTS[name], Fraction(1))
    return f_div(name, one, a, mode, ftz)


def f_sqrt(name, a, mode=RN, ftz=False):
    fmt = FMTS[name]
    x = dec(fmt, a, ftz)
    if x.kind == "nan":
        return CANON_NAN[name]
    if x.kind == "zero":
        return zero_bits(name, x.sign)
    if x.sign:
        return CANON_NAN[name]
    if x.kind == "inf":
        return inf_bits(name, 0)
    return enc(name, sqrt_exact_round(fmt, x.q, mode), mode, ftz=ftz)


def sqrt_exact_round(fmt, q, mode):
    """A value whose rounding in `fmt` equals the correctly rounded sqrt(q): the floor of
    sqrt(q) at far more than the format's precision, plus a sticky bit when inexact."""
    shift = 2 * (fmt.mbits + 8 + max(0, -fmt.emin + fmt.mbits))
    num, den = q.numerator, q.denominator
    # sqrt(num/den) = sqrt(num*den)/den
    scaled = num * den << (2 * shift)
    r = isqrt(scaled)
    exact = r * r == scaled
    val = Fraction(r, den << shift)
    if not exact:
        val += Fraction(1, den << (shift + 4))  # sticky: strictly between r and r+1 ulps
    return val


def isqrt(n):
    import math
    return math.isqrt(n)


def f_minmax(name, a, b, is_max, nan_mode=False, ftz=False, xorsign_abs=False):
    fmt = FMTS[name]
    sgn = ((a ^ b) >> (fmt.width - 1)) & 1
    if xorsign_abs:
        a &= ~fmt.sign_bit()
        b &= ~fmt.sign_bit()
    x, y = dec(fmt, a, ftz), dec(fmt, b, ftz)
    an, bn = x.kind == "nan", y.kind == "nan"
    if an and bn:
        return CANON_NAN[name]
    if nan_mode and (an or bn):
        return CANON_NAN[name]
    if an:
        r = flush(fmt, b) if ftz else b
    elif bn:
        r = flush(fmt, a) if ftz else a
    else:
        ka, kb = order_key(x), order_key(y)
        pick_a = (ka > kb) if is_max else (ka < kb)
        if ka == kb:
            pick_a = True
        r = a if pick_a else b
        if ftz:
            r = flush(fmt, r)
    if xorsign_abs and not is_nan_bits(fmt, r):
        r = (r & ~fmt.sign_bit()) | (sgn << (fmt.width - 1))
    return r


def order_key(v):
    """Total order for non-NaN values with -inf < finite < +inf and -0 < +0."""
    if v.kind == "inf":
        return (1 if not v.sign else -1, Fraction(0), 0)
    if v.kind == "zero":
        return (0, Fraction(0), -1 if v.sign else 0)
    return (0, v.q, 0)


def flush(fmt, b):
    e = (b >> fmt.mbits) & ((1 << fmt.ebits) - 1)
    if e == 0:
        return b & fmt.sign_bit()
    return b


def f_cmp(name, a, b, op, ftz=False):
    """setp/set comparison on floats: eq ne lt le gt ge (ordered), equ neu ltu leu gtu geu
    (unordered), num, nan."""
    fmt = FMTS[name]
    x, y = dec(fmt, a, ftz), dec(fmt, b, ftz)
    unordered = x.kind == "nan" or y.kind == "nan"
    if op == "num":
        return not unordered
    if op == "nan":
        return unordered
    if op in ("equ", "neu", "ltu", "leu", "gtu", "geu"):
        if unordered:
            return True
        op = op[:2]
    elif unordered:
        return False
    vx, vy = value_of(x), value_of(y)
    return {"eq": vx == vy, "ne": vx != vy, "lt": vx < vy, "le": vx <= vy, "gt": vx > vy,
            "ge": vx >= vy}[op]


def value_of(v):
    """Comparable value for a non-NaN operand (zeros equal; infinities as huge)."""
    if v.kind == "zero":
        return Fraction(0)
    if v.kind == "inf":
        return Fraction(-(10 ** 400)) if v.sign else Fraction(10 ** 400)
    return v.q


def testp(name, b, prop):
    fmt = FMTS[name]
    x = dec(fmt, b)
    e = (b >> fmt.mbits) & ((1 << fmt.ebits) - 1)
    m = b & ((1 << fmt.mbits) - 1)
    return {
        "finite": x.kind in ("zero", "num"),
        "infinite": x.kind == "inf",
        "number": x.kind != "nan",
        "notanumber": x.kind == "nan",
        "normal": x.kind == "num" and e != 0,
        "subnormal": x.kind == "num" and e == 0 and m != 0,
    }[prop]


# ---------------------------------------------------------------------------------------------
# Integers (PTX ISA "Integer Arithmetic Instructions", "Logic and Shift Instructions").

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


def s32(v):
    return to_signed(v, 32)


def s64(v):
    return to_signed(v, 64)


def bfind(v, bits, signed, shiftamt=False):
    """bfind: position of the most significant non-sign bit; 0xFFFFFFFF if none."""
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v = ~v & ((1 << bits) - 1)
    if v == 0:
        return M32
    pos = v.bit_length() - 1
    return (bits - 1 - pos) if shiftamt else pos


def bfe(a, pos, length, bits, signed):
    """bfe.{u,s}{32,64} d, a, b, c: pos = b & 0xff, len = c & 0xff (PTX ISA bfe pseudo-code)."""
    pos &= 0xFF
    length &= 0xFF
    msb = bits - 1
    sbit = 0
    if signed and length != 0:
        sbit_pos = min(pos + length - 1, msb)
        sbit = (a >> sbit_pos) & 1
    d = 0
    for i in range(bits):
        if i < length and pos + i <= msb:
            d |= ((a >> (pos + i)) & 1) << i
        elif signed:
            d |= sbit << i
    return d


def bfi(a, b, pos, length, bits):
    """bfi.b{32,64} f, a, b, c, d: insert len bits of a into b at pos (pos, len = low 8 bits)."""
    pos &= 0xFF
    length &= 0xFF
    f = b
    for i in range(length):
        if pos + i > bits - 1:
            break
        bit = (a >> i) & 1
        f = (f & ~(1 << (pos + i))) | (bit << (pos + i))
    return f & ((1 << bits) - 1)


def prmt(a, b, c, mode=None):
    """prmt.b32{.mode} d, a, b, c (PTX ISA prmt table)."""
    src = [(a >> (8 * i)) & 0xFF for i in range(4)] + [(b >> (8 * i)) & 0xFF for i in range(4)]
    if mode is None:
        d = 0
        for i in range(4):
            sel = (c >> (4 * i)) & 0xF
            byte = src[sel & 7]
            if sel & 8:  # sign-replicate
                byte = 0xFF if byte & 0x80 else 0
            d |= byte << (8 * i)
        return d
    n = c & 3
    tables = {
        "f4e": [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
        "b4e": [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
        "rc8": [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        "ecl": [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
        "ecr": [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
        "rc16": [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
    }
    sels = tables[mode][n]
    return sum(src[s] << (8 * i) for i, s in enumerate(sels))


def shf(a, b, n, left, clamp):
    """shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel of b:a (b high)."""
    n = min(n, 32) if clamp else n & 31
    x = ((b & M32) << 32) | (a & M32)
    if left:
        return ((x << n) >> 32) & M32
    return (x >> n) & M32


def popc(v):
    return bin(v).count("1")


def clz(v, bits):
    v &= (1 << bits) - 1
    return bits - v.bit_length()


def brev(v, bits):
    return int(format(v & ((1 << bits) - 1), f"0{bits}b")[::-1], 2)


def fns(mask, base, offset):
    """fns.b32 d, mask, base, offset (PTX ISA fns pseudo-code)."""
    mask &= M32
    base &= 31
    offset = s32(offset)
    if offset == 0:
        return base if (mask >> base) & 1 else M32
    count = 0
    if offset > 0:
        for pos in range(base, 32):
            if (mask >> pos) & 1:
                count += 1
                if count == offset:
                    return pos
    else:
        for pos in range(base, -1, -1):
            if (mask >> pos) & 1:
                count += 1
                if count == -offset:
                    return pos
    return M32


def bmsk(a, b, clamp):
    """bmsk.{clamp,wrap}.b32 d, a, b: b ones starting at bit a."""
    if clamp:
        pos, width = min(a, 32), min(b, 32)
    else:
        pos, width = a & 31, b & 31
    return (((1 << width) - 1) << pos) & M32 if pos < 32 else 0


def szext(a, b, signed, clamp):
    """szext.{clamp,wrap}.{s32,u32} d, a, b: keep the low b bits of a, sign- or zero-extended."""
    w = min(b, 32) if clamp else b & 31
    if w == 0:
        return 0
    if w >= 32:
        return a & M32
    v = a & ((1 << w) - 1)
    if signed and v >> (w - 1):
        v -= 1 << w
    return v & M32


def dp4a(a, b, c, a_signed, b_signed):
    acc = s32(c) if (a_signed or b_signed) else c
    for i in range(4):
        x = (a >> (8 * i)) & 0xFF
        y = (b >> (8 * i)) & 0xFF
        if a_signed:
            x = to_signed(x, 8)
        if b_signed:
            y = to_signed(y, 8)
        acc += x * y
    return acc & M32


def dp2a(a, b, c, a_signed, b_signed, hi):
    acc = s32(c) if (a_signed or b_signed) else c
    for i in range(2):
        x = (a >> (16 * i)) & 0xFFFF
        y = (b >> (8 * (i + (2 if hi else 0)))) & 0xFF
        if a_signed:
            x = to_signed(x, 16)
        if b_signed:
            y = to_signed(y, 8)
        acc += x * y
    return acc & M32


def sat_s32(v):
    return max(-(1 << 31), min((1 << 31) - 1, v)) & M32


def shl(a, n, bits):
    return 0 if n >= bits else (a << n) & ((1 << bits) - 1)


def shr(a, n, bits, signed):
    if signed:
        v = to_signed(a, bits)
        return (v >> min(n, bits - 1)) & ((1 << bits) - 1)
    return 0 if n >= bits else (a & ((1 << bits) - 1)) >> n


def div_trunc(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def rem_trunc(a, b):
    return a - div_trunc(a, b) * b
