#!/usr/bin/env bash
# The machine-shape measurements on a GPU (the coordinator runs this on an H200; < 2 minutes):
#   * machine_shape (this folder): SM count, cudaOccupancyMaxActiveClusters for cluster sizes 1..16
#     under several block / shared-memory configurations, %smid of every CTA of maximal cluster
#     launches (GPC and TPC inference), the size of the first wave of an over-full launch;
#   * tcsim-hw over the launch specs whose outputs become H200 goldens: kernels/cluster/smem_addr_*,
#     smem_probe_m* (shared-memory address encoding, DSMEM through built addresses), kernels/basic/
#     cvt_nan (NaN conversions), and coresident_c<k>_fit specs written here from machine_shape's
#     table (a grid of exactly max_active_clusters(k) clusters: every CTA must see all the others);
#     every spec twice, to show the outputs are reproducible;
#   * sass_addr.sh: the SASS listing of sass_addr.cu (ptxas 13.0, sm_90a and sm_100a).
# Results: $OUT/results.tar.gz (results/<spec>/..., *.txt, *.log) and $OUT/summary.txt.
# Usage: run_machine.sh [TCSIM_HW] [MACHINE_SHAPE]   (prebuilt binaries; built here when missing or
#        when they do not run on this machine)
# SPECS="cluster/smem_sregs_*.json ..." (globs relative to kernels/): run only these specs through
# tcsim-hw (no machine_shape, no SASS); the second capture of 2026-12-01 was run this way.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=${OUT:-$ROOT/out/machine}
R=$(mktemp -d /tmp/tcsim_machine.XXXXXX)/results
mkdir -p "$R" "$OUT"
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
HW=${1:-}
SHAPE=${2:-}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc: $(nvcc --version | tail -n 1)"
  nvidia-smi --query-gpu=name,driver_version,vbios_version,clocks.max.sm,memory.total,compute_cap --format=csv 2>&1
  echo "tree: $(cd "$ROOT" && cat kernels/cluster/smem_addr.cu kernels/basic/cvt_nan.cu kernels/cluster/coresident.cu | sha256sum | cut -c1-16)"
} > "$R/env.txt" 2>&1
cat "$R/env.txt"

