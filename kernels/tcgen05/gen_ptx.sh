#!/usr/bin/env bash
# Regenerates the committed PTX of the tcgen05 corpus from its CUDA sources:
#   mma_single.cu -> mma_single.ptx      gemm.cu -> gemm.ptx
#
# Usage: gen_ptx.sh [OUT_DIR]   (default: this folder; check_ptx.sh passes a temporary folder)
# Environment: NVCC (default /usr/local/cuda/bin/nvcc).
#
# Every source is compiled with
#   nvcc -arch=sm_100a -std=c++17 -ptx -lineinfo -frandom-seed=<name> <name>.cu
# run in this folder, so `.file` names the sources relative to the PTX ("gemm.cu"); -lineinfo lets
# tcsim point at the CUDA line of a PTX instruction. The PTX is then made independent of where the
# checkout lives: the CUDA root (as named and as resolved) becomes /usr/local/cuda, and the
# 8-hex-digit hash of the source's absolute path that nvcc puts into internal symbol names
# (_INTERNAL_xxxxxxxx_, written into .debug_str as .b8 byte lists) becomes 00000000.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
out_root=${1:-$here}
mkdir -p "$out_root"
cuda_root=$(cd "$(dirname "$NVCC")/.." && pwd)
cuda_real=$(cd "$(dirname "$NVCC")/.." && pwd -P)

gen_one() {
  local name=$1 out="$out_root/$1.ptx"
  if ! (cd "$here" && "$NVCC" -arch=sm_100a -std=c++17 -ptx -lineinfo -frandom-seed="$name" \
                          "$name.cu" -o "$out.tmp"); then
    echo "gen_ptx: nvcc failed on $name.cu" >&2
    rm -f "$out.tmp"
    return 1
  fi
  sed -e "s|\"$here/|\"|g" \
      -e "s|\"$cuda_root/|\"/usr/local/cuda/|g" -e "s|\"$cuda_real/|\"/usr/local/cuda/|g" \
      "$out.tmp" > "$out"
  rm -f "$out.tmp"
  python3 - "$out" <<'PY'
import re, sys
path = sys.argv[1]
lines = open(path).read().split("\n")
idx = [k for k, l in enumerate(lines) if l.startswith(".b8 ")]
data = bytearray()
for k in idx:
    data.extend(int(v) for v in lines[k][4:].split(","))
new = re.sub(rb"_INTERNAL_[0-9a-f]{8}_", b"_INTERNAL_00000000_", bytes(data))
assert len(new) == len(data)
pos = 0
for k in idx:
    n = len(lines[k][4:].split(","))
    lines[k] = ".b8 " + ",".join(str(b) for b in new[pos:pos + n])
    pos += n
open(path, "w").write("\n".join(lines))
PY
}

pids=()
for name in mma_single gemm; do
  gen_one "$name" & pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
exit $rc
