"""Element-wise ops (layout follows the inputs; constants are permuted to match NHWC)."""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import scalar
from .registry import converter

BINARY = {"Add": "ElementWiseAdd", "Sub": "ElementWiseSubtract", "Mul": "ElementWiseMultiply",
          "Div": "ElementWiseDivide", "Pow": "ElementWisePower", "Max": "ElementWiseMaximum",
          "Min": "ElementWiseMinimum", "Equal": "ElementWiseEqual", "Greater": "ElementWiseGreater",
          "GreaterOrEqual": "ElementWiseGreaterEqual", "Less": "ElementWiseLess",
          "LessOrEqual": "ElementWiseLessEqual", "And": "ElementWiseAnd", "Or": "ElementWiseOr",
          "Xor": "ElementWiseXor", "Where": "ElementWiseSelect"}
UNARY = {"Relu": "Relu", "Sigmoid": "Sigmoid", "Tanh": "Tanh", "HardSwish": "HardSwish", "Gelu": "Gelu",
         "Sqrt": "ElementWiseSquareRoot", "Exp": "ElementWiseExp", "Log": "ElementWiseLog",
         "Abs": "ElementWiseAbs", "Neg": "ElementWiseNeg", "Floor": "ElementWiseFloor",
         "Ceil": "ElementWiseCeil", "Sin": "ElementWiseSin", "Cos": "ElementWiseCos",
         "Not": "ElementWiseNot", "Round": "ElementWiseRound", "Sign": "ElementWiseSign",
         "Softplus": "ElementWiseSoftplus", "Elu": "Elu"}


def pick_layout(ctx, inputs, out_rank):
    """NHWC if some dynamic input is held in NHWC only and every input can follow; else plain."""
    dyn = [i for i in inputs if i and not ctx.is_const(i)]
    if out_rank != 4 or not any(ctx.layout_of(i) == "nhwc" for i in dyn):
        return "plain"
    if any(len(ctx.shape(i)) != 4 for i in dyn):
        return "plain"
    return "nhwc"


def emit(ctx, node, qnn_type, inputs, params=(), out_dtype=None):
    lay = pick_layout(ctx, inputs, len(ctx.shape(node.output[0])))
    qins = [ctx.get(i, lay) for i in inputs]
    y = ctx.out(node.output[0], lay, dtype=out_dtype)
    ctx.g.add_op(node.name or node.output[0], qnn_type, qins, [y], list(params))
    return y


@converter(*BINARY)
def binary(ctx, node, a):
    ins = list(node.input)
    if node.op_type in ("Max", "Min") and len(ins) != 2:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): only 2 inputs are supported")
    dt = np.bool_ if node.op_type in ("Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "And", "Or", "Xor") else None
    emit(ctx, node, BINARY[node.op_type], ins, out_dtype=dt)


@converter(*UNARY)
def unary(ctx, node, a):
    params = []
    if node.op_type == "Elu":
        params = [scalar("alpha", np.float32, a.get("alpha", 1.0))]
    if node.op_type == "Gelu" and a.get("approximate", b"none") not in (b"none", "none"):
        raise ConverterError(f"node '{node.name}' (Gelu): approximate='tanh' is not supported")
    emit(ctx, node, UNARY[node.op_type], [node.input[0]], params)


@converter("IsNaN", "IsInf")
def float_class(ctx, node, a):
    """The QNN ops of their own (op set 2.5 / QnnOpDef.h 2.32), float in, BOOL_8 out."""
    if ctx.dtype(node.input[0]) != np.float32:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): only float inputs are supported")
    if node.op_type == "IsNaN":
        emit(ctx, node, "IsNan", [node.input[0]], out_dtype=np.bool_)
        return
    params = [scalar("detect_negative", np.bool_, bool(a.get("detect_negative", 1))),
              scalar("detect_positive", np.bool_, bool(a.get("detect_positive", 1)))]
    emit(ctx, node, "IsInf", [node.input[0]], params, out_dtype=np.bool_)


def _clip_bound(ctx, node, a, idx, attr, default):
    if len(node.input) > idx and node.input[idx]:
        if not ctx.is_const(node.input[idx]):
            raise ConverterError(f"node '{node.name}' (Clip): non-constant min/max are not supported")
        return float(ctx.const_value(node.input[idx]).reshape(-1)[0])
    return float(a.get(attr, default))


@converter("Clip")
def clip(ctx, node, a):
    lo = _clip_bound(ctx, node, a, 1, "min", -3.4028234663852886e38)
    hi = _clip_bound(ctx, node, a, 2, "max", 3.4028234663852886e38)
    emit(ctx, node, "ReluMinMax", [node.input[0]],
         [scalar("min_value", np.float32, lo), scalar("max_value", np.float32, hi)])


def _prelu(ctx, node, slope):
    """Prelu with a constant slope array (ONNX-broadcastable to the input)."""
    x = node.input[0]
    lay = pick_layout(ctx, [x], len(ctx.shape(node.output[0])))
    slope = np.asarray(slope, np.float32)
    if lay == "nhwc":
        slope = slope.reshape([1] * (4 - slope.ndim) + list(slope.shape)).transpose(0, 2, 3, 1)
    while slope.ndim > 1 and slope.shape[0] == 1:
        slope = slope.reshape(slope.shape[1:])
    qx = ctx.get(x, lay)
    qs = ctx.new_const(node.output[0] + "_slope", slope)
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(node.name or node.output[0], "Prelu", [qx, qs], [y])


@converter("LeakyRelu")
def leaky_relu(ctx, node, a):
    _prelu(ctx, node, np.array([a.get("alpha", 0.01)], np.float32))


@converter("PRelu")
def prelu(ctx, node, a):
    if not ctx.is_const(node.input[1]):  # a slope computed in the graph broadcasts like a binary operand
        emit(ctx, node, "Prelu", [node.input[0], node.input[1]])
        return
    _prelu(ctx, node, ctx.const_value(node.input[1]))


@converter("HardSigmoid")
def hard_sigmoid(ctx, node, a):
    """max(0, min(1, alpha*x + beta)) as Mul, Add, ReluMinMax."""
    x = node.input[0]
    lay = pick_layout(ctx, [x], len(ctx.shape(node.output[0])))
    qx = ctx.get(x, lay)
    shp = ctx.g.tensors[qx].shape
    base = node.name or node.output[0]
    t1 = ctx.g.add_tensor(base + "_scaled", shp, np.float32, "native")
    ctx.g.add_op(base + "_mul", "ElementWiseMultiply", [qx, ctx.new_const(base + "_alpha", [a.get("alpha", 0.2)])], [t1])
    t2 = ctx.g.add_tensor(base + "_shifted", shp, np.float32, "native")
    ctx.g.add_op(base + "_add", "ElementWiseAdd", [t1, ctx.new_const(base + "_beta", [a.get("beta", 0.5)])], [t2])
    y = ctx.out(node.output[0], lay)
    ctx.g.add_op(base, "ReluMinMax", [t2], [y], [scalar("min_value", np.float32, 0.0), scalar("max_value", np.float32, 1.0)])


@converter("Cast")
def cast(ctx, node, a):
    emit(ctx, node, "Cast", [node.input[0]])
