"""A small float evaluator of the converter's QNN graph (NHWC), used to collect activation ranges.

It runs the converted graph itself, so every QNN tensor that gets an encoding has its own statistics
(including the layout transposes). Convolutions are im2col + matmul (BLAS), depthwise convolutions a
sum over the kernel taps. Ops the calibration does not know stop with
a clear error naming the op.
"""
import numpy as np

from qnn.errors import ConverterError

_BINARY = {"ElementWiseAdd": np.add, "ElementWiseSubtract": np.subtract, "ElementWiseMultiply": np.multiply,
           "ElementWiseDivide": np.divide, "ElementWiseMaximum": np.maximum, "ElementWiseMinimum": np.minimum,
           "ElementWisePower": np.power, "ElementWiseEqual": np.equal, "ElementWiseNotEqual": np.not_equal,
           "ElementWiseGreater": np.greater, "ElementWiseGreaterEqual": np.greater_equal,
           "ElementWiseLess": np.less, "ElementWiseLessEqual": np.less_equal, "ElementWiseAnd": np.logical_and,
           "ElementWiseOr": np.logical_or, "ElementWiseXor": np.logical_xor, "ElementWiseFmod": np.fmod,
           "ElementWiseMod": np.mod, "ElementWiseSquaredDifference": lambda a, b: (a - b) ** 2,
           "ElementWiseFloorDiv": lambda a, b: np.floor_divide(a, b)}
_UNARY = {"Relu": lambda x: np.maximum(x, 0), "Sigmoid": lambda x: 1 / (1 + np.exp(-x)), "Tanh": np.tanh,
          "ElementWiseExp": np.exp, "ElementWiseLog": np.log, "ElementWiseSquareRoot": np.sqrt,
          "ElementWiseAbs": np.abs, "ElementWiseNeg": np.negative, "ElementWiseFloor": np.floor,
          "ElementWiseCeil": np.ceil, "ElementWiseSin": np.sin, "ElementWiseCos": np.cos,
          "HardSwish": lambda x: x * np.clip(x + 3, 0, 6) / 6,
          "ElementWiseSoftplus": lambda x: np.logaddexp(0, x), "ElementWiseRsqrt": lambda x: 1 / np.sqrt(x),
          "ElementWiseSign": np.sign, "ElementWiseRound": np.round, "ElementWiseNot": np.logical_not,
          "ElementWiseAsin": np.arcsin, "ElementWiseAtan": np.arctan, "ElementWiseTan": np.tan,
          "ElementWiseReciprocal": np.reciprocal}


def _p(op, name, default=None):
    for p in op.params:
        if p.name == name:
            return p.value
    return default


def _pad_nhwc(x, pads, value=0.0):
    (t, b), (l, r) = np.asarray(pads).tolist()
    if t == b == l == r == 0:
        return x
    return np.pad(x, ((0, 0), (t, b), (l, r), (0, 0)), constant_values=value)


def _windows(x, kh, kw, s, d, oh, ow):
    """[N, OH, OW, kh, kw, C] view of the padded input x."""
    n, _, _, c = x.shape
    sn, sh, sw, sc = x.strides
    return np.lib.stride_tricks.as_strided(
        x, (n, oh, ow, kh, kw, c), (sn, sh * s[0], sw * s[1], sh * d[0], sw * d[1], sc), writeable=False)


def _out_hw(x, kh, kw, s, d):
    return (x.shape[1] - (kh - 1) * d[0] - 1) // s[0] + 1, (x.shape[2] - (kw - 1) * d[1] - 1) // s[1] + 1


def conv2d(x, w, b, stride, pads, dil, group):
    x = _pad_nhwc(x, pads)
    kh, kw, cig, cout = w.shape
    s, d = list(stride), list(dil)
    oh, ow = _out_hw(x, kh, kw, s, d)
    n = x.shape[0]
    if kh == kw == 1 and group == 1:
        xs = x[:, :(oh - 1) * s[0] + 1:s[0], :(ow - 1) * s[1] + 1:s[1], :]
        y = xs.reshape(-1, cig) @ w.reshape(cig, cout)
        return (y + b).reshape(n, oh, ow, cout)
    cog = cout // group
    ys = []
    for g in range(group):
        xg = np.ascontiguousarray(x[..., g * cig:(g + 1) * cig])
        cols = _windows(xg, kh, kw, s, d, oh, ow).reshape(n * oh * ow, kh * kw * cig)
        ys.append(cols @ w[..., g * cog:(g + 1) * cog].reshape(kh * kw * cig, cog))
    y = ys[0] if group == 1 else np.concatenate(ys, axis=1)
    return (y + b).reshape(n, oh, ow, cout)


