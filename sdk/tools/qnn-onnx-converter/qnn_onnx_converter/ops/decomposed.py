"""ONNX ops without a QNN op of their own, written as short chains of QNN ops (compose.Decompose).

Float identities used (x the input):
  Reciprocal 1/x             Acos  pi/2 - asin(x)         Tan   sin(x)/cos(x)
  Asinh  log(x + sqrt(x*x+1))  Acosh log(x + sqrt(x*x-1))  Atanh 0.5*log((1+x)/(1-x))
  Sinh   (exp(x)-exp(-x))/2  Cosh  (exp(x)+exp(-x))/2     Softsign x/(1+|x|)
  Selu   gamma*Elu(x, alpha) Celu  alpha*Elu(x/alpha, 1)
  ThresholdedRelu x > alpha ? x : 0      Shrink x < -l ? x+b : (x > l ? x-b : 0)
  IsNaN  x != x              IsInf  x == +inf (detect_positive) or x == -inf (detect_negative)
  Sum/Mean/Max/Min of N inputs: pairwise, Mean divided by N
  ReduceL1 sum|x|  ReduceL2 sqrt(sum x*x)  ReduceSumSquare sum x*x  ReduceLogSum log(sum x)
  ReduceLogSumExp log(sum exp(x))
"""
import math

import numpy as np

from ..errors import ConverterError
from ..ir import scalar, tparam
from . import converter
from .compose import Decompose
from .elementwise import binary, clip as clip_const

F = np.float32


def _float_only(ctx, node):
    if ctx.dtype(node.output[0]) != np.float32:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): only float tensors are supported")


@converter("Reciprocal")
def reciprocal(ctx, node, a):
    _float_only(ctx, node)
    d = Decompose(ctx, node)
    d.op("ElementWiseDivide", [d.const(1.0), d.input(0)], final=True)


@converter("Acos")
def acos(ctx, node, a):
    d = Decompose(ctx, node)
    s = d.op("ElementWiseAsin", [d.input(0)])
    d.op("ElementWiseSubtract", [d.const(math.pi / 2), s], final=True)


@converter("Asin", "Atan")
def asin_atan(ctx, node, a):
    d = Decompose(ctx, node)
    d.op("ElementWiseAsin" if node.op_type == "Asin" else "ElementWiseAtan", [d.input(0)], final=True)


@converter("Tan")
def tan(ctx, node, a):
    d = Decompose(ctx, node)
    x = d.input(0)
    d.op("ElementWiseDivide", [d.op("ElementWiseSin", [x]), d.op("ElementWiseCos", [x])], final=True)


@converter("Asinh", "Acosh")
def asinh_acosh(ctx, node, a):
    d = Decompose(ctx, node)
    x = d.input(0)
    sq = d.op("ElementWiseMultiply", [x, x])
    shifted = d.op("ElementWiseAdd" if node.op_type == "Asinh" else "ElementWiseSubtract", [sq, d.const(1.0)])
    s = d.op("ElementWiseAdd", [x, d.op("ElementWiseSquareRoot", [shifted])])
    d.op("ElementWiseLog", [s], final=True)


@converter("Atanh")
def atanh(ctx, node, a):
    d = Decompose(ctx, node)
    x = d.input(0)
    one = d.const(1.0)
    ratio = d.op("ElementWiseDivide", [d.op("ElementWiseAdd", [one, x]), d.op("ElementWiseSubtract", [one, x])])
    d.op("ElementWiseMultiply", [d.op("ElementWiseLog", [ratio]), d.const(0.5)], final=True)


@converter("Sinh", "Cosh")
def sinh_cosh(ctx, node, a):
    d = Decompose(ctx, node)
    x = d.input(0)
    e = d.op("ElementWiseExp", [x])
    en = d.op("ElementWiseExp", [d.op("ElementWiseNeg", [x])])
    s = d.op("ElementWiseSubtract" if node.op_type == "Sinh" else "ElementWiseAdd", [e, en])
    d.op("ElementWiseMultiply", [s, d.const(0.5)], final=True)


