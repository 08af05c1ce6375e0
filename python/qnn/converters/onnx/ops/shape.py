"""Data movement: Reshape/Flatten/Squeeze/Unsqueeze, Transpose, Concat, Split, Slice, Gather, Pad, Identity."""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar, tparam
from ..layout import nhwc_axis
from .elementwise import pick_layout
from .registry import converter
from .runtime_params import pad_runtime, slice_runtime


def _axis_for(lay, axis, rank):
    axis = axis % rank
    return nhwc_axis(axis) if lay == "nhwc" else axis


@converter("Reshape", "Flatten", "Squeeze", "Unsqueeze")
def reshape(ctx, node, a):
    # works on ONNX (NCHW) element order, so an NHWC input is transposed back first
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "Reshape", [x], [y])


@converter("Identity", "Dropout")
def identity(ctx, node, a):
    if len(node.output) > 1 and node.output[1]:
        # Inference: nothing is dropped, the mask is all true (ONNX Dropout with training_mode false).
        if len(node.input) > 2 and node.input[2] and (not ctx.is_const(node.input[2]) or
                                                      bool(ctx.const_value(node.input[2]).reshape(-1)[0])):
            raise ConverterError(f"node '{node.name}' (Dropout): training mode is not supported")
        ctx.m.consts[node.output[1]] = np.ones(ctx.shape(node.input[0]), np.bool_)
    if ctx.is_const(node.input[0]):
        ctx.m.consts[node.output[0]] = ctx.const_value(node.input[0])
        return
    if node.op_type == "Identity" and ctx.has_op_set(2, 13):   # op set 2.13's own op, in the input's layout
        layout = next(iter(ctx.map.get(node.input[0], {})), "plain")
        x = ctx.get(node.input[0], layout)
        ctx.g.add_op(node.name or node.output[0], "Identity", [x], [ctx.out(node.output[0], layout)])
        return
    ctx.alias(node.output[0], node.input[0])


@converter("Transpose")
def transpose(ctx, node, a):
    rank = len(ctx.shape(node.input[0]))
    perm = list(a.get("perm", list(range(rank))[::-1]))
    # A layout change the graph already has: NHWC data made NCHW is the same QNN tensor in the "nhwc"
    # layout (and back). Models from NHWC frameworks (TFLite, tf2onnx) wrap every conv in such a pair.
    if rank == 4 and not ctx.is_const(node.input[0]) and node.input[0] in ctx.map:
        have = ctx.map[node.input[0]]
        if perm == [0, 3, 1, 2] and "plain" in have:
            ctx.register(node.output[0], have["plain"], "nhwc")
            return
        if perm == [0, 2, 3, 1] and "nhwc" in have:
            ctx.register(node.output[0], have["nhwc"], "plain")
            return
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "Transpose", [x], [y], [tparam("perm", np.uint32, perm)])


@converter("Concat")
def concat(ctx, node, a):
    ins = [i for i in node.input if i and int(np.prod(ctx.shape(i))) > 0]
    rank = len(ctx.shape(node.output[0]))
    lay = pick_layout(ctx, ins, rank)
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(node.name or node.output[0], "Concat", [ctx.get(i, lay) for i in ins], [y],
                 [scalar("axis", np.uint32, _axis_for(lay, a["axis"], rank))])


@converter("Split")
def split(ctx, node, a):
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    axis = a.get("axis", 0) % rank
    if "split" in a:
        sizes = list(a["split"])
    elif len(node.input) > 1 and node.input[1] and ctx.is_const(node.input[1]):
        sizes = [int(v) for v in ctx.const_value(node.input[1])]
    else:   # equal parts, or sizes computed at run time: the outputs' static shapes give them
        sizes = [ctx.shape(o)[axis] for o in node.output]
    idx = list(np.cumsum(sizes)[:-1])
    lay = pick_layout(ctx, [node.input[0]], rank)
    x = ctx.get(node.input[0], lay)
    outs = [ctx.out(o, lay) for o in node.output]
    ctx.g.add_op(node.name or node.output[0], "Split", [x], outs,
                 [scalar("axis", np.uint32, _axis_for(lay, axis, rank)), tparam("split_index", np.uint32, idx)])


@converter("Slice")
def slice_(ctx, node, a):
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    if "starts" in a:
        starts, ends, axes, steps = a["starts"], a["ends"], a.get("axes"), None
    else:
        if any(i and not ctx.is_const(i) for i in node.input[1:5]):
            return slice_runtime(ctx, node)
        vals = []
        for k in range(1, 5):
            if len(node.input) > k and node.input[k]:
                vals.append([int(v) for v in ctx.const_value(node.input[k])])
            else:
                vals.append(None)
        starts, ends, axes, steps = vals
    axes = list(range(len(starts))) if axes is None else [int(v) % rank for v in axes]
    steps = [1] * len(starts) if steps is None else steps
    ranges = [[0, d, 1] for d in shp]
    end_mask = 0
    for s, e, ax, st in zip(starts, ends, axes, steps):
        d = shp[ax]
        s = max(0, min(d, s + d if s < 0 else s)) if st > 0 else max(-1, min(d - 1, s + d if s < 0 else s))
        if st > 0:
            e = max(0, min(d, e + d if e < 0 else e))
        else:
            e = e + d if e < 0 else min(e, d - 1)
            if e < 0:
                e, end_mask = -1, end_mask | (1 << ax)
        ranges[ax] = [s, e, st]
    lay = pick_layout(ctx, [node.input[0]], rank)
    if lay == "nhwc":
        ranges = [ranges[p] for p in (0, 2, 3, 1)]
        end_mask = sum(1 << nhwc_axis(ax) for ax in range(4) if end_mask & (1 << ax))
    x = ctx.get(node.input[0], lay)
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(node.name or node.output[0], "StridedSlice", [x], [y],
                 [tparam("ranges", np.int32, ranges), scalar("begin_mask", np.uint32, 0),
                  scalar("end_mask", np.uint32, end_mask), scalar("shrink_axes", np.uint32, 0),
                  scalar("new_axes_mask", np.uint32, 0)])


