"""Parameters computed at run time, which QNN takes as static params, rewritten as index arithmetic on
int32 tensors (ONNX nodes through ops/expand.py). The output shapes stay static (the model declares
them), so only the values that pick the elements are needed at run time:

  * Slice with starts/axes/steps from the graph: per axis, the clamped start and the step (0 and 1 where
    the axis is not named) give the indices start + step * [0, 1, ...], gathered axis by axis.
  * Pad with pads/value from the graph: per axis, output position o reads input o - pad_begin, clamped
    (edge), reflected (reflect), or masked to the value (constant).
  * CumSum with the axis from the graph: the sum along every axis, picked by the axis value.
  * Reduce* whose run-time axes the shapes leave ambiguous: each candidate reduction, picked by the axes.
"""
import numpy as np

from qnn.errors import ConverterError
from .expand import Expansion


class _Ints:
    """[1]-shaped int32 scalars and [n] index vectors of an Expansion."""

    def __init__(self, e):
        self.e = e

    def const(self, v):
        return self.e.const(np.array(v, np.int32).reshape(-1), np.int32)

    def op(self, op_type, ins, n=1, dtype=np.int32):
        return self.e.add(op_type, ins, [n], dtype)

    def element(self, t, j):
        """Element j of a rank-1 tensor (a graph tensor or a constant) as a [1] tensor."""
        if self.e.ctx.is_const(t):
            return self.const([int(np.asarray(self.e.ctx.const_value(t)).reshape(-1)[j])])
        return self.e.add("Gather", [self.e.cast(t, np.int32), self.const([j])], [1], np.int32, axis=0)

    def where(self, cond, a, b, n=1):
        return self.op("Where", [cond, a, b], n)

    def less(self, a, b, n=1):
        return self.op("Less", [a, b], n, np.bool_)

    def equal(self, a, b, n=1):
        return self.op("Equal", [a, b], n, np.bool_)

    def add(self, a, b, n=1):
        return self.op("Add", [a, b], n)

    def clamp(self, v, lo, hi, n=1):
        return self.op("Max", [self.op("Min", [v, hi], n), lo], n)

    def normalized_axis(self, a, rank):
        """a + rank where a < 0."""
        return self.where(self.less(a, self.const([0])), self.add(a, self.const([rank])), a)


def _input(node, k):
    return node.input[k] if len(node.input) > k and node.input[k] else None


def _per_axis(ints, rank, values, axes, default):
    """The [1] value for each of `rank` axes: values[j] for the axis axes[j] names (axes None: axis j),
    `default` for an axis not named. values/axes are rank-1 tensors of static length."""
    count = ints.e.ctx.shape(values)[0]
    out = [ints.const([default]) for _ in range(rank)]
    for j in range(count):
        if axes is None:
            out[j] = ints.element(values, j)
        elif ints.e.ctx.is_const(axes):
            out[int(np.asarray(ints.e.ctx.const_value(axes)).reshape(-1)[j]) % rank] = ints.element(values, j)
        else:
            a = ints.normalized_axis(ints.element(axes, j), rank)
            v = ints.element(values, j)
            out = [ints.where(ints.equal(a, ints.const([d])), v, out[d]) for d in range(rank)]
    return out


def _named_axes(ctx, axes, rank, count):
    """The axes a Slice/Pad touches when that is known at conversion (None: any may be)."""
    if axes is None:
        return list(range(count))
    if ctx.is_const(axes):
        return [int(v) % rank for v in np.asarray(ctx.const_value(axes)).reshape(-1)]
    return None


def slice_runtime(ctx, node):
    x, starts, axes, steps = node.input[0], node.input[1], _input(node, 3), _input(node, 4)
    src, dst = ctx.shape(x), ctx.shape(node.output[0])
    rank = len(src)
    e = Expansion(ctx, node)
    ints = _Ints(e)
    start = _per_axis(ints, rank, starts, axes, 0)
    step = _per_axis(ints, rank, steps, axes, 1) if steps else [ints.const([1])] * rank
    named = _named_axes(ctx, axes, rank, ctx.shape(starts)[0])
    cur, shape = x, list(src)
    touched = [d for d in range(rank) if named is None or d in named]
    for k, d in enumerate(touched):
        n, m = src[d], dst[d]
        # ONNX: a negative start counts from the end; then clamp to [0, n] (step > 0) or [0, n - 1] (step < 0).
        s = ints.normalized_axis(start[d], n)
        upper = ints.where(ints.less(step[d], ints.const([0])), ints.const([n - 1]), ints.const([n]))
        s = ints.clamp(s, ints.const([0]), upper)
        idx = ints.add(s, ints.op("Mul", [step[d], ints.const(np.arange(m))], m), m)
        shape[d] = m
        last = k == len(touched) - 1
        cur = e.add("Gather", [cur, idx], shape, ctx.dtype(x), out=node.output[0] if last else None, axis=d)
    if not touched:
        e.add("Identity", [x], dst, ctx.dtype(x), out=node.output[0])
    e.run()