@converter("Softsign")
def softsign(ctx, node, a):
    d = Decompose(ctx, node)
    x = d.input(0)
    den = d.op("ElementWiseAdd", [d.op("ElementWiseAbs", [x]), d.const(1.0)])
    d.op("ElementWiseDivide", [x, den], final=True)


@converter("Selu")
def selu(ctx, node, a):
    d = Decompose(ctx, node)
    alpha = a.get("alpha", 1.67326319217681884765625)
    gamma = a.get("gamma", 1.05070102214813232421875)
    e = d.op("Elu", [d.input(0)], params=[scalar("alpha", F, alpha)])
    d.op("ElementWiseMultiply", [e, d.const(gamma)], final=True)


@converter("Celu")
def celu(ctx, node, a):
    d = Decompose(ctx, node)
    alpha = a.get("alpha", 1.0)
    scaled = d.op("ElementWiseDivide", [d.input(0), d.const(alpha)])
    e = d.op("Elu", [scaled], params=[scalar("alpha", F, 1.0)])
    d.op("ElementWiseMultiply", [e, d.const(alpha)], final=True)


@converter("ThresholdedRelu")
def thresholded_relu(ctx, node, a):
    d = Decompose(ctx, node)
    x = d.input(0)
    above = d.op("ElementWiseGreater", [x, d.const(a.get("alpha", 1.0))], dtype=np.bool_)
    d.op("ElementWiseSelect", [above, x, d.const(0.0)], final=True)


@converter("Shrink")
def shrink(ctx, node, a):
    _float_only(ctx, node)
    d = Decompose(ctx, node)
    x = d.input(0)
    lambd, bias = a.get("lambd", 0.5), a.get("bias", 0.0)
    below = d.op("ElementWiseLess", [x, d.const(-lambd)], dtype=np.bool_)
    above = d.op("ElementWiseGreater", [x, d.const(lambd)], dtype=np.bool_)
    upper = d.op("ElementWiseSelect", [above, d.op("ElementWiseSubtract", [x, d.const(bias)]), d.const(0.0)])
    d.op("ElementWiseSelect", [below, d.op("ElementWiseAdd", [x, d.const(bias)]), upper], final=True)


@converter("IsNaN")
def isnan(ctx, node, a):
    d = Decompose(ctx, node)
    x = d.input(0)
    d.op("ElementWiseNotEqual", [x, x], dtype=np.bool_, final=True)


@converter("IsInf")
def isinf(ctx, node, a):
    d = Decompose(ctx, node)
    x = d.input(0)
    pos, neg = a.get("detect_positive", 1), a.get("detect_negative", 1)
    if not pos and not neg:  # always false: nothing is greater than +inf
        d.op("ElementWiseGreater", [x, d.const(np.inf)], dtype=np.bool_, final=True)
        return
    checks = []
    if pos:
        checks.append(("ElementWiseEqual", [x, d.const(np.inf)]))
    if neg:
        checks.append(("ElementWiseEqual", [x, d.const(-np.inf)]))
    if len(checks) == 1:
        d.op(checks[0][0], checks[0][1], dtype=np.bool_, final=True)
        return
    p = d.op(checks[0][0], checks[0][1], dtype=np.bool_)
    n = d.op(checks[1][0], checks[1][1], dtype=np.bool_)
    d.op("ElementWiseOr", [p, n], dtype=np.bool_, final=True)


@converter("Sum", "Mean", "Max", "Min")
def variadic(ctx, node, a):
    qnn = {"Sum": "ElementWiseAdd", "Mean": "ElementWiseAdd", "Max": "ElementWiseMaximum",
           "Min": "ElementWiseMinimum"}[node.op_type]
    d = Decompose(ctx, node)
    dt = ctx.dtype(node.output[0])
    if node.op_type == "Mean" and dt != np.float32:
        raise ConverterError(f"node '{node.name}' (Mean): only float tensors are supported")
    if node.op_type in ("Max", "Min") and len([i for i in node.input if i]) == 2:
        return binary(ctx, node, a)  # the element-wise op itself, in whatever layout its inputs have
    ins = [d.input(k) for k in range(len(node.input)) if node.input[k]]
    if len(ins) == 1:  # a copy
        d.op("Reshape", ins, dtype=dt, final=True)
        return
    acc = ins[0]
    for k, x in enumerate(ins[1:]):
        last = k == len(ins) - 2 and node.op_type != "Mean"
        acc = d.op(qnn, [acc, x], dtype=dt, final=last)
    if node.op_type == "Mean":
        d.op("ElementWiseDivide", [acc, d.const(float(len(ins)))], final=True)


