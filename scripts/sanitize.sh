#!/usr/bin/env bash
# scripts/sanitize.sh asan|tsan|ci [CTEST ARGS...]: the test suite under sanitizers (docs/hostile_input.md
# "Sanitizers and fuzzing").
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer (errors fatal, leaks reported) on every target
#         with gcc, the whole suite (or what CTEST ARGS select, e.g. -L fast). Build dir build-asan/.
#         (The libFuzzer harnesses are clang's: scripts/fuzz.sh, build-fuzz/.)
#   tsan  ThreadSanitizer (gcc) on the multi-threaded launch path: the tests labelled "tsan" (one launch
#         with 1 and 4 host threads, same bits and cycles; sim/launch.h). Build dir build-tsan/.
#   ci    The CI stage (scripts/test.sh runs it when CI=true): the tests labelled "sanitize-ci" under
#         ASan+UBSan, building only the targets they run. Build dir build-asan-ci/.
# Test time limits are multiplied under sanitizers (cmake/tcsim_sanitize_tests.cmake); tests without
# one get --timeout. Not -Werror: gcc 12 warns (-Wmaybe-uninitialized) inside libstdc++'s std::regex at
# -O1 with the sanitizers. Builds run at nice 19 with BUILD_JOBS (default: the core count) jobs; ccache is
# used when present (CCACHE_DISABLE=1 turns it off). Exit status: the build's, then ctest's.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?usage: scripts/sanitize.sh asan|tsan|ci [ctest args...]}
shift
jobs=${BUILD_JOBS:-$(nproc)}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

configure() {  # configure DIR SANITIZER
  [ -f "$1/build.ninja" ] && return 0
  cmake -S . -B "$1" -G Ninja -DCMAKE_CXX_COMPILER="${TCSIM_SANITIZE_CXX:-g++}" -DTCSIM_SANITIZE="$2" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}"
}

# The targets whose programs the tests of label $2 in build $1 run: every $1/bin/NAME in those tests'
# commands (the program itself, or an argument of cmake -P / python3 / sh, e.g. the tcsim binary).
# Read from the generated CTestTestfile.cmake files: ctest --show-only drops a command whose program
# is not built yet.
targets_of_label() {
  python3 - "$1" "$2" <<'PY'
import os, re, sys
build, label = os.path.realpath(sys.argv[1]), sys.argv[2]
names = set()
for root, _, files in os.walk(build):
    if "CTestTestfile.cmake" not in files:
        continue
    text = open(os.path.join(root, "CTestTestfile.cmake"), errors="replace").read()
    cmds = dict(re.findall(r'^add_test\(\[=\[(.+?)\]=\] (.*)\)$', text, re.M))
    for test, props in re.findall(r'^set_tests_properties\(\[=\[(.+?)\]=\] PROPERTIES (.*)\)$', text, re.M):
        m = re.search(r'LABELS "([^"]*)"', props)
        if m and label in m.group(1).split(";") and test in cmds:
            names.update(re.findall(re.escape(build) + r'/bin/([A-Za-z0-9_.+-]+)', cmds[test]))
print(" ".join(sorted(names)))
PY
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
case "$mode" in
  asan)
    B=build-asan
    configure "$B" asan
    nice -n 19 cmake --build "$B" -j "$jobs"
    exec ctest --test-dir "$B" --output-on-failure -j "$jobs" --timeout 15000 "$@"
    ;;
  tsan)
    B=build-tsan
    configure "$B" tsan
    read -r -a targets <<<"$(targets_of_label "$B" tsan)"
    nice -n 19 cmake --build "$B" -j "$jobs" --target "${targets[@]}"
    exec ctest --test-dir "$B" --output-on-failure -j "$jobs" --timeout 15000 -L tsan "$@"
    ;;
  ci)
    B=build-asan-ci
    start=$SECONDS
    configure "$B" asan
    read -r -a targets <<<"$(targets_of_label "$B" sanitize-ci)"
    echo "scripts/sanitize.sh ci: building ${targets[*]}"
    nice -n 19 cmake --build "$B" -j "$jobs" --target "${targets[@]}"
    built=$SECONDS
    rc=0
    ctest --test-dir "$B" --output-on-failure -j "$jobs" --timeout 3000 -L sanitize-ci "$@" || rc=$?
    echo "scripts/sanitize.sh ci: build $((built - start)) s, tests $((SECONDS - built)) s (ASan+UBSan, label sanitize-ci)"
    exit "$rc"
    ;;
  *) echo "scripts/sanitize.sh: mode must be asan, tsan or ci" >&2; exit 2 ;;
esac
