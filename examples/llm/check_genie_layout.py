#!/usr/bin/python3
"""The Genie-layout export of examples/llm (export_genie.py) without Genie: trains (or reuses) the example
decoder, exports it in Genie's I/O convention, builds one context binary of both graphs per backend
(python -m qnn.llm build) and checks

- the Hugging Face tokenizer.json: every vocabulary entry spells, in the byte-level alphabet (rebuilt here
  from its definition), the bytes of train_llm.py's token of that id; the merges are train_llm.py's in order;
  qnn.llm.Tokenizer reading it gives train_llm.py's ids over the whole held-out text, and decodes them back;
- the binary's graphs carry Genie's tensor names, datatypes and shapes (keys transposed in the cache);
- genie_config.json names the binary and the tokenizer and gives the model's context, vocabulary, kv-dim and
  rotary dimension/theta;
- qnn.llm generating on the binary (it recognizes the layout; it computes the rotary cos/sin as Genie does) from
  a held-out prompt longer than the prefill graph: every token is PyTorch's argmax over the sequence so far
  (plain causal pass, no cache), a different one accepted only at a near tie (within the backend's tolerance);
  the C++ runner qnn-llm-run on the same binary and prompt generates the same ids;
- quantized (w8a16, calibrated on the float CPU binary's inputs): every tensor Genie fills or copies has one
  encoding in both graphs and a cache input its output's (Genie refuses the model otherwise), and the
  attention mask's encoding takes Genie's 16-bit "attend" value 65535 to 0; both runners give the same ids.

    /usr/bin/python3 examples/llm/check_genie_layout.py BUILD_DIR OUT_DIR [--tiny] [--seconds S] [--steps K]
                     [--backends cpu,htp]

Exit 77 (skipped) without python3-torch / python3-onnx or the corpus."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# fp32 / fp16 logits (as check_runner.py); quantized: the agreement with PyTorch is reported only
TOLERANCE = {"cpu": 1e-4, "htp": 2e-2, "htp-w8a16": None}
LIBRARY = {"cpu": "libQnnCpu.so", "htp": "libQnnHtp.so", "htp-w8a16": "libQnnHtp.so"}


def alphabet():
    """Byte -> character of the byte-level alphabet: the printable Latin-1 bytes ('!'..'~', '¡'..'¬', '®'..'ÿ')
    are themselves; the remaining bytes, in increasing order, are U+0100, U+0101, ..."""
    printable = set(range(ord("!"), ord("~") + 1)) | set(range(0xA1, 0xAC + 1)) | set(range(0xAE, 0xFF + 1))
    table, k = {}, 0
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(0x100 + k)
            k += 1
    return table


def main():
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    import llm_setup
    a, T, model, c = llm_setup.prepare_check("cpu,htp,htp-w8a16")
    import numpy as np
    import export_genie
    import qnn.llm
    tok = T.Tokenizer.load(os.path.join(a.out, "tokenizer.json"))
    _, held_out = T.load_corpus()
    gdir = os.path.join(a.out, "genie")
    export_genie.main(["--model", a.out, "--out", gdir])
    failures = []

    # The tokenizer file, against train_llm.py's tokenizer.
    hf_path = os.path.join(gdir, "tokenizer.json")
    with open(hf_path, encoding="utf-8") as f:
        hf = json.load(f)
    to_char = alphabet()
    vocab, merges = hf["model"]["vocab"], hf["model"]["merges"]
    spelled = {i: "".join(to_char[b] for b in tok.bytes[i]) for i in range(tok.vocab_size)}
    wrong = [i for i in range(tok.vocab_size) if vocab.get(spelled[i]) != i]
    if len(vocab) != tok.vocab_size or wrong:
        failures.append(f"tokenizer.json: {len(vocab)} entries for {tok.vocab_size} ids; wrong ids {wrong[:8]}")
    want_merges = [f"{spelled[x]} {spelled[y]}" for x, y in tok.merges]
    if merges != want_merges:
        failures.append("tokenizer.json: the merges are not train_llm.py's in order")
    ids = tok.encode(held_out)
    reader = qnn.llm.Tokenizer(hf_path)
    got_ids = reader.encode(held_out)
    if got_ids != ids:
        first = next((k for k, (x, y) in enumerate(zip(got_ids, ids)) if x != y), min(len(ids), len(got_ids)))
        failures.append(f"tokenizer.json: qnn.llm's ids differ from train_llm.py's from token {first}")
    if reader.decode(ids) != tok.decode(ids):
        failures.append("tokenizer.json: decoding differs from train_llm.py's")
    print(f"tokenizer.json (Hugging Face format): {len(vocab)} entries, {len(merges)} merges; {len(ids)} held-out "
          f"tokens {'equal' if got_ids == ids else 'DIFFERENT'}")

    # The config Genie reads.
    with open(os.path.join(gdir, "genie_config.json")) as f:
        cfg = json.load(f)["dialog"]
    hd = c["dim"] // c["heads"]
    eng = cfg["engine"]
    pe = eng["model"]["positional-encoding"]
    facts = {"context size": (cfg["context"]["size"], c["ctx"]), "n-vocab": (cfg["context"]["n-vocab"], c["vocab"]),
             "kv-dim": (eng["backend"]["QnnHtp"]["kv-dim"], hd), "rope-dim": (pe["rope-dim"], hd // 2),
             "rope-theta": (pe["rope-theta"], c["rope_theta"]),
             "ctx-bins": (eng["model"]["binary"]["ctx-bins"], [os.path.join(os.path.abspath(gdir), "llm.bin")]),
             "tokenizer": (cfg["tokenizer"]["path"], os.path.abspath(hf_path))}
    for what, (have, want) in facts.items():
        if have != want:
            failures.append(f"genie_config.json: {what} {have}, want {want}")

    prompt_ids = ids[:c["ar"] * 5 // 2]   # 2.5 prefill chunks
    kvh, past = c["kv_heads"], lambda n: c["ctx"] - n
    libs = os.path.join(a.build, "lib", "x86_64-linux-clang")
    for be in a.backends.split(","):
        lib = os.path.join(libs, LIBRARY[be])
        quant = {}
        if be == "htp-w8a16":
            float_ctx = os.path.join(gdir, "llm.bin")
            if not os.path.exists(float_ctx):
                qnn.llm.build(os.path.join(a.build, "bin"), gdir, os.path.join(libs, LIBRARY["cpu"]), gdir)
            cal = os.path.join(gdir + "-" + be, "calibration")
            qnn.llm.calibrate(os.path.join(libs, LIBRARY["cpu"]), float_ctx, hf_path, held_out, cal, prompts=3)
            quant = {"quantize": "w8a16", "calibration": cal}
        ctx = qnn.llm.build(os.path.join(a.build, "bin"), gdir, lib, gdir if be == "cpu" else gdir + "-" + be,
                            fp16=be == "htp",
                            extension=os.path.join(a.build, "backends", "htp_sim", "libQnnHtpNetRunExtensions.so"),
                            **quant)
        with qnn.llm.Generator(lib, ctx, hf_path, rope_theta=c["rope_theta"]) as gen:
            if quant:   # one encoding per tensor Genie fills (names without _in/_out) across both graphs
                enc = {}
                for graph in (gen.pre, gen.dec):
                    for t in graph.inputs + graph.outputs:
                        if t.name in ("input_ids", "logits"):
                            continue
                        stem = t.name[:-3] if t.name.endswith("_in") else t.name[:-4] if t.name.endswith("_out") else t.name
                        enc.setdefault(stem, set()).add((t.dtype_name, t.quant))
                split = {k: v for k, v in enc.items() if len(v) != 1}
                if split:
                    failures.append(f"{be}: tensors quantized differently across graphs or in/out: {split}")
                mask = next(iter(enc["attention_mask"]))[1]
                if mask is None or abs((65535 + mask[1]) * mask[0]) > 1e-6 or (0 + mask[1]) * mask[0] > -1000:
                    failures.append(f"{be}: the attention mask's encoding {mask} does not take 65535 to 0 and 0 to "
                                    "a large negative value")
            for graph in (gen.pre, gen.dec):   # Genie's names, datatypes and shapes
                if quant:
                    break
                n = c["ar"] if graph is gen.pre else 1
                want = {"input_ids": ("int32", [1, n]), "attention_mask": ("float32", [1, 1, n, c["ctx"]]),
                        "position_ids_cos": ("float32", [1, 1, n, hd // 2]),
                        "position_ids_sin": ("float32", [1, 1, n, hd // 2]), "logits": ("float32", [1, n, c["vocab"]])}
                for i in range(c["layers"]):
                    want[f"past_key_{i}_in"] = ("float32", [1, kvh, hd, past(n)])
                    want[f"past_value_{i}_in"] = ("float32", [1, kvh, past(n), hd])
                    want[f"past_key_{i}_out"] = ("float32", [1, kvh, hd, n])
                    want[f"past_value_{i}_out"] = ("float32", [1, kvh, n, hd])
                have = {t.name: (np.dtype(t.dtype).name, list(t.dims)) for t in graph.inputs + graph.outputs}
                if have != want:
                    failures.append(f"{be}: graph {graph.name}: tensors {have}, want {want}")
            if not gen.genie:
                failures.append(f"{be}: qnn.llm did not take the binary for Genie's layout")
            res = gen.generate(prompt_ids, max_tokens=a.steps)
        got = res.ids
        agree, ties, errors = llm_setup.versus_torch(model, prompt_ids, got, TOLERANCE[be])
        failures.extend(f"{be}: {e}" for e in errors)
        p = subprocess.run([os.path.join(a.build, "bin", "qnn-llm-run"), "--backend", lib, "--context", ctx,
                            "--tokenizer", os.path.join(a.out, "tokenizer.json"), "--prompt_ids",
                            ",".join(map(str, prompt_ids)), "--max_tokens", str(a.steps), "--ids",
                            "--rope_theta", str(c["rope_theta"])], capture_output=True, text=True, errors="replace")
        cpp = next((ln.split(":", 1)[1].split() for ln in p.stdout.splitlines() if ln.startswith("ids:")), None)
        if p.returncode or [int(x) for x in cpp or []] != got:
            failures.append(f"{be}: qnn-llm-run gave {cpp} (exit {p.returncode}), qnn.llm {got}\n{p.stderr[-2000:]}")
        verdict = (f"PyTorch's argmax at {agree} of {len(got)} steps (not checked: quantized)" if quant else
                   "PyTorch's argmax at every step" + (f" except near ties: {ties}" if ties else ""))
        same = cpp is not None and [int(x) for x in cpp] == got
        print(f"{be}: prompt {len(prompt_ids)} tokens, tokens {got} {tok.decode(got)!r}: {verdict}; qnn-llm-run "
              f"{'the same' if same else 'DIFFERENT'}; {res.summary()}")

    return llm_setup.report(failures)


if __name__ == "__main__":
    sys.exit(main())