def pad_runtime(ctx, node, mode):
    x, pads, value, axes = node.input[0], node.input[1], _input(node, 2), _input(node, 3)
    if mode not in ("constant", "edge", "reflect"):
        raise ConverterError(f"node '{node.name}' (Pad): mode '{mode}' is not supported")
    src, dst = ctx.shape(x), ctx.shape(node.output[0])
    rank = len(src)
    e = Expansion(ctx, node)
    ints = _Ints(e)
    count = ctx.shape(pads)[0] // 2
    named = _named_axes(ctx, axes, rank, count) if axes else list(range(rank))
    if axes is None:
        begin = [ints.element(pads, d) for d in range(rank)]
    else:  # pads [begin of each named axis..., end of each...]: the begins are its first half
        begin_half = e.add("Slice", [e.cast(pads, np.int32), e.const(np.array([0], np.int64), np.int64),
                                     e.const(np.array([count], np.int64), np.int64)], [count], np.int32)
        begin = _per_axis(ints, rank, begin_half, axes, 0)
    dt = ctx.dtype(x)
    fill = None
    if mode == "constant":
        fill = value if value else e.const(np.zeros(1, dt), dt)
        if value and ctx.shape(value) not in ([], [1]):
            raise ConverterError(f"node '{node.name}' (Pad): the constant value must be a scalar")
    cur, shape = x, list(src)
    touched = [d for d in range(rank) if named is None or d in named]
    for k, d in enumerate(touched):
        n, m = src[d], dst[d]
        pos = ints.op("Sub", [ints.const(np.arange(m)), begin[d]], m)   # output o reads input o - begin
        zero, last_in = ints.const([0]), ints.const([n - 1])
        if mode == "reflect":   # -i before the start, 2(n-1) - i past the end
            before = ints.less(pos, zero, m)
            after = ints.less(last_in, pos, m)
            pos = ints.where(before, ints.op("Neg", [pos], m), ints.where(after, ints.op("Sub", [ints.const([2 * (n - 1)]), pos], m), pos, m), m)
        idx = ints.clamp(pos, zero, last_in, m)
        shape[d] = m
        final = k == len(touched) - 1
        out = node.output[0] if final and mode != "constant" else None
        cur = e.add("Gather", [cur, idx], list(shape), dt, out=out, axis=d)
        if mode == "constant":
            inside = e.add("And", [e.add("Not", [ints.less(pos, zero, m)], [m], np.bool_),
                                   e.add("Not", [ints.less(last_in, pos, m)], [m], np.bool_)], [m], np.bool_)
            bshape = [m if i == d else 1 for i in range(rank)]
            mask = e.add("Reshape", [inside, e.const(np.array(bshape, np.int64), np.int64)], bshape, np.bool_)
            cur = e.add("Where", [mask, cur, fill], list(shape), dt, out=node.output[0] if final else None)
    if not touched:
        e.add("Identity", [x], dst, dt, out=node.output[0])
    e.run()


def cumsum_runtime_axis(ctx, node, a):
    """Every axis's CumSum, picked by the run-time axis (one candidate for a rank-1 input)."""
    x = node.input[0]
    shp = ctx.shape(x)
    rank = len(shp)
    e = Expansion(ctx, node)
    ints = _Ints(e)
    attrs = {k: v for k, v in a.items() if k in ("exclusive", "reverse")}
    sums = [e.add("CumSum", [x, e.const(np.array(d, np.int64), np.int64)], shp, ctx.dtype(x),
                  out=node.output[0] if rank == 1 else None, **attrs) for d in range(rank)]
    if rank > 1:
        axis = ints.normalized_axis(ints.e.add("Reshape", [e.cast(node.input[1], np.int32),
                                                          e.const(np.array([1], np.int64), np.int64)], [1], np.int32), rank)
        cur = sums[-1]
        for d in reversed(range(rank - 1)):
            cur = e.add("Where", [ints.equal(axis, ints.const([d])), sums[d], cur], shp, ctx.dtype(x),
                        out=node.output[0] if d == 0 else None)
    e.run()


class AmbiguousAxes(Exception):
    """Run-time Reduce axes the static shapes do not pin down: the candidate axis tuples."""

    def __init__(self, candidates):
        super().__init__("ambiguous axes")
        self.candidates = candidates


def reduce_candidates(ctx, node, a, candidates):
    """Each candidate axes tuple reduced (keepdims as the node), then picked where the run-time axes name
    exactly that set."""
    axes_name = node.input[1]
    count = ctx.shape(axes_name)[0] if ctx.shape(axes_name) else 1
    if any(len(c) != count for c in candidates) or len(candidates) > 16:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): axes '{axes_name}' is computed at run time and the "
                             f"shapes do not tell which dims it names")
    x = node.input[0]
    rank = len(ctx.shape(x))
    dst = ctx.shape(node.output[0])
    dt = ctx.dtype(node.output[0])
    e = Expansion(ctx, node)
    ints = _Ints(e)
    given = [ints.normalized_axis(ints.element(axes_name, j), rank) for j in range(count)]
    attrs = {k: v for k, v in a.items() if k != "noop_with_empty_axes"}
    results = [e.add(node.op_type, [x, e.const(np.array(c, np.int64), np.int64)], dst, dt, **attrs) for c in candidates]
    cur = results[-1]
    for i in reversed(range(len(candidates) - 1)):
        match = None
        for g in given:   # every given axis is one of the candidate's
            hit = None
            for s in candidates[i]:
                eq = ints.equal(g, ints.const([s]))
                hit = eq if hit is None else e.add("Or", [hit, eq], [1], np.bool_)
            match = hit if match is None else e.add("And", [match, hit], [1], np.bool_)
        cur = e.add("Where", [match, results[i], cur], dst, dt, out=node.output[0] if i == 0 else None)
    if len(candidates) == 1:
        e.add("Identity", [cur], dst, dt, out=node.output[0])
    e.run()


def distinct_axis_sets(src, fits):
    """Candidate axis tuples that differ in a dim of size > 1 (reducing a size-1 dim changes nothing)."""
    seen, out = set(), []
    for c in fits:
        key = tuple(d for d in c if src[d] != 1)
        if key not in seen:
            seen.add(key)
            out.append(tuple(c))
    return out

