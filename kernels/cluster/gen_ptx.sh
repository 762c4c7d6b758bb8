#!/usr/bin/env bash
# Regenerates kernels/cluster/*.sm_{90a,100a}.ptx (and bad/); the logic lives in
# kernels/tma/gen_ptx.sh, shared by both folders of the asynchronous-machine corpus.
# Usage: gen_ptx.sh [OUT_ROOT]   (see kernels/tma/gen_ptx.sh)
here=$(cd "$(dirname "$0")" && pwd)
DIRS=${DIRS:-"cluster cluster/bad"} exec "$here/../tma/gen_ptx.sh" "$@"
