"""Constant folding: evaluate in numpy the nodes whose inputs are all constants (or static shapes)."""
import numpy as np
from onnx import helper, numpy_helper

from .errors import onnx_np_dtype


def attrs(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _slice(x, starts, ends, axes=None, steps=None):
    axes = list(range(len(starts))) if axes is None else [int(a) % x.ndim for a in axes]
    steps = [1] * len(starts) if steps is None else steps
    sl = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        sl[a] = slice(int(max(min(s, 2**62), -2**62)), int(max(min(e, 2**62), -2**62)), int(st))
    return x[tuple(sl)]


def _reshape(x, shape, allowzero=0):
    shape = [int(s) for s in shape]
    if not allowzero:
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return x.reshape(shape)


def _axes(a, ins, idx=1):
    if "axes" in a:
        return [int(v) for v in a["axes"]]
    if len(ins) > idx and ins[idx] is not None:
        return [int(v) for v in ins[idx]]
    return None


def _unsqueeze(x, axes):
    r = x.ndim + len(axes)
    for ax in sorted(int(v) % r for v in axes):
        x = np.expand_dims(x, ax)
    return x


_BIN = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Equal": np.equal, "Less": np.less,
        "Greater": np.greater, "Max": np.maximum, "Min": np.minimum, "Pow": np.power}


def evaluate(op, ins, a):
    """Evaluate one op on numpy arrays; returns a list of outputs, or None if not foldable."""
    if op in _BIN:
        out = _BIN[op](ins[0], ins[1])
        return [out.astype(ins[0].dtype) if op not in ("Equal", "Less", "Greater") else out]
    if op == "Div":
        if np.issubdtype(ins[0].dtype, np.integer):
            return [(ins[0] // ins[1]).astype(ins[0].dtype)]
        return [(ins[0] / ins[1]).astype(ins[0].dtype)]
    if op == "Sqrt":
        return [np.sqrt(ins[0])]
    if op == "Neg":
        return [-ins[0]]
    if op in ("Identity", "Dropout"):
        return [ins[0]]
    if op == "Cast":
        return [ins[0].astype(onnx_np_dtype(a["to"]))]
    if op == "Reshape":
        return [_reshape(ins[0], ins[1], a.get("allowzero", 0))]
    if op == "Unsqueeze":
        return [_unsqueeze(ins[0], _axes(a, ins))]
    if op == "Squeeze":
        ax = _axes(a, ins)
        return [np.squeeze(ins[0], axis=None if ax is None else tuple(int(v) % ins[0].ndim for v in ax))]
    if op == "Concat":
        return [np.concatenate(ins, axis=a["axis"])]
    if op == "Gather":
        return [np.take(ins[0], ins[1].astype(np.int64), axis=a.get("axis", 0))]
    if op == "Slice":
        if "starts" in a:
            return [_slice(ins[0], a["starts"], a["ends"], a.get("axes"))]
        return [_slice(ins[0], ins[1], ins[2], ins[3] if len(ins) > 3 else None, ins[4] if len(ins) > 4 else None)]
    if op == "Transpose":
        return [np.transpose(ins[0], a.get("perm"))]
    if op == "Range":
        return [np.arange(ins[0], ins[1], ins[2]).astype(ins[0].dtype)]
    if op == "ConstantOfShape":
        v = numpy_helper.to_array(a["value"]) if "value" in a else np.zeros(1, np.float32)
        return [np.full([int(s) for s in ins[0]], v.reshape(-1)[0], dtype=v.dtype)]
    if op == "Expand":
        return [ins[0] * np.ones([int(s) for s in ins[1]], dtype=ins[0].dtype)]
    if op == "Where":
        return [np.where(ins[0], ins[1], ins[2])]
    if op == "Flatten":
        ax = a.get("axis", 1) % max(ins[0].ndim, 1)
        return [ins[0].reshape(int(np.prod(ins[0].shape[:ax])), -1)]
    return None


def fold_constants(nodes, model):
    """Fold what can be folded; record results in model.consts; return the nodes left."""
    remaining = []
    for n in nodes:
        a = attrs(n)
        if n.op_type == "Constant":
            if "value" in a:
                val = numpy_helper.to_array(a["value"])
            elif "value_float" in a:
                val = np.array(a["value_float"], np.float32)
            elif "value_floats" in a:
                val = np.array(a["value_floats"], np.float32)
            elif "value_int" in a:
                val = np.array(a["value_int"], np.int64)
            elif "value_ints" in a:
                val = np.array(a["value_ints"], np.int64)
            else:
                remaining.append(n)
                continue
            model.consts[n.output[0]] = val
            continue
        if n.op_type == "Shape" and n.input[0] in model.shapes:
            shp = np.array(model.shapes[n.input[0]], np.int64)
            model.consts[n.output[0]] = _slice(shp, [a.get("start", 0)], [a.get("end", len(shp))])
            continue
        if n.op_type == "EyeLike" and n.input[0] in model.shapes and len(model.shapes[n.input[0]]) == 2:
            rows, cols = model.shapes[n.input[0]]
            dt = onnx_np_dtype(a["dtype"]) if "dtype" in a else model.dtypes.get(n.input[0], np.float32)
            model.consts[n.output[0]] = np.eye(rows, cols, a.get("k", 0), dtype=dt)  # depends on the shape only
            continue
        if n.op_type == "Size" and n.input[0] in model.shapes:
            model.consts[n.output[0]] = np.array(int(np.prod(model.shapes[n.input[0]])), np.int64)
            continue
        if all((not i) or i in model.consts for i in n.input) and len(n.input) > 0:
            try:
                outs = evaluate(n.op_type, [model.consts[i] if i else None for i in n.input], a)
            except Exception:
                outs = None
            if outs is not None:
                for name, v in zip(n.output, outs):
                    model.consts[name] = np.asarray(v)
                continue
        remaining.append(n)
    return remaining
