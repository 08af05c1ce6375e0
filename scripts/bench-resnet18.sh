#!/usr/bin/env bash
# int8 ResNet-18 on the HTP simulator beside the float CPU backend and ONNX Runtime's CPU provider
# (fp32), measured in one run on the same machine and the same thread count:
#   torchvision resnet18 (seeded random weights) -> ONNX -> qnn-onnx-converter (float, and quantized
#   with --input_list: 20 calibration inputs, 8-bit activations, 8-bit symmetric per-channel weights
#   (--use_per_channel_quantization, the usual choice for the NPU), 32-bit bias; and once more with the
#   converter's defaults: asymmetric per-tensor uint8 weights (tf), 8-bit bias)
#   -> CPU: qnn-model-lib-generator -> qnn-net-run on libQnnCpu.so
#   -> HTP: qnn-context-binary-generator --backend libQnnHtp.so (offline prepare) -> qnn-net-run
#      --retrieve_context on libQnnHtp.so
#   -> ORT: benchmarks/ort_run.js (onnxruntime-node from build/ortnode)
# Latency = median graph execute time from each tool's basic profiling (qnn) or benchmarks/ort_run.js (ORT).
# usage: scripts/bench-resnet18.sh [RUNS] [THREADS]     (defaults 20 inferences, nproc threads)
#   MODEL=mobilenet_v2 (or another torchvision.models name) times that model instead of resnet18
#   BUILD=DIR build dir (default ./build)   KEEP=DIR keep the work files
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
runs=${1:-20}
model=${MODEL:-resnet18}
threads=${2:-$(nproc)}
build=${BUILD:-$root/build}
py=/usr/bin/python3
[ -x "$build/bin/qnn-net-run" ] || scripts/build.sh
if [ -n "${KEEP:-}" ]; then work=$KEEP; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
export QNN_CPU_NUM_THREADS=$threads QNN_HTP_SIM_THREADS=$threads

echo "== export torchvision $model, calibration and timing inputs"
"$py" benchmarks/models/make_models.py "$work" "$model" >/dev/null
mv "$work/$model.onnx" "$work/model.onnx"
"$py" - "$work" <<'PY'
import sys, numpy as np
work = sys.argv[1]
rs = np.random.RandomState(7)
with open(f"{work}/calib.txt", "w") as fh:
    for i in range(20):   # NHWC, the converted graph's input layout
        rs.randn(1, 224, 224, 3).astype(np.float32).tofile(f"{work}/calib_{i}.raw")
        fh.write(f"input:={work}/calib_{i}.raw\n")
rs.randn(1, 224, 224, 3).astype(np.float32).tofile(f"{work}/input.raw")
open(f"{work}/input_list.txt", "w").write(f"input:={work}/input.raw\n")
PY

lib() {  # model.cpp -> model library path
  local cpp=$1 base=${1%.cpp}
  "$build/bin/qnn-model-lib-generator" -c "$cpp" -b "$base.bin" -o "${base}_lib" >/dev/null
  echo "${base}_lib/x86_64-linux-clang/lib$(basename "$base").so"
}
median_ms() {  # profiling log -> median execute ms
  "$build/bin/qnn-profile-viewer" --input_log "$1" --output "$1.json" >/dev/null
  "$py" -c "
import json, sys, statistics
ev = json.load(open(sys.argv[1])); ev = ev['traceEvents'] if isinstance(ev, dict) else ev
print('%.2f' % statistics.median(e['dur'] / 1000.0 for e in ev if e.get('name', '') == 'QNN (execute) time'))" "$1.json"
}

echo "== convert: float and 8-bit"
"$build/bin/qnn-onnx-converter" -i "$work/model.onnx" -o "$work/f32/resnet18.cpp" >/dev/null
"$build/bin/qnn-onnx-converter" -i "$work/model.onnx" -o "$work/q8/resnet18.cpp" --input_list "$work/calib.txt" \
  --act_bw 8 --weight_bw 8 --bias_bw 32 --use_per_channel_quantization >/dev/null
"$build/bin/qnn-onnx-converter" -i "$work/model.onnx" -o "$work/q8tf/resnet18.cpp" --input_list "$work/calib.txt" \
  >/dev/null
f32lib=$(lib "$work/f32/resnet18.cpp")
for q in q8 q8tf; do
  "$build/bin/qnn-context-binary-generator" --model "$(lib "$work/$q/resnet18.cpp")" \
    --backend "$build/backends/htp_sim/libQnnHtp.so" --binary_file resnet18_htp --output_dir "$work/$q" >/dev/null
done

echo "== run: $runs inferences each, $threads threads"
"$build/bin/qnn-net-run" --model "$f32lib" --backend "$build/backends/cpu/libQnnCpu.so" \
  --input_list "$work/input_list.txt" --output_dir "$work/cpu_out" --num_inferences "$runs" \
  --keep_num_outputs 1 --profiling_level basic >/dev/null
for q in q8 q8tf; do
  "$build/bin/qnn-net-run" --retrieve_context "$work/$q/resnet18_htp.bin" \
    --backend "$build/backends/htp_sim/libQnnHtp.so" --input_list "$work/input_list.txt" \
    --output_dir "$work/${q}_out" --num_inferences "$runs" --keep_num_outputs 1 --profiling_level basic >/dev/null
done
cpu_ms=$(median_ms "$work/cpu_out/qnn-profiling-data_0.log")
htp_ms=$(median_ms "$work/q8_out/qnn-profiling-data_0.log")
htp_tf_ms=$(median_ms "$work/q8tf_out/qnn-profiling-data_0.log")
ort_ms=n/a
modules=${QNN_ORT_NODE_MODULES:-$root/build/ortnode/node_modules}
if command -v node >/dev/null && [ -d "$modules/onnxruntime-node" ]; then
  ort_line=$(NODE_PATH=$modules node benchmarks/ort_run.js "$work/model.onnx" --threads "$threads" --runs "$runs")
  ort_ms=$(sed -n 's/.* median_ms=\([0-9.]*\) .*/\1/p' <<<"$ort_line")
fi
printf '%-44s %10s\n' "$model, batch 1, $threads threads" "median ms"
printf '%-44s %10s\n' "HTP simulator int8 (libQnnHtp.so)" "$htp_ms"
printf '%-44s %10s\n' "  same, converter default weights (tf, uint8)" "$htp_tf_ms"
printf '%-44s %10s\n' "CPU backend fp32 (libQnnCpu.so)" "$cpu_ms"
printf '%-44s %10s\n' "ONNX Runtime CPU provider fp32" "$ort_ms"
