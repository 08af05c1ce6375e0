"""ONNX ops without a QNN op of their own, written as short chains of QNN ops (compose.Decompose).

Float identities used (x the input):
  Reciprocal 1/x             Acos  pi/2 - asin(x)         Tan   sin(x)/cos(x)
  Asinh  log(x + sqrt(x*x+1))  Acosh log(x + sqrt(x*x-1))  Atanh 0.5*log((1+x)/(1-x))
  Sinh   (exp(x)-exp(-x))/2  Cosh  (exp(x)+exp(-x))/2     Softsign x/(1+|x|)
  Selu   gamma*Elu(x, alpha) Celu  alpha*Elu(x/alpha, 1)
  ThresholdedRelu x > alpha ? x : 0      Shrink x < -l ? x+b : (x > l ? x-b : 0)
  Sum/Mean/Max/Min of N inputs: pairwise, Mean divided by N
  ReduceL1 sum|x|  ReduceL2 sqrt(sum x*x)  ReduceSumSquare sum x*x  ReduceLogSum log(sum x)
  ReduceLogSumExp log(sum exp(x))
"""
import math

import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar, tparam
from .registry import converter
from .runtime_params import AmbiguousAxes, cumsum_runtime_axis, distinct_axis_sets, reduce_candidates
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
    if ctx.has_op_set(2, 13):   # op set 2.13's own op
        d.op("ThresholdedRelu", [d.input(0)], params=[scalar("alpha", F, a.get("alpha", 1.0))], final=True)
        return
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


def _axes_from_shapes(ctx, node, a, rank):
    """Axes computed at run time, taken from the static shapes they must produce: with keepdims the dims
    that become 1 (reducing a dim of size 1 changes nothing, so those need not be known); without, the
    dims left out, when only one choice of them gives the output shape. The axes input's own length
    (static) tells an empty list (noop_with_empty_axes) from a full one."""
    name = node.input[1]
    # An axes input of dynamic length (never a QNN input then) leaves the count to the shapes as well.
    count = None if name in ctx.m.dynamic_inputs else ctx.shape(name)[0] if ctx.shape(name) else 1
    src, dst = ctx.shape(node.input[0]), ctx.shape(node.output[0])
    if count == 0:
        return None if a.get("noop_with_empty_axes", 0) else list(range(rank))
    if a.get("keepdims", 1):
        if len(dst) != rank:
            raise ConverterError(f"node '{node.name}' ({node.op_type}): output rank {len(dst)} != input rank {rank}")
        shrunk = [d for d in range(rank) if dst[d] == 1 and src[d] != 1]
        if count is None and not shrunk:
            return None   # nothing changes: empty axes with noop_with_empty_axes, or only size-1 dims named
        return shrunk or [d for d in range(rank) if src[d] == 1][:1]
    import itertools
    fits = [c for c in itertools.combinations(range(rank), rank - len(dst))
            if [src[d] for d in range(rank) if d not in c] == dst]
    distinct = distinct_axis_sets(src, fits)
    if not distinct:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): no choice of axes reduces {src} to {dst}")
    if len(distinct) != 1:
        raise AmbiguousAxes(distinct)   # the converters pick among them at run time
    return sorted(fits[0])


def reduce_axes(ctx, node, a):
    """(axes, keepdims) of a Reduce* node: attribute (opset < 18) or second input."""
    rank = len(ctx.shape(node.input[0]))
    if "axes" in a:
        axes = list(a["axes"])
    elif len(node.input) > 1 and node.input[1]:
        if not ctx.is_const(node.input[1]):
            return _axes_from_shapes(ctx, node, a, rank), bool(a.get("keepdims", 1))
        axes = [int(v) for v in ctx.const_value(node.input[1]).reshape(-1)]
    else:
        axes = None if a.get("noop_with_empty_axes", 0) else list(range(rank))
    return (None if axes is None else sorted(v % rank for v in axes)), bool(a.get("keepdims", 1))


@converter("ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp")
def reduce_composite(ctx, node, a):
    _float_only(ctx, node)
    try:
        axes, keep = reduce_axes(ctx, node, a)
    except AmbiguousAxes as amb:
        return reduce_candidates(ctx, node, a, amb.candidates)
    d = Decompose(ctx, node)
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
    """QNN CumulativeSum (float, int32); an axis computed at run time picks among every axis's sum."""
    if not ctx.is_const(node.input[1]):
        return cumsum_runtime_axis(ctx, node, a)
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


