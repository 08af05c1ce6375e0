"""Resize as separable per-axis sampling in ONNX nodes, for what QNN's Resize cannot express: scales computed
at run time (ONNX maps coordinates with the given scale, which need not be output/input), and the
tf_half_pixel_for_nn / tf_crop_and_resize coordinate modes (the latter with a run-time roi).

For each resized axis the input coordinate of every output position is a [out] float vector (from the
scale or roi, constants or graph tensors), as ONNX defines it (length_resized = input * scale, unrounded):
  half_pixel (x + 0.5) / s - 0.5, pytorch_half_pixel the same (0 where length_resized <= 1),
  asymmetric x / s, align_corners x * (in - 1) / (length_resized - 1) (0 where length_resized <= 1),
  tf_half_pixel_for_nn (x + 0.5) / s,
  tf_crop_and_resize start * (in - 1) + x * (end - start) * (in - 1) / (out - 1).
Then: nearest gathers the rounded index (nearest_mode); linear blends the two neighbours; cubic the four
with Keys' kernel (cubic_coeff_a), exclude_outside dropping (and renormalizing) taps outside the input;
indices are clamped to the input (edge values), and tf_crop_and_resize writes extrapolation_value where the
coordinate leaves [0, in - 1].
"""
import numpy as np

from qnn.errors import ConverterError
from .expand import Expansion


def needs_sampled_resize(ctx, node, ctm):
    scales_at = 1 if node.op_type == "Upsample" or ctx.m.opset < 11 else 2
    has_sizes = scales_at == 2 and len(node.input) > 3 and bool(node.input[3])
    runtime_scales = (not has_sizes and len(node.input) > scales_at and bool(node.input[scales_at])
                      and not ctx.is_const(node.input[scales_at]))
    return runtime_scales or ctm in ("tf_half_pixel_for_nn", "tf_crop_and_resize")


class _Sampler:
    def __init__(self, e, rank):
        self.e, self.rank = e, rank

    def f(self, op, ins, n, dtype=np.float32, **attrs):
        return self.e.add(op, ins, [n], dtype, **attrs)

    def const(self, v, dtype=np.float32):
        return self.e.const(np.asarray(v, dtype).reshape(-1), dtype)

    def scalar_of(self, t, j):
        """Element j of a rank-1 float tensor (graph or constant) as [1]."""
        if self.e.ctx.is_const(t):
            return self.const([float(np.asarray(self.e.ctx.const_value(t)).reshape(-1)[j])])
        return self.e.add("Gather", [t, self.e.const(np.array([j], np.int64), np.int64)], [1], np.float32, axis=0)


def _coords(sm, ctm, axis, n_in, n_out, scale, roi):
    """The [n_out] input coordinates for one axis; scale/roi are [1] tensors (or None)."""
    o = np.arange(n_out, dtype=np.float64)
    f = sm.f
    if ctm == "tf_crop_and_resize":
        start, end = sm.scalar_of(roi, axis), sm.scalar_of(roi, axis + sm.rank)
        span = f("Sub", [end, start], 1)
        if n_out > 1:
            step = f("Mul", [span, sm.const([(n_in - 1) / (n_out - 1)])], 1)
            base = f("Mul", [start, sm.const([n_in - 1])], 1)
            return f("Add", [base, f("Mul", [sm.const(o), step], n_out)], n_out)
        return f("Mul", [f("Add", [start, end], 1), sm.const([0.5 * (n_in - 1)])], 1)
    if ctm == "align_corners":   # 0 where length_resized <= 1 (ONNX Runtime's rule for the 0 / 0 case)
        resized = f("Mul", [scale, sm.const([n_in])], 1)
        big = f("Greater", [resized, sm.const([1.0])], 1, np.bool_)
        denom = f("Max", [f("Sub", [resized, sm.const([1.0])], 1), sm.const([1e-30])], 1)
        return f("Where", [big, f("Div", [sm.const(o * (n_in - 1)), denom], n_out), sm.const(np.zeros(n_out))], n_out)
    if ctm == "asymmetric":
        return f("Div", [sm.const(o), scale], n_out)
    shifted = f("Div", [sm.const(o + 0.5), scale], n_out)
    if ctm == "tf_half_pixel_for_nn":
        return shifted
    x = f("Sub", [shifted, sm.const([0.5])], n_out)
    if ctm == "pytorch_half_pixel":
        big = f("Greater", [f("Mul", [scale, sm.const([n_in])], 1), sm.const([1.0])], 1, np.bool_)
        x = f("Where", [big, x, sm.const(np.zeros(n_out))], n_out)
    return x


def _index(sm, x, n, n_in):
    """int32 indices of float positions x, clamped to the input."""
    clamped = sm.f("Max", [sm.f("Min", [x, sm.const([n_in - 1])], n), sm.const([0.0])], n)
    return sm.f("Cast", [clamped], n, np.int32, to=6)


