#!/usr/bin/env bash
# The full sweep of the H200 goldens: every spec of kernels/hopper/specs/{wgmma,mma,misc,gemm}
# run in the simulator and compared bit for bit with its golden (golden/README.md), one
# `tcsim golden` process per folder. CTest runs the same specs in groups (label tcsim-golden);
# this script is the one-command version, for a tree whose goldens were unpacked by CMake.
#
#   run_golden.sh [BUILD_DIR] [FOLDER...]      (default: build, all four folders)
#
# Exit status 0 only when every spec of every folder matched.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
shift || true
folders=("$@")
[ ${#folders[@]} -eq 0 ] && folders=(wgmma mma misc gemm)
tcsim=$build/bin/tcsim
golden=$build/kernels/hopper/golden/h200
[ -x "$tcsim" ] || { echo "run_golden: no $tcsim (build the tcsim target)"; exit 2; }
[ -d "$golden" ] || { echo "run_golden: no $golden (configure the build: CMake unpacks golden/h200.tar.xz)"; exit 2; }
status=0
for f in "${folders[@]}"; do
  echo "== $f"
  "$tcsim" golden "$here/specs/$f" "$golden/$f" || status=1
done
exit $status
