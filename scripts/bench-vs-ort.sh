#!/usr/bin/env bash
# libQnnCpu.so beside ONNX Runtime's CPU provider on the benchmark models of benchmarks/models, fp32,
# in one run on this machine: every model at every thread count, alternating ours / ORT in each
# round, so drifts of the machine hit both sides alike.
#   models (benchmarks/models/make_models.py, seeded weights): MobileNetV2 and ResNet-18 (torchvision
#   exports), the 4-layer transformer (hidden 256, seq 128), MatMul 1024^3
#   ours: qnn-onnx-converter -> qnn-model-lib-generator -> qnn-net-run --profiling_level basic
#         (median graph-execute time over RUNS inferences, from qnn-profile-viewer's JSON)
#   ORT:  benchmarks/ort_run.js (median of RUNS runs, outputs pre-allocated)
# Each time cell is the median over ROUNDS rounds of those medians; then ours / ORT of those two
# medians, and the median over rounds of each round's ours / ORT (both sides of a round run seconds
# apart under the same host load: on a shared VM the steadier figure).
# usage: scripts/bench-vs-ort.sh [ROUNDS] [RUNS]          (defaults 3 rounds of 20 inferences)
#   MODELS="mobilenet_v2 resnet18 transformer matmul_1024"  THREADS="1 2"
#   BUILD=DIR (default ./build)  KEEP=DIR keeps the work files  OUT=FILE also writes the table there
#   QNN_ORT_NODE_MODULES=DIR holding onnxruntime-node (default build/ortnode/node_modules, where
#   scripts/install-deps.sh installs it)
#   BASE_LIB=FILE: a second libQnnCpu.so (say the build before a change) run in every round beside
#   ours, the two in turns (which goes first alternates by round); adds its median and the median
#   of the rounds' ours / base to the table
#   LOCKSTEP=PAIRS: instead of the rounds, each model at each thread count runs once in lockstep
#   (benchmarks/lockstep_vs_ort.py): both sides stay loaded and take turns one inference at a time,
#   PAIRS pairs; the table gives the medians and the median of the pairs' ours / ORT with its
#   quartiles (on a host whose speed changes within seconds, the figure the hour moves least), and
#   the ratio of each side's fastest tenth (both at the host's full speed); with KEEP, the pairs
#   are kept in KEEP/pairs-MODEL-THREADS.txt
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rounds=${1:-3}
runs=${2:-20}
models=${MODELS:-mobilenet_v2 resnet18 transformer matmul_1024}
threads_list=${THREADS:-1 2}
build=${BUILD:-$root/build}
py=/usr/bin/python3
modules=${QNN_ORT_NODE_MODULES:-$root/build/ortnode/node_modules}
[ -x "$build/bin/qnn-net-run" ] || scripts/build.sh
if [ -n "${KEEP:-}" ]; then work=$KEEP; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

if [ ! -d "$modules/onnxruntime-node" ]; then
  echo "no onnxruntime-node in $modules: run scripts/install-deps.sh (or set QNN_ORT_NODE_MODULES)" >&2
  exit 2
fi

onnx_of() {
  case $1 in
    mobilenet_v2) echo mobilenet_v2.onnx ;;
    resnet18) echo resnet18.onnx ;;
    transformer) echo transformer_l4_h256_s128.onnx ;;
    matmul_1024) echo matmul_1024.onnx ;;
    *) echo "unknown model $1" >&2; exit 2 ;;
  esac
}

echo "== models (benchmarks/models/make_models.py)"
for m in $models; do
  [ -f "$work/models/$(onnx_of "$m")" ] || "$py" benchmarks/models/make_models.py "$work/models" "$(basename "$(onnx_of "$m")" .onnx)" >/dev/null
done

echo "== convert and compile"
for m in $models; do
  d=$work/$m
  mkdir -p "$d"
  [ -f "$d/input_list.txt" ] && continue
  "$build/bin/qnn-onnx-converter" -i "$work/models/$(onnx_of "$m")" -o "$d/$m.cpp" >/dev/null
  "$build/bin/qnn-model-lib-generator" -c "$d/$m.cpp" -b "$d/$m.bin" -o "$d/lib" >/dev/null
  # One random input per graph input, in the converted graph's layout (rank-4 inputs become NHWC).
  "$py" - "$work/models/$(onnx_of "$m")" "$d" <<'PY'
import sys, numpy as np, onnx
model, d = sys.argv[1], sys.argv[2]
g = onnx.load(model).graph
inits = {i.name for i in g.initializer}
rs = np.random.RandomState(7)
entries = []
for i, v in enumerate(x for x in g.input if x.name not in inits):
    dims = [x.dim_value for x in v.type.tensor_type.shape.dim]
    if len(dims) == 4:
        dims = [dims[0], dims[2], dims[3], dims[1]]
    path = f"{d}/input_{i}.raw"
    rs.uniform(-1, 1, dims).astype(np.float32).tofile(path)
    entries.append(f"{v.name}:={path}")
open(f"{d}/input_list.txt", "w").write(" ".join(entries) + "\n")
PY
done