def depthwise(x, w, b, stride, pads, dil):
    x = _pad_nhwc(x, pads)
    kh, kw, _, cout = w.shape
    mult = cout // x.shape[3]
    if mult > 1:
        x = np.repeat(x, mult, axis=3)
    s, d = list(stride), list(dil)
    oh, ow = _out_hw(x, kh, kw, s, d)
    y = np.zeros((x.shape[0], oh, ow, cout), np.float32)
    for i in range(kh):
        for j in range(kw):
            y += x[:, i * d[0]:i * d[0] + (oh - 1) * s[0] + 1:s[0], j * d[1]:j * d[1] + (ow - 1) * s[1] + 1:s[1], :] * w[i, j, 0]
    return y + b


def pool(x, op):
    k, s = list(_p(op, "filter_size")), list(_p(op, "stride"))
    pads = np.asarray(_p(op, "pad_amount")).copy()
    is_max = op.type == "PoolMax2d"
    if _p(op, "rounding_mode", 0) == 1:   # ceil: extend bottom/right padding so the last window fits
        for a in range(2):
            span = x.shape[1 + a] + pads[a].sum() - k[a]
            if span % s[a]:
                pads[a][1] += s[a] - span % s[a]
    fill = -np.inf if is_max else 0.0
    xp = _pad_nhwc(x, pads, fill)
    oh, ow = _out_hw(xp, k[0], k[1], s, [1, 1])
    win = _windows(np.ascontiguousarray(xp), k[0], k[1], s, [1, 1], oh, ow)
    if is_max:
        return win.max(axis=(3, 4))
    total = win.sum(axis=(3, 4))
    if _p(op, "count_pad_for_edges", False):
        return total / (k[0] * k[1])
    ones = _pad_nhwc(np.ones((1,) + x.shape[1:3] + (1,), np.float32), pads, 0.0)
    cnt = _windows(np.ascontiguousarray(ones), k[0], k[1], s, [1, 1], oh, ow).sum(axis=(3, 4))
    return total / cnt


def _gelu(x):
    from math import erf, sqrt
    return 0.5 * x * (1 + np.vectorize(erf, otypes=[np.float32])(x / sqrt(2.0)))


