"""Spatial ops in NHWC: Conv, ConvTranspose, MaxPool/AveragePool/Global*Pool, BatchNormalization, Resize."""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar, tparam
from .registry import converter
from .resize_sampled import needs_sampled_resize, sampled_resize


def _spatial_pads(ctx, node, a, in_hw, k, s, d):
    """ONNX pads/auto_pad -> [[begin, end]] per spatial dim ([[top, bottom], [left, right]] in 2-D)."""
    n = len(k)
    auto = a.get("auto_pad", b"NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else auto
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        pads = []
        for i in range(n):
            out = -(-in_hw[i] // s[i])
            total = max(0, (out - 1) * s[i] + (k[i] - 1) * d[i] + 1 - in_hw[i])
            lo = total // 2 if auto == "SAME_UPPER" else total - total // 2
            pads.append([lo, total - lo])
        return pads
    if auto == "VALID":
        return [[0, 0] for _ in range(n)]
    p = list(a.get("pads", [0] * (2 * n)))
    if any(v < 0 for v in p):
        raise ConverterError(f"node '{node.name}': negative pads are not supported")
    return [[p[i], p[i + n]] for i in range(n)]


def _need_2d(ctx, node):
    if len(ctx.shape(node.input[0])) != 4:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): only 2-D spatial (rank-4 NCHW) inputs are supported")


class _Spatial:
    """A Conv/ConvTranspose/pool node as the channels-last op QNN has: rank-4 NCHW runs in NHWC as it is;
    a 1-D node (rank-3 NCL) runs as NCHW with H = 1 (attributes and weights gain a leading unit spatial
    dim) between a Transpose+Reshape in and a Reshape+Transpose out; a 3-D node (rank-5 NCDHW) runs as
    the QNN 3-D op on NDHWC between two Transposes."""

    _PREPEND = {"kernel_shape": 1, "strides": 1, "dilations": 1, "output_padding": 0, "output_shape": 1}

    def __init__(self, ctx, node, a):
        self.ctx, self.node = ctx, node
        shp = ctx.shape(node.input[0])
        if len(shp) not in (3, 4, 5):
            raise ConverterError(f"node '{node.name}' ({node.op_type}): only 1-D, 2-D and 3-D spatial inputs (rank-3 NCL, "
                                 f"rank-4 NCHW or rank-5 NCDHW) are supported, got rank {len(shp)}")
        self.one_d = len(shp) == 3
        self.three_d = len(shp) == 5
        self.spatial = 3 if self.three_d else 2
        self.a = dict(a)
        self.in_shape = [shp[0], shp[1], 1, shp[2]] if self.one_d else list(shp)   # NCHW
        if self.one_d:
            for key, unit in self._PREPEND.items():
                if key in a:
                    self.a[key] = [unit] + list(a[key])
            if "pads" in a:
                self.a["pads"] = [0, a["pads"][0], 0, a["pads"][1]]
        self.base = node.name or node.output[0]

    def x(self):
        """The input as a rank-4 NHWC QNN tensor."""
        ctx, name = self.ctx, self.node.input[0]
        if self.three_d:
            n, c, d, h, w = self.in_shape
            x5 = ctx.g.add_tensor(self.base + "_in_ndhwc", [n, d, h, w, c], ctx.dtype(name), "native")
            ctx.g.add_op(x5 + "_transpose", "Transpose", [ctx.get(name, "plain")], [x5],
                         [tparam("perm", np.uint32, [0, 2, 3, 4, 1])])
            return x5
        if not self.one_d:
            return ctx.get(name, "nhwc")
        n, c, _, w = self.in_shape
        dt = ctx.dtype(name)
        nlc = ctx.g.add_tensor(self.base + "_in_nlc", [n, w, c], dt, "native")
        ctx.g.add_op(nlc + "_transpose", "Transpose", [ctx.get(name, "plain")], [nlc], [tparam("perm", np.uint32, [0, 2, 1])])
        x4 = ctx.g.add_tensor(self.base + "_in_nhwc", [n, 1, w, c], dt, "native")
        ctx.g.add_op(x4 + "_reshape", "Reshape", [nlc], [x4])
        return x4

    def y(self, out_index=0):
        """The rank-4 NHWC QNN tensor the 2-D op writes; finish() completes a 1-D node."""
        ctx, name = self.ctx, self.node.output[out_index]
        if self.three_d:
            n, c, d, h, w = ctx.shape(name)
            self.y5 = ctx.g.add_tensor(self.base + "_out_ndhwc", [n, d, h, w, c], ctx.dtype(name), "native")
            return self.y5
        if not self.one_d:
            return ctx.out(name, "nhwc")
        n, c, w = ctx.shape(name)
        self.y4 = ctx.g.add_tensor(self.base + "_out_nhwc", [n, 1, w, c], ctx.dtype(name), "native")
        return self.y4

    def finish(self, out_index=0):
        if self.three_d:
            y = self.ctx.out(self.node.output[out_index], "plain")
            self.ctx.g.add_op(y + "_transpose", "Transpose", [self.y5], [y], [tparam("perm", np.uint32, [0, 4, 1, 2, 3])])
            return
        if not self.one_d:
            return
        ctx, name = self.ctx, self.node.output[out_index]
        n, c, w = ctx.shape(name)
        nlc = ctx.g.add_tensor(self.base + "_out_nlc", [n, w, c], ctx.dtype(name), "native")
        ctx.g.add_op(nlc + "_reshape", "Reshape", [self.y4], [nlc])
        y = ctx.out(name, "plain")
        ctx.g.add_op(y + "_transpose", "Transpose", [nlc], [y], [tparam("perm", np.uint32, [0, 2, 1])])

    def weights(self, idx, perm, suffix):
        """Input `idx` (OIHW or IOHW, OIL/IOL for 1-D) permuted by `perm`: a static tensor for a constant, else a
        Transpose (after a Reshape adding H = 1 for 1-D) of the graph's tensor."""
        ctx, name = self.ctx, self.node.input[idx]
        if ctx.is_const(name):
            w = ctx.const_value(name).astype(np.float32)
            if self.one_d:
                w = w[:, :, None, :]
            return ctx.new_const(name + suffix, w.transpose(perm)), list(w.shape)
        shp = ctx.shape(name)
        if ctx.dtype(name) != np.float32:
            raise ConverterError(f"node '{self.node.name}' ({self.node.op_type}): non-float weights are not supported")
        src = ctx.get(name, "plain")
        if self.one_d:
            shp = [shp[0], shp[1], 1, shp[2]]
            r = ctx.g.add_tensor(self.base + "_w4", shp, np.float32, "native")
            ctx.g.add_op(r + "_reshape", "Reshape", [src], [r])
            src = r
        wq = ctx.g.add_tensor(self.base + suffix, [shp[p] for p in perm], np.float32, "native")
        ctx.g.add_op(wq + "_transpose", "Transpose", [src], [wq], [tparam("perm", np.uint32, perm)])
        return wq, list(shp)

    def bias(self, cout):
        ctx, node = self.ctx, self.node
        if len(node.input) > 2 and node.input[2]:
            if ctx.is_const(node.input[2]):
                return ctx.new_const(node.input[2] + "_bias", ctx.const_value(node.input[2]).astype(np.float32))
            return ctx.get(node.input[2], "plain")
        return ctx.new_const(node.output[0] + "_bias", np.zeros(cout, np.float32))


@converter("Conv")
def conv(ctx, node, a):
    sp = _Spatial(ctx, node, a)
    a = sp.a
    n = sp.spatial
    cin = sp.in_shape[1]
    g = a.get("group", 1)
    wshape = ctx.shape(node.input[1])
    cout = wshape[0]
    depthwise = n == 2 and g > 1 and g == cin and cout % g == 0
    x = sp.x()
    # OI<spatial> -> [<spatial>, I/g, O]
    wq, wshape = sp.weights(1, list(range(2, 2 + n)) + [1, 0], "_dw" if depthwise else "_hwio")
    k = wshape[2:]
    s, d = list(a.get("strides", [1] * n)), list(a.get("dilations", [1] * n))
    pads = _spatial_pads(ctx, node, a, sp.in_shape[2:], k, s, d)
    bq = sp.bias(cout)
    y = sp.y()
    params = [tparam("stride", np.uint32, s), tparam("pad_amount", np.uint32, pads), tparam("dilation", np.uint32, d)]
    if not depthwise:
        params.append(scalar("group", np.uint32, g))
    op = "Conv3d" if n == 3 else "DepthWiseConv2d" if depthwise else "Conv2d"
    ctx.g.add_op(node.name or node.output[0], op, [x, wq, bq], [y], params)
    sp.finish()


def _transpose_pads(node, a, in_hw, k, s, out_pad):
    """ConvTranspose pads [[begin, end]] per spatial dim: the attribute, auto_pad, or derived from
    output_shape as ONNX defines it (total = s*(in-1) + output_padding + k - out, split by auto_pad); a
    negative end pad becomes more output_padding (updated in place). k is the dilated kernel size."""
    n = len(k)
    auto = _s(a.get("auto_pad"), "NOTSET")
    if "output_shape" in a or auto in ("SAME_UPPER", "SAME_LOWER"):
        want = list(a["output_shape"])[-n:] if "output_shape" in a else [v * st for v, st in zip(in_hw, s)]
        begin, end = [], []
        for i in range(n):
            total = s[i] * (in_hw[i] - 1) + out_pad[i] + k[i] - want[i]
            half = total // 2   # floor division, as ONNX's reference implementation
            lo, hi = (half, total - half) if auto == "SAME_UPPER" else (total - half, half)
            if hi < 0:   # an output longer than the stride walk covers: extra zero rows/columns at the end
                out_pad[i] -= hi
                hi = 0
            begin.append(lo)
            end.append(hi)
        pads = begin + end
    else:
        pads = list(a.get("pads", [0] * (2 * n)))
    if any(v < 0 for v in pads):
        raise ConverterError(f"node '{node.name}' (ConvTranspose): the output shape asks for negative padding {pads}, "
                             f"which is not supported")
    return [[pads[i], pads[i + n]] for i in range(n)]


@converter("ConvTranspose")
def conv_transpose(ctx, node, a):
    """TransposeConv2d/TransposeConv3d. TransposeConv2d has no dilation: dilated 2-D (and 1-D) filters are
    expanded at conversion time to their zero-filled dilated size, which computes the same sums."""
    rank = len(ctx.shape(node.input[0]))
    if rank in (3, 4) and any(v != 1 for v in a.get("dilations", [])) and not ctx.is_const(node.input[1]):
        return _dilate_graph_weights(ctx, node, a)
    sp = _Spatial(ctx, node, a)
    a = sp.a
    n = sp.spatial
    g = a.get("group", 1)
    s, d = list(a.get("strides", [1] * n)), list(a.get("dilations", [1] * n))
    x = sp.x()
    perm = list(range(2, 2 + n)) + [0, 1]   # IO<spatial> -> [<spatial>, I, O/g]
    if n == 2 and d != [1, 1]:
        w = ctx.const_value(node.input[1]).astype(np.float32)
        if sp.one_d:
            w = w[:, :, None, :]
        dil = np.zeros(list(w.shape[:2]) + [(w.shape[2] - 1) * d[0] + 1, (w.shape[3] - 1) * d[1] + 1], np.float32)
        dil[:, :, ::d[0], ::d[1]] = w
        wq, wshape = ctx.new_const(node.input[1] + "_dilated_hwio", dil.transpose(perm)), list(dil.shape)
        d = [1, 1]
    else:
        wq, wshape = sp.weights(1, perm, "_hwio")
    cout = wshape[1] * g
    k = [(kk - 1) * dd + 1 for kk, dd in zip(wshape[2:], d)]
    out_pad = list(a.get("output_padding", [0] * n))
    pads = _transpose_pads(node, a, sp.in_shape[2:], k, s, out_pad)
    bq = sp.bias(cout)
    y = sp.y()
    params = [tparam("stride", np.uint32, s), tparam("pad_amount", np.uint32, pads)]
    if n == 3:
        params.append(tparam("dilation", np.uint32, d))
    params += [scalar("group", np.uint32, g), tparam("output_padding", np.uint32, out_pad)]
    ctx.g.add_op(node.name or node.output[0], "TransposeConv3d" if n == 3 else "TransposeConv2d", [x, wq, bq], [y],
                 params)
    sp.finish()


def _dilate_graph_weights(ctx, node, a):
    """A 1-D/2-D ConvTranspose with dilations and weights from the graph, as ONNX nodes: the weights
    [I, O/g, k...] reshaped to [I, O/g, k1, 1, k2, 1...], zero-padded to [.., k1, d1, ..], flattened to
    k*d per dim and cut to the dilated size (k-1)*d+1, then a ConvTranspose without dilations."""
    from .expand import Expansion
    e = Expansion(ctx, node)
    w = node.input[1]
    shp = list(ctx.shape(w))
    ks, d = shp[2:], list(a["dilations"])
    i64 = lambda v: e.const(np.array(v, np.int64), np.int64)
    split = shp[:2] + [v for k in ks for v in (k, 1)]
    cur = e.add("Reshape", [w, i64(split)], split, np.float32)
    padded = shp[:2] + [v for k, dd in zip(ks, d) for v in (k, dd)]
    ends = [0, 0] + [v for dd in d for v in (0, dd - 1)]
    cur = e.add("Pad", [cur, i64([0] * len(split) + ends)], padded, np.float32, mode="constant")
    flat = shp[:2] + [k * dd for k, dd in zip(ks, d)]
    cur = e.add("Reshape", [cur, i64(flat)], flat, np.float32)
    dilated = shp[:2] + [(k - 1) * dd + 1 for k, dd in zip(ks, d)]
    cur = e.add("Slice", [cur, i64([0] * len(ks)), i64(dilated[2:]), i64(list(range(2, 2 + len(ks))))], dilated,
                np.float32)
    attrs = {k: v for k, v in a.items() if k != "dilations"}
    e.add("ConvTranspose", [node.input[0], cur] + list(node.input[2:]), ctx.shape(node.output[0]), np.float32,
          out=node.output[0], **attrs)
    e.run()


@converter("MaxPool", "AveragePool")
def pool(ctx, node, a):
    sp = _Spatial(ctx, node, a)
    a = sp.a
    n = sp.spatial
    k = list(a["kernel_shape"])
    s = list(a.get("strides", [1] * n))
    indices = len(node.output) > 1 and bool(node.output[1])
    if list(a.get("dilations", [1] * n)) != [1] * n or indices:
        if node.op_type == "MaxPool" and not sp.one_d and n == 2:
            return _max_pool_by_taps(ctx, node, a, sp.in_shape, k, s, list(a.get("dilations", [1, 1])))
        raise ConverterError(f"node '{node.name}' ({node.op_type}): " +
                             ("the Indices output" if indices else "dilations") + " of a 1-D or 3-D pool is not supported")
    pads = _spatial_pads(ctx, node, a, sp.in_shape[2:], k, s, [1] * n)
    x = sp.x()
    y = sp.y()
    params = [tparam("filter_size", np.uint32, k), tparam("stride", np.uint32, s), tparam("pad_amount", np.uint32, pads)]
    if node.op_type == "AveragePool":
        params.append(scalar("count_pad_for_edges", np.bool_, bool(a.get("count_include_pad", 0))))
    params.append(scalar("rounding_mode", np.uint32, 1 if a.get("ceil_mode", 0) else 0))
    op = ("PoolMax" if node.op_type == "MaxPool" else "PoolAvg") + ("3d" if n == 3 else "2d")
    ctx.g.add_op(node.name or node.output[0], op, [x], [y], params)
    sp.finish()


def _max_pool_by_taps(ctx, node, a, in_shape, k, s, d):
    """MaxPool as ONNX nodes where QNN PoolMax2d falls short (dilations, the Indices output): the kh x kw
    strided slices of the input padded with the lowest float, tap (i, j) starting at (i * dh, j * dw), reduced
    by Max; with Indices, a running maximum that a tap replaces only when strictly greater (the first
    maximum in row-major window order, as ONNX Runtime) carries each tap's constant flat input index
    (NCHW row-major, or with storage_order = 1 column-major within each H x W plane)."""
    from .expand import Expansion
    if a.get("ceil_mode", 0):
        raise ConverterError(f"node '{node.name}' (MaxPool): ceil_mode with dilations or Indices is not supported")
    e = Expansion(ctx, node)
    pads = _spatial_pads(ctx, node, a, in_shape[2:], k, s, d)   # [[top, bottom], [left, right]]
    n, c, h0, w0 = in_shape
    h, w = h0, w0
    out = ctx.shape(node.output[0])
    x = node.input[0]
    if any(v for pair in pads for v in pair):
        h, w = h + pads[0][0] + pads[0][1], w + pads[1][0] + pads[1][1]
        x = e.add("Pad", [x, e.const(np.array([0, 0, pads[0][0], pads[1][0], 0, 0, pads[0][1], pads[1][1]], np.int64),
                                     np.int64), e.const(np.array(-3.4028234663852886e38, np.float32))],
                  [n, c, h, w], np.float32, mode="constant")
    with_indices = len(node.output) > 1 and bool(node.output[1])
    column_major = bool(a.get("storage_order", 0))
    plane = (np.arange(n)[:, None] * c + np.arange(c)[None, :]).reshape(n, c, 1, 1) * (h0 * w0)
    taps, indices = [], []
    for i in range(k[0]):
        for j in range(k[1]):
            starts = [i * d[0], j * d[1]]
            ends = [starts[0] + (out[2] - 1) * s[0] + 1, starts[1] + (out[3] - 1) * s[1] + 1]
            taps.append(e.add("Slice", [x, e.const(np.array(starts, np.int64), np.int64),
                                        e.const(np.array(ends, np.int64), np.int64),
                                        e.const(np.array([2, 3], np.int64), np.int64),
                                        e.const(np.array(s, np.int64), np.int64)], out, np.float32))
            if with_indices:   # the input position of this tap for every output (padding: never the maximum)
                rows = np.arange(out[2])[:, None] * s[0] - pads[0][0] + starts[0]
                cols = np.arange(out[3])[None, :] * s[1] - pads[1][0] + starts[1]
                flat = cols * h0 + rows if column_major else rows * w0 + cols
                indices.append(e.const((plane + flat[None, None]).astype(np.int32), np.int32))
    if not with_indices:
        acc = taps[0]
        for t in taps[1:-1]:
            acc = e.add("Max", [acc, t], out, np.float32)
        e.add("Max", [acc, taps[-1]], out, np.float32, out=node.output[0]) if len(taps) > 1 else \
            e.add("Identity", [acc], out, np.float32, out=node.output[0])
    else:
        best, where = taps[0], indices[0]
        for t, (tap, idx) in enumerate(zip(taps[1:], indices[1:]), start=1):
            last = t == len(taps) - 1
            better = e.add("Greater", [tap, best], out, np.bool_)
            best = e.add("Where", [better, tap, best], out, np.float32, out=node.output[0] if last else None)
            where = e.add("Where", [better, idx, where], out, np.int32, out=node.output[1] if last else None)
        if len(taps) == 1:
            e.add("Identity", [best], out, np.float32, out=node.output[0])
            e.add("Identity", [where], out, np.int32, out=node.output[1])
    e.run()


@converter("GlobalAveragePool", "GlobalMaxPool")
def global_pool(ctx, node, a):
    _need_2d(ctx, node)
    x = ctx.get(node.input[0], "nhwc")
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], "ReduceMean" if node.op_type == "GlobalAveragePool" else "ReduceMax",
                 [x], [y], [tparam("axes", np.uint32, [1, 2]), scalar("keep_dims", np.bool_, True)])


