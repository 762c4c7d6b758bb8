#!/usr/bin/env bash
# Installs the Debian 12 packages tcsim builds with. CUDA 13 (/usr/local/cuda) is optional.
set -euo pipefail
pkgs=(cmake ninja-build g++ libboost-dev libeigen3-dev doctest-dev libfmt-dev nlohmann-json3-dev
      python3 xz-utils pkg-config libre2-dev
      liblz4-dev libzstd-dev nettle-dev                      # libtcsim-cuda: compressed PTX, cudart's check
      pybind11-dev python3-dev python3-numpy python3-pytest)  # the Python module and its tests
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
