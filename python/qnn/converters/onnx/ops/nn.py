"""Gemm/MatMul, Softmax, LayerNormalization, Reduce*, ArgMax/ArgMin, TopK."""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar, tparam
from ..layout import nhwc_axis
from .compose import Decompose
from .decomposed import reduce_axes
from .runtime_params import AmbiguousAxes, reduce_candidates
from .elementwise import pick_layout
from .registry import converter


@converter("Gemm")
def gemm(ctx, node, a):
    alpha, beta = a.get("alpha", 1.0), a.get("beta", 1.0)
    if a.get("transA", 0) or not ctx.is_const(node.input[1]) or node.input[1] in ctx.updateable or (
            len(node.input) > 2 and node.input[2] and not ctx.is_const(node.input[2])):
        return gemm_matmul(ctx, node, a)
    b = ctx.const_value(node.input[1]).astype(np.float32)
    w = (b if a.get("transB", 0) else b.T) * alpha           # [N, K]
    n = w.shape[0]
    if len(node.input) > 2 and node.input[2]:
        c = ctx.const_value(node.input[2]).astype(np.float32) * beta
        if c.size not in (1, n) or (c.ndim == 2 and c.shape[0] != 1):
            raise ConverterError(f"node '{node.name}' (Gemm): C must broadcast as a row vector")
        bias = np.broadcast_to(c.reshape(-1), (n,))
    else:
        bias = np.zeros(n, np.float32)
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "FullyConnected",
                 [x, ctx.new_const(node.input[1] + "_fc", w), ctx.new_const(node.output[0] + "_bias", bias)], [y])


def gemm_matmul(ctx, node, a):
    """Gemm with transA, a non-constant B or C: alpha * MatMul(A, B) (transposes as MatMul params)
    + beta * C, broadcast."""
    if ctx.dtype(node.output[0]) != np.float32:
        raise ConverterError(f"node '{node.name}' (Gemm): only float tensors are supported")
    alpha, beta = a.get("alpha", 1.0), a.get("beta", 1.0)
    has_c = len(node.input) > 2 and node.input[2]
    d = Decompose(ctx, node)
    scaled = alpha != 1.0 or has_c
    y = d.op("MatMul", [d.input(0), d.input(1)], final=not scaled,
             params=[scalar("transpose_in0", np.bool_, bool(a.get("transA", 0))),
                     scalar("transpose_in1", np.bool_, bool(a.get("transB", 0)))])
    if alpha != 1.0:
        y = d.op("ElementWiseMultiply", [y, d.const(alpha)], final=not has_c)
    if has_c:
        c = d.input(2)
        if beta != 1.0:
            c = d.op("ElementWiseMultiply", [c, d.const(beta)], shape=ctx.shape(node.input[2]))
        d.op("ElementWiseAdd", [y, c], final=True)


@converter("MatMul")
def matmul(ctx, node, a):
    sa, sb = ctx.shape(node.input[0]), ctx.shape(node.input[1])
    y_shape = ctx.shape(node.output[0])
    # An updateable weight (--lora_weight_list) stays a MatMul input in its ONNX layout: an adapter's values
    # then go into it as the framework holds them.
    if ctx.is_const(node.input[1]) and len(sb) == 2 and len(sa) >= 2 and node.input[1] not in ctx.updateable:
        # FullyConnected with weights [N, K]; keep_dims keeps the leading dims of rank>2 inputs
        w = ctx.const_value(node.input[1]).astype(np.float32).T
        x = ctx.get(node.input[0], "plain")
        y = ctx.out(node.output[0], "plain")
        params = [scalar("keep_dims", np.bool_, True)] if len(sa) > 2 else []
        # A third input is the bias row patterns.fuse_matmul_bias folded in from the following Add.
        bias = ctx.const_value(node.input[2]).astype(np.float32).reshape(-1) if len(node.input) > 2 \
            else np.zeros(w.shape[0], np.float32)
        ctx.g.add_op(node.name or node.output[0], "FullyConnected",
                     [x, ctx.new_const(node.input[1] + "_fc", np.ascontiguousarray(w)),
                      ctx.new_const(node.output[0] + "_bias", bias)], [y], params)
        return
    if len(sa) < 2 or len(sb) < 2:
        raise ConverterError(f"node '{node.name}' (MatMul): rank-1 operands are not supported")
    y = ctx.out(node.output[0], "plain", shape=y_shape)
    ctx.g.add_op(node.name or node.output[0], "MatMul", [ctx.get(node.input[0], "plain"), ctx.get(node.input[1], "plain")], [y],
                 [scalar("transpose_in0", np.bool_, False), scalar("transpose_in1", np.bool_, False)])


@converter("Softmax", "LogSoftmax")
def softmax(ctx, node, a):
    rank = len(ctx.shape(node.input[0]))
    axis = a.get("axis", -1 if ctx.m.opset >= 13 else 1) % rank
    if ctx.m.opset < 13 and axis != rank - 1:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): opset<13 softmax over axis {axis} (2-D coercion) "
                             "is only supported for the last axis")
    lay = pick_layout(ctx, [node.input[0]], rank)
    x = ctx.get(node.input[0], lay)
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(node.name or node.output[0], node.op_type, [x], [y],
                 [scalar("axis", np.uint32, nhwc_axis(axis) if lay == "nhwc" else axis), scalar("beta", np.float32, 1.0)])