def run_op(op, ins, tensors):
    t = op.type
    if t in ("Conv2d",):
        return [conv2d(ins[0], ins[1], ins[2], _p(op, "stride"), _p(op, "pad_amount"), _p(op, "dilation"), _p(op, "group", 1))]
    if t == "DepthWiseConv2d":
        return [depthwise(ins[0], ins[1], ins[2], _p(op, "stride"), _p(op, "pad_amount"), _p(op, "dilation"))]
    if t == "FullyConnected":
        x, w, b = ins[0], ins[1], ins[2]
        out_shape = tensors[op.outputs[0]].shape
        return [(x.reshape(-1, w.shape[1]) @ w.T + b).reshape(out_shape)]
    if t == "MatMul":
        a, b = ins
        if _p(op, "transpose_in0", False):
            a = np.swapaxes(a, -1, -2)
        if _p(op, "transpose_in1", False):
            b = np.swapaxes(b, -1, -2)
        return [np.matmul(a, b)]
    if t in _UNARY:
        return [_UNARY[t](ins[0])]
    if t in _BINARY:
        return [_BINARY[t](ins[0], ins[1])]
    if t == "ReluMinMax":
        return [np.clip(ins[0], _p(op, "min_value"), _p(op, "max_value"))]
    if t == "Elu":
        a = _p(op, "alpha", 1.0)
        return [np.where(ins[0] > 0, ins[0], a * (np.exp(np.minimum(ins[0], 0)) - 1))]
    if t == "Gelu":
        return [_gelu(ins[0])]
    if t == "Erf":   # op set 2.13 (--target_op_set 2.13)
        from math import erf
        return [np.vectorize(erf, otypes=[np.float32])(ins[0])]
    if t == "ThresholdedRelu":
        return [np.where(ins[0] > _p(op, "alpha", 1.0), ins[0], 0).astype(ins[0].dtype)]
    if t == "Prelu":
        return [np.where(ins[0] >= 0, ins[0], ins[0] * ins[1])]
    if t in ("PoolMax2d", "PoolAvg2d"):
        return [pool(ins[0], op)]
    if t in ("ReduceMean", "ReduceMax", "ReduceMin", "ReduceSum", "ReduceProd"):
        fn = {"ReduceMean": np.mean, "ReduceMax": np.max, "ReduceMin": np.min, "ReduceSum": np.sum, "ReduceProd": np.prod}[t]
        axes = tuple(int(a) for a in np.atleast_1d(_p(op, "axes")))
        return [fn(ins[0], axis=axes, keepdims=True).reshape(tensors[op.outputs[0]].shape)]
    if t in ("Reshape", "Squeeze", "ExpandDims", "Identity"):
        return [ins[0].reshape(tensors[op.outputs[0]].shape)]
    if t == "Transpose":
        return [np.transpose(ins[0], [int(v) for v in _p(op, "perm")])]
    if t == "Concat":
        return [np.concatenate(ins, axis=int(_p(op, "axis")))]
    if t == "Split":
        return np.split(ins[0], [int(v) for v in np.atleast_1d(_p(op, "split_index"))], axis=int(_p(op, "axis")))
    if t in ("Softmax", "LogSoftmax"):
        ax = int(_p(op, "axis"))
        z = ins[0] * _p(op, "beta", 1.0)
        z = z - z.max(axis=ax, keepdims=True)
        if t == "LogSoftmax":
            return [z - np.log(np.exp(z).sum(axis=ax, keepdims=True))]
        e = np.exp(z)
        return [e / e.sum(axis=ax, keepdims=True)]
    if t == "LayerNorm":
        axes = tuple(int(a) for a in np.atleast_1d(_p(op, "axes")))
        x = ins[0]
        mu = x.mean(axis=axes, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=axes, keepdims=True)
        return [(x - mu) / np.sqrt(var + _p(op, "epsilon", 1e-5)) * ins[1] + ins[2]]
    if t == "RmsNorm":
        axes = tuple(int(a) for a in np.atleast_1d(_p(op, "axes")))
        x = ins[0]
        y = x / np.sqrt((x * x).mean(axis=axes, keepdims=True) + _p(op, "epsilon", 1e-6))
        return [y * (ins[1] if len(ins) > 1 else 1) + (ins[2] if len(ins) > 2 else 0)]
    if t == "RotaryEmbedding":
        return [_rotary(ins, _p(op, "interleaved", False), int(_p(op, "rotary_embedding_dim", 0)))]
    if t == "Batchnorm":
        return [ins[0] * ins[1] + ins[2]]
    if t == "StridedSlice" and not any(_p(op, m, 0) for m in ("begin_mask", "shrink_axes", "new_axes_mask")):
        ranges = np.asarray(_p(op, "ranges"))
        end_mask = int(_p(op, "end_mask", 0))
        sl = tuple(slice(int(r[0]), None if end_mask & (1 << k) else int(r[1]), int(r[2])) for k, r in enumerate(ranges))
        return [ins[0][sl]]
    if t == "Pad" and int(_p(op, "scheme", 0)) == 0:
        amount = [tuple(int(v) for v in r) for r in np.asarray(_p(op, "pad_amount"))]
        return [np.pad(ins[0], amount, constant_values=_p(op, "pad_constant_value", 0.0))]
    if t == "Cast":
        return [ins[0].astype(tensors[op.outputs[0]].dtype)]
    return _run_indexing_op(op, ins, tensors)