# Abramowitz & Stegun 7.1.26: erf(x) = 1 - (a1 t + ... + a5 t^5) exp(-x^2), t = 1 / (1 + p x), x >= 0;
# absolute error below 1.5e-7. Odd: erf(-x) = -erf(x).
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


@converter("Erf")
def erf(ctx, node, a):
    _float_only(ctx, node)
    d = Decompose(ctx, node)
    if ctx.has_op_set(2, 13):   # op set 2.13's own op
        d.op("Erf", [d.input(0)], final=True)
        return
    x = d.input(0)
    ax = d.op("ElementWiseAbs", [x])
    t = d.op("ElementWiseDivide", [d.const(1.0), d.op("ElementWiseAdd", [d.const(1.0),
                                                                           d.op("ElementWiseMultiply", [ax, d.const(_ERF_P)])])])
    poly = d.op("ElementWiseMultiply", [t, d.const(_ERF_A[4])])
    for coeff in reversed(_ERF_A[:4]):
        poly = d.op("ElementWiseMultiply", [d.op("ElementWiseAdd", [poly, d.const(coeff)]), t])
    gauss = d.op("ElementWiseExp", [d.op("ElementWiseNeg", [d.op("ElementWiseMultiply", [ax, ax])])])
    pos = d.op("ElementWiseSubtract", [d.const(1.0), d.op("ElementWiseMultiply", [poly, gauss])])
    d.op("ElementWiseMultiply", [d.op("ElementWiseSign", [x]), pos], final=True)


@converter("MeanVarianceNormalization")
def mean_variance_normalization(ctx, node, a):
    """(x - mean) / sqrt(var + 1e-9), the statistics over `axes` (default N, H, W) as ONNX's function body."""
    _float_only(ctx, node)
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    axes = sorted(v % rank for v in a.get("axes", [0, 2, 3]))
    kept = [1 if i in axes else n for i, n in enumerate(shp)]
    d = Decompose(ctx, node)
    x = d.input(0)
    params = [tparam("axes", np.uint32, axes), scalar("keep_dims", np.bool_, True)]
    mean = d.op("ReduceMean", [x], shape=kept, params=params)
    dev = d.op("ElementWiseSubtract", [x, mean])
    var = d.op("ReduceMean", [d.op("ElementWiseMultiply", [dev, dev])], shape=kept, params=params)
    std = d.op("ElementWiseSquareRoot", [d.op("ElementWiseAdd", [var, d.const(1e-9)], shape=kept)], shape=kept)
    d.op("ElementWiseDivide", [dev, std], final=True)


def _einsum_terms(node, equation, ranks):
    """Operand subscripts and output subscripts as lists of letters, '...' expanded to capital letters."""
    eq = equation.replace(" ", "")
    lhs, rhs = eq.split("->") if "->" in eq else (eq, None)
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise ConverterError(f"node '{node.name}' (Einsum): '{equation}' names {len(terms)} operands, the node has "
                             f"{len(ranks)}")
    ell = max((r - len(t.replace("...", "")) for t, r in zip(terms, ranks) if "..." in t), default=0)
    ell_letters = [chr(ord("A") + i) for i in range(ell)]

    def expand(t, r):
        if "..." not in t:
            return list(t)
        head, tail = t.split("...")
        n = r - len(head) - len(tail)
        return list(head) + ell_letters[ell - n:] + list(tail)

    ops = [expand(t, r) for t, r in zip(terms, ranks)]
    if rhs is None:   # implicit output: the ellipsis, then the letters used once, in alphabetical order
        counts = {}
        for t in ops:
            for ch in t:
                counts[ch] = counts.get(ch, 0) + 1
        out = ell_letters + sorted(ch for ch, n in counts.items() if n == 1 and ch.islower())
    else:
        out = expand(rhs, ell + len(rhs.replace("...", ""))) if "..." in rhs else list(rhs)
    return ops, out


