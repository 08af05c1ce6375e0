#!/usr/bin/env python3
"""Export train_llm.py's model with ONNX Runtime's fused attention, com.microsoft GroupQueryAttention (the op
ONNX Runtime GenAI's exported LLMs use), over one max-length KV cache:

    /usr/bin/python3 examples/llm/export_gqa.py --model build/llm --out build/llm-gqa

writes into OUT
  prefill.onnx (AR-N) and decode.onnx (AR-1), both over the same static context of ctx slots:
    inputs   input_ids              int64 [1, N]
             seqlens_k              int32 [1]     the sequence's length after these N tokens, minus 1
             total_sequence_length  int32 [1]     the same length (batch 1)
             past_key_L             float [1, kv_heads, ctx, head_dim]   the whole cache (keys after the rotary
             past_value_L           float [1, kv_heads, ctx, head_dim]    embedding); slots >= start unused
    outputs  logits                 float [1, N, vocab]
             present_key_L          float [1, kv_heads, ctx, head_dim]   the past's slots 0..start-1, the N new
             present_value_L        float [1, kv_heads, ctx, head_dim]   entries at start.., zeros after
  tokenizer.json, meta.json ("layout": "gqa" and the model's config)

Each decoder layer's attention is one GroupQueryAttention node (num_heads, kv_num_heads, do_rotary = 1 with the
model's cos/sin tables' first halves as cos_cache / sin_cache [ctx, head_dim/2]; query, key and value unpacked):
the op derives the positions (start + i) and the causal mask from seqlens_k, so the graphs take no
attention_mask and no position_ids. A prompt shorter than N pads the tail: the padded rows come after the real
ones, so no real token attends to them, and the runner keeps only the real rows of present. The rest of the
graph is train_llm.py's, term for term. qnn-onnx-converter maps the node onto QNN's GroupQueryAttention with
--target_op_set 2.13 (API 2.39); `python3 -m qnn.llm build --model OUT ...` does so by itself for this layout.
"""
import argparse
import json
import os
import shutil
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def gqa_reference(q, k, v, past_k, past_v, seqlens_k, total, cos, sin, n_heads, kv_heads):
    """com.microsoft.GroupQueryAttention's meaning for batch 1, unpacked q/k/v and do_rotary = 1 (rotate-half
    form, positions past + i): (output [1, S, n*hd], present_key, present_value [1, kv, L, hd])."""
    import torch
    s = q.shape[1]
    hd = q.shape[2] // n_heads
    t = int(seqlens_k[0]) + 1
    past = 0 if s == int(total[0]) else t - s
    pos = torch.arange(past, past + s)
    c, sn = torch.cat((cos[pos], cos[pos]), -1), torch.cat((sin[pos], sin[pos]), -1)   # [S, hd]

    def rotary(x, heads):
        x = x[0].view(s, heads, hd).transpose(0, 1)                                      # [heads, S, hd]
        return x * c + torch.cat((-x[..., hd // 2:], x[..., :hd // 2]), -1) * sn
    qr, kr = rotary(q, n_heads), rotary(k, kv_heads)
    vr = v[0].view(s, kv_heads, hd).transpose(0, 1)
    pk, pv = torch.zeros_like(past_k), torch.zeros_like(past_v)
    pk[0, :, :past], pv[0, :, :past] = past_k[0, :, :past], past_v[0, :, :past]
    pk[0, :, past:past + s], pv[0, :, past:past + s] = kr, vr
    rep = n_heads // kv_heads
    keys, vals = pk[0, :, :past + s].repeat_interleave(rep, 0), pv[0, :, :past + s].repeat_interleave(rep, 0)
    att = torch.matmul(qr, keys.transpose(1, 2)) / hd ** 0.5                              # [n, S, past+S]
    causal = torch.arange(past + s)[None] > (past + torch.arange(s))[:, None]
    att = att.masked_fill(causal, float("-inf"))
    y = torch.matmul(torch.softmax(att, -1), vals)                                       # [n, S, hd]
    return y.transpose(0, 1).reshape(1, s, n_heads * hd), pk, pv


def gqa_step(model):
    """train_llm.Step with each attention as one com.microsoft.GroupQueryAttention (the traced graph's node; in
    PyTorch gqa_reference computes it)."""
    import torch

    n_heads, kv_heads = model.layers[0].attn.h, model.layers[0].attn.kvh

    class GQA(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, past_k, past_v, seqlens_k, total, cos, sin):
            if torch.jit.is_tracing():  # the export records symbolic()'s node; only the shapes matter here
                return torch.zeros_like(q), torch.zeros_like(past_k), torch.zeros_like(past_v)
            return gqa_reference(q, k, v, past_k, past_v, seqlens_k, total, cos, sin, n_heads, kv_heads)

        @staticmethod
        def symbolic(g, q, k, v, past_k, past_v, seqlens_k, total, cos, sin):
            return g.op("com.microsoft::GroupQueryAttention", q, k, v, past_k, past_v, seqlens_k, total, cos, sin,
                        num_heads_i=n_heads, kv_num_heads_i=kv_heads, do_rotary_i=1, outputs=3)

    class GQAStep(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m
            half = m.cos_table.shape[1] // 2
            self.register_buffer("cos_cache", m.cos_table[:, :half].clone(), persistent=False)
            self.register_buffer("sin_cache", m.sin_table[:, :half].clone(), persistent=False)

        def forward(self, input_ids, seqlens_k, total_sequence_length, *past):
            m = self.m
            x = m.emb(input_ids)
            present = []
            for i, layer in enumerate(m.layers):
                a = layer.attn
                h = layer.n1(x)
                y, pk, pv = GQA.apply(a.q(h), a.k(h), a.v(h), past[2 * i], past[2 * i + 1], seqlens_k,
                                      total_sequence_length, self.cos_cache, self.sin_cache)
                x = x + a.o(y)
                h2 = layer.n2(x)
                x = x + layer.down(torch.nn.functional.silu(layer.gate(h2)) * layer.up(h2))
                present += [pk, pv]
            return (m.head(m.norm(x)), *present)

    return GQAStep(model).eval()


def io_names(c):
    ins = ["input_ids", "seqlens_k", "total_sequence_length"]
    outs = ["logits"]
    for i in range(c["layers"]):
        ins += [f"past_key_{i}", f"past_value_{i}"]
        outs += [f"present_key_{i}", f"present_value_{i}"]
    return ins, outs


def export(model, n, path):
    import onnx
    import torch
    c = model.c
    hd = c["dim"] // c["heads"]
    past = [torch.zeros(1, c["kv_heads"], c["ctx"], hd) for _ in range(2 * c["layers"])]
    args = (torch.zeros(1, n, dtype=torch.long), torch.tensor([n - 1], dtype=torch.int32),
            torch.tensor([n], dtype=torch.int32), *past)
    ins, outs = io_names(c)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the int() sizes are meant to be constants; the custom op's own warning
        torch.onnx.export(gqa_step(model), args, path, opset_version=13, input_names=ins, output_names=outs,
                          do_constant_folding=True, custom_opsets={"com.microsoft": 1})
    # The custom node's outputs carry no types in torch's export: declare the graph outputs' (the converter and
    # ONNX Runtime read them).
    m = onnx.load(path)
    shapes = {"logits": [1, n, c["vocab"]]}
    shapes.update({o: [1, c["kv_heads"], c["ctx"], hd] for o in outs[1:]})
    del m.graph.output[:]
    m.graph.output.extend(onnx.helper.make_tensor_value_info(o, onnx.TensorProto.FLOAT, shapes[o]) for o in outs)
    onnx.save(m, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="train_llm.py's output directory (model.pt, tokenizer.json)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    import llm_setup
    import torch
    torch.manual_seed(0)
    _, model, c = llm_setup.load(a.model)
    os.makedirs(a.out, exist_ok=True)
    export(model, c["ar"], os.path.join(a.out, "prefill.onnx"))
    export(model, 1, os.path.join(a.out, "decode.onnx"))
    shutil.copyfile(os.path.join(a.model, "tokenizer.json"), os.path.join(a.out, "tokenizer.json"))
    with open(os.path.join(a.out, "meta.json"), "w") as f:
        json.dump({"layout": "gqa", "config": c}, f, indent=1)
    print(f"wrote {a.out}: prefill.onnx (AR-{c['ar']}), decode.onnx (AR-1) with com.microsoft.GroupQueryAttention, "
          f"cache of {c['ctx']} slots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
