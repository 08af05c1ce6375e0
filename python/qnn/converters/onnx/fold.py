"""Constant folding: evaluate in numpy the nodes whose inputs are all constants (or static shapes)."""
import numpy as np
from onnx import helper, numpy_helper

from qnn.errors import onnx_np_dtype


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
        "Greater": np.greater, "Max": np.maximum, "Min": np.minimum, "Pow": np.power,
        "LessOrEqual": np.less_equal, "GreaterOrEqual": np.greater_equal, "And": np.logical_and,
        "Or": np.logical_or, "Xor": np.logical_xor}
_BOOL_OUT = ("Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor")
_UNARY = {"Sqrt": np.sqrt, "Neg": np.negative, "Abs": np.abs, "Floor": np.floor, "Ceil": np.ceil,
          "Not": np.logical_not, "Sign": np.sign, "Reciprocal": np.reciprocal}
_REDUCE = {"ReduceSum": np.sum, "ReduceProd": np.prod, "ReduceMax": np.max, "ReduceMin": np.min,
           "ReduceMean": np.mean}


def _split(x, a, ins):
    """Split: sizes from the input (opset 13), the attribute (opset <13) or num_outputs/even (opset 18)."""
    ax = a.get("axis", 0) % x.ndim
    if len(ins) > 1 and ins[1] is not None:
        sizes = [int(v) for v in ins[1]]
    elif "split" in a:
        sizes = [int(v) for v in a["split"]]
    else:
        return None  # the count of outputs is not known here; fold_constants handles it
    return np.split(x, np.cumsum(sizes)[:-1], axis=ax)


def _reduce(op, x, a, ins):
    axes = _axes(a, ins)
    if not axes:
        if a.get("noop_with_empty_axes", 0):
            return x
        axes = list(range(x.ndim))
    return _REDUCE[op](x, axis=tuple(int(v) % x.ndim for v in axes), keepdims=bool(a.get("keepdims", 1))).astype(x.dtype)


def _trilu(x, k, upper):
    k = 0 if k is None else int(np.asarray(k).reshape(-1)[0])
    return np.triu(x, k) if upper else np.tril(x, k)


def evaluate(op, ins, a):
    """Evaluate one op on numpy arrays; returns a list of outputs, or None if not foldable."""
    if op in _BIN:
        out = _BIN[op](ins[0], ins[1])
        return [out.astype(ins[0].dtype) if op not in _BOOL_OUT else out]
    if op == "Div":
        if np.issubdtype(ins[0].dtype, np.integer):
            return [(ins[0] // ins[1]).astype(ins[0].dtype)]
        return [(ins[0] / ins[1]).astype(ins[0].dtype)]
    if op in _UNARY:
        return [_UNARY[op](ins[0]).astype(ins[0].dtype)]
    if op in ("Max", "Min", "Sum") and len(ins) != 2:
        f = {"Max": np.maximum, "Min": np.minimum, "Sum": np.add}[op]
        out = ins[0]
        for v in ins[1:]:
            out = f(out, v)
        return [out.astype(ins[0].dtype)]
    if op == "Mod":
        return [(np.fmod(ins[0], ins[1]) if a.get("fmod", 0) else np.mod(ins[0], ins[1])).astype(ins[0].dtype)]
    if op in _REDUCE:
        return [_reduce(op, ins[0], a, ins)]
    if op == "Split":
        return _split(ins[0], a, ins)
    if op == "Tile":
        return [np.tile(ins[0], [int(v) for v in ins[1]])]
    if op == "Trilu":
        return [_trilu(ins[0], ins[1] if len(ins) > 1 else None, a.get("upper", 1))]
    if op == "CumSum":
        ax = int(np.asarray(ins[1]).reshape(-1)[0])
        x = np.flip(ins[0], ax) if a.get("reverse", 0) else ins[0]
        out = np.cumsum(x, axis=ax).astype(ins[0].dtype)
        if a.get("exclusive", 0):
            out = out - x
        return [np.flip(out, ax) if a.get("reverse", 0) else out]
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
        shape = np.broadcast_shapes(ins[0].shape, tuple(int(s) for s in ins[1]))
        return [np.broadcast_to(ins[0], shape).copy()]
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
        if n.op_type == "Shape" and (n.input[0] in model.shapes or n.input[0] in model.consts):
            src = model.consts[n.input[0]].shape if n.input[0] in model.consts else model.shapes[n.input[0]]
            shp = np.array(src, np.int64)
            model.consts[n.output[0]] = _slice(shp, [a.get("start", 0)], [a.get("end", len(shp))])
            continue
        if n.op_type == "EyeLike" and n.input[0] in model.shapes and len(model.shapes[n.input[0]]) == 2:
            rows, cols = model.shapes[n.input[0]]
            dt = onnx_np_dtype(a["dtype"]) if "dtype" in a else model.dtypes.get(n.input[0], np.float32)
            model.consts[n.output[0]] = np.eye(rows, cols, a.get("k", 0), dtype=dt)  # depends on the shape only
            continue
        if n.op_type == "Size" and (n.input[0] in model.shapes or n.input[0] in model.consts):
            src = model.consts[n.input[0]].shape if n.input[0] in model.consts else model.shapes[n.input[0]]
            model.consts[n.output[0]] = np.array(int(np.prod(src)), np.int64)
            continue
        if all((not i) or i in model.consts for i in n.input) and len(n.input) > 0:
            try:
                outs = evaluate(n.op_type, [model.consts[i] if i else None for i in n.input], a)
            except Exception:
                outs = None
            if outs is None and n.op_type == "Split" and n.input[0] in model.consts:
                x = model.consts[n.input[0]]  # opset 18 num_outputs, or an even split over the outputs
                ax = a.get("axis", 0) % x.ndim
                outs = np.split(x, len(n.output), axis=ax) if x.shape[ax] % len(n.output) == 0 else None
            if outs is not None:
                for name, v in zip(n.output, outs):
                    model.consts[name] = np.asarray(v)
                continue
        remaining.append(n)
    return remaining
