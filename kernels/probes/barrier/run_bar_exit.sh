#!/usr/bin/env bash
# Builds bar_exit.cu for sm_90a, lists its SASS barriers and exits, and runs every case in its own
# process under `timeout 10` (a hung case _exit()s after 1.5 s; timeout is the backstop).
# The device run of 2026-12-02 received the source with its comments and indentation stripped
# (sed -e 's://.*$::' -e 's/^ *//', blank lines dropped: the command line carries at most 2,000
# characters); the code is the same. Results: $OUT/bar_exit.txt, $OUT/sass.txt.
set -uo pipefail
SRC=${1:-$(dirname "$0")/bar_exit.cu}
OUT=${OUT:-/tmp/bar_exit_out}
mkdir -p "$OUT"
B=$(mktemp -d)
nvcc -arch=sm_90a -O2 -o "$B/b" "$SRC" || exit 1
cuobjdump -sass "$B/b" | grep -E 'BAR|EXIT|BRA' > "$OUT/sass.txt"
{
  date -u +%FT%TZ; nvcc --version | tail -n 1
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for i in $(seq 0 13); do timeout 10 "$B/b" "$i" || echo "case $i: rc $?"; done
} 2>&1 | tee "$OUT/bar_exit.txt"
