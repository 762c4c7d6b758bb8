#!/usr/bin/env bash
# Runs the kernels/hopper launch specs with a runner and collects the output directories, then
# (optionally) judges them. For the H200 differential test of issue 6:
#
#   run_corpus.sh run  TOOL OUT_ROOT [REGEX]   TOOL run SPEC --out OUT_ROOT/<folder>/<spec name>
#                                              for every spec under specs/ whose path matches REGEX
#                                              (default: everything but specs/bench/)
#   run_corpus.sh diff TCSIM A_ROOT B_ROOT     tcsim diff for every output directory in both roots
#   run_corpus.sh ref  OUT_ROOT [REGEX]        reference.py on every output directory under OUT_ROOT
#
# TOOL is e.g. "tcsim-hw" or "tcsim" (a path, possibly with extra options in quotes). Each step
# prints one line per spec and a summary; the exit status is 0 only when every spec succeeded.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-}
specs() {  # specs REGEX
  find "$here/specs" -name '*.json' | sort | grep -E "$1" | grep -Ev "${2:-^$}"
}
case "$mode" in
  run)
    tool=$2 root=$3 regex=${4:-.}
    exclude='^$'; [ -z "${4:-}" ] && exclude='/specs/bench/'
    n=0 bad=0
    for spec in $(specs "$regex" "$exclude"); do
      rel=${spec#"$here/specs/"}; out="$root/${rel%.json}"
      mkdir -p "$out"
      if $tool run "$spec" --out "$out" > "$out.log" 2>&1; then echo "ok   $rel"; else echo "FAIL $rel (see $out.log)"; bad=$((bad + 1)); fi
      n=$((n + 1))
    done
    echo "run_corpus: $((n - bad)) of $n specs ran"; [ $bad -eq 0 ] ;;
  diff)
    tcsim=$2 a=$3 b=$4 n=0 bad=0
    for d in $(cd "$a" && find . -name manifest.json | sort); do
      d=$(dirname "$d"); d=${d#./}
      [ -e "$b/$d/manifest.json" ] || continue
      if $tcsim diff "$a/$d" "$b/$d" > "$b/$d.diff" 2>&1; then echo "same $d"; else echo "DIFF $d (see $b/$d.diff)"; bad=$((bad + 1)); fi
      n=$((n + 1))
    done
    echo "run_corpus diff: $((n - bad)) of $n identical"; [ $bad -eq 0 ] ;;
  ref)
    root=$2 regex=${3:-.} args=()
    for d in $(cd "$root" && find . -name manifest.json | sort); do
      d=$(dirname "$d"); d=${d#./}
      spec="$here/specs/$d.json"
      [ -e "$spec" ] && echo "$spec" | grep -qE "$regex" && args+=("$spec" "$root/$d")
    done
    python3 "$here/reference.py" "${args[@]}" ;;
  *)
    sed -n '2,14p' "$0"; exit 2 ;;
esac
