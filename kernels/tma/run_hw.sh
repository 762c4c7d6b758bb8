#!/usr/bin/env bash
# Runs every golden spec of kernels/tma (with swizzle/) and kernels/cluster on a GPU with tcsim-hw
# and checks each output against the model (expect.py). The results directory then holds the
# hardware outputs to commit as goldens (RESULTS_DIR/<folder>/<spec>/) and to diff with tcsim:
#   tcsim run kernels/tma/X.json --out SIM/tma/X && tcsim diff SIM/tma/X RESULTS_DIR/tma/X
# A spec whose "arch" is not the device's is listed as SKIP, not run: the swizzle/sw_128B_atom_*
# specs are sm_100a-only (the H200's driver rejects the 128B_ATOM swizzles, README.md "Facts
# settled on the H200").
#
# Usage: run_hw.sh RESULTS_DIR [TCSIM_HW]   (TCSIM_HW default: tcsim-hw on PATH)
# Environment: DEVICE_ARCH (default: from nvidia-smi's compute capability, 9.0 -> sm_90a);
#              SPECS (default: every golden spec) to run a subset, paths relative to kernels/.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernels=$(cd "$here/.." && pwd)
out=${1:?usage: run_hw.sh RESULTS_DIR [TCSIM_HW]}
hw=${2:-tcsim-hw}
if [ -z "${DEVICE_ARCH:-}" ]; then
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .')
  DEVICE_ARCH=${cc:+sm_${cc}a}
fi
[ -n "${DEVICE_ARCH:-}" ] || { echo "run_hw.sh: cannot tell the device's arch (set DEVICE_ARCH)" >&2; exit 2; }
if [ -n "${SPECS:-}" ]; then
  specs=()
  for s in $SPECS; do specs+=("$kernels/$s"); done
else
  specs=("$kernels"/tma/*.json "$kernels"/tma/swizzle/*.json "$kernels"/cluster/*.json)
fi
fail=0
for spec in "${specs[@]}"; do
  rel=${spec#"$kernels"/}; rel=${rel%.json}
  arch=$(sed -n 's/^  "arch": "\(.*\)",$/\1/p' "$spec")
  if [ -n "$arch" ] && [ "$arch" != "$DEVICE_ARCH" ]; then
    echo "SKIP    $rel ($arch only; this device is $DEVICE_ARCH)"
    continue
  fi
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
