"""Indexing and rearranging ops: DepthToSpace, SpaceToDepth, ScatterElements (and the older Scatter),
ScatterND, GatherND, OneHot, LRN, GridSample, RoiAlign, MaxUnpool, ReverseSequence.

QNN's DepthToSpace/SpaceToDepth work on NHWC; the scatters, gathers and OneHot on plain-layout tensors
with int32 indices (ONNX int64 indices are narrowed; negative indices are resolved by the kernels, or
here for OneHot, whose QNN op leaves them off).
"""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar, tparam
from .registry import converter
from .compose import Decompose


def _mode(a, default):
    v = a.get("mode", default)
    return v.decode() if isinstance(v, bytes) else v


def _indices(ctx, name):
    """An int32 QNN tensor of ONNX indices (a constant is narrowed here, a graph tensor by the graph's dtype)."""
    if ctx.is_const(name):
        return ctx.new_const(name, ctx.const_value(name).astype(np.int64).astype(np.int32), np.int32)
    if ctx.dtype(name) not in (np.int32, np.uint32):
        raise ConverterError(f"indices '{name}' must be an integer tensor")
    return ctx.get(name, "plain")


@converter("DepthToSpace", "SpaceToDepth")
def depth_space(ctx, node, a):
    if len(ctx.shape(node.input[0])) != 4:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): needs a rank-4 NCHW input")
    b = int(a["blocksize"])
    params = [tparam("block_size", np.uint32, [b, b])]
    if node.op_type == "DepthToSpace":
        mode = _mode(a, "DCR")
        if mode not in ("DCR", "CRD"):
            raise ConverterError(f"node '{node.name}' (DepthToSpace): mode '{mode}' is not DCR or CRD")
        params.append(scalar("mode", np.uint32, 0 if mode == "DCR" else 1))
    x = ctx.get(node.input[0], "nhwc")
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], node.op_type, [x], [y], params)


_REDUCTIONS = {"none": 0, "add": 1, "mul": 2, "max": 3}


def _reduction(node, a, allowed):
    r = a.get("reduction", b"none")
    r = r.decode() if isinstance(r, bytes) else r
    if r not in allowed:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): reduction '{r}' is not supported")
    return _REDUCTIONS[r]


@converter("ScatterElements", "Scatter")
def scatter_elements(ctx, node, a):
    rank = len(ctx.shape(node.input[0]))
    red = _reduction(node, a, ("none", "add", "mul", "max"))
    x = ctx.get(node.input[0], "plain")
    u = ctx.get(node.input[2], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "ScatterElements", [x, _indices(ctx, node.input[1]), u], [y],
                 [scalar("axis", np.uint32, a.get("axis", 0) % rank), scalar("reduction", np.uint32, red)])


@converter("ScatterND")
def scatter_nd(ctx, node, a):
    red = _reduction(node, a, ("none", "add", "mul"))
    x = ctx.get(node.input[0], "plain")
    u = ctx.get(node.input[2], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "ScatterNd", [x, _indices(ctx, node.input[1]), u], [y],
                 [scalar("reduction", np.uint32, red)])


@converter("GatherND")
def gather_nd(ctx, node, a):
    x = ctx.get(node.input[0], "plain")
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(node.name or node.output[0], "GatherNd", [x, _indices(ctx, node.input[1])], [y],
                 [scalar("batch_dims", np.uint32, int(a.get("batch_dims", 0)))])


