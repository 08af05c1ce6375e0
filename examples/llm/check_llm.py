#!/usr/bin/python3
"""End to end on the CPU backend: train (or reuse) the example decoder, convert its prefill and decode graphs
with qnn-onnx-converter, build them with qnn-model-lib-generator, load both into libQnnCpu.so through the
Python package, and generate greedily: prompt through the prefill graph, then token by token through the
decode graph with the KV cache kept by this runner. The tokens must equal those of PyTorch's full causal
forward pass over the growing sequence (no cache: an independent reference of the cache, mask and position
handling), and the logits must agree within tolerance.

    /usr/bin/python3 examples/llm/check_llm.py BUILD_DIR OUT_DIR [--tiny] [--seconds S] [--steps K]
        [--backend cpu|htp] [--quant float|w8a16|w4a16] [--held_out] [--min_agreement F] [--max_logit_error E]

--backend htp runs libQnnHtp.so (the HTP simulator) instead of libQnnCpu.so. --quant quantizes both graphs:
calibration inputs are the runner's own feeds on training text, the K/V cache computed by PyTorch
(calibration.py); w8a16 = --act_bw 16 --weight_bw 8 with per-channel (per-row) weights; w4a16 = the same
plus an LPBQ override (4-bit weights in blocks along the input dim, each block's scale a 4-bit multiple of
its row's, AIMET's encoding) on every decoder layer's linear weight (the output head stays 8-bit per-row). The report gives the token agreement with
PyTorch (greedy steps with the same argmax) and the largest logit error; float must agree on every token
within 1e-3, a quantized run within the limits given (defaults: report only). --held_out feeds the held-out
text itself after the prompt (teacher forcing) instead of PyTorch's greedy tokens: the agreement is then top-1
agreement over real text, and both perplexities over it are printed.

Exit 77 (skipped) without python3-torch / python3-onnx or the corpus."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("out")
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--steps", type=int, default=8, help="decode steps after the prompt")
    ap.add_argument("--prompt_tokens", type=int, default=5)
    ap.add_argument("--backend", choices=("cpu", "htp"), default="cpu")
    ap.add_argument("--quant", choices=("float", "w8a16", "w4a16"), default="float")
    ap.add_argument("--held_out", action="store_true",
                    help="follow the held-out text instead of PyTorch's greedy tokens (teacher forcing): the "
                         "agreement is top-1 agreement over real text, and both perplexities are reported")
    ap.add_argument("--calib", type=int, default=24, help="calibration text chunks (quantized runs)")
    ap.add_argument("--min_agreement", type=float, default=None,
                    help="fail below this token agreement with PyTorch (default: 1 for float, none quantized)")
    ap.add_argument("--max_logit_error", type=float, default=None,
                    help="fail above this max |logit difference| (default: 1e-3 for float, none quantized)")
    ap.add_argument("--ort", metavar="NODE_MODULES", help="also run the first prefill and decode calls on ONNX "
                    "Runtime (onnxruntime-node in this directory; skipped when it is absent)")
    a = ap.parse_args()
    try:
        import numpy as np
        import onnx  # noqa: F401  (the converter needs it)
        import torch
    except ImportError as e:
        print(f"SKIP: {e}")
        return SKIP
    if not os.path.isdir("/usr/share/common-licenses"):
        print("SKIP: no /usr/share/common-licenses (package base-files)")
        return SKIP
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import qnn
    import train_llm as T
    import llm_io

    cmd = [sys.executable, os.path.join(HERE, "train_llm.py"), "--out", a.out]
    if a.tiny:
        cmd.append("--tiny")
    if a.seconds is not None:
        cmd += ["--seconds", str(a.seconds)]
    subprocess.run(cmd, check=True)

    ck = torch.load(os.path.join(a.out, "model.pt"))
    c = ck["config"]
    model = T.Llama(c)
    model.load_state_dict(ck["state"])
    model.eval()
    tok = T.Tokenizer.load(os.path.join(a.out, "tokenizer.json"))
    train_text, held_out = T.load_corpus()

    bin_dir = os.path.join(a.build, "bin")
    conv = os.path.join(a.out, "qnn" if a.quant == "float" else "qnn_" + a.quant)
    libs = {}
    qflags = {}
    if a.quant != "float":
        import calibration
        qflags = calibration.prepare(model, tok, train_text, conv, a.quant, a.calib)
    for g in ("prefill", "decode"):
        for tool in ([os.path.join(bin_dir, "qnn-onnx-converter"), "-i", os.path.join(a.out, g + ".onnx"),
                      "-o", os.path.join(conv, g + ".cpp"), "--preserve_io", *qflags.get(g, [])],
                     [os.path.join(bin_dir, "qnn-model-lib-generator"), "-c", os.path.join(conv, g + ".cpp"),
                      "-b", os.path.join(conv, g + ".bin"), "-o", os.path.join(conv, "lib")]):
            p = subprocess.run(tool, capture_output=True, text=True)
            if p.returncode:
                sys.exit(f"FAIL: {' '.join(tool)}\n{p.stdout}{p.stderr}")
        libs[g] = os.path.join(conv, "lib", "x86_64-linux-clang", f"lib{g}.so")

    text_ids = tok.encode(held_out)
    prompt = text_ids[:a.prompt_tokens]
    assert 0 < len(prompt) <= c["ar"], "the prompt must fit one prefill call"

    ctx, ar, hd, L = c["ctx"], c["ar"], c["dim"] // c["heads"], c["layers"]
    cache = np.zeros((2 * L, 1, c["kv_heads"], ctx, hd), np.float32)  # slots 0..pos-1 hold the sequence

    have_ort = bool(a.ort) and os.path.isdir(os.path.join(a.ort, "onnxruntime-node"))
    ort_pending = {"prefill": have_ort, "decode": have_ort}  # the first call of each graph
    ort_outputs, ort_worst = {}, [0.0]

    def ort_compare(name, feeds):
        """ONNX Runtime on the exported graph with these feeds; its outputs, kept for the QNN run's."""
        d = os.path.join(a.out, "ort", name)
        os.makedirs(d, exist_ok=True)
        spec = []
        for k, v in feeds.items():
            v = np.ascontiguousarray(v.astype(np.int64 if v.dtype.kind in "iu" else np.float32))
            v.tofile(os.path.join(d, k + ".raw"))
            spec.append(dict(name=k, type="int64" if v.dtype == np.int64 else "float32", dims=list(v.shape),
                             file=os.path.join(d, k + ".raw")))
        json.dump(spec, open(os.path.join(d, "feeds.json"), "w"))
        p = subprocess.run(["node", os.path.join(HERE, "ort_step.js"), os.path.join(a.out, name + ".onnx"), d],
                           capture_output=True, text=True, env=dict(os.environ, NODE_PATH=a.ort))
        if p.returncode:
            sys.exit(f"FAIL: ONNX Runtime on {name}.onnx: {p.stderr}")
        _, outs = T.io_names(c)
        ort_outputs[name] = {k: np.fromfile(os.path.join(d, f"ort_{k}.raw"), np.float32) for k in outs}

    def run(graph, n, ids, start):
        """Feed len(ids) <= n new tokens at positions start.. through an AR-n graph; store their K/V."""
        m = len(ids)
        inp = {t.name: t for t in graph.inputs}
        feeds = llm_io.step_feeds(c, cache, n, ids, start)
        if ort_pending.pop(graph.name, False):
            ort_compare(graph.name, feeds)
        # A quantized input takes float32 (the package quantizes it with the input's encoding); outputs dequantized.
        feeds = {k: np.ascontiguousarray(v.astype(np.float32 if inp[k].quant else inp[k].dtype))
                 for k, v in feeds.items()}
        out = graph.run(feeds, dequantize=True)
        if graph.name in ort_outputs:
            for k, v in ort_outputs.pop(graph.name).items():
                d = float(np.abs(v.reshape(out[k].shape) - out[k]).max())
                ort_worst[0] = max(ort_worst[0], d)
        llm_io.store_kv(c, cache, out, start, m)
        return out["logits"][0, m - 1]

    lib = {"cpu": ("cpu", "libQnnCpu.so"), "htp": ("htp_sim", "libQnnHtp.so")}[a.backend]
    with qnn.Backend(os.path.join(a.build, "backends", *lib)) as be:
        pre = be.load_model_library(libs["prefill"])
        dec = be.load_model_library(libs["decode"])
        seq = list(prompt)
        logits = run(pre.graphs["prefill"], ar, seq, 0)
        ours, ref, worst, lo, hi, top_err = [], [], 0.0, 0.0, 0.0, 0.0
        nll = [0.0, 0.0]   # PyTorch's and ours on the held-out text (--held_out)

        def log_softmax_at(v, k):
            v = v.astype(np.float64)
            return float(v[k] - v.max() - np.log(np.exp(v - v.max()).sum()))
        for _ in range(a.steps):
            with torch.no_grad():
                want = model(torch.tensor([seq]))[0, -1].numpy()
            worst = max(worst, float(np.abs(logits - want).max()))
            lo, hi = min(lo, float(want.min())), max(hi, float(want.max()))
            top_err = max(top_err, abs(float(logits[want.argmax()] - want.max())))   # at PyTorch's choice
            ours.append(int(logits.argmax()))
            ref.append(int(want.argmax()))
            top2 = np.sort(want)[-2:]
            if a.quant == "float" and ours[-1] != ref[-1] and top2[1] - top2[0] < 1e-4:  # a tie within rounding
                ours[-1] = ref[-1]
            if a.held_out:
                nxt = text_ids[len(seq)]
                nll[0] -= log_softmax_at(want, nxt)
                nll[1] -= log_softmax_at(logits, nxt)
                seq.append(nxt)
            else:
                seq.append(ref[-1])  # follow the reference so that one early difference shows every later one
            logits = run(dec.graphs["decode"], 1, [seq[-1]], len(seq) - 1)
        pre.close()
        dec.close()
    label = f"QNN {a.backend.upper()} {a.quant}"
    agree = sum(x == y for x, y in zip(ours, ref)) / max(len(ref), 1)
    print(f"prompt {prompt} {tok.decode(prompt)!r}")
    print(f"torch    {ref} {tok.decode(ref)!r}")
    print(f"{label:8s} {ours} {tok.decode(ours)!r}")
    print(f"token agreement {agree:.3f} ({sum(x == y for x, y in zip(ours, ref))}/{len(ref)} steps), "
          f"max |logit difference| {worst:.2e} (logits within [{lo:.2f}, {hi:.2f}]; at the top token {top_err:.2e})")
    if a.held_out:
        import math
        pt, qn = (math.exp(v / max(len(ref), 1)) for v in nll)
        print(f"held-out perplexity over {len(ref)} positions: PyTorch {pt:.2f}, {label} {qn:.2f} "
              f"({100 * (qn / pt - 1):+.2f} %)")
    if have_ort:
        print(f"ONNX Runtime vs QNN CPU, first prefill and decode calls, all outputs: max difference {ort_worst[0]:.2e}")
        if ort_worst[0] > 1e-3:
            print("FAIL: ONNX Runtime and QNN CPU differ by more than 1e-3")
            return 1
    elif a.ort:
        print(f"(no onnxruntime-node in {a.ort}: ONNX Runtime comparison skipped)")
    min_agree = a.min_agreement if a.min_agreement is not None else (1.0 if a.quant == "float" else 0.0)
    max_err = a.max_logit_error if a.max_logit_error is not None else (1e-3 if a.quant == "float" else float("inf"))
    if agree < min_agree:
        print(f"FAIL: token agreement {agree:.3f} below {min_agree}")
        return 1
    if worst > max_err:
        print(f"FAIL: logits differ by more than {max_err}")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
