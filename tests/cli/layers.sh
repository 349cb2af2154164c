#!/usr/bin/env bash
# The layers of the code (docs/architecture.md): a file includes headers of its own layer and of
# the layers below it, never of one above; a file includes private headers (those outside
# include/tanbo/) of its own folder only, the viewer's program those of the viewer's library.
# Fails naming every include that breaks the rule.
set -euo pipefail
# Usage: layers.sh TANBO TESTDIR (the arguments every shell test gets; only TESTDIR is used).
cd "${2:?usage: layers.sh TANBO TESTDIR}/.."

# What each layer may include of the public headers (include/tanbo/LAYER/).
declare -A may=(
  [core]="core"
  [platform]="core platform"
  [io]="core platform io"
  [proof]="core platform proof"
  [ai]="core platform proof ai"
  [study]="core platform proof io ai study"
  [session]="core platform proof io ai study session"
  [app]="core platform proof io ai study session app"
)
front_ends="core platform proof io ai study session app"
# Folders of private headers each source folder may include, besides its own: the viewer's
# program its library, the tanbo program the web server it starts (tanbo serve).
declare -A private_from=([src/view]="src/viz" [src/cli]="src/serve")

bad=0
complain() {
  echo "layers: $1"
  bad=1
}

# check FILE LAYER_OF_FILE ALLOWED_LAYERS
check() {
  local file=$1 allowed=" $3 " dir inc target layer
  dir=$(dirname "$file")
  while IFS= read -r inc; do
    if [[ $inc == tanbo/* ]]; then
      layer=${inc#tanbo/}
      layer=${layer%%/*}
      [[ $allowed == *" $layer "* ]] || complain "$file ($2) includes $inc, a header of the layer above: $layer"
      continue
    fi
    # A private header: of the file's own folder, or of the folder it may borrow from.
    target=$(realpath -m "$dir/$inc")
    target=${target#"$PWD"/}
    local ok=0 from
    for from in "$dir" ${private_from[$dir]:-}; do
      [ "$(dirname "$target")" = "$from" ] && [ -f "$target" ] && ok=1
      [[ $inc != */* ]] && [ -f "$from/$inc" ] && ok=1
    done
    [ "$ok" = 1 ] || complain "$file ($2) includes $inc, a private header of another folder"
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
}

# The check itself must see a violation: a core header that includes the AI, a CLI file that
# includes a core private header by path.
self_test() {
  local out
  out=$(
    bad=0
    printf '#include "tanbo/ai/agent.hpp"\n' > "$tmp/upward.hpp"
    check "$tmp/upward.hpp" core "core"
    printf '#include "../core/rules.hpp"\n' > "$tmp/private.cpp"
    check "$tmp/private.cpp" "front end" "$front_ends"
  )
  [[ $out == *"includes tanbo/ai/agent.hpp, a header of the layer above: ai"* ]] ||
    { echo "layers: the check missed an upward include: $out"; exit 1; }
  [[ $out == *"includes ../core/rules.hpp, a private header of another folder"* ]] ||
    { echo "layers: the check missed a borrowed private header: $out"; exit 1; }
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
self_test

checked=0
for layer in "${!may[@]}"; do
  for file in include/tanbo/"$layer"/* src/"$layer"/*; do
    [ -f "$file" ] || continue
    check "$file" "$layer" "${may[$layer]}"
    checked=$((checked + 1))
  done
done
for folder in src/cli src/viz src/view src/python src/serve; do
  for file in "$folder"/*; do
    [ -f "$file" ] || continue
    check "$file" "front end" "$front_ends"
    checked=$((checked + 1))
  done
done
# Every source folder belongs to a layer or a front end: a new one must be placed here.
for folder in src/*/; do
  name=$(basename "$folder")
  [ -n "${may[$name]:-}" ] && continue
  case " cli viz view python serve " in
    *" $name "*) ;;
    *) complain "src/$name is in no layer: add it to tests/cli/layers.sh and docs/architecture.md" ;;
  esac
done
[ "$checked" -gt 100 ] || complain "only $checked files were checked: is the source folder right?"
[ "$bad" = 0 ] || exit 1
echo "layers: $checked files, no include runs upward"
