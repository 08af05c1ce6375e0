"""Spatial ops in NHWC: Conv, ConvTranspose, MaxPool/AveragePool/Global*Pool, BatchNormalization, Resize."""
import numpy as np

from ..errors import ConverterError
from ..ir import scalar, tparam
from . import converter


def _spatial_pads(ctx, node, a, in_hw, k, s, d):
    """ONNX pads/auto_pad -> [[top, bottom], [left, right]]."""
    auto = a.get("auto_pad", b"NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else auto
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        pads = []
        for i in range(2):
            out = -(-in_hw[i] // s[i])
            total = max(0, (out - 1) * s[i] + (k[i] - 1) * d[i] + 1 - in_hw[i])
            lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
            pads.append([lo, total - lo])
        return pads
    if auto == "VALID":
        return [[0, 0], [0, 0]]
    p = list(a.get("pads", [0, 0, 0, 0]))
    if any(v < 0 for v in p):
        raise ConverterError(f"node '{node.name}': negative pads are not supported")
    return [[p[0], p[2]], [p[1], p[3]]]


def _need_2d(ctx, node):
    if len(ctx.shape(node.input[0])) != 4:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): only 2-D spatial (rank-4 NCHW) inputs are supported")


@converter("Conv")
def conv(ctx, node, a):
    _need_2d(ctx, node)
    if not ctx.is_const(node.input[1]):
        raise ConverterError(f"node '{node.name}' (Conv): non-constant weights are not supported")
    w = ctx.const_value(node.input[1]).astype(np.float32)   # [O, I/g, kh, kw]
    cout, _, kh, kw = w.shape
    cin = ctx.shape(node.input[0])[1]
    g = a.get("group", 1)
    s, d = list(a.get("strides", [1, 1])), list(a.get("dilations", [1, 1]))
    in_hw = ctx.shape(node.input[0])[2:]
    pads = _spatial_pads(ctx, node, a, in_hw, [kh, kw], s, d)
    bias = ctx.const_value(node.input[2]).astype(np.float32) if len(node.input) > 2 and node.input[2] else np.zeros(cout, np.float32)
    x = ctx.get(node.input[0], "nhwc")
    depthwise = g > 1 and g == cin and cout % g == 0
    wq = ctx.new_const(node.input[1] + ("_dw" if depthwise else "_hwio"), w.transpose(2, 3, 1, 0))
    bq = ctx.new_const((node.input[2] if len(node.input) > 2 and node.input[2] else node.output[0] + "_bias"), bias)
    y = ctx.out(node.output[0], "nhwc")
    params = [tparam("stride", np.uint32, s), tparam("pad_amount", np.uint32, pads), tparam("dilation", np.uint32, d)]
    if not depthwise:
        params.append(scalar("group", np.uint32, g))
    ctx.g.add_op(node.name or node.output[0], "DepthWiseConv2d" if depthwise else "Conv2d", [x, wq, bq], [y], params)


@converter("ConvTranspose")
def conv_transpose(ctx, node, a):
    _need_2d(ctx, node)
    if "output_shape" in a:
        raise ConverterError(f"node '{node.name}' (ConvTranspose): attribute output_shape is not supported; use pads")
    w = ctx.const_value(node.input[1]).astype(np.float32)   # [I, O/g, kh, kw]
    g = a.get("group", 1)
    cout = w.shape[1] * g
    s, d = list(a.get("strides", [1, 1])), list(a.get("dilations", [1, 1]))
    if d != [1, 1]:
        raise ConverterError(f"node '{node.name}' (ConvTranspose): dilations other than 1 are not supported")
    p = list(a.get("pads", [0, 0, 0, 0]))
    bias = ctx.const_value(node.input[2]).astype(np.float32) if len(node.input) > 2 and node.input[2] else np.zeros(cout, np.float32)
    x = ctx.get(node.input[0], "nhwc")
    wq = ctx.new_const(node.input[1] + "_hwio", w.transpose(2, 3, 0, 1))
    bq = ctx.new_const(node.output[0] + "_bias", bias)
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], "TransposeConv2d", [x, wq, bq], [y],
                 [tparam("stride", np.uint32, s), tparam("pad_amount", np.uint32, [[p[0], p[2]], [p[1], p[3]]]),
                  scalar("group", np.uint32, g),
                  tparam("output_padding", np.uint32, list(a.get("output_padding", [0, 0])))])