@converter("BatchNormalization")
def batchnorm(ctx, node, a):
    if a.get("training_mode", 0) or (len(node.output) > 1 and any(node.output[1:])):
        return _batchnorm_training(ctx, node, a)
    rank = len(ctx.shape(node.input[0]))
    if not all(ctx.is_const(i) for i in node.input[1:5]) or rank not in (2, 4):
        return _batchnorm_decomposed(ctx, node, a, rank)
    s, b, mean, var = (ctx.const_value(i).astype(np.float64) for i in node.input[1:5])
    scale = s / np.sqrt(var + a.get("epsilon", 1e-5))
    shift = b - mean * scale
    lay = "nhwc" if rank == 4 else "plain"
    x = ctx.get(node.input[0], lay)
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(node.name or node.output[0], "Batchnorm",
                 [x, ctx.new_const(node.output[0] + "_bn_scale", scale), ctx.new_const(node.output[0] + "_bn_shift", shift)], [y])


def _batchnorm_training(ctx, node, a):
    """BatchNormalization with training_mode: normalized by the batch's own mean and (population) variance
    over every axis but the channel, and the running statistics updated as
    running * momentum + batch * (1 - momentum) (ONNX's definition), as ONNX nodes."""
    from .expand import Expansion
    shp = ctx.shape(node.input[0])
    rank, ch = len(shp), shp[1]
    eps, momentum = float(a.get("epsilon", 1e-5)), float(a.get("momentum", 0.9))
    e = Expansion(ctx, node)
    axes = e.const(np.array([0] + list(range(2, rank)), np.int64), np.int64)
    bshape = [1, ch] + [1] * (rank - 2)
    col = lambda t: e.add("Reshape", [t, e.const(np.array(bshape, np.int64), np.int64)], bshape, np.float32)
    mean = e.add("ReduceMean", [node.input[0], axes], bshape, np.float32, keepdims=1)
    centred = e.add("Sub", [node.input[0], mean], shp, np.float32)
    var = e.add("ReduceMean", [e.add("Mul", [centred, centred], shp, np.float32), axes], bshape, np.float32, keepdims=1)
    inv = e.add("Reciprocal", [e.add("Sqrt", [e.add("Add", [var, e.const(np.float32(eps))], bshape, np.float32)],
                                     bshape, np.float32)], bshape, np.float32)
    scaled = e.add("Mul", [e.add("Mul", [centred, inv], shp, np.float32), col(node.input[1])], shp, np.float32)
    e.add("Add", [scaled, col(node.input[2])], shp, np.float32, out=node.output[0])
    flat = lambda t: e.add("Reshape", [t, e.const(np.array([ch], np.int64), np.int64)], [ch], np.float32)
    for k, (running, batch) in enumerate(((node.input[3], mean), (node.input[4], var)), start=1):
        if len(node.output) > k and node.output[k]:
            kept = e.add("Mul", [running, e.const(np.float32(momentum))], [ch], np.float32)
            fresh = e.add("Mul", [flat(batch), e.const(np.float32(1.0 - momentum))], [ch], np.float32)
            e.add("Add", [kept, fresh], [ch], np.float32, out=node.output[k])
    e.run()