def _rotary(ins, interleaved, dim):
    """QNN RotaryEmbedding on x [B, NH, S, HS]: caches [max_pos, dim/2] indexed by position_ids [B, S], or
    [B or 1, S, dim/2] without them."""
    x, cos, sin = ins[0], ins[1], ins[2]
    dim = dim or x.shape[-1]
    if len(ins) > 3:
        pos = _wrap(ins[3], cos.shape[0])
        cos, sin = cos[pos], sin[pos]
    cos, sin = cos[:, None], sin[:, None]   # [B, 1, S, dim/2] against the heads
    y = x.copy()
    r = x[..., :dim]
    if interleaved:
        x1, x2 = r[..., 0::2], r[..., 1::2]
        y[..., 0:dim:2], y[..., 1:dim:2] = x1 * cos - x2 * sin, x2 * cos + x1 * sin
    else:
        x1, x2 = r[..., :dim // 2], r[..., dim // 2:]
        y[..., :dim // 2], y[..., dim // 2:dim] = x1 * cos - x2 * sin, x2 * cos + x1 * sin
    return y


def _wrap(idx, n):
    """Negative indices count from the end, as the kernels resolve them."""
    idx = np.asarray(idx).astype(np.int64)
    return np.where(idx < 0, idx + n, idx)


def _run_indexing_op(op, ins, tensors):
    """Selection, gathers and the ops LLM exports use (embedding Gather, masks, causal cumulative sums)."""
    t = op.type
    if t == "ElementWiseSelect":
        return [np.where(ins[0], ins[1], ins[2])]
    if t == "Gather":
        ax = int(_p(op, "axis", 0)) % ins[0].ndim
        return [np.take(ins[0], _wrap(ins[1], ins[0].shape[ax]), axis=ax).reshape(tensors[op.outputs[0]].shape)]
    if t == "GatherElements":
        ax = int(_p(op, "axis", 0)) % ins[0].ndim
        return [np.take_along_axis(ins[0], _wrap(ins[1], ins[0].shape[ax]), axis=ax)]
    if t == "GatherNd" and int(_p(op, "batch_dims", 0)) == 0:
        idx = _wrap(ins[1], np.array(ins[0].shape[:ins[1].shape[-1]]))
        return [ins[0][tuple(np.moveaxis(idx, -1, 0))].reshape(tensors[op.outputs[0]].shape)]
    if t == "Tile":
        return [np.tile(ins[0], [int(v) for v in np.atleast_1d(_p(op, "multiples"))])]
    if t == "CumulativeSum":
        ax = int(_p(op, "axis", 0))
        rev = bool(_p(op, "reverse", False))
        x = np.flip(ins[0], ax) if rev else ins[0]
        y = np.cumsum(x, axis=ax, dtype=x.dtype)
        if _p(op, "exclusive", False):
            y = y - x
        return [np.flip(y, ax) if rev else y]
    if t in ("Argmax", "Argmin"):
        fn = np.argmax if t == "Argmax" else np.argmin
        return [fn(ins[0], axis=int(_p(op, "axis", 0))).astype(np.int32).reshape(tensors[op.outputs[0]].shape)]



class Evaluator:
    """Runs the graph on one set of inputs at a time and calls observe(qnn_tensor_name, array)
    for every float tensor, graph inputs included."""

    def __init__(self, graph):
        self.g = graph
        last = {}
        for k, op in enumerate(graph.ops):
            for i in op.inputs:
                last[i] = k
        self.last_use = last

    def run(self, feeds, observe):
        g = self.g
        vals = dict(feeds)
        for name, v in feeds.items():
            observe(name, v)
        for k, op in enumerate(g.ops):
            ins = []
            for i in op.inputs:
                t = g.tensors[i]
                ins.append(t.data if t.kind == "static" else vals[i])
            with np.errstate(all="ignore"):
                outs = run_op(op, ins, g.tensors)
            for name, v in zip(op.outputs, outs):
                v = np.asarray(v)
                if g.tensors[name].dtype == np.float32:
                    v = v.astype(np.float32, copy=False)
                    observe(name, v)
                vals[name] = v
            for i in op.inputs:
                if self.last_use.get(i) == k and i not in g.outputs:
                    vals.pop(i, None)
        return {o: vals[o] for o in g.outputs}
