#!/usr/bin/env bash
# The 2026-12-03 re-measurement (results/h200-2026-12-03, README.md there): ubench_h200 pipes,
# outliers and tma twice (idiv latency, one SM's TMA fill by box size and depth), tma_queue once,
# the SASS of ubench_h200; clocks logged by device_env.sh. Usage: copy this script, device_env.sh
# and ubench_h200 into one folder and run it there on the GPU machine ($OUT: where results go).
set -uo pipefail
d=$(dirname "$0")
. "$d/device_env.sh"
for pass in 1 2; do
  timeout 120 "$d/ubench_h200" pipes outliers tma > "$OUT/ubench_pass$pass.csv" 2>> "$OUT/env.txt"
  echo "pass $pass exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
done
timeout 120 "$d/ubench_h200" tma_queue > "$OUT/tma_queue.csv" 2>> "$OUT/env.txt"
echo "tma_queue exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
"$CUOBJDUMP" -sass "$d/ubench_h200" 2>&1 | gzip > "$OUT/ubench_h200.sass.gz"
kill "$smi" 2> /dev/null
echo "[$(elapsed)s] done" | tee -a "$OUT/env.txt"
