#!/usr/bin/env bash
# The tests kept out of CI for time (ctest label "long": ResNet-18 quantization and HTP runs, 100000
# sessions of the asynchronous C client per backend (tests/concurrency/async_client.c), the bench
# models' shape check (CI compares them with ONNX Runtime),
# MobileNetV2-sized cases of the analysis tools and the PyTorch converter), then the whole ONNX node
# conformance suite on the CPU and the HTP backend. Needs the Release build in build/ (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
(cd build && ctest --output-on-failure -j "$(nproc)" -L long)
scripts/onnx-node-conformance.sh cpu
scripts/onnx-node-conformance.sh htp
