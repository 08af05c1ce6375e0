"""Shared helpers of the qnn-onnx-converter tests: build a tiny ONNX model, convert it, build the model
library, run it with qnn-net-run on the CPU backend and read the outputs back in ONNX layout.
Imported by the test scripts after they checked that python3-onnx/numpy exist (exit 77 otherwise)."""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

SKIP = 77
TO_NHWC = (0, 2, 3, 1)


class Tools:
    def __init__(self, build_dir):
        self.b = build_dir
        self.conv = os.path.join(build_dir, "bin", "qnn-onnx-converter")
        self.libgen = os.path.join(build_dir, "bin", "qnn-model-lib-generator")
        self.netrun = os.path.join(build_dir, "bin", "qnn-net-run")
        self.cpu = os.path.join(build_dir, "backends", "cpu", "libQnnCpu.so")


def run(cmd, ok=True):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if ok and p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p


def save(nodes, inputs, outputs, inits, path, opset=13):
    g = helper.make_graph(nodes, "g", inputs, outputs, [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.save(m, path)


def convert_and_run(tools, model, feeds, work, extra=()):
    """Convert `model`, build it, run it once on the CPU backend.
    feeds: [(onnx input name, array in ONNX layout)], written in the graph input's layout (NHWC for
    rank-4 inputs the converter made spatial-first). Returns {output name: array in ONNX layout}."""
    name = os.path.splitext(os.path.basename(model))[0]
    os.makedirs(work, exist_ok=True)
    run([tools.conv, "-i", model, "-o", f"{work}/{name}.cpp", *extra])
    run([tools.libgen, "-c", f"{work}/{name}.cpp", "-b", f"{work}/{name}.bin", "-o", f"{work}/lib"])
    graph = json.load(open(f"{work}/{name}_net.json"))["graph"]
    parts = []
    for n, arr in feeds:
        t = graph["tensors"][n]
        # float32 files whatever the input's dtype: qnn-net-run converts (vendor default)
        to_graph_layout(np.asarray(arr), t).astype(np.float32).tofile(f"{work}/{n}.raw")
        parts.append(f"{n}:={work}/{n}.raw")
    with open(f"{work}/list.txt", "w") as f:
        f.write(" ".join(parts) + "\n")
    run([tools.netrun, "--model", f"{work}/lib/x86_64-linux-clang/lib{name}.so", "--backend", tools.cpu,
         "--input_list", f"{work}/list.txt", "--output_dir", f"{work}/out"])
    d = f"{work}/out/Result_0"
    got = {}
    for o in graph["outputs"]:
        t = graph["tensors"][o]
        got[o] = from_graph_layout(np.fromfile(os.path.join(d, o + ".raw"), np.float32).reshape(t["dims"]), t)
    return got


def to_graph_layout(arr, tensor):
    """ONNX-layout array -> the graph input's layout (model_net.json axis_format NHWC: from NCHW)."""
    if tensor.get("axis_format") == "NHWC":
        arr = arr.transpose(TO_NHWC)
    if arr.ndim == 0 and list(tensor["dims"]) == [1]:
        arr = arr.reshape(1)   # a scalar input is one value in a rank-1 QNN tensor
    if list(arr.shape) != list(tensor["dims"]):
        sys.exit(f"FAIL: input of shape {list(arr.shape)} does not fit the graph input {tensor['dims']}")
    return np.ascontiguousarray(arr)


def from_graph_layout(arr, tensor):
    """Graph output -> ONNX layout (NHWC outputs back to NCHW)."""
    return arr.transpose(0, 3, 1, 2) if tensor.get("axis_format") == "NHWC" else arr


def rel_err(got, want):
    got, want = np.asarray(got, np.float64).reshape(-1), np.asarray(want, np.float64).reshape(-1)
    return np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)


def check(got, want, name, tol=1e-4):
    """max |got - want| / max |want| <= tol (fp32 accumulation of a few hundred terms stays near 1e-6)."""
    want = np.asarray(want, np.float32)
    if got.size != want.size:
        sys.exit(f"FAIL: {name}: {got.size} values, expected {want.size}")
    err = rel_err(got, want.reshape(got.shape) if got.shape != want.shape else want)
    print(f"{name}: max relative error {err:.2e}")
    if not err <= tol:
        sys.exit(f"FAIL: {name}: relative error {err} > {tol}")
