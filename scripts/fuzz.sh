#!/usr/bin/env bash
# scripts/fuzz.sh [--fast] TARGET SECONDS [WORKERS]: runs the libFuzzer harness fuzz_TARGET
# (fuzz/README.md) for SECONDS, at nice 19, with WORKERS parallel processes (default 1; -fork mode).
# Targets: ptx_front_end spec_loader npy_reader descriptors mma_dot run_kernel.
# The default build is build-fuzz/ (clang, -DTCSIM_FUZZ=ON: ASan+UBSan; scripts/sanitize.sh asan
# builds the suite with gcc in build-asan/); --fast uses build-fuzz-fast/ (UBSan only, -O2: about ten times the
# executions per second) for long campaigns, whose corpus is then replayed under ASan+UBSan
# (scripts/fuzz.sh TARGET 0 replays the corpus once and stops). Either is configured on first use.
# Both share the corpus in build-fuzz/fuzz-corpus/TARGET (seeded from kernels/ and tests/fuzz/TARGET);
# crashes land in build-fuzz/fuzz-artifacts/TARGET/: minimise one and commit it under
# tests/fuzz/TARGET/ (the replay CTest fuzz_replay_TARGET runs it in the normal build).
# Environment: FUZZ_BUILD_DIR (the build), FUZZ_WORK_DIR (corpus and artifacts, default build-fuzz),
# FUZZ_MAX_LEN (overrides the target's input length limit; for ptx_front_end/run_kernel under 16 KiB
# an empty corpus is seeded with fuzz/make_seeds.py's small modules), BUILD_JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
if [ "${1:-}" = "--fast" ]; then fast=1; shift; fi
target=${1:?usage: scripts/fuzz.sh [--fast] TARGET SECONDS [WORKERS]}
seconds=${2:?usage: scripts/fuzz.sh [--fast] TARGET SECONDS [WORKERS]}
workers=${3:-1}
if [ "$fast" = 1 ]; then B=${FUZZ_BUILD_DIR:-build-fuzz-fast}; san=ubsan; else B=${FUZZ_BUILD_DIR:-build-fuzz}; san=asan; fi
W=${FUZZ_WORK_DIR:-build-fuzz}
case "$target" in
  ptx_front_end|spec_loader|npy_reader|descriptors|mma_dot|run_kernel) ;;
  *) echo "scripts/fuzz.sh: unknown target '$target'" >&2; exit 2 ;;
esac
command -v clang++ >/dev/null || { echo "scripts/fuzz.sh: needs clang++ (Debian: apt-get install clang)" >&2; exit 2; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$B/build.ninja" ]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DTCSIM_FUZZ=ON -DTCSIM_SANITIZE=$san \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}"
fi
nice -n 19 cmake --build "$B" --target "fuzz_$target" -j "${BUILD_JOBS:-2}"
corpus="$W/fuzz-corpus/$target"
artifacts="$W/fuzz-artifacts/$target"
mkdir -p "$corpus" "$artifacts"
seeds=("tests/fuzz/$target")
flags=(-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=20 -print_final_stats=1)
if [ -z "$(ls -A "$corpus")" ]; then
  case "$target" in
    ptx_front_end|run_kernel)
      # Whole kernels, or with FUZZ_MAX_LEN under 16 KiB the small valid modules cut from them
      # (fuzz/make_seeds.py: an execution costs about as much as its input is long).
      if [ "${FUZZ_MAX_LEN:-65536}" -lt 16384 ]; then python3 fuzz/make_seeds.py "$target" "$corpus" "$FUZZ_MAX_LEN"
      else find kernels -name '*.ptx' -size -64k ! -path '*bad/malformed.ptx' -exec cp {} "$corpus/" \; ; fi ;;
    spec_loader) python3 fuzz/make_seeds.py spec_loader "$corpus" ;;
    npy_reader) find kernels tests -name '*.npy' -size -64k | head -200 | while read -r f; do cp "$f" "$corpus/$(echo "$f" | tr / _)"; done ;;
  esac
fi
case "$target" in
  ptx_front_end|run_kernel) flags+=(-dict=fuzz/ptx.dict -max_len=${FUZZ_MAX_LEN:-65536}) ;;
  spec_loader) flags+=(-max_len=${FUZZ_MAX_LEN:-16384}) ;;
  *) flags+=(-max_len=${FUZZ_MAX_LEN:-4096}) ;;
esac
[ "$workers" -gt 1 ] && flags+=(-fork="$workers")
if [ "$seconds" = 0 ]; then
  # Replay: every corpus input and every artifact once (-runs=0 runs the inputs and stops).
  exec nice -n 19 "$B/bin/fuzz_$target" -runs=0 "${flags[@]}" "$corpus" "${seeds[@]}"
fi
exec nice -n 19 "$B/bin/fuzz_$target" -max_total_time="$seconds" -artifact_prefix="$artifacts/" "${flags[@]}" \
  "$corpus" "${seeds[@]}"