@converter("MaxPool", "AveragePool")
def pool(ctx, node, a):
    _need_2d(ctx, node)
    if len(node.output) > 1 and node.output[1]:
        raise ConverterError(f"node '{node.name}' (MaxPool): the Indices output is not supported")
    k = list(a["kernel_shape"])
    s = list(a.get("strides", [1, 1]))
    if list(a.get("dilations", [1, 1])) != [1, 1]:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): dilations are not supported")
    pads = _spatial_pads(ctx, node, a, ctx.shape(node.input[0])[2:], k, s, [1, 1])
    x = ctx.get(node.input[0], "nhwc")
    y = ctx.out(node.output[0], "nhwc")
    params = [tparam("filter_size", np.uint32, k), tparam("stride", np.uint32, s), tparam("pad_amount", np.uint32, pads)]
    if node.op_type == "AveragePool":
        params.append(scalar("count_pad_for_edges", np.bool_, bool(a.get("count_include_pad", 0))))
    params.append(scalar("rounding_mode", np.uint32, 1 if a.get("ceil_mode", 0) else 0))
    ctx.g.add_op(node.name or node.output[0], "PoolMax2d" if node.op_type == "MaxPool" else "PoolAvg2d", [x], [y], params)


@converter("GlobalAveragePool", "GlobalMaxPool")
def global_pool(ctx, node, a):
    _need_2d(ctx, node)
    x = ctx.get(node.input[0], "nhwc")
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], "ReduceMean" if node.op_type == "GlobalAveragePool" else "ReduceMax",
                 [x], [y], [tparam("axes", np.uint32, [1, 2]), scalar("keep_dims", np.bool_, True)])


@converter("BatchNormalization")
def batchnorm(ctx, node, a):
    if len(node.output) > 1 and any(node.output[1:]):
        raise ConverterError(f"node '{node.name}' (BatchNormalization): training mode outputs are not supported")
    s, b, mean, var = (ctx.const_value(i).astype(np.float64) for i in node.input[1:5])
    scale = s / np.sqrt(var + a.get("epsilon", 1e-5))
    shift = b - mean * scale
    rank = len(ctx.shape(node.input[0]))
    lay = "nhwc" if rank == 4 else "plain"
    if rank not in (2, 4):
        raise ConverterError(f"node '{node.name}' (BatchNormalization): rank-{rank} input is not supported")
    x = ctx.get(node.input[0], lay)
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(node.name or node.output[0], "Batchnorm",
                 [x, ctx.new_const(node.output[0] + "_bn_scale", scale), ctx.new_const(node.output[0] + "_bn_shift", shift)], [y])


_TRANSFORM = {"half_pixel": 0, "pytorch_half_pixel": 1, "align_corners": 2, "asymmetric": 3}
_NEAREST = {"round_prefer_floor": 0, "round_prefer_ceil": 1, "floor": 2, "ceil": 3}


def _s(v, default):
    v = v if v is not None else default
    return v.decode() if isinstance(v, bytes) else v


@converter("Resize", "Upsample")
def resize(ctx, node, a):
    _need_2d(ctx, node)
    mode = _s(a.get("mode"), "nearest")
    if mode not in ("nearest", "linear"):
        raise ConverterError(f"node '{node.name}' (Resize): mode '{mode}' is not supported")
    ctm = _s(a.get("coordinate_transformation_mode"), "half_pixel" if node.op_type == "Resize" else "asymmetric")
    if ctm not in _TRANSFORM:
        raise ConverterError(f"node '{node.name}' (Resize): coordinate_transformation_mode '{ctm}' is not supported")
    if node.op_type == "Upsample" and ctm == "asymmetric" and mode == "nearest":
        nm = "floor"
    else:
        nm = _s(a.get("nearest_mode"), "round_prefer_floor")
    x = ctx.get(node.input[0], "nhwc")
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], "Resize", [x], [y],
                 [scalar("exclude_outside", np.bool_, bool(a.get("exclude_outside", 0))),
                  scalar("transformation_mode", np.uint32, _TRANSFORM[ctm]),
                  scalar("interpolation_mode", np.uint32, 0 if mode == "nearest" else 1),
                  scalar("nearest_mode", np.uint32, _NEAREST.get(nm, 0))])
