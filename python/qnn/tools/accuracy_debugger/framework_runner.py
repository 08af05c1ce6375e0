"""Framework diagnosis: the golden value of every intermediate tensor of an ONNX model.

Engines: ONNX Runtime's CPU provider (onnxruntime-node, where node and the package are on this
machine: the model is copied with every intermediate tensor made a graph output, graph optimizations
off so no tensor disappears), else this SDK's CPU backend in float32 (qnn_run with no quantization)."""
import json
import os
import shutil
import subprocess

import numpy as np

from . import qnn_run
from .errors import DebuggerError
from .tensors import DTYPES, write_tensor_dir

_HERE = os.path.dirname(os.path.abspath(__file__))
_ONNX_TYPES = {1: "float32", 2: "uint8", 3: "int8", 5: "int16", 6: "int32", 7: "int64", 9: "bool", 11: "float64"}


def find_ort_modules():
    """node_modules holding onnxruntime-node, or None: $QNN_ORT_NODE_MODULES, the build tree's
    ortnode/ (scripts/install-deps.sh), then node's own resolution."""
    node = shutil.which("node")
    if not node:
        return None
    from . import sdk_tools
    candidates = [os.environ.get("QNN_ORT_NODE_MODULES", ""),
                  os.path.join(sdk_tools.sdk_root(), "ortnode", "node_modules")]
    for c in candidates:
        if c and os.path.isdir(os.path.join(c, "onnxruntime-node")):
            return c
    p = subprocess.run([node, "-e", "console.log(require.resolve('onnxruntime-node'))"], capture_output=True,
                       text=True)
    if p.returncode == 0 and "onnxruntime-node" in p.stdout:
        return p.stdout.split("onnxruntime-node")[0].rstrip("/")
    return None


def _model_with_all_outputs(model_path, inputs, out_path):
    import onnx
    from onnx import helper, shape_inference
    try:
        m = onnx.load(model_path)
    except Exception as e:  # onnx raises DecodeError and friends
        raise DebuggerError(f"cannot read {model_path} as an ONNX model: {e}")
    for i in inputs:   # the input's dims pinned, so shape inference types every tensor
        for vi in m.graph.input:
            if vi.name == i["name"]:
                dims = vi.type.tensor_type.shape.dim
                if len(dims) == len(i["dims"]):
                    for d, v in zip(dims, i["dims"]):
                        d.Clear()
                        d.dim_value = v
    try:
        inferred = shape_inference.infer_shapes(m)
    except Exception:
        inferred = m
    types = {vi.name: vi.type.tensor_type.elem_type for vi in
             list(inferred.graph.value_info) + list(inferred.graph.output) + list(inferred.graph.input)}
    have = {o.name for o in m.graph.output}
    order = [i["name"] for i in inputs]
    for node in m.graph.node:
        for name in node.output:
            if not name:
                continue
            order.append(name)
            if name not in have and types.get(name):
                m.graph.output.append(helper.make_tensor_value_info(name, types[name], None))
                have.add(name)
    onnx.save(m, out_path)
    return order


def run_onnxruntime(model, inputs, out_dir, modules, log):
    work = os.path.join(out_dir, "onnxruntime")
    os.makedirs(work, exist_ok=True)
    order = _model_with_all_outputs(model, inputs, os.path.join(work, "model_all_outputs.onnx"))
    with open(os.path.join(work, "inputs.json"), "w") as f:
        json.dump([{"name": i["name"], "file": i["file"], "dims": i["dims"],
                    "type": "float32" if i["dtype"] == "float" else i["dtype"]} for i in inputs], f)
    env = dict(os.environ, NODE_PATH=modules)
    p = subprocess.run(["node", os.path.join(_HERE, "ort_intermediates.js"), os.path.join(work, "model_all_outputs.onnx"),
                        os.path.join(work, "raw"), os.path.join(work, "inputs.json")], capture_output=True, text=True,
                       env=env)
    with open(log, "a") as f:
        f.write("onnxruntime-node: " + p.stdout + p.stderr)
    if p.returncode != 0:
        raise DebuggerError("ONNX Runtime failed on the model: " + (p.stderr.strip().splitlines() or ["?"])[-1])
    with open(os.path.join(work, "raw", "outputs.json")) as f:
        index = json.load(f)
    arrays = {i["name"]: np.fromfile(os.path.join(work, "raw", i["file"]), dtype=DTYPES.get(i["type"], np.float32))
              .reshape(i["dims"]) for i in index}
    for i in inputs:
        arrays.setdefault(i["name"], np.fromfile(i["file"], dtype=DTYPES[i["dtype"]]).reshape(i["dims"]))
    shutil.rmtree(os.path.join(work, "raw"), ignore_errors=True)
    write_tensor_dir(out_dir, arrays, [n for n in order if n in arrays])


def run_qnn_cpu(model, inputs, out_dir, log):
    work = os.path.join(out_dir, "qnn_cpu_float")
    os.makedirs(work, exist_ok=True)
    net = qnn_run.convert(model, work, inputs, [], log)
    lib = qnn_run.build_library(work, log)
    # qnn-net-run reads float32 files and converts them to each input's type (an int64 input is INT_32 in the
    # converted graph): a non-float input's native file gets a float32 copy.
    as_f32 = []
    for i in inputs:
        if i["dtype"] not in ("float32", "float"):
            f = os.path.join(work, os.path.basename(i["file"]) + ".f32")
            np.fromfile(i["file"], DTYPES[i["dtype"]]).astype(np.float32).tofile(f)
            i = dict(i, file=f, dtype="float32")
        as_f32.append(i)
    lst = qnn_run.write_input_list(as_f32, os.path.join(work, "input_list.txt"))
    output = qnn_run.net_run(lib, "cpu", lst, work, log)
    qnn_run.map_results(net, os.path.join(output, "Result_0"), out_dir)


def framework_diagnosis(model, inputs, out_dir, engine="auto"):
    """Writes the golden tensor directory to out_dir; returns the engine used."""
    if not inputs:
        raise DebuggerError("framework diagnosis needs the model's inputs (-i NAME DIMS FILE)")
    if not os.path.isfile(model):
        raise DebuggerError(f"--model_path {model} does not exist")
    log = os.path.join(out_dir, "log.txt")
    modules = find_ort_modules() if engine in ("auto", "onnxruntime") else None
    if engine == "onnxruntime" and not modules:
        raise DebuggerError("ONNX Runtime is not available here (node with onnxruntime-node; set "
                            "QNN_ORT_NODE_MODULES to its node_modules)")
    if modules:
        run_onnxruntime(model, inputs, out_dir, modules, log)
        used = "onnxruntime"
    else:
        run_qnn_cpu(model, inputs, out_dir, log)
        used = "qnn_cpu_float32"
    with open(os.path.join(out_dir, "framework_diagnosis_options.json"), "w") as f:
        json.dump({"model_path": os.path.abspath(model), "engine": used, "inputs": inputs}, f, indent=1)
    return used
