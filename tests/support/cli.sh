# shellcheck shell=bash
# The start every CLI test shares. Source it after the test's `set` line:
#   source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
# It defines fail MESSAGE (prints "NAME: FAIL: MESSAGE" on stderr and exits 1, NAME being the
# script's name) and makes $work, a fresh folder that is removed at exit, or kept and named
# on stderr when KEEP is set (KEEP=1 ctest -R cli.NAME, to look at what a failing test left).
# A test may choose the folder's name (spaces allowed) by setting cli_work_name first.
cli_test=$(basename "$0" .sh)
fail() {
  echo "$cli_test: FAIL: $*" >&2
  exit 1
}
work=$(mktemp -d "${TMPDIR:-/tmp}/${cli_work_name:-$cli_test}.XXXXXX")
if [[ -n ${KEEP:-} ]]; then
  echo "$cli_test: work folder $work" >&2
else
  trap 'rm -rf "$work"' EXIT
fi
