"""OpenQNN from Python: load a QNN backend library, load a context binary or build graphs, run them on
numpy arrays.

    import qnn
    with qnn.Backend("build/lib/x86_64-linux-clang/libQnnCpu.so") as backend:
        with backend.load_context("model.bin") as ctx:
            graph = ctx.graphs["model"]
            out = graph.run({"input": x})          # {"output": ndarray}

        with backend.context() as ctx:             # a graph built here, checked against the op definitions
            g = ctx.graph("net")
            x = g.input("x", (1, 8, 8, 3))
            y = g.op("Conv2d", [x, g.constant("w", w), g.constant("b", b)], [("y", (1, 8, 8, 4), "FLOAT_32")],
                     params={"stride": [1, 1], "pad_amount": [[1, 1], [1, 1]]}, graph_output=True)
            g.finalize().run({"x": data})
            ctx.save("net.bin")                    # a context binary qnn-net-run --retrieve_context runs

        with backend.load_context("model.bin", enable_graphs=["model"]) as ctx:  # context configs
            graph = ctx.graphs["model"]
            x_mem, y_mem = graph.register("input"), graph.register("output")  # QnnMem_register (memfd)
            x_mem.array[...] = x
            graph.run({"input": x_mem}, outputs={"output": y_mem})           # in place: y_mem.array

Pure Python (ctypes + numpy): it works with any of the SDK's backend libraries (and the vendor's, which
share the ABI). The struct layouts in _abi.py are checked against the headers' ABI facts by the tests.
Errors of the C API raise QnnError with the call, the error code and the backend's message; bad
inputs raise ValueError / TypeError before anything reaches the backend.
"""
from ._build import GraphBuilder, TensorRef
from ._core import Backend, Context, Graph, ProfileEvent, QnnError, TensorInfo
from ._dlc import Dlc
from ._memory import RegisteredTensor, SharedBuffer

__all__ = ["Backend", "Context", "Dlc", "Graph", "GraphBuilder", "ProfileEvent", "QnnError", "RegisteredTensor",
           "SharedBuffer", "TensorInfo", "TensorRef"]
