"""Tensor files the stages hand each other.

A *tensor directory* (framework_diagnosis output, and the inference engine's results after mapping)
holds <file>.raw files (little-endian, C order, ONNX's axis order) and tensors.json:
{"tensors": {source_name: {"file": ..., "dims": [...], "dtype": "float32"}}, "order": [source names]}."""
import json
import os
import re

import numpy as np

from .errors import DebuggerError

DTYPES = {"float32": np.float32, "float": np.float32, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
          "int8": np.int8, "uint16": np.uint16, "int16": np.int16, "bool": np.bool_, "float64": np.float64}


def file_name(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".raw"


def parse_input_tensors(specs):
    """-i NAME DIMS FILE [DTYPE] occurrences -> [{name, dims, file, dtype}]."""
    out = []
    for spec in specs:
        if len(spec) not in (3, 4):
            raise DebuggerError(f"--input_tensor takes NAME DIMS FILE [DTYPE], got {' '.join(spec)}")
        name, dims, path = spec[:3]
        dtype = spec[3] if len(spec) == 4 else "float32"
        if dtype not in DTYPES:
            raise DebuggerError(f"--input_tensor {name}: data type {dtype} is not one of {', '.join(DTYPES)}")
        try:
            shape = [int(d) for d in dims.split(",")]
        except ValueError:
            raise DebuggerError(f"--input_tensor {name}: dims '{dims}' must be comma-separated integers")
        if not os.path.isfile(path):
            raise DebuggerError(f"--input_tensor {name}: {path} does not exist")
        want = int(np.prod(shape)) * np.dtype(DTYPES[dtype]).itemsize
        if os.path.getsize(path) != want:
            raise DebuggerError(f"--input_tensor {name}: {path} has {os.path.getsize(path)} bytes, "
                                f"dims {dims} of {dtype} need {want}")
        out.append({"name": name, "dims": shape, "file": os.path.abspath(path), "dtype": dtype})
    return out


class TensorDir:
    def __init__(self, path):
        self.path = path
        index = os.path.join(path, "tensors.json")
        if not os.path.isfile(index):
            raise DebuggerError(f"{path} has no tensors.json (not a framework_diagnosis or inference_engine result)")
        try:
            with open(index) as f:
                doc = json.load(f)
            self.tensors, self.order = doc["tensors"], doc.get("order", list(doc["tensors"]))
        except (ValueError, KeyError, TypeError) as e:
            raise DebuggerError(f"{index} is damaged: {e}")

    def has(self, name):
        return name in self.tensors

    def load(self, name):
        t = self.tensors[name]
        path = os.path.join(self.path, t["file"])
        dt = np.dtype(DTYPES.get(t.get("dtype", "float32"), np.float32))
        try:
            a = np.fromfile(path, dtype=dt)
        except OSError as e:
            raise DebuggerError(f"cannot read {path}: {e}")
        n = int(np.prod(t["dims"])) if t["dims"] else 1
        if a.size != n:
            raise DebuggerError(f"{path} holds {a.size} values, tensors.json says dims {t['dims']}")
        return a.reshape(t["dims"]) if t["dims"] else a.reshape(())


def write_tensor_dir(path, arrays, order=None):
    """arrays: {source name: numpy array}."""
    os.makedirs(path, exist_ok=True)
    index, used = {}, set()
    for name, a in arrays.items():
        f = file_name(name)
        while f in used:
            f = "_" + f
        used.add(f)
        a = np.ascontiguousarray(a)
        a.tofile(os.path.join(path, f))
        index[name] = {"file": f, "dims": list(a.shape), "dtype": str(a.dtype) if str(a.dtype) != "bool" else "bool"}
    with open(os.path.join(path, "tensors.json"), "w") as f:
        json.dump({"tensors": index, "order": order or list(arrays)}, f, indent=1)


_ONNX_DTYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64", 9: "bool",
                11: "float64"}


def _first_line(list_path):
    try:
        with open(list_path) as f:
            for ln in f:
                ln = ln.strip()
                if ln and ln[0] not in "#%":
                    return ln.split()
    except OSError as e:
        raise DebuggerError(f"--input_list: cannot read '{list_path}': {e.strerror}")
    raise DebuggerError(f"--input_list {list_path}: no input line")


def inputs_from_list(list_path, model_path, work_dir):
    """The model's inputs from the first line of a qnn-net-run input list (float32 files, name:=file or by
    position) and the ONNX model (dims, dtypes), as parse_input_tensors gives them for -i. A non-float input
    gets a copy in its own dtype under work_dir (the framework runs the model with its own dtypes)."""
    import onnx
    try:
        m = onnx.load(model_path, load_external_data=False)
    except Exception as e:  # onnx raises DecodeError and friends
        raise DebuggerError(f"cannot read {model_path} as an ONNX model: {e}")
    inits = {t.name for t in m.graph.initializer}
    graph_inputs = [vi for vi in m.graph.input if vi.name not in inits]
    by_name = {vi.name: vi for vi in graph_inputs}
    parts = _first_line(list_path)
    if len(parts) != len(graph_inputs):
        raise DebuggerError(f"--input_list {list_path}: {len(parts)} files for the model's {len(graph_inputs)} inputs")
    base = os.path.dirname(os.path.abspath(list_path))
    out = []
    for k, part in enumerate(parts):
        name, path = part.split(":=", 1) if ":=" in part else (graph_inputs[k].name, part)
        vi = by_name.get(name)
        if vi is None:
            raise DebuggerError(f"--input_list {list_path}: '{name}' is not an input of {model_path}")
        dims = [d.dim_value if d.HasField("dim_value") else None for d in vi.type.tensor_type.shape.dim]
        if any(d is None for d in dims):
            raise DebuggerError(f"--input_list: input '{name}' has dynamic dims in the model; give it with "
                                "-i NAME DIMS FILE")
        dtype = _ONNX_DTYPES.get(vi.type.tensor_type.elem_type)
        if dtype is None:
            raise DebuggerError(f"--input_list: input '{name}' has an ONNX data type this tool does not read")
        path = path if os.path.isabs(path) or os.path.exists(path) else os.path.join(base, path)
        if not os.path.isfile(path):
            raise DebuggerError(f"--input_list {list_path}: {path} does not exist")
        want = int(np.prod(dims)) * 4
        if os.path.getsize(path) != want:
            raise DebuggerError(f"--input_list: {path} has {os.path.getsize(path)} bytes, input '{name}' {dims} "
                                f"needs {want} (float32, qnn-net-run's input format)")
        if dtype != "float32":
            os.makedirs(work_dir, exist_ok=True)
            native = os.path.join(work_dir, file_name(name))
            np.fromfile(path, np.float32).astype(DTYPES[dtype]).tofile(native)
            path = native
        out.append({"name": name, "dims": dims, "file": os.path.abspath(path), "dtype": dtype})
    return out
