"""A tiny Llama-style decode step (RMSNorm, rotate_half rotary embedding, grouped-query attention over a static
KV cache, SwiGLU), seeded, exported with torch.onnx.export; torch's own outputs are saved beside it.

  /usr/bin/python3 llm_model.py OUT_DIR [repeat_interleave|expand]

writes OUT_DIR/llm.onnx, OUT_DIR/<input>.raw (one decode step's inputs) and OUT_DIR/ref_<output>.raw."""
import os
import sys

import numpy as np
import torch

VOCAB, DIM, HEADS, KV_HEADS, HEAD_DIM, FFN, CTX, LAYERS = 64, 32, 4, 2, 8, 48, 8, 2


class RMSNorm(torch.nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = torch.nn.Parameter(1.0 + 0.1 * torch.randn(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


class Block(torch.nn.Module):
    def __init__(self, repeat):
        super().__init__()
        self.repeat = repeat
        self.attn_norm = RMSNorm(DIM)
        self.q = torch.nn.Linear(DIM, HEADS * HEAD_DIM, bias=False)
        self.k = torch.nn.Linear(DIM, KV_HEADS * HEAD_DIM, bias=False)
        self.v = torch.nn.Linear(DIM, KV_HEADS * HEAD_DIM, bias=False)
        self.o = torch.nn.Linear(HEADS * HEAD_DIM, DIM, bias=False)
        self.ffn_norm = RMSNorm(DIM)
        self.gate = torch.nn.Linear(DIM, FFN, bias=False)
        self.up = torch.nn.Linear(DIM, FFN, bias=False)
        self.down = torch.nn.Linear(FFN, DIM, bias=False)

    def repeat_kv(self, x):
        n = HEADS // KV_HEADS
        if self.repeat == "repeat_interleave":
            return torch.repeat_interleave(x, n, dim=1)
        b, h, s, d = x.shape  # Hugging Face's form
        return x[:, :, None, :, :].expand(b, h, n, s, d).reshape(b, h * n, s, d)

    def forward(self, x, cos, sin, past_k, past_v, mask):
        b, s, _ = x.shape
        h = self.attn_norm(x)
        q = self.q(h).view(b, s, HEADS, HEAD_DIM).transpose(1, 2)
        k = self.k(h).view(b, s, KV_HEADS, HEAD_DIM).transpose(1, 2)
        v = self.v(h).view(b, s, KV_HEADS, HEAD_DIM).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        keys = torch.cat([past_k, k], dim=2)
        values = torch.cat([past_v, v], dim=2)
        kr, vr = self.repeat_kv(keys), self.repeat_kv(values)
        att = torch.matmul(q, kr.transpose(2, 3)) / (HEAD_DIM ** 0.5) + mask
        att = torch.softmax(att, dim=-1)
        y = torch.matmul(att, vr).transpose(1, 2).reshape(b, s, HEADS * HEAD_DIM)
        x = x + self.o(y)
        h = self.ffn_norm(x)
        x = x + self.down(torch.nn.functional.silu(self.gate(h)) * self.up(h))
        # The new cache: the last CTX positions (a static-shape shift, as device deployments do).
        return x, keys[:, :, 1:, :], values[:, :, 1:, :]


class Decoder(torch.nn.Module):
    def __init__(self, repeat):
        super().__init__()
        self.emb = torch.nn.Embedding(VOCAB, DIM)
        self.layers = torch.nn.ModuleList([Block(repeat) for _ in range(LAYERS)])
        self.norm = RMSNorm(DIM)
        self.head = torch.nn.Linear(DIM, VOCAB, bias=False)
        inv = 1.0 / (10000 ** (torch.arange(0, HEAD_DIM, 2).float() / HEAD_DIM))
        ang = torch.outer(torch.arange(64).float(), inv)
        ang = torch.cat([ang, ang], dim=-1)
        self.register_buffer("cos_table", ang.cos())
        self.register_buffer("sin_table", ang.sin())

    def forward(self, input_ids, position_ids, mask, *cache):
        x = self.emb(input_ids)
        cos, sin = self.cos_table[position_ids][:, None], self.sin_table[position_ids][:, None]
        new = []
        for i, layer in enumerate(self.layers):
            x, k, v = layer(x, cos, sin, cache[2 * i], cache[2 * i + 1], mask)
            new += [k, v]
        return (self.head(self.norm(x)), *new)


def inputs(seed=1, pos=CTX):
    g = torch.Generator().manual_seed(seed)
    feeds = {"input_ids": torch.randint(0, VOCAB, (1, 1), generator=g, dtype=torch.int64),
             "position_ids": torch.tensor([[pos]], dtype=torch.int64)}
    mask = torch.zeros(1, 1, 1, CTX + 1)
    mask[..., :2] = -1e4  # the two oldest cache slots are padding
    feeds["mask"] = mask
    for i in range(LAYERS):
        for kv in "kv":
            feeds[f"past_{kv}{i}"] = torch.randn(1, KV_HEADS, CTX, HEAD_DIM, generator=g)
    return feeds


def output_names():
    return ["logits"] + [f"present_{kv}{i}" for i in range(LAYERS) for kv in "kv"]


def export(out_dir, repeat="repeat_interleave", seed=0):
    torch.manual_seed(seed)
    model = Decoder(repeat).eval()
    feeds = inputs()
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "llm.onnx")
    with torch.no_grad():
        torch.onnx.export(model, tuple(feeds.values()), path, opset_version=13, input_names=list(feeds),
                          output_names=output_names(), do_constant_folding=True)
        ref = model(*feeds.values())
    for k, v in feeds.items():
        v.numpy().tofile(os.path.join(out_dir, f"{k}.raw"))
    for k, v in zip(output_names(), ref):
        v.numpy().tofile(os.path.join(out_dir, f"ref_{k}.raw"))
    return path, {k: v.numpy() for k, v in feeds.items()}, {k: v.numpy() for k, v in zip(output_names(), ref)}


if __name__ == "__main__":
    export(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "repeat_interleave")
