#!/bin/bash
# The H200 recording (kernels/host/golden/README.md), run by the device tool in one call from a
# folder holding: libcuda.so.1 (tcsim_capture_standalone), hopper_gemm, cluster_dsmem, device_query.
#   h200_run.sh DIR OUT       writes OUT/h200_device.json, OUT/h200_runs.txt, OUT/h200_capture.tar.xz
set -u
dir=$(cd "$1" && pwd); out=$2
mkdir -p "$out"
real=$(ldconfig -p | awk '/libcuda\.so\.1 /{print $NF; exit}')
[ -n "$real" ] || real=$(ls /usr/local/nvidia/lib64/libcuda.so.1 /usr/lib/x86_64-linux-gnu/libcuda.so.1 2>/dev/null | head -1)
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "real driver: $real"
  echo "== device_query"; "$dir/device_query" > "$out/h200_device.json"; echo "rc=$?"
  echo "== cluster_dsmem (native)"; "$dir/cluster_dsmem"; echo "rc=$?"
  echo "== hopper_gemm (native)"; "$dir/hopper_gemm"; echo "rc=$?"
  echo "== hopper_gemm under the capture layer over the real driver"
  rm -rf /tmp/h200_capture
  LD_LIBRARY_PATH="$dir" TCSIM_CAPTURE_NEXT="$real" TCSIM_CAPTURE_DIR=/tmp/h200_capture "$dir/hopper_gemm"; echo "rc=$?"
  cat /tmp/h200_capture/capture.json
} > "$out/h200_runs.txt" 2>&1
tar --sort=name --mtime='2026-12-01 00:00Z' --owner=0 --group=0 --numeric-owner -C /tmp -cf - h200_capture | xz -9 > "$out/h200_capture.tar.xz"
ls -la "$out"
