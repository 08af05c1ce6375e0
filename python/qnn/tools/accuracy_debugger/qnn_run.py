"""Run an ONNX model through the SDK with every intermediate tensor kept: qnn-onnx-converter (source
layout preserved at the graph's inputs and outputs) -> qnn-model-lib-generator -> qnn-net-run --debug,
then the per-layer outputs mapped back to the ONNX tensors they hold (model_net.json's
source_tensors), in ONNX's axis order."""
import json
import os
import re
import shutil

import numpy as np

from . import sdk_tools
from .errors import DebuggerError
from .tensors import write_tensor_dir

NHWC_TO_NCHW = (0, 3, 1, 2)


def write_input_list(inputs, path):
    """One line, name:=file per input (qnn-net-run's named form)."""
    with open(path, "w") as f:
        f.write(" ".join(f"{i['name']}:={i['file']}" for i in inputs) + "\n")
    return path


def convert(model, out_dir, inputs, converter_args, log):
    """model.cpp, model.bin, model_net.json in out_dir; returns the model_net.json path."""
    cmd = [sdk_tools.tool("qnn-onnx-converter"), "-i", model, "-o", os.path.join(out_dir, "model.cpp"),
           "--preserve_io", "layout"]
    for i in inputs:
        cmd += ["-d", i["name"], ",".join(str(d) for d in i["dims"])]
    sdk_tools.run(cmd + list(converter_args), "qnn-onnx-converter", log)
    return os.path.join(out_dir, "model_net.json")


def build_library(out_dir, log, cpp=None, bin_path=None):
    cpp = cpp or os.path.join(out_dir, "model.cpp")
    bin_path = bin_path or os.path.join(out_dir, "model.bin")
    lib_dir = os.path.join(out_dir, "qnn_model_binaries")
    sdk_tools.run([sdk_tools.tool("qnn-model-lib-generator"), "-c", cpp, "-b", bin_path, "-o", lib_dir,
                   "-l", "model"], "qnn-model-lib-generator", log)
    lib = os.path.join(lib_dir, "x86_64-linux-clang", "libmodel.so")
    if not os.path.isfile(lib):
        raise DebuggerError(f"qnn-model-lib-generator wrote no {lib}")
    return lib


def net_run(lib, runtime, input_list, out_dir, log, extra=()):
    backend = sdk_tools.BACKENDS.get(runtime)
    if backend is None:
        raise DebuggerError(f"--runtime {runtime}: this SDK runs cpu and htp (dsp, dspv68 ... dspv79 are the HTP)")
    output = os.path.join(out_dir, "output")
    shutil.rmtree(output, ignore_errors=True)
    sdk_tools.run([sdk_tools.tool("qnn-net-run"), "--model", lib, "--backend", sdk_tools.library(backend),
                   "--input_list", input_list, "--output_dir", output, "--debug", "--quiet", *extra],
                  "qnn-net-run", log)
    return output


def graph_order(net):
    """Source tensor names in the order the graph's nodes produce them (graph inputs first)."""
    g = net["graph"]
    by_qnn = {}
    for src, layouts in g.get("source_tensors", {}).items():
        for q in layouts.values():
            by_qnn.setdefault(q, []).append(src)
    order, seen = [], set()

    def add(q):
        for s in by_qnn.get(q, []):
            if s not in seen:
                seen.add(s)
                order.append(s)
    for q in g.get("inputs", []):
        add(q)
    for node in g["nodes"].values():
        for q in node["output_names"]:
            add(q)
    return order


def producers(net):
    """QNN tensor -> (node name, op type)."""
    out = {}
    for name, node in net["graph"]["nodes"].items():
        for q in node["output_names"]:
            out[q] = (name, node["type"])
    return out


def map_results(net_json, result_dir, out_dir):
    """Result_N of a --debug run -> a tensor directory keyed by ONNX tensor names; also returns the
    mapping {source: {"qnn": name, "layout": plain|nhwc}} (written as tensor_mapping.json)."""
    try:
        with open(net_json) as f:
            net = json.load(f)
        g = net["graph"]
        sources, qtensors = g["source_tensors"], g["tensors"]
    except (OSError, ValueError, KeyError) as e:
        raise DebuggerError(f"{net_json}: not a converter's model_net.json with source_tensors ({e})")
    arrays, mapping = {}, {}
    for src in graph_order(net):
        layouts = sources[src]
        # The layout its producer wrote comes first (the converter registers it before any copy).
        for layout, q in layouts.items():
            if q not in qtensors:
                continue
            path = os.path.join(result_dir, re.sub(r"[^A-Za-z0-9_-]", "_", q) + ".raw")
            if not os.path.isfile(path):
                continue
            dims = qtensors[q]["dims"]
            a = np.fromfile(path, dtype=np.float32)
            if a.size != int(np.prod(dims)):
                raise DebuggerError(f"{path}: {a.size} values for tensor dims {dims}")
            a = a.reshape(dims)
            if layout == "nhwc":
                a = a.transpose(NHWC_TO_NCHW)
            arrays[src] = a
            mapping[src] = {"qnn": q, "layout": layout}
            break
    write_tensor_dir(out_dir, arrays)
    with open(os.path.join(out_dir, "tensor_mapping.json"), "w") as f:
        json.dump(mapping, f, indent=1)
    return mapping