@converter("Mod")
def mod(ctx, node, a):
    """fmod=1: C remainder (ElementWiseFmod, float or integer); fmod=0: Python remainder (ElementWiseMod, integer)."""
    d = Decompose(ctx, node)
    dt = ctx.dtype(node.output[0])
    if not a.get("fmod", 0) and dt == np.float32:
        raise ConverterError(f"node '{node.name}' (Mod): fmod=0 on float tensors is not defined by ONNX")
    d.op("ElementWiseFmod" if a.get("fmod", 0) else "ElementWiseMod", [d.input(0), d.input(1)], dtype=dt, final=True)


@converter("Clip")
def clip(ctx, node, a):
    """Float with constant bounds: ReluMinMax; otherwise Maximum with min, then Minimum with max."""
    dt = ctx.dtype(node.output[0])
    bounds = [(1, "min"), (2, "max")]
    given = {attr: node.input[k] for k, attr in bounds if len(node.input) > k and node.input[k]}
    if dt == np.float32 and all(ctx.is_const(v) for v in given.values()):
        return clip_const(ctx, node, a)
    d = Decompose(ctx, node)
    y = d.input(0)
    for k, (idx, attr) in enumerate(bounds):
        if attr in given:
            bound = d.input(idx)
        elif attr in a:  # opset < 11
            bound = d.const(a[attr], dt)
        else:
            continue
        last = not any(other in given or other in a for _, other in bounds[k + 1:])
        y = d.op("ElementWiseMaximum" if attr == "min" else "ElementWiseMinimum", [y, bound], dtype=dt, final=last)
    if y == d.input(0):  # neither bound: a copy
        d.op("Reshape", [y], dtype=dt, final=True)


@converter("Pow")
def pow_(ctx, node, a):
    """ElementWisePower is float: other exponent types are cast to float, an integer base computes in
    float and is cast back (exact for the integer results ONNX defines)."""
    base_dt, exp_dt, out_dt = ctx.dtype(node.input[0]), ctx.dtype(node.input[1]), ctx.dtype(node.output[0])
    if base_dt == np.float32 and exp_dt == np.float32:
        return binary(ctx, node, a)
    d = Decompose(ctx, node)
    x, e = d.input(0), d.input(1)
    if base_dt != np.float32:
        x = d.op("Cast", [x], shape=ctx.shape(node.input[0]))
    if exp_dt != np.float32:
        e = d.op("Cast", [e], shape=ctx.shape(node.input[1]))
    if out_dt == np.float32:
        d.op("ElementWisePower", [x, e], final=True)
    else:
        d.op("Cast", [d.op("ElementWisePower", [x, e])], dtype=out_dt, final=True)


def reduce_axes(ctx, node, a):
    """(axes, keepdims) of a Reduce* node: attribute (opset < 18) or second input."""
    rank = len(ctx.shape(node.input[0]))
    if "axes" in a:
        axes = list(a["axes"])
    elif len(node.input) > 1 and node.input[1]:
        if not ctx.is_const(node.input[1]):
            raise ConverterError(f"node '{node.name}' ({node.op_type}): non-constant axes are not supported")
        axes = [int(v) for v in ctx.const_value(node.input[1]).reshape(-1)]
    else:
        axes = None if a.get("noop_with_empty_axes", 0) else list(range(rank))
    return (None if axes is None else sorted(v % rank for v in axes)), bool(a.get("keepdims", 1))


