#!/bin/sh
# Manual accuracy check: convert each ONNX model with qnn-onnx-converter, run it with qnn-net-run on
# the CPU backend, run it with ONNX Runtime (onnxruntime-node), print the max relative error.
# usage: compare_with_ort.sh BUILD_DIR MODEL.onnx...   (float32 models with static single input)
# Needs node + onnxruntime-node (NODE_PATH); skips (exit 0) when they are missing.
set -e
B=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
if ! node -e "require('onnxruntime-node')" 2>/dev/null; then
  echo "SKIP: onnxruntime-node not found (set NODE_PATH, e.g. NODE_PATH=/tmp/ortbench/node_modules)"; exit 0
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for m in "$@"; do
  n=$(basename "$m" .onnx | tr -c 'A-Za-z0-9_\n' '_')
  "$B/bin/qnn-onnx-converter" -i "$m" -o "$work/$n/$n.cpp" >/dev/null
  "$B/bin/qnn-model-lib-generator" -c "$work/$n/$n.cpp" -b "$work/$n/$n.bin" -o "$work/$n/lib" >/dev/null
  spec=$(/usr/bin/python3 - "$m" "$work/$n" <<'PY'
import sys, onnx, numpy as np
m = onnx.load(sys.argv[1]); inits = {i.name for i in m.graph.initializer}; specs = []
for k, vi in enumerate(x for x in m.graph.input if x.name not in inits):
    dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
    f = f"{sys.argv[2]}/in{k}.raw"
    np.random.RandomState(k).randn(*dims).astype(np.float32).tofile(f)
    specs.append((vi.name, f, dims))
open(f"{sys.argv[2]}/list.txt", "w").write(" ".join(f"{n}:={f}" for n, f, _ in specs) + "\n")
print(" ".join(f"{n}={f}:{','.join(map(str, d))}" for n, f, d in specs))
PY
)
  "$B/bin/qnn-net-run" --model "$work/$n/lib/x86_64-linux-clang/lib$n.so" --backend "$B/backends/cpu/libQnnCpu.so" \
      --input_list "$work/$n/list.txt" --output_dir "$work/$n/qnn" >/dev/null
  node "$here/ort_run.js" "$m" "$work/$n/ort" $spec
  /usr/bin/python3 - "$work/$n" "$n" <<'PY'
import sys, os, numpy as np
d = sys.argv[1]
for f in sorted(os.listdir(f"{d}/ort")):
    a = np.fromfile(f"{d}/qnn/Result_0/{f}", np.float32); b = np.fromfile(f"{d}/ort/{f}", np.float32)
    err = np.abs(a - b).max() / max(np.abs(b).max(), 1e-30)
    print(f"{sys.argv[2]}: {f[:-4]} {b.size} values, max |qnn-ort| / max|ort| = {err:.3e}, max abs diff = {np.abs(a-b).max():.3e}")
PY
done
