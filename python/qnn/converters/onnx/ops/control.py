"""If as data flow: both branches are converted (their tensors renamed apart, constants folded, shapes
inferred with the outer tensors they read), and each output picks its branch's value with Where on the
run-time condition. A constant condition converts only the branch it takes. A QNN graph has no control
flow, so this costs both branches' work; their outputs must have the same shape."""
import numpy as np
import onnx
from onnx import helper, shape_inference

from qnn.errors import ConverterError, onnx_np_dtype
from .. import fold
from .registry import CONVERTERS, converter
from .expand import Expansion

_NP_TO_ONNX = {np.dtype(np.float32): onnx.TensorProto.FLOAT, np.dtype(np.int32): onnx.TensorProto.INT32,
               np.dtype(np.int64): onnx.TensorProto.INT64, np.dtype(np.bool_): onnx.TensorProto.BOOL,
               np.dtype(np.uint8): onnx.TensorProto.UINT8, np.dtype(np.int8): onnx.TensorProto.INT8}


def _branch(ctx, node, graph, tag):
    """The branch's nodes with its own tensors renamed; returns (nodes, output names after renaming)."""
    base = node.name or node.output[0]
    produced = {o for n in graph.node for o in n.output if o}
    rename = {t: f"{base}__{tag}__{t}" for t in produced}
    nodes = []
    for n in graph.node:
        if any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for a in n.attribute):
            raise ConverterError(f"node '{node.name}' (If): nested subgraphs in a branch are not supported")
        nodes.append(helper.make_node(n.op_type, [rename.get(i, i) for i in n.input], [rename[o] for o in n.output],
                                      name=rename[n.output[0]] if n.output else "", domain=n.domain,
                                      **{a.name: helper.get_attribute_value(a) for a in n.attribute}))
    outs = [rename.get(o.name, o.name) for o in graph.output]
    return nodes, outs


def _infer_branch(ctx, node, nodes, outs):
    """Shapes and dtypes of the branch tensors, by ONNX shape inference over the branch with the outer
    tensors it reads declared as inputs (constants as initializers)."""
    produced = {o for n in nodes for o in n.output}
    outer = sorted({i for n in nodes for i in n.input if i and i not in produced})
    inputs, inits = [], []
    for t in outer:
        if ctx.is_const(t):
            inits.append(onnx.numpy_helper.from_array(np.asarray(ctx.const_value(t)), t))
        else:
            dt = _NP_TO_ONNX.get(np.dtype(ctx.m.dtypes.get(t, np.float32)), onnx.TensorProto.FLOAT)
            inputs.append(helper.make_tensor_value_info(t, dt, ctx.shape(t)))
    g = helper.make_graph(nodes, "branch", inputs, [helper.make_tensor_value_info(o, 0, None) for o in outs], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", ctx.m.opset)])
    try:
        m = shape_inference.infer_shapes(m, strict_mode=False, data_prop=True)
    except Exception as e:
        raise ConverterError(f"node '{node.name}' (If): shape inference of a branch failed: {str(e).splitlines()[0]}")
    for vi in list(m.graph.value_info) + list(m.graph.output):
        tt = vi.type.tensor_type
        dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
        if tt.HasField("shape") and all(d >= 0 for d in dims) and vi.name not in ctx.m.shapes:
            ctx.m.shapes[vi.name] = dims
            ctx.m.dtypes[vi.name] = onnx_np_dtype(tt.elem_type) if tt.elem_type else np.dtype(np.float32)


def _convert_branch(ctx, node, graph, tag):
    nodes, outs = _branch(ctx, node, graph, tag)
    remaining = fold.fold_constants(nodes, ctx.m)
    if remaining:
        _infer_branch(ctx, node, remaining, outs)
        for n in remaining:
            fn = CONVERTERS.get(n.op_type) if n.domain in ("", "ai.onnx") else None
            if fn is None:
                raise ConverterError(f"node '{node.name}' (If): unsupported op {n.op_type} in a branch")
            fn(ctx, n, {a.name: helper.get_attribute_value(a) for a in n.attribute})
    return outs


@converter("If")
def if_(ctx, node, a):
    cond = node.input[0]
    if ctx.is_const(cond):
        taken = "then_branch" if bool(np.asarray(ctx.const_value(cond)).reshape(-1)[0]) else "else_branch"
        outs = _convert_branch(ctx, node, a[taken], taken.split("_")[0])
        e = Expansion(ctx, node)
        for src, dst in zip(outs, node.output):
            e.add("Identity", [src], ctx.shape(dst), ctx.dtype(dst), out=dst)
        e.run()
        return
    then_outs = _convert_branch(ctx, node, a["then_branch"], "then")
    else_outs = _convert_branch(ctx, node, a["else_branch"], "else")
    e = Expansion(ctx, node)
    for t, f, dst in zip(then_outs, else_outs, node.output):
        if ctx.shape(t) != ctx.shape(f):
            raise ConverterError(f"node '{node.name}' (If): the branches give output '{dst}' different shapes "
                                 f"{ctx.shape(t)} and {ctx.shape(f)}")
        e.add("Where", [cond, t, f], ctx.shape(dst), ctx.dtype(dst), out=dst)
    e.run()