def _batchnorm_decomposed(ctx, node, a, rank):
    """y = x * k + (bias - mean * k), k = scale / sqrt(var + epsilon), for statistics computed in the graph
    (graph inputs) or ranks Batchnorm does not take. The per-channel [C] terms broadcast on the last axis in
    NHWC, and as [C, 1, ...] in NCHW order otherwise."""
    from .compose import Decompose
    if rank < 2:
        raise ConverterError(f"node '{node.name}' (BatchNormalization): rank-{rank} input is not supported")
    if ctx.dtype(node.output[0]) != np.float32:
        raise ConverterError(f"node '{node.name}' (BatchNormalization): only float tensors are supported")
    c = ctx.shape(node.input[0])[1]
    d = Decompose(ctx, node)
    d.layout = "nhwc" if rank == 4 and ctx.layout_of(node.input[0]) == "nhwc" else "plain"
    s, b, mean, var = (ctx.get(i, "plain") for i in node.input[1:5])
    std = d.op("ElementWiseSquareRoot", [d.op("ElementWiseAdd", [var, d.const(a.get("epsilon", 1e-5))], shape=[c])],
               shape=[c])
    k = d.op("ElementWiseDivide", [s, std], shape=[c])
    shift = d.op("ElementWiseSubtract", [b, d.op("ElementWiseMultiply", [mean, k], shape=[c])], shape=[c])
    if d.layout == "plain" and rank > 2:
        k = d.op("Reshape", [k], shape=[c] + [1] * (rank - 2))
        shift = d.op("Reshape", [shift], shape=[c] + [1] * (rank - 2))
    shp = ctx.shape(node.output[0])
    scaled = d.op("ElementWiseMultiply", [d.input(0), k],
                  shape=[shp[0], shp[2], shp[3], shp[1]] if d.layout == "nhwc" else shp)
    d.op("ElementWiseAdd", [scaled, shift], final=True)


