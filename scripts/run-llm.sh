#!/usr/bin/env bash
# The example decoder of examples/llm from training to text on the HTP simulator:
#   train_llm.py (or the trained model already in MODEL) -> prefill.onnx (AR-N) + decode.onnx (AR-1)
#   -> qnn-onnx-converter --preserve_io -> qnn-model-lib-generator (two model libraries)
#   -> qnn-context-binary-generator: ONE context binary holding both graphs, weights stored once
#      (HTP: fp16 precision and the context config weight_sharing_enabled, through the HTP extension)
#   -> qnn-llm-run: prompt through the prefill graph, then the decode loop with the KV cache in registered
#      shared memory; prints the text, tokens/s and time to first token.
# usage: scripts/run-llm.sh [PROMPT [qnn-llm-run options...]]   e.g. --max_tokens 32 --temperature 0.8 --top_k 40 --seed 1
#   (with --prompts FILE or --interactive among the options, PROMPT is not used: pass "" )
#   BUILD=DIR      build dir (default ./build, built by scripts/build.sh if missing)
#   MODEL=DIR      the model (default $BUILD/llm): used as it is when it holds prefill.onnx, decode.onnx and
#                  tokenizer.json, else trained there (TINY=1: the test size, seconds; TRAIN_SECONDS=S caps training)
#   BACKEND=htp|cpu  (default htp; FP16=0 keeps the HTP in fp32)
#   QUANT=w8a8|w8a16|w4a16  (HTP) quantize: inputs recorded on the float CPU binary from prompts of CAL_TEXT
#                  (default /usr/share/common-licenses/GPL-3) calibrate qnn-onnx-converter's quantizer; w8a16 and
#                  w4a16 keep the KV cache at 8 bits (KV_BW=16 keeps it at the activations' 16; GENIE=1 / GQA=1: 16)
#   OUT=DIR        the converted graphs and the context binary (default $BUILD/llm-run/BACKEND; reused while
#                  newer than the ONNX files)
#   PYTHON_RUNNER=1  generate with qnn.llm (python/qnn) instead of the C++ runner
#   GENIE=1        export in the vendor Genie runtime's I/O convention (examples/llm/export_genie.py) into OUT
#                  (default $BUILD/llm-run/BACKEND...-genie): the graphs, a Hugging Face tokenizer.json and
#                  OUT/genie_config.json for OUT/llm.bin (genie-t2t-run -c OUT/genie_config.json -p PROMPT)
#   GQA=1          export with com.microsoft.GroupQueryAttention (examples/llm/export_gqa.py) into OUT (default
#                  ...-gqa), converted to QNN's GroupQueryAttention (--target_op_set 2.13)
#   LORA=1         a LoRA adapter (examples/llm/train_lora.py, trained on the Python language reference into
#                  LORA_DIR, default MODEL-lora; LORA_SECONDS caps training): the graphs carry its branches as
#                  updateable tensors, the adapter and the base values become binary sections beside the binary
#                  (llm_python.bin, llm_default_adapter.bin); pass --adapter python to the runner, or --prompts FILE
#                  with '@adapter python' / '@adapter base' lines to switch between prompts; with QUANT=... the
#                  calibration runs with and without the adapter and both share the union of the ranges (w4a16:
#                  the base weights LPBQ, the branches' A and B 8-bit); with GENIE=1 the Genie-layout graphs carry
#                  the branches and genie_config.json names the sections (genie-t2t-run ... --lora python)
# Needs python3-torch, python3-onnx (scripts/install-deps.sh installs them) only to train.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD:-$root/build}
model=${MODEL:-$build/llm}
backend=${BACKEND:-htp}
fp16=${FP16:-1}
py=/usr/bin/python3
prompt=${1:- This program is free software; you can}
[ $# -gt 0 ] && shift
case $backend in
  htp) lib=libQnnHtp.so ;;
  cpu) lib=libQnnCpu.so; fp16=0 ;;
  *) echo "BACKEND must be htp or cpu" >&2; exit 2 ;;
esac
quant=${QUANT:-}
if [ -n "$quant" ]; then
  [ "$backend" = htp ] || { echo "QUANT is for BACKEND=htp" >&2; exit 2; }
  fp16=0
fi
genie=${GENIE:-0}
lora=${LORA:-0}
out=${OUT:-$build/llm-run/$backend$([ "$fp16" = 1 ] && echo -fp16)${quant:+-$quant}$([ "$genie" = 1 ] && echo -genie)$([ "$lora" = 1 ] && echo -lora || :)}
[ -x "$build/bin/qnn-llm-run" ] || scripts/build.sh
libdir=$build/lib/x86_64-linux-clang

if [ -f "$model/prefill.onnx" ] && [ -f "$model/decode.onnx" ] && [ -f "$model/tokenizer.json" ]; then
  echo "== model: $model"
else
  "$py" -c "import torch, onnx" 2>/dev/null || scripts/install-deps.sh
  train=(--out "$model" ${TINY:+--tiny} ${TRAIN_SECONDS:+--seconds "$TRAIN_SECONDS"})
  echo "== train_llm.py ${train[*]}"
  "$py" examples/llm/train_llm.py "${train[@]}"
fi

