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
