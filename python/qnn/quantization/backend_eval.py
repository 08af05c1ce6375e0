"""Calibration on a QNN backend: the converted float graph built through the qnn package (GraphBuilder) on
libQnnCpu.so, with every float tensor a graph output, so one execute per input set yields the statistics of
every tensor. The numpy evaluator (evaluator.py) stays for what no backend runs here: graphs with ops of
other op packages, encoded tensors (kept Quantize / Dequantize ops), ops the backend refuses, or no
libQnnCpu.so to be found ($QNN_CALIBRATION_BACKEND names one; 'numpy' always uses the evaluator)."""
import os
import sys

import numpy as np

import qnn

_BACKEND_ENV = "QNN_CALIBRATION_BACKEND"


def find_backend():
    """libQnnCpu.so: $QNN_CALIBRATION_BACKEND, else beside the running tool's prefix (<bin>/../lib[/x86_64-linux-clang],
    the build tree and the install), else under $QNN_SDK_ROOT. None when there is none (or the variable says numpy)."""
    given = os.environ.get(_BACKEND_ENV)
    if given:
        return None if given == "numpy" else given
    roots = []
    if sys.argv and sys.argv[0]:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(sys.argv[0]))))
    if os.environ.get("QNN_SDK_ROOT"):
        roots.append(os.environ["QNN_SDK_ROOT"])
    for root in roots:
        for sub in ("lib/x86_64-linux-clang", "lib"):
            p = os.path.join(root, sub, "libQnnCpu.so")
            if os.path.isfile(p):
                return p
    return None


def _dtype_name(dt):
    return {np.dtype(np.float32): "FLOAT_32", np.dtype(np.int32): "INT_32", np.dtype(np.uint32): "UINT_32",
            np.dtype(np.int8): "INT_8", np.dtype(np.uint8): "UINT_8", np.dtype(np.int16): "INT_16",
            np.dtype(np.uint16): "UINT_16", np.dtype(np.bool_): "BOOL_8"}.get(np.dtype(dt))


class BackendEvaluator:
    """Evaluator's interface (run(feeds, observe)) on a backend. Building raises ValueError / qnn.QnnError
    when the graph cannot run there; the caller then uses the numpy evaluator."""

    def __init__(self, graph, backend_path):
        self.g = graph
        for op in graph.ops:
            if op.package != "qti.aisw":
                raise ValueError(f"op '{op.name}' is of op package {op.package}")
        for t in graph.tensors.values():
            if getattr(t, "quant", None) is not None:
                raise ValueError(f"tensor '{t.name}' is encoded")
            if _dtype_name(t.dtype) is None:
                raise ValueError(f"tensor '{t.name}' is {t.dtype}")
        self._backend = qnn.Backend(backend_path, log_level="error")
        try:
            self._context = self._backend.context()
            b = self._context.graph(graph.name)
            refs = {}
            for name in graph.inputs:
                t = graph.tensors[name]
                refs[name] = b.input(name, t.shape, _dtype_name(t.dtype))
            for t in graph.tensors.values():
                if t.kind == "static":
                    refs[t.name] = b.constant(t.name, np.asarray(t.data, t.dtype), _dtype_name(t.dtype))
            self.observed = []
            for op in graph.ops:
                outs = [(o, graph.tensors[o].shape, _dtype_name(graph.tensors[o].dtype)) for o in op.outputs]
                params = {p.name: (np.asarray(p.value, p.dtype) if p.kind != "scalar" else p.value) for p in op.params}
                made = b.op(op.type, [refs[i] for i in op.inputs], outs, params=params, name=op.name, graph_output=True)
                for o, r in zip(op.outputs, made if isinstance(made, list) else [made]):
                    refs[o] = r
                    if graph.tensors[o].dtype == np.float32:
                        self.observed.append(o)
            self._graph = b.finalize()
        except Exception:
            self.close()
            raise

    def run(self, feeds, observe):
        for name, v in feeds.items():
            observe(name, v)
        out = self._graph.run({n: np.ascontiguousarray(v) for n, v in feeds.items()})
        for name in self.observed:
            observe(name, out[name])
        return {o: out[o] for o in self.g.outputs}

    def close(self):
        if self._backend is not None:
            self._backend.close()
            self._backend = None
