#!/usr/bin/env bash
# The example decoder of examples/llm generating text, side by side in one run: ONNX Runtime's CPU
# provider (benchmarks/ort_llm.js on prefill.onnx / decode.onnx) against qnn-llm-run on context binaries
# made from the same ONNX files: libQnnCpu.so fp32, libQnnHtp.so w8a16 and w4a16 (LPBQ).
# Every run: the same prompt ids (PROMPT_TOKENS tokens of PROMPT_TEXT through the model's tokenizer),
# prefill in chunks of the prefill graph's AR, then DECODE_TOKENS greedy tokens with the KV cache fed
# back; one untimed warm-up generation first (--warmup 1), then one timed; peak RSS of the process
# (/usr/bin/time). Rounds alternate all configurations at every thread count (QNN_CPU_NUM_THREADS,
# QNN_HTP_SIM_THREADS, ORT's intra-op threads), so drifts of the host hit all alike; the table holds
# the medians over rounds, and for ours the median over rounds of each round's ratio to ORT at the
# same thread count. The tokens of ORT and of libQnnCpu.so are compared (one line per thread count).
# usage: scripts/bench-llm.sh [ROUNDS] [DECODE_TOKENS]       (defaults 5 rounds, 128 tokens)
#   MODEL=DIR     the trained model (default $BUILD/llm; trained by scripts/run-llm.sh when missing)
#   PROMPT_TOKENS=N (default 100)  PROMPT_TEXT=FILE (default /usr/share/common-licenses/Apache-2.0)
#   THREADS="1 2"  CONFIGS="ort cpu w8a16 w4a16"
#   BUILD=DIR (default ./build)  BINS=DIR the context binaries, built once and reused (default
#   $BUILD/llm-bench; delete it after a change to the converter or the binary format)  OUT=FILE also writes the
#   table there
#   QNN_ORT_NODE_MODULES=DIR holding onnxruntime-node (default build/ortnode/node_modules)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rounds=${1:-5}
decode_tokens=${2:-128}
build=${BUILD:-$root/build}
model=${MODEL:-$build/llm}
bins=${BINS:-$build/llm-bench}
prompt_tokens=${PROMPT_TOKENS:-100}
prompt_text=${PROMPT_TEXT:-/usr/share/common-licenses/Apache-2.0}
threads_list=${THREADS:-1 2}
configs=${CONFIGS:-ort cpu w8a16 w4a16}
modules=${QNN_ORT_NODE_MODULES:-$root/build/ortnode/node_modules}
py=/usr/bin/python3
libdir=$build/lib/x86_64-linux-clang
[ -x "$build/bin/qnn-llm-run" ] || scripts/build.sh
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time) for the peak RSS" >&2; exit 2; }
if [[ " $configs " == *" ort "* ]] && [ ! -d "$modules/onnxruntime-node" ]; then
  echo "no onnxruntime-node in $modules: run scripts/install-deps.sh (or set QNN_ORT_NODE_MODULES)" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The context binaries (scripts/run-llm.sh converts, calibrates and builds them; reused while newer than
# the ONNX files), each checked with one short generation.
for c in $configs; do
  case $c in
    ort) continue ;;
    cpu) env=(BACKEND=cpu) ;;
    w8a16 | w4a16) env=(BACKEND=htp QUANT=$c) ;;
    *) echo "unknown configuration $c (ort, cpu, w8a16, w4a16)" >&2; exit 2 ;;
  esac
  echo "== context binary: $c"
  env "${env[@]}" BUILD="$build" MODEL="$model" OUT="$bins/$c" scripts/run-llm.sh " The" --max_tokens 2 |
    grep -E '^==|bytes' || true
done
[ -f "$model/tokenizer.json" ] || { echo "no model in $model" >&2; exit 2; }

head -c 4000 "$prompt_text" >"$work/prompt.txt"
ids=$("$build/bin/qnn-llm-run" --tokenizer "$model/tokenizer.json" --prompt_file "$work/prompt.txt" --tokenize |
  cut -d' ' -f"1-$prompt_tokens" | tr ' ' ',')
[ "$(echo "$ids" | tr ',' '\n' | wc -l)" = "$prompt_tokens" ] || { echo "the prompt text is too short" >&2; exit 2; }
echo "== prompt: $prompt_tokens tokens of $prompt_text; $decode_tokens tokens greedy; $rounds rounds"
baseline=$( { NODE_PATH="$modules" /usr/bin/time -f %M node -e "require('onnxruntime-node')" >/dev/null; } 2>&1 | tail -1) &&
  echo "== node with onnxruntime-node loaded, no session: peak RSS $((baseline / 1024)) MB" ||
  true

