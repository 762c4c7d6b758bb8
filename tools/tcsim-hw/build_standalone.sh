#!/bin/sh
# Builds tcsim-hw with nothing but a C++20 compiler and the CUDA toolkit (for a GPU machine whose
# system libraries differ from the build machine's). fmt and nlohmann/json are header-only here;
# where they are not installed, run `tools/tcsim-hw/build_standalone.sh --pack-headers DIR` on a
# machine that has them and carry DIR along, then pass it as TCSIM_HW_INCLUDES=DIR/include.
#   usage: tools/tcsim-hw/build_standalone.sh [OUT_BINARY]          (default build-hw/tcsim-hw)
#   env:   CXX (default g++), CUDA_ROOT (default /usr/local/cuda), TCSIM_HW_INCLUDES (extra -I dir)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = "--pack-headers" ]; then
  dir=${2:?--pack-headers DIR}
  mkdir -p "$dir/include"
  cp -r /usr/include/fmt /usr/include/nlohmann "$dir/include/"
  echo "headers packed into $dir/include"
  exit 0
fi
out=${1:-$root/build-hw/tcsim-hw}
mkdir -p "$(dirname "$out")"
cuda=${CUDA_ROOT:-/usr/local/cuda}
extra=""
[ -n "${TCSIM_HW_INCLUDES:-}" ] && extra="-I${TCSIM_HW_INCLUDES}"
libdir="$cuda/lib64"
[ -e "$libdir/libcuda.so" ] || libdir="$cuda/lib64/stubs"
# The same sources as tcsim_spec_standalone (tools/spec/CMakeLists.txt): keep the two lists equal.
srcs="$root/tools/tcsim-hw/main.cc $root/tools/tcsim-hw/cuda_backend.cc $root/tools/spec/*.cc $root/models/formats/*.cc
      $root/models/machine/machine_table.cc"
for f in isa/descriptors/tensor_map.cc isa/descriptors/bitfield.cc isa/printable.cc; do
  [ -e "$root/$f" ] && srcs="$srcs $root/$f"
done
# shellcheck disable=SC2086
${CXX:-g++} -std=c++20 -O2 -ffp-contract=off -DFMT_HEADER_ONLY -DTCSIM_SOURCE_ROOT="\"$root\"" -I"$root" $extra -isystem "$cuda/include" \
  $srcs -o "$out" -L"$libdir" -lcuda
echo "built $out"
