#!/bin/bash
# Runs every sm_90a variant of the bug corpus and the two clean originals on a GPU through tcsim-hw
# (tools/tcsim-hw), each with a time limit so that a hung kernel is recorded as a hang.
#   h200_run.sh TCSIM_HW OUT      writes OUT/runs.tsv (name, try, exit code, seconds), OUT/NAME.tN/
#                                 (tcsim-hw's output directory) and OUT/NAME.tN.log
# A variant that does not hang runs three times (races need not repeat); exit code 124 is a hang.
set -u
hw=$1; out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
} > "$out/machine.txt" 2>&1
one() {  # name spec try
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout -k 5 20 "$hw" run "$2" --out "$out/$1.t$3" > "$out/$1.t$3.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  printf '%s\t%s\t%s\t%.2f\n' "$1" "$3" "$rc" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" >> "$out/runs.tsv"
  return $rc
}
printf 'name\ttry\trc\tseconds\n' > "$out/runs.tsv"
specs=("clean_hw:$root/kernels/hopper/specs/gemm/gemm_bf16_ws__512x384x512.json"
       "clean_tp:$root/kernels/tma/tma_pipeline.json")
for f in "$here"/hw_*.json "$here"/tp_*.json; do
  case $f in *.expect.json) continue ;; esac
  specs+=("$(basename "$f" .json):$f")
done
for s in "${specs[@]}"; do
  name=${s%%:*}; spec=${s#*:}
  one "$name" "$spec" 1; rc=$?
  if [ $rc -ne 124 ] && [ $rc -ne 137 ]; then
    one "$name" "$spec" 2; one "$name" "$spec" 3
  fi
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$out/machine.txt" 2>&1
