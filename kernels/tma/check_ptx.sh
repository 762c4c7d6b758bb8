#!/usr/bin/env bash
# The PTX judge of the asynchronous-machine corpus (kernels/tma, kernels/cluster); a CTest when
# nvcc/ptxas exist (tests/cli/kernels_tma.cmake):
#  1. every NAME.cu has NAME.sm_90a.ptx and NAME.sm_100a.ptx, every .ptx has its .cu, and each
#     .ptx's `.target` is the architecture its name says;
#  2. ptxas assembles every committed .ptx for its target (sm_90a: the H200 can run it; sm_100a:
#     the Blackwell build is legal);
#  3. the committed PTX is exactly what gen_ptx.sh makes from the sources today (no drift). When
#     the local nvcc is another release than the one the PTX came from, this step says SKIPPED
#     (another nvcc emits other PTX) and steps 1-2 still run.
# Usage: check_ptx.sh [CUDA_ROOT]   (default /usr/local/cuda); DIRS as for gen_ptx.sh.
# Exit 0 = all good.
set -euo pipefail
kernels=$(cd "$(dirname "$0")/.." && pwd)
cuda=${1:-/usr/local/cuda}
NVCC="$cuda/bin/nvcc"
PTXAS="$cuda/bin/ptxas"
dirs=${DIRS:-"tma tma/bad cluster cluster/bad"}
fail=0

ptx_files=()
for d in $dirs; do
  for cu in "$kernels/$d"/*.cu; do
    [ -e "$cu" ] || continue
    for arch in sm_90a sm_100a; do
      [ -e "${cu%.cu}.$arch.ptx" ] || { echo "FAIL: $d/$(basename "$cu") has no $arch PTX (run gen_ptx.sh)"; fail=1; }
    done
  done
  for ptx in "$kernels/$d"/*.ptx; do
    [ -e "$ptx" ] || continue
    ptx_files+=("$ptx")
    base=$(basename "$ptx" .ptx); arch=${base##*.}; name=${base%.*}
    [ -e "$kernels/$d/$name.cu" ] || { echo "FAIL: $d/$base.ptx has no source $name.cu"; fail=1; }
    target=$(sed -n 's/^\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' "$ptx" | head -n1)
    [ "$target" = "$arch" ] || { echo "FAIL: $d/$base.ptx says .target $target"; fail=1; }
  done
done
echo "pairing: ${#ptx_files[@]} PTX files checked against their sources"

n_ok=0
for ptx in "${ptx_files[@]}"; do
  target=$(sed -n 's/^\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p' "$ptx" | head -n1)
  if "$PTXAS" -arch="$target" "$ptx" -o /dev/null; then
    n_ok=$((n_ok + 1))
  else
    echo "FAIL: ptxas -arch=$target rejects ${ptx#"$kernels"/}"; fail=1
  fi
done
echo "ptxas: $n_ok of ${#ptx_files[@]} files assemble for their targets"

committed=$(sed -n 's|^// Cuda compilation tools, \(.*\)$|\1|p' "${ptx_files[0]}" | head -n1)
local_ver=$("$NVCC" --version | sed -n 's|^Cuda compilation tools, \(.*\)$|\1|p' | head -n1)
if [ "$committed" != "$local_ver" ]; then
  echo "SKIPPED drift check: the committed PTX comes from nvcc '$committed', this nvcc is '$local_ver'"
else
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  DIRS="$dirs" NVCC="$NVCC" "$kernels/tma/gen_ptx.sh" "$tmp"
  n_same=0
  for ptx in "${ptx_files[@]}"; do
    rel=${ptx#"$kernels"/}
    if cmp -s "$ptx" "$tmp/$rel"; then
      n_same=$((n_same + 1))
    else
      echo "FAIL: $rel differs from what nvcc generates from its source today (run gen_ptx.sh):"
      diff -u "$ptx" "$tmp/$rel" | head -n 20 || true
      fail=1
    fi
  done
  echo "drift: $n_same of ${#ptx_files[@]} committed PTX files equal a fresh nvcc '$local_ver' build"
fi

[ $fail -eq 0 ] && echo "check_ptx: OK" || echo "check_ptx: FAILED"
exit $fail
