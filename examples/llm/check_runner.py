#!/usr/bin/python3
"""The runners of examples/llm against PyTorch: trains (or reuses) the example decoder, builds one context
binary holding its prefill and decode graphs per backend (python -m qnn.llm build: libQnnCpu.so in float,
libQnnHtp.so in fp16 and quantized w8a8 from inputs recorded on the float binary), and generates greedily from a held-out prompt longer than the prefill graph (so it
goes through it in chunks) with the C++ runner qnn-llm-run and with qnn.llm. Checked:

- the C++ tokenizer's ids equal train_llm.py's, for the prompt and for the whole held-out text;
- every generated token is PyTorch's argmax over the sequence so far (plain causal forward pass, no cache:
  an independent reference of the cache, mask, position and chunk handling); a different token is accepted
  only where PyTorch's top two logits are within the backend's tolerance (a tie at its precision), and then
  reported; for the quantized binary the agreement is reported only;
- qnn.llm (Python) generates the same ids as qnn-llm-run on the same binary, and qnn-llm-run the same from the
  two model libraries composed on the backend (--model; --fp16 on the HTP);
- sampling with a seed repeats itself, also after --warmup generations, and top_k 1 is greedy.

    /usr/bin/python3 examples/llm/check_runner.py BUILD_DIR OUT_DIR [--tiny] [--seconds S] [--steps K]
                     [--backends cpu,htp,htp-w8a8]

Exit 77 (skipped) without python3-torch / python3-onnx or the corpus."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# logits: fp32 vs fp16 (11-bit significand) computation; quantized (8-bit activations): no bound, the
# agreement with PyTorch is reported
TOLERANCE = {"cpu": 1e-4, "htp": 2e-2, "htp-w8a8": None}
LIBRARY = {"cpu": "libQnnCpu.so", "htp": "libQnnHtp.so", "htp-w8a8": "libQnnHtp.so"}


def run_runner(exe, args):
    p = subprocess.run([exe, *args], capture_output=True, text=True, errors="replace")
    if p.returncode:
        sys.exit(f"FAIL: {exe} {' '.join(args)}\n{p.stdout}{p.stderr}")
    return p.stdout


def parse_ids(out, key):
    for line in out.splitlines():
        if line.startswith(key + ":"):
            return [int(x) for x in line.split(":", 1)[1].split()]
    sys.exit(f"FAIL: no '{key}:' line in\n{out}")


def main():
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import llm_setup
    a, T, model, c = llm_setup.prepare_check("cpu,htp,htp-w8a8")
    import numpy as np
    import qnn.llm
    tok_path = os.path.join(a.out, "tokenizer.json")
    tok = T.Tokenizer.load(tok_path)
    _, held_out = T.load_corpus()
    exe = os.path.join(a.build, "bin", "qnn-llm-run")
    libs = os.path.join(a.build, "lib", "x86_64-linux-clang")
    failures = []

    # The tokenizer: the whole held-out text.
    text_path = os.path.join(a.out, "held_out.txt")
    with open(text_path, "w", encoding="utf-8") as f:
        f.write(held_out)
    ours = [int(x) for x in run_runner(exe, ["--tokenizer", tok_path, "--prompt_file", text_path, "--tokenize"]).split()]
    want = tok.encode(held_out)
    print(f"tokenizer: {len(want)} held-out tokens, C++ {'equal' if ours == want else 'DIFFERENT'}")
    if ours != want:
        failures.append("the C++ tokenizer differs from train_llm.py's")

    # A prompt of 2.5 prefill chunks, from the held-out text.
    ids = want[:c["ar"] * 5 // 2]
    prompt = tok.decode(ids)
    prompt_ids = tok.encode(prompt)
    assert len(prompt_ids) + a.steps < c["ctx"], "prompt and tokens must fit the context"

    def versus_torch(be, prompt_ids, got):
        """llm_setup.versus_torch at the backend's tolerance; its errors become failures."""
        agree, ties, errors = llm_setup.versus_torch(model, prompt_ids, got, TOLERANCE[be])
        failures.extend(f"{be}: {e}" for e in errors)
        return agree, ties

    for be in a.backends.split(","):
        lib = os.path.join(libs, LIBRARY[be])
        def build(lib, name, **kw):
            return qnn.llm.build(os.path.join(a.build, "bin"), a.out, lib, os.path.join(a.out, "run-" + name),
                                 extension=os.path.join(a.build, "backends", "htp_sim", "libQnnHtpNetRunExtensions.so"),
                                 **kw)
        if be == "htp-w8a8":  # calibrated on the float CPU binary's inputs
            float_ctx = os.path.join(a.out, "run-cpu", "llm.bin")
            if not os.path.exists(float_ctx):
                build(os.path.join(libs, LIBRARY["cpu"]), "cpu")
            cal = os.path.join(a.out, "calibration")
            qnn.llm.calibrate(os.path.join(libs, LIBRARY["cpu"]), float_ctx, tok_path, held_out, cal, prompts=3)
            # the converter reads --input_list files as float32: the recorded ids must be float32 too
            first = np.fromfile(os.path.join(cal, "prefill", "0", "input_ids.raw"), np.float32)
            if first.tolist() != want[:c["ar"]]:
                failures.append(f"calibration: the first prefill input's ids read as float32 are {first.tolist()[:8]}"
                                f"..., the text's {want[:8]}...")
            ctx = build(lib, be, quantize="w8a8", calibration=cal)
        else:
            ctx = build(lib, be, fp16=be == "htp")
        base = ["--backend", lib, "--context", ctx, "--tokenizer", tok_path, "--prompt", prompt,
                "--max_tokens", str(a.steps), "--ids"]
        out = run_runner(exe, base)
        if "loaded (weights file-mapped)" not in out:
            failures.append(f"{be}: the binary was not loaded with its weights mapped from the file")
        got_prompt, got = parse_ids(out, "prompt ids"), parse_ids(out, "ids")
        if got_prompt != prompt_ids:
            failures.append(f"{be}: the runner's prompt ids {got_prompt} differ from train_llm.py's {prompt_ids}")
        agree, ties = versus_torch(be, prompt_ids, got)
        verdict = (f"PyTorch's argmax at {agree} of {len(got)} steps (not checked: quantized)"
                   if TOLERANCE[be] is None else "PyTorch's argmax at every step"
                   + (f" except near ties: {ties}" if ties else ""))
        print(f"{be}: prompt {len(prompt_ids)} tokens ({-(-len(prompt_ids) // c['ar'])} prefill chunks), tokens {got}"
              f" {tok.decode(got)!r}; {verdict}")
        for line in out.splitlines():
            if line.startswith("#"):
                print(f"  {line}")

        if TOLERANCE[be] is not None:  # the same graphs from the two model libraries, composed on the backend
            mlib = os.path.join(os.path.dirname(ctx), "lib", "x86_64-linux-clang")
            models = ["--model", f"{mlib}/libprefill.so,{mlib}/libdecode.so"] + (["--fp16"] if be == "htp" else [])
            from_libs = parse_ids(run_runner(exe, ["--backend", lib, *models] + base[4:]), "ids")
            if from_libs != got:
                failures.append(f"{be}: from the model libraries {from_libs}, from the context binary {got}")
            print(f"  from the model libraries: {'same ids' if from_libs == got else from_libs}")

        with qnn.llm.Generator(lib, ctx, tok_path) as gen:
            res = gen.generate(prompt, max_tokens=a.steps)
        if res.ids != got:
            failures.append(f"{be}: qnn.llm generated {res.ids}, qnn-llm-run {got}")
        print(f"  qnn.llm: {'same ids' if res.ids == got else res.ids}; {res.summary()}")

        samp = ["--temperature", "0.9", "--top_k", "20", "--top_p", "0.9", "--seed", "7"]
        s1, s2 = (parse_ids(run_runner(exe, base + samp), "ids") for _ in range(2))
        if s1 != s2:
            failures.append(f"{be}: seeded sampling differs between runs: {s1} / {s2}")
        k1 = parse_ids(run_runner(exe, base + ["--temperature", "1", "--top_k", "1", "--seed", "3"]), "ids")
        if k1 != got:
            failures.append(f"{be}: top_k 1 gave {k1}, greedy {got}")
        print(f"  sampled (T 0.9, top-k 20, top-p 0.9, seed 7): {s1}, repeated {'equal' if s1 == s2 else 'DIFFERENT'}")
        # --warmup (scripts/bench-llm.sh): generations before the printed one leave no trace in it (the cache
        # slots they filled are masked, the sampler restarts from its seed)
        w1 = parse_ids(run_runner(exe, base + samp + ["--warmup", "2"]), "ids")
        if w1 != s1:
            failures.append(f"{be}: after two warm-up generations the seeded run gave {w1}, without {s1}")
        print(f"  the same after --warmup 2: {'equal' if w1 == s1 else w1}")

        if TOLERANCE[be] is None:
            continue
        # A prompt beyond the prefill graph's past (its last chunk ends at ctx - 6), then decoding until the
        # context is full: 6 tokens after the first, and the runner says why it stopped.
        long_ids = want[200:200 + c["ctx"] - 6]
        out = run_runner(exe, ["--backend", lib, "--context", ctx, "--tokenizer", tok_path, "--prompt_ids",
                               ",".join(map(str, long_ids)), "--max_tokens", "32", "--ids"])
        got = parse_ids(out, "ids")
        if len(got) != 7 or "the context (%d tokens) is full" % c["ctx"] not in out:
            failures.append(f"{be}: a {len(long_ids)}-token prompt gave {len(got)} tokens (want 7, context full)")
        agree, ties = versus_torch(be, long_ids, got)
        print(f"  {len(long_ids)}-token prompt to a full context: {got}, PyTorch's argmax at {agree} of {len(got)}"
              + (f"; near ties {ties}" if ties else ""))

    return llm_setup.report(failures)


if __name__ == "__main__":
    sys.exit(main())
