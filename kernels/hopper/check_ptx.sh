#!/usr/bin/env bash
# The kernels/hopper PTX judge (a CTest when nvcc/ptxas exist; see CMakeLists.txt):
#  1. every committed .ptx assembles with ptxas -arch=sm_90a (ptxas's "info" notes about injected
#     warpgroup fences are not failures);
#  2. every .cu has its committed .ptx and every .ptx its .cu;
#  3. the committed PTX is exactly what gen_ptx.sh makes from the .cu today (no drift). When the
#     local nvcc is not the release the PTX was generated with, this step is reported SKIPPED (another
#     nvcc emits other PTX) and steps 1-2 still run.
# Usage: check_ptx.sh [CUDA_ROOT]   (default /usr/local/cuda). Exit 0 = all good.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cuda=${1:-/usr/local/cuda}
NVCC="$cuda/bin/nvcc"
PTXAS="$cuda/bin/ptxas"
fail=0

n_ok=0
for ptx in "$here"/*.ptx; do
  name=$(basename "$ptx")
  if ! log=$("$PTXAS" -arch=sm_90a "$ptx" -o /dev/null 2>&1); then
    echo "FAIL: ptxas -arch=sm_90a rejects $name:"
    echo "$log" | grep -v "ptxas info" | head -n 20
    fail=1
  else
    n_ok=$((n_ok + 1))
  fi
done
echo "ptxas: $n_ok files assemble for sm_90a"

for cu in "$here"/*.cu; do
  [ -e "${cu%.cu}.ptx" ] || { echo "FAIL: $(basename "$cu") has no committed .ptx (run gen_ptx.sh)"; fail=1; }
done
for ptx in "$here"/*.ptx; do
  [ -e "${ptx%.ptx}.cu" ] || { echo "FAIL: $(basename "$ptx") has no .cu source"; fail=1; }
done

committed=$(sed -n 's|^// Cuda compilation tools, \(.*\)$|\1|p' "$here/cp_async.ptx" | head -n1)
local_ver=$("$NVCC" --version | sed -n 's|^Cuda compilation tools, \(.*\)$|\1|p' | head -n1)
if [ "$committed" != "$local_ver" ]; then
  echo "SKIPPED drift check: the committed PTX comes from nvcc '$committed', this nvcc is '$local_ver'"
else
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  NVCC="$NVCC" "$here/gen_ptx.sh" "$tmp" 2> >(grep -v "warning #177\|^\s*$" >&2 || true)
  n_same=0
  for ptx in "$here"/*.ptx; do
    name=$(basename "$ptx")
    if ! cmp -s "$ptx" "$tmp/$name"; then
      echo "FAIL: $name differs from what nvcc generates from its .cu today (run gen_ptx.sh):"
      diff -u "$ptx" "$tmp/$name" | head -n 20 || true
      fail=1
    else
      n_same=$((n_same + 1))
    fi
  done
  echo "drift: $n_same committed PTX files equal a fresh nvcc '$local_ver' build"
fi

[ $fail -eq 0 ] && echo "check_ptx: OK" || echo "check_ptx: FAILED"
exit $fail
