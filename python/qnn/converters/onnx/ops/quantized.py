"""ONNX's integer and quantized-operator ops computed with QNN float/integer element-wise ops (the model
keeps its integer tensors; nothing is encoded):

  QuantizeLinear(x, s, zp)    saturate(round_half_even(x / s) + zp) in zp's type (uint8 without zp)
  DequantizeLinear(x, s, zp)  (x - zp) * s
  DynamicQuantizeLinear(x)    ONNX's function body: uint8 scale/zero point from min(0, min x), max(0, max x)
  MatMulInteger / ConvInteger the product of (a - a_zp) and (b - b_zp) in float, exact while the sums stay
                              below 2^24, as int32
  QLinearMatMul / QLinearConv dequantize, the float op, quantize

Each is written as ONNX nodes (expand) converted by the registered converters. A per-axis scale or zero
point (1-D, `axis`) is reshaped to broadcast along that axis. Q -> DQ pairs with constant parameters
never get here: the quantizer folds them into encodings (qnn/quantization/qdq.py).
"""
import numpy as np

from qnn.errors import ConverterError
from qnn.quantization import qdq
from .registry import converter
from .expand import Expansion as _Expansion

_INT_RANGE = {np.dtype(np.uint8): (0, 255), np.dtype(np.int8): (-128, 127), np.dtype(np.uint16): (0, 65535),
              np.dtype(np.int16): (-32768, 32767), np.dtype(np.int32): (-2 ** 31, 2 ** 31 - 1)}
def _along_axis(e, t, rank, axis):
    """A per-axis (1-D, more than one value) parameter reshaped to broadcast along `axis` of a rank-`rank`
    tensor; scalars as they are."""
    shp = e.ctx.shape(t)
    if len(shp) != 1 or shp[0] == 1 or rank <= 1:
        return t
    want = [1] * rank
    want[axis] = shp[0]
    if e.ctx.is_const(t):
        return e.const(e.ctx.const_value(t).reshape(want), e.ctx.const_value(t).dtype)
    return e.add("Reshape", [t, e.const(np.array(want, np.int64), np.int64)], want, e.ctx.dtype(t))


def _float_param(e, t, rank, axis):
    return e.cast(_along_axis(e, t, rank, axis), np.float32)


def quantize_arithmetic(ctx, node, a):
    e = _Expansion(ctx, node)
    x = node.input[0]
    shp, rank = ctx.shape(x), len(ctx.shape(x))
    axis = a.get("axis", 1) % max(rank, 1)
    zp = node.input[2] if len(node.input) > 2 and node.input[2] else None
    out_dt = ctx.dtype(zp) if zp else np.dtype(np.uint8)
    if out_dt not in _INT_RANGE:
        raise ConverterError(f"node '{node.name}' (QuantizeLinear): output type {out_dt} is not supported")
    lo, hi = _INT_RANGE[out_dt]
    q = e.add("Div", [e.cast(x, np.float32), _float_param(e, node.input[1], rank, axis)], shp, np.float32)
    q = e.add("Round", [q], shp, np.float32)
    if zp:
        q = e.add("Add", [q, _float_param(e, zp, rank, axis)], shp, np.float32)
    q = e.add("Clip", [q, e.const(float(lo)), e.const(float(hi))], shp, np.float32)
    e.cast(q, out_dt, out=node.output[0])
    e.run()


def dequantize_arithmetic(ctx, node, a):
    e = _Expansion(ctx, node)
    x = node.input[0]
    shp, rank = ctx.shape(x), len(ctx.shape(x))
    axis = a.get("axis", 1) % max(rank, 1)
    v = e.cast(x, np.float32)
    if len(node.input) > 2 and node.input[2]:
        v = e.add("Sub", [v, _float_param(e, node.input[2], rank, axis)], shp, np.float32)
    e.add("Mul", [v, _float_param(e, node.input[1], rank, axis)], shp, np.float32, out=node.output[0])
    e.run()


@converter("DynamicQuantizeLinear")
def dynamic_quantize_linear(ctx, node, a):
    """ONNX's function body: scale = (max(0, max x) - min(0, min x)) / 255, zero point = saturate(round(-min / scale))."""
    e = _Expansion(ctx, node)
    x = node.input[0]
    shp = ctx.shape(x)
    lo = e.add("Min", [e.add("ReduceMin", [x], [], np.float32, keepdims=0), e.const(0.0)], [], np.float32)
    hi = e.add("Max", [e.add("ReduceMax", [x], [], np.float32, keepdims=0), e.const(0.0)], [], np.float32)
    scale_out = node.output[1] if len(node.output) > 1 and node.output[1] else None
    scale = e.add("Div", [e.add("Sub", [hi, lo], [], np.float32), e.const(255.0)], [], np.float32, out=scale_out)
    zp_f = e.add("Clip", [e.add("Round", [e.add("Div", [e.add("Neg", [lo], [], np.float32), scale], [], np.float32)],
                                [], np.float32), e.const(0.0), e.const(255.0)], [], np.float32)
    zp = e.cast(zp_f, np.uint8, out=node.output[2] if len(node.output) > 2 and node.output[2] else None)
    e.add("QuantizeLinear", [x, scale, zp], shp, np.uint8, out=node.output[0])
    e.run()


