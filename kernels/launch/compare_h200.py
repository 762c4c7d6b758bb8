#!/usr/bin/env python3
"""Compares a tcsim output directory with an H200 golden where the GPU's printf output holds
values CUDA leaves undefined (docs/printf.md "What the GPU leaves undefined").

  compare_h200.py GOLDEN_DIR OUT_DIR [--undefined REGEX]...

Every .npy of the golden must equal OUT_DIR's byte for byte. printf.txt is compared as a multiset of
lines (the GPU's order across threads is not fixed); in each line, on both sides, every match of
each REGEX is replaced by "<undefined>" first: the regexes name exactly the fields the GPU prints
from an uninitialised host register. Exit 0: the same; 1: different; 2: bad input.
"""
import collections
import os
import re
import sys


def npy_data(path):
    d = open(path, "rb").read()
    if d[:6] != b"\x93NUMPY":
        raise SystemExit(f"{path}: not a .npy file")
    hl = int.from_bytes(d[8:10], "little") if d[6] == 1 else int.from_bytes(d[8:12], "little")
    return d[(10 if d[6] == 1 else 12) + hl:]


def main(argv):
    args, undefined = [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--undefined":
            undefined.append(re.compile(argv[i + 1].encode()))
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 2:
        print(__doc__)
        return 2
    golden, out = args
    ok = True
    for f in sorted(os.listdir(golden)):
        if f.endswith(".npy"):
            if not os.path.exists(os.path.join(out, f)):
                print(f"{f}: missing in {out}")
                ok = False
            elif npy_data(os.path.join(golden, f)) != npy_data(os.path.join(out, f)):
                print(f"{f}: DIFFERENT")
                ok = False
            else:
                print(f"{f}: identical")

    def lines(d):
        p = os.path.join(d, "printf.txt")
        text = open(p, "rb").read() if os.path.exists(p) else b""
        out = []
        for line in text.split(b"\n"):
            for r in undefined:
                line = r.sub(b"<undefined>", line)
            out.append(line)
        return collections.Counter(out)

    g, o = lines(golden), lines(out)
    only_g, only_o = g - o, o - g
    n_undef = sum(n for line, n in g.items() if b"<undefined>" in line)
    if only_g or only_o:
        ok = False
        print(f"printf: {sum(only_g.values())} lines only in the golden, {sum(only_o.values())} only in {out}")
        for line in list(only_g)[:4]:
            print(f"  golden: {line[:160]!r}")
        for line in list(only_o)[:4]:
            print(f"  tcsim:  {line[:160]!r}")
    else:
        print(f"printf: identical ({sum(g.values())} lines, {n_undef} with an undefined field normalised)")
    print("identical" if ok else "DIFFERENT")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
