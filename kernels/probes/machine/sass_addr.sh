#!/usr/bin/env bash
# Assembles sass_addr.cu for sm_90a and sm_100a with ptxas (nvcc -cubin) and prints the SASS of
# every kernel (cuobjdump -sass; CUDA 13's, or the one of the nvidia-cuda-cuobjdump wheel). No GPU.
# Usage: sass_addr.sh > sass_addr.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NVCC=${NVCC:-nvcc}
echo "# $("$NVCC" --version | tail -n 1)"
for a in sm_90a sm_100a; do
  "$NVCC" -arch=$a -cubin -o "$tmp/$a.cubin" "$here/sass_addr.cu"
  echo "## $a"
  cuobjdump -sass "$tmp/$a.cubin" | grep -E "Function :|^\s+/\*[0-9a-f]{4}\*/" |
    sed 's@/\* 0x[0-9a-f]* \*/@@; s/  */ /g' | grep -v -E " NOP ;| BRA 0x"
done
