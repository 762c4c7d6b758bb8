#!/usr/bin/env bash
# The checker's cost (docs/checker.md "Cost"): wall time of `tcsim run` with the hazard tracking on
# (the default) and off (--no-check) for the main job and a Hopper GEMM, best of N runs each,
# printed with the machine's context. A measurement, never a test (the issue's target: checked runs
# at most 2x the unchecked run).
#   bench/checker_cost.sh [BUILD_DIR] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-5}
tcsim=$build/bin/tcsim
specs=(kernels/tcgen05/gemm_bf16.json kernels/hopper/specs/bench/gemm_bf16_ws__1024x1024x1024.json)

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores," \
     "$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tcsim: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), build $(grep -m1 CMAKE_BUILD_TYPE:STRING "$build/CMakeCache.txt" | cut -d= -f2)"
best() {  # best wall seconds of n runs of: tcsim run "$@"
  local b=""
  for _ in $(seq "$n"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$tcsim" run "$@" > /dev/null 2>&1
    t1=$(date +%s.%N)
    b=$(echo "$t0 $t1 $b" | awk '{d = $2 - $1; if ($3 == "" || d < $3) print d; else print $3}')
  done
  echo "$b"
}
for threads in 1 0; do
  for s in "${specs[@]}"; do
    on=$(best "$s" --host-threads $threads)
    off=$(best "$s" --host-threads $threads --no-check)
    awk -v s="$s" -v t="$threads" -v on="$on" -v off="$off" -v n="$n" 'BEGIN {
      printf "%-62s host-threads %-2s checked %7.3f s  --no-check %7.3f s  ratio %.2f  (best of %d)\n",
             s, (t == 0 ? "all" : t), on, off, on / off, n }'
  done
done
