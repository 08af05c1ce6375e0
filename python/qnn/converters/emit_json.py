"""model_net.json: the graph of model.cpp as JSON (tensors with dims/dtype/type, nodes with params)."""
import json

import numpy as np

from qnn.ir import QNN_DTYPES, tensor_type
from qnn.quantization.encodings import packed_dtype



def _param(p):
    v = p.value.tolist() if isinstance(p.value, np.ndarray) else (bool(p.value) if p.dtype == np.bool_ else p.value)
    return {"kind": p.kind, "data_type": QNN_DTYPES[p.dtype], "value": v}


def _tensor(t):
    enc = getattr(t, "quant", None)
    if enc is None or enc.is_float:
        return {"type": tensor_type(t), "data_type": QNN_DTYPES[t.dtype], "dims": t.shape}
    q = {"bitwidth": enc.bitwidth, "scale": enc.scale.tolist(), "offset": enc.offset.tolist()}
    if enc.per_axis:
        q["axis"] = enc.axis
    kind = "AXIS_SCALE_OFFSET" if enc.per_axis else "SCALE_OFFSET"
    if enc.blockwise:
        kind = "BLOCKWISE_EXPANSION"
        q.update(num_blocks=int(enc.block_scales.shape[1]), block_scale_bitwidth=int(enc.block_scale_bitwidth),
                 block_scales=enc.block_scales.reshape(-1).tolist())
    return {"type": tensor_type(t), "data_type": packed_dtype(t) or enc.qnn_dtype(), "dims": t.shape,
            "quant_params": {"encoding": kind, **q}}


def write_json(graph, path, converter_args):
    doc = {
        "model.cpp": "", "model.bin": "", "converter_command": converter_args,
        "graph": {
            "name": graph.name,
            "inputs": graph.inputs, "outputs": graph.outputs,
            "tensors": {t.name: _tensor(t) for t in graph.tensors.values()},
            "nodes": {op.name: {"package": op.package, "type": op.type, "input_names": op.inputs,
                                "output_names": op.outputs, "params": {p.name: _param(p) for p in op.params}}
                      for op in graph.ops},
        },
    }
    # Which QNN tensor holds each ONNX activation, by layout ("plain": ONNX's own axis order,
    # "nhwc": an NCHW tensor transposed to NHWC): what qnn-accuracy-debugger maps golden outputs with.
    doc["graph"]["source_tensors"] = {
        onnx_name: dict(by_layout) for onnx_name, by_layout in getattr(graph, "onnx_map", {}).items()
        if any(graph.tensors[q].kind != "static" for q in by_layout.values() if q in graph.tensors)}
    for name, fmt in getattr(graph, "axis_format", {}).items():   # the layout the I/O raw files use
        doc["graph"]["tensors"][name]["axis_format"] = fmt
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
