"""Drive the conversion: ONNX model -> QNN Graph."""
import numpy as np

from qnn.errors import ConverterError
from .io_layout import NCHW_TO_NHWC, IoLayout
from qnn.ir import Graph, qnn_dtype, tparam
from .layout import Ctx, _Exact
from .ops import load_all


def _converter_of(conv, node):
    """The converter of an ONNX node: ONNX's own ops by type, other domains' ops (com.microsoft) as domain.type."""
    if node.domain in ("", "ai.onnx"):
        return conv.get(node.op_type)
    return conv.get(f"{node.domain}.{node.op_type}")


def unsupported(model, custom_ops=None):
    conv = load_all()
    custom_ops = custom_ops or {}
    return [n for n in model.nodes if n.op_type not in custom_ops and _converter_of(conv, n) is None]


def convert(model, graph_name, io=None, custom_ops=None, packages=None, op_set=None, updateable=()):
    """io: IoLayout choosing graph input/output layouts (default: the vendor's, NHWC for rank-4).
    custom_ops: {op type: custom_ops.OpDef} of --op_package_config (their packages in `packages`).
    op_set: (major, minor) of --target_op_set; None keeps to the ops API 2.32-era backends run.
    updateable: ONNX constant names (--lora_weight_list) whose static tensors become UPDATEABLE_STATIC."""
    conv = load_all()
    io = io or IoLayout()
    io.check_names(model.inputs, model.outputs)
    g = Graph(graph_name)
    ctx = Ctx(model, g, io)
    ctx.op_set = tuple(op_set) if op_set else (0, 0)
    for name in updateable:
        if name not in model.consts:
            raise ConverterError(f"--lora_weight_list: '{name}' is not a constant (initializer) of the model")
    ctx.updateable = set(updateable)
    from qnn.ir import sanitize
    g.reserved = {sanitize(o) for o in model.outputs}
    g.reserved_for = set(model.outputs)
    for name in model.inputs:
        if name in model.dynamic_inputs:
            continue   # created by nobody: a converter needing it fails with the --input_dim hint
        if name not in model.shapes:
            raise ConverterError(f"input '{name}' has no static shape; pin it with --input_dim {name} DIMS")
        shape = model.shapes[name]
        perm = io.input_perm(name, len(shape))
        # A scalar (rank-0) input is one value in a rank-1 tensor: QNN tensors have rank >= 1.
        dims = [shape[p] for p in perm] if shape else [1]
        q = g.add_tensor(name, dims, qnn_dtype(model.dtypes.get(name, np.float32)), "in")
        g.inputs.append(q)
        g.axis_format[q] = io.input_format(name, perm)
        if perm == NCHW_TO_NHWC:
            ctx.register(name, q, "nhwc")
        elif perm == list(range(len(shape))):
            ctx.register(name, q, "plain")
        else:  # graph input in NCHW for a source tensor in NHWC: one Transpose back to ONNX order
            plain = g.add_tensor(name + "_onnx_order", shape, g.tensors[q].dtype, "native")
            g.add_op(plain + "_transpose", "Transpose", [q], [plain], [tparam("perm", np.uint32, _inverse(perm))])
            ctx.register(name, plain, "plain")
    custom_ops = custom_ops or {}
    g.op_packages = {}
    for n in model.nodes:
        if n.op_type in custom_ops:
            from .custom_ops import convert_node
            op = custom_ops[n.op_type]
            convert_node(ctx, n, {a.name: _attr(a) for a in n.attribute}, op)
            g.op_packages[op.package] = (packages or {})[op.package]
            continue
        fn = _converter_of(conv, n)
        if fn is None:
            raise ConverterError(f"unsupported op {n.op_type} (node '{n.name}', domain '{n.domain or 'ai.onnx'}', opset {model.opset})")
        fn(ctx, n, {a.name: _attr(a) for a in n.attribute})
    for name in model.outputs:
        # A constant output (folded at conversion) is copied from a static tensor.
        computed = next(iter(ctx.map.get(name, {})), "plain")   # the layout its producer wrote
        perm = io.output_perm(name, len(ctx.shape(name)), computed == "nhwc")
        if perm == NCHW_TO_NHWC:
            q = ctx.get(name, "nhwc")
        else:
            q = ctx.get(name, "plain")
            if perm != list(range(len(perm))):
                src = q
                q = g.add_tensor(name, [g.tensors[src].shape[p] for p in perm], g.tensors[src].dtype, "native")
                g.add_op(q + "_transpose", "Transpose", [src], [q], [tparam("perm", np.uint32, perm)])
        # An input, a constant, an output already, or another tensor's QNN tensor (an Identity's output):
        # copied through a Reshape into a tensor of the output's own name.
        if g.tensors[q].kind in ("in", "static") or q in g.outputs or (name in g.reserved_for and q != sanitize(name)):
            src = q
            # A scalar keeps rank 0 at the output (its static source holds it in rank 1).
            shape = [] if ctx.shape(name) == [] else g.tensors[src].shape
            q = g.add_tensor(_Exact(name), shape, g.tensors[src].dtype, "native")
            g.add_op(q + "_copy", "Reshape", [src], [q])
        g.tensors[q].kind = "out"
        g.outputs.append(q)
        g.axis_format[q] = io.output_format(perm)
    _mark_updateable(ctx, updateable)
    g.onnx_map = ctx.map   # ONNX tensor -> its QNN tensors by layout (quantization finds encodings by ONNX name)
    return g


def _mark_updateable(ctx, names):
    """The static tensors of --lora_weight_list's constants become updateable; each must be used as it is."""
    for name in names:
        made = [q for (src, _, _), q in ctx.cache.items() if src == name]
        if not made:
            raise ConverterError(f"--lora_weight_list: constant '{name}' is not an op input of the converted graph "
                                 "(unused, or folded into another constant)")
        if len(made) > 1:
            raise ConverterError(f"--lora_weight_list: constant '{name}' is used in {len(made)} layouts or types; "
                                 "an updateable tensor must have one")
        ctx.g.tensors[made[0]].updateable = True


def _inverse(perm):
    return [perm.index(i) for i in range(len(perm))]


def _attr(a):
    from onnx import helper
    return helper.get_attribute_value(a)
