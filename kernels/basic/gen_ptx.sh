#!/usr/bin/env bash
# Regenerates the committed PTX of the basic corpus from its CUDA sources:
#   kernels/basic/*.cu      -> kernels/basic/*.ptx
#   kernels/basic/bad/*.cu  -> kernels/basic/bad/*.ptx
#
# Usage: gen_ptx.sh [OUT_DIR]     (default: next to each .cu; check_ptx.sh passes a temp dir)
# Environment: NVCC (default /usr/local/cuda/bin/nvcc); ONLY=<name> regenerates only <name>.cu;
#              JOBS=<n> parallel nvcc runs (default: the number of CPUs).
#
# Every kernel is compiled with   nvcc -arch=sm_90a -ptx -lineinfo -frandom-seed=<file> <file>.cu
# (-frandom-seed: nvcc otherwise puts a per-run random number into the names of internal symbols,
# which -lineinfo writes into .debug_str, so the PTX would differ from run to run.)
# A source can change the target or add flags with header lines (read by this script only):
#   // nvcc-arch: sm_100a          (kernels the H200 cannot run: fp6/fp4/ue8m0 cvt, f32x2, ...)
#   // nvcc-flags: -ftz=true       (extra flags, e.g. to make nvcc emit .ftz forms)
#
# The PTX is made independent of where the checkout lives: `.file` paths that point into the
# source's folder become relative to it ("reduce_sum.cu"), and the CUDA root (as named and as
# resolved) becomes /usr/local/cuda, and normalize_ptx.py zeroes the source-path hash nvcc puts
# into internal symbol names, so the committed files compare equal on any machine with the same
# nvcc release.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
export NVCC

gen_one() {  # gen_one SOURCE.cu OUT_ROOT
  local cu=$1 out_root=$2
  local dir name rel arch flags out cuda_root cuda_real
  dir=$(dirname "$cu"); name=$(basename "$cu" .cu)
  rel=${dir#"$here"}; rel=${rel#/}
  arch=$(sed -n 's|^// nvcc-arch: *\([a-z0-9_]*\).*|\1|p' "$cu" | head -n1)
  arch=${arch:-sm_90a}
  flags=$(sed -n 's|^// nvcc-flags: *||p' "$cu" | head -n1)
  out="$out_root${rel:+/$rel}/$name.ptx"
  cuda_root=$(cd "$(dirname "$NVCC")/.." && pwd)     # as named (may be a symlink) ...
  cuda_real=$(cd "$(dirname "$NVCC")/.." && pwd -P)  # ... and resolved: nvcc records both
  mkdir -p "$(dirname "$out")"
  # nvcc runs in the source's folder, so `.file` names the source relative to the PTX beside it.
  # shellcheck disable=SC2086  # flags are a word list on purpose
  if ! (cd "$dir" && "$NVCC" -arch="$arch" -ptx -lineinfo -frandom-seed="$name" $flags "$name.cu" \
                       -o "$out.tmp"); then
    echo "gen_ptx: nvcc failed on ${rel:+$rel/}$name.cu" >&2
    rm -f "$out.tmp"
    return 1
  fi
  sed -e "s|\"$dir/|\"|g" \
      -e "s|\"$cuda_root/|\"/usr/local/cuda/|g" -e "s|\"$cuda_real/|\"/usr/local/cuda/|g" \
      "$out.tmp" > "$out"
  rm -f "$out.tmp"
  python3 "$here/normalize_ptx.py" "$out"   # path hash in internal names -> 00000000
}

if [ "${1:-}" = "--one" ]; then  # internal: one source, run by xargs below
  gen_one "$2" "$3"
  exit $?
fi

out_root=${1:-$here}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 1)}
for cu in "$here"/*.cu "$here"/bad/*.cu; do
  [ -e "$cu" ] || continue
  [ -z "${ONLY:-}" ] || [ "$ONLY" = "$(basename "$cu" .cu)" ] || continue
  printf '%s\0' "$cu"
done | xargs -0 -r -I{} -P "$jobs" "$0" --one {} "$out_root"
