"""RMSNorm -> RMSNormalization (ONNX opset 23; the converter emits QNN RmsNorm).

Matches y = x * 1/sqrt(mean(x^2, -1, keepdims) + eps) [* gamma] in the forms torch and Hugging Face export:
  sq   = Pow(x, 2) | Mul(x, x)
  ms   = ReduceMean(sq, axes=[last], keepdims=1)       (axes as attribute or constant input)
  v    = Add(ms, eps)                                   (eps a constant scalar, either side)
  y    = Mul(x, Div(1, Sqrt(v))) | Mul(x, Reciprocal(Sqrt(v))) | Div(x, Sqrt(v))
  out  = Mul(y, gamma) | Mul(gamma, y)                  (optional; gamma a constant of the last dim's size,
                                                         an optional Cast to float between y and the Mul)
Every intermediate must have no other consumer and not be a graph output."""
import numpy as np
from onnx import helper

from ..fold import attrs
from ..match import apply_fused, const_scalar, consumers, other_input, producer, single_use


def _last_axis_mean(model, rm):
    x = rm.input[0]
    if x not in model.shapes:
        return False
    rank = len(model.shapes[x])
    a = attrs(rm)
    axes = a.get("axes")
    if axes is None and len(rm.input) > 1 and rm.input[1] in model.consts:
        axes = list(model.consts[rm.input[1]].reshape(-1))
    return axes is not None and [int(v) % rank for v in axes] == [rank - 1] and a.get("keepdims", 1) == 1


def _square_of(model, node):
    """x when node computes x^2, else None."""
    if node.op_type == "Mul" and node.input[0] == node.input[1]:
        return node.input[0]
    if node.op_type == "Pow" and const_scalar(model, node.input[1], 2.0, tol=0):
        return node.input[0]
    return None


def _float_cast(model, node):
    return node.op_type == "Cast" and attrs(node).get("to") == 1 and model.dtypes.get(node.input[0]) == np.float32


def fuse(model):
    cons, prod = consumers(model.nodes), producer(model.nodes)
    fused, count = {}, 0
    one = lambda name: cons.get(name, [None])[0] if single_use(cons, model, name) else None
    for rm in model.nodes:
        if rm.op_type != "ReduceMean" or not _last_axis_mean(model, rm):
            continue
        sq = prod.get(rm.input[0])
        x = _square_of(model, sq) if sq is not None else None
        if x is None or model.dtypes.get(x) != np.float32 or not single_use(cons, model, sq.output[0]):
            continue
        add = one(rm.output[0])
        if add is None or add.op_type != "Add":
            continue
        e = model.consts.get(other_input(add, rm.output[0]))
        if e is None or e.size != 1:
            continue
        sqrt = one(add.output[0])
        if sqrt is None or sqrt.op_type != "Sqrt":
            continue
        chain = [sq, rm, add, sqrt]
        nxt = one(sqrt.output[0])
        if nxt is None:
            continue
        if nxt.op_type == "Div" and nxt.input[1] == sqrt.output[0] and nxt.input[0] == x:
            y = nxt
        else:
            if nxt.op_type == "Reciprocal" or (nxt.op_type == "Div" and nxt.input[1] == sqrt.output[0]
                                                and const_scalar(model, nxt.input[0], 1.0, tol=0)):
                inv = nxt
            else:
                continue
            y = one(inv.output[0])
            if y is None or y.op_type != "Mul" or other_input(y, inv.output[0]) != x:
                continue
            chain.append(inv)
        chain.append(y)
        last, width = y, model.shapes[x][-1]
        gamma = None
        g = one(last.output[0])
        cast = None
        if g is not None and _float_cast(model, g):
            cast, g = g, one(g.output[0])
        if g is not None and g.op_type == "Mul":
            src = (cast or last).output[0]
            gv = model.consts.get(other_input(g, src))
            if gv is not None and gv.size == width and gv.dtype == np.float32 and g.input[0] != g.input[1] \
                    and (gv.ndim == 0 or gv.shape[-1] == width):
                gamma = gv.reshape(-1).astype(np.float32)
                chain += [n for n in (cast, g) if n is not None]
                last = g
        gname = last.output[0] + "__rms_gamma"
        model.consts[gname] = gamma if gamma is not None else np.ones(width, np.float32)
        model.shapes[gname], model.dtypes[gname] = [width], np.dtype(np.float32)
        node = helper.make_node("RMSNormalization", [x, gname], [last.output[0]],
                                name=(rm.name or last.output[0]) + "_rmsnorm", axis=-1,
                                epsilon=float(e.reshape(-1)[0]))
        for n in chain:
            fused[id(n)] = None
        fused[id(last)] = node
        count += 1
    apply_fused(model, fused)
    return count