@converter("InstanceNormalization")
def instance_norm(ctx, node, a):
    """QNN InstanceNorm normalizes each channel over the spatial dims with channels last: NHWC for rank 4,
    a Transpose to channels-last and back for other ranks."""
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    if rank < 3:
        raise ConverterError(f"node '{node.name}' (InstanceNormalization): needs rank >= 3, got {shp}")
    if ctx.dtype(node.output[0]) != np.float32:
        raise ConverterError(f"node '{node.name}' (InstanceNormalization): only float tensors are supported")
    params = [scalar("epsilon", np.float32, a.get("epsilon", 1e-5)), scalar("mode", np.uint32, 0),
              scalar("normalize_variance", np.bool_, True), scalar("region", np.uint32, 0)]
    gamma, beta = (ctx.get(i, "plain") for i in node.input[1:3])
    base = node.name or node.output[0]
    if rank == 4:
        ctx.g.add_op(base, "InstanceNorm", [ctx.get(node.input[0], "nhwc"), gamma, beta],
                     [ctx.out(node.output[0], "nhwc")], params)
        return
    to_last = [0] + list(range(2, rank)) + [1]
    last = ctx.g.add_tensor(base + "_channels_last", [shp[p] for p in to_last], np.float32, "native")
    ctx.g.add_op(last + "_transpose", "Transpose", [ctx.get(node.input[0], "plain")], [last],
                 [tparam("perm", np.uint32, to_last)])
    normed = ctx.g.add_tensor(base + "_normed", [shp[p] for p in to_last], np.float32, "native")
    ctx.g.add_op(base, "InstanceNorm", [last, gamma, beta], [normed], params)
    back = [0, rank - 1] + list(range(1, rank - 1))
    y = ctx.out(node.output[0], "plain")
    ctx.g.add_op(y + "_transpose", "Transpose", [normed], [y], [tparam("perm", np.uint32, back)])


