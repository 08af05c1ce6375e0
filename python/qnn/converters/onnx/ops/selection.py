"""Ops whose results depend on the data: NonZero, Compress, NonMaxSuppression.

A QNN graph has static shapes, so these take the row count the model declares for their output (ONNX
shape inference or the model's own output shape): NonZero's [M, rank] QNN result is transposed to ONNX's
[rank, M]; Compress gathers the M indices NonZero finds in its condition; NonMaxSuppression runs QNN's
op with its thresholds as params (so they must be constants) and keeps the first M rows.
"""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar, tparam
from .registry import converter
from .expand import Expansion


@converter("NonZero")
def non_zero(ctx, node, a):
    shp = ctx.shape(node.input[0])
    if not shp:
        raise ConverterError(f"node '{node.name}' (NonZero): a rank-0 input is not supported")
    rank, m = ctx.shape(node.output[0])
    x = ctx.get(node.input[0], "plain")
    base = node.name or node.output[0]
    rows = ctx.g.add_tensor(base + "_rows", [m, rank], np.int32, "native")
    ctx.g.add_op(base, "NonZero", [x], [rows])
    y = ctx.out(node.output[0], "plain", dtype=np.int32)
    ctx.g.add_op(base + "_transpose", "Transpose", [rows], [y], [tparam("perm", np.uint32, [1, 0])])


@converter("Compress")
def compress(ctx, node, a):
    """Gather along `axis` (of the flattened input without one) at the true positions of the condition."""
    x, cond = node.input[0], node.input[1]
    shp = ctx.shape(x)
    out = ctx.shape(node.output[0])
    e = Expansion(ctx, node)
    i64 = lambda v: e.const(np.array(v, np.int64), np.int64)
    if "axis" in a:
        axis = a["axis"] % len(shp)
    else:
        flat = [int(np.prod(shp))]
        x = e.add("Reshape", [x, i64(flat)], flat, ctx.dtype(x))
        axis = 0
    m = out[axis]
    if ctx.is_const(cond):
        idx = e.const(np.nonzero(np.asarray(ctx.const_value(cond)).reshape(-1))[0].astype(np.int32), np.int32)
    else:
        pos = e.add("NonZero", [cond], [1, m], np.int32)
        idx = e.add("Reshape", [pos, i64([m])], [m], np.int32)
    e.add("Gather", [x, idx], out, ctx.dtype(node.input[0]), out=node.output[0], axis=axis)
    e.run()


def _const_scalar(ctx, node, idx, what, default):
    if len(node.input) <= idx or not node.input[idx]:
        return default
    name = node.input[idx]
    if not ctx.is_const(name):
        raise ConverterError(f"node '{node.name}' (NonMaxSuppression): {what} '{name}' is computed at run time; QNN's "
                             f"NonMaxSuppression takes it as a param, so it must be a constant")
    return np.asarray(ctx.const_value(name)).reshape(-1)[0].item()


@converter("NonMaxSuppression")
def non_max_suppression(ctx, node, a):
    """QNN NonMaxSuppression on (y1, x1, y2, x2) boxes; center_point_box = 1 boxes (xc, yc, w, h) are turned
    into corners first, or, with --target_op_set 2.13, passed as they are with op set 2.13's center_point_box
    param (CENTER_POINT 1). QNN writes batch * classes * max rows; the model's output keeps its first M."""
    max_boxes = int(_const_scalar(ctx, node, 2, "max_output_boxes_per_class", 0))
    iou = float(_const_scalar(ctx, node, 3, "iou_threshold", 0.0))
    score = _const_scalar(ctx, node, 4, "score_threshold", None)
    if max_boxes <= 0:
        raise ConverterError(f"node '{node.name}' (NonMaxSuppression): max_output_boxes_per_class is 0 (or absent), "
                             f"which selects nothing")
    b, n, _ = ctx.shape(node.input[0])
    classes = ctx.shape(node.input[1])[1]
    base = node.name or node.output[0]
    boxes = node.input[0]
    native_center = bool(a.get("center_point_box", 0)) and ctx.has_op_set(2, 13)
    if a.get("center_point_box", 0) and not native_center:
        e = Expansion(ctx, node)
        i64 = lambda v: e.const(np.array(v, np.int64), np.int64)
        part = lambda k: e.add("Slice", [boxes, i64([k]), i64([k + 1]), i64([2])], [b, n, 1], np.float32)
        xc, yc, w, h = (part(k) for k in range(4))
        half_w = e.add("Mul", [w, e.const(0.5)], [b, n, 1], np.float32)
        half_h = e.add("Mul", [h, e.const(0.5)], [b, n, 1], np.float32)
        corners = [e.add("Sub", [yc, half_h], [b, n, 1], np.float32), e.add("Sub", [xc, half_w], [b, n, 1], np.float32),
                   e.add("Add", [yc, half_h], [b, n, 1], np.float32), e.add("Add", [xc, half_w], [b, n, 1], np.float32)]
        boxes = e.add("Concat", corners, [b, n, 4], np.float32, axis=2)
        e.run()
    rows = b * classes * max_boxes
    m = ctx.shape(node.output[0])[0]
    if m > rows:
        raise ConverterError(f"node '{node.name}' (NonMaxSuppression): the output declares {m} rows, more than "
                             f"batch * classes * max_output_boxes_per_class = {rows}")
    params = [scalar("iou_threshold", np.float32, iou), scalar("max_boxes_selected", np.uint32, max_boxes)]
    if score is not None:
        params.append(scalar("score_threshold", np.float32, float(score)))
    if native_center:
        params.append(scalar("center_point_box", np.uint32, 1))
    ins = [ctx.get(boxes, "plain"), ctx.get(node.input[1], "plain")]
    if m == rows:
        ctx.g.add_op(base, "NonMaxSuppression", ins, [ctx.out(node.output[0], "plain", dtype=np.int32)], params)
        return
    full = ctx.g.add_tensor(base + "_all_rows", [rows, 3], np.int32, "native")
    ctx.g.add_op(base, "NonMaxSuppression", ins, [full], params)
    y = ctx.out(node.output[0], "plain", dtype=np.int32)
    ctx.g.add_op(base + "_first_rows", "StridedSlice", [full], [y],
                 [tparam("ranges", np.int32, [[0, m, 1], [0, 3, 1]])])
