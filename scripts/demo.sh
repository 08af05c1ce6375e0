#!/usr/bin/env bash
# The main job: install what is needed, build, and run a graph on the CPU
# backend through the public API, printing its results and profile.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
./build/examples/qnn-demo-graph "$PWD/build/backends/cpu/libQnnCpu.so"