tokenizer=$model/tokenizer.json
if [ "$lora" = 1 ]; then
  base=$model
  model=${LORA_DIR:-$model-lora}
  echo "== train_lora.py --base $base --out $model"
  "$py" examples/llm/train_lora.py --base "$base" --out "$model" ${LORA_SECONDS:+--seconds "$LORA_SECONDS"} | tail -1
fi

ext=$build/backends/htp_sim/libQnnHtpNetRunExtensions.so
graphs=$model  # the directory of the ONNX graphs converted
theta_arg=()
if [ "$genie" = 1 ]; then
  graphs=$out
  if ! { [ -f "$out/decode.onnx" ] && [ "$out/decode.onnx" -nt "$model/decode.onnx" ]; }; then
    echo "== export_genie.py: the Genie runtime's layout into $out"
    "$py" examples/llm/export_genie.py --model "$model" --out "$out" --ctx_bin "$out/llm.bin"
  fi
  theta_arg=(--rope_theta "$("$py" -c "import json, sys; print(json.load(open(sys.argv[1]))['config']['rope_theta'])" "$out/meta.json")")
fi
if [ "${GQA:-0}" = 1 ]; then
  if [ "$genie" = 1 ] || [ "$lora" = 1 ]; then echo "GQA=1 goes with neither GENIE=1 nor LORA=1" >&2; exit 2; fi
  [ -n "${OUT:-}" ] || out=$out-gqa
  graphs=$out
  if ! { [ -f "$out/decode.onnx" ] && [ "$out/decode.onnx" -nt "$model/decode.onnx" ]; }; then
    echo "== export_gqa.py: com.microsoft.GroupQueryAttention graphs into $out"
    "$py" examples/llm/export_gqa.py --model "$model" --out "$out"
  fi
fi
fresh() { [ -f "$1" ] && [ "$1" -nt "$graphs/prefill.onnx" ] && [ "$1" -nt "$graphs/decode.onnx" ]; }
ctx=$out/llm.bin
if fresh "$ctx"; then
  echo "== context binary: $ctx (reused)"
else
  extra=()
  lora_args=()
  [ "$lora" = 1 ] && lora_args=(--lora_weights "$model/lora_weights.txt" --adapter python="$model/adapter.safetensors")
  if [ -n "$quant" ]; then
    float=$out/float-cpu/llm.bin
    if ! fresh "$float"; then
      echo "== the float CPU binary to calibrate on"
      PYTHONPATH=$root/python "$py" -m qnn.llm build --bin "$build/bin" --model "$graphs" \
        --backend "$libdir/libQnnCpu.so" --out "$out/float-cpu" "${lora_args[@]}" >/dev/null
    fi
    echo "== calibration inputs from ${CAL_TEXT:-/usr/share/common-licenses/GPL-3}"
    PYTHONPATH=$root/python "$py" -m qnn.llm calibrate --backend "$libdir/libQnnCpu.so" --context "$float" \
      --tokenizer "$tokenizer" --text "${CAL_TEXT:-/usr/share/common-licenses/GPL-3}" --out "$out/calibration" \
      "${theta_arg[@]}" \
      $([ "$lora" = 1 ] && echo --adapter "$out/float-cpu/llm_python.bin")
    extra=(--quantize "$quant" --calibration "$out/calibration" ${KV_BW:+--kv_bw "$KV_BW"})
  elif [ "$fp16" = 1 ]; then
    extra=(--fp16)
  fi
  extra+=("${lora_args[@]}")
  echo "== convert, build the model libraries and one context binary of both graphs ($lib ${quant:-$([ "$fp16" = 1 ] && echo fp16 || echo fp32)})"
  PYTHONPATH=$root/python "$py" -m qnn.llm build --bin "$build/bin" --model "$graphs" --backend "$libdir/$lib" \
    --out "$out" --extension "$ext" "${extra[@]}" >/dev/null
  ls -l "$ctx" | awk '{print "   " $5 " bytes: " $9}'
fi

# the tokenizer stays train_llm.py's (the Genie export's Hugging Face file has the same ids)
runner_extra=("${theta_arg[@]}")
if [ "$genie" = 1 ]; then
  [ "${PYTHON_RUNNER:-0}" = 1 ] && tokenizer=$out/tokenizer.json
  echo "== Genie: LD_LIBRARY_PATH=<libGenie.so dir>:$libdir genie-t2t-run -c $out/genie_config.json -p PROMPT$([ "$lora" = 1 ] && echo " [--lora python]")"
fi
echo "== generate on $lib"
prompt_arg=(--prompt "$prompt")
for arg in "$@"; do  # the runner's own prompt sources replace PROMPT
  case $arg in --prompts|--interactive) prompt_arg=() ;; esac
done
if [ "${PYTHON_RUNNER:-0}" = 1 ]; then
  LD_LIBRARY_PATH=$libdir PYTHONPATH=$root/python "$py" -m qnn.llm run --backend "$libdir/$lib" --context "$ctx" \
    --tokenizer "$tokenizer" "${prompt_arg[@]}" "${runner_extra[@]}" "$@"
else
  "$build/bin/qnn-llm-run" --backend "$libdir/$lib" --context "$ctx" --tokenizer "$tokenizer" \
    "${prompt_arg[@]}" "${runner_extra[@]}" "$@"
fi
