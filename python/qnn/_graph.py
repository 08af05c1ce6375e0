"""Graphs of a context: a finalized graph's inputs / outputs (TensorInfo) and run(); made by Context
(loaded from a binary) and by GraphBuilder.finalize()."""
import ctypes as C

import numpy as np

from . import _abi as A
from ._config import graph_configs
from ._memory import RegisteredTensor
from ._types import DTYPE_NAMES, DTYPES

_QUANT_SCALE_OFFSET = 0  # QNN_QUANTIZATION_ENCODING_SCALE_OFFSET
_DEFINED = 1             # QNN_DEFINITION_DEFINED


class TensorInfo:
    """A graph input or output: name, dims, QNN datatype name, numpy dtype, and (scale, offset) when quantized."""

    def __init__(self, t):
        v = t.v1 if t.version == 1 else t.v2
        self.name = v.name.decode()
        self.dims = tuple(v.dimensions[i] for i in range(v.rank))
        self.qnn_dtype = v.dataType
        self.dtype_name = DTYPE_NAMES.get(v.dataType, str(v.dataType))
        self.dtype = np.dtype(DTYPES[v.dataType]) if v.dataType in DTYPES else None
        q = v.quantizeParams
        self.quant = None
        if q.encodingDefinition == _DEFINED and q.quantizationEncoding == _QUANT_SCALE_OFFSET:
            self.quant = (q.scaleOffsetEncoding.scale, q.scaleOffsetEncoding.offset)
        self._template = A.Tensor()
        C.pointer(self._template)[0] = t  # a copy; names and dims point into the system context's info
        self._dims = (C.c_uint32 * len(self.dims))(*self.dims)
        self._name = self.name.encode()

    def tensor(self, array):
        """A Qnn_Tensor_t copy of this tensor with `array` as its client buffer, or with the mem handle of a
        RegisteredTensor."""
        t = A.Tensor()
        C.pointer(t)[0] = self._template
        v = t.v1 if t.version == 1 else t.v2
        v.name = self._name
        v.dimensions = self._dims
        if isinstance(array, RegisteredTensor):
            v.memType = 1  # QNN_TENSORMEMTYPE_MEMHANDLE
            v.memHandle = array.handle
            return t
        v.memType = 0  # QNN_TENSORMEMTYPE_RAW
        v.clientBuf.data = array.ctypes.data_as(C.c_void_p)
        v.clientBuf.dataSize = array.nbytes
        return t

    def check_registered(self, graph, mem):
        """A RegisteredTensor given for this tensor must be live, of this graph's context, dims and datatype."""
        if mem.handle is None:
            raise ValueError(f"graph '{graph.name}': the memory given for '{self.name}' was deregistered")
        if mem.context is not graph.context:
            raise ValueError(f"graph '{graph.name}': the memory given for '{self.name}' is registered with another "
                             "context")
        if mem.dims != self.dims or mem.qnn_dtype != self.qnn_dtype:
            raise ValueError(f"graph '{graph.name}': '{self.name}' is {list(self.dims)} {self.dtype_name}; the "
                             f"registered memory is {list(mem.dims)} {DTYPE_NAMES.get(mem.qnn_dtype, mem.qnn_dtype)}")

    def __repr__(self):
        q = f", scale={self.quant[0]:g}, offset={self.quant[1]}" if self.quant else ""
        return f"TensorInfo({self.name!r}, {list(self.dims)}, {self.dtype_name}{q})"


