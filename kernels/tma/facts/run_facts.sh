#!/usr/bin/env bash
# Runs the "facts to settle" of kernels/tma/facts on a GPU (the H200) with tcsim-hw, then prints
# what they settle (analyze.py). A run that faults is a result, not a failure of this script.
#
# Usage: run_facts.sh RESULTS_DIR [TCSIM_HW]    (TCSIM_HW default: tcsim-hw on PATH)
#   RESULTS_DIR/<spec>/{status,log,out.npy,info.npy,manifest.json} per fp_*/fa_*/il* spec
#   RESULTS_DIR/tensor_map_edges.txt   tcsim-hw check-tensor-map on tensor_map_edges.json
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run_facts.sh RESULTS_DIR [TCSIM_HW]}
hw=${2:-tcsim-hw}
mkdir -p "$out"
for spec in "$here"/fp_*.json "$here"/fa_*.json "$here"/il*.json; do
  name=$(basename "$spec" .json)
  mkdir -p "$out/$name"
  timeout 60 "$hw" run "$spec" --out "$out/$name" > "$out/$name/log" 2>&1
  echo $? > "$out/$name/status"
  printf '%-48s exit %s\n' "$name" "$(cat "$out/$name/status")"
done
"$hw" check-tensor-map "$here/tensor_map_edges.json" > "$out/tensor_map_edges.txt" 2>&1
echo "check-tensor-map: exit $?"
python3 "$here/analyze.py" "$out"
