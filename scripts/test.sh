#!/usr/bin/env bash
# Configures (warnings are errors), builds everything, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DTCSIM_WERROR=ON
cmake --build build
ctest --test-dir build --output-on-failure -j "$(nproc)"
if [ "${CI:-}" = true ]; then scripts/sanitize.sh ci; fi  # ASan+UBSan stage, label sanitize-ci (docs/hostile_input.md)
