#!/usr/bin/env bash
# The tcgen05 corpus judge, run as a CTest when nvcc/ptxas exist (tests/cli/kernels_tcgen05.cmake):
#  1-3. ../ptx_tool.py check tcgen05 (shared by every corpus): every .cu has its committed .ptx and
#       every .ptx its .cu, ptxas accepts every .ptx for sm_100a, and the committed PTX is exactly
#       what nvcc makes of the .cu today (no drift; SKIPPED with another nvcc release);
#  4.   every launch spec names an .entry that exists in its PTX, and the spec files are what
#       gen_specs.py and gen_specs_mx.py write.
# Usage: check_ptx.sh [CUDA_ROOT]   (default /usr/local/cuda). Exit 0 = all good.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fail=0
"${PYTHON:-python3}" "$here/../ptx_tool.py" check tcgen05 --cuda "${1:-/usr/local/cuda}" || fail=1

# Every spec's kernel is an entry of its PTX.
n_specs=0
while IFS= read -r spec; do
  dir=$(dirname "$spec")
  ptx=$(sed -n 's|^  "ptx": "\(.*\)",$|\1|p' "$spec")
  kernel=$(sed -n 's|^  "kernel": "\(.*\)",$|\1|p' "$spec")
  if ! grep -q "^.visible .entry $kernel(" "$dir/$ptx" 2>/dev/null; then
    echo "FAIL: ${spec#"$here"/}: kernel '$kernel' is not an entry of $ptx"; fail=1
  fi
  n_specs=$((n_specs + 1))
done < <(find "$here" -name '*.json' -not -name manifest.json | sort)
echo "launch specs: $n_specs name an entry of their PTX"
"${PYTHON:-python3}" "$here/gen_specs.py" --check || { echo "FAIL: the specs differ from what gen_specs.py writes"; fail=1; }
"${PYTHON:-python3}" "$here/gen_specs_mx.py" --check || { echo "FAIL: the specs differ from what gen_specs_mx.py writes"; fail=1; }
[ $fail -eq 0 ] && echo "tcgen05 check: OK" || echo "tcgen05 check: FAILED"
exit $fail
