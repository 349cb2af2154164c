#!/usr/bin/env bash
# Every C++ file of the repository follows .clang-format (checked, never rewritten, here).
# Usage: format.sh TANBO TESTDIR   (the arguments every shell test gets; only TESTDIR is used)
set -euo pipefail
root="$(cd "$2/.." && pwd)"
if ! command -v clang-format >/dev/null; then
  echo "clang-format is not installed (scripts/deps.sh installs it)" >&2
  exit 1
fi
cd "$root"
mapfile -t files < <(find include src tests bench examples -name '*.cpp' -o -name '*.hpp' | sort)
# One clang-format for all files (a process per file spent most of its time starting up); its
# errors name each file that differs.
bad=0
if ! report=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  bad=1
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' <<< "$report" | cut -d: -f1 | sort -u |
    while read -r f; do echo "not formatted: $f (run clang-format -i $f)"; done
  [ -n "$report" ] || echo "clang-format failed"
fi
echo "${#files[@]} files checked"
exit "$bad"
