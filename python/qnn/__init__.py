"""OpenQNN from Python: load a QNN backend library, load a context binary, run its graphs on numpy arrays.

    import qnn
    with qnn.Backend("build/backends/cpu/libQnnCpu.so") as backend:
        with backend.load_context("model.bin") as ctx:
            graph = ctx.graphs["model"]
            out = graph.run({"input": x})          # {"output": ndarray}

Pure Python (ctypes + numpy): it works with any of the SDK's backend libraries (and the vendor's, which
share the ABI). The struct layouts in _abi.py are checked against the headers' ABI facts by the tests.
Errors of the C API raise QnnError with the call, the error code and the backend's message; bad
inputs raise ValueError / TypeError before anything reaches the backend.
"""
from ._core import Backend, Context, Graph, QnnError, TensorInfo

__all__ = ["Backend", "Context", "Graph", "QnnError", "TensorInfo"]
