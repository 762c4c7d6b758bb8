#!/usr/bin/env bash
# Regenerates the committed PTX of the asynchronous-machine corpus (kernels/tma, kernels/cluster)
# from its CUDA sources. Every source is built twice:
#   nvcc -arch=sm_90a  -ptx -lineinfo -Werror all-warnings NAME.cu -o NAME.sm_90a.ptx    (the H200 runs it)
#   nvcc -arch=sm_100a -ptx -lineinfo -Werror all-warnings NAME.cu -o NAME.sm_100a.ptx   (ptxas must accept it)
#
# Usage: gen_ptx.sh [OUT_ROOT]    OUT_ROOT defaults to kernels/ itself; check_ptx.sh passes a
#                                 temporary folder and compares.
# Environment: NVCC (default /usr/local/cuda/bin/nvcc); DIRS (default "tma tma/bad cluster
# cluster/bad", folders under kernels/); ONLY=NAME regenerates NAME.cu only.
#
# The PTX is made independent of where the checkout and CUDA live: `.file` paths into kernels/
# become "kernels/...", and the CUDA root (as named or resolved) becomes /usr/local/cuda, so the
# committed files compare equal on any machine with the same nvcc release.
set -euo pipefail
kernels=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cuda_root=$(cd "$(dirname "$NVCC")/.." && pwd)
cuda_real=$(cd "$(dirname "$NVCC")/.." && pwd -P)
out_root=${1:-$kernels}
dirs=${DIRS:-"tma tma/bad cluster cluster/bad"}
archs="sm_90a sm_100a"

status=0
for d in $dirs; do
  for cu in "$kernels/$d"/*.cu; do
    [ -e "$cu" ] || continue
    name=$(basename "$cu" .cu)
    [ -z "${ONLY:-}" ] || [ "$ONLY" = "$name" ] || continue
    mkdir -p "$out_root/$d"
    for arch in $archs; do
      out="$out_root/$d/$name.$arch.ptx"
      # -frandom-seed and compiling from the source's folder: otherwise nvcc puts a per-run random
      # number and a hash of the absolute path into internal symbol names (_INTERNAL_xxxxxxxx).
      if ! (cd "$kernels/$d" && "$NVCC" -arch="$arch" -ptx -lineinfo -Werror all-warnings \
              -frandom-seed="$name" "$name.cu" -o "$out.tmp"); then
        echo "gen_ptx: nvcc -arch=$arch failed on $d/$name.cu" >&2
        status=1; rm -f "$out.tmp"; continue
      fi
      sed -e "s|\"$kernels/|\"kernels/|g" \
          -e "s|\"$cuda_root/bin/\.\./|\"/usr/local/cuda/|g" -e "s|\"$cuda_real/bin/\.\./|\"/usr/local/cuda/|g" \
          -e "s|\"$cuda_root/|\"/usr/local/cuda/|g" -e "s|\"$cuda_real/|\"/usr/local/cuda/|g" \
          "$out.tmp" > "$out"
      rm -f "$out.tmp"
    done
  done
done
exit $status
