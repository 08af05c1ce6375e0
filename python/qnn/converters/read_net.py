"""A converted model read back: model_net.json (+ model.bin) -> the converter's graph IR, for the tools that
inspect or rewrite converted models (qnn-architecture-checker, qnn-quantization-checker)."""
import json
import tarfile

import numpy as np

from qnn.errors import ConverterError
from qnn.ir import QNN_DTYPES, Graph, Op, Param, Tensor
from qnn.quantization.encodings import Encoding, unpack4

_KINDS = {"QNN_TENSOR_TYPE_APP_WRITE": "in", "QNN_TENSOR_TYPE_APP_READ": "out",
          "QNN_TENSOR_TYPE_NATIVE": "native", "QNN_TENSOR_TYPE_STATIC": "static"}
_DTYPES = {v: k for k, v in QNN_DTYPES.items()}


class NetModel:
    def __init__(self, graph, command, path):
        self.graph, self.converter_command, self.path = graph, command, path
        self.producer = {}    # tensor -> op
        self.consumers = {}   # tensor -> [op]
        for op in graph.ops:
            for o in op.outputs:
                self.producer[o] = op
            for i in op.inputs:
                if i:
                    self.consumers.setdefault(i, []).append(op)

    @property
    def quantized(self):
        return any(getattr(t, "quant", None) is not None for t in self.graph.tensors.values())


def _encoding(name, data_type, q):
    signed = data_type.startswith("QNN_DATATYPE_SFIXED")
    try:
        axis = q.get("axis") if q.get("encoding", "").startswith("AXIS") else None
        return Encoding(int(q.get("bitwidth", 8)), q["scale"], q["offset"], signed, axis)
    except (KeyError, TypeError, ValueError) as e:
        raise ConverterError(f"tensor '{name}': bad quant_params ({e})")


def _param(name, p):
    dt = _DTYPES.get(p.get("data_type"))
    if dt is None:
        raise ConverterError(f"param '{name}': unknown data_type {p.get('data_type')!r}")
    if p.get("kind") == "tensor":
        return Param(name, "tensor", dt, np.asarray(p["value"], dtype=dt))
    v = p["value"]
    return Param(name, "scalar", dt, bool(v) if dt == np.bool_ else (float(v) if dt == np.float32 else int(v)))


def read_net(json_path, bin_path=None):
    """Raises ConverterError with the file named on anything malformed."""
    try:
        with open(json_path) as f:
            doc = json.load(f)
        g = doc["graph"]
        tensors, nodes = g["tensors"], g["nodes"]
    except OSError as e:
        raise ConverterError(f"{json_path}: {e.strerror}")
    except (ValueError, KeyError, TypeError) as e:
        raise ConverterError(f"{json_path} is not a converter's model_net.json ({e})")
    blobs = {}
    if bin_path:
        try:
            with tarfile.open(bin_path) as tar:
                for m in tar.getmembers():
                    if m.isfile() and m.name.endswith(".raw"):
                        blobs[m.name[:-4]] = tar.extractfile(m).read()
        except (OSError, tarfile.TarError) as e:
            raise ConverterError(f"{bin_path} is not a model.bin tar ({e})")
    graph = Graph(g.get("name", "model"))
    try:
        for name, t in tensors.items():
            kind = _KINDS.get(t.get("type"))
            if kind is None:
                raise ConverterError(f"tensor '{name}': unknown type {t.get('type')!r}")
            dims = [int(d) for d in t["dims"]]
            q = t.get("quant_params")
            enc = _encoding(name, t["data_type"], q) if q else None
            dt = np.dtype(np.float32) if enc else _DTYPES.get(t["data_type"])
            if dt is None:
                raise ConverterError(f"tensor '{name}': data_type {t['data_type']!r} is not one the converter writes")
            data = None
            if kind == "static" and name in blobs:
                store = enc.np_dtype() if enc else dt
                raw, count = blobs[name], int(np.prod(dims))
                packed = enc is not None and t["data_type"].endswith("FIXED_POINT_4")  # two per byte
                if len(raw) != ((count + 1) // 2 if packed else count * store.itemsize):
                    raise ConverterError(f"model.bin: {name}.raw has {len(raw)} bytes for dims {dims}")
                data = (unpack4(raw, count, enc.signed) if packed else np.frombuffer(raw, dtype=store)).reshape(dims).copy()
            tensor = Tensor(name, dims, dt, kind, data)
            if enc:
                tensor.quant = enc
            graph.tensors[name] = tensor
            graph._used.add(name)
            if "axis_format" in t:
                graph.axis_format[name] = t["axis_format"]
        graph.inputs, graph.outputs = list(g["inputs"]), list(g["outputs"])
        for name, n in nodes.items():
            for ref in list(n["input_names"]) + list(n["output_names"]):
                if ref and ref not in graph.tensors:
                    raise ConverterError(f"node '{name}' names an unknown tensor '{ref}'")
            graph.ops.append(Op(name, n["type"], list(n["input_names"]), list(n["output_names"]),
                                [_param(k, v) for k, v in n.get("params", {}).items()]))
            graph._used.add(name)
        graph.onnx_map = {k: dict(v) for k, v in g.get("source_tensors", {}).items()}
    except (KeyError, TypeError, ValueError) as e:
        raise ConverterError(f"{json_path}: malformed graph ({e})")
    return NetModel(graph, doc.get("converter_command", ""), json_path)
