#!/usr/bin/env bash
# Runs the whole test suite: a Release build under ctest, then the API and
# core tests again under AddressSanitizer and UndefinedBehaviorSanitizer, then the
# concurrency tests under ThreadSanitizer. Tests labelled "long" (model-sized
# cases whose paths CI covers with smaller inputs) run in scripts/long-tests.sh instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
scripts/build.sh
(cd build && ctest --output-on-failure -j "$jobs" -LE long)
# -g1: line tables only (sanitizer reports keep file:line), a fifth less compile time than -g.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DQNN_SANITIZE=ON -DQNN_BUILD_BENCHMARKS=OFF \
  -DCMAKE_C_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS_DEBUG=-g1 >/dev/null
cmake --build build-asan
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j "$jobs" -LE long)
# What the API allows concurrently, under ThreadSanitizer (the concurrency tests and the libraries they load).
scripts/tsan.sh
