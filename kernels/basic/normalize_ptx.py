#!/usr/bin/env python3
"""Makes nvcc's PTX independent of where the checkout lives (used by gen_ptx.sh).

nvcc names internal-linkage functions _INTERNAL_<8 hex digits>_..., the digits being a hash of the
source's absolute path; -lineinfo writes those names into the .debug_str section as .b8 byte
lists. This replaces the 8 digits with 00000000 (same length, so the byte layout is unchanged).
The names are debug information only: nothing in the program refers to them by value.

Usage: normalize_ptx.py FILE   (rewrites FILE in place)
"""
import re
import sys

INTERNAL = re.compile(rb"_INTERNAL_[0-9a-f]{8}_")


def main(path):
    with open(path) as f:
        lines = f.read().split("\n")
    # Byte-list lines of the .debug_str section: ".b8 95,90,78,..."
    idx = [k for k, line in enumerate(lines) if line.startswith(".b8 ")]
    if not idx:
        return
    counts, data = [], bytearray()
    for k in idx:
        vals = [int(v) for v in lines[k][4:].split(",")]
        counts.append(len(vals))
        data.extend(vals)
    data = INTERNAL.sub(b"_INTERNAL_00000000_", bytes(data))
    pos = 0
    for k, n in zip(idx, counts):
        lines[k] = ".b8 " + ",".join(str(b) for b in data[pos:pos + n])
        pos += n
    with open(path, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1])
