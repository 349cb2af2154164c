#!/usr/bin/env bash
# Installs the Debian packages tanbo needs to build, test and view (run as root).
set -euo pipefail
PKGS=(cmake g++ make libboost-graph-dev libboost-program-options-dev libpng-dev libgtest-dev
      libbenchmark-dev libvtk9-dev pybind11-dev python3-dev
      libcpp-httplib-dev nlohmann-json3-dev libsqlite3-dev
      python3-numpy python3-pytest python3-matplotlib xvfb xauth parallel clang clang-format libclang-rt-14-dev)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
