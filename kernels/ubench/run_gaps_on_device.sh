#!/usr/bin/env bash
# The H200 measurements behind the 2026-12-02 recalibration (results/h200-2026-12-02/), in one run
# (< 5 minutes):
#   1. ubench_h200 gaps sync, twice               -> $OUT/gaps.csv, gaps_repeat.csv
#   2. cuobjdump -sass of the gaps/sync objects and of the corpus kernels named in CUBIN_DIR
#      (cubins assembled by ptxas -arch=sm_90a from the committed PTX)  -> $OUT/sass.tar.gz
#   3. corpus_timer LIST 1 under Nsight Compute with memory-system counters (DRAM bytes, L2 bytes
#      and sectors by operation, L2 hit rate, L2/DRAM/SM throughput % of peak) -> $OUT/ncu_metrics.csv
# Clocks: nvidia-smi every 200 ms -> $OUT/smi.csv (left as the GPU sets them: --clock-control none).
#   usage: run_gaps_on_device.sh BIN_DIR OBJ_DIR CUBIN_DIR LIST_FILE
set -uo pipefail
bin=${1:?BIN_DIR}
obj=${2:?OBJ_DIR}
cubins=${3:?CUBIN_DIR}
list=${4:?LIST_FILE}
. "$(dirname "$0")/device_env.sh"

echo "[$(elapsed)s] ubench gaps sync" | tee -a "$OUT/env.txt"
timeout 150 "$bin/ubench_h200" gaps sync > "$OUT/gaps.csv" 2>> "$OUT/env.txt"
echo "ubench exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"
timeout 150 "$bin/ubench_h200" gaps sync > "$OUT/gaps_repeat.csv" 2>> "$OUT/env.txt"
echo "ubench (repeat) exit $? at $(elapsed)s" | tee -a "$OUT/env.txt"

mkdir -p /tmp/sass
for f in "$obj"/gaps.o "$obj"/sync.o "$cubins"/*.cubin; do
  "$CUOBJDUMP" -sass "$f" > "/tmp/sass/$(basename "$f").sass" 2>&1
done
tar -C /tmp -czf "$OUT/sass.tar.gz" sass
echo "[$(elapsed)s] sass done" | tee -a "$OUT/env.txt"

BASE=gpu__time_duration.sum,sm__cycles_elapsed.max
EXTRA=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum
SAFE=dram__bytes_read.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum
for m in "$BASE,$EXTRA" "$BASE,$SAFE" "$BASE"; do
  left=$(( 420 - $(elapsed) ))
  echo "[$(elapsed)s] ncu metrics $m ($left s left)" | tee -a "$OUT/env.txt"
  timeout "$left" "$NCU" --clock-control none --metrics "$m" --csv --page raw --print-units base \
    --log-file "$OUT/ncu_metrics.csv" "$bin/corpus_timer" "$list" 1 > "$OUT/corpus_log.txt" 2>&1
  rc=$?
  echo "ncu exit $rc at $(elapsed)s" | tee -a "$OUT/env.txt"
  [ "$rc" = 0 ] && break
  tail -n 5 "$OUT/corpus_log.txt" >> "$OUT/env.txt"
done
kill "$smi" 2> /dev/null
cat "$OUT/corpus_log.txt" >> "$OUT/env.txt"
rm -f "$OUT/corpus_log.txt"
echo "[$(elapsed)s] done" | tee -a "$OUT/env.txt"
grep -v '^#' "$OUT/gaps.csv" | cut -c1-110
