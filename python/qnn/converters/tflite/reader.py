"""A TFLite model file read with the flatbuffers runtime (Debian python3-flatbuffers). The table layouts are the
public TFLite schema's (field order = vtable slot; a union takes two slots, its type then its value):

  Model:       0 version, 1 operator_codes, 2 subgraphs, 3 description, 4 buffers
  OperatorCode: 0 deprecated_builtin_code (int8), 1 custom_code, 2 version, 3 builtin_code (int32)
  SubGraph:    0 tensors, 1 inputs, 2 outputs, 3 operators, 4 name
  Tensor:      0 shape, 1 type, 2 buffer, 3 name, 4 quantization, 5 is_variable, 6 sparsity, 7 shape_signature
  Quantization: 0 min, 1 max, 2 scale, 3 zero_point (int64), 4-5 details (union), 6 quantized_dimension
  Operator:    0 opcode_index, 1 inputs, 2 outputs, 3-4 builtin_options (union), 5 custom_options
  Buffer:      0 data, 1 offset, 2 size (offset/size: data stored after the flatbuffer, models over 2 GB)
Only what the converter reads is decoded; option tables are read lazily by slot (Options.get)."""
import struct

import numpy as np
from flatbuffers import number_types as N
from flatbuffers.table import Table

from qnn.errors import ConverterError

TENSOR_TYPES = {0: np.float32, 1: np.float16, 2: np.int32, 3: np.uint8, 4: np.int64, 6: np.bool_, 7: np.int16,
                9: np.int8, 10: np.float64, 12: np.uint64, 15: np.uint32, 16: np.uint16}
TENSOR_TYPE_NAMES = {5: "STRING", 8: "COMPLEX64", 11: "COMPLEX128", 13: "RESOURCE", 14: "VARIANT", 17: "INT4"}


def _slot(t, slot):
    return t.Offset(4 + 2 * slot)


def _scalar(t, slot, kind, default=0):
    o = _slot(t, slot)
    return t.Get(kind, o + t.Pos) if o else default


def _table(t, slot):
    o = _slot(t, slot)
    if not o:
        return None
    return Table(t.Bytes, t.Indirect(o + t.Pos))


def _string(t, slot):
    o = _slot(t, slot)
    return t.String(o + t.Pos).decode("utf-8", "replace") if o else ""


def _vector(t, slot, kind):
    """A vector of scalars as a numpy array (empty when absent)."""
    o = _slot(t, slot)
    if not o:
        return np.zeros(0, dtype=kind.dtype if hasattr(kind, "dtype") else np.int32)
    return t.GetVectorAsNumpy(kind, o)


def _tables(t, slot):
    o = _slot(t, slot)
    if not o:
        return []
    n, start = t.VectorLen(o), t.Vector(o)
    return [Table(t.Bytes, t.Indirect(start + 4 * i)) for i in range(n)]


class Options:
    """A builtin-options table, read by slot with its type and default."""

    def __init__(self, table):
        self.t = table

    def get(self, slot, kind, default=0):
        return _scalar(self.t, slot, kind, default) if self.t is not None else default

    def ints(self, slot):
        return [int(v) for v in _vector(self.t, slot, N.Int32Flags)] if self.t is not None else []


class TflTensor:
    def __init__(self, t, index, model):
        self.index = index
        self.shape = [int(v) for v in _vector(t, 0, N.Int32Flags)]
        code = _scalar(t, 1, N.Int8Flags)
        if code not in TENSOR_TYPES:
            raise ConverterError(f"tensor {index}: TFLite type {TENSOR_TYPE_NAMES.get(code, code)} is not supported")
        self.dtype = np.dtype(TENSOR_TYPES[code])
        self.buffer = _scalar(t, 2, N.Uint32Flags)
        self.name = _string(t, 3) or f"tensor_{index}"
        q = _table(t, 4)
        self.scale = self.zero_point = None
        self.quantized_dimension = 0
        if q is not None:
            scale = _vector(q, 2, N.Float32Flags)
            if scale.size:
                self.scale = scale.astype(np.float64)
                zp = _vector(q, 3, N.Int64Flags)
                self.zero_point = zp if zp.size else np.zeros(scale.size, np.int64)
                self.quantized_dimension = _scalar(q, 6, N.Int32Flags)
        if _slot(t, 6):
            raise ConverterError(f"tensor '{self.name}': sparse tensors are not supported")
        self.data = model.buffer_data(self.buffer, self.dtype, self.shape, self.name)


