"""The QNN graph the converter builds: tensors, ops and the name rule."""
import re
import sys
from collections import OrderedDict

import numpy as np

from qnn.errors import ConverterError

# numpy dtype -> QNN data type enumerator
QNN_DTYPES = {
    np.dtype(np.float32): "QNN_DATATYPE_FLOAT_32",
    np.dtype(np.float16): "QNN_DATATYPE_FLOAT_16",   # only --float_bitwidth 16 graphs (qnn_dtype narrows sources)
    np.dtype(np.int32): "QNN_DATATYPE_INT_32",
    np.dtype(np.uint32): "QNN_DATATYPE_UINT_32",
    np.dtype(np.int8): "QNN_DATATYPE_INT_8",
    np.dtype(np.uint8): "QNN_DATATYPE_UINT_8",
    np.dtype(np.int16): "QNN_DATATYPE_INT_16",
    np.dtype(np.uint16): "QNN_DATATYPE_UINT_16",
    np.dtype(np.bool_): "QNN_DATATYPE_BOOL_8",
}

NAME_RULE = ("Tensor and node names: every character outside [A-Za-z0-9_] becomes '_', a leading digit "
             "gets a '_' prefix, and a name that would clash with an earlier one gets '_1', '_2', ... "
             "appended. Legal ONNX names (inputs and outputs included) are kept unchanged.")


def sanitize(name):
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not s or s[0].isdigit():
        s = "_" + s
    return s


# Types without a QNN equivalent for this converter's graphs, narrowed as the
# vendor's converters narrow 64-bit types (float16 is computed in float32: the
# CPU backend's kernels are float32).
NARROWED = {np.dtype(np.int64): np.dtype(np.int32), np.dtype(np.uint64): np.dtype(np.uint32),
            np.dtype(np.float64): np.dtype(np.float32), np.dtype(np.float16): np.dtype(np.float32)}
_warned = set()


def qnn_dtype(np_dtype):
    dt = np.dtype(np_dtype)
    if dt in NARROWED:
        if dt != np.int64 and dt not in _warned:  # int64 -> int32 is the converters' rule, said in the docs
            _warned.add(dt)
            print(f"qnn-onnx-converter: warning: {dt} tensors become {NARROWED[dt]}", file=sys.stderr)
        dt = NARROWED[dt]
    if dt not in QNN_DTYPES:
        raise ConverterError(f"data type {dt} has no QNN equivalent")
    return dt


class Tensor:
    def __init__(self, name, shape, dtype, kind, data=None):
        self.name, self.shape, self.dtype, self.kind, self.data = name, list(shape), np.dtype(dtype), kind, data
        self.updateable = False  # a static tensor of --lora_weight_list: QNN_TENSOR_TYPE_UPDATEABLE_STATIC


TENSOR_TYPES = {"in": "QNN_TENSOR_TYPE_APP_WRITE", "out": "QNN_TENSOR_TYPE_APP_READ",
                "native": "QNN_TENSOR_TYPE_NATIVE", "static": "QNN_TENSOR_TYPE_STATIC"}


def tensor_type(t):
    """The QNN tensor type enumerator of a graph tensor (UPDATEABLE_STATIC for --lora_weight_list's)."""
    if t.kind == "static" and getattr(t, "updateable", False):
        return "QNN_TENSOR_TYPE_UPDATEABLE_STATIC"
    return TENSOR_TYPES[t.kind]


class Param:
    """kind 'scalar' (value: python number/bool) or 'tensor' (value: numpy array)."""
    def __init__(self, name, kind, dtype, value):
        self.name, self.kind, self.dtype, self.value = name, kind, np.dtype(dtype), value


class Op:
    def __init__(self, name, op_type, inputs, outputs, params):
        self.name, self.type, self.inputs, self.outputs, self.params = name, op_type, inputs, outputs, params
        self.package = "qti.aisw"   # the op package (custom ops: the one --op_package_config defines)


class Graph:
    def __init__(self, name):
        self.name = name
        self.tensors = OrderedDict()
        self.ops = []
        self.inputs = []   # names, in order
        self.outputs = []  # names, in order
        self.axis_format = {}  # graph input/output name -> NHWC | NCHW | <declared layout> | ANY
        self._used = {name}
        self.reserved, self.reserved_for = set(), set()

    def unique(self, wanted):
        """Sanitize and make unique in the single namespace shared by tensors and nodes.
        Names in self.reserved (graph inputs/outputs) go only to the tensor that is that output."""
        base = sanitize(wanted)
        if base in self.reserved and wanted in self.reserved_for and type(wanted).__name__ == "_Exact":
            self.reserved.discard(base)
            self.reserved_for.discard(wanted)
            self._used.add(base)
            return base
        name, i = base, 0
        while name in self._used or name in self.reserved:
            i += 1
            name = f"{base}_{i}"
        self._used.add(name)
        return name

    def add_tensor(self, wanted, shape, dtype, kind, data=None):
        if any(int(d) == 0 for d in shape):
            raise ConverterError(f"tensor '{wanted}' has a zero-size dim {list(shape)}: QNN tensors cannot be empty")
        name = self.unique(wanted)
        if data is not None:
            data = np.ascontiguousarray(data, dtype=dtype)
        self.tensors[name] = Tensor(name, shape, dtype, kind, data)
        return name

    def add_op(self, wanted, op_type, inputs, outputs, params=()):
        name = self.unique(wanted)
        self.ops.append(Op(name, op_type, list(inputs), list(outputs), list(params)))
        return name


def scalar(name, dtype, value):
    return Param(name, "scalar", dtype, value)


def tparam(name, dtype, value):
    return Param(name, "tensor", dtype, np.asarray(value, dtype=dtype))
