"""--float_bitwidth 16: the converted graph in half precision. Every float32 tensor inside the graph
becomes FLOAT_16 (static weights rounded to half, nearest even); graph inputs and outputs stay float32,
joined to the half-precision graph by Cast ops, so the raw input and output files are the same as the
float32 graph's (the converters' --preserve_io behaviour for data types)."""
import numpy as np

from qnn.errors import ConverterError


def _is_float(t):
    return t.dtype == np.float32


def _cast(graph, wanted, src, dst):
    """A Cast op src -> dst, made by the graph's naming but not yet placed in its op list."""
    graph.add_op(wanted, "Cast", [src], [dst])
    return graph.ops.pop()


def to_float16(graph):
    """Rewrites `graph` in place; returns the number of tensors made FLOAT_16."""
    inputs, outputs = set(graph.inputs), set(graph.outputs)
    if inputs & outputs:
        raise ConverterError("--float_bitwidth 16: a graph input that is also a graph output is not supported")
    half = np.dtype(np.float16)
    inside = [t for t in graph.tensors.values() if _is_float(t) and t.name not in inputs | outputs]
    for t in inside:
        t.dtype = half
        if t.data is not None:
            with np.errstate(over="ignore"):
                t.data = np.ascontiguousarray(t.data.astype(half))
    # Each float32 graph input / output meets the graph through a FLOAT_16 copy and a Cast.
    head, tail = [], []
    for name in graph.inputs + graph.outputs:
        t = graph.tensors[name]
        if not _is_float(t):
            continue
        copy = graph.add_tensor(name + "_fp16", t.shape, half, "native")
        for op in graph.ops:
            op.inputs = [copy if i == name else i for i in op.inputs]
            op.outputs = [copy if o == name else o for o in op.outputs]
        if name in inputs:
            head.append(_cast(graph, name + "_to_fp16", name, copy))
        else:
            tail.append(_cast(graph, name + "_from_fp16", copy, name))
    graph.ops = head + graph.ops + tail
    return len(inside) + len(head) + len(tail)
