"""Reads an OpenQNN DLC (docs/dlc-format.md) back into the converter's graph (ir.Graph), for
qairt-quantizer. Every check of the C++ reader (sdk/dlc/dlc_file.cpp) is made here too, each failure
one ConverterError naming the file and what is wrong. Static tensors are read through a memory map
(numpy views of the file, copied only when the quantizer replaces them)."""
import json
import mmap
import os
import zlib

import numpy as np

from .writer import ALIGN, MAGIC, PREAMBLE, VERSION
from qnn.errors import ConverterError
from qnn.ir import QNN_DTYPES, Graph, Op, Param, Tensor

MAX_HEADER = 256 << 20
_KINDS = {"QNN_TENSOR_TYPE_APP_WRITE": "in", "QNN_TENSOR_TYPE_APP_READ": "out",
          "QNN_TENSOR_TYPE_NATIVE": "native", "QNN_TENSOR_TYPE_STATIC": "static"}
_DTYPES = {v: k for k, v in QNN_DTYPES.items()}


class Dlc:
    """A read DLC: its graphs (ir.Graph, with source_names and model_version set), the header's
    metadata, and the mapping the static tensors view (kept open as long as this object lives)."""

    def __init__(self, graphs, metadata, mapping):
        self.graphs, self.metadata, self._mapping = graphs, metadata, mapping


def _fail(path, what):
    raise ConverterError(f"{path}: not a valid DLC: {what}")


def _preamble(path, buf):
    if len(buf) < PREAMBLE.size:
        _fail(path, f"{len(buf)} bytes, shorter than the {PREAMBLE.size}-byte preamble")
    magic, version, flags, h_off, h_size, h_raw, h_crc, pre_crc, size, _ = PREAMBLE.unpack_from(buf, 0)
    if magic != MAGIC:
        _fail(path, "wrong magic (an OpenQNN DLC starts with 'OQNNDLC'; vendor DLCs are not read)")
    if version != VERSION:
        _fail(path, f"format version {version}; this reader knows version {VERSION}")
    if zlib.crc32(bytes(buf[:44]) + bytes(buf[48:64])) & 0xFFFFFFFF != pre_crc:
        _fail(path, "preamble checksum mismatch")
    if flags != 0:
        _fail(path, f"unknown flags {flags:#x}")
    if size != len(buf):
        _fail(path, f"the preamble records {size} bytes, the file has {len(buf)} (truncated or appended to)")
    if h_off < PREAMBLE.size or h_off + h_size > len(buf) or h_raw > MAX_HEADER:
        _fail(path, "header offset/size outside the file")
    packed = bytes(buf[h_off:h_off + h_size])
    if zlib.crc32(packed) & 0xFFFFFFFF != h_crc:
        _fail(path, "header checksum mismatch")
    try:
        raw = zlib.decompress(packed)
    except zlib.error as e:
        _fail(path, f"header does not decompress ({e})")
    if len(raw) != h_raw:
        _fail(path, "header size differs from the preamble's")
    try:
        return json.loads(raw), h_off
    except ValueError as e:
        _fail(path, f"header is not JSON ({e})")


def _param(name, p):
    dt = _DTYPES.get(p.get("data_type"))
    if dt is None:
        raise ValueError(f"param '{name}': unknown data_type {p.get('data_type')!r}")
    if p["kind"] == "tensor":
        return Param(name, "tensor", dt, np.asarray(p["value"], dtype=dt).reshape([int(d) for d in p["dims"]]))
    if p["kind"] != "scalar":
        raise ValueError(f"param '{name}': unknown kind {p['kind']!r}")
    v = p["value"]
    return Param(name, "scalar", dt, bool(v) if dt == np.bool_ else (float(v) if dt == np.float32 else int(v)))


def _graph(path, g, buf, data_end):
    graph = Graph(g["name"])
    graph.source_names = {}
    for name, t in g["tensors"].items():
        kind = _KINDS.get(t.get("type"))
        if kind is None:
            raise ValueError(f"tensor '{name}': unknown type {t.get('type')!r}")
        if "quant_params" in t:
            raise ConverterError(f"{path}: tensor '{name}' is already quantized ({t['data_type']}); "
                                 "qairt-quantizer takes the float DLC qairt-converter writes")
        dt = _DTYPES.get(t.get("data_type"))
        if dt is None:
            raise ValueError(f"tensor '{name}': data_type {t.get('data_type')!r} is not one the converter writes")
        dims = [int(d) for d in t["dims"]]
        data = None
        if kind == "static":
            d = t["data"]
            off, size = int(d["offset"]), int(d["size"])
            if off < PREAMBLE.size or off % ALIGN or off + size > data_end:
                raise ValueError(f"tensor '{name}': data outside the data region")
            if size != int(np.prod(dims, dtype=np.int64)) * dt.itemsize:
                raise ValueError(f"tensor '{name}': {size} bytes for dims {dims}")
            view = memoryview(buf)[off:off + size]
            if zlib.crc32(view) & 0xFFFFFFFF != int(d["crc32"]):
                raise ValueError(f"tensor '{name}': data checksum mismatch")
            data = np.frombuffer(view, dtype=dt).reshape(dims)
        graph.tensors[name] = Tensor(name, dims, dt, kind, data)
        graph._used.add(name)
        if "axis_format" in t:
            graph.axis_format[name] = t["axis_format"]
        if "source_name" in t:
            graph.source_names[name] = t["source_name"]
    graph.inputs, graph.outputs = list(g["inputs"]), list(g["outputs"])
    graph.cached_overrides = g.get("quantization_overrides")  # checked where it is used (qnn/quantization/overrides.parse)
    for n in g["nodes"]:
        for ref in list(n["input_names"]) + list(n["output_names"]):
            if ref and ref not in graph.tensors:
                raise ValueError(f"node '{n['name']}' names an unknown tensor '{ref}'")
        graph.ops.append(Op(n["name"], n["type"], list(n["input_names"]), list(n["output_names"]),
                            [_param(k, v) for k, v in n.get("params", {}).items()]))
        graph.ops[-1].package = n.get("package", "qti.aisw")
        graph._used.add(n["name"])
    for ref in graph.inputs + graph.outputs:
        if ref not in graph.tensors:
            raise ValueError(f"graph input/output '{ref}' is not a tensor")
    return graph


def read_dlc(path):
    """-> Dlc. Raises ConverterError for an unreadable or damaged file."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
    except OSError as e:
        raise ConverterError(f"cannot read '{path}': {e.strerror}")
    header, data_end = _preamble(path, buf)
    try:
        if header.get("format") != "openqnn-dlc" or header.get("version") != VERSION:
            raise ValueError("the header is not an openqnn-dlc version 1 header")
        graphs = [_graph(path, g, buf, data_end) for g in header["graphs"]]
        if not graphs:
            raise ValueError("no graph")
        meta = header.get("metadata", {})
        for g in graphs:
            g.model_version = meta.get("model_version", "")
    except (KeyError, TypeError, ValueError) as e:
        detail = f"missing field {e}" if isinstance(e, KeyError) else str(e)
        _fail(path, detail)
    return Dlc(graphs, meta, buf)
