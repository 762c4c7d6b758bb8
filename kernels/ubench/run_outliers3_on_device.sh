#!/usr/bin/env bash
# The 2026-12-03 recursion and fence measurement (results/h200-2026-12-03-rec3, README.md there):
# `ubench_h200 rec3 sync` twice (%clock64 per phase; the fence-after-stores rows), rec3 once under
# Nsight Compute (sm__cycles_elapsed.max, SASS warp and
# thread instructions per launch, L2 flushed), and the SASS of ubench_h200 and of the corpus cubins
# staged with it (*.cubin: ptxas -arch=sm_90a of kernels/basic/recursion.ptx and
# kernels/cluster/multicast_pipeline.sm_90a.ptx). Usage: copy this script, device_env.sh,
# ubench_h200 and the cubins into one folder and run it there on the GPU machine ($OUT: results).
set -uo pipefail
d=$(dirname "$0")
. "$d/device_env.sh"
for pass in 1 2; do
  timeout 60 "$d/ubench_h200" rec3 sync > "$OUT/rec3_pass$pass.csv" 2>> "$OUT/env.txt"
  echo "pass $pass exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
done
timeout 240 "$NCU" --csv --cache-control all --clock-control none -k regex:outl_rec3 \
  --metrics sm__cycles_elapsed.max,gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum \
  "$d/ubench_h200" rec3 > "$OUT/ncu_rec3.csv" 2>> "$OUT/env.txt"
echo "ncu exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
"$CUOBJDUMP" -sass "$d/ubench_h200" 2>&1 | gzip > "$OUT/ubench_h200.sass.gz"
for c in "$d"/*.cubin; do "$CUOBJDUMP" -sass "$c" > "$OUT/$(basename "$c" .cubin).sass" 2>&1; done
kill "$smi" 2> /dev/null
echo "[$(elapsed)s] done" | tee -a "$OUT/env.txt"
