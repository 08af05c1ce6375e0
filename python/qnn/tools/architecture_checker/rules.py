"""The checker's rules. Each finds nodes and says why the HTP runs them slower than it could; the ones
with a safe rewrite (`apply=<rule>`) carry a modifier. The reasons are those of the reference guide
(16-bit activations, narrow channels, element-wise divide, PReLU) and of the HTP simulator's cost model
(backends/htp_sim/htp_cost_model.cpp: 16-bit data halves HVX lanes and quarters the HMX rate, float data
halves both, divide is evaluated at 8x an element-wise op's cost)."""
import numpy as np

from qnn.quantization.encodings import asymmetric

CONV_OPS = ("Conv2d", "DepthWiseConv2d", "TransposeConv2d", "Conv3d", "TransposeConv3d")
MIN_CHANNELS = 32


class Finding:
    def __init__(self, rule, op, issue, recommendation, kind="performance", modifiable=False, info=""):
        self.rule, self.op, self.issue, self.recommendation = rule, op, issue, recommendation
        self.kind, self.modifiable, self.info = kind, modifiable, info


def _bits(t):
    enc = getattr(t, "quant", None)
    return enc.bitwidth if enc is not None and not enc.is_float else None


def activation_16bit(m):
    out = []
    for op in m.graph.ops:
        wide = [o for o in op.outputs if _bits(m.graph.tensors[o]) == 16]
        if wide:
            out.append(Finding("activation_16bit", op, "16-bit activation output",
                               "use 8-bit activations where accuracy allows: 16-bit data halves the HVX lanes "
                               "and quarters the HMX rate"))
    return out


def narrow_channels(m):
    out = []
    for op in m.graph.ops:
        if op.type not in CONV_OPS:
            continue
        cin = m.graph.tensors[op.inputs[0]].shape[-1]
        cout = m.graph.tensors[op.outputs[0]].shape[-1]
        if min(cin, cout) < MIN_CHANNELS:
            out.append(Finding("narrow_channels", op, f"{op.type} with {cin} input / {cout} output channels",
                               f"increase the channel count to at least {MIN_CHANNELS}: the HTP computes "
                               f"convolutions in blocks of {MIN_CHANNELS} channels, the rest of a block is padding"))
    return out


def elwisediv(m):
    out = []
    for op in m.graph.ops:
        if op.type != "ElementWiseDivide":
            continue
        static = m.graph.tensors[op.inputs[1]].kind == "static"
        out.append(Finding("elwisediv", op, "ElementWiseDivide",
                           "replace with ElementWiseMultiply by the reciprocal: a divide costs about 8 element-wise "
                           "operations on the HVX", modifiable=static,
                           info="divisor is static: apply=elwisediv multiplies by its reciprocal" if static
                           else "divisor is computed at run time: no rewrite"))
    return out


def prelu(m):
    out = []
    for op in m.graph.ops:
        if op.type == "Prelu":
            out.append(Finding("prelu", op, "Prelu", "replace with Relu where the model tolerates it (negative "
                               "inputs then become 0): Relu folds into the producing convolution", modifiable=True,
                               info="apply=prelu changes outputs for negative inputs; check accuracy after"))
    return out


def float_in_quantized(m):
    if not m.quantized:
        return []
    out = []
    for op in m.graph.ops:
        floats = [o for o in op.outputs if m.graph.tensors[o].dtype == np.float32 and
                  getattr(m.graph.tensors[o], "quant", None) is None]
        if floats:
            out.append(Finding("float_in_quantized", op, "floating-point output in a quantized graph",
                               "quantize it (or give it an encoding in the overrides): float data halves the HMX "
                               "rate and needs conversions at the boundary"))
    return out


RULES = {"activation_16bit": activation_16bit, "narrow_channels": narrow_channels, "elwisediv": elwisediv,
         "prelu": prelu, "float_in_quantized": float_in_quantized}


# ---- modifiers ----

def apply_elwisediv(m, f):
    """x / c -> x * (1 / c) with a static reciprocal (re-quantized on its own range when c was quantized)."""
    g, op = m.graph, f.op
    d = g.tensors[op.inputs[1]]
    enc = getattr(d, "quant", None)
    if enc is not None and enc.per_axis:
        return "per-axis quantized divisor: not rewritten"
    values = d.data.astype(np.float64)
    if enc is not None:   # real = (q + offset) * scale
        values = (values + enc.offset.astype(np.float64)) * enc.scale.astype(np.float64)
    if np.any(values == 0):
        return "divisor has zeros: not rewritten"
    recip = 1.0 / values
    name = g.add_tensor(d.name + "_reciprocal", d.shape, np.float32, "static", recip.astype(np.float32))
    t = g.tensors[name]
    if enc is not None:
        e = asymmetric(float(recip.min()), float(recip.max()), enc.bitwidth)
        t.quant, t.float_data, t.data = e, t.data, e.quantize(recip)
    op.inputs[1] = name
    op.type = "ElementWiseMultiply"
    _drop_if_unused(m, d.name)
    return f"ElementWiseMultiply by {name}"


def apply_prelu(m, f):
    g, op = m.graph, f.op
    slope = op.inputs[1] if len(op.inputs) > 1 else None
    op.type, op.inputs, op.params = "Relu", op.inputs[:1], []
    if slope:
        _drop_if_unused(m, slope)
    return "Relu"


def _drop_if_unused(m, name):
    if not any(name in op.inputs for op in m.graph.ops) and m.graph.tensors[name].kind == "static":
        del m.graph.tensors[name]


MODIFIERS = {"elwisediv": apply_elwisediv, "prelu": apply_prelu}