@converter("Gather")
def gather(ctx, node, a):
    shp = ctx.shape(node.input[0])
    axis = a.get("axis", 0) % len(shp)
    if ctx.is_const(node.input[1]):
        idx = ctx.const_value(node.input[1]).astype(np.int64)
        idx = np.where(idx < 0, idx + shp[axis], idx).astype(np.int32)
        qi = ctx.new_const(node.input[1], idx, np.int32)
    else:
        qi = ctx.get(node.input[1], "plain")
    x = ctx.get(node.input[0], "plain")
    if ctx.shape(node.input[1]) == []:
        # A scalar index is a [1] QNN tensor, so QNN's Gather keeps the axis (size 1): drop it with a Reshape.
        kept = list(shp)
        kept[axis] = 1
        g = ctx.g.add_tensor((node.name or node.output[0]) + "_kept_axis", kept, ctx.dtype(node.input[0]), "native")
        ctx.g.add_op(node.name or node.output[0], "Gather", [x, qi], [g], [scalar("axis", np.int32, axis)])
        ctx.g.add_op(g + "_reshape", "Reshape", [g], [ctx.out(node.output[0], "plain")])
        return
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "Gather", [x, qi], [y], [scalar("axis", np.int32, axis)])


@converter("GatherElements")
def gather_elements(ctx, node, a):
    shp = ctx.shape(node.input[0])
    axis = a.get("axis", 0) % len(shp)
    if ctx.is_const(node.input[1]):
        qi = ctx.new_const(node.input[1], ctx.const_value(node.input[1]).astype(np.int32), np.int32)
    else:
        qi = ctx.get(node.input[1], "plain")
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "GatherElements", [x, qi], [y], [scalar("axis", np.uint32, axis)])


_PAD_MODES = {"constant": 0, "reflect": 2, "edge": 3}


@converter("Pad")
def pad(ctx, node, a):
    rank = len(ctx.shape(node.input[0]))
    mode = a.get("mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    if "pads" in a:
        pads, value = list(a["pads"]), float(a.get("value", 0.0))
    else:
        if any(i and not ctx.is_const(i) for i in node.input[1:4]):
            return pad_runtime(ctx, node, mode)
        pads = [int(v) for v in ctx.const_value(node.input[1])]
        value = float(ctx.const_value(node.input[2]).reshape(-1)[0]) if len(node.input) > 2 and node.input[2] else 0.0
        if len(node.input) > 3 and node.input[3]:
            axes = [int(v) % rank for v in ctx.const_value(node.input[3])]
            full = [0] * (2 * rank)
            for k, ax in enumerate(axes):
                full[ax], full[ax + rank] = pads[k], pads[k + len(axes)]
            pads = full
    if mode not in _PAD_MODES:
        raise ConverterError(f"node '{node.name}' (Pad): mode '{mode}' is not supported")
    if any(p < 0 for p in pads):
        raise ConverterError(f"node '{node.name}' (Pad): negative pads are not supported")
    amount = [[pads[i], pads[i + rank]] for i in range(rank)]
    lay = pick_layout(ctx, [node.input[0]], rank)
    if lay == "nhwc":
        amount = [amount[p] for p in (0, 2, 3, 1)]
    x = ctx.get(node.input[0], lay)
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(node.name or node.output[0], "Pad", [x], [y],
                 [scalar("scheme", np.uint32, _PAD_MODES[mode]), tparam("pad_amount", np.uint32, amount),
                  scalar("pad_constant_value", np.float32, value)])


@converter("Tile")
def tile(ctx, node, a):
    """QNN Tile; repeats computed at run time are the output's static dims over the input's."""
    src, dst = ctx.shape(node.input[0]), ctx.shape(node.output[0])
    if ctx.is_const(node.input[1]):
        reps = [int(v) for v in ctx.const_value(node.input[1]).reshape(-1)]
    else:
        if any(v == 0 for v in src):
            raise ConverterError(f"node '{node.name}' (Tile): repeats computed at run time on an empty input")
        reps = [o // i for o, i in zip(dst, src)]
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "Tile", [x], [y], [tparam("multiples", np.uint32, reps)])


@converter("ConstantOfShape")
def constant_of_shape(ctx, node, a):
    """A constant of the output's static shape filled with `value` (float32 0 by default)."""
    from onnx import numpy_helper
    value = numpy_helper.to_array(a["value"]).reshape(-1) if "value" in a else np.zeros(1, np.float32)
    ctx.m.consts[node.output[0]] = np.full(ctx.shape(node.output[0]), value[0], dtype=value.dtype)