ours_ms() {  # model threads [backend] -> median graph-execute ms over $runs inferences
  local d=$work/$1 lib
  lib=$(ls "$d"/lib/x86_64-linux-clang/lib*.so | head -1)
  rm -rf "$d/out"
  QNN_CPU_NUM_THREADS=$2 "$build/bin/qnn-net-run" --model "$lib" --backend "${3:-$build/backends/cpu/libQnnCpu.so}" \
    --input_list "$d/input_list.txt" --output_dir "$d/out" --num_inferences "$runs" --keep_num_outputs 1 \
    --profiling_level basic >/dev/null
  "$build/bin/qnn-profile-viewer" --input_log "$d/out/qnn-profiling-data_0.log" --output "$d/out/p.json" >/dev/null
  "$py" -c "
import json, sys, statistics
ev = json.load(open(sys.argv[1])); ev = ev['traceEvents'] if isinstance(ev, dict) else ev
print('%.3f' % statistics.median(e['dur'] / 1000.0 for e in ev if e.get('name', '') == 'QNN (execute) time'))" \
    "$d/out/p.json"
}
ort_ms() {  # model threads -> median ms over $runs runs
  NODE_PATH=$modules node benchmarks/ort_run.js "$work/models/$(onnx_of "$1")" --threads "$2" --runs "$runs" |
    sed -n 's/.* median_ms=\([0-9.]*\) .*/\1/p'
}

if [ -n "${LOCKSTEP:-}" ]; then
  echo "== lockstep, $LOCKSTEP pairs"
  lines=
  for t in $threads_list; do
    for m in $models; do
      d=$work/$m
      line=$("$py" benchmarks/lockstep_vs_ort.py --model-lib "$(ls "$d"/lib/x86_64-linux-clang/lib*.so | head -1)" \
        --backend "$build/backends/cpu/libQnnCpu.so" --input-list "$d/input_list.txt" \
        --onnx "$work/models/$(onnx_of "$m")" --threads "$t" --pairs "$LOCKSTEP" --node-modules "$modules" \
        ${KEEP:+--pairs-out "$work/pairs-$m-$t.txt"})
      echo "$m $t $line"
      lines+="$m $t $line"$'\n'
    done
  done
  cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)
  table=$(printf '%s' "$lines" | "$py" -c "
import sys, datetime
print(f'{datetime.date.today()}, {sys.argv[1]}, lockstep, {sys.argv[2]} pairs, commit {sys.argv[3]}')
print()
print('| model | threads | OpenQNN CPU ms | ONNX Runtime ms | ratio of medians | median of pair ratios (quartiles) '
      '| fastest tenths |')
print('|---|---|---|---|---|---|---|')
for line in sys.stdin:
    m, t, *kv = line.split()
    v = dict(x.split('=') for x in kv)
    print(f\"| {m} | {t} | {float(v['ours_ms']):.2f} | {float(v['ort_ms']):.2f} | {float(v['ratio']):.2f} | \"
          f\"{float(v['pair_ratio']):.2f} ({float(v['p25']):.2f}-{float(v['p75']):.2f}) \"
          f\"| {float(v['fast_ratio']):.2f} |\")
" "$cpu" "$LOCKSTEP" "$(git rev-parse --short HEAD)")
  echo
  echo "$table"
  [ -n "${OUT:-}" ] && echo "$table" >"$OUT"
  exit 0
fi

results=$work/results.txt
: >"$results"
for r in $(seq 1 "$rounds"); do
  echo "== round $r of $rounds"
  for t in $threads_list; do
    for m in $models; do
      if [ -z "${BASE_LIB:-}" ]; then
        a=$(ours_ms "$m" "$t")
        base=
      elif [ $((r % 2)) = 1 ]; then
        a=$(ours_ms "$m" "$t")
        base=$(ours_ms "$m" "$t" "$BASE_LIB")
      else
        base=$(ours_ms "$m" "$t" "$BASE_LIB")
        a=$(ours_ms "$m" "$t")
      fi
      b=$(ort_ms "$m" "$t")
      echo "$m $t $a $b $base" | tee -a "$results"
    done
  done
done

cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)
table=$("$py" - "$results" "$rounds" "$runs" "$cpu" "$(git rev-parse --short HEAD)" <<'PY'
import sys, statistics, collections, datetime
rows = collections.defaultdict(lambda: ([], [], []))
order = []
for line in open(sys.argv[1]):
    m, t, a, b, *base = line.split()
    if (m, t) not in rows: order.append((m, t))
    rows[(m, t)][0].append(float(a)); rows[(m, t)][1].append(float(b))
    rows[(m, t)][2].extend(float(x) for x in base)
with_base = any(r[2] for r in rows.values())
print(f"{datetime.date.today()}, {sys.argv[4]}, {sys.argv[2]} alternating rounds of {sys.argv[3]} runs, commit {sys.argv[5]}")
print()
extra = (" base ms | ours / base (median of round ratios) |", "---|---|") if with_base else ("", "")
print("| model | threads | OpenQNN CPU ms | ONNX Runtime ms | ratio of medians | median of round ratios |" + extra[0])
print("|---|---|---|---|---|---|" + extra[1])
for m, t in order:
    ours, ort, base = rows[(m, t)]
    a, b = statistics.median(ours), statistics.median(ort)
    # Each round runs both back to back, so a round's ratio sees the same host
    # load on both sides; on a noisy host it is the steadier figure.
    paired = statistics.median(x / y for x, y in zip(ours, ort))
    cells = f" {statistics.median(base):.2f} | {statistics.median(x / y for x, y in zip(ours, base)):.3f} |" if base else ""
    print(f"| {m} | {t} | {a:.2f} | {b:.2f} | {a / b:.2f} | {paired:.2f} |" + cells)
PY
)
echo
echo "$table"
[ -n "${OUT:-}" ] && echo "$table" >"$OUT"
exit 0