class TflOperator:
    def __init__(self, t, model):
        idx = _scalar(t, 0, N.Uint32Flags)
        if idx >= len(model.opcodes):
            raise ConverterError(f"an operator names opcode {idx}; the model has {len(model.opcodes)}")
        self.code, self.custom = model.opcodes[idx]
        self.inputs = [int(v) for v in _vector(t, 1, N.Int32Flags)]
        self.outputs = [int(v) for v in _vector(t, 2, N.Int32Flags)]
        self.options = Options(_table(t, 4))


class TflModel:
    def __init__(self, path):
        try:
            with open(path, "rb") as f:
                self.buf = bytearray(f.read())
        except OSError as e:
            raise ConverterError(f"cannot read {path}: {e.strerror}")
        if len(self.buf) < 8 or self.buf[4:8] != b"TFL3":
            raise ConverterError(f"{path} is not a TFLite model (no TFL3 identifier)")
        try:
            root = Table(self.buf, struct.unpack_from("<I", self.buf, 0)[0])
            self.version = _scalar(root, 0, N.Uint32Flags)
            self.opcodes = []
            for oc in _tables(root, 1):
                code = max(_scalar(oc, 0, N.Int8Flags), _scalar(oc, 3, N.Int32Flags))
                self.opcodes.append((code, _string(oc, 1)))
            self._buffers = _tables(root, 4)
            subgraphs = _tables(root, 2)
            if not subgraphs:
                raise ConverterError(f"{path} has no subgraph")
            g = subgraphs[0]
            self.subgraph_count = len(subgraphs)
            self.tensors = [TflTensor(t, i, self) for i, t in enumerate(_tables(g, 0))]
            self.inputs = [int(v) for v in _vector(g, 1, N.Int32Flags)]
            self.outputs = [int(v) for v in _vector(g, 2, N.Int32Flags)]
            self.operators = [TflOperator(t, self) for t in _tables(g, 3)]
        except ConverterError:
            raise
        except (struct.error, IndexError, ValueError, TypeError) as e:
            raise ConverterError(f"{path} is a damaged TFLite model ({type(e).__name__}: {e})")
        for i in self.inputs + self.outputs:
            if not 0 <= i < len(self.tensors):
                raise ConverterError(f"{path}: graph input/output {i} is not a tensor")

    def buffer_data(self, index, dtype, shape, name):
        if index == 0 or index >= len(self._buffers):
            return None   # buffer 0 is the empty sentinel
        b = self._buffers[index]
        off = _scalar(b, 1, N.Uint64Flags)
        if off:
            size = _scalar(b, 2, N.Uint64Flags)
            if off + size > len(self.buf):
                raise ConverterError(f"tensor '{name}': buffer {index} lies outside the file")
            raw = bytes(self.buf[off:off + size])
        else:
            o = _slot(b, 0)
            if not o:
                return None
            n, start = b.VectorLen(o), b.Vector(o)
            if start + n > len(self.buf):
                raise ConverterError(f"tensor '{name}': buffer {index} lies outside the file")
            raw = bytes(self.buf[start:start + n])
        if not raw:
            return None
        count = int(np.prod(shape)) if shape else 1
        if len(raw) != count * dtype.itemsize:
            raise ConverterError(f"tensor '{name}': buffer of {len(raw)} bytes for shape {shape} of {dtype}")
        return np.frombuffer(raw, dtype=dtype).reshape(shape if shape else ())