@converter("Einsum")
def einsum(ctx, node, a):
    """One or two operands. A subscript repeated in one operand takes that operand's diagonal (Gather on the
    two dims merged); letters only in one operand and not in the output are summed first; two operands become one batched MatMul
    [batch, M, K] x [batch, K, N] between Transposes/Reshapes; the result is put in the output's order."""
    eq = a["equation"].decode() if isinstance(a["equation"], bytes) else a["equation"]
    ins = list(node.input)
    if len(ins) not in (1, 2):
        raise ConverterError(f"node '{node.name}' (Einsum): only one or two operands are supported")
    shapes = [ctx.shape(i) for i in ins]
    ops, out = _einsum_terms(node, eq, [len(s) for s in shapes])
    dt = ctx.dtype(node.output[0])
    if dt != np.float32:
        raise ConverterError(f"node '{node.name}' (Einsum): only float tensors are supported")
    size = {}
    for t, shp in zip(ops, shapes):
        for ch, n in zip(t, shp):
            size[ch] = max(size.get(ch, 1), n)
    d = Decompose(ctx, node)
    tensors = [d.input(k) for k in range(len(ins))]

    def take_diagonal(k, ch):
        """Operand k's two dims named ch -> one: both moved last, merged, every (n+1)-th element gathered."""
        t, shp = ops[k], shapes[k]
        p, q = [i for i, c in enumerate(t) if c == ch][:2]
        if shp[p] != shp[q]:
            raise ConverterError(f"node '{node.name}' (Einsum): dims of subscript '{ch}' differ ({shp[p]}, {shp[q]})")
        n = shp[p]
        rest = [i for i in range(len(t)) if i not in (p, q)]
        x = tensors[k]
        if rest + [p, q] != list(range(len(t))):
            x = d.op("Transpose", [x], shape=[shp[i] for i in rest + [p, q]], params=[tparam("perm", np.uint32, rest + [p, q])])
        merged = [shp[i] for i in rest] + [n * n]
        x = d.op("Reshape", [x], shape=merged)
        tensors[k] = d.op("Gather", [x, d.const(np.arange(n, dtype=np.int32) * (n + 1), np.int32)],
                          shape=[shp[i] for i in rest] + [n], params=[scalar("axis", np.int32, len(rest))])
        ops[k] = [t[i] for i in rest] + [ch]
        shapes[k] = [shp[i] for i in rest] + [n]

    for k in range(len(ops)):
        while len(set(ops[k])) != len(ops[k]):
            take_diagonal(k, next(c for c in ops[k] if ops[k].count(c) > 1))

    def reduce_only(k, letters):
        """Sums operand k over `letters` (dropping them)."""
        t = ops[k]
        axes = [t.index(ch) for ch in letters]
        kept = [ch for ch in t if ch not in letters]
        shape = [shapes[k][t.index(ch)] for ch in kept] or [1]
        tensors[k] = d.op("ReduceSum", [tensors[k]], shape=shape,
                          params=[tparam("axes", np.uint32, axes), scalar("keep_dims", np.bool_, False)])
        ops[k] = kept
        shapes[k] = [shapes[k][t.index(ch)] for ch in kept]

    def permute(x, src, dst, shp):
        perm = [src.index(ch) for ch in dst]
        if perm == list(range(len(perm))):
            return x
        return d.op("Transpose", [x], shape=[shp[p] for p in perm], params=[tparam("perm", np.uint32, perm)])

    for k in range(len(ops)):
        others = set(out).union(*(set(o) for j, o in enumerate(ops) if j != k))
        alone = [ch for ch in ops[k] if ch not in others]
        if alone:
            reduce_only(k, alone)
    if len(ops) == 1:
        res, letters, shp = tensors[0], ops[0], shapes[0]
    else:
        A, B = ops
        batch = [ch for ch in A if ch in B and ch in out]
        contract = [ch for ch in A if ch in B and ch not in out]
        left = [ch for ch in A if ch not in B]
        right = [ch for ch in B if ch not in A]
        for ch in batch:
            if shapes[0][A.index(ch)] != shapes[1][B.index(ch)]:
                raise ConverterError(f"node '{node.name}' (Einsum): broadcast batch subscript '{ch}' is not supported")
        nb = int(np.prod([size[c] for c in batch])) if batch else 1
        m = int(np.prod([size[c] for c in left])) if left else 1
        kk = int(np.prod([size[c] for c in contract])) if contract else 1
        n = int(np.prod([size[c] for c in right])) if right else 1
        a3 = d.op("Reshape", [permute(tensors[0], A, batch + left + contract, shapes[0])], shape=[nb, m, kk])
        b3 = d.op("Reshape", [permute(tensors[1], B, batch + contract + right, shapes[1])], shape=[nb, kk, n])
        prod = d.op("MatMul", [a3, b3], shape=[nb, m, n],
                    params=[scalar("transpose_in0", np.bool_, False), scalar("transpose_in1", np.bool_, False)])
        letters = batch + left + right
        shp = [size[c] for c in letters]
        res = d.op("Reshape", [prod], shape=shp or [1])
    missing = [ch for ch in out if ch not in letters]
    if missing:
        raise ConverterError(f"node '{node.name}' (Einsum): output subscripts {missing} name no operand dim")
    extra = [ch for ch in letters if ch not in out]
    if extra:   # one operand: letters summed away for the output
        res = d.op("ReduceSum", [res], shape=[size[c] for c in letters if c in out] or [1],
                   params=[tparam("axes", np.uint32, [letters.index(ch) for ch in extra]),
                           scalar("keep_dims", np.bool_, False)])
        letters = [ch for ch in letters if ch in out]
        shp = [size[c] for c in letters]
    res = permute(res, letters, out, shp) if letters else res
    d.op("Reshape", [res], final=True)


