"""Building a graph from Python: inputs, constants and ops checked against the op definitions
(opdefs.json, generated from the op-definition facts by tools/gen_python_opdefs.py), then finalized
into a runnable Graph of the context."""
import ctypes as C
import json
import os

import numpy as np

from . import _abi as A
from ._config import graph_configs
from ._graph import Graph, TensorInfo
from ._types import DTYPE_NAMES, DTYPES, QnnError

_OPDEFS = json.load(open(os.path.join(os.path.dirname(__file__), "opdefs.json")))
_DTYPE_VALUES = {v: k for k, v in DTYPE_NAMES.items()}
_APP_WRITE, _APP_READ, _NATIVE, _STATIC = 0, 1, 3, 4
_SCALAR_FIELD = {"FLOAT_32": "floatValue", "FLOAT_64": "doubleValue", "UINT_64": "uint64Value",
                 "INT_64": "int64Value", "UINT_32": "uint32Value", "INT_32": "int32Value", "UINT_16": "uint16Value",
                 "INT_16": "int16Value", "UINT_8": "uint8Value", "INT_8": "int8Value", "BOOL_8": "bool8Value"}


def _dtype_value(name):
    if name not in _DTYPE_VALUES:
        raise ValueError(f"unknown datatype '{name}'; one of {sorted(_DTYPE_VALUES)}")
    return _DTYPE_VALUES[name]


class TensorRef:
    """A tensor of a graph being built (what g.input / g.constant / g.op return)."""

    def __init__(self, builder, name, dims, dtype, kind, data=None, quant=None):
        self.name, self.dims, self.dtype_name, self.kind = name, tuple(int(d) for d in dims), dtype, kind
        self._name = name.encode()
        self._dims = (C.c_uint32 * len(self.dims))(*self.dims)
        self._data = data  # a static tensor's array, kept alive as long as the graph
        t = A.Tensor()
        t.version = 1
        v = t.v1
        v.name, v.type, v.dataType = self._name, kind, _dtype_value(dtype)
        v.rank, v.dimensions = len(self.dims), self._dims
        v.quantizeParams.encodingDefinition = 2  # QNN_DEFINITION_UNDEFINED
        v.quantizeParams.quantizationEncoding = 0x7FFFFFFF
        if quant is not None:
            v.quantizeParams.encodingDefinition, v.quantizeParams.quantizationEncoding = 1, 0
            v.quantizeParams.scaleOffsetEncoding.scale, v.quantizeParams.scaleOffsetEncoding.offset = quant
        if data is not None:
            v.clientBuf.data = data.ctypes.data_as(C.c_void_p)
            v.clientBuf.dataSize = data.nbytes
        lib = builder.context.backend._lib
        builder.context.backend._check(lib.fn("tensorCreateGraphTensor")(builder._handle, C.byref(t)),
                                       f"QnnTensor_createGraphTensor of '{name}'")
        self.tensor = t  # with the id the backend gave it

    def __repr__(self):
        return f"TensorRef({self.name!r}, {list(self.dims)}, {self.dtype_name})"


