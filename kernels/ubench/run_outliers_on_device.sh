#!/usr/bin/env bash
# The H200 measurements of kernels/ubench/outliers.cu and the rerun of tma_queue.cu, in one device
# call (results/h200-2026-12-02-outliers, README.md there):
#   1. SASS (cuobjdump -sass) of ubench_h200 and of the corpus cubins in CUBIN_DIR  -> sass.tar.gz
#   2. ubench_h200 outliers, twice                     -> outliers.csv, outliers_repeat.csv
#   3. ubench_h200 tma_queue                           -> tma_queue.csv
#   4. ubench_h200 outliers under Nsight Compute, UB_REPS=1 (the outl_contend / outl_rec kernels):
#      sm__cycles_elapsed.max, L2 flushed (--cache-control all), --clock-control none -> ncu_outliers.csv
#   5. corpus_timer LIST 2 under Nsight Compute with instruction counts (warp- and thread-level)
#                                                      -> ncu_corpus.csv
#   usage: run_outliers_on_device.sh BIN_DIR CUBIN_DIR LIST     (BIN_DIR: ubench_h200, corpus_timer)
set -uo pipefail
bin=${1:?BIN_DIR}
cubins=${2:?CUBIN_DIR}
list=${3:?LIST}
. "$(dirname "$0")/device_env.sh"

mkdir -p /tmp/sass
"$CUOBJDUMP" -sass "$bin/ubench_h200" > /tmp/sass/ubench_h200.sass 2>&1
for f in "$cubins"/*.cubin; do "$CUOBJDUMP" -sass "$f" > "/tmp/sass/$(basename "$f").sass" 2>&1; done
tar -C /tmp -czf "$OUT/sass.tar.gz" sass
echo "[$(elapsed)s] sass done" | tee -a "$OUT/env.txt"

timeout 90 "$bin/ubench_h200" outliers > "$OUT/outliers.csv" 2>> "$OUT/env.txt"
echo "outliers exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
timeout 90 "$bin/ubench_h200" outliers > "$OUT/outliers_repeat.csv" 2>> "$OUT/env.txt"
echo "outliers (repeat) exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
timeout 120 "$bin/ubench_h200" tma_queue > "$OUT/tma_queue.csv" 2>> "$OUT/env.txt"
echo "tma_queue exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"

M=gpu__time_duration.sum,sm__cycles_elapsed.max
UB_REPS=1 timeout 120 "$NCU" --clock-control none --metrics "$M" --csv --page raw --print-units base \
  --kernel-name regex:'outl_(contend|rec|empty)' --log-file "$OUT/ncu_outliers.csv" "$bin/ubench_h200" outliers > /dev/null 2>> "$OUT/env.txt"
echo "ncu outliers exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
left=$(( 330 - $(elapsed) ))
timeout "$left" "$NCU" --clock-control none --metrics "$M,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,lts__t_sectors_op_atom.sum,lts__t_requests_op_atom.sum" \
  --csv --page raw --print-units base --log-file "$OUT/ncu_corpus.csv" "$bin/corpus_timer" "$list" 2 > "$OUT/corpus_log.txt" 2>&1
echo "ncu corpus exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
kill "$smi" 2> /dev/null
tail -n 20 "$OUT/corpus_log.txt" >> "$OUT/env.txt"
echo "[$(elapsed)s] done" | tee -a "$OUT/env.txt"
