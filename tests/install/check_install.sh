#!/usr/bin/env bash
# Installs the build into a temporary prefix, builds a find_package(QNN) client
# against it, and runs that client on the installed libQnnCpu.so.
set -euo pipefail
build_dir=$1; source_dir=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build_dir" --prefix "$tmp/prefix" >/dev/null
for f in include/QNN/QnnInterface.h lib/libQnnCpu.so lib/libcdsprpc.so lib/cmake/QNN/QNNConfig.cmake bin/qnn-demo-graph \
         bin/qnn-llm-run lib/python3/dist-packages/qnn/llm.py; do
  [ -e "$tmp/prefix/$f" ] || { echo "missing from the install: $f"; exit 1; }
done
cmake -S "$source_dir/tests/install/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DDEMO_SOURCE="$source_dir/examples/demo_graph.c" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer_demo" "$tmp/prefix/lib/libQnnCpu.so" | grep -q "profile: QNN (execute) time"
# The Python package, importable from the prefix's dist-packages, loads the installed backend.
PYTHONPATH="$tmp/prefix/lib/python3/dist-packages" /usr/bin/python3 -c "
import qnn, sys
b = qnn.Backend(sys.argv[1]); assert b.build_id, 'no build id'; b.close()" "$tmp/prefix/lib/libQnnCpu.so" \
  || { echo "the installed qnn Python package does not load the installed backend"; exit 1; }
# The vendor SDK layout: what build systems taking an SDK root look for.
for f in bin/envsetup.sh lib/x86_64-linux-clang/libQnnCpu.so lib/x86_64-linux-clang/libQnnHtp.so \
         lib/x86_64-linux-clang/libQnnSaver.so lib/x86_64-linux-clang/libQnnSystem.so \
         lib/x86_64-linux-clang/libQnnHtpNetRunExtensions.so lib/x86_64-linux-clang/libcdsprpc.so \
         lib/x86_64-linux-clang/compat/api-2.7/libQnnCpu.so lib/x86_64-linux-clang/compat/api-2.13/libQnnSystem.so \
         bin/x86_64-linux-clang/qnn-net-run bin/x86_64-linux-clang/qnn-model-lib-generator \
         share/QNN/converter/jni/QnnModel.hpp include/QNN/QnnInterface.h \
         include/QNN/DSP/QnnDspCommon.h include/QNN/GPU/QnnGpuCommon.h include/QNN/IR/QnnIrCommon.h \
         include/QNN/IR/QnnIrGraph.h include/QNN/LPAI/QnnLpaiCommon.h include/QNN/HTPQEMU/QnnHtpQemuCommon.h \
         sdk.yaml; do
  [ -e "$tmp/prefix/$f" ] || { echo "missing from the vendor layout: $f"; exit 1; }
done
# sdk.yaml names the QAIRT release of the headers' build id, as ONNX Runtime's QNN EP build reads it
# (a line "version: X.Y.Z").
release=$(sed -n 's/^#define QNN_SDK_BUILD_ID "v\([0-9]*\.[0-9]*\.[0-9]*\)\..*/\1/p' "$tmp/prefix/include/QNN/QnnSdkBuildId.h")
grep -qx "version: $release" "$tmp/prefix/sdk.yaml" || { echo "sdk.yaml does not say version: $release"; cat "$tmp/prefix/sdk.yaml"; exit 1; }
# ... and OpenQNN's own build id, the string every library reports (QnnBackend_getBuildId).
build_id=$(sed -n 's/^#define QNN_SDK_BUILD_ID "\(v[^"]*\)".*/\1/p' "$tmp/prefix/include/QNN/QnnSdkBuildId.h")
grep -qx "openqnn_version: $build_id" "$tmp/prefix/sdk.yaml" || { echo "sdk.yaml does not say openqnn_version: $build_id"; cat "$tmp/prefix/sdk.yaml"; exit 1; }
# envsetup.sh sets the SDK root and the paths; the README's main command then runs from the
# installed tree alone (no build dir): a graph through the C API and a model through the tools.
(
  cd "$tmp"
  # shellcheck disable=SC1091
  source "$tmp/prefix/bin/envsetup.sh" >/dev/null
  [ "$QNN_SDK_ROOT" = "$tmp/prefix" ] || { echo "envsetup.sh: QNN_SDK_ROOT=$QNN_SDK_ROOT"; exit 1; }
  [ "$(command -v qnn-net-run)" = "$tmp/prefix/bin/x86_64-linux-clang/qnn-net-run" ] || { echo "envsetup.sh: PATH"; exit 1; }
  # Every Python tool (python/pyproject.toml [project.scripts]) runs from the vendor layout's bin/ on PATH,
  # with the package installed in lib/python3/dist-packages (no source tree, no PYTHONPATH of ours).
  for t in $(sed -n '/^\[project.scripts\]/,/^\[/s/^\([a-z0-9-]*\) = ".*/\1/p' "$source_dir/python/pyproject.toml"); do
    [ "$(command -v "$t")" = "$tmp/prefix/bin/x86_64-linux-clang/$t" ] || { echo "envsetup.sh: $t not on PATH"; exit 1; }
    (cd / && env -u PYTHONPATH "$t" --help) > "$tmp/help.txt" 2>&1 && grep -q "usage: $t" "$tmp/help.txt" \
      || { echo "installed $t --help failed:"; cat "$tmp/help.txt"; exit 1; }
  done
  # libcdsprpc.so is found by name, as ONNX Runtime and ExecuTorch dlopen it, and allocates.
  /usr/bin/python3 -c "
import ctypes
l = ctypes.CDLL('libcdsprpc.so'); l.rpcmem_alloc.restype = ctypes.c_void_p
p = l.rpcmem_alloc(25, 1, 4096); assert p and l.rpcmem_to_fd(ctypes.c_void_p(p)) >= 0
l.rpcmem_free(ctypes.c_void_p(p)); assert l.rpcmem_to_fd(ctypes.c_void_p(p)) == -1" \
    || { echo "envsetup.sh: libcdsprpc.so is not found by name or does not allocate"; exit 1; }
  "$source_dir/scripts/demo.sh" > "$tmp/demo.log" 2>&1 || { cat "$tmp/demo.log"; exit 1; }
  grep -q "retrieve_context: identical outputs" "$tmp/demo.log" || { cat "$tmp/demo.log"; exit 1; }
)
echo "install layout, Python package and its tools, vendor SDK layout with sdk.yaml, envsetup.sh, libcdsprpc.so, demo from the install and find_package(QNN) client: ok"
