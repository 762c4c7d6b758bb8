#!/usr/bin/env bash
# Runs every golden spec of kernels/tma (with swizzle/) and kernels/cluster on a GPU with tcsim-hw
# and checks each output against the model (expect.py). The results directory then holds the
# hardware outputs to commit as goldens (RESULTS_DIR/<folder>/<spec>/) and to diff with tcsim:
#   tcsim run kernels/tma/X.json --out SIM/tma/X && tcsim diff SIM/tma/X RESULTS_DIR/tma/X
#
# Usage: run_hw.sh RESULTS_DIR [TCSIM_HW]   (TCSIM_HW default: tcsim-hw on PATH)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernels=$(cd "$here/.." && pwd)
out=${1:?usage: run_hw.sh RESULTS_DIR [TCSIM_HW]}
hw=${2:-tcsim-hw}
fail=0
for spec in "$kernels"/tma/*.json "$kernels"/tma/swizzle/*.json "$kernels"/cluster/*.json; do
  rel=${spec#"$kernels"/}; rel=${rel%.json}
  mkdir -p "$out/$rel"
  if timeout 120 "$hw" run "$spec" --out "$out/$rel" > "$out/$rel.log" 2>&1; then
    if python3 "$here/expect.py" "$spec" --check "$out/$rel" > "$out/$rel.check" 2>&1; then
      echo "ok      $rel"
    else
      echo "DIFFERS $rel (see $out/$rel.check; expect.py --assumptions lists the modelling choices)"; fail=1
    fi
  else
    echo "ERROR   $rel (see $out/$rel.log)"; fail=1
  fi
done
exit $fail
