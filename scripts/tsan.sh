#!/usr/bin/env bash
# Builds the concurrency tests and the async C client (tests/concurrency) and the libraries they load (the CPU backend, the
# Saver, qnn-trace-dump) with ThreadSanitizer (-DQNN_SANITIZE=thread) in build-tsan and runs them; any
# ThreadSanitizer report fails the run. The CI command (scripts/test.sh) runs it after the sanitizer
# build (about two minutes on two cores). usage: scripts/tsan.sh [--unit] (--unit: the worker-pool unit
# tests too)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQNN_SANITIZE=thread \
  -DQNN_BUILD_BENCHMARKS=OFF -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" >/dev/null
targets=(concurrency_tests async_client)
[ "${1:-}" = --unit ] && targets+=(unit_tests)
cmake --build build-tsan --target "${targets[@]}"
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 exitcode=66"
build-tsan/tests/concurrency/concurrency_tests
build-tsan/tests/concurrency/async_client build-tsan/backends/cpu/libQnnCpu.so 1000 3
[ "${1:-}" = --unit ] && build-tsan/tests/unit_tests --gtest_filter='WorkerPool*'
echo "tsan: no ThreadSanitizer report"
