#!/usr/bin/env bash
# Every example of issue 16's "Why" list, each within 20 s (scripts/why_examples.py; the CTest
# why_examples runs the fast ones). Usage: scripts/why_examples.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/why_examples.py --tcsim "${1:-build}/bin/tcsim"
