#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz (clang, ASan + UBSan, checksums accepted so mutated
# inputs reach the parsers) in build-fuzz and runs each for SECONDS (default 30) from a copy of its
# committed seed corpus. Fails on any crash, leak, hang (> 5 s per input) or sanitizer report; the
# input that caused it is kept in build-fuzz/findings/<harness>/ (add it to the corpus with the fix).
# Prints executions per harness. usage: scripts/fuzz.sh [SECONDS] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(fuzz_dlc fuzz_context_binary fuzz_system_binary_info fuzz_trace
                                          fuzz_oppackage_xml fuzz_profile_log)
cc=$(command -v clang-14 || command -v clang); cxx=$(command -v clang++-14 || command -v clang++)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER="$cxx" -DQNN_FUZZ=ON -DQNN_BUILD_TESTS=OFF -DQNN_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-fuzz --target "${harnesses[@]}"
status=0
for h in "${harnesses[@]}"; do
  work=build-fuzz/corpus/$h findings=build-fuzz/findings/$h
  mkdir -p "$work" "$findings"
  cp -n tests/fuzz/corpus/"$h"/* "$work"/ 2>/dev/null || true
  log=build-fuzz/$h.log
  # intercept_tls_get_addr=0: see scripts/test.sh (the sanitizer runtime's dynamic-TLS misreading).
  if ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1 build-fuzz/fuzz/"$h" "$work" \
       -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$findings/" >"$log" 2>&1; then
    result=ok
  else
    result=FAILED status=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "$h: $result, $runs executions in ${seconds} s (log: $log)"
  [ "$result" = ok ] || grep -m5 -E 'ERROR|SUMMARY|runtime error' "$log" || true
done
exit $status
