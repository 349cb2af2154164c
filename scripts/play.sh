#!/usr/bin/env bash
# Installs what is missing, builds tanbo and starts a game: Black (you) against the engine on
# the classic 19x19 board. Extra arguments go to `tanbo play`, e.g.
#   bash scripts/play.sh --topology "grid 5x5x5"
# Without a terminal (piped or in CI) it prints the starting position instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
# clang, as scripts/test.sh builds build/ (its code plays about 10% faster than g++'s).
CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
# tanbo, and its viewer program when VTK was found (for `build/tanbo view` later).
targets=(tanbo)
if cmake --build build --target help | grep -q "tanbo-view"; then targets+=(tanbo-view); fi
cmake --build build -j "$(nproc)" --target "${targets[@]}"
if [ -t 0 ] && [ -t 1 ]; then
  exec build/tanbo play --black human --white engine "$@"
else
  printf 'showboard\nquit\n' | build/tanbo gtp "$@"
fi
