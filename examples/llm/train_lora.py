#!/usr/bin/python3
"""A LoRA adapter for train_llm.py's decoder, trained on a second text with the base frozen, exported as the
vendor's LoRA v2 flow wants it: base graphs that carry each adapted projection's low-rank branch
y = x W + (x A) B with A [in, r] and B [r, out] as their own constants (to become UPDATEABLE_STATIC tensors
through qnn-onnx-converter --lora_weight_list), and the adapter as replacement values for them (safetensors,
for qnn-context-binary-generator --adapter_weight_config). In the base graphs A holds its initialisation
(seeded) and B zeros, so they compute the base model exactly; applying the adapter's section turns them into
the adapted model.

    /usr/bin/python3 examples/llm/train_lora.py --base build/llm --out build/llm-lora       # minutes
    /usr/bin/python3 examples/llm/train_lora.py --base /tmp/t --out /tmp/t-lora      # a --tiny base: 30 steps

The second text is the Python language reference Debian's libpython3.X-stdlib ships (the pydoc_data.topics
module of the running /usr/bin/python3: 79 topics, ~470 kB of English and code), each topic's last 10 % held
out; the base model's text is the license texts of base-files. Writes to OUT: prefill.onnx, decode.onnx
(the base graphs with the LoRA branches), tokenizer.json (the base's), lora_weights.txt (the branch tensors'
names, one a line), adapter.safetensors (the trained values, F32, those names and the ONNX layouts),
lora.pt (init and adapter values for the PyTorch reference), meta.json (perplexities, time). The output
directory is a cache like train_llm.py's (--force retrains)."""
import argparse
import hashlib
import json
import math
import os
import shutil
import sys
import time
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))
import train_llm as T  # noqa: E402
from qnn import safetensors  # noqa: E402

TARGETS = {"q": ("attn", "q"), "k": ("attn", "k"), "v": ("attn", "v"), "o": ("attn", "o"),
           "gate": (None, "gate"), "up": (None, "up"), "down": (None, "down")}


def load_second_text(held_out=0.1, max_chars=None):
    """The Python language reference (pydoc_data.topics, Debian's libpython3.X-stdlib): topics sorted by
    name, each one's last `held_out` fraction held out; with max_chars, the first topics up to that size."""
    try:
        from pydoc_data.topics import topics
    except ImportError:
        sys.exit("error: no pydoc_data.topics (Debian's libpython3.X-stdlib installs it)")
    train, test, size = [], [], 0
    for name in sorted(topics):
        text = topics[name]
        if max_chars is not None and size >= max_chars:
            break
        size += len(text)
        cut = int(len(text) * (1 - held_out))
        train.append(text[:cut])
        test.append(text[cut:])
    return "\n".join(train), "\n".join(test)


class LoRALinear(nn.Module):
    """base(x) + (x A) B: A [in, r], B [r, out] (scale 1, i.e. alpha = r). `ext` = (A, B) replaces the
    parameters while tracing (the export passes them as graph inputs so they keep their own names)."""

    def __init__(self, base, rank, gen):
        super().__init__()
        self.base = base
        n_in, n_out = base.in_features, base.out_features
        bound = 1.0 / math.sqrt(n_in)  # the usual LoRA init: A uniform (kaiming-like), B zero
        self.A = nn.Parameter((torch.rand(n_in, rank, generator=gen) * 2 - 1) * bound)
        self.B = nn.Parameter(torch.zeros(rank, n_out))
        self.ext = None

    def forward(self, x):
        a, b = self.ext if self.ext is not None else (self.A, self.B)
        return self.base(x) + torch.matmul(torch.matmul(x, a), b)


def add_lora(model, targets, rank, seed=0):
    """Wraps each target projection of every layer; returns {tensor name: LoRALinear} (name without _A/_B)."""
    gen = torch.Generator().manual_seed(seed)
    for p in model.parameters():
        p.requires_grad_(False)
    mods = {}
    for i, layer in enumerate(model.layers):
        for t in targets:
            sub, attr = TARGETS[t]
            owner = getattr(layer, sub) if sub else layer
            m = LoRALinear(getattr(owner, attr), rank, gen)
            setattr(owner, attr, m)
            mods[f"layer{i}_{t}_lora"] = m
    return mods


def lora_state(mods):
    """{name_A / name_B: tensor} of the current values."""
    out = {}
    for name, m in mods.items():
        out[name + "_A"] = m.A.detach().clone()
        out[name + "_B"] = m.B.detach().clone()
    return out


def set_lora(mods, values):
    with torch.no_grad():
        for name, m in mods.items():
            m.A.copy_(values[name + "_A"])
            m.B.copy_(values[name + "_B"])