@converter("OneHot")
def one_hot(ctx, node, a):
    """QNN OneHot (on 1 / off 0 as bool) then a Select between the off and on values. depth is the output's
    dim at the axis (the model's shapes give it even when the depth input is computed); negative indices
    count from the end (index + depth where index < 0), as ONNX defines."""
    out_shape = ctx.shape(node.output[0])
    axis = a.get("axis", -1) % len(out_shape)
    depth = out_shape[axis]
    dt = ctx.dtype(node.output[0])
    in_shape = ctx.shape(node.input[0])
    d = Decompose(ctx, node)
    if not ctx.is_const(node.input[0]) and ctx.dtype(node.input[0]) == np.float32:
        # ONNX takes any numeric indices and casts them to integers (truncating)
        idx = d.op("Cast", [ctx.get(node.input[0], "plain")], shape=in_shape, dtype=np.int32)
    else:
        idx = _indices(ctx, node.input[0])
    neg = d.op("ElementWiseLess", [idx, d.const(0, np.int32)], shape=in_shape, dtype=np.bool_)
    wrapped = d.op("ElementWiseAdd", [idx, d.const(depth, np.int32)], shape=in_shape, dtype=np.int32)
    idx = d.op("ElementWiseSelect", [neg, wrapped, idx], shape=in_shape, dtype=np.int32)
    hot = d.op("OneHot", [idx], shape=out_shape, dtype=np.bool_,
               params=[scalar("depth", np.uint32, depth), scalar("axis", np.uint32, axis),
                       scalar("on_value", np.bool_, True), scalar("off_value", np.bool_, False)])
    values = node.input[2]
    if ctx.is_const(values):
        off, on = (d.const(v, dt) for v in ctx.const_value(values).reshape(-1)[:2].astype(dt))
    else:
        v = ctx.get(values, "plain")
        off, on = (d.op("StridedSlice", [v], shape=[1], dtype=dt,
                        params=[tparam("ranges", np.int32, [[k, k + 1, 1]]), scalar("begin_mask", np.uint32, 0),
                                scalar("end_mask", np.uint32, 0), scalar("shrink_axes", np.uint32, 0),
                                scalar("new_axes_mask", np.uint32, 0)]) for k in (0, 1))
    d.op("ElementWiseSelect", [hot, on, off], dtype=dt, final=True)


@converter("LRN")
def lrn(ctx, node, a):
    """QNN Lrn across channels (channels last: NHWC for rank 4). ONNX divides alpha by the window size and
    centres an odd window; an even size has an asymmetric window QNN's radius cannot express."""
    size = int(a["size"])
    if size % 2 == 0:
        raise ConverterError(f"node '{node.name}' (LRN): an even size ({size}) is not supported")
    if len(ctx.shape(node.input[0])) != 4:
        raise ConverterError(f"node '{node.name}' (LRN): needs a rank-4 NCHW input")
    x = ctx.get(node.input[0], "nhwc")
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], "Lrn", [x], [y],
                 [scalar("alpha", np.float32, a.get("alpha", 1e-4) / size), scalar("beta", np.float32, a.get("beta", 0.75)),
                  scalar("bias", np.float32, a.get("bias", 1.0)), scalar("radius", np.int32, (size - 1) // 2),
                  scalar("region", np.uint32, 0)])


_GRID_MODES = {"bilinear": 0, "linear": 0, "nearest": 1}
_GRID_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


@converter("GridSample")
def grid_sample(ctx, node, a):
    """QNN GridSample (NHWC input, grid [N, Ho, Wo, 2] as ONNX has it): bilinear and nearest."""
    if len(ctx.shape(node.input[0])) != 4:
        raise ConverterError(f"node '{node.name}' (GridSample): needs a rank-4 NCHW input")
    mode = _mode(a, "bilinear")
    pad = a.get("padding_mode", b"zeros")
    pad = pad.decode() if isinstance(pad, bytes) else pad
    if mode not in _GRID_MODES:
        raise ConverterError(f"node '{node.name}' (GridSample): mode '{mode}' is not supported")
    if pad not in _GRID_PADDING:
        raise ConverterError(f"node '{node.name}' (GridSample): padding_mode '{pad}' is not supported")
    x = ctx.get(node.input[0], "nhwc")
    grid = ctx.get(node.input[1], "plain")
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], "GridSample", [x, grid], [y],
                 [scalar("align_corners", np.bool_, bool(a.get("align_corners", 0))),
                  scalar("mode", np.uint32, _GRID_MODES[mode]), scalar("padding_mode", np.uint32, _GRID_PADDING[pad])])


@converter("RoiAlign")
def roi_align(ctx, node, a):
    """QNN RoiAlign (NHWC map, the bins from the output's shape): spatial_scale is the inverse of QNN's
    image-to-map img_size_ratio, sampling_ratio 0 its adaptive -1, half_pixel its `aligned`."""
    if _mode(a, "avg") != "avg":
        raise ConverterError(f"node '{node.name}' (RoiAlign): mode 'max' is not supported (QNN RoiAlign averages)")
    ctm = a.get("coordinate_transformation_mode", b"half_pixel")
    ctm = ctm.decode() if isinstance(ctm, bytes) else ctm
    if ctm not in ("half_pixel", "output_half_pixel"):
        raise ConverterError(f"node '{node.name}' (RoiAlign): coordinate_transformation_mode '{ctm}' is not supported")
    scale = float(a.get("spatial_scale", 1.0))
    if not scale > 0:
        raise ConverterError(f"node '{node.name}' (RoiAlign): spatial_scale must be > 0")
    samples = int(a.get("sampling_ratio", 0))
    x = ctx.get(node.input[0], "nhwc")
    rois = ctx.get(node.input[1], "plain")
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], "RoiAlign", [x, rois, _indices(ctx, node.input[2])], [y],
                 [tparam("img_size_ratio", np.float32, [1.0 / scale, 1.0 / scale]),
                  scalar("num_samples_y", np.int32, samples if samples > 0 else -1),
                  scalar("num_samples_x", np.int32, samples if samples > 0 else -1),
                  scalar("aligned", np.bool_, ctm == "half_pixel")])


