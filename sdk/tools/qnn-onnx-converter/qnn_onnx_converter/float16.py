"""--float_bitwidth 16: the converted graph in half precision. Every float32 tensor inside the graph
becomes FLOAT_16 (static weights rounded to half, nearest even); graph inputs and outputs stay float32,
joined to the half-precision graph by Cast ops, so the raw input and output files are the same as the
float32 graph's (the converters' --preserve_io behaviour for data types)."""
import numpy as np

from .errors import ConverterError


def _is_float(t):
    return t.dtype == np.float32


def to_float16(graph):
    """Rewrites `graph` in place; returns the number of tensors made FLOAT_16."""
    inputs, outputs = set(graph.inputs), set(graph.outputs)
    if inputs & outputs:
        raise ConverterError("--float_bitwidth 16: a graph input that is also a graph output is not supported")
    half = np.dtype(np.float16)
    renamed = {}   # float32 graph input -> its FLOAT_16 copy
    casts_in = []
    for name in graph.inputs:
        t = graph.tensors[name]
        if not _is_float(t):
            continue
        copy = graph.add_tensor(name + "_fp16", t.shape, half, "native")
        renamed[name] = copy
        casts_in.append((name + "_to_fp16", [name], [copy]))
    count = len(renamed)
    for t in list(graph.tensors.values()):
        if not _is_float(t) or t.name in inputs or t.name in renamed.values():
            continue
        if t.name in outputs:
            continue   # handled below: the producer writes a FLOAT_16 copy
        t.dtype = half
        if t.data is not None:
            with np.errstate(over="ignore"):
                t.data = np.ascontiguousarray(t.data.astype(half))
        count += 1
    for op in graph.ops:
        op.inputs = [renamed.get(i, i) for i in op.inputs]
    casts_out = []
    for name in graph.outputs:
        t = graph.tensors[name]
        if not _is_float(t):
            continue
        copy = graph.add_tensor(name + "_fp16", t.shape, half, "native")
        for op in graph.ops:
            op.inputs = [copy if i == name else i for i in op.inputs]
            op.outputs = [copy if o == name else o for o in op.outputs]
        casts_out.append((name + "_from_fp16", [copy], [name]))
        count += 1
    # The casts: inputs' first, outputs' last, in graph order.
    head, tail = [], []
    for wanted, ins, outs in casts_in:
        graph.add_op(wanted, "Cast", ins, outs)
        head.append(graph.ops.pop())
    for wanted, ins, outs in casts_out:
        graph.add_op(wanted, "Cast", ins, outs)
        tail.append(graph.ops.pop())
    graph.ops = head + graph.ops + tail
    return count