def load(base_dir, lora_dir, adapted=True, modules=False):
    """The base model of base_dir with lora_dir's branches: the adapter's values (adapted) or the base graphs'
    (init A, zero B). Returns (model in eval mode, config, lora.pt contents), and with modules=True also
    {tensor name without _A/_B: LoRALinear} (add_lora's)."""
    saved = torch.load(os.path.join(base_dir, "model.pt"))
    model = T.Llama(saved["config"])
    model.load_state_dict(saved["state"])
    lora = torch.load(os.path.join(lora_dir, "lora.pt"))
    mods = add_lora(model, lora["targets"], lora["rank"], lora["seed"])
    set_lora(mods, lora["adapter"] if adapted else lora["init"])
    return (model.eval(), saved["config"], lora) + ((mods,) if modules else ())


class LoraStep(nn.Module):
    """train_llm.Step with the LoRA tensors as trailing inputs (turned into initializers after export)."""

    def __init__(self, model, mods):
        super().__init__()
        self.step, self.mods = T.Step(model), mods

    def forward(self, input_ids, position_ids, attention_mask, *rest):
        n_past = 2 * self.step.m.c["layers"]
        past, lora = rest[:n_past], rest[n_past:]
        for j, m in enumerate(self.mods.values()):
            m.ext = (lora[2 * j], lora[2 * j + 1])
        try:
            return self.step(input_ids, position_ids, attention_mask, *past)
        finally:
            for m in self.mods.values():
                m.ext = None


def export(model, mods, n, path):
    """train_llm.export's graph with the LoRA branches; their tensors become initializers named as in
    lora_state() holding the current values."""
    c = model.c
    hd = c["dim"] // c["heads"]
    past = [torch.zeros(1, c["kv_heads"], c["ctx"] - n, hd) for _ in range(2 * c["layers"])]
    values = lora_state(mods)
    args = (torch.zeros(1, n, dtype=torch.long), torch.arange(n)[None], torch.zeros(1, 1, n, c["ctx"]), *past,
            *values.values())
    ins, outs = T.io_names(c)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        torch.onnx.export(LoraStep(model, mods).eval(), args, path, opset_version=13,
                          input_names=ins + list(values), output_names=outs, do_constant_folding=True)
    inputs_to_initializers(path, values)


