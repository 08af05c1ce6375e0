"""QDQ ONNX models: QuantizeLinear/DequantizeLinear pairs carry encodings (ONNX Runtime's quantizer).

Weights and biases stored quantized behind a DequantizeLinear become float constants again (exactly
(q - zero_point) * scale) and keep their encoding, so re-quantizing them gives back the same integers.
An activation's QuantizeLinear -> DequantizeLinear pair is removed and its encoding recorded on the
tensor (float = (q + offset) * scale with offset = -zero_point, storage signedness from the zero point's
type). With --keep_quant_nodes the activation pairs stay, converted to QNN Quantize / Dequantize ops by
qnn.converters.onnx.ops.quantized (with encoding() of this module).
"""
import numpy as np

from qnn.errors import ConverterError
from . import encodings as E

_BITS = {np.dtype(np.uint8): (8, False), np.dtype(np.int8): (8, True), np.dtype(np.uint16): (16, False),
         np.dtype(np.int16): (16, True), np.dtype(np.int32): (32, True)}
_QDQ_DOMAINS = ("", "ai.onnx", "com.microsoft")


def _is(n, op):
    return n.op_type == op and n.domain in _QDQ_DOMAINS


def encoding(model, node, zp_dtype=None):
    """Encoding of a Q or DQ node from its constant scale / zero point."""
    if node.input[1] not in model.consts:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): a non-constant scale is not supported")
    scale = model.consts[node.input[1]].astype(np.float64).reshape(-1)
    if len(node.input) > 2 and node.input[2]:
        if node.input[2] not in model.consts:
            raise ConverterError(f"node '{node.name}' ({node.op_type}): a non-constant zero point is not supported")
        zp = model.consts[node.input[2]]
    else:
        zp = np.zeros(scale.shape, zp_dtype if zp_dtype is not None else np.uint8)
    if zp.dtype not in _BITS:
        raise ConverterError(f"node '{node.name}' ({node.op_type}): zero point type {zp.dtype} is not supported")
    bw, signed = _BITS[zp.dtype]
    axis = None
    if scale.size > 1:
        axis = "out_channel"   # aimed at the QNN layout's output-channel axis when the param is placed
    return E.Encoding(bw, scale, -zp.astype(np.int64).reshape(-1), signed, axis=axis)


def _dequantize(model, node):
    q = model.consts[node.input[0]]
    enc = encoding(model, node, q.dtype)
    scale, zp = enc.scale.astype(np.float64), -enc.offset.astype(np.float64)
    if enc.per_axis:
        ax = [a for a in node.attribute if a.name == "axis"]
        axis = (ax[0].i if ax else 1) % q.ndim
        shape = [1] * q.ndim
        shape[axis] = -1
        scale, zp = scale.reshape(shape), zp.reshape(shape)
    return ((q.astype(np.float64) - zp) * scale).astype(np.float32), enc


def strip(model, keep_quant_nodes):
    """Rewrite model.nodes in place. -> (activation encodings, param encodings), by ONNX tensor name."""
    acts, params = {}, {}
    model.keep_quant_nodes = keep_quant_nodes
    nodes = model.nodes
    consumers = {}
    for n in nodes:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    drop = set()
    # weights / biases: constant -> DequantizeLinear
    for n in nodes:
        if _is(n, "DequantizeLinear") and n.input[0] in model.consts:
            model.consts[n.output[0]], params[n.output[0]] = _dequantize(model, n)
            drop.add(id(n))
    if keep_quant_nodes:
        model.nodes = [n for n in nodes if id(n) not in drop]
        return acts, params
    # activations: x -> QuantizeLinear -> DequantizeLinear(s)
    rename = {}
    for n in nodes:
        if not _is(n, "QuantizeLinear") or id(n) in drop:
            continue
        dqs = consumers.get(n.output[0], [])
        if (not dqs or not all(_is(d, "DequantizeLinear") for d in dqs) or n.output[0] in model.outputs
                or not all(i in model.consts for i in n.input[1:] if i)):
            continue   # not a fake-quantization pair: the node computes its integers (ops/quantized.py)
        enc = encoding(model, n)
        if enc.per_axis:
            raise ConverterError(f"node '{n.name}' (QuantizeLinear): per-axis activation quantization is not supported")
        x = n.input[0]
        acts[x] = enc
        drop.add(id(n))
        for d in dqs:
            drop.add(id(d))
            acts[d.output[0]] = enc
            rename[d.output[0]] = x
    kept = [n for n in nodes if id(n) not in drop]

    def final(name):
        while name in rename:
            name = rename[name]
        return name
    # a DQ output that is a graph output keeps its name: the tensor feeding the Q takes it instead
    out_alias = {final(o): o for o in model.outputs if o in rename}
    for n in kept:
        for k, i in enumerate(n.input):
            if i in rename:
                n.input[k] = out_alias.get(final(i), final(i))
        for k, o in enumerate(n.output):
            if o in out_alias:
                n.output[k] = out_alias[o]
    for src, dst in out_alias.items():
        if src in model.inputs:
            raise ConverterError(f"graph input '{src}' reaches output '{dst}' through Q/DQ only; nothing to compute")
        for d in (model.shapes, model.dtypes):
            if src in d:
                d[dst] = d[src]
    model.nodes = kept
    return acts, params
