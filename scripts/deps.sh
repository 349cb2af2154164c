#!/usr/bin/env bash
# Installs the Debian packages tanbo needs to build, test and view (run as root).
set -euo pipefail
PKGS=(cmake g++ make libboost-graph-dev libboost-program-options-dev libpng-dev libgtest-dev
      libbenchmark-dev libvtk9-dev pybind11-dev python3-dev
      libcpp-httplib-dev nlohmann-json3-dev libsqlite3-dev
      python3-numpy python3-pytest python3-matplotlib python3-setuptools python3-venv
      xvfb xauth parallel clang clang-format libclang-rt-14-dev
      chromium)
missing=()
# Node.js and npm for the pages' three.js and the browser tests; a newer Node already installed
# (node 20 or later, which playwright-core needs) is kept.
command -v node >/dev/null || PKGS+=(nodejs)
command -v npm >/dev/null || PKGS+=(npm)
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

# The pages' JavaScript packages (web/package-lock.json: three, playwright-core), from the npm
# registry; installed again only when the lock file changed. Playwright uses Debian's chromium
# above and never downloads a browser.
cd "$(dirname "$0")/../web"
if ! cmp -s package-lock.json node_modules/.tanbo-installed-lock 2>/dev/null; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.tanbo-installed-lock
fi