@converter("MaxUnpool")
def max_unpool(ctx, node, a):
    """Zeros of the output's static shape with X scattered at MaxPool's flat indices (over the whole
    tensor): ScatterElements on the flattened tensors, reshaped back."""
    from .expand import Expansion
    e = Expansion(ctx, node)
    out_shape = ctx.shape(node.output[0])
    in_shape = ctx.shape(node.input[0])
    total = int(np.prod(out_shape))
    n = int(np.prod(in_shape))
    flat = lambda t, dt: e.add("Reshape", [t, e.const(np.array([n], np.int64), np.int64)], [n], dt)
    idx = flat(node.input[1], np.int32)
    # The indices count positions of MaxPool's input, the default output shape
    # ((in - 1) * stride - pads + kernel); a larger output_shape keeps each (row, column).
    k = list(a["kernel_shape"])
    strides = list(a.get("strides", [1] * len(k)))
    pads = list(a.get("pads", [0] * 2 * len(k)))
    default = [(i - 1) * s + kk - pads[d] - pads[d + len(k)] for d, (i, s, kk) in enumerate(zip(in_shape[2:], strides, k))]
    if list(out_shape[2:]) != default:
        if len(k) != 2:
            raise ConverterError(f"node '{node.name}' (MaxUnpool): output_shape other than the default is supported "
                                 f"for 2-D pooling only")
        (hd, wd), (ho, wo) = default, out_shape[2:]
        i32 = lambda v: e.const(np.array(v, np.int32), np.int32)
        col = e.add("Mod", [idx, i32(wd)], [n], np.int32)
        rest = e.add("Div", [idx, i32(wd)], [n], np.int32)
        row = e.add("Mod", [rest, i32(hd)], [n], np.int32)
        plane = e.add("Div", [rest, i32(hd)], [n], np.int32)
        idx = e.add("Add", [e.add("Mul", [e.add("Add", [e.add("Mul", [plane, i32(ho)], [n], np.int32), row], [n], np.int32),
                                          i32(wo)], [n], np.int32), col], [n], np.int32)
    zeros = e.const(np.zeros(total, np.float32))
    scattered = e.add("ScatterElements", [zeros, idx, flat(node.input[0], np.float32)],
                      [total], np.float32, axis=0)
    e.add("Reshape", [scattered, e.const(np.array(out_shape, np.int64), np.int64)], out_shape, np.float32,
          out=node.output[0])
    e.run()


@converter("ReverseSequence")
def reverse_sequence(ctx, node, a):
    """GatherElements along the time axis with index len[b] - 1 - t where t < len[b], else t."""
    from .expand import Expansion
    e = Expansion(ctx, node)
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    t_axis, b_axis = a.get("time_axis", 0) % rank, a.get("batch_axis", 1) % rank
    ramp_shape, len_shape = [1] * rank, [1] * rank
    ramp_shape[t_axis] = shp[t_axis]
    len_shape[b_axis] = shp[b_axis]
    ramp = e.const(np.arange(shp[t_axis], dtype=np.int32).reshape(ramp_shape), np.int32)
    lens = node.input[1]
    if ctx.is_const(lens):
        lens = e.const(ctx.const_value(lens).astype(np.int32).reshape(len_shape), np.int32)
    else:
        lens = e.add("Reshape", [e.cast(lens, np.int32), e.const(np.array(len_shape, np.int64), np.int64)], len_shape,
                     np.int32)
    bshape = [max(r, l) for r, l in zip(ramp_shape, len_shape)]
    inside = e.add("Less", [ramp, lens], bshape, np.bool_)
    back = e.add("Sub", [e.add("Sub", [lens, e.const(np.array(1, np.int32), np.int32)], len_shape, np.int32), ramp],
                 bshape, np.int32)
    idx = e.add("Where", [inside, back, ramp], bshape, np.int32)
    full = e.add("Add", [idx, e.const(np.zeros(shp, np.int32), np.int32)], shp, np.int32)
    e.add("GatherElements", [node.input[0], full], shp, ctx.dtype(node.output[0]), out=node.output[0], axis=t_axis)
    e.run()
