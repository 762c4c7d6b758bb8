#!/usr/bin/env python3
"""Host memory stays bounded (issue 16, docs/hostile_input.md "Back-pressure", "Buffers"): a burst of
back-to-back tcgen05.mma, far more than the tensor core's queue holds (tcgen05.queue_depth in
models/timing/b200.txt), runs under a peak-RSS budget; and a 256 MiB randomly initialised buffer
costs its size once (filled in place in the simulator's memory), not twice; and so does a 256 MiB
buffer initialised from a .npy file (read straight into the simulator's memory in bounded chunks:
no copy of the file in host memory; the old reader held the file and a copy of its data, 517 MiB).

The kernel is kernels/tcgen05/timing_probe.ptx (tcgen05_probe_ss, M = 128, N = 256, one CTA): one
thread issues `burst` MMAs into one accumulator, then commits and waits. Without back-pressure each
unfinished MMA held host memory (50,000: 58 MB, growing, and minutes of host time); with it the
issuing warp waits for a queue entry and the run is flat. The peak RSS of the tcsim process is its
own (os.wait4's rusage), not the test's. Fails when the run fails, prints no cycle count, the
report does not attribute the wait to the full queue, or the peak RSS exceeds the budget.

Usage: memory_budget.py --tcsim build/bin/tcsim [--burst N] [--budget-mib M] [--buffer-mib B]
"""
import argparse
import array
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tcsim", required=True)
    ap.add_argument("--burst", type=int, default=200_000)
    ap.add_argument("--budget-mib", type=int, default=48)
    ap.add_argument("--buffer-mib", type=int, default=256)
    a = ap.parse_args()
    ok = burst(a)
    ok = buffer_once(a) and ok
    ok = npy_once(a) and ok
    return 0 if ok else 1