class GraphBuilder:
    """ctx.graph(name): add inputs, constants and ops, then finalize() -> Graph."""

    def __init__(self, context, name, priority=None, htp=None):
        self.context, self.name = context, name
        self._tensors, self._inputs, self._outputs, self._keep = {}, [], [], []
        configs = graph_configs(context.backend.backend_id, priority=priority, htp=htp)
        handle = C.c_void_p()
        context.backend._check(context.backend._lib.fn("graphCreate")(context._handle, name.encode(),
                                                                       configs.pointer(), C.byref(handle)),
                               f"QnnGraph_create of '{name}'")
        self._handle = handle
        self._finalized = False

    def _add(self, ref):
        self._tensors[ref.name] = ref
        return ref

    def _new_name(self, name):
        if name in self._tensors:
            raise ValueError(f"graph '{self.name}': a tensor named '{name}' exists already")
        return name

    def input(self, name, dims, dtype="FLOAT_32", quant=None):
        """A graph input (APP_WRITE); quant=(scale, offset) for a fixed-point datatype."""
        self._check_open()
        ref = self._add(TensorRef(self, self._new_name(name), dims, dtype, _APP_WRITE, quant=quant))
        self._inputs.append(ref)
        return ref

    def constant(self, name, array, dtype=None, quant=None):
        """A static tensor from an ndarray (its dtype decides the QNN datatype unless `dtype` names one)."""
        self._check_open()
        a = np.ascontiguousarray(array)
        if dtype is None:
            matches = [n for n, t in ((DTYPE_NAMES[v], DTYPES[v]) for v in DTYPES) if np.dtype(t) == a.dtype
                       and "FIXED" not in n]
            if not matches:
                raise TypeError(f"constant '{name}': no QNN datatype for {a.dtype}")
            dtype = matches[0]
        return self._add(TensorRef(self, self._new_name(name), a.shape, dtype, _STATIC, data=a, quant=quant))

    def op(self, op_type, inputs, outputs, params=None, name=None, package="qti.aisw", graph_output=False):
        """Adds a node. outputs: [(name, dims, dtype[, quant]), ...] (QNN has no shape inference: the
        caller states them); graph_output=True makes them outputs run() returns (APP_READ), else they
        are native tensors other nodes read. params: {name: value} checked against the op definitions.
        Returns the output TensorRef (a list when there are several). A node the backend refuses raises
        QnnError; its output tensors stay in the graph (QNN cannot remove tensors), so build the graph
        again without it."""
        self._check_open()
        params = dict(params or {})
        node = name or f"{op_type}_{len(self._keep)}"
        if package == "qti.aisw":
            d = _OPDEFS.get(op_type)
            if d is None:
                raise ValueError(f"unknown op '{op_type}' (not in the op definitions of package qti.aisw)")
            if len(inputs) < d["min_inputs"] or (d["max_inputs"] is not None and len(inputs) > d["max_inputs"]):
                raise ValueError(f"{op_type} '{node}': {len(inputs)} inputs; it takes {d['min_inputs']}.."
                                 f"{d['max_inputs'] if d['max_inputs'] is not None else 'n'}")
            for p in params:
                if p not in d["params"]:
                    raise ValueError(f"{op_type} '{node}': unknown param '{p}'; it has {sorted(d['params'])}")
            missing = [p for p, spec in d["params"].items() if spec["mandatory"] and p not in params]
            if missing:
                raise ValueError(f"{op_type} '{node}': missing mandatory params {missing}")
            specs = d["params"]
        else:
            specs = {}
        qparams, keep = [], []
        for pname, value in params.items():
            spec = specs.get(pname)
            qparams.append(self._param(node, pname, value, spec, keep))
        for o in outputs:
            self._new_name(o[0])
        outs = []
        for o in outputs:
            oname, dims, dtype = o[0], o[1], o[2] if len(o) > 2 else "FLOAT_32"
            kind = _APP_READ if graph_output else _NATIVE
            ref = self._add(TensorRef(self, oname, dims, dtype, kind, quant=o[3] if len(o) > 3 else None))
            if graph_output:
                self._outputs.append(ref)
            outs.append(ref)
        cfg = A.OpConfig()
        cfg.version = 1
        names = [node.encode(), package.encode(), op_type.encode()]
        cfg.v1.name, cfg.v1.packageName, cfg.v1.typeName = names
        param_arr = (A.Param * len(qparams))(*qparams) if qparams else None
        in_arr = (A.Tensor * len(inputs))(*[i.tensor for i in inputs])
        out_arr = (A.Tensor * len(outs))(*[o.tensor for o in outs])
        cfg.v1.numOfParams, cfg.v1.params = len(qparams), param_arr
        cfg.v1.numOfInputs, cfg.v1.inputTensors = len(inputs), in_arr
        cfg.v1.numOfOutputs, cfg.v1.outputTensors = len(outs), out_arr
        self._keep.append((names, keep, param_arr, in_arr, out_arr))
        self.context.backend._check(self.context.backend._lib.fn("graphAddNode")(self._handle, cfg),
                                    f"QnnGraph_addNode of {op_type} '{node}'")
        return outs[0] if len(outs) == 1 else outs

    def _param(self, node, pname, value, spec, keep):
        p = A.Param()
        p.name = pname.encode()
        keep.append(p.name)
        kind = spec["kind"] if spec else ("tensor" if np.ndim(value) > 0 else "scalar")
        dtype = spec["dtype"] if spec and spec["dtype"] in _SCALAR_FIELD else None
        if kind == "scalar":
            if np.ndim(value) != 0:
                raise ValueError(f"'{node}': param '{pname}' is a scalar, got {value!r}")
            if dtype is None:
                dtype = "BOOL_8" if isinstance(value, bool) else "FLOAT_32" if isinstance(value, float) else "INT_32"
            p.paramType = 0
            p.scalarParam.dataType = _dtype_value(dtype)
            setattr(p.scalarParam, _SCALAR_FIELD[dtype], int(value) if dtype != "FLOAT_32" and dtype != "FLOAT_64"
                    else float(value))
            return p
        arr = np.ascontiguousarray(value, dtype=DTYPES[_dtype_value(dtype)] if dtype else None)
        if dtype is None:
            dtype = {np.dtype(np.float32): "FLOAT_32", np.dtype(np.int64): "INT_32"}.get(arr.dtype, "UINT_32")
            arr = np.ascontiguousarray(arr, dtype=DTYPES[_dtype_value(dtype)])
        ref = TensorRef(self, f"{node}_{pname}", arr.shape if arr.ndim else (1,), dtype, _STATIC, data=arr)
        p.paramType = 1
        p.tensorParam = ref.tensor
        keep.append(ref)
        return p

    def validate(self):
        """QnnGraph_validate (API 2.39) on the graph as composed so far: (overall status, [(node name,
        supported, error code, message or None), ...] in the order added). Status 0: valid and runnable.
        Raises QnnError when the backend validated nothing (e.g. no nodes yet)."""
        self._check_open()
        backend = self.context.backend
        result = C.POINTER(A.ValidationResult)()
        err = backend._lib.fn("graphValidate")(self._handle, None, C.byref(result))
        if not result:
            backend._check(err, f"QnnGraph_validate of '{self.name}'")
            raise QnnError(f"QnnGraph_validate of '{self.name}' handed out no result")
        backend._last_error_log = None  # the result says why; the call's line is not an exception's
        r = result.contents
        nodes = [(r.results[k].nodeName.decode(), r.results[k].status == 0, r.results[k].errorCode,
                  r.results[k].errorMessage.decode() if r.results[k].errorMessage else None)
                 for k in range(r.numResults)]
        overall = r.overallStatus
        backend._check(backend._lib.fn("graphFreeValidationResult")(result), "QnnGraph_freeValidationResult")
        return overall, nodes

    def finalize(self):
        """Finalizes the graph and returns it runnable (also in context.graphs)."""
        self._check_open()
        if not self._outputs:
            raise ValueError(f"graph '{self.name}' has no output: give graph_output=True to the last op(s)")
        self.context.backend._check(self.context.backend._lib.fn("graphFinalize")(self._handle, None, None),
                                    f"QnnGraph_finalize of '{self.name}'")
        self._finalized = True
        graph = Graph(self.context, self._handle, self.name, [TensorInfo(r.tensor) for r in self._inputs],
                      [TensorInfo(r.tensor) for r in self._outputs])
        graph._builder = self  # keeps the static data and names alive
        self.context.graphs[self.name] = graph
        return graph

    def _check_open(self):
        if self._finalized:
            raise QnnError(f"graph '{self.name}' is finalized; it takes no more tensors or nodes")
        self.context._check_open()
