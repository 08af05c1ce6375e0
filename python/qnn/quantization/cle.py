"""--algorithms cle: cross-layer equalization (Nagel et al., arXiv 1906.04721) on the ONNX graph.

Runs after BatchNormalization folding. Pairs Conv A -> [Relu | Relu6] -> Conv B in a single branch
(A's output and the activation's output each have exactly one consumer; B is a plain or depthwise Conv)
are rescaled: channel c of A is divided by s_c and input channel c of B multiplied by it, with
s_c = sqrt(r1_c * r2_c) / r2_c (r1, r2 the channel's max |weight| in A and B), which leaves the float
function unchanged through ReLU (positively homogeneous). As the guide documents, Relu6 (Clip 0..6)
in a pair becomes Relu; other activations end the pattern. Chains (Conv -> depthwise -> Conv) are
equalized pair by pair, repeated a few rounds. High-bias absorption is not done.
"""
import numpy as np
from onnx import helper

from qnn.converters.onnx.fold import attrs

ROUNDS = 4


def _conv_weight(model, n):
    if n.op_type != "Conv" or len(n.input) < 2 or n.input[1] not in model.consts:
        return None
    return model.consts[n.input[1]]


def _is_relu6(model, n):
    if n.op_type != "Clip":
        return False
    lo = model.consts.get(n.input[1]) if len(n.input) > 1 and n.input[1] else attrs(n).get("min")
    return lo is not None and float(np.asarray(lo).reshape(-1)[0]) == 0.0


def _pairs(model):
    cons = {}
    for n in model.nodes:
        for i in n.input:
            cons.setdefault(i, []).append(n)
    single = lambda t: len(cons.get(t, [])) == 1 and t not in model.outputs  # noqa: E731
    out = []
    for a in model.nodes:
        if _conv_weight(model, a) is None or not single(a.output[0]):
            continue
        nxt = cons[a.output[0]][0]
        act = None
        if nxt.op_type == "Relu" or _is_relu6(model, nxt):
            if not single(nxt.output[0]):
                continue
            act, nxt = nxt, cons[nxt.output[0]][0]
        if _conv_weight(model, nxt) is None or nxt.input[0] != (act.output[0] if act else a.output[0]):
            continue
        wa, wb = model.consts[a.input[1]], model.consts[nxt.input[1]]
        group_b = attrs(nxt).get("group", 1)
        if attrs(a).get("group", 1) not in (1, wa.shape[0]) or group_b not in (1, wb.shape[0]):
            continue
        if group_b != 1 and wb.shape[0] != wa.shape[0]:
            continue
        out.append((a, act, nxt))
    return out


def _own(model, n, k, value):
    """Give node n's input k its own constant (weights may be shared) holding value."""
    name = n.input[k] + "__cle"
    while name in model.consts:
        name += "_"
    model.consts[name] = value.astype(np.float32)
    n.input[k] = name


def equalize(model):
    """-> number of equalized pairs."""
    pairs = _pairs(model)
    for a, act, _ in pairs:
        if act is not None and act.op_type == "Clip":
            act.CopyFrom(helper.make_node("Relu", [act.input[0]], list(act.output), name=act.name))
        _own(model, a, 1, model.consts[a.input[1]])
        if len(a.input) > 2 and a.input[2]:
            _own(model, a, 2, model.consts[a.input[2]])
    for _, _, b in pairs:
        _own(model, b, 1, model.consts[b.input[1]])
    for _ in range(ROUNDS):
        for a, _, b in pairs:
            wa, wb = model.consts[a.input[1]].astype(np.float64), model.consts[b.input[1]].astype(np.float64)
            depthwise_b = attrs(b).get("group", 1) != 1
            r1 = np.abs(wa).reshape(wa.shape[0], -1).max(axis=1)
            r2 = np.abs(wb).reshape(wb.shape[0], -1).max(axis=1) if depthwise_b else \
                np.abs(wb).transpose(1, 0, 2, 3).reshape(wb.shape[1], -1).max(axis=1)
            ok = (r1 > 0) & (r2 > 0)
            s = np.where(ok, np.sqrt(np.where(ok, r1 * r2, 1.0)) / np.where(ok, r2, 1.0), 1.0)
            model.consts[a.input[1]] = (wa / s.reshape(-1, 1, 1, 1)).astype(np.float32)
            if len(a.input) > 2 and a.input[2]:
                model.consts[a.input[2]] = (model.consts[a.input[2]].astype(np.float64) / s).astype(np.float32)
            scale_b = s.reshape(-1, 1, 1, 1) if depthwise_b else s.reshape(1, -1, 1, 1)
            model.consts[b.input[1]] = (wb * scale_b).astype(np.float32)
    return len(pairs)
