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
bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (run clang-format -i $f)"
    bad=1
  fi
done
echo "${#files[@]} files checked"
exit "$bad"