_TRANSFORM = {"half_pixel": 0, "pytorch_half_pixel": 1, "align_corners": 2, "asymmetric": 3}
_NEAREST = {"round_prefer_floor": 0, "round_prefer_ceil": 1, "floor": 2, "ceil": 3}


def _s(v, default):
    v = v if v is not None else default
    return v.decode() if isinstance(v, bytes) else v


def _check_scales(ctx, node):
    """QNN Resize maps coordinates with output/input, ONNX with the given scales: a constant scale that is
    not output/input cannot be expressed (an error). Scales computed at run time take the sampled path
    (ops/resize_sampled.py)."""
    idx = 1 if node.op_type == "Upsample" or ctx.m.opset < 11 else 2   # Resize-10: (X, scales)
    if len(node.input) <= idx or not node.input[idx] or (idx == 2 and len(node.input) > 3 and node.input[3]):
        return   # sizes given (or no scales): output/input is the scale
    src, dst = ctx.shape(node.input[0]), ctx.shape(node.output[0])
    ratio = [o / i if i else 1.0 for o, i in zip(dst, src)]
    name = node.input[idx]
    if ctx.is_const(name):
        scales = [float(v) for v in ctx.const_value(name).reshape(-1)]
        if len(scales) == len(ratio) and any(abs(sc - r) > 1e-6 * max(1.0, abs(r)) for sc, r in zip(scales, ratio)):
            raise ConverterError(f"node '{node.name}' ({node.op_type}): scales {scales} differ from output/input "
                                 f"{ratio}, which is what QNN Resize samples with; give sizes instead")
        return


