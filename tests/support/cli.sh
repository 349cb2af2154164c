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

# refused_in_one_line WANT COMMAND...: the command exits with status 2, writes nothing on
# standard output, and one line on standard error that holds WANT (files out and err in the
# current folder keep what it wrote).
refused_in_one_line() {
  local want=$1
  shift
  "$@" > out 2> err
  local status=$?
  [ $status -eq 2 ] || fail "$*: status $status, not 2"
  [ "$(wc -l < err)" -eq 1 ] || fail "$*: not one line: $(cat err)"
  grep -qF -- "$want" err || fail "$*: no \"$want\" in: $(cat err)"
  [ -s out ] && fail "$*: wrote on standard output anyway: $(cat out)"
  return 0
}

# interrupt_when PID TEST...: sends SIGINT to the background job PID once the command TEST...
# succeeds (tried every 0.05 s, for 30 s at most), waits for the job and sets `status` to its
# exit status.
interrupt_when() {
  local pid=$1
  shift
  for _ in $(seq 1 600); do
    "$@" && break
    sleep 0.05
  done
  kill -INT "$pid"
  wait "$pid"
  status=$?
}
