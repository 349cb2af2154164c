#!/usr/bin/env bash
# Installs what is missing, builds tanbo and starts a game: Black (you) against the engine on
# the classic 19x19 board. Extra arguments go to `tanbo play`, e.g.
#   bash scripts/play.sh --topology "grid 5x5x5"
# Without a terminal (piped or in CI) it prints the starting position and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
# clang, with link-time optimisation: its code plays about 10% faster than g++'s
# (docs/performance.md).
CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
# tanbo, and its viewer program when VTK was found (for `build/tanbo view` later). The target
# list is read whole before it is searched: `... | grep -q` under pipefail could report a
# failure when grep stops reading early.
targets=(tanbo)
help_text=$(cmake --build build --target help)
if [[ $help_text == *tanbo-view* ]]; then targets+=(tanbo-view); fi
cmake --build build -j "$(nproc)" --target "${targets[@]}"
# Extra arguments go to `tanbo play`; the defaults (you are Black against the engine) only for
# the seats they do not name.
defaults=()
[[ " $* " == *" --black"* ]] || defaults+=(--black human)
[[ " $* " == *" --white"* ]] || defaults+=(--white engine)
if [ -t 0 ] && [ -t 1 ]; then
  exec build/tanbo play "${defaults[@]}" "$@"
else
  # Without a terminal there is nobody to type moves: tanbo play shows the starting position,
  # finds its input ended and stops.
  exec build/tanbo play "${defaults[@]}" "$@" < /dev/null
fi
