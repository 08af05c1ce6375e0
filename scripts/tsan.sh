#!/usr/bin/env bash
# Builds the concurrency tests (tests/concurrency) and the libraries they load with ThreadSanitizer
# (-DQNN_SANITIZE=thread) in build-tsan and runs them, with the worker-pool unit tests; any
# ThreadSanitizer report fails the run. usage: scripts/tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQNN_SANITIZE=thread \
  -DQNN_BUILD_BENCHMARKS=OFF -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" >/dev/null
cmake --build build-tsan --target concurrency_tests unit_tests
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 exitcode=66"
build-tsan/tests/concurrency/concurrency_tests
build-tsan/tests/unit_tests --gtest_filter='WorkerPool*'
echo "tsan: no ThreadSanitizer report"
