#!/usr/bin/env bash
# scripts/sanitize.sh asan|tsan [CTEST ARGS...]: the test suite under sanitizers (docs/hostile_input.md).
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer (errors fatal) on every target, the whole suite
#         (or what CTEST ARGS select, e.g. -L fast). Build dir build-asan/: with clang it is the fuzz
#         build too (-DTCSIM_FUZZ=ON, scripts/fuzz.sh); without clang, gcc's sanitizers.
#   tsan  ThreadSanitizer on the multi-threaded launch path: the sim unit tests and the sampled
#         determinism test (1 and 4 host threads), label "threads". Build dir build-tsan/.
# Both build at nice 19 with BUILD_JOBS (default 2) jobs. Exit status: ctest's.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: scripts/sanitize.sh asan|tsan [ctest args...]}
shift
jobs=${BUILD_JOBS:-2}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
case "$mode" in
  asan)
    B=build-asan
    if [ ! -f "$B/build.ninja" ]; then
      if command -v clang++ >/dev/null; then
        cmake -S . -B "$B" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DTCSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}"
      else
        cmake -S . -B "$B" -G Ninja -DTCSIM_SANITIZE=asan -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}"
      fi
    fi
    nice -n 19 cmake --build "$B" -j "$jobs"
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    exec ctest --test-dir "$B" --output-on-failure -j "$jobs" "$@"
    ;;
  tsan)
    B=build-tsan
    [ -f "$B/build.ninja" ] || cmake -S . -B "$B" -G Ninja -DTCSIM_SANITIZE=tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}"
    nice -n 19 cmake --build "$B" -j "$jobs" --target tcsim tcsim_sim_tests
    export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
    exec ctest --test-dir "$B" --output-on-failure -L threads "$@"
    ;;
  *) echo "scripts/sanitize.sh: mode must be asan or tsan" >&2; exit 2 ;;
esac
