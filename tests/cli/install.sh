#!/bin/bash
# cmake --install puts the programs and the documentation under a prefix, and the installed
# tanbo works from there, its viewer too when it was built. Usage: install.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
build=$(dirname "$TANBO")
prefix=$work/prefix
log=$work/install.log

cmake --install "$build" --prefix "$prefix" >"$log" 2>&1 || fail "cmake --install: $(cat "$log")"
[ -x "$prefix/bin/tanbo" ] || fail "no $prefix/bin/tanbo"
[ -f "$prefix/share/doc/tanbo/README.md" ] || fail "no README.md under share/doc/tanbo"
[ -f "$prefix/share/doc/tanbo/cli.md" ] || fail "no cli.md under share/doc/tanbo"
"$prefix/bin/tanbo" --version | grep -q "^tanbo " || fail "installed tanbo --version"
echo "quit" | "$prefix/bin/tanbo" gtp >/dev/null || fail "installed tanbo gtp"
if [ -x "$build/tanbo-view" ]; then
  [ -x "$prefix/bin/tanbo-view" ] || fail "tanbo-view was built but not installed"
  "$prefix/bin/tanbo" view --help | grep -q -- "--png" || fail "installed tanbo view --help"
else
  "$prefix/bin/tanbo" view --help 2>&1 | grep -q "built without the viewer" ||
    fail "installed tanbo without a viewer: unexpected message"
fi
echo ok