def _cubic_weights(sm, t, n, a):
    """Keys' cubic kernel weights for the taps at offsets -1, 0, 1, 2 of fraction t ([n] tensors)."""
    f, c = sm.f, sm.const
    def poly(d, coeffs):   # Horner on the distance d
        acc = c([coeffs[0]])
        for k in coeffs[1:]:
            acc = f("Add", [f("Mul", [acc, d], n), c([k])], n)
        return acc
    near = [a + 2, -(a + 3), 0.0, 1.0]          # |d| <= 1
    far = [a, -5 * a, 8 * a, -4 * a]            # 1 < |d| < 2
    one = c([1.0])
    return [poly(f("Add", [t, one], n), far), poly(t, near), poly(f("Sub", [one, t], n), near),
            poly(f("Sub", [c([2.0]), t], n), far)]


def sampled_resize(ctx, node, a, mode, ctm, nearest_mode):
    src, dst = ctx.shape(node.input[0]), ctx.shape(node.output[0])
    rank = len(src)
    e = Expansion(ctx, node)
    sm = _Sampler(e, rank)
    scales_at = 1 if node.op_type == "Upsample" or ctx.m.opset < 11 else 2
    has_sizes = scales_at == 2 and len(node.input) > 3 and bool(node.input[3])
    scales = node.input[scales_at] if not has_sizes and len(node.input) > scales_at and node.input[scales_at] else None
    roi = node.input[1] if scales_at == 2 and len(node.input) > 1 and node.input[1] else None
    if ctm == "tf_crop_and_resize" and roi is None:
        raise ConverterError(f"node '{node.name}' (Resize): tf_crop_and_resize needs the roi input")
    coeff = float(a.get("cubic_coeff_a", -0.75))
    exclude = bool(a.get("exclude_outside", 0))
    extrapolation = float(a.get("extrapolation_value", 0.0))
    axes = [d for d in range(rank) if src[d] != dst[d] or ctm == "tf_crop_and_resize" or
            (scales is not None and not ctx.is_const(scales))]
    cur, shape = node.input[0], list(src)
    for k, d in enumerate(axes):
        n_in, n = src[d], dst[d]
        scale = sm.scalar_of(scales, d) if scales is not None else sm.const([n / n_in])
        x = _coords(sm, ctm, d, n_in, n, scale, roi)
        if ctm == "tf_crop_and_resize" and n == 1:
            x = sm.f("Identity", [x], 1)
        shape[d] = n
        bshape = [n if i == d else 1 for i in range(rank)]
        col = lambda t: e.add("Reshape", [t, e.const(np.array(bshape, np.int64), np.int64)], bshape, np.float32)
        gather = lambda idx: e.add("Gather", [cur, idx], list(shape), np.float32, axis=d)
        if mode == "nearest":
            rounded = {"round_prefer_floor": lambda v: sm.f("Ceil", [sm.f("Sub", [v, sm.const([0.5])], n)], n),
                       "round_prefer_ceil": lambda v: sm.f("Floor", [sm.f("Add", [v, sm.const([0.5])], n)], n),
                       "floor": lambda v: sm.f("Floor", [v], n),
                       "ceil": lambda v: sm.f("Ceil", [v], n)}[nearest_mode](x)
            out = gather(_index(sm, rounded, n, n_in))
        else:
            base = sm.f("Floor", [x], n)
            t = sm.f("Sub", [x, base], n)
            offsets = [0, 1] if mode == "linear" else [-1, 0, 1, 2]
            if mode == "linear":
                weights = [sm.f("Sub", [sm.const([1.0]), t], n), t]
            else:
                weights = _cubic_weights(sm, t, n, coeff)
            positions = [sm.f("Add", [base, sm.const([float(off)])], n) for off in offsets]
            if mode == "cubic" and exclude:   # taps outside the input get no weight; the rest renormalized
                kept = []
                for p, w in zip(positions, weights):
                    inside = sm.f("And", [sm.f("Not", [sm.f("Less", [p, sm.const([0.0])], n, np.bool_)], n, np.bool_),
                                          sm.f("Not", [sm.f("Greater", [p, sm.const([n_in - 1.0])], n, np.bool_)], n,
                                                   np.bool_)], n, np.bool_)
                    kept.append(sm.f("Where", [inside, w, sm.const(np.zeros(n))], n))
                total = kept[0]
                for w in kept[1:]:
                    total = sm.f("Add", [total, w], n)
                weights = [sm.f("Div", [w, total], n) for w in kept]
            out = None
            for p, w in zip(positions, weights):
                term = e.add("Mul", [gather(_index(sm, p, n, n_in)), col(w)], list(shape), np.float32)
                out = term if out is None else e.add("Add", [out, term], list(shape), np.float32)
        if ctm == "tf_crop_and_resize":
            outside = sm.f("Or", [sm.f("Less", [x, sm.const([0.0])], n, np.bool_),
                                  sm.f("Greater", [x, sm.const([n_in - 1.0])], n, np.bool_)], n, np.bool_)
            mask = e.add("Reshape", [outside, e.const(np.array(bshape, np.int64), np.int64)], bshape, np.bool_)
            out = e.add("Where", [mask, e.const(np.array([extrapolation], np.float32)), out], list(shape), np.float32)
        cur = out
    e.add("Identity", [cur], dst, np.float32, out=node.output[0])
    e.run()
