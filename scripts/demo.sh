#!/usr/bin/env bash
# The main job: install what is needed, build, then
#  1. run a small graph through the C API on the CPU backend (qnn-demo-graph), and
#  2. take a converter-style model.cpp + model.bin of a small CNN through the tools:
#     qnn-model-lib-generator -> qnn-net-run (detailed profiling) -> qnn-profile-viewer,
#     qnn-context-binary-generator -> qnn-net-run --retrieve_context -> qnn-context-binary-utility,
#  printing the model's outputs, the per-op profile and the binary's graph description.
# The model.cpp of part 2 is hand-written in the converter's style; scripts/run-mobilenet.sh takes a
# real ONNX model (torchvision MobileNetV2) through qnn-onnx-converter and the same tools.
# From an installed SDK: `source <prefix>/bin/envsetup.sh` first; with QNN_SDK_ROOT set the
# script runs that install's tools and libraries and builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if [ -n "${QNN_SDK_ROOT:-}" ]; then
  bin=$QNN_SDK_ROOT/bin/x86_64-linux-clang
  backend=$QNN_SDK_ROOT/lib/x86_64-linux-clang/libQnnCpu.so
  demo_graph=$bin/qnn-demo-graph
else
  scripts/install-deps.sh
  scripts/build.sh
  bin=$root/build/bin
  backend=$root/build/backends/cpu/libQnnCpu.so
  demo_graph=$root/build/examples/qnn-demo-graph
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

echo "== 1. A graph through the C API"
"$demo_graph" "$backend"

echo; echo "== 2. A model through the tools"
python3 tests/tools/model_lib/small_cnn/make_model_bin.py "$work/model.bin" "$work/inputs" >/dev/null
"$bin/qnn-model-lib-generator" -c tests/tools/model_lib/small_cnn/model.cpp -b "$work/model.bin" \
  -l small_cnn -o "$work/libs"
lib=$work/libs/x86_64-linux-clang/libsmall_cnn.so
"$bin/qnn-net-run" --model "$lib" --backend "$backend" --input_list "$work/inputs/input_list.txt" \
  --output_dir "$work/out" --profiling_level detailed
python3 - "$work/out/Result_0" <<'PY'
import array, sys
for name in ("logits", "probs"):
    a = array.array("f"); a.frombytes(open(f"{sys.argv[1]}/{name}.raw", "rb").read())
    print(f"{name:7s}", " ".join(f"{v:8.5f}" for v in a))
PY
"$bin/qnn-profile-viewer" --input_log "$work/out/qnn-profiling-data_0.log" --output "$work/trace.json"
"$bin/qnn-context-binary-generator" --model "$lib" --backend "$backend" --binary_file small_cnn \
  --output_dir "$work/bin"
"$bin/qnn-net-run" --retrieve_context "$work/bin/small_cnn.bin" --backend "$backend" \
  --input_list "$work/inputs/input_list.txt" --output_dir "$work/out_bin"
cmp "$work/out/Result_0/logits.raw" "$work/out_bin/Result_0/logits.raw" && echo "retrieve_context: identical outputs"
"$bin/qnn-context-binary-utility" --context_binary "$work/bin/small_cnn.bin" --json_file "$work/info.json"
python3 -c "import json,sys; g=json.load(open(sys.argv[1]))['graphs'][0]; print('binary graph', g['name'], {t['name']: t['dims'] for t in g['inputs']+g['outputs']})" "$work/info.json"
