#!/usr/bin/env bash
# For the day a B200 (sm_100a) is available: builds and runs the tcgen05 probes and, for probe B12,
# the mma.sync probes of ../sm90 rebuilt for sm_100a and compared with tcsim's sm_100a mma.sync
# rows. Results under $OUT (same line formats as the sm_90a programs, see ../README.md).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=${OUT:-$ROOT/out/probes_b200}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
DIFF=${DIFF:-1000000}
BUILD=$(mktemp -d /tmp/tcsim_b200.XXXXXX)
CXX="-std=c++20 -O3 -I$ROOT"
A100="-gencode arch=compute_100a,code=sm_100a"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1; "$NVCC" --version | tail -1; } > "$OUT/env.txt"
objs=()
for s in models/formats/format.cc models/mma/decode.cc models/mma/rounding.cc models/mma/engine.cc \
         models/mma/param_table.cc models/mma/simd_kernels.cc; do
  o="$BUILD/$(basename "$s" .cc).o"; objs+=("$o")
  "$NVCC" $CXX -c "$ROOT/$s" -o "$o" >> "$OUT/build.log" 2>&1 &
done
"$NVCC" $CXX $A100 -c "$ROOT/kernels/probes/tcgen05/tcgen05_probes.cu" -o "$BUILD/tc.o" >> "$OUT/build.log" 2>&1 &
B12="-DPROBES_SM100 -DPROBES_NO_WGMMA"
for s in combos combos_mma_sync probes_main diff_main; do
  "$NVCC" $CXX $A100 $B12 -c "$ROOT/kernels/probes/sm90/$s.cu" -o "$BUILD/$s.o" >> "$OUT/build.log" 2>&1 &
done
wait
"$NVCC" $A100 -o "$BUILD/tcgen05_probes" "$BUILD/tc.o" "${objs[@]}" -lpthread >> "$OUT/build.log" 2>&1
"$NVCC" $A100 -o "$BUILD/probes_mma" "$BUILD/combos.o" "$BUILD/combos_mma_sync.o" "$BUILD/probes_main.o" "${objs[@]}" -lpthread >> "$OUT/build.log" 2>&1
"$NVCC" $A100 -o "$BUILD/diff_mma" "$BUILD/combos.o" "$BUILD/combos_mma_sync.o" "$BUILD/diff_main.o" "${objs[@]}" -lpthread >> "$OUT/build.log" 2>&1
"$BUILD/tcgen05_probes" --diff "$DIFF" > "$OUT/tcgen05_probes.txt" 2> "$OUT/tcgen05_probes.err"
"$BUILD/probes_mma" > "$OUT/mma_sync_sm100_probes.txt" 2> "$OUT/mma_sync_sm100_probes.err"
"$BUILD/diff_mma" --outputs "$DIFF" > "$OUT/mma_sync_sm100_diff.txt" 2> "$OUT/mma_sync_sm100_diff.err"
rm -rf "$BUILD"