def inputs_to_initializers(path, values):
    """Turns the ONNX file's graph inputs named in `values` ({name: tensor}) into initializers of those names
    holding the values (the export traced the LoRA tensors as inputs so that they keep their names)."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    keep = [i for i in m.graph.input if i.name not in values]
    del m.graph.input[:]
    m.graph.input.extend(keep)
    for name, v in values.items():
        m.graph.initializer.append(numpy_helper.from_array(v.numpy(), name))
    onnx.checker.check_model(m)
    onnx.save(m, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="train_llm.py's output directory")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rank", type=int, default=8)
    ap.add_argument("--targets", default="q,v", help=f"comma list of {','.join(TARGETS)} (default q,v)")
    ap.add_argument("--steps", type=int, default=None, help="training steps (default 300; tiny: 30)")
    ap.add_argument("--seconds", type=float, default=None, help="time cap (the schedule follows the nearer limit)")
    ap.add_argument("--lr", type=float, default=None, help="AdamW learning rate (default 2e-3; tiny: 1e-2)")
    ap.add_argument("--max_chars", type=int, default=None, help="use the first topics up to this many characters "
                    "(default: all; tiny: 60000)")
    ap.add_argument("--eval_tokens", type=int, default=None, help="held-out tokens the perplexities are measured "
                    "over (default: all; tiny: 2048)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args()
    targets = [t for t in a.targets.split(",") if t]
    bad = [t for t in targets if t not in TARGETS]
    if bad or not targets:
        sys.exit(f"error: --targets {a.targets}: choose from {','.join(TARGETS)}")
    torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    base_meta = json.load(open(os.path.join(a.base, "meta.json")))
    c = base_meta["config"]
    tiny = c["layers"] <= 2
    steps = a.steps if a.steps is not None else (30 if tiny else 300)
    seconds = a.seconds if a.seconds is not None else float("inf")
    lr = a.lr if a.lr is not None else (1e-2 if tiny else 2e-3)
    max_chars = a.max_chars if a.max_chars is not None else (60000 if tiny else None)
    n_eval = a.eval_tokens if a.eval_tokens is not None else (2048 if tiny else None)
    src = hashlib.sha256(open(os.path.abspath(__file__), "rb").read()).hexdigest()[:16]
    key = dict(base=base_meta.get("key"), rank=a.rank, targets=targets, steps=steps, seconds=a.seconds, lr=lr,
               max_chars=max_chars, eval_tokens=n_eval, script=src)
    os.makedirs(a.out, exist_ok=True)
    meta_path = os.path.join(a.out, "meta.json")
    files = ("prefill.onnx", "decode.onnx", "adapter.safetensors", "lora.pt", "tokenizer.json", "lora_weights.txt")
    if not a.force and os.path.exists(meta_path) and all(os.path.exists(os.path.join(a.out, f)) for f in files):
        meta = json.load(open(meta_path))
        if meta.get("key") == key:
            print(f"cached: {a.out} (second text held-out perplexity: base {meta['base_perplexity']:.2f}, "
                  f"adapted {meta['adapted_perplexity']:.2f})")
            return

    tok = T.Tokenizer.load(os.path.join(a.base, "tokenizer.json"))
    saved = torch.load(os.path.join(a.base, "model.pt"))
    model = T.Llama(saved["config"])
    model.load_state_dict(saved["state"])
    mods = add_lora(model, targets, a.rank, seed=0)
    init = lora_state(mods)
    train_text, test_text = load_second_text(max_chars=max_chars)
    train_ids, test_ids = torch.tensor(tok.encode(train_text)), torch.tensor(tok.encode(test_text))[:n_eval]
    _, lic_test = T.load_corpus()
    lic_ids = torch.tensor(tok.encode(lic_test))[:n_eval]
    print(f"second text (pydoc_data.topics): {len(train_ids)}+{len(test_ids)} tokens; LoRA rank {a.rank} on "
          f"{','.join(targets)}: {sum(m.A.numel() + m.B.numel() for m in mods.values())} parameters", flush=True)
    model.eval()
    ppl_base = T.perplexity(model, test_ids, c["seq"])
    lic_base = T.perplexity(model, lic_ids, c["seq"])
    print(f"base: held-out perplexity {ppl_base:.2f} (second text), {lic_base:.2f} (licenses)", flush=True)

    params = [p for m in mods.values() for p in (m.A, m.B)]
    for p in params:
        p.requires_grad_(True)
    opt = torch.optim.AdamW(params, lr=lr, betas=(0.9, 0.95), weight_decay=0.0)
    seq, bs = c["seq"], c["batch"]
    model.train()
    t1, step = time.time(), 0
    while True:
        frac = max(step / steps, (time.time() - t1) / seconds)
        if frac >= 1:
            break
        cur = lr * min(1.0, (step + 1) / 20) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * frac)))
        for g in opt.param_groups:
            g["lr"] = cur
        starts = torch.randint(0, len(train_ids) - seq - 1, (bs,))
        batch = torch.stack([train_ids[s:s + seq + 1] for s in starts])
        loss = F.cross_entropy(model(batch[:, :-1]).reshape(-1, c["vocab"]), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        step += 1
        if step % 25 == 0:
            print(f"step {step} loss {loss.item():.3f} lr {cur:.2e} {time.time() - t1:.0f} s", flush=True)
    t_train = time.time() - t1
    model.eval()
    adapter = lora_state(mods)
    ppl = T.perplexity(model, test_ids, seq)
    lic = T.perplexity(model, lic_ids, seq)
    print(f"adapted: {step} steps in {t_train:.0f} s; held-out perplexity {ppl:.2f} (second text; base "
          f"{ppl_base:.2f}), {lic:.2f} (licenses; base {lic_base:.2f})", flush=True)

    # The base graphs: the branches hold the init A and zero B.
    set_lora(mods, init)
    for p in params:
        p.requires_grad_(False)
    export(model, mods, c["ar"], os.path.join(a.out, "prefill.onnx"))
    export(model, mods, 1, os.path.join(a.out, "decode.onnx"))
    safetensors.write(os.path.join(a.out, "adapter.safetensors"),
                      {name: t.detach().float().numpy() for name, t in adapter.items()})
    with open(os.path.join(a.out, "lora_weights.txt"), "w") as f:
        f.write("".join(name + "\n" for name in adapter))
    torch.save({"targets": targets, "rank": a.rank, "seed": 0, "init": init, "adapter": adapter},
               os.path.join(a.out, "lora.pt"))
    shutil.copyfile(os.path.join(a.base, "tokenizer.json"), os.path.join(a.out, "tokenizer.json"))
    json.dump(dict(key=key, base=os.path.abspath(a.base), config=c, rank=a.rank, targets=targets,
                   lora_parameters=sum(v.numel() for v in adapter.values()), steps=step,
                   train_seconds=round(t_train, 1), second_text="pydoc_data.topics", held_out_tokens=len(test_ids),
                   base_perplexity=ppl_base, adapted_perplexity=ppl, licenses_base_perplexity=lic_base,
                   licenses_adapted_perplexity=lic), open(meta_path, "w"), indent=1)
    print(f"wrote {a.out}: prefill.onnx, decode.onnx (LoRA branches, base values), adapter.safetensors "
          f"({len(adapter)} tensors), lora_weights.txt")


if __name__ == "__main__":
    main()
