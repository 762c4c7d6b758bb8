#!/usr/bin/env python3
"""Compares each bug variant's outputs with its clean original's, bit for bit (kernels/bugs/README.md
"H200"). Works on tcsim's and tcsim-hw's output directories alike (tools/spec/output_dir.h: one
NAME.npy per output buffer).

  compare_runs.py RESULTS_DIR      RESULTS_DIR holds runs.tsv and NAME.tN/ (kernels/bugs/h200_run.sh)

Prints one line per run: name, try, exit code, and per output buffer "correct" or "wrong N of M"
(elements whose bits differ from the clean run's try 1), or "hangs" (exit 124/137), "no output".
"""
import ast
import os
import sys


def read_npy(path):
    """(dtype descr, shape, raw bytes) of a version 1/2 .npy file (numpy's format, no numpy needed)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(path + ": not an .npy file")
    major = data[6]
    if major == 1:
        hlen = int.from_bytes(data[8:10], "little"); start = 10
    else:
        hlen = int.from_bytes(data[8:12], "little"); start = 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    return header["descr"], tuple(header["shape"]), data[start + hlen:]


def elem_size(descr):
    return int(descr.lstrip("<>|=")[1:])


def compare(a_path, b_path):
    da, sa, ra = read_npy(a_path)
    db, sb, rb = read_npy(b_path)
    if (da, sa) != (db, sb):
        return "shape/dtype differ (%s %s vs %s %s)" % (da, sa, db, sb)
    n = elem_size(da)
    total = len(ra) // n
    wrong = sum(1 for i in range(0, len(ra), n) if ra[i:i + n] != rb[i:i + n])
    return "correct" if wrong == 0 else "wrong %d of %d" % (wrong, total)


def base_of(name):
    return "clean_hw" if name.startswith("hw_") else "clean_tp" if name.startswith("tp_") else None


def main():
    root = sys.argv[1]
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(root, "runs.tsv"))][1:]
    for name, tri, rc, secs in rows:
        run = os.path.join(root, "%s.t%s" % (name, tri))
        if rc in ("124", "137"):
            print("%s\t%s\trc=%s\thangs (killed after %ss)" % (name, tri, rc, secs)); continue
        ref = os.path.join(root, "%s.t1" % (base_of(name) or name))
        outs = sorted(f for f in os.listdir(run) if f.endswith(".npy")) if os.path.isdir(run) else []
        if not outs:
            print("%s\t%s\trc=%s\tno output" % (name, tri, rc)); continue
        res = ["%s: %s" % (f[:-4], compare(os.path.join(ref, f), os.path.join(run, f))) for f in outs]
        print("%s\t%s\trc=%s\t%s" % (name, tri, rc, "; ".join(res)))


if __name__ == "__main__":
    main()
