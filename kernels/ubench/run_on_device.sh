#!/usr/bin/env bash
# The H200 measurements behind models/timing/h200.txt, in one run (< 7 minutes):
#   1. ubench_h200 (all groups), twice: latency/throughput rows  -> $OUT/ubench.csv, ubench_repeat.csv
#   2. ubench_h200 launch under Nsight Compute (launch_* kernels)  -> $OUT/ncu_launch.csv
#   3. corpus_timer LIST 2 under Nsight Compute: every spec of LIST, two passes, one kernel each
#                                                                   -> $OUT/ncu_corpus.csv, corpus_log.txt
# Nsight Compute: --metrics gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg,
# default --cache-control all (L2 flushed before each kernel), --clock-control none (the clocks are
# left as the GPU sets them; the cycle counts do not depend on them), raw CSV in base units.
# The SM clock, memory clock, power and temperature are sampled every 200 ms -> $OUT/smi.csv.
#   usage: run_on_device.sh BIN_DIR LIST_FILE     (BIN_DIR holds ubench_h200 and corpus_timer)
#   env: HOLDOUT=LIST2 times a second list the same way -> $OUT/ncu_holdout.csv, holdout_log.txt
# Outputs are copied into kernels/ubench/results/<gpu>-<date>/ by hand (README.md).
set -uo pipefail
bin=${1:?BIN_DIR}
list=${2:?LIST_FILE}
OUT=${OUT:-/tmp/ubench_out}
mkdir -p "$OUT"
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n1)
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "git: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,vbios_version,clocks.max.sm,clocks.max.mem,power.limit,memory.total --format=csv 2>&1
  echo "ncu: $NCU $("$NCU" --version 2>&1 | tail -n1)"
  echo "nvcc: $(nvcc --version 2>/dev/null | tail -n1)"
  uname -r
} > "$OUT/env.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > "$OUT/smi.csv" 2>&1 &
smi=$!

echo "[$(elapsed)s] ubench" | tee -a "$OUT/env.txt"
timeout 120 "$bin/ubench_h200" > "$OUT/ubench.csv" 2> "$OUT/ubench.err"
echo "ubench exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
timeout 120 "$bin/ubench_h200" > "$OUT/ubench_repeat.csv" 2>> "$OUT/ubench.err"
echo "ubench (repeat) exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"

echo "[$(elapsed)s] ncu launch" | tee -a "$OUT/env.txt"
timeout 60 "$NCU" --clock-control none --metrics "$METRICS" --csv --page raw --print-units base \
  --kernel-name regex:'^launch_' --log-file "$OUT/ncu_launch.csv" "$bin/ubench_h200" launch cold > "$OUT/ncu_launch.err" 2>&1
echo "ncu launch exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"

left=$(( 400 - $(elapsed) ))
echo "[$(elapsed)s] ncu corpus ($left s left)" | tee -a "$OUT/env.txt"
timeout "$left" "$NCU" --clock-control none --metrics "$METRICS" --csv --page raw --print-units base \
  --log-file "$OUT/ncu_corpus.csv" "$bin/corpus_timer" "$list" 2 > "$OUT/corpus_log.txt" 2>&1
echo "ncu corpus exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
if [ -n "${HOLDOUT:-}" ]; then
  left=$(( 460 - $(elapsed) ))
  echo "[$(elapsed)s] ncu holdout $HOLDOUT ($left s left)" | tee -a "$OUT/env.txt"
  timeout "$left" "$NCU" --clock-control none --metrics "$METRICS" --csv --page raw --print-units base \
    --log-file "$OUT/ncu_holdout.csv" "$bin/corpus_timer" "$HOLDOUT" 2 > "$OUT/holdout_log.txt" 2>&1
  echo "ncu holdout exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
fi
kill "$smi" 2> /dev/null
cat "$OUT/ubench.err" "$OUT/ncu_launch.err" >> "$OUT/env.txt" 2> /dev/null
rm -f "$OUT/ubench.err" "$OUT/ncu_launch.err"
echo "[$(elapsed)s] done" | tee -a "$OUT/env.txt"
tail -n 5 "$OUT/corpus_log.txt"
grep -c '^LAUNCH' "$OUT/corpus_log.txt"
grep -c '^FAILED' "$OUT/corpus_log.txt"
