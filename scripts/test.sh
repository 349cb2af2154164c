#!/usr/bin/env bash
# Installs what is missing, builds tanbo and runs every test: the command CI runs (.ci/run).
# Each test runs in the build where it tells the most, so the whole suite fits in about 20
# minutes on two cores:
#
#   1. Release build in build-test/ (clang, no link-time optimisation: no test measures speed)
#      with the viewer, the Python module, the web server and the benchmarks, but of the
#      GoogleTest programs only the viewer's (TANBO_UNIT_TESTS=OFF). Its tests: the shell tests
#      (tests/cli), the Python module and `pip install` (built with g++, the compiler Debian's
#      pip uses, so both compilers build the library), the browser tests in Chromium, the web
#      server's API and the viewer.
#   2. AddressSanitizer + UndefinedBehaviorSanitizer unity build in build-asan/ with clang (the
#      GoogleTest programs, the tanbo program and the libFuzzer targets; no benchmarks, viewer,
#      Python or browser tests), and every test registered there but those labelled
#      release-only (tests/CMakeLists.txt says which and why): all the GoogleTest programs, the
#      web server's API against the sanitized server, the shell tests of hostile input. One
#      build serves tests and fuzzers: the libraries carry the fuzzers' coverage hooks, which
#      the tests do not notice.
#   3. Each libFuzzer target runs for FUZZ_SECONDS on a copy of its seed corpus
#      (tests/fuzz/corpus/<target>/); a crash fails the run and leaves the input in
#      build-asan/fuzz-artifacts/ (turn it into tests/fuzz/regressions/<target>/FILE).
#
# Environment: JOBS (default: the number of cores), FUZZ_SECONDS (default 20; 0 skips
# fuzzing), SANITIZE=0 skips stages 2 and 3 (and builds the GoogleTest programs in stage 1,
# which then runs every test), GCC=1 adds a Release build with g++ in build-gcc/ running every
# test but the browser tests, CC/CXX choose the compiler of stage 1 (default clang).
# docs/hardening.md describes each stage and its timing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
JOBS=${JOBS:-$(nproc)}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
SANITIZE=${SANITIZE:-1}
GCC=${GCC:-0}
T0=$(date +%s)
stage() { echo "==== [$(($(date +%s) - T0)) s] $*"; }
unit_tests=ON
[ "$SANITIZE" = 0 ] || unit_tests=OFF

stage "Release build (${CXX:-clang++})"
CC=${CC:-clang} CXX=${CXX:-clang++} cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release \
  -DTANBO_LTO=OFF -DTANBO_UNIT_TESTS=$unit_tests
cmake --build build-test -j "$JOBS"
stage "Release tests"
ctest --test-dir build-test --output-on-failure -j "$JOBS"

if [ "$GCC" != 0 ]; then
  stage "Release build (g++)"
  CC=gcc CXX=g++ cmake -S . -B build-gcc -DCMAKE_BUILD_TYPE=Release -DTANBO_LTO=OFF \
    -DTANBO_BENCH=OFF -DTANBO_PYTHON=OFF -DTANBO_WEB_TESTS=OFF
  cmake --build build-gcc -j "$JOBS"
  stage "Release tests (g++)"
  ctest --test-dir build-gcc --output-on-failure -j "$JOBS"
fi

if [ "$SANITIZE" = 0 ]; then
  stage "all tests passed (sanitizers and fuzzing skipped: SANITIZE=0)"
  exit 0
fi
stage "AddressSanitizer + UBSan build (clang, tests and fuzzers)"
# -O2 keeps the sanitized suite fast; -g1 (line tables) names lines in reports. A unity build
# (each library's sources compiled in batches of 8) took 282 s against 370 s here (medians of
# two pairs of fresh builds in turn, 29% less CPU); stage 1 compiles every file on its own, as
# a user's build does, so a file that misses an include still fails.
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" \
  -DTANBO_SANITIZE=address,undefined -DTANBO_FUZZ=ON -DTANBO_BENCH=OFF -DTANBO_VIEWER=OFF \
  -DTANBO_PYTHON=OFF -DTANBO_WEB_TESTS=OFF -DCMAKE_UNITY_BUILD=ON
cmake --build build-asan -j "$JOBS"
stage "AddressSanitizer + UBSan tests"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  ctest --test-dir build-asan --output-on-failure -j "$JOBS" -LE release-only

if [ "$FUZZ_SECONDS" != 0 ]; then
  stage "fuzzing, ${FUZZ_SECONDS} s per target"
  rm -rf build-asan/fuzz-work build-asan/fuzz-artifacts
  mkdir -p build-asan/fuzz-artifacts
  pids=() names=()
  for bin in build-asan/tests/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    target=${name#fuzz_}
    mkdir -p "build-asan/fuzz-work/$target"
    if [ -d "tests/fuzz/corpus/$target" ]; then cp -r "tests/fuzz/corpus/$target/." "build-asan/fuzz-work/$target/"; fi
    # -timeout: a single input taking 10 s is a hang; -rss_limit_mb: one using 2 GB is a leak.
    "$bin" -max_total_time="$FUZZ_SECONDS" -max_len=1048576 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="build-asan/fuzz-artifacts/$target-" "build-asan/fuzz-work/$target" \
      >"build-asan/fuzz-artifacts/$target.log" 2>&1 &
    pids+=($!) names+=("$target")
    # At most JOBS fuzzers at a time.
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 1; done
  done
  failed=0
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      runs=$(grep -m1 'stat::number_of_executed_units' "build-asan/fuzz-artifacts/${names[$i]}.log" | awk '{print $2}')
      echo "fuzz_${names[$i]}: ok (${runs:-?} inputs)"
    else
      failed=1
      echo "fuzz_${names[$i]}: FAILED; log and input in build-asan/fuzz-artifacts/:"
      tail -n 60 "build-asan/fuzz-artifacts/${names[$i]}.log"
    fi
  done
  [ "$failed" = 0 ] || exit 1
fi
stage "all tests passed"