@converter("Range")
def range_(ctx, node, a):
    """start + delta * [0, 1, ..., n-1], n the output's static length (the model's shapes fix it even when
    start/limit/delta are computed)."""
    n = ctx.shape(node.output[0])[0]
    dt = ctx.dtype(node.output[0])
    if dt not in (np.float32, np.int32):
        raise ConverterError(f"node '{node.name}' (Range): type {dt} is not supported")
    d = Decompose(ctx, node)
    steps = d.op("ElementWiseMultiply", [d.input(2), d.const(np.arange(n), dt)], dtype=dt)
    d.op("ElementWiseAdd", [d.input(0), steps], dtype=dt, final=True)


def _window(node, a, n):
    periodic = bool(a.get("periodic", 1))
    m = n if periodic else n - 1
    k = np.arange(n, dtype=np.float64)
    phase = 2 * np.pi * k / m if m > 0 else np.zeros(n)
    if node.op_type == "HannWindow":
        return np.sin(np.pi * k / m) ** 2 if m > 0 else np.ones(n)
    if node.op_type == "HammingWindow":
        alpha = 25.0 / 46.0
        return alpha - (1 - alpha) * np.cos(phase)
    return 0.42 - 0.5 * np.cos(phase) + 0.08 * np.cos(2 * phase)


@converter("HannWindow", "HammingWindow", "BlackmanWindow")
def window(ctx, node, a):
    """The window of the output's static length as a constant (ONNX's definitions; periodic by default)."""
    n = ctx.shape(node.output[0])[0]
    ctx.m.consts[node.output[0]] = _window(node, a, n).astype(ctx.dtype(node.output[0]))


@converter("BitShift")
def bit_shift(ctx, node, a):
    """x * 2^y (LEFT, wrapping like the shift) or x / 2^y (RIGHT, unsigned division truncates like the
    shift), 2^y gathered from a constant table of the type's powers of two."""
    dt = ctx.dtype(node.output[0])
    if dt not in (np.uint8, np.uint16, np.uint32):
        raise ConverterError(f"node '{node.name}' (BitShift): type {dt} is not supported")
    bits = np.dtype(dt).itemsize * 8
    direction = a.get("direction", b"")
    direction = direction.decode() if isinstance(direction, bytes) else direction
    d = Decompose(ctx, node)
    shp_y = ctx.shape(node.input[1])
    table = d.const(np.array([1 << k for k in range(bits)], np.uint64).astype(dt), dt)
    y = d.input(1)
    if ctx.is_const(node.input[1]):
        y = d.const(ctx.const_value(node.input[1]).astype(np.int32), np.int32)
    elif ctx.dtype(node.input[1]) != np.int32:
        y = d.op("Cast", [y], shape=shp_y or [1], dtype=np.int32)
    power = d.op("Gather", [table, y], shape=shp_y or [1], dtype=dt, params=[scalar("axis", np.int32, 0)])
    d.op("ElementWiseMultiply" if direction == "LEFT" else "ElementWiseDivide", [d.input(0), power], dtype=dt,
         final=True)