run_one() {  # config threads -> output in $work/out; peak RSS (kB) appended as "# rss KB"
  local c=$1 t=$2 cmd
  case $c in
    ort) cmd=(env NODE_PATH="$modules" node benchmarks/ort_llm.js "$model/prefill.onnx" "$model/decode.onnx"
              --threads "$t") ;;
    cpu) cmd=(env QNN_CPU_NUM_THREADS="$t" "$build/bin/qnn-llm-run" --backend "$libdir/libQnnCpu.so" --ids
              --context "$bins/$c/llm.bin" --tokenizer "$model/tokenizer.json") ;;
    *) cmd=(env QNN_HTP_SIM_THREADS="$t" "$build/bin/qnn-llm-run" --backend "$libdir/libQnnHtp.so" --ids
            --context "$bins/$c/llm.bin" --tokenizer "$model/tokenizer.json") ;;
  esac
  /usr/bin/time -f "# rss %M" -o "$work/rss" "${cmd[@]}" --prompt_ids "$ids" --max_tokens "$((decode_tokens + 1))" \
    --warmup 1 >"$work/out"
  cat "$work/rss" >>"$work/out"
}

results=$work/results.txt
: >"$results"
for r in $(seq 1 "$rounds"); do
  echo "== round $r of $rounds"
  for t in $threads_list; do
    for c in $configs; do
      run_one "$c" "$t"
      # config threads prefill_tok_s ttft_ms decode_tok_s rss_kB ids
      line=$("$py" - "$work/out" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
p = re.search(r"# prompt \d+ tokens: prefill [\d.]+ ms \(([\d.]+) tokens/s\), time to first token ([\d.]+) ms", s)
d = re.search(r"# decode \d+ tokens: [\d.]+ ms \(([\d.]+) tokens/s\)", s)
rss = re.search(r"# rss (\d+)", s)
ids = re.search(r"^ids: (.*)$", s, re.M)
print(p[1], p[2], d[1], rss[1], ids[1].replace(" ", ","))
PY
)
      echo "$c $t $line" | tee -a "$results" | cut -d' ' -f1-6
    done
  done
done

cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)
table=$("$py" - "$results" "$rounds" "$cpu" "$(git rev-parse --short HEAD)" "$prompt_tokens" "$decode_tokens" <<'PY'
import sys, statistics, collections, datetime
res, rounds, cpu, commit, n_prompt, n_decode = sys.argv[1:]
runs = collections.defaultdict(list)  # (config, threads) -> [(prefill, ttft, decode, rss, ids)] per round
order = []
for line in open(res):
    c, t, pf, ttft, dec, rss, ids = line.split()
    if (c, t) not in runs: order.append((c, t))
    runs[(c, t)].append((float(pf), float(ttft), float(dec), int(rss) / 1024, ids.split(",")))
name = {"ort": "ONNX Runtime CPU fp32", "cpu": "libQnnCpu.so fp32", "w8a16": "libQnnHtp.so w8a16",
        "w4a16": "libQnnHtp.so w4a16 (LPBQ)"}
print(f"{datetime.date.today()}, {cpu}, commit {commit}: prompt {n_prompt} tokens, {n_decode} decoded, "
      f"{rounds} alternating rounds")
print()
print("| configuration | threads | prefill tokens/s | time to first token ms | decode tokens/s | peak RSS MB "
      "| prefill / ORT | decode / ORT |")
print("|---|---|---|---|---|---|---|---|")
notes = []
for c, t in order:
    rs = runs[(c, t)]
    med = [statistics.median(x[i] for x in rs) for i in range(4)]
    ratios = ["", ""]
    ort = runs.get(("ort", t))
    if c != "ort" and ort and len(ort) == len(rs):
        # each round runs both seconds apart: the round's own ratio sees the same host load
        ratios = [f"{statistics.median(a[i] / b[i] for a, b in zip(rs, ort)):.2f}" for i in (0, 2)]
        same = [sum(x == y for x, y in zip(a[4], b[4])) for a, b in zip(rs, ort)]
        first = [next((i for i, (x, y) in enumerate(zip(a[4], b[4])) if x != y), len(a[4])) for a, b in zip(rs, ort)]
        n = len(rs[0][4])
        verdict = "agree" if min(first) == n else f"first difference at token {min(first)}"
        notes.append(f"tokens, {name[c]} vs ONNX Runtime, {t} thread(s), worst round: {min(same)}/{n} equal, {verdict}")
    print(f"| {name[c]} | {t} | {med[0]:.0f} | {med[1]:.1f} | {med[2]:.0f} | {med[3]:.1f} | {ratios[0]} | {ratios[1]} |")
print()
for n in notes: print(n)
PY
)
echo
echo "$table"
[ -n "${OUT:-}" ] && echo "$table" >"$OUT"
exit 0