@converter("ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp")
def reduce_composite(ctx, node, a):
    _float_only(ctx, node)
    d = Decompose(ctx, node)
    axes, keep = reduce_axes(ctx, node, a)
    x = d.input(0)
    in_shape = ctx.shape(node.input[0])
    pre = {"ReduceL1": "ElementWiseAbs", "ReduceLogSumExp": "ElementWiseExp"}.get(node.op_type)
    if pre:
        x = d.op(pre, [x], shape=in_shape)
    elif node.op_type in ("ReduceL2", "ReduceSumSquare"):
        x = d.op("ElementWiseMultiply", [x, x], shape=in_shape)
    post = {"ReduceL2": "ElementWiseSquareRoot", "ReduceLogSum": "ElementWiseLog",
            "ReduceLogSumExp": "ElementWiseLog"}.get(node.op_type)
    if axes is None:  # noop_with_empty_axes and no axes: the input as it is
        s = d.op("Reshape", [x], shape=in_shape, final=post is None)
    else:
        s = d.op("ReduceSum", [x], params=[tparam("axes", np.uint32, axes), scalar("keep_dims", np.bool_, keep)],
                 final=post is None)
    if post:
        d.op(post, [s], final=True)


@converter("Trilu")
def trilu(ctx, node, a):
    """Select(mask, x, 0), mask[i, j] = (j - i >= k) (upper) or (j - i <= k) (lower) over the last two
    dims: a constant for a constant k, else a comparison of the constant j - i with k."""
    shp = ctx.shape(node.input[0])
    if len(shp) < 2 or 0 in shp:
        raise ConverterError(f"node '{node.name}' (Trilu): needs rank >= 2 and no empty dimension, got {shp}")
    n, m = shp[-2], shp[-1]
    diagonal = (np.arange(m)[None, :] - np.arange(n)[:, None]).astype(np.int32)
    upper = a.get("upper", 1)
    dt = ctx.dtype(node.output[0])
    d = Decompose(ctx, node)
    has_k = len(node.input) > 1 and node.input[1]
    if not has_k or ctx.is_const(node.input[1]):
        k = int(ctx.const_value(node.input[1]).reshape(-1)[0]) if has_k else 0
        mask = d.const((diagonal >= k) if upper else (diagonal <= k), np.bool_)
    else:
        mask = d.op("ElementWiseGreaterEqual" if upper else "ElementWiseLessEqual", [d.const(diagonal, np.int32),
                    d.input(1)], shape=[n, m], dtype=np.bool_)
    d.op("ElementWiseSelect", [mask, d.input(0), d.const(0, dt)], dtype=dt, final=True)


@converter("CastLike")
def cast_like(ctx, node, a):
    d = Decompose(ctx, node)
    d.op("Cast", [d.input(0)], dtype=ctx.dtype(node.input[1]), final=True)


@converter("CumSum")
def cumsum(ctx, node, a):
    """QNN CumulativeSum (float, int32): the axis input must be constant."""
    if not ctx.is_const(node.input[1]):
        raise ConverterError(f"node '{node.name}' (CumSum): a non-constant axis is not supported")
    rank = len(ctx.shape(node.input[0]))
    axis = int(ctx.const_value(node.input[1]).reshape(-1)[0]) % rank
    dt = ctx.dtype(node.output[0])
    d = Decompose(ctx, node)
    d.op("CumulativeSum", [d.input(0)], dtype=dt, final=True,
         params=[scalar("axis", np.uint32, axis), scalar("exclusive", np.bool_, bool(a.get("exclusive", 0))),
                 scalar("reverse", np.bool_, bool(a.get("reverse", 0)))])


@converter("Expand")
def expand(ctx, node, a):
    """x broadcast to the output's shape: x + 0 (numeric) or x or false (bool), against a zero constant
    of the output's shape (the shape input is known at conversion)."""
    dt = ctx.dtype(node.output[0])
    d = Decompose(ctx, node)
    zeros = d.const(np.zeros(ctx.shape(node.output[0]), dt), dt)
    d.op("ElementWiseOr" if dt == np.bool_ else "ElementWiseAdd", [d.input(0), zeros], dtype=dt, final=True)
