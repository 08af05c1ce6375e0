#!/usr/bin/env python3
"""Export train_llm.py's model in the I/O convention of the vendor's Genie runtime (its HTP engine):

    /usr/bin/python3 examples/llm/export_genie.py --model build/llm --out build/llm-genie

writes into OUT
  prefill.onnx (AR-N) and decode.onnx (AR-1), both over the same static context of ctx slots:
    inputs   input_ids          int32 [1, N]
             attention_mask     float [1, 1, N, ctx]      additive; columns = ctx-N past slots, then the N new tokens
             position_ids_cos   float [1, 1, N, head_dim/2]  cos / sin of the rotary angles at the tokens' positions
             position_ids_sin   float [1, 1, N, head_dim/2]  (the runner computes them: rope-theta, rope-dim = head_dim/2)
             past_key_L_in      float [1, kv_heads, head_dim, ctx-N]   keys stored transposed
             past_value_L_in    float [1, kv_heads, ctx-N, head_dim]
    outputs  logits             float [1, N, vocab]
             past_key_L_out     float [1, kv_heads, head_dim, N]
             past_value_L_out   float [1, kv_heads, N, head_dim]
  tokenizer.json   the BPE in Hugging Face `tokenizers` format (byte-level BPE model, Split + ByteLevel
                   pre-tokenizer, ByteLevel decoder): the same ids as train_llm.py's tokenizer
  genie_config.json  a Genie dialog config for the context binary OUT/llm.bin (`--ctx_bin`), greedy sampling
  meta.json        the model's config (train_llm.py's) plus "layout": "genie"
With --model a train_lora.py output directory (LoRA=1 of scripts/run-llm.sh), the graphs carry the adapter's
branches as train_lora.py exports them (constants named as in its lora_weights.txt, A its initialisation, B
zero: the base model exactly); lora_weights.txt and adapter.safetensors are copied into OUT, and
genie_config.json gets the `lora` section of engine.model.binary naming the sections `qnn.llm build
--lora_weights OUT/lora_weights.txt --adapter python=OUT/adapter.safetensors` writes beside the binary:
adapter "python" (llm_python.bin) and "base" (llm_default_adapter.bin, the base values); genie-t2t-run
--lora python applies it.

`python3 -m qnn.llm build --model OUT ...` makes the context binary of both graphs from it, and qnn.llm's
Generator runs it (it recognizes the layout by the tensor names). The math is train_llm.py's, term for term;
only the cache's key layout (transposed, as the attention's K^T) and the rotary inputs differ.
"""
import argparse
import json
import math
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))


# ---- Hugging Face tokenizer.json -----------------------------------------------------------------------------
def hf_tokenizer(merges, pattern):
    """The dict of a Hugging Face tokenizer.json equal to train_llm.py's byte-level BPE (merges: [(a, b)] in
    rank order, new ids 256, 257, ...; pattern: its pre-tokenizer regex)."""
    from qnn.llm import byte_level_chars
    chars = byte_level_chars()
    pieces = list(chars)
    for a, b in merges:
        pieces.append(pieces[a] + pieces[b])
    vocab = {}
    for i, p in enumerate(pieces):
        if p in vocab:  # two merges spelling the same bytes: a string -> id table cannot hold both
            raise ValueError(f"ids {vocab[p]} and {i} are the same bytes; the Hugging Face format needs distinct ones")
        vocab[p] = i
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
            dict(byte_level)]},
        "post_processor": None,
        "decoder": dict(byte_level),
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
                  "vocab": vocab, "merges": [f"{pieces[a]} {pieces[b]}" for a, b in merges]},
    }


