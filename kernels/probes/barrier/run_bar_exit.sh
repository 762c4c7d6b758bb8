#!/usr/bin/env bash
# Builds bar_exit.cu for sm_90a, dumps its SASS (where EXIT and BAR sit) and runs every case on the GPU.
# Results: $OUT/bar_exit.txt, $OUT/bar_exit_sass.txt, $OUT/env.txt. About 30 s on an H200.
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/bar_exit_out}
mkdir -p "$OUT"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvcc --version | tail -n 1
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  echo "source: $(sha256sum bar_exit.cu | cut -c1-16)"
} > "$OUT/env.txt" 2>&1
B=$(mktemp -d)
nvcc -arch=sm_90a -O2 -o "$B/bar_exit" bar_exit.cu > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
cuobjdump -sass "$B/bar_exit" | grep -E 'Function|BAR|EXIT|BRA|WARPSYNC|BSSY|BSYNC' > "$OUT/bar_exit_sass.txt" 2>&1
timeout 240 "$B/bar_exit" | tee "$OUT/bar_exit.txt"
