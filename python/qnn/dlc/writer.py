"""An OpenQNN DLC (docs/dlc-format.md): the converted graph in one file — a 64-byte preamble, the static
tensors' bytes (64-byte aligned, so a reader maps them in place), and a zlib-compressed JSON header at
the end that describes the graph and points at the bytes. Floats are written as the model.cpp route
writes them (float32 values, +-inf as +-FLT_MAX, NaN as 0), so both routes build the same graph."""
import hashlib
import json
import os
import struct
import zlib

import numpy as np

from qnn.converters.emit_cpp import _dtype_of
from qnn.quantization.encodings import static_bytes
from qnn.ir import QNN_DTYPES, TENSOR_TYPES

MAGIC = b"OQNNDLC\0"
VERSION = 1
PREAMBLE = struct.Struct("<8sIIQQQIIQQ")  # 64 bytes: see docs/dlc-format.md
ALIGN = 64
_FLT_MAX = 3.4028234663852886e38


def _f32(v):
    x = float(np.float32(v))
    if x != x:
        return 0.0
    if x in (float("inf"), float("-inf")):
        return _FLT_MAX if x > 0 else -_FLT_MAX
    return x


def _scalar(v, dtype):
    if dtype == np.float32:
        return _f32(v)
    if dtype == np.bool_:
        return bool(v)
    return int(v)


def _param(p):
    if p.kind == "tensor":
        arr = np.asarray(p.value)
        return {"kind": "tensor", "data_type": QNN_DTYPES[p.dtype], "dims": [int(d) for d in arr.shape],
                "value": [_scalar(v, p.dtype) for v in arr.reshape(-1)]}
    return {"kind": "scalar", "data_type": QNN_DTYPES[p.dtype], "value": _scalar(p.value, p.dtype)}


def _quant(enc):
    if enc is None or enc.is_float:
        return None
    q = {"bitwidth": int(enc.bitwidth), "scale": [_f32(s) for s in enc.scale], "offset": [int(o) for o in enc.offset]}
    if enc.per_axis:
        q["axis"] = int(enc.axis)
    if enc.blockwise:
        q["blockwise_expansion"] = {"num_blocks": int(enc.block_scales.shape[1]),
                                    "block_scale_bitwidth": int(enc.block_scale_bitwidth),
                                    "block_scales": [int(v) for v in enc.block_scales.reshape(-1)]}
    return q


def _source_hash(path):
    if not path or not os.path.isfile(path):
        return None
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_dlc(graph, path, converter, command, source_path, metadata=None, quantization_overrides=None):
    """Writes `graph` to `path` (through a temporary file renamed into place). metadata, when given,
    replaces the converter/source entries (qairt-quantizer keeps the converter's and adds its own).
    quantization_overrides: the AIMET document (QNN tensor names) the float DLC caches for the quantizer."""
    tmp = path + ".tmp"
    tensors = {}
    # The source model's name of each activation tensor (qairt-quantizer matches --input_list
    # 'name:=file' entries and encodings by it), where it differs from the QNN name.
    source = {}
    for onnx_name, by_layout in getattr(graph, "onnx_map", {}).items():
        for q in by_layout.values():
            source.setdefault(q, onnx_name)
    with open(tmp, "wb") as f:
        f.write(b"\0" * PREAMBLE.size)
        offset = PREAMBLE.size
        for t in graph.tensors.values():
            desc = {"type": TENSOR_TYPES[t.kind], "data_type": _dtype_of(t), "dims": [int(d) for d in t.shape]}
            q = _quant(getattr(t, "quant", None))
            if q is not None:
                desc["quant_params"] = q
            if t.kind != "static" and source.get(t.name, t.name) != t.name:
                desc["source_name"] = source[t.name]
            fmt = getattr(graph, "axis_format", {}).get(t.name)
            if fmt:
                desc["axis_format"] = fmt
            if t.kind == "static":
                data = static_bytes(t)  # 4-bit weights packed two per byte
                pad = (-offset) % ALIGN
                f.write(b"\0" * pad)
                offset += pad
                f.write(data)
                desc["data"] = {"offset": offset, "size": len(data), "crc32": zlib.crc32(data) & 0xFFFFFFFF}
                offset += len(data)
            tensors[t.name] = desc
        graph_doc = {
            "name": graph.name, "inputs": list(graph.inputs), "outputs": list(graph.outputs),
            "tensors": tensors,
            "nodes": [{"name": op.name, "package": op.package, "type": op.type, "input_names": list(op.inputs),
                       "output_names": list(op.outputs), "params": {p.name: _param(p) for p in op.params}}
                      for op in graph.ops],
        }
        if quantization_overrides:
            graph_doc["quantization_overrides"] = quantization_overrides
        packages = getattr(graph, "op_packages", {})
        if packages:   # the op packages the graph's custom nodes need registered with the backend
            graph_doc["op_packages"] = [{"name": p.name, "domain": p.domain, "version": p.version}
                                        for p in packages.values()]
        header = {
            "format": "openqnn-dlc", "version": VERSION,
            "metadata": metadata or {"converter": converter, "converter_command": command,
                                     "model_version": getattr(graph, "model_version", ""),
                                     "source_model": {"path": os.path.basename(source_path or ""),
                                                      "sha256": _source_hash(source_path)}},
            "graphs": [graph_doc],
        }
        raw = json.dumps(header, separators=(",", ":"), allow_nan=False).encode()
        packed = zlib.compress(raw, 6)
        pad = (-offset) % ALIGN
        f.write(b"\0" * pad)
        header_offset = offset + pad
        f.write(packed)
        size = header_offset + len(packed)
        pre = PREAMBLE.pack(MAGIC, VERSION, 0, header_offset, len(packed), len(raw),
                            zlib.crc32(packed) & 0xFFFFFFFF, 0, size, 0)
        pre = pre[:44] + struct.pack("<I", zlib.crc32(pre[:44] + pre[48:]) & 0xFFFFFFFF) + pre[48:]
        f.seek(0)
        f.write(pre)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return size
