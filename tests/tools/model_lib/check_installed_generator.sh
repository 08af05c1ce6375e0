#!/usr/bin/env bash
# Installs the build into a temporary prefix and runs the installed
# qnn-model-lib-generator on small_cnn: it must find the helper sources in
# <prefix>/share/QNN/converter/jni and the headers in <prefix>/include/QNN on its own.
#   check_installed_generator.sh BUILD_DIR MODEL_CPP MODEL_BIN
set -euo pipefail
build_dir=$1; model_cpp=$2; model_bin=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
for f in bin/qnn-model-lib-generator share/QNN/converter/jni/QnnModel.hpp share/QNN/converter/jni/QnnModel.cpp \
         share/QNN/converter/jni/QnnWrapperUtils.hpp share/QNN/converter/jni/QnnTypeMacros.hpp; do
  [ -e "$tmp/prefix/$f" ] || { echo "missing from the install: $f"; exit 1; }
done
for f in QnnModel.hpp QnnWrapperUtils.hpp; do
  [ ! -e "$tmp/prefix/include/QNN/$f" ] || { echo "helper header $f must not be in include/QNN"; exit 1; }
done
(cd "$tmp" && "$tmp/prefix/bin/qnn-model-lib-generator" -c "$model_cpp" -b "$model_bin")
# Default output directory and library name: ./model_libs/x86_64-linux-clang/lib<cpp base name>.so
lib=$tmp/model_libs/x86_64-linux-clang/libmodel.so
nm -D --defined-only "$lib" | grep -q ' T QnnModel_composeGraphs$'
nm -D --defined-only "$lib" | grep -q ' T QnnModel_freeGraphsInfo$'
echo "installed generator: ok"
