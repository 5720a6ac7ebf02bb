#!/usr/bin/env bash
# Installs what is missing on a fresh Debian 12 machine and builds the project.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake g++ make libhalide14-0-dev libxgboost-dev doctest-dev libeigen3-dev nlohmann-json3-dev zlib1g-dev
          pocl-opencl-icd ocl-icd-libopencl1
          libdnnl-dev libopenblas-dev python3-matplotlib libz3-dev openmpi-bin libopenmpi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
