#!/usr/bin/python3
"""A LoRA adapter switched between prompts without reloading, against PyTorch: trains (or reuses) the example
decoder and a LoRA adapter on the second text (train_lora.py), builds per backend one context binary whose
LoRA branches are updateable tensors plus the adapter and the base values as binary sections
(qnn.llm.build(lora_weights=, adapters=)), then, on ONE loaded context, generates greedily from a prompt of the
second text's held-out part three times: base, after applying the adapter, after applying the base section
again (qnn-llm-run --prompts with '@adapter' lines, and qnn.llm's Generator.apply_adapter). Checked:

- the base run's tokens are PyTorch's base model's argmax at every step, the adapted run's PyTorch's adapted
  model's (base + x A B on the adapted projections; plain causal pass, no cache), a different token only
  where PyTorch's top two logits are within the backend's tolerance (as check_runner.py);
- switching back gives the first run's ids exactly, and (qnn.llm) every step's logits output byte for byte;
  qnn.llm the same ids as qnn-llm-run; --adapter NAME on a fresh load the adapted ids;
- the adapter matters: PyTorch's adapted and base continuations differ (else the check would not tell the
  sections apart), and so do the runner's adapted and base runs.

htp-w8a16: the graphs quantized (qnn.llm.calibrate records the float CPU binary's inputs with the base and with
the adapter applied; build() gives every activation and branch tensor the union of both states' calibrated
ranges, so one set of encodings serves both sections); its tokens are checked with a logit tolerance of 0.2, and
the recorded calibration files must hold the prompt's ids as float32 (the converter's --input_list format).
htp-w4a16: the same with the decoder layers' linear weights LPBQ 4-bit (checked in the converter's encodings, the
LoRA branches' A and B one 8-bit encoding each), logit tolerance 0.3. Quantized, the logits at the prompt must
also be within the tolerance of PyTorch's and within half the adapter's own effect on them.

--genie: the same on the Genie-layout export of the adapted model (export_genie.py --model LORA_DIR: the branches
in Genie's graphs, LORA_DIR/genie), runners given its rotary theta; also checked: genie_config.json's `lora`
section (lora-version 2, adapters "python" and "base" naming the sections build() wrote beside the binary).

    /usr/bin/python3 examples/llm/check_lora.py BUILD_DIR BASE_DIR LORA_DIR [--tiny] [--seconds S]
                     [--lora_steps K] [--backends cpu,htp,htp-w8a16,htp-w4a16] [--genie]

Exit 77 (skipped) without python3-torch / python3-onnx or the corpora."""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# logits: fp32; fp16 (as check_runner.py); w8a16 (the tiny model's logits within 0.03 of PyTorch's at the prompt,
# llm_example_tiny_w8a16_htp allows 0.3); w4a16 (LPBQ base weights: measured within 0.055 at the prompt, base and
# adapted, where the adapter moves them by 0.62; 0.3 lets a token differ only at a near tie, below half the
# adapter's effect)
TOLERANCE = {"cpu": 1e-4, "htp": 2e-2, "htp-w8a16": 0.2, "htp-w4a16": 0.3}
LIBRARY = {"cpu": "libQnnCpu.so", "htp": "libQnnHtp.so", "htp-w8a16": "libQnnHtp.so", "htp-w4a16": "libQnnHtp.so"}


def all_ids(out):
    return [[int(x) for x in line.split(":", 1)[1].split()] for line in out.splitlines() if line.startswith("ids:")]