# ---- Genie's dialog config -----------------------------------------------------------------------------------
def genie_config(c, ctx_bins, tokenizer, max_tokens=64, adapters=None):
    """Genie's dialog config (basic dialog, HTP engine, greedy) for context binaries of this layout. Paths are
    written as given (Genie takes relative ones from its working directory); Genie loads libQnnHtp.so and
    libQnnSystem.so from the library path. The model has no BOS/EOS: bos-token -1 (none), eos-token -1 (never
    sampled), pad-token 0 (the filler of unused input slots). adapters: {name: [binary section per ctx-bin]}, the
    LoRA adapters Genie applies with QnnContext_applyBinarySection (its lora-version 2; no alpha tensor: the
    branches' scale is in B)."""
    hd = c["dim"] // c["heads"]
    htp = {"version": 1, "spill-fill-bufsize": 0, "use-mmap": True, "mmap-budget": 0, "poll": False,
           "cpu-mask": "0x1", "kv-dim": hd, "allow-async-init": False, "enable-graph-switching": False}
    backend = {"version": 1, "type": "QnnHtp", "QnnHtp": htp}
    binary = {"version": 1, "ctx-bins": list(ctx_bins)}
    if adapters:
        binary["lora"] = {"version": 1, "lora-version": 2,
                          "adapters": [{"version": 1, "name": name, "bin-sections": list(sections)}
                                       for name, sections in adapters.items()]}
    engine = {"version": 1, "n-threads": 1, "backend": backend,
              "model": {"version": 1, "type": "binary", "binary": binary,
                        "positional-encoding": {"type": "rope", "rope-dim": hd // 2, "rope-theta": c["rope_theta"],
                                                "rope-scaling": {"rope-type": "default"}}}}
    return {"dialog": {"version": 1, "type": "basic", "max-num-tokens": max_tokens,
                       "context": {"version": 1, "size": c["ctx"], "n-vocab": c["vocab"], "bos-token": -1,
                                   "eos-token": -1, "pad-token": 0},
                       "sampler": {"version": 1, "seed": 42, "temp": 0.0, "top-k": 1, "top-p": 1.0},
                       "tokenizer": {"version": 1, "path": tokenizer},
                       "engine": engine}}


# ---- the graphs -----------------------------------------------------------------------------------------------
def genie_step(model, lora=None):
    import torch
    import train_llm

    class GenieStep(torch.nn.Module):
        """train_llm.Step with Genie's tensors: rotary cos/sin (first halves) as inputs, keys cached transposed."""

        def __init__(self, m, lora):
            super().__init__()
            self.m = m
            self.lora = lora  # {name: train_lora.LoRALinear}

        def forward(self, input_ids, attention_mask, position_ids_cos, position_ids_sin, *rest):
            m = self.m
            past, lora = rest[:2 * len(m.layers)], rest[2 * len(m.layers):]
            for j, mod in enumerate(self.lora.values()):  # LoRA branch tensors traced as inputs (see export)
                mod.ext = (lora[2 * j], lora[2 * j + 1])
            try:
                return self.layers(m, input_ids, attention_mask, position_ids_cos, position_ids_sin, past)
            finally:
                for mod in self.lora.values():
                    mod.ext = None

        @staticmethod
        def layers(m, input_ids, attention_mask, position_ids_cos, position_ids_sin, past):
            cos = torch.cat((position_ids_cos, position_ids_cos), dim=-1)  # [1, 1, N, head_dim]
            sin = torch.cat((position_ids_sin, position_ids_sin), dim=-1)
            x = m.emb(input_ids)
            new = []
            for i, layer in enumerate(m.layers):
                a = layer.attn
                b, n = int(x.shape[0]), int(x.shape[1])
                h = layer.n1(x)
                q = a.q(h).view(b, n, a.h, a.hd).transpose(1, 2)
                k = a.k(h).view(b, n, a.kvh, a.hd).transpose(1, 2)
                v = a.v(h).view(b, n, a.kvh, a.hd).transpose(1, 2)
                q = q * cos + train_llm.rotate_half(q) * sin
                k = k * cos + train_llm.rotate_half(k) * sin
                kt = k.transpose(2, 3)                                       # [1, kvh, hd, N]
                kt_all = torch.cat((past[2 * i], kt), dim=3)                 # [1, kvh, hd, ctx]
                v_all = torch.cat((past[2 * i + 1], v), dim=2)               # [1, kvh, ctx, hd]
                t = int(kt_all.shape[3])
                rep = a.h // a.kvh
                kk = kt_all[:, :, None].expand(b, a.kvh, rep, a.hd, t).reshape(b, a.h, a.hd, t)
                vv = a.repeat_kv(v_all)
                att = torch.matmul(q, kk) * (1.0 / math.sqrt(a.hd)) + attention_mask
                y = torch.matmul(torch.softmax(att, dim=-1), vv)
                x = x + a.o(y.transpose(1, 2).reshape(b, n, a.h * a.hd))
                h2 = layer.n2(x)
                x = x + layer.down(torch.nn.functional.silu(layer.gate(h2)) * layer.up(h2))
                new += [kt, v]
            return (m.head(m.norm(x)), *new)

    return GenieStep(model, lora or {}).eval()


