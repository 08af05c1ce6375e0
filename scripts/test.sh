#!/usr/bin/env bash
# Runs the whole test suite: a Release build under ctest, then the API and
# core tests again under AddressSanitizer and UndefinedBehaviorSanitizer, then the
# concurrency tests under ThreadSanitizer. Tests labelled "long" (model-sized
# cases whose paths CI covers with smaller inputs) run in scripts/long-tests.sh instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
# ctest in build dir $1 (the rest: variables for its environment). When a test fails, the failing cases'
# lines are printed again last: a CI log is read from its tail, where ctest's summary names only the
# test program, not the case, the assertion or the sanitizer's report.
run_ctest() {
  local dir=$1
  shift
  if (cd "$dir" && env "$@" ctest --output-on-failure -j "$jobs" -LE long); then return 0; fi
  echo "== the failing cases again (from $dir/Testing/Temporary/LastTest.log)"
  grep -E -A3 '^\[  FAILED  \] [A-Za-z]|: Failure$|ERROR: [A-Za-z]+Sanitizer|^SUMMARY: |runtime error:|Tracer caught' \
    "$dir/Testing/Temporary/LastTest.log" | head -80
  return 1
}
scripts/build.sh
run_ctest build
# -g1: line tables only (sanitizer reports keep file:line), a fifth less compile time than -g. -O1: the
# sanitizers' usual level; instrumented library code compiles no slower than at -O0 and runs several
# times faster (the tests' own code stays at -O0, tests/CMakeLists.txt). Debug keeps the assertions.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DQNN_SANITIZE=ON -DQNN_BUILD_BENCHMARKS=OFF \
  "-DCMAKE_C_FLAGS_DEBUG=-O1 -g1" "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" >/dev/null
cmake --build build-asan
# intercept_tls_get_addr=0: GCC 12's sanitizer runtime takes a dynamic TLS block that happens to start
# 16 bytes into a page for a pre-2.25 glibc header and reads garbage as its range, and the leak
# checker's tracer then dies at exit ("Tracer caught signal 11", no report; google/sanitizers#1322,
# fixed after GCC 13 / LLVM 16). Which block lands there depends on the libraries' TLS layout: it hit
# qnn-net-run in workflow_small_cnn when libQnnCpu.so's TLS shrank. Leak checking stays on.
run_ctest build-asan ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1
# What the API allows concurrently, under ThreadSanitizer (the concurrency tests and the libraries they load).
scripts/tsan.sh
