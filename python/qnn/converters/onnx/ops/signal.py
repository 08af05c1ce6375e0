"""DFT and STFT as matrix products with constant cosine/sine matrices (ONNX nodes through ops/expand.py).

The transform length is static, so the DFT along an axis is two MatMuls of the signal (moved to the last
data axis) with the [n, m] matrices cos(2 pi t k / L) and sin(2 pi t k / L): for x = a + ib,
forward a.C + b.S + i(b.C - a.S), inverse (a.C - b.S + i(b.C + a.S)) / L. Zero rows stand for
the zero padding of a longer dft_length, missing rows for the truncation of a shorter one; onesided keeps
the first L/2 + 1 bins. STFT gathers its frames (static indices), applies the window and transforms them.
Parameters computed at run time (STFT's frame_step / frame_length) are taken from the static shapes they
fix, and refused when the shapes leave a choice.
"""
import numpy as np

from qnn.errors import ConverterError
from .registry import converter
from .expand import Expansion


def _const_int(ctx, name):
    return int(np.asarray(ctx.const_value(name)).reshape(-1)[0])


def _dft_last(e, x, shape, length, inverse, onesided, out=None):
    """DFT of x [..., n, c] (c = 1 real, 2 complex) along its second-to-last axis: [..., m, 2]."""
    *lead, n, c = shape
    m = length // 2 + 1 if onesided else length
    t = np.arange(n)[:, None]
    k = np.arange(m)[None, :]
    angle = 2.0 * np.pi * t * k / length
    valid = (t < length).astype(np.float64)
    scale = 1.0 / length if inverse else 1.0
    cos = e.const((np.cos(angle) * valid * scale).astype(np.float32))
    sin = e.const((np.sin(angle) * valid * scale).astype(np.float32))
    part = lambda j: e.add("Gather", [x, e.const(np.array(j, np.int64), np.int64)], lead + [n], np.float32, axis=-1)
    mm = lambda v, w: e.add("MatMul", [v, w], lead + [m], np.float32)
    re = part(0)
    if c == 2:
        im = part(1)
        rc, rs, ic, is_ = mm(re, cos), mm(re, sin), mm(im, cos), mm(im, sin)
        if inverse:
            yre, yim = e.add("Sub", [rc, is_], lead + [m], np.float32), e.add("Add", [ic, rs], lead + [m], np.float32)
        else:
            yre, yim = e.add("Add", [rc, is_], lead + [m], np.float32), e.add("Sub", [ic, rs], lead + [m], np.float32)
    else:
        yre = mm(re, cos)
        yim = mm(re, sin)
        if not inverse:
            yim = e.add("Neg", [yim], lead + [m], np.float32)
    axes = e.const(np.array([-1], np.int64), np.int64)
    parts = [e.add("Unsqueeze", [v, axes], lead + [m, 1], np.float32) for v in (yre, yim)]
    return e.add("Concat", parts, lead + [m, 2], np.float32, out=out, axis=-1)


@converter("DFT")
def dft(ctx, node, a):
    shp = ctx.shape(node.input[0])
    rank = len(shp)
    if rank < 2 or shp[-1] not in (1, 2):
        raise ConverterError(f"node '{node.name}' (DFT): the input must end in a dim of 1 (real) or 2 (complex), got {shp}")
    if len(node.input) > 2 and node.input[2]:
        raise ConverterError(f"node '{node.name}' (DFT): the axis input (opset 20) is not supported")
    axis = a.get("axis", 1) % rank
    if axis == rank - 1:
        raise ConverterError(f"node '{node.name}' (DFT): axis {axis} is the real/imaginary dim")
    length = shp[axis]
    if len(node.input) > 1 and node.input[1]:
        if not ctx.is_const(node.input[1]):
            raise ConverterError(f"node '{node.name}' (DFT): a dft_length computed at run time is not supported")
        length = _const_int(ctx, node.input[1])
    inverse, onesided = bool(a.get("inverse", 0)), bool(a.get("onesided", 0))
    if onesided and inverse:
        raise ConverterError(f"node '{node.name}' (DFT): onesided with inverse is not supported")
    e = Expansion(ctx, node)
    # Move the transformed axis next to the last (real/imaginary) one, and back afterwards.
    perm = [d for d in range(rank - 1) if d != axis] + [axis, rank - 1]
    moved = e.add("Transpose", [node.input[0]], [shp[p] for p in perm], np.float32, perm=perm) \
        if perm != list(range(rank)) else node.input[0]
    back = [perm.index(d) for d in range(rank)]
    if back == list(range(rank)):
        _dft_last(e, moved, [shp[p] for p in perm], length, inverse, onesided, out=node.output[0])
    else:
        y = _dft_last(e, moved, [shp[p] for p in perm], length, inverse, onesided)
        e.add("Transpose", [y], ctx.shape(node.output[0]), np.float32, out=node.output[0], perm=back)
    e.run()


