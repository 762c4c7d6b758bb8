#!/usr/bin/env bash
# Runs the kernels/launch specs on a GPU with tcsim-hw, writing RESULTS_DIR/<spec>/ (the goldens
# committed under golden/h200/: outputs, manifest, the GPU's printf.txt) and RESULTS_DIR/probes/
# (printf FIFO runs at other sizes that settle the record layout of docs/printf.md; not goldens).
# Every run's log is RESULTS_DIR/<name>.log; a summary of each printf capture (lines, first/last
# line, distinct return values) is RESULTS_DIR/summary.txt.
#
# Usage: run_hw.sh RESULTS_DIR [TCSIM_HW]      (TCSIM_HW default: tcsim-hw on PATH)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run_hw.sh RESULTS_DIR [TCSIM_HW]}
hw=${2:-tcsim-hw}
mkdir -p "$out/probes"

run() {  # run NAME SPEC
  mkdir -p "$out/$1"
  timeout 120 "$hw" run "$2" --out "$out/$1" > "$out/$1.log" 2>&1
  echo "$1: exit $?" | tee -a "$out/summary.txt"
}

for s in params_struct printf_formats printf_odd printf_flood_int printf_flood_noargs printf_flood_four \
         printf_flood_str40 printf_flood_longfmt printf_flood_str2; do
  run "$s" "$here/$s.json"
done

# Probes (not goldens; docs/printf.md "FIFO" lists what they settle): what CU_LIMIT_PRINTF_FIFO_SIZE
# reads back for other requests, and FIFOs flooded past their capacity — how many records of each
# form survive (the record size), which ones (drop the newest or overwrite the oldest), and what
# printf returns for a dropped call. The 2026-12-01 run had probes of 800 calls at 8192 bytes (read
# back as 524288) and of up to 70000 calls at the default: none overflowed.
probe fifo600k_noargs 1 1 600000
probe fifo1m_noargs 1 1 1048576
probe fifo2m_noargs 1 1 2000000
probe overflow_noargs 1 40000 524288
probe overflow_int 0 40000 524288
probe overflow_four 2 30000 524288
probe overflow_str40 3 20000 524288
probe default_noargs 1 300000 0

# Summaries: what each printf capture holds.
for d in "$out"/*/ "$out"/probes/*/; do
  [ -f "$d/manifest.json" ] || continue
  f="$d/printf.txt"
  if [ -f "$f" ]; then
    echo "$(basename "$d"): $(wc -l < "$f") lines, $(wc -c < "$f") bytes; first: $(head -n1 "$f" | cut -c1-60); last: $(tail -n1 "$f" | cut -c1-60)" >> "$out/summary.txt"
  else
    echo "$(basename "$d"): no printf.txt" >> "$out/summary.txt"
  fi
  grep -h '"printf_fifo_bytes"\|"param_offsets"' "$d/manifest.json" >> "$out/summary.txt"
done
# The return values each run stored: runs of equal values, as "value x count from index".
python3 - "$out" >> "$out/summary.txt" <<'PY'
import os, struct, sys
for root, _, files in sorted(os.walk(sys.argv[1])):
    if "rets.npy" not in files:
        continue
    d = open(os.path.join(root, "rets.npy"), "rb").read()
    hl = struct.unpack("<H", d[8:10])[0]
    v = struct.unpack(f"<{(len(d) - 10 - hl) // 4}i", d[10 + hl:])
    runs, i = [], 0
    while i < len(v):
        j = i
        while j < len(v) and v[j] == v[i]:
            j += 1
        runs.append(f"{v[i]}x{j - i}@{i}")
        i = j
    print(os.path.relpath(root, sys.argv[1]), "rets:", " ".join(runs[:40]), "..." if len(runs) > 40 else "")
PY
cat "$out/summary.txt"
