#!/usr/bin/env bash
# The PTX judge of kernels/basic (CTest kernels_basic_ptx): pairing and targets, ptxas on every
# committed .ptx, and no drift from what nvcc makes of the sources today. The logic is
# ../ptx_tool.py's, shared by every corpus.
# Usage: check_ptx.sh [CUDA_ROOT]   (default /usr/local/cuda). Exit 0 = all good.
# Environment: PTX_CACHE_DIR (CTest passes one in the build tree), JOBS=<n>.
here=$(cd "$(dirname "$0")" && pwd)
exec "${PYTHON:-python3}" "$here/../ptx_tool.py" check basic --cuda "${1:-/usr/local/cuda}"
