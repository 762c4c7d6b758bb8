#!/usr/bin/env bash
# Regenerates the committed PTX of kernels/hopper from its CUDA sources: every *.cu here -> *.ptx.
#
# Usage: gen_ptx.sh [OUT_DIR]     (default: next to each .cu; check_ptx.sh passes a temp dir)
# Environment: NVCC (default /usr/local/cuda/bin/nvcc); ONLY=<name> regenerates only <name>.cu;
#              JOBS=<n> parallel nvcc runs (default: the number of CPUs).
#
# Every kernel is compiled with   nvcc -arch=sm_90a -ptx -lineinfo -frandom-seed=<name> <name>.cu
# in this folder. -frandom-seed: nvcc otherwise puts a per-run random number into the names of
# internal symbols, which -lineinfo writes into the PTX, so it would differ from run to run. The
# PTX is then made independent of where the checkout lives: `.file` paths into this folder become
# relative ("wgmma_single.cuh"), the CUDA root becomes /usr/local/cuda, and normalize_ptx.py zeroes
# the source-path hash nvcc puts into internal symbol names.
# The generated sources (wgmma_*.cu, mma_sync_*.cu, common/*_ops.h) come from gen_wgmma.py and
# gen_mma.py: run those first when their tables change.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
export NVCC

gen_one() {  # gen_one SOURCE.cu OUT_DIR
  local cu=$1 out_dir=$2 name out cuda_root cuda_real
  name=$(basename "$cu" .cu)
  out="$out_dir/$name.ptx"
  cuda_root=$(cd "$(dirname "$NVCC")/.." && pwd)     # as named (may be a symlink) ...
  cuda_real=$(cd "$(dirname "$NVCC")/.." && pwd -P)  # ... and resolved: nvcc records both
  mkdir -p "$out_dir"
  if ! (cd "$here" && "$NVCC" -arch=sm_90a -ptx -lineinfo -frandom-seed="$name" "$name.cu" -o "$out.tmp"); then
    echo "gen_ptx: nvcc failed on $name.cu" >&2
    rm -f "$out.tmp"
    return 1
  fi
  sed -e "s|\"$here/|\"|g" \
      -e "s|\"$cuda_root/|\"/usr/local/cuda/|g" -e "s|\"$cuda_real/|\"/usr/local/cuda/|g" \
      "$out.tmp" > "$out"
  rm -f "$out.tmp"
  python3 "$here/normalize_ptx.py" "$out"
}

if [ "${1:-}" = "--one" ]; then  # internal: one source, run by xargs below
  gen_one "$2" "$3"
  exit $?
fi

out_dir=${1:-$here}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
for cu in "$here"/*.cu; do
  [ -e "$cu" ] || continue
  [ -z "${ONLY:-}" ] || [ "$ONLY" = "$(basename "$cu" .cu)" ] || continue
  printf '%s\0' "$cu"
done | xargs -0 -r -I{} -P "$jobs" "$0" --one {} "$out_dir"