@converter("LayerNormalization")
def layernorm(ctx, node, a):
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    axis = a.get("axis", -1) % rank
    dynamic = any(k < len(node.input) and node.input[k] and not ctx.is_const(node.input[k]) for k in (1, 2))
    if (len(node.output) > 1 and any(node.output[1:])) or dynamic:
        return layernorm_decomposed(ctx, node, a, axis)
    norm_shape = shp[axis:]
    g = ctx.const_value(node.input[1]).astype(np.float32)
    b = ctx.const_value(node.input[2]).astype(np.float32) if len(node.input) > 2 and node.input[2] else np.zeros(norm_shape, np.float32)
    g = np.broadcast_to(g, norm_shape)
    b = np.broadcast_to(b, norm_shape)
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "LayerNorm",
                 [x, ctx.new_const(node.input[1] + "_gamma", g), ctx.new_const(node.output[0] + "_beta", b)], [y],
                 [scalar("epsilon", np.float32, a.get("epsilon", 1e-5)),
                  tparam("axes", np.uint32, list(range(axis, rank)))])


def layernorm_decomposed(ctx, node, a, axis):
    """LayerNormalization as ops, for its Mean and InvStdDev outputs or a non-constant scale/bias:
    Mean = mean(x), InvStdDev = 1/sqrt(mean((x-Mean)^2) + epsilon), Y = (x-Mean)*InvStdDev*scale + bias
    (reductions over axes axis..rank-1, kept)."""
    if ctx.dtype(node.input[0]) != np.float32:
        raise ConverterError(f"node '{node.name}' (LayerNormalization): only float tensors are supported")
    shp = ctx.shape(node.input[0])
    axes = list(range(axis, len(shp)))
    red = shp[:axis] + [1] * len(axes)
    d = Decompose(ctx, node)
    x = d.input(0)
    keep = [tparam("axes", np.uint32, axes), scalar("keep_dims", np.bool_, True)]
    wants = [k < len(node.output) and bool(node.output[k]) for k in range(3)]
    mean = (Decompose(ctx, node, 1).op("ReduceMean", [x], params=keep, final=True) if wants[1]
            else d.op("ReduceMean", [x], shape=red, params=keep))
    diff = d.op("ElementWiseSubtract", [x, mean], shape=shp)
    var = d.op("ReduceMean", [d.op("ElementWiseMultiply", [diff, diff], shape=shp)], shape=red, params=keep)
    shifted = d.op("ElementWiseAdd", [var, d.const(a.get("epsilon", 1e-5))], shape=red)
    inv = (Decompose(ctx, node, 2).op("ElementWiseRsqrt", [shifted], final=True) if wants[2]
           else d.op("ElementWiseRsqrt", [shifted], shape=red))
    if not wants[0]:
        return
    normed = d.op("ElementWiseMultiply", [diff, inv], shape=shp)
    has_bias = len(node.input) > 2 and node.input[2]
    scaled = d.op("ElementWiseMultiply", [normed, d.input(1)], shape=shp, final=not has_bias)
    if has_bias:
        d.op("ElementWiseAdd", [scaled, d.input(2)], final=True)


@converter("ReduceMean", "ReduceMax", "ReduceMin", "ReduceSum", "ReduceProd")
def reduce(ctx, node, a):
    rank = len(ctx.shape(node.input[0]))
    try:
        axes, keep = reduce_axes(ctx, node, a)
    except AmbiguousAxes as amb:
        return reduce_candidates(ctx, node, a, amb.candidates)
    if axes is None:  # noop_with_empty_axes without axes: the input as it is
        ctx.g.add_op(node.name or node.output[0], "Reshape", [ctx.get(node.input[0], "plain")],
                     [ctx.out(node.output[0], "plain")])
        return
    lay = pick_layout(ctx, [node.input[0]], rank) if keep else "plain"
    if lay == "nhwc":
        axes = sorted(nhwc_axis(v) for v in axes)
    x = ctx.get(node.input[0], lay)
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(node.name or node.output[0], node.op_type, [x], [y],
                 [tparam("axes", np.uint32, axes), scalar("keep_dims", np.bool_, keep)])


@converter("ArgMax", "ArgMin")
def argmax(ctx, node, a):
    rank = len(ctx.shape(node.input[0]))
    if a.get("select_last_index", 0):
        return argmax_last_index(ctx, node, a)
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain", dtype=np.int32)
    ctx.g.add_op(node.name or node.output[0], "Argmax" if node.op_type == "ArgMax" else "Argmin", [x], [y],
                 [scalar("axis", np.uint32, a.get("axis", 0) % rank), scalar("keep_dims", np.bool_, bool(a.get("keepdims", 1)))])