def io_names(c):
    ins = ["input_ids", "attention_mask", "position_ids_cos", "position_ids_sin"]
    outs = ["logits"]
    for i in range(c["layers"]):
        ins += [f"past_key_{i}_in", f"past_value_{i}_in"]
        outs += [f"past_key_{i}_out", f"past_value_{i}_out"]
    return ins, outs


def export(model, n, path, lora=None):
    """The graph of AR-n; lora: {name: train_lora.LoRALinear} whose A and B become initializers named
    name_A / name_B (train_lora.py's names, its lora_weights.txt) holding their current values."""
    import torch
    c = model.c
    hd = c["dim"] // c["heads"]
    past = []
    for _ in range(c["layers"]):
        past += [torch.zeros(1, c["kv_heads"], hd, c["ctx"] - n), torch.zeros(1, c["kv_heads"], c["ctx"] - n, hd)]
    args = (torch.zeros(1, n, dtype=torch.int32), torch.zeros(1, 1, n, c["ctx"]), torch.ones(1, 1, n, hd // 2),
            torch.zeros(1, 1, n, hd // 2), *past)
    ins, outs = io_names(c)
    values = {}
    for name, mod in (lora or {}).items():
        values[name + "_A"], values[name + "_B"] = mod.A.detach().clone(), mod.B.detach().clone()
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        torch.onnx.export(genie_step(model, lora), (*args, *values.values()), path, opset_version=13,
                          input_names=ins + list(values), output_names=outs, do_constant_folding=True)
    if values:
        import train_lora
        train_lora.inputs_to_initializers(path, values)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="train_llm.py's output directory (model.pt, tokenizer.json), "
                    "or train_lora.py's (lora.pt: the base model with the adapter's branches)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--ctx_bin", default=None, help="the context binary genie_config.json names "
                    "(default OUT/llm.bin, what `python3 -m qnn.llm build --model OUT --out OUT` writes)")
    ap.add_argument("--max_tokens", type=int, default=64)
    a = ap.parse_args(argv)
    import llm_setup
    import torch
    torch.manual_seed(0)
    lora, adapters = None, None
    os.makedirs(a.out, exist_ok=True)
    out = os.path.abspath(a.out)
    ctx_bin = a.ctx_bin or os.path.join(out, "llm.bin")
    if os.path.exists(os.path.join(a.model, "lora.pt")):  # train_lora.py's output: the base's model with branches
        import shutil
        import train_lora
        with open(os.path.join(a.model, "meta.json")) as f:
            base = json.load(f)["base"]
        model, c, _, lora = train_lora.load(base, a.model, adapted=False, modules=True)
        for f in ("lora_weights.txt", "adapter.safetensors"):
            shutil.copyfile(os.path.join(a.model, f), os.path.join(out, f))
        # qnn.llm.build(adapters={"python": ...}) writes llm_python.bin, the base values llm_default_adapter.bin
        stem = os.path.join(os.path.dirname(os.path.abspath(ctx_bin)), "llm_")
        adapters = {"python": [stem + "python.bin"], "base": [stem + "default_adapter.bin"]}
    else:
        _, model, c = llm_setup.load(a.model)
    export(model, c["ar"], os.path.join(out, "prefill.onnx"), lora)
    export(model, 1, os.path.join(out, "decode.onnx"), lora)
    with open(os.path.join(a.model, "tokenizer.json")) as f:
        ours = json.load(f)
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(hf_tokenizer([tuple(m) for m in ours["merges"]], ours["pretokenizer"]), f, ensure_ascii=False)
    cfg = genie_config(c, [ctx_bin], os.path.join(out, "tokenizer.json"), a.max_tokens, adapters)
    with open(os.path.join(out, "genie_config.json"), "w") as f:
        json.dump(cfg, f, indent=1)
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump({"layout": "genie", "config": c}, f, indent=1)
    print(f"wrote {out}: prefill.onnx (AR-{c['ar']}), decode.onnx (AR-1), tokenizer.json (Hugging Face format), "
          "genie_config.json" + (", lora_weights.txt, adapter.safetensors (LoRA branches in the graphs)" if lora else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
