#!/usr/bin/env bash
# The PTX judge for kernels/cluster (and bad/); the logic lives in kernels/tma/check_ptx.sh.
# Usage: check_ptx.sh [CUDA_ROOT]
here=$(cd "$(dirname "$0")" && pwd)
DIRS=${DIRS:-"cluster cluster/bad"} exec "$here/../tma/check_ptx.sh" "$@"
