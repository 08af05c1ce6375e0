#!/usr/bin/python3
"""Runs an image through an image classifier's context binary and prints the top-5 classes.

usage: classify.py BACKEND.so MODEL_CONTEXT.bin IMAGE.raw
IMAGE.raw: float32 values in the graph input's layout and size (the files qnn-net-run takes), e.g.
made by scripts/run-mobilenet.sh. The qnn package: python/ in the source tree (PYTHONPATH) or installed.
"""
import sys

import numpy as np

import qnn

if len(sys.argv) != 4:
    sys.exit(__doc__)
backend_path, binary, image = sys.argv[1:]
with qnn.Backend(backend_path) as backend, backend.load_context(binary) as context:
    graph = next(iter(context.graphs.values()))
    x = graph.inputs[0]
    data = np.fromfile(image, dtype=np.float32)
    if data.size != int(np.prod(x.dims)):
        sys.exit(f"{image}: {data.size} floats, the graph's input '{x.name}' takes {list(x.dims)}")
    out = graph.run({x.name: data.reshape(x.dims)}, dequantize=True)
    logits = next(iter(out.values())).reshape(-1).astype(np.float64)
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    for rank, cls in enumerate(np.argsort(-probs)[:5], 1):
        print(f"{rank}. class {cls:4d}  p={probs[cls]:.4f}  logit={logits[cls]:.4f}")
