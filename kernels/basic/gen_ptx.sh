#!/usr/bin/env bash
# Regenerates the committed PTX of kernels/basic from its CUDA sources. The logic (canonical
# compile location, flags, targets, .file normalisation) is ../ptx_tool.py's, shared by every corpus.
# Usage: gen_ptx.sh [OUT_ROOT]   (default: beside the sources; OUT_ROOT mirrors kernels/)
# Environment: NVCC (default /usr/local/cuda/bin/nvcc), ONLY=<name> (one source), JOBS=<n>,
#              PTX_CACHE_DIR (skip sources whose PTX is already what nvcc makes of them).
here=$(cd "$(dirname "$0")" && pwd)
exec "${PYTHON:-python3}" "$here/../ptx_tool.py" gen basic ${ONLY:+--only "$ONLY"} ${1:+--out "$1"}
