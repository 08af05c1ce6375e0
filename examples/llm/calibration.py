"""Quantization inputs for check_llm.py --quant: the converter's --input_list of each graph, the 8-bit KV
cache's encodings (qnn.llm.kv_cache_overrides, as qnn.llm.build makes them) and, for w4a16, the LPBQ
overrides of the linear layers' weights.

Calibration feeds are the runner's own (llm_io.step_feeds) on training text: prefill calls at position 0
(a full window and a short padded prompt) and decode calls at positions spread over the context, their
K/V cache computed by PyTorch (the exported Step module over the preceding tokens), so every activation
range comes from the inputs the graphs see at run time."""
import json
import os

import numpy as np

import llm_io
from qnn.llm import KV_CACHE_BW, QUANT_FLAGS, kv_cache_overrides, lpbq_overrides



def _step(model, feeds):
    import torch
    import train_llm as T
    ins, outs = T.io_names(model.c)
    with torch.no_grad():
        res = T.Step(model)(*[torch.from_numpy(feeds[k]) for k in ins])
    return {k: v.numpy() for k, v in zip(outs, res)}


def calibration_sets(model, tok, text, chunks):
    c = model.c
    ctx, ar = c["ctx"], c["ar"]
    ids = tok.encode(text)
    shape = (2 * c["layers"], 1, c["kv_heads"], ctx, c["dim"] // c["heads"])
    sets = {"prefill": [], "decode": []}
    for k in range(chunks):
        off = (len(ids) - ctx - 1) * k // max(chunks, 1)
        toks = ids[off:off + ctx]
        empty = np.zeros(shape, np.float32)
        sets["prefill"].append(llm_io.step_feeds(c, empty, ar, toks[:ar], 0))
        if k == 0:
            sets["prefill"].append(llm_io.step_feeds(c, empty, ar, toks[:max(1, ar // 4)], 0))
        for p in np.linspace(ar // 2, ctx - 1, 6).astype(int):
            cache = np.zeros(shape, np.float32)
            n = int(p)   # the K/V of tokens 0..p-1 from one PyTorch call over them
            llm_io.store_kv(c, cache, _step(model, llm_io.step_feeds(c, cache, n, toks[:n], 0)), 0, n)
            sets["decode"].append(llm_io.step_feeds(c, cache, 1, [toks[n]], n))
    return sets


def write_list(sets, d):
    os.makedirs(d, exist_ok=True)
    lines = []
    for k, feeds in enumerate(sets):
        parts = []
        for name, v in feeds.items():
            f = os.path.join(d, f"{k}_{name}.raw")
            v.astype(np.float32).tofile(f)   # the converter reads float32 files (ids are small integers)
            parts.append(f"{name}:={f}")
        lines.append(" ".join(parts))
    path = os.path.join(d, "input_list.txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def prepare(model, tok, text, out_dir, quant, chunks):
    """Write the calibration lists and overrides under out_dir; -> {graph: converter flags}."""
    sets = calibration_sets(model, tok, text, chunks)
    lists = {g: write_list(feeds, os.path.join(out_dir, "calib_" + g)) for g, feeds in sets.items()}
    kv = kv_cache_overrides(lists.values(), KV_CACHE_BW[quant])
    flags = {}
    for g, lst in lists.items():
        flags[g] = ["--input_list", lst, *QUANT_FLAGS[quant]]
        params = []
        if quant == "w4a16":
            lpbq = os.path.join(out_dir, g + "_lpbq.json")
            onnx_path = os.path.join(os.path.dirname(os.path.abspath(out_dir)), g + ".onnx")
            if lpbq_overrides(onnx_path, lpbq) == 0:
                raise SystemExit(f"FAIL: no MatMul weights in {onnx_path} for LPBQ")
            with open(lpbq) as f:
                params = json.load(f)["param_encodings"]
        ov = os.path.join(out_dir, g + "_overrides.json")
        with open(ov, "w") as f:
            json.dump({"version": "1.0.0", "activation_encodings": kv, "param_encodings": params}, f)
        flags[g] += ["--quantization_overrides", ov]
    return flags