def w4a16_encodings(out_dir, lora_dir, layers):
    """The w4a16 binary's encodings as the converter wrote them: the LoRA branches' A and B one 8-bit encoding
    each (the union of the states' ranges, not LPBQ: a section replaces their bytes as they are), the decoder
    layers' 7 linear weights each LPBQ (4-bit); -> the problems found."""
    import json
    with open(os.path.join(lora_dir, "lora_weights.txt")) as f:
        lora = {ln.strip() for ln in f if ln.strip()}
    problems = []
    for g in ("prefill", "decode"):
        with open(os.path.join(out_dir, g + "_encodings.json")) as f:
            params = json.load(f)["param_encodings"]
        for t in sorted(lora):
            e = params.get(t)
            if not e or len(e) != 1 or e[0].get("bitwidth") != 8:
                problems.append(f"{g}: LoRA tensor {t} encoded {json.dumps(e)[:120]}, want one 8-bit encoding")
        lpbq = [t for t, e in params.items() if isinstance(e, dict) and e.get("enc_type") == "LPBQ"]
        if len(lpbq) != 7 * layers or any(params[t].get("compressed_bw") != 4 for t in lpbq):
            problems.append(f"{g}: {len(lpbq)} LPBQ weights, want 4-bit q, k, v, o, gate, up, down of {layers} layers")
    return problems