def run(tcsim, spec, out):
    with open(out, "w") as o:
        p = subprocess.Popen([tcsim, "run", spec, "--timing-only"], stdout=o, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(p.pid, 0)
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024.0, open(out, errors="replace").read()


def buffer_once(a):
    """A buffer of random bits and an empty kernel: peak RSS at most the buffer plus 48 MiB."""
    with tempfile.TemporaryDirectory(prefix="tcsim-memory-budget-") as tmp:
        with open(os.path.join(tmp, "k.ptx"), "w") as f:
            f.write(".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n  ret;\n}\n")
        spec = os.path.join(tmp, "buf.json")
        with open(spec, "w") as f:
            json.dump({"ptx": "k.ptx", "kernel": "k", "grid": [1, 1, 1], "block": [32, 1, 1],
                       "buffers": {"A": {"dtype": "u32", "shape": [a.buffer_mib << 18],
                                         "init": {"random": {"dist": "bits", "seed": 1}}}},
                       "args": [{"buffer": "A"}]}, f)
        rc, rss_mib, text = run(a.tcsim, spec, os.path.join(tmp, "out.txt"))
    budget = a.buffer_mib + 48
    print(f"random-init buffer of {a.buffer_mib} MiB: exit {rc}, peak RSS {rss_mib:.1f} MiB (budget {budget} MiB)")
    if rc != 0:
        print("FAIL: the run failed:\n" + text[-4000:])
        return False
    if rss_mib > budget:
        print(f"FAIL: peak RSS {rss_mib:.1f} MiB is over the budget of {budget} MiB (a second copy of the buffer?)")
        return False
    return True


def write_npy(path, count):
    """A little-endian u32 .npy file of `count` elements (format 1.0), written in 4 MiB chunks: the
    value of element i is i (the run's output of its first elements is checked)."""
    header = "{'descr': '<u4', 'fortran_order': False, 'shape': (%d,), }" % count
    header += " " * (63 - (10 + len(header)) % 64) + "\n"  # data at a multiple of 64 bytes
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        chunk = 1 << 20
        for first in range(0, count, chunk):
            n = min(chunk, count - first)
            f.write(array.array("I", range(first, first + n)).tobytes())  # little-endian host (x86-64)


def npy_once(a):
    """A buffer initialised from a .npy file of its size: peak RSS at most the buffer plus 48 MiB,
    and its first 4 KiB, copied to a small output buffer by the kernel, hold the file's values."""
    count = a.buffer_mib << 18
    with tempfile.TemporaryDirectory(prefix="tcsim-memory-budget-") as tmp:
        write_npy(os.path.join(tmp, "a.npy"), count)
        with open(os.path.join(tmp, "k.ptx"), "w") as f:
            f.write(".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry k(.param .u64 a, .param .u64 b)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
                    "  ld.param.u64 %rd1, [a];\n  ld.param.u64 %rd2, [b];\n  mov.u32 %r1, %tid.x;\n"
                    "  mul.wide.u32 %rd3, %r1, 4;\n  add.u64 %rd4, %rd1, %rd3;\n  add.u64 %rd5, %rd2, %rd3;\n"
                    "  ld.global.u32 %r2, [%rd4];\n  st.global.u32 [%rd5], %r2;\n  ret;\n}\n")
        spec = os.path.join(tmp, "npy.json")
        with open(spec, "w") as f:
            json.dump({"ptx": "k.ptx", "kernel": "k", "grid": [1, 1, 1], "block": [1024, 1, 1],
                       "buffers": {"A": {"dtype": "u32", "shape": [count], "init": {"file": "a.npy"}},
                                   "B": {"dtype": "u32", "shape": [1024]}},
                       "args": [{"buffer": "A"}, {"buffer": "B"}], "outputs": ["B"]}, f)
        out_dir = os.path.join(tmp, "out")
        with open(os.path.join(tmp, "out.txt"), "w") as o:
            p = subprocess.Popen([a.tcsim, "run", spec, "--out", out_dir], stdout=o, stderr=subprocess.STDOUT)
            _, status, usage = os.wait4(p.pid, 0)
        rc, rss_mib = os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024.0
        text = open(os.path.join(tmp, "out.txt"), errors="replace").read()
        values = None
        b = os.path.join(out_dir, "B.npy")
        if rc == 0 and os.path.exists(b):
            raw = open(b, "rb").read()
            values = struct.unpack("<1024I", raw[-4096:])
    budget = a.buffer_mib + 48
    print(f".npy-init buffer of {a.buffer_mib} MiB: exit {rc}, peak RSS {rss_mib:.1f} MiB (budget {budget} MiB)")
    if rc != 0:
        print("FAIL: the run failed:\n" + text[-4000:])
        return False
    if values != tuple(range(1024)):
        print("FAIL: the output does not hold the file's first 1024 values:\n" + text[-4000:])
        return False
    if rss_mib > budget:
        print(f"FAIL: peak RSS {rss_mib:.1f} MiB is over the budget of {budget} MiB (the file read into host memory?)")
        return False
    return True


def burst(a):
    with tempfile.TemporaryDirectory(prefix="tcsim-memory-budget-") as tmp:
        spec = os.path.join(tmp, "burst.json")
        with open(spec, "w") as f:
            json.dump({"ptx": os.path.join(REPO, "kernels/tcgen05/timing_probe.ptx"), "kernel": "tcgen05_probe_ss",
                       "arch": "sm_100a", "grid": [1, 1, 1], "block": [128, 1, 1], "cluster": [1, 1, 1],
                       "dynamic_smem_bytes": 50176,
                       "buffers": {"out": {"dtype": "u64", "shape": [2], "init": {"fill": 0}}},
                       "args": [{"buffer": "out"}, {"u32": 128}, {"u32": 256}, {"u32": a.burst}], "outputs": ["out"]}, f)
        rc, rss_mib, text = run(a.tcsim, spec, os.path.join(tmp, "out.txt"))  # ru_maxrss: kilobytes (Linux)
    cycles = re.search(r": (\d+) cycles", text)
    print(f"burst {a.burst}: exit {rc}, {cycles.group(1) if cycles else '?'} cycles, peak RSS {rss_mib:.1f} MiB "
          f"(budget {a.budget_mib} MiB)")
    ok = True
    if rc != 0 or not cycles:
        print("FAIL: the run did not end with a cycle count:\n" + text[-4000:])
        ok = False
    if "tensor-core queue full" not in text:
        print("FAIL: the timing report does not attribute the issuing warp's wait to the full tensor-core queue:\n" +
              text[-4000:])
        ok = False
    if rss_mib > a.budget_mib:
        print(f"FAIL: peak RSS {rss_mib:.1f} MiB is over the budget of {a.budget_mib} MiB")
        ok = False
    return ok


if __name__ == "__main__":
    sys.exit(main())