def _centred(e, t, zp, rank, axis):
    """float(t) - float(zp) (zp per-axis along `axis`), or float(t) without a zero point."""
    v = e.cast(t, np.float32)
    if zp:
        v = e.add("Sub", [v, _float_param(e, zp, rank, axis)], e.ctx.shape(t), np.float32)
    return v


def _opt(node, k):
    return node.input[k] if len(node.input) > k and node.input[k] else None


@converter("MatMulInteger")
def matmul_integer(ctx, node, a):
    e = _Expansion(ctx, node)
    A, B = node.input[0], node.input[1]
    ra, rb = len(ctx.shape(A)), len(ctx.shape(B))
    fa = _centred(e, A, _opt(node, 2), ra, ra - 2)   # a_zero_point: scalar or per row of A
    fb = _centred(e, B, _opt(node, 3), rb, rb - 1)   # b_zero_point: scalar or per column of B
    y = e.add("MatMul", [fa, fb], ctx.shape(node.output[0]), np.float32)
    e.cast(y, np.int32, out=node.output[0])
    e.run()


@converter("ConvInteger")
def conv_integer(ctx, node, a):
    e = _Expansion(ctx, node)
    x, w = node.input[0], node.input[1]
    fx = _centred(e, x, _opt(node, 2), len(ctx.shape(x)), 1)
    fw = _centred(e, w, _opt(node, 3), len(ctx.shape(w)), 0)   # w_zero_point: scalar or per output channel
    y = e.add("Conv", [fx, fw], ctx.shape(node.output[0]), np.float32, **a)
    e.cast(y, np.int32, out=node.output[0])
    e.run()


@converter("QLinearMatMul")
def qlinear_matmul(ctx, node, a):
    e = _Expansion(ctx, node)
    a_, a_s, a_zp, b, b_s, b_zp, y_s, y_zp = node.input[:8]
    ra, rb = len(ctx.shape(a_)), len(ctx.shape(b))
    fa = e.add("DequantizeLinear", [a_, a_s, a_zp], ctx.shape(a_), np.float32, axis=ra - 2)
    fb = e.add("DequantizeLinear", [b, b_s, b_zp], ctx.shape(b), np.float32, axis=rb - 1)
    y = e.add("MatMul", [fa, fb], ctx.shape(node.output[0]), np.float32)
    e.add("QuantizeLinear", [y, y_s, y_zp], ctx.shape(node.output[0]), ctx.dtype(y_zp), out=node.output[0])
    e.run()


@converter("QLinearConv")
def qlinear_conv(ctx, node, a):
    """Bias (int32, scale x_scale * w_scale, zero point 0) dequantized with the same product."""
    e = _Expansion(ctx, node)
    x, x_s, x_zp, w, w_s, w_zp, y_s, y_zp = node.input[:8]
    fx = e.add("DequantizeLinear", [x, x_s, x_zp], ctx.shape(x), np.float32, axis=1)
    fw = e.add("DequantizeLinear", [w, w_s, w_zp], ctx.shape(w), np.float32, axis=0)
    ins = [fx, fw]
    bias = _opt(node, 8)
    if bias:
        cout = ctx.shape(w)[0]
        bs = e.add("Mul", [e.cast(x_s, np.float32), e.cast(w_s, np.float32)], [cout] if ctx.shape(w_s) not in ([], [1])
                   else [], np.float32)
        ins.append(e.add("Mul", [e.cast(bias, np.float32), bs], [cout], np.float32))
    y = e.add("Conv", ins, ctx.shape(node.output[0]), np.float32, **a)
    e.add("QuantizeLinear", [y, y_s, y_zp], ctx.shape(node.output[0]), ctx.dtype(y_zp), out=node.output[0])
    e.run()


@converter("QuantizeLinear")
def quantize_linear(ctx, node, a):
    """--keep_quant_nodes: QuantizeLinear as a QNN Quantize op writing an encoded tensor. Otherwise (a node
    that is no Q -> DQ pair) the integers it computes, with element-wise ops."""
    if not getattr(ctx.m, "keep_quant_nodes", False):
        return quantize_arithmetic(ctx, node, a)
    enc = qdq.encoding(ctx.m, node)
    if enc.per_axis:
        raise ConverterError(f"node '{node.name}' (QuantizeLinear): per-axis activation quantization is not supported")
    x = node.input[0]
    lay = ctx.layout_of(x) or "plain"
    qx = ctx.get(x, lay)
    y = ctx.out(node.output[0], lay, dtype=enc.np_dtype())
    ctx.g.tensors[y].quant = enc
    ctx.g.add_op(node.name or node.output[0], "Quantize", [qx], [y])


@converter("DequantizeLinear")
def dequantize_linear(ctx, node, a):
    if not getattr(ctx.m, "keep_quant_nodes", False):
        return dequantize_arithmetic(ctx, node, a)
    x = node.input[0]
    lay = ctx.layout_of(x) or "plain"
    qx = ctx.get(x, lay)
    src = ctx.g.tensors[qx]
    if getattr(src, "quant", None) is None:
        src.quant = qdq.encoding(ctx.m, node)
    y = ctx.out(node.output[0], lay, dtype=np.float32)
    ctx.g.add_op(node.name or node.output[0], "Dequantize", [qx], [y])
