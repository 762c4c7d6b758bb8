#!/usr/bin/env python3
"""Determinism of tcsim (issue 16 item 7, DESIGN.md "Deterministic by default"): every committed
launch spec (kernels/**/*.json) run with 1 and with N host threads, twice each, must give the same
exit code, the same messages (cycle count included) and the same output bytes.

  determinism.py --tcsim build/bin/tcsim [--sample K] [--seed S] [--threads N] [--only REGEX]

--sample K runs K specs drawn with --seed (CTest determinism_specs: 40); 0 runs every spec
(scripts/determinism.sh). Exit 0: all identical; 1: some spec differs (named with the two runs).
Specs that are bad input on purpose (kernels/*/bad/) take part too: their errors must repeat.
Only the Python 3 standard library is used.
"""
import argparse
import filecmp
import os
import random
import re
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(tcsim, spec, threads, out):
    p = subprocess.run([tcsim, "run", spec, "--out", out, "--host-threads", str(threads)],
                       capture_output=True, text=True, errors="replace")
    stdout = "\n".join(l for l in p.stdout.splitlines() if not l.startswith("outputs written to "))
    files = {}
    if os.path.isdir(out):
        for n in sorted(os.listdir(out)):
            files[n] = os.path.join(out, n)
    return p.returncode, stdout, p.stderr, files


def same(a, b):
    if a[:3] != b[:3] or sorted(a[3]) != sorted(b[3]):
        return False
    return all(filecmp.cmp(a[3][n], b[3][n], shallow=False) for n in a[3])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tcsim", required=True)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--only", help="only specs whose path matches this regular expression")
    a = ap.parse_args()
    specs = []
    for root, _, names in os.walk(os.path.join(REPO, "kernels")):
        for n in names:
            if n.endswith(".json"):
                specs.append(os.path.join(root, n))
    specs.sort()
    if a.only:
        specs = [s for s in specs if re.search(a.only, s)]
    if a.sample and a.sample < len(specs):
        specs = sorted(random.Random(a.seed).sample(specs, a.sample))
    bad = 0
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="tcsim-determinism-") as tmp:
        for k, spec in enumerate(specs):
            rel = os.path.relpath(spec, REPO)
            runs = []
            for i, threads in enumerate([1, 1, a.threads, a.threads]):
                runs.append(run(a.tcsim, spec, threads, os.path.join(tmp, f"s{k}_r{i}")))
            labels = ["1 thread (run 1)", "1 thread (run 2)", f"{a.threads} threads (run 1)", f"{a.threads} threads (run 2)"]
            diff = [i for i in range(1, 4) if not same(runs[0], runs[i])]
            if diff:
                bad += 1
                i = diff[0]
                print(f"DIFFERS {rel}: {labels[0]} vs {labels[i]}")
                for name, x, y in (("exit", runs[0][0], runs[i][0]), ("stdout", runs[0][1], runs[i][1]),
                                   ("stderr", runs[0][2][:2000], runs[i][2][:2000])):
                    if x != y:
                        print(f"    {name}: {x!r}\n    {' ' * len(name)}  {y!r}")
            else:
                cyc = re.search(r": (\d+) cycles", runs[0][1])
                print(f"SAME {rel} (exit {runs[0][0]}{', ' + cyc.group(1) + ' cycles' if cyc else ''}, "
                      f"{len(runs[0][3])} files)")
            sys.stdout.flush()
    print(f"determinism: {len(specs)} specs x 4 runs (1, 1, {a.threads}, {a.threads} host threads): "
          f"{len(specs) - bad} identical, {bad} differ ({time.time() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
