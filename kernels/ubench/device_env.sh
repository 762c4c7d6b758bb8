# Sourced by the run_*_on_device.sh scripts: $OUT (created), elapsed (seconds since sourcing),
# $NCU and $CUOBJDUMP, the GPU/driver/Nsight Compute versions in $OUT/env.txt, and an nvidia-smi
# clock/power log every 200 ms in $OUT/smi.csv whose pid is $smi (the caller kills it at the end).
OUT=${OUT:-/tmp/ubench_out}
mkdir -p "$OUT"
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n1)
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "git: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,vbios_version,clocks.max.sm,clocks.max.mem,power.limit,memory.total --format=csv 2>&1
  echo "ncu: $NCU $("$NCU" --version 2>&1 | tail -n1)"
  uname -r
} > "$OUT/env.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > "$OUT/smi.csv" 2>&1 &
smi=$!