def argmax_last_index(ctx, node, a):
    """select_last_index=1: the first extreme of the input reversed along the axis (StridedSlice
    with stride -1), counted back from the end: (len - 1) - index."""
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    axis = a.get("axis", 0) % rank
    ranges = [[0, dim, 1] for dim in shp]
    ranges[axis] = [shp[axis] - 1, -1, -1]
    d = Decompose(ctx, node)
    rev = d.op("StridedSlice", [d.input(0)], shape=shp, dtype=ctx.dtype(node.input[0]),
               params=[tparam("ranges", np.int32, ranges), scalar("begin_mask", np.uint32, 0),
                       scalar("end_mask", np.uint32, 1 << axis), scalar("shrink_axes", np.uint32, 0),
                       scalar("new_axes_mask", np.uint32, 0)])
    idx = d.op("Argmax" if node.op_type == "ArgMax" else "Argmin", [rev], dtype=np.int32,
               params=[scalar("axis", np.uint32, axis), scalar("keep_dims", np.bool_, bool(a.get("keepdims", 1)))])
    d.op("ElementWiseSubtract", [d.const(shp[axis] - 1, np.int32), idx], dtype=np.int32, final=True)


@converter("TopK")
def topk(ctx, node, a):
    """QNN TopK takes the k largest along the last axis: another axis goes through Transposes, the k
    smallest through negation (ties keep the lower index either way)."""
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    axis = a.get("axis", -1) % rank
    if len(node.input) > 1:
        # k computed at run time is the outputs' static length along the axis
        k = (int(ctx.const_value(node.input[1]).reshape(-1)[0]) if ctx.is_const(node.input[1])
             else ctx.shape(node.output[0])[axis])
    else:
        k = int(a["k"])
    largest = bool(a.get("largest", 1))
    if axis == rank - 1 and largest:
        x = ctx.get(node.input[0], "plain")
        outs = [ctx.out(node.output[0], "plain"), ctx.out(node.output[1], "plain", dtype=np.int32)]
        ctx.g.add_op(node.name or node.output[0], "TopK", [x], outs, [scalar("k", np.uint32, k)])
        return
    dt = ctx.dtype(node.output[0])
    d = Decompose(ctx, node)
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]   # its own inverse
    moved = [shp[p] for p in perm]
    x = d.input(0)
    if axis != rank - 1:
        x = d.op("Transpose", [x], shape=moved, dtype=dt, params=[tparam("perm", np.uint32, perm)])
    if not largest:
        x = d.op("ElementWiseNeg", [x], shape=moved, dtype=dt)
    top_shape = moved[:-1] + [k]
    vals = ctx.g.add_tensor(d.base + "_values", top_shape, dt, "native")
    idx = ctx.g.add_tensor(d.base + "_indices", top_shape, np.int32, "native")
    ctx.g.add_op(d.base + "_topk", "TopK", [x], [vals, idx], [scalar("k", np.uint32, k)])
    if not largest:
        vals = d.op("ElementWiseNeg", [vals], shape=top_shape, dtype=dt)
    for out_index, (t, t_dt) in enumerate(((vals, dt), (idx, np.int32))):
        if out_index >= len(node.output) or not node.output[out_index]:
            continue
        y = ctx.out(node.output[out_index], "plain", dtype=t_dt)
        if axis != rank - 1:
            ctx.g.add_op(y + "_transpose", "Transpose", [t], [y], [tparam("perm", np.uint32, perm)])
        else:
            ctx.g.add_op(y + "_copy", "Reshape", [t], [y])


@converter("Hardmax")
def hardmax(ctx, node, a):
    """1 where the first maximum along the axis is, else 0: Argmax (keep_dims) compared with a constant
    index ramp along the axis. Before opset 13 the input is read as 2-D [prod(:axis), prod(axis:)]."""
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    dt = ctx.dtype(node.output[0])
    d = Decompose(ctx, node)
    x = d.input(0)
    if ctx.m.opset < 13:
        axis = a.get("axis", 1) % rank
        work = [int(np.prod(shp[:axis])), int(np.prod(shp[axis:]))]
        x = d.op("Reshape", [x], shape=work, dtype=dt)
        axis = 1
    else:
        axis = a.get("axis", -1) % rank
        work = shp
    kept = list(work)
    kept[axis] = 1
    idx = d.op("Argmax", [x], shape=kept, dtype=np.int32,
               params=[scalar("axis", np.uint32, axis), scalar("keep_dims", np.bool_, True)])
    ramp_shape = [1] * len(work)
    ramp_shape[axis] = work[axis]
    ramp = d.const(np.arange(work[axis], dtype=np.int32).reshape(ramp_shape), np.int32)
    hit = d.op("ElementWiseEqual", [ramp, idx], shape=work, dtype=np.bool_)
    if work is shp:
        d.op("ElementWiseSelect", [hit, d.const(1, dt), d.const(0, dt)], dtype=dt, final=True)
    else:
        sel = d.op("ElementWiseSelect", [hit, d.const(1, dt), d.const(0, dt)], shape=work, dtype=dt)
        d.op("Reshape", [sel], dtype=dt, final=True)


