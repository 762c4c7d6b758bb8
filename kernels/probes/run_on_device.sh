#!/usr/bin/env bash
# Builds the tensor-core probe programs with nvcc and runs them on the GPU of this machine,
# writing every result under $OUT (the coordinator runs this on an H200; budget < 8 minutes).
#   $OUT/env.txt            GPU, driver, CUDA, date
#   $OUT/probes_sm90.txt    Q1-Q20 probe results per path/type + hypothesis summaries
#   $OUT/diff_sm90.txt      random differential: >= 10M outputs per combination vs tcsim's rows
#   $OUT/sass_sm90.txt      SASS opcode summary of every probe kernel (which unit runs mma.sync fp8?)
#   $OUT/build_*.log        compiler output
#   $OUT/tcgen05_ptxas.txt  sm_100a tcgen05 probe kernels assembled by ptxas (no B200 here)
# Options (environment): DIFF_OUTPUTS (default 10000000), NVCC, JOBS.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/out/probes}
mkdir -p "$OUT"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
JOBS=${JOBS:-$(nproc)}
DIFF_OUTPUTS=${DIFF_OUTPUTS:-10000000}
BUILD=$(mktemp -d /tmp/tcsim_probes.XXXXXX)
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(hostname)"
  echo "nvcc: $("$NVCC" --version | tail -n 2 | tr '\n' ' ')"
  nvidia-smi --query-gpu=name,driver_version,vbios_version,clocks.max.sm,memory.total --format=csv 2>&1
  echo "git: $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
  grep -m1 "model name" /proc/cpuinfo
  echo "cpu flags avx2: $(grep -c -w avx2 /proc/cpuinfo)"
} > "$OUT/env.txt" 2>&1

CXXFLAGS="-std=c++20 -O3 -I$ROOT"
ARCH90="-gencode arch=compute_90a,code=sm_90a"

# the tcsim fast path (host code, std-only) compiled into the programs
MODEL_SRCS="models/formats/format.cc models/mma/decode.cc models/mma/rounding.cc models/mma/engine.cc
            models/mma/param_table.cc models/mma/simd_kernels.cc"
build_obj() {  # src obj extra-flags
  "$NVCC" $CXXFLAGS $3 -c "$ROOT/$1" -o "$2" >> "$OUT/build_sm90.log" 2>&1
}
echo "[$(elapsed)s] building (jobs=$JOBS)" | tee -a "$OUT/env.txt"
: > "$OUT/build_sm90.log"
pids=()
objs=()
for s in $MODEL_SRCS; do
  o="$BUILD/$(basename "$s" .cc).o"; objs+=("$o")
  build_obj "$s" "$o" "" & pids+=($!)
done
for s in combos combos_mma_sync combos_wgmma_ss combos_wgmma_rs probes_main diff_main; do
  o="$BUILD/$s.o"
  build_obj "kernels/probes/sm90/$s.cu" "$o" "$ARCH90" & pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
if [ $fail -ne 0 ]; then
  echo "BUILD FAILED (see build_sm90.log)" | tee -a "$OUT/env.txt"
else
  "$NVCC" $ARCH90 -o "$BUILD/probes_sm90" "$BUILD/combos.o" "$BUILD/combos_mma_sync.o" "$BUILD/combos_wgmma_ss.o" "$BUILD/combos_wgmma_rs.o" "$BUILD/probes_main.o" "${objs[@]}" \
      -lpthread >> "$OUT/build_sm90.log" 2>&1 || fail=1
  "$NVCC" $ARCH90 -o "$BUILD/diff_sm90" "$BUILD/combos.o" "$BUILD/combos_mma_sync.o" "$BUILD/combos_wgmma_ss.o" "$BUILD/combos_wgmma_rs.o" "$BUILD/diff_main.o" "${objs[@]}" \
      -lpthread >> "$OUT/build_sm90.log" 2>&1 || fail=1
fi
echo "[$(elapsed)s] build done (fail=$fail)" | tee -a "$OUT/env.txt"

if [ $fail -eq 0 ]; then
  # SASS: which instructions each kernel became (e.g. mma.sync fp8 -> HMMA + F2FP, or QMMA?)
  if command -v cuobjdump > /dev/null; then
    for f in "$BUILD"/combos_*.o; do cuobjdump -sass "$f"; done 2> /dev/null | awk '
      /Function :/ { if (fn) print fn "\t" ops; fn = $3; ops = ""; delete seen; next }
      /\/\*[0-9a-f]{4}\*\// { op = $2; if (op ~ /^@/) op = $3; sub(/[ ;].*/, "", op);
        if (op ~ /MMA|GMMA|F2FP|I2F|F2F|HADD|HFMA|FADD|FFMA|DADD|WARPGROUP/ && !(op in seen)) { seen[op] = 1; ops = ops " " op } }
      END { if (fn) print fn "\t" ops }' > "$OUT/sass_sm90.txt"
  else
    echo "cuobjdump not found" > "$OUT/sass_sm90.txt"
  fi
  echo "[$(elapsed)s] probes" | tee -a "$OUT/env.txt"
  timeout 90 "$BUILD/probes_sm90" > "$OUT/probes_sm90.txt" 2> "$OUT/probes_sm90.err"
  echo "probes exit: $?" >> "$OUT/env.txt"
  echo "[$(elapsed)s] differential ($DIFF_OUTPUTS outputs per combination)" | tee -a "$OUT/env.txt"
  # the whole script must end before 8 minutes: the differential stops at 6:40
  left=$(( 400 - $(elapsed) ))
  [ $left -lt 10 ] && left=10
  timeout "$left" "$BUILD/diff_sm90" --outputs "$DIFF_OUTPUTS" > "$OUT/diff_sm90.txt" 2> "$OUT/diff_sm90.err"
  echo "diff exit: $? (124 = timed out; the file holds every combination finished)" >> "$OUT/env.txt"
fi

# sm_100a tcgen05 probes: assemble only (no B200 here), if at least 70 s of the budget remain
if [ $(( 440 - $(elapsed) )) -gt 60 ]; then
  timeout 60 "$NVCC" $CXXFLAGS -gencode arch=compute_100a,code=sm_100a -cubin \
      -o "$BUILD/tcgen05_probes.cubin" "$ROOT/kernels/probes/tcgen05/tcgen05_probes.cu" \
      > "$OUT/tcgen05_ptxas.txt" 2>&1
  echo "tcgen05 ptxas exit: $?" >> "$OUT/tcgen05_ptxas.txt"
fi
echo "[$(elapsed)s] done" | tee -a "$OUT/env.txt"
rm -rf "$BUILD"