@converter("Resize", "Upsample")
def resize(ctx, node, a):
    mode = _s(a.get("mode"), "nearest")
    if mode not in ("nearest", "linear", "cubic"):
        raise ConverterError(f"node '{node.name}' (Resize): mode '{mode}' is not supported")
    ctm = _s(a.get("coordinate_transformation_mode"), "half_pixel" if node.op_type == "Resize" else "asymmetric")
    if node.op_type == "Upsample" and ctm == "asymmetric" and mode == "nearest":
        nm = "floor"
    else:
        nm = _s(a.get("nearest_mode"), "round_prefer_floor")
    if nm not in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"):
        raise ConverterError(f"node '{node.name}' (Resize): nearest_mode '{nm}' is not supported")
    if needs_sampled_resize(ctx, node, ctm):
        return sampled_resize(ctx, node, a, mode, ctm, nm)
    if ctm not in _TRANSFORM:
        raise ConverterError(f"node '{node.name}' (Resize): coordinate_transformation_mode '{ctm}' is not supported")
    _need_2d(ctx, node)
    _check_scales(ctx, node)
    x = ctx.get(node.input[0], "nhwc")
    y = ctx.out(node.output[0], "nhwc")
    ctx.g.add_op(node.name or node.output[0], "Resize", [x], [y],
                 [scalar("exclude_outside", np.bool_, bool(a.get("exclude_outside", 0))),
                  scalar("transformation_mode", np.uint32, _TRANSFORM[ctm]),
                  scalar("interpolation_mode", np.uint32, {"nearest": 0, "linear": 1, "cubic": 2}[mode]),
                  scalar("nearest_mode", np.uint32, _NEAREST.get(nm, 0))]
                 + ([scalar("cubic_coeff", np.float32, a.get("cubic_coeff_a", -0.75))] if mode == "cubic" else []))
