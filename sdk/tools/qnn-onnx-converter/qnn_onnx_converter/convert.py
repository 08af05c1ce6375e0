"""Drive the conversion: ONNX model -> QNN Graph."""
import numpy as np

from .errors import ConverterError
from .ir import Graph, qnn_dtype, tparam
from .layout import Ctx
from .ops import load_all


def unsupported(model):
    conv = load_all()
    return [n for n in model.nodes if n.op_type not in conv or (n.domain not in ("", "ai.onnx"))]


def convert(model, graph_name):
    conv = load_all()
    g = Graph(graph_name)
    ctx = Ctx(model, g)
    from .ir import sanitize
    g.reserved = {sanitize(o) for o in model.outputs}
    g.reserved_for = set(model.outputs)
    for name in model.inputs:
        if name not in model.shapes:
            raise ConverterError(f"input '{name}' has no static shape; pin it with --input_dim {name} DIMS")
        q = g.add_tensor(name, model.shapes[name], qnn_dtype(model.dtypes.get(name, np.float32)), "in")
        ctx.register(name, q, "plain")
        g.inputs.append(q)
    for n in model.nodes:
        fn = conv.get(n.op_type) if n.domain in ("", "ai.onnx") else None
        if fn is None:
            raise ConverterError(f"unsupported op {n.op_type} (node '{n.name}', domain '{n.domain or 'ai.onnx'}', opset {model.opset})")
        fn(ctx, n, {a.name: _attr(a) for a in n.attribute})
    for name in model.outputs:
        if ctx.is_const(name):
            raise ConverterError(f"output '{name}' is a constant; nothing to compute")
        q = ctx.get(name, "plain")
        if g.tensors[q].kind == "in" or q in g.outputs:
            src = q   # an input or an output already: copy through a Reshape
            q = g.add_tensor(name, g.tensors[src].shape, g.tensors[src].dtype, "native")
            g.add_op(q + "_copy", "Reshape", [src], [q])
        g.tensors[q].kind = "out"
        g.outputs.append(q)
    return g


def _attr(a):
    from onnx import helper
    return helper.get_attribute_value(a)
