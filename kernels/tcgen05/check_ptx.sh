#!/usr/bin/env bash
# The tcgen05 corpus judge, run as a CTest when nvcc/ptxas exist (tests/cli/kernels_tcgen05.cmake):
#  1. every committed .ptx assembles with ptxas for sm_100a;
#  2. every .cu has its committed .ptx and every .ptx its .cu;
#  3. the committed PTX is exactly what gen_ptx.sh makes from the .cu today (no drift). When the
#     local nvcc is not the release the PTX was generated with, this step is reported SKIPPED
#     (another nvcc emits other PTX) and steps 1-2 still run;
#  4. every launch spec names an .entry that exists in its PTX (and the spec files are what
#     gen_specs.py writes, when python3 is there).
# Usage: check_ptx.sh [CUDA_ROOT]   (default /usr/local/cuda). Exit 0 = all good.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cuda=${1:-/usr/local/cuda}
PTXAS="$cuda/bin/ptxas"
NVCC="$cuda/bin/nvcc"
fail=0

for ptx in "$here"/*.ptx; do
  if "$PTXAS" -arch=sm_100a "$ptx" -o /dev/null; then
    echo "ptxas -arch=sm_100a: $(basename "$ptx") assembles ($(grep -c '^.visible .entry' "$ptx") kernels)"
  else
    echo "FAIL: ptxas -arch=sm_100a rejects $(basename "$ptx")"; fail=1
  fi
done

for cu in "$here"/*.cu; do
  [ -e "${cu%.cu}.ptx" ] || { echo "FAIL: $(basename "$cu") has no committed .ptx (run gen_ptx.sh)"; fail=1; }
done
for ptx in "$here"/*.ptx; do
  [ -e "${ptx%.ptx}.cu" ] || { echo "FAIL: $(basename "$ptx") has no .cu source"; fail=1; }
done

committed=$(sed -n 's|^// Cuda compilation tools, \(.*\)$|\1|p' "$here/gemm.ptx" | head -n1)
local_ver=$("$NVCC" --version | sed -n 's|^Cuda compilation tools, \(.*\)$|\1|p' | head -n1)
if [ "$committed" != "$local_ver" ]; then
  echo "SKIPPED drift check: the committed PTX comes from nvcc '$committed', this nvcc is '$local_ver'"
else
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  NVCC="$NVCC" "$here/gen_ptx.sh" "$tmp"
  for ptx in "$here"/*.ptx; do
    name=$(basename "$ptx")
    if cmp -s "$ptx" "$tmp/$name"; then
      echo "no drift: $name is what nvcc generates from ${name%.ptx}.cu"
    else
      echo "FAIL: $name differs from what nvcc generates from its .cu today (run gen_ptx.sh):"
      diff -u "$ptx" "$tmp/$name" | head -n 20 || true
      fail=1
    fi
  done
fi

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
done < <(find "$here" -name '*.json' | sort)
echo "launch specs: $n_specs name an entry of their PTX"
if command -v python3 >/dev/null; then
  python3 "$here/gen_specs.py" --check || fail=1
else
  echo "SKIPPED spec regeneration check: python3 not found"
fi
exit $fail
