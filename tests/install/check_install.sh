#!/usr/bin/env bash
# Installs the build into a temporary prefix, builds a find_package(QNN) client
# against it, and runs that client on the installed libQnnCpu.so.
set -euo pipefail
build_dir=$1; source_dir=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
for f in include/QNN/QnnInterface.h lib/libQnnCpu.so lib/cmake/QNN/QNNConfig.cmake bin/qnn-demo-graph; do
  [ -e "$tmp/prefix/$f" ] || { echo "missing from the install: $f"; exit 1; }
done
cmake -S "$source_dir/tests/install/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DDEMO_SOURCE="$source_dir/examples/demo_graph.c" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer_demo" "$tmp/prefix/lib/libQnnCpu.so" | grep -q "profile: graph execute"
echo "install layout and find_package(QNN) client: ok"
