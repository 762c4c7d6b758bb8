#!/usr/bin/env bash
# The PTX judge of kernels/launch (CTest kernels_launch_ptx): pairing and targets, ptxas on every
# committed .ptx, and no drift from what nvcc makes of the sources today (../ptx_tool.py).
# Usage: check_ptx.sh [CUDA_ROOT]   (default /usr/local/cuda). Exit 0 = all good.
here=$(cd "$(dirname "$0")" && pwd)
exec "${PYTHON:-python3}" "$here/../ptx_tool.py" check launch --cuda "${1:-/usr/local/cuda}"
