#!/usr/bin/env bash
# Every committed launch spec with 1 and 4 host threads, twice each (scripts/determinism.py --sample 0).
# Usage: scripts/determinism.sh [BUILD_DIR]   (default build). Takes long: the CTest runs a sample.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/determinism.py --tcsim "${1:-build}/bin/tcsim" --sample 0 --threads 4
