#!/usr/bin/python3
"""The example decoder with com.microsoft.GroupQueryAttention (export_gqa.py) against PyTorch and ONNX Runtime:
trains (or reuses) the model, exports the GQA graphs, and follows one sequence — a held-out prompt of 1.5
prefill chunks (the second chunk padded), then PyTorch's greedy tokens — through

- the export's own module in PyTorch (gqa_reference for the node) and ONNX Runtime's CPU provider
  (onnxruntime-node, --ort; present fed back as the next past, as ONNX Runtime GenAI does),
- the converted graphs (qnn-onnx-converter --target_op_set 2.13: QNN's GroupQueryAttention) in one context
  binary per backend (qnn.llm.build: libQnnCpu.so float, libQnnHtp.so fp16; --quant adds libQnnHtp.so w8a16
  calibrated on the float CPU binary's inputs) through qnn.llm's Generator (its cache = present rows copied
  into the decode graph's past at their slots),

comparing every call's logits (at the last real token) with PyTorch's plain causal pass over the sequence so far
(no cache) and with ONNX Runtime's. Then each binary generates greedily with qnn.llm and with qnn-llm-run: every
token must be PyTorch's argmax (a different one only at a near tie within the backend's tolerance, reported), and
both runners the same ids; then qnn-llm-run from a prompt filling all but 6 slots until the context is full.

    /usr/bin/python3 examples/llm/check_gqa.py BUILD_DIR OUT_DIR [--tiny] [--seconds S] [--steps K]
        [--backends cpu,htp[,htp-w8a16]] [--ort NODE_MODULES]

Exit 77 (skipped) without python3-torch / python3-onnx or the corpus."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# max |logit difference| from PyTorch (also the near-tie margin for a different greedy token): fp32; fp16
# computation (11-bit significand); w8a16 (the tiny model's logits span about +-2; as llm_example_tiny_w8a16_htp)
TOLERANCE = {"torch-gqa": 1e-4, "ort": 1e-4, "cpu": 1e-4, "htp": 3e-2, "htp-w8a16": 0.3}
LIBRARY = {"cpu": "libQnnCpu.so", "htp": "libQnnHtp.so", "htp-w8a16": "libQnnHtp.so"}


def main():
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import llm_setup
    ap = llm_setup.check_arguments()
    ap.add_argument("--backends", default="cpu,htp")
    ap.add_argument("--ort", metavar="NODE_MODULES", help="onnxruntime-node's directory (skipped when absent)")
    a = ap.parse_args()
    why = llm_setup.missing()
    if why:
        print(f"SKIP: {why}")
        return llm_setup.SKIP
    llm_setup.train(a.out, a.tiny, a.seconds)
    T, model, c = llm_setup.load(a.out)
    import numpy as np
    import torch
    import export_gqa
    import qnn.llm

    gqa_dir = os.path.join(a.out, "gqa")
    export_gqa.main(["--model", a.out, "--out", gqa_dir])
    tok_path = os.path.join(gqa_dir, "tokenizer.json")
    tok = T.Tokenizer.load(tok_path)
    _, held_out = T.load_corpus()
    ar, ctx, L = c["ar"], c["ctx"], c["layers"]
    hd = c["dim"] // c["heads"]
    prompt = tok.encode(held_out)[:ar * 3 // 2]
    failures = []

    # The sequence: the prompt, then PyTorch's greedy tokens; the calls: prefill chunks of ar, then one decode
    # call per token. want[j]: PyTorch's logits after call j's last real token (full causal pass, no cache).
    seq = list(prompt)
    with torch.no_grad():
        for _ in range(a.steps):
            seq.append(int(model(torch.tensor([seq]))[0, -1].argmax()))
        full = model(torch.tensor([seq]))[0].numpy()
    calls = [("prefill", ar, seq[p:p + ar], p) for p in range(0, len(prompt), ar)]
    calls += [("decode", 1, [seq[p]], p) for p in range(len(prompt), len(seq) - 1)]
    want = [full[start + len(ids) - 1] for _, _, ids, start in calls]
    got = {}

    def feeds_of(n, ids, start, past):
        f = {"input_ids": np.array([list(ids) + [0] * (n - len(ids))], np.int64),
             "seqlens_k": np.array([start + n - 1], np.int32), "total_sequence_length": np.array([start + n], np.int32)}
        f.update({f"past_{kind}_{i}": past[2 * i + (kind == "value")] for i in range(L) for kind in ("key", "value")})
        return f

    # The export's module in PyTorch, and ONNX Runtime: present is the next call's past.
    step = export_gqa.gqa_step(model)
    past = [np.zeros((1, c["kv_heads"], ctx, hd), np.float32) for _ in range(2 * L)]
    got["torch-gqa"] = []
    for graph, n, ids, start in calls:
        f = feeds_of(n, ids, start, past)
        with torch.no_grad():
            out = step(*(torch.from_numpy(f[k]) for k in export_gqa.io_names(c)[0]))
        got["torch-gqa"].append(out[0][0, len(ids) - 1].numpy())
        past = [o.numpy() for o in out[1:]]
    have_ort = bool(a.ort) and os.path.isdir(os.path.join(a.ort, "onnxruntime-node"))
    if have_ort:
        past = [np.zeros((1, c["kv_heads"], ctx, hd), np.float32) for _ in range(2 * L)]
        got["ort"] = []
        for j, (graph, n, ids, start) in enumerate(calls):
            d = os.path.join(a.out, "gqa_ort", str(j))
            os.makedirs(d, exist_ok=True)
            spec = []
            for k, v in feeds_of(n, ids, start, past).items():
                v.tofile(os.path.join(d, k + ".raw"))
                spec.append(dict(name=k, type=str(v.dtype), dims=list(v.shape), file=os.path.join(d, k + ".raw")))
            with open(os.path.join(d, "feeds.json"), "w") as fh:
                json.dump(spec, fh)
            p = subprocess.run(["node", os.path.join(HERE, "ort_step.js"), os.path.join(gqa_dir, graph + ".onnx"), d],
                               capture_output=True, text=True, env=dict(os.environ, NODE_PATH=a.ort))
            if p.returncode:
                return llm_setup.report([f"ONNX Runtime on {graph}.onnx: {p.stderr.strip()}"])
            read = lambda k: np.fromfile(os.path.join(d, f"ort_{k}.raw"), np.float32)
            got["ort"].append(read("logits").reshape(n, -1)[len(ids) - 1])
            past = [read(o).reshape(1, c["kv_heads"], ctx, hd) for o in export_gqa.io_names(c)[1][1:]]
    elif a.ort:
        print(f"(no onnxruntime-node in {a.ort}: ONNX Runtime skipped)")

    libs = os.path.join(a.build, "lib", "x86_64-linux-clang")
    exe = os.path.join(a.build, "bin", "qnn-llm-run")
    ext = os.path.join(a.build, "backends", "htp_sim", "libQnnHtpNetRunExtensions.so")
    binaries = {}
    for be in filter(None, a.backends.split(",")):
        lib = os.path.join(libs, LIBRARY[be])
        kw = {"fp16": be == "htp"}
        if be == "htp-w8a16":  # calibrated on the float CPU binary's inputs
            if "cpu" not in binaries:
                binaries["cpu"] = qnn.llm.build(os.path.join(a.build, "bin"), gqa_dir, os.path.join(libs, LIBRARY["cpu"]),
                                                os.path.join(gqa_dir, "run-cpu"))
            cal = os.path.join(gqa_dir, "calibration")
            qnn.llm.calibrate(os.path.join(libs, LIBRARY["cpu"]), binaries["cpu"], tok_path, held_out, cal, prompts=3)
            kw = {"quantize": "w8a16", "calibration": cal}
        binaries[be] = qnn.llm.build(os.path.join(a.build, "bin"), gqa_dir, lib, os.path.join(gqa_dir, "run-" + be),
                                     extension=ext, **kw)
        if "quantize" in kw:  # the rotary caches are value tables: the activations' 16 bits, as RotaryEmbedding's
            with open(os.path.join(os.path.dirname(binaries[be]), "decode_net.json")) as fh:
                net = json.load(fh)["graph"]
            bits = {net["tensors"][t]["quant_params"]["bitwidth"] for op in net["nodes"].values()
                    if op["type"] == "GroupQueryAttention" for t in op["input_names"][7:9]}
            if bits != {16}:
                failures.append(f"{be}: GroupQueryAttention's cos/sin caches quantized to {bits} bits, not 16")
        with qnn.llm.Generator(lib, binaries[be], tok_path) as gen:
            if not gen.gqa:
                failures.append(f"{be}: qnn.llm did not recognize the GQA layout")
            got[be] = [gen._step(gen.pre if graph == "prefill" else gen.dec, ids, start) for graph, _, ids, start in calls]
            # the last prefill chunk's past: the cache's slots as values (the graphs' encodings may differ)
            last = max(start for graph, _, _, start in calls if graph == "prefill")
            for s in gen._kv_names() if last else []:
                kin = gen._kv_in(s)
                tp, td = gen.info[gen.pre.name][kin], gen.info[gen.dec.name][kin]
                step = max(t.quant[0] if t.quant else 0.0 for t in (tp, td))
                diff = np.abs(qnn.llm._to_float(tp, gen.mem[gen.pre.name][kin].array[:, :, :last]) -
                              qnn.llm._to_float(td, gen.mem[gen.dec.name][kin].array[:, :, :last])).max()
                if diff > step:
                    failures.append(f"{be}: the prefill graph's {kin} slots 0..{last - 1} differ from the cache's "
                                    f"by {diff:.3g} (one step: {step:.3g})")
            res = gen.generate(prompt, max_tokens=a.steps)
        def runner(ids, max_tokens):
            out = subprocess.run([exe, "--backend", lib, "--context", binaries[be], "--tokenizer", tok_path,
                                  "--prompt_ids", ",".join(map(str, ids)), "--max_tokens", str(max_tokens), "--ids"],
                                 capture_output=True, text=True, errors="replace")
            for line in out.stdout.splitlines():
                if line.startswith("ids:") and not out.returncode:
                    return [int(x) for x in line[4:].split()], out.stdout
            failures.append(f"{be}: qnn-llm-run failed:\n{out.stdout}{out.stderr}")
            return None, out.stdout
        run_ids, _ = runner(prompt, a.steps)
        if run_ids is not None and run_ids != res.ids:
            failures.append(f"{be}: qnn-llm-run generated {run_ids}, qnn.llm {res.ids}")
        agree, ties, errors = llm_setup.versus_torch(model, prompt, res.ids, TOLERANCE[be])
        failures += [f"{be} greedy: {e}" for e in errors]
        print(f"{be}: greedy {res.ids} {tok.decode(res.ids)!r}: PyTorch's argmax at {agree} of {len(res.ids)} steps"
              + (f" (near ties {ties})" if ties else "") + f"; qnn-llm-run {'same ids' if run_ids == res.ids else run_ids}")
        # A prompt up to ctx - 6 (its last prefill chunk ends at the context's end), then decoding until the
        # context is full: 6 tokens after the first, and the runner says why it stopped.
        long_ids = tok.encode(held_out)[200:200 + ctx - 6]
        got_long, text = runner(long_ids, 32)
        if got_long is not None:
            if len(got_long) != 7 or f"the context ({ctx} tokens) is full" not in text:
                failures.append(f"{be}: a {len(long_ids)}-token prompt gave {len(got_long)} tokens (want 7, context full)")
            agree, ties, errors = llm_setup.versus_torch(model, long_ids, got_long, TOLERANCE[be])
            failures += [f"{be} {len(long_ids)}-token prompt: {e}" for e in errors]
            print(f"  {len(long_ids)}-token prompt to a full context (qnn-llm-run): {got_long}, PyTorch's argmax at "
                  f"{agree} of {len(got_long)}" + (f"; near ties {ties}" if ties else ""))

    print(f"{len(calls)} calls ({sum(g == 'prefill' for g, *_ in calls)} prefill chunks of {ar}, prompt {len(prompt)} "
          f"tokens; {a.steps - 1} decode), logits within [{float(np.min(want)):.2f}, {float(np.max(want)):.2f}]")
    for name, rows in got.items():
        worst = max(float(np.abs(r - w).max()) for r, w in zip(rows, want))
        top = sum(int(r.argmax()) == int(w.argmax()) for r, w in zip(rows, want))
        line = f"  {name:10s} vs PyTorch: max |logit difference| {worst:.2e}, argmax equal at {top}/{len(calls)} calls"
        if "ort" in got and name not in ("ort", "torch-gqa"):
            line += f"; vs ONNX Runtime {max(float(np.abs(r - o).max()) for r, o in zip(rows, got['ort'])):.2e}"
        print(line)
        if TOLERANCE[name] is not None and worst > TOLERANCE[name]:
            failures.append(f"{name}: logits differ from PyTorch's by {worst:.2e} (tolerance {TOLERANCE[name]})")
    return llm_setup.report(failures)


if __name__ == "__main__":
    sys.exit(main())