class Graph:
    """A finalized graph of a context: .inputs / .outputs (TensorInfo) and run()."""

    def __init__(self, context, handle, name, inputs, outputs):
        self.context, self._handle, self.name = context, handle, name
        self.inputs, self.outputs = inputs, outputs
        self._out_buffers = None
        self.profile = []  # the last run's ProfileEvents when the backend profiles

    def register(self, name, mem_type="ion", buffer=None, offset=0):
        """Shared memory for input or output `name` registered with the context (QnnMem_register): a
        RegisteredTensor whose .array is written (inputs) or read (outputs) in place; pass it to run(). A new
        memfd buffer unless `buffer` (a SharedBuffer; with mem_type="htp_shared_buffer" several tensors share
        one at offsets)."""
        info = {t.name: t for t in self.inputs + self.outputs}.get(name)
        if info is None:
            raise ValueError(f"graph '{self.name}' has no input or output '{name}'; it has "
                             f"{[t.name for t in self.inputs + self.outputs]}")
        return self.context.register(info.dims, info.dtype_name, mem_type=mem_type, buffer=buffer, offset=offset)

    def set_config(self, priority=None, htp=None):
        """QnnGraph_setConfig: priority (a name of _config.PRIORITIES, e.g. "normal", "high") and HTP graph options."""
        self.context._check_open()
        backend = self.context.backend
        configs = graph_configs(backend.backend_id, priority=priority, htp=htp)
        if configs.entries:
            backend._check(backend._lib.fn("graphSetConfig")(self._handle, configs.typed(A.GraphConfig)),
                           f"QnnGraph_setConfig of graph '{self.name}'")

    def run(self, feeds, dequantize=False, outputs=None):
        """feeds: {input name: ndarray} in each input's dims and dtype (float32 arrays are quantized for a
        quantized input; the arrays are passed to the backend in place). Returns {output name: ndarray}
        (float32 when dequantize and the output is quantized). outputs: {output name: ndarray} of the
        output's dims and dtype, C-contiguous, that the backend writes into directly (no copy; those
        arrays are returned). An input or output may also be a RegisteredTensor (graph.register): the backend
        reads / writes its shared memory in place and an output's .array is returned."""
        arrays, buffers = self._bind_arrays(feeds, outputs)
        given = outputs or {}
        self._execute(*self._structs(arrays, buffers))
        result = {}
        for t, b in zip(self.outputs, buffers):
            if isinstance(b, RegisteredTensor):
                b = b.array  # the backend wrote it in place
            v = b if t.name in given else b.copy()
            if dequantize and t.quant:
                v = ((v.astype(np.float64) + t.quant[1]) * t.quant[0]).astype(np.float32)
            result[t.name] = v
        return result

    def bind(self, feeds, outputs=None):
        """The inputs and outputs of repeated runs checked and converted once, as run() takes them (ONNX
        Runtime's IOBinding): returns a BoundRun whose run() executes the graph on them again without
        converting anything per call: bound.inputs are the arrays the backend reads (change them in place
        between runs), bound.outputs those it writes (the ones given, new arrays for the others). A
        benchmark's or a decode loop's inner call."""
        arrays, buffers = self._bind_arrays(feeds, outputs, fresh_outputs=True)
        return BoundRun(self, arrays, buffers)

    def _bind_arrays(self, feeds, outputs, fresh_outputs=False):
        """The input arrays (converted) and output buffers of a run: those given, else this graph's own
        (reused by every run()), or new ones with fresh_outputs."""
        self.context._check_open()
        missing = [t.name for t in self.inputs if t.name not in feeds]
        unknown = sorted(set(feeds) - {t.name for t in self.inputs})
        if missing or unknown:
            raise ValueError(f"graph '{self.name}': missing inputs {missing}, unknown inputs {unknown}; it takes "
                             f"{[t.name for t in self.inputs]}")
        arrays = [self._input_array(t, feeds[t.name]) for t in self.inputs]  # RegisteredTensors pass as they are
        if fresh_outputs:
            own_buffers = [np.empty(t.dims, dtype=t.dtype) for t in self.outputs]
        else:
            if self._out_buffers is None:  # output buffers are reused across runs
                self._out_buffers = [np.empty(t.dims, dtype=t.dtype) for t in self.outputs]
            own_buffers = self._out_buffers
        given = dict(outputs or {})
        unknown_out = sorted(set(given) - {t.name for t in self.outputs})
        if unknown_out:
            raise ValueError(f"graph '{self.name}': unknown outputs {unknown_out}")
        buffers = []
        for t, own in zip(self.outputs, own_buffers):
            b = given.get(t.name)
            if b is None:
                buffers.append(own)
                continue
            if isinstance(b, RegisteredTensor):
                t.check_registered(self, b)
                buffers.append(b)
                continue
            if tuple(b.shape) != t.dims or b.dtype != t.dtype or not b.flags["C_CONTIGUOUS"] or not b.flags["WRITEABLE"]:
                raise ValueError(f"graph '{self.name}': output buffer '{t.name}' must be a writeable C-contiguous "
                                 f"{t.dtype} array of shape {list(t.dims)}")
            buffers.append(b)
        return arrays, buffers

    def _structs(self, arrays, buffers):
        ins = (A.Tensor * len(arrays))(*[t.tensor(a) for t, a in zip(self.inputs, arrays)])
        outs = (A.Tensor * len(self.outputs))(*[t.tensor(b) for t, b in zip(self.outputs, buffers)])
        return ins, outs

    def _execute(self, ins, outs):
        self.context._check_open()
        backend = self.context.backend
        err = backend._lib.fn("graphExecute")(self._handle, ins, len(ins), outs, len(outs), backend._profile, None)
        backend._check(err, f"QnnGraph_execute of graph '{self.name}'")
        self.profile = backend._new_profile_events()

    def _input_array(self, t, value):
        if isinstance(value, RegisteredTensor):
            t.check_registered(self, value)
            return value
        a = np.asarray(value)
        if tuple(a.shape) != t.dims:
            raise ValueError(f"graph '{self.name}': input '{t.name}' has shape {list(a.shape)}, the graph takes "
                             f"{list(t.dims)}")
        if t.dtype is None:
            raise ValueError(f"graph '{self.name}': input '{t.name}' has datatype {t.dtype_name}, not supported here")
        if t.quant and a.dtype == np.float32 and t.dtype != np.float32:
            info = np.iinfo(t.dtype)
            q = np.rint(a.astype(np.float64) / t.quant[0]) - t.quant[1]
            a = np.clip(q, info.min, info.max).astype(t.dtype)
        if a.dtype != t.dtype:
            raise TypeError(f"graph '{self.name}': input '{t.name}' is {a.dtype}, the graph takes {t.dtype} "
                            f"({t.dtype_name})")
        return np.ascontiguousarray(a)


class BoundRun:
    """Graph.bind's result: run() executes the graph on the bound inputs and outputs (whose arrays may be
    changed in place between runs) and returns .outputs, {output name: the array the backend wrote}."""

    def __init__(self, graph, arrays, buffers):
        self.graph, self._arrays, self._buffers = graph, arrays, buffers  # kept alive: the structs point into them
        self._ins, self._outs = graph._structs(arrays, buffers)
        self.inputs = {t.name: (a.array if isinstance(a, RegisteredTensor) else a)
                       for t, a in zip(graph.inputs, arrays)}
        self.outputs = {t.name: (b.array if isinstance(b, RegisteredTensor) else b)
                        for t, b in zip(graph.outputs, buffers)}

    def run(self):
        self.graph._execute(self._ins, self._outs)
        return self.outputs