def genie_lora_config(graphs, ctx):
    """genie_config.json's LoRA section as Genie reads it (engine.model.binary.lora: version 1, lora-version 2 =
    adapters applied as binary sections, each adapter version 1 with one section per ctx-bin) naming the sections
    build() wrote beside `ctx`; -> the problems found."""
    import json
    import qnn.llm
    with open(os.path.join(graphs, "genie_config.json")) as f:
        binary = json.load(f)["dialog"]["engine"]["model"]["binary"]
    sections = {k: os.path.abspath(v) for k, v in qnn.llm.adapter_sections(ctx).items()}
    want = {"version": 1, "lora-version": 2,
            "adapters": [{"version": 1, "name": "python", "bin-sections": [sections["python"]]},
                         {"version": 1, "name": "base", "bin-sections": [sections["base"]]}]}
    problems = []
    if binary.get("ctx-bins") != [os.path.abspath(ctx)]:
        problems.append(f"genie_config.json: ctx-bins {binary.get('ctx-bins')}, want [{os.path.abspath(ctx)}]")
    if binary.get("lora") != want:
        problems.append(f"genie_config.json: lora {binary.get('lora')}, want {want}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("base")
    ap.add_argument("lora")
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--seconds", type=float, default=None, help="the base model's training cap")
    ap.add_argument("--lora_steps", type=int, default=None, help="train_lora.py --steps")
    ap.add_argument("--lora_lr", type=float, default=None, help="train_lora.py --lr")
    ap.add_argument("--steps", type=int, default=8, help="tokens to generate")
    ap.add_argument("--backends", default="cpu,htp")
    ap.add_argument("--genie", action="store_true", help="on the Genie-layout export (export_genie.py)")
    a = ap.parse_args()
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import llm_setup
    why = llm_setup.missing()
    if why:
        print(f"SKIP: {why}")
        return llm_setup.SKIP
    try:
        import pydoc_data.topics  # noqa: F401  (the second text)
    except ImportError as e:
        print(f"SKIP: {e}")
        return llm_setup.SKIP
    import qnn.llm
    llm_setup.train(a.base, a.tiny, a.seconds)
    extra = (["--steps", str(a.lora_steps)] if a.lora_steps else []) + (["--lr", str(a.lora_lr)] if a.lora_lr else [])
    subprocess.run([sys.executable, os.path.join(HERE, "train_lora.py"), "--base", a.base, "--out", a.lora, *extra],
                   check=True)
    import train_lora
    base_model, c, _ = train_lora.load(a.base, a.lora, adapted=False)
    adapted_model, _, _ = train_lora.load(a.base, a.lora, adapted=True)
    tok_path = os.path.join(a.lora, "tokenizer.json")
    tok = train_lora.T.Tokenizer.load(tok_path)
    _, held_out = train_lora.load_second_text(max_chars=60000 if a.tiny else None)
    prompt_ids = tok.encode(held_out)[:c["ar"] + 3]  # two prefill chunks
    prompt = tok.decode(prompt_ids)
    assert tok.encode(prompt) == prompt_ids and len(prompt_ids) + a.steps < c["ctx"]
    failures = []

    def greedy(model):
        import torch
        seq = list(prompt_ids)
        with torch.no_grad():
            for _ in range(a.steps):
                seq.append(int(model(torch.tensor([seq]))[0, -1].argmax()))
        return seq[len(prompt_ids):]
    want_base, want_adapted = greedy(base_model), greedy(adapted_model)
    print(f"PyTorch, prompt of {len(prompt_ids)} held-out tokens of the second text: base {want_base}, "
          f"adapted {want_adapted}")
    if want_base == want_adapted:
        failures.append("PyTorch's adapted and base continuations are equal: the adapter changes nothing here "
                        "(train it longer)")

    exe = os.path.join(a.build, "bin", "qnn-llm-run")
    libs = os.path.join(a.build, "lib", "x86_64-linux-clang")
    prompts = os.path.join(a.lora, "prompts.txt")
    with open(prompts, "w", encoding="utf-8") as f:
        f.write(f"{prompt}\n@adapter python\n{prompt}\n@adapter base\n{prompt}\n")
    graphs, theta, rope = a.lora, [], {}  # the graphs converted; the runners' rotary arguments (Genie layout)
    if a.genie:
        import export_genie
        graphs = os.path.join(a.lora, "genie")
        first = a.backends.split(",")[0]
        export_genie.main(["--model", a.lora, "--out", graphs,
                           "--ctx_bin", os.path.join(graphs, "run-" + first, "llm.bin")])
        theta, rope = ["--rope_theta", str(c["rope_theta"])], {"rope_theta": c["rope_theta"]}

    def build(be, **kw):
        return qnn.llm.build(os.path.join(a.build, "bin"), graphs, os.path.join(libs, LIBRARY[be]),
                             os.path.join(graphs, "run-" + be),
                             extension=os.path.join(a.build, "backends", "htp_sim", "libQnnHtpNetRunExtensions.so"),
                             lora_weights=os.path.join(graphs, "lora_weights.txt"),
                             adapters={"python": os.path.join(graphs, "adapter.safetensors")}, **kw)
    for be in a.backends.split(","):
        lib = os.path.join(libs, LIBRARY[be])
        if be.startswith("htp-w"):
            float_ctx = os.path.join(graphs, "run-cpu", "llm.bin")
            if not os.path.exists(float_ctx):
                build("cpu")
            cal = os.path.join(a.lora, "calibration")
            train_text, _ = train_lora.load_second_text(max_chars=60000 if a.tiny else None)
            t0 = time.time()
            qnn.llm.calibrate(os.path.join(libs, LIBRARY["cpu"]), float_ctx, tok_path, train_text, cal, prompts=3,
                              adapters=[qnn.llm.adapter_sections(float_ctx)["python"]], **rope)
            import numpy as np
            first = np.fromfile(os.path.join(cal, "prefill", "0", "input_ids.raw"), np.float32)
            want_ids = tok.encode(train_text)[:c["ar"]]
            if first.tolist() != want_ids:
                failures.append(f"calibration: the first prefill input's ids read as float32 are {first.tolist()[:8]}..., "
                                f"the prompt's {want_ids[:8]}...")
            t1 = time.time()
            ctx = build(be, quantize=be[4:], calibration=cal)
            print(f"{be}: calibration {t1 - t0:.0f} s, conversions and binary {time.time() - t1:.0f} s")
            if be == "htp-w4a16":
                failures.extend(f"{be}: {e}" for e in w4a16_encodings(os.path.dirname(ctx), a.lora, c["layers"]))
        else:
            ctx = build(be, fp16=be == "htp")
        sections = qnn.llm.adapter_sections(ctx)
        if sorted(sections) != ["base", "python"]:
            failures.append(f"{be}: sections {sections}, want base and python")
        common = ["--backend", lib, "--context", ctx, "--tokenizer", tok_path, "--max_tokens", str(a.steps), "--ids",
                  *theta]
        p = subprocess.run([exe, *common, "--prompts", prompts], capture_output=True, text=True, errors="replace")
        runs = all_ids(p.stdout)
        if p.returncode or len(runs) != 3:
            failures.append(f"{be}: qnn-llm-run --prompts: rc {p.returncode}, {len(runs)} runs\n{p.stdout}{p.stderr}")
            continue
        switches = [ln for ln in p.stdout.splitlines() if ln.startswith("# adapter")]
        for label, got, model in (("base", runs[0], base_model), ("adapted", runs[1], adapted_model),
                                  ("base again", runs[2], base_model)):
            agree, ties, errors = llm_setup.versus_torch(model, prompt_ids, got, TOLERANCE[be])
            failures.extend(f"{be} {label}: {e}" for e in errors)
            print(f"{be} {label}: {got}, PyTorch's argmax at {agree} of {len(got)}"
                  + (f"; near ties {ties}" if ties else ""))
        if runs[2] != runs[0]:
            failures.append(f"{be}: back on the base section {runs[2]}, first base run {runs[0]}")
        for ln in switches:
            print(f"  {ln}")
        one = all_ids(subprocess.run([exe, *common, "--prompt", prompt, "--adapter", "python"], capture_output=True,
                                     text=True, errors="replace").stdout)
        if one != [runs[1]]:
            failures.append(f"{be}: --adapter python on a fresh load gave {one}, the switched run {runs[1]}")
        if want_adapted != want_base and runs[1] == runs[0]:
            failures.append(f"{be}: the adapted run gave the base run's ids {runs[0]}; PyTorch's differ")
        if a.genie and be == first:
            failures.extend(f"{be}: {e}" for e in genie_lora_config(graphs, ctx))
        with qnn.llm.Generator(lib, ctx, tok_path, **rope) as gen:
            if a.genie and not gen.genie:
                failures.append(f"{be}: qnn.llm did not take the binary for Genie's layout")
            py, raw, times = [], [], []
            step = gen._step

            def recording(graph, ids, start):  # every step's logits output as the backend wrote it
                out = step(graph, ids, start)
                raw[-1].append(gen.mem[graph.name]["logits"].array.tobytes())
                outs[-1].append(out)
                return out
            outs = []
            gen._step = recording
            for section in (None, sections["python"], sections["base"]):
                if section:
                    times.append(gen.apply_adapter(section))
                raw.append([])
                outs.append([])
                py.append(gen.generate(prompt_ids, max_tokens=a.steps).ids)
        if py != runs:
            failures.append(f"{be}: qnn.llm generated {py}, qnn-llm-run {runs}")
        if raw[2] != raw[0]:
            failures.append(f"{be}: back on the base section, the logits differ from the first base run's "
                            f"(bytes; steps {[k for k, (x, y) in enumerate(zip(raw[0], raw[2])) if x != y]})")
        if be.startswith("htp-w"):  # the quantization error at the prompt beside the adapter's effect
            import torch
            with torch.no_grad():
                ref = [m(torch.tensor([prompt_ids]))[0, -1].numpy() for m in (base_model, adapted_model)]
            at = [o[-a.steps] for o in outs]  # the last prefill chunk's logits: the prompt's last token
            err = [float(abs(x - r).max()) for x, r in zip(at, ref)]
            move = float(abs(ref[1] - ref[0]).max())
            print(f"  logits at the prompt vs PyTorch's: base within {err[0]:.3f}, adapted {err[1]:.3f}; the adapter "
                  f"moves them by {move:.3f}")
            if max(err) > TOLERANCE[be] or max(err) > move / 2:
                failures.append(f"{be}: logits at the prompt {max(err):.3f} from PyTorch's, over the tolerance "
                                f"{TOLERANCE[be]} or half the adapter's effect {move:.3f}")
        print(f"  qnn.llm: {'same ids' if py == runs else py}; base-again logits "
              f"{'byte-identical' if raw[2] == raw[0] else 'DIFFERENT'} ({len(raw[0])} steps); apply_adapter "
              f"{times[0] * 1e3:.2f} ms, back to base {times[1] * 1e3:.2f} ms")

    return llm_setup.report(failures)


if __name__ == "__main__":
    sys.exit(main())