def _stft_geometry(ctx, node, signal_len, frames, bins, onesided):
    """(frame_step, frame_length): constants, the window's length, or what the output shape allows."""
    step = _const_int(ctx, node.input[1]) if ctx.is_const(node.input[1]) else None
    window = node.input[2] if len(node.input) > 2 and node.input[2] else None
    flen = None
    if len(node.input) > 3 and node.input[3]:
        flen = _const_int(ctx, node.input[3]) if ctx.is_const(node.input[3]) else None
    if flen is None and window is not None:
        flen = ctx.shape(window)[0]
    lengths = [flen] if flen is not None else ([2 * (bins - 1), 2 * (bins - 1) + 1] if onesided else [bins])
    fits = []
    for n in lengths:
        for s in ([step] if step is not None else range(1, signal_len + 1)):
            if n <= signal_len and (signal_len - n) // s + 1 == frames:
                fits.append((s, n))
    if len(fits) != 1:
        raise ConverterError(f"node '{node.name}' (STFT): frame_step/frame_length are computed at run time and the "
                             f"shapes (signal {signal_len}, {frames} frames, {bins} bins) do not fix them")
    return fits[0]


@converter("STFT")
def stft(ctx, node, a):
    shp = ctx.shape(node.input[0])
    if len(shp) != 3 or shp[2] not in (1, 2):
        raise ConverterError(f"node '{node.name}' (STFT): the signal must be [batch, length, 1 or 2], got {shp}")
    out = ctx.shape(node.output[0])
    onesided = bool(a.get("onesided", 1))
    step, n = _stft_geometry(ctx, node, shp[1], out[1], out[2], onesided)
    frames = out[1]
    e = Expansion(ctx, node)
    idx = (np.arange(frames)[:, None] * step + np.arange(n)[None, :]).astype(np.int64)
    framed = e.add("Gather", [node.input[0], e.const(idx, np.int64)], [shp[0], frames, n, shp[2]], np.float32, axis=1)
    window = node.input[2] if len(node.input) > 2 and node.input[2] else None
    if window is not None:
        w4 = e.add("Reshape", [window, e.const(np.array([1, 1, n, 1], np.int64), np.int64)], [1, 1, n, 1], np.float32)
        framed = e.add("Mul", [framed, w4], [shp[0], frames, n, shp[2]], np.float32)
    _dft_last(e, framed, [shp[0], frames, n, shp[2]], n, False, onesided, out=node.output[0])
    e.run()


@converter("Det")
def det(ctx, node, a):
    """Determinants of [..., n, n] matrices for n <= 3 by cofactor expansion (element-wise products of the
    gathered entries); larger matrices would need a pivoted factorization, which QNN has no op for."""
    shp = ctx.shape(node.input[0])
    if len(shp) < 2 or shp[-1] != shp[-2] or shp[-1] > 3:
        raise ConverterError(f"node '{node.name}' (Det): only square matrices up to 3x3 are supported, got {shp}")
    n, lead = shp[-1], shp[:-2]
    e = Expansion(ctx, node)
    i64 = lambda v: e.const(np.array(v, np.int64), np.int64)
    rows = [e.add("Gather", [node.input[0], i64(i)], lead + [n], np.float32, axis=-2) for i in range(n)]
    m = [[e.add("Gather", [rows[i], i64(j)], lead, np.float32, axis=-1) for j in range(n)] for i in range(n)]
    mul = lambda p, q: e.add("Mul", [p, q], lead, np.float32)
    sub = lambda p, q, out=None: e.add("Sub", [p, q], lead, np.float32, out=out)
    final = node.output[0]
    if n == 1:
        e.add("Identity", [m[0][0]], lead, np.float32, out=final)
    elif n == 2:
        sub(mul(m[0][0], m[1][1]), mul(m[0][1], m[1][0]), out=final)
    else:
        minor = lambda r0, c0, r1, c1: sub(mul(m[r0][c0], m[r1][c1]), mul(m[r0][c1], m[r1][c0]))
        t0 = mul(m[0][0], minor(1, 1, 2, 2))
        t1 = mul(m[0][1], minor(1, 0, 2, 2))
        t2 = mul(m[0][2], minor(1, 0, 2, 1))
        e.add("Add", [sub(t0, t1), t2], lead, np.float32, out=final)
    e.run()
