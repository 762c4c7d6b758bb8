#!/usr/bin/env python3
"""Fails when a committed generated file differs from what its generator makes today: runs
gen_wgmma.py, gen_mma.py and gen_specs.py with --check (they write nothing in that mode)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
bad = 0
for gen in ("gen_wgmma.py", "gen_mma.py", "gen_specs.py"):
    r = subprocess.run([sys.executable, os.path.join(HERE, gen), "--check"], capture_output=True, text=True)
    sys.stdout.write(r.stdout + r.stderr)
    bad |= r.returncode != 0
print("check_generated: " + ("FAILED (run the generators, then gen_ptx.sh)" if bad else "OK"))
sys.exit(1 if bad else 0)
