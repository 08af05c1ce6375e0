#!/usr/bin/python3
"""End to end on the CPU backend: train (or reuse) the example decoder, convert its prefill and decode graphs
with qnn-onnx-converter, build them with qnn-model-lib-generator, load both into libQnnCpu.so through the
Python package, and generate greedily: prompt through the prefill graph, then token by token through the
decode graph with the KV cache kept by this runner. The tokens must equal those of PyTorch's full causal
forward pass over the growing sequence (no cache: an independent reference of the cache, mask and position
handling), and the logits must agree within tolerance.

    /usr/bin/python3 examples/llm/check_llm.py BUILD_DIR OUT_DIR [--tiny] [--seconds S] [--steps K]

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

    cmd = [sys.executable, os.path.join(HERE, "train_llm.py"), "--out", a.out]
    if a.tiny:
        cmd.append("--tiny")
    if a.seconds is not None:
        cmd += ["--seconds", str(a.seconds)]
    subprocess.run(cmd, check=True)

    bin_dir = os.path.join(a.build, "bin")
    conv = os.path.join(a.out, "qnn")
    libs = {}
    for g in ("prefill", "decode"):
        for tool in ([os.path.join(bin_dir, "qnn-onnx-converter"), "-i", os.path.join(a.out, g + ".onnx"),
                      "-o", os.path.join(conv, g + ".cpp"), "--preserve_io"],
                     [os.path.join(bin_dir, "qnn-model-lib-generator"), "-c", os.path.join(conv, g + ".cpp"),
                      "-b", os.path.join(conv, g + ".bin"), "-o", os.path.join(conv, "lib")]):
            p = subprocess.run(tool, capture_output=True, text=True)
            if p.returncode:
                sys.exit(f"FAIL: {' '.join(tool)}\n{p.stdout}{p.stderr}")
        libs[g] = os.path.join(conv, "lib", "x86_64-linux-clang", f"lib{g}.so")

    ck = torch.load(os.path.join(a.out, "model.pt"))
    c = ck["config"]
    model = T.Llama(c)
    model.load_state_dict(ck["state"])
    model.eval()
    tok = T.Tokenizer.load(os.path.join(a.out, "tokenizer.json"))
    _, held_out = T.load_corpus()
    prompt = tok.encode(held_out)[:a.prompt_tokens]
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
        past = ctx - n
        assert start <= past, "the context is full"
        m = len(ids)
        inp = {t.name: t for t in graph.inputs}
        feeds = {"input_ids": np.array([ids + [0] * (n - m)]),
                 "position_ids": np.array([[start + i if i < m else 0 for i in range(n)]])}
        mask = np.full((1, 1, n, ctx), T.MASK_NEG, np.float32)
        mask[..., :start] = 0.0  # the past slots in use
        for i in range(n):  # the new tokens, causal among themselves (padding rows see themselves only)
            mask[0, 0, i, past:past + (i + 1 if i < m else 0)] = 0.0
            mask[0, 0, i, past + i] = 0.0
        feeds["attention_mask"] = mask
        for i in range(L):
            feeds[f"past_key_{i}"] = np.ascontiguousarray(cache[2 * i, :, :, :past])
            feeds[f"past_value_{i}"] = np.ascontiguousarray(cache[2 * i + 1, :, :, :past])
        if ort_pending.pop(graph.name, False):
            ort_compare(graph.name, feeds)
        feeds = {k: np.ascontiguousarray(v.astype(inp[k].dtype)) for k, v in feeds.items()}
        out = graph.run(feeds)
        if graph.name in ort_outputs:
            for k, v in ort_outputs.pop(graph.name).items():
                d = float(np.abs(v.reshape(out[k].shape) - out[k]).max())
                ort_worst[0] = max(ort_worst[0], d)
        for i in range(L):
            cache[2 * i, :, :, start:start + m] = out[f"new_key_{i}"][:, :, :m]
            cache[2 * i + 1, :, :, start:start + m] = out[f"new_value_{i}"][:, :, :m]
        return out["logits"][0, m - 1]

    with qnn.Backend(os.path.join(a.build, "backends", "cpu", "libQnnCpu.so")) as be:
        pre = be.load_model_library(libs["prefill"])
        dec = be.load_model_library(libs["decode"])
        seq = list(prompt)
        logits = run(pre.graphs["prefill"], ar, seq, 0)
        ours, ref, worst = [], [], 0.0
        for _ in range(a.steps):
            with torch.no_grad():
                want = model(torch.tensor([seq]))[0, -1].numpy()
            worst = max(worst, float(np.abs(logits - want).max()))
            ours.append(int(logits.argmax()))
            ref.append(int(want.argmax()))
            top2 = np.sort(want)[-2:]
            if ours[-1] != ref[-1] and top2[1] - top2[0] < 1e-4:  # a tie within rounding is no difference
                ours[-1] = ref[-1]
            seq.append(ref[-1])  # follow the reference so that one early difference shows every later one
            logits = run(dec.graphs["decode"], 1, [seq[-1]], len(seq) - 1)
        pre.close()
        dec.close()
    print(f"prompt {prompt} {tok.decode(prompt)!r}")
    print(f"torch    {ref} {tok.decode(ref)!r}")
    print(f"QNN CPU  {ours} {tok.decode(ours)!r}")
    print(f"max |logit difference| {worst:.2e}")
    if have_ort:
        print(f"ONNX Runtime vs QNN CPU, first prefill and decode calls, all outputs: max difference {ort_worst[0]:.2e}")
        if ort_worst[0] > 1e-3:
            print("FAIL: ONNX Runtime and QNN CPU differ by more than 1e-3")
            return 1
    elif a.ort:
        print(f"(no onnxruntime-node in {a.ort}: ONNX Runtime comparison skipped)")
    if ours != ref:
        print("FAIL: greedy tokens differ")
        return 1
    if worst > 1e-3:
        print("FAIL: logits differ by more than 1e-3")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
