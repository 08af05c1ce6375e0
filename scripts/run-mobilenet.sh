#!/usr/bin/env bash
# MobileNetV2 end to end on the CPU backend:
#   torchvision mobilenet_v2 (seeded random weights) -> ONNX (torch.onnx.export, opset 13)
#   -> qnn-onnx-converter -> qnn-model-lib-generator -> qnn-net-run (RUNS inferences, basic profiling)
#   -> top-5 classes of the first inference and the median execute latency from the profiling log.
# usage: scripts/run-mobilenet.sh [--dlc] [RUNS]  (default 20 inferences)
#   --dlc       the DLC route instead: qairt-converter -> one .dlc file -> qnn-net-run --model
#               libQnnModelDlc.so --dlc_path (no compiler; the input keeps the ONNX NCHW layout)
#   BUILD=DIR   use an existing build dir (default ./build, built by scripts/build.sh if missing)
#   KEEP=DIR    keep the model, library, inputs and outputs in DIR instead of a temporary dir
# The weights are random (torch.manual_seed(0); no download), so the classes are arbitrary: this shows
# the tool chain and the latency, not a classifier. The input is a fixed synthetic 224x224 RGB image,
# ImageNet-normalised, written in NHWC as the converted graph expects (the vendor converters' layout).
# Needs python3-torch, python3-torchvision, python3-onnx (scripts/install-deps.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dlc=0
if [ "${1:-}" = "--dlc" ]; then dlc=1; shift; fi
runs=${1:-20}
build=${BUILD:-$root/build}
py=/usr/bin/python3
if ! "$py" -c "import torch, torchvision, onnx" 2>/dev/null; then
  scripts/install-deps.sh
fi
[ -x "$build/bin/qnn-net-run" ] || scripts/build.sh
if [ -n "${KEEP:-}" ]; then work=$KEEP; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

echo "== export torchvision mobilenet_v2 to ONNX"
"$py" benchmarks/models/make_models.py "$work" mobilenet_v2 >/dev/null   # the benchmark model
"$py" - "$work" <<'PY'
import sys, numpy as np
work = sys.argv[1]
# synthetic image: smooth colour gradients with a bright disc, in [0, 1], then ImageNet normalisation
yy, xx = np.mgrid[0:224, 0:224] / 223.0
img = np.stack([xx, yy, 1 - (xx + yy) / 2], axis=-1)
img[((xx - 0.6) ** 2 + (yy - 0.4) ** 2) < 0.04] = [1.0, 0.9, 0.2]
img = (img - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225]
img.astype(np.float32)[None].tofile(f"{work}/input.raw")          # [1, 224, 224, 3] NHWC
img.astype(np.float32).transpose(2, 0, 1)[None].copy().tofile(f"{work}/input_nchw.raw")  # the DLC route's layout
PY

if [ "$dlc" = 1 ]; then
  echo "== qairt-converter"
  "$build/bin/qairt-converter" -i "$work/mobilenet_v2.onnx" -o "$work/mobilenet_v2.dlc"
  echo "input:=$work/input_nchw.raw" > "$work/input_list.txt"
  echo "== qnn-net-run: $runs inferences on libQnnCpu.so (--dlc_path)"
  "$build/bin/qnn-net-run" --model "$build/sdk/model_dlc/libQnnModelDlc.so" --dlc_path "$work/mobilenet_v2.dlc" \
    --backend "$build/backends/cpu/libQnnCpu.so" --input_list "$work/input_list.txt" --output_dir "$work/out" \
    --num_inferences "$runs" --keep_num_outputs 1 --profiling_level basic >/dev/null
else
  echo "== qnn-onnx-converter"
  "$build/bin/qnn-onnx-converter" -i "$work/mobilenet_v2.onnx" -o "$work/model/mobilenet_v2.cpp"
  echo "== qnn-model-lib-generator"
  "$build/bin/qnn-model-lib-generator" -c "$work/model/mobilenet_v2.cpp" -b "$work/model/mobilenet_v2.bin" \
    -o "$work/lib" >/dev/null
  echo "input:=$work/input.raw" > "$work/input_list.txt"
  echo "== qnn-net-run: $runs inferences on libQnnCpu.so"
  "$build/bin/qnn-net-run" --model "$work/lib/x86_64-linux-clang/libmobilenet_v2.so" \
    --backend "$build/backends/cpu/libQnnCpu.so" --input_list "$work/input_list.txt" --output_dir "$work/out" \
    --num_inferences "$runs" --keep_num_outputs 1 --profiling_level basic >/dev/null
fi
"$build/bin/qnn-profile-viewer" --input_log "$work/out/qnn-profiling-data_0.log" --output "$work/trace.json" >/dev/null

"$py" - "$work" <<'PY'
import json, sys, numpy as np
work = sys.argv[1]
try:
    from torchvision.models._meta import _IMAGENET_CATEGORIES as names   # shipped by python3-torchvision
except ImportError:
    names = None
logits = np.fromfile(f"{work}/out/Result_0/output.raw", np.float32)
p = np.exp(logits - logits.max()); p /= p.sum()
print("top-5 classes (random weights: the classes are arbitrary):")
for k in np.argsort(-logits)[:5]:
    label = f"  {names[k]}" if names else ""
    print(f"  {k:4d}  logit {logits[k]: .4e}  softmax {p[k]:.6f}{label}")
ev = json.load(open(f"{work}/trace.json"))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
ms = sorted(e["dur"] / 1000.0 for e in ev if e.get("name") == "QNN (execute) time")
print(f"median latency: {np.median(ms):.2f} ms over {len(ms)} inferences (graph execute, min {ms[0]:.2f} ms, "
      f"max {ms[-1]:.2f} ms)")
PY
