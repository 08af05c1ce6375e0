#!/usr/bin/env bash
# The whole ONNX node conformance suite (Debian libonnx-testdata, ~800 applicable
# tests, ~10 minutes on 2 cores) through qnn-onnx-converter -> qnn-model-lib-generator
# -> qnn-net-run. CI's ctests run a sixteenth (CPU) and a 32nd (HTP) of it; this runs
# every test, fails on a regression against expected_pass_<backend>.txt and leaves the
# per-test report in build/onnx-node-report-<backend>.txt (and .json, the input of
# tests/tools/onnx_node/coverage_table.py). htp runs the graphs in fp16.
#   scripts/onnx-node-conformance.sh [cpu|htp] [extra run_node_tests.py flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
backend=${1:-cpu}
shift || true
expected=()
[ -f "tests/tools/onnx_node/expected_pass_${backend}.txt" ] &&
  expected=(--expected "tests/tools/onnx_node/expected_pass_${backend}.txt")
exec /usr/bin/python3 tests/tools/onnx_node/run_node_tests.py build --backend "$backend" "${expected[@]}" \
  -j "$(nproc)" --report "build/onnx-node-report-${backend}.txt" \
  --json-report "build/onnx-node-report-${backend}.json" "$@"
