#!/usr/bin/env bash
# Regenerates the committed PTX of kernels/launch from its CUDA sources (../ptx_tool.py's logic:
# canonical compile location, flags, targets, .file normalisation).
# Usage: gen_ptx.sh [OUT_ROOT]   Environment: NVCC, ONLY=<name>, JOBS=<n>, PTX_CACHE_DIR.
here=$(cd "$(dirname "$0")" && pwd)
exec "${PYTHON:-python3}" "$here/../ptx_tool.py" gen launch ${ONLY:+--only "$ONLY"} ${1:+--out "$1"}