# tcsim-hw: the carried binary if it runs here, else a parallel build of build_standalone.sh's sources.
if [ -z "$HW" ] || ! "$HW" --help > /dev/null 2>&1; then
  echo "[$(elapsed)s] building tcsim-hw"
  B=$(mktemp -d)
  inc=""
  [ -n "${TCSIM_HW_INCLUDES:-}" ] && inc="-I$TCSIM_HW_INCLUDES"
  ls "$ROOT"/tools/tcsim-hw/main.cc "$ROOT"/tools/tcsim-hw/cuda_backend.cc "$ROOT"/tools/spec/*.cc \
     "$ROOT"/models/formats/*.cc "$ROOT"/models/machine/machine_table.cc "$ROOT"/isa/descriptors/tensor_map.cc "$ROOT"/isa/descriptors/bitfield.cc 2>/dev/null |
    xargs -P 16 -I{} sh -c 'g++ -std=c++20 -O1 -ffp-contract=off -DFMT_HEADER_ONLY -I"$1" $2 -isystem /usr/local/cuda/include -c "$3" -o "$4/$(echo "$3" | tr / _).o"' _ "$ROOT" "$inc" {} "$B"
  g++ "$B"/*.o -o "$B/tcsim-hw" -L/usr/local/cuda/lib64/stubs -lcuda > "$R/build_tcsim_hw.log" 2>&1
  HW=$B/tcsim-hw
fi
"$HW" --help > /dev/null 2>&1 || { echo "tcsim-hw does not run"; }
if [ -z "$SHAPE" ] || ! [ -x "$SHAPE" ]; then
  nvcc -arch=sm_90a -O2 -o /tmp/machine_shape "$ROOT/kernels/probes/machine/machine_shape.cu" > "$R/build_shape.log" 2>&1
  SHAPE=/tmp/machine_shape
fi
if [ -z "${SPECS:-}" ]; then
echo "[$(elapsed)s] machine_shape"
timeout 120 "$SHAPE" > "$R/machine_shape.txt" 2>&1
echo "machine_shape rc=$?"
grep -E "^(DEVICE|KERNEL|GPC|TPC|TWO_PER_SM|WAVE)" "$R/machine_shape.txt"
grep -E "^OCC block=128 dyn=232448 " "$R/machine_shape.txt" | head -16

# coresident_c<k>_fit specs from the measured table (1 CTA per SM: 227 KiB of dynamic shared memory).
python3 - "$R/machine_shape.txt" "$ROOT/kernels" <<'EOF'
import re, sys, os
sys.path.insert(0, os.path.join(sys.argv[2], "tma"))
import gen_specs as g
occ = {}
for line in open(sys.argv[1]):
    m = re.match(r"OCC block=128 dyn=232448 cluster=(\d+) blocks_per_sm=(-?\d+) max_active_clusters=(-?\d+)", line)
    if m:
        occ[int(m.group(1))] = int(m.group(3))
for k, m in sorted(occ.items()):
    if m <= 0:
        continue
    n = k * m
    s = g.spec("coresident.sm_90a.ptx", "coresident", [n, 1, 1], [32, 1, 1],
               {"counter": g.buf("u32", [1], g.fill(0)), "seen": g.buf("u32", [n], g.fill(7))},
               [g.B("counter"), g.B("seen"), g.u32(n), {"u64": 20000000}], ["counter", "seen"],
               cluster=[k, 1, 1], dyn=232448, comment=f"{m} clusters of {k}: as many as the H200 holds at once")
    with open(os.path.join(sys.argv[2], "cluster", f"coresident_c{k}_fit.json"), "w") as f:
        f.write(g.dump(s))
print("coresident specs:", sorted(occ.items()))
EOF
fi

echo "[$(elapsed)s] tcsim-hw runs"
specs=$(cd "$ROOT/kernels" && ls ${SPECS:-cluster/smem_addr_*.json cluster/smem_probe_m*.json basic/cvt_nan.json cluster/coresident_c*_fit.json})
ok=0; bad=0; same=0; differ=0
for s in $specs; do
  name=$(basename "$s" .json)
  for rep in 1 2; do
    d="$R/run$rep/$name"
    mkdir -p "$d"
    timeout 20 "$HW" run "$ROOT/kernels/$s" --out "$d" > "$d.log" 2>&1
    echo "$?" > "$d.rc"
    [ "$(cat "$d.rc")" = 0 ] || break  # a fault (or hang) is a fact; once is enough
  done
  rc=$(cat "$R/run1/$name.rc")
  if [ "$rc" = 0 ]; then
    ok=$((ok + 1))
    if diff -q <(cd "$R/run1/$name" && cat *.npy | sha256sum) <(cd "$R/run2/$name" && cat *.npy | sha256sum) > /dev/null; then
      same=$((same + 1)); echo "ok      $name (reproduced)"
    else
      differ=$((differ + 1)); echo "ok      $name (RUNS DIFFER)"
    fi
  else
    bad=$((bad + 1)); echo "FAILED  $name rc=$rc: $(tail -n 2 "$R/run1/$name.log" | tr '\n' ' ')"
  fi
done
echo "specs ok=$ok failed=$bad reproduced=$same differ=$differ"
cp "$ROOT"/kernels/cluster/coresident_c*_fit.json "$R/" 2>/dev/null

if [ -z "${SPECS:-}" ]; then
echo "[$(elapsed)s] sass"
PATH=$PATH:/usr/local/cuda/bin bash "$ROOT/kernels/probes/machine/sass_addr.sh" > "$R/sass_addr.txt" 2>&1 || echo "sass_addr.sh failed"
python3 - "$R" <<'EOF'
import numpy as np, sys, os
r = sys.argv[1]
for name in ("smem_addr_c2", "smem_addr_c16", "smem_addr_a1024"):
    p = os.path.join(r, "run1", name, "out.npy")
    if os.path.exists(p):
        a = np.load(p)
        print(name)
        for row in a[:4]:
            print(" ".join(f"{int(v):x}" for v in row))
for m in range(8):
    p = os.path.join(r, "run1", f"smem_probe_m{m}", "out.npy")
    if os.path.exists(p):
        print(f"smem_probe_m{m}", " | ".join(" ".join(f"{int(v):x}" for v in row) for row in np.load(p)))
p = os.path.join(r, "run1", "cvt_nan", "out.npy")
if os.path.exists(p):
    a = np.load(p)
    for t in (0, 32, 30, 31):
        print("cvt_nan", t, " ".join(f"{int(v):x}" for v in a[t]))
EOF
fi
python3 - "$R" <<'EOF'
import numpy as np, sys, os, glob
for d in sorted(glob.glob(os.path.join(sys.argv[1], "run1", "smem_sregs*"))) + \
         sorted(glob.glob(os.path.join(sys.argv[1], "run1", "smem_probe_m[89]"))):
    p = os.path.join(d, "out.npy")
    if os.path.isdir(d) and os.path.exists(p):
        print(os.path.basename(d), " | ".join(" ".join(f"{int(v):x}" for v in row[:11]) for row in np.load(p)))
EOF
tar -C "$(dirname "$R")" -czf "$OUT/results.tar.gz" results
cp "$R/machine_shape.txt" "$OUT/" 2>/dev/null
echo "[$(elapsed)s] done"
