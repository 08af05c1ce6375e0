"""Graph rewrites on the ONNX node list: BatchNormalization folding, Erf-Gelu and decomposed LayerNorm fusion,
MatMul + bias Add fusion."""
import numpy as np
from onnx import helper

from .fold import attrs
from . import fusions
from .match import apply_fused, const_scalar, consumers, other_input, producer, single_use


def fold_batchnorm(model):
    """Conv -> BatchNormalization (conv output used only by the BN) becomes one Conv with new weights."""
    cons = consumers(model.nodes)
    prod = producer(model.nodes)
    drop = set()
    for bn in model.nodes:
        if bn.op_type != "BatchNormalization" or len(bn.output) > 1 and any(bn.output[1:]):
            continue
        conv = prod.get(bn.input[0])
        if conv is None or conv.op_type != "Conv" or len(cons.get(conv.output[0], [])) != 1 \
                or conv.output[0] in model.outputs or not all(i in model.consts for i in bn.input[1:5]) \
                or conv.input[1] not in model.consts:
            continue
        eps = attrs(bn).get("epsilon", 1e-5)
        s, b, mean, var = (model.consts[i].astype(np.float64) for i in bn.input[1:5])
        scale = s / np.sqrt(var + eps)
        w = model.consts[conv.input[1]].astype(np.float64)
        bias = model.consts[conv.input[2]].astype(np.float64) if len(conv.input) > 2 and conv.input[2] else 0.0
        wname, bname = conv.input[1] + "__bnfold", bn.output[0] + "__bnfold_bias"
        model.consts[wname] = (w * scale.reshape(-1, 1, 1, 1)).astype(np.float32)
        model.consts[bname] = ((bias - mean) * scale + b).astype(np.float32)
        new = helper.make_node("Conv", [conv.input[0], wname, bname], [bn.output[0]], name=conv.name or bn.name)
        new.attribute.extend(conv.attribute)
        conv.CopyFrom(new)
        drop.add(id(bn))
    model.nodes = [n for n in model.nodes if id(n) not in drop]


def fuse_gelu(model):
    """x * 0.5 * (1 + erf(x / sqrt(2)))  (Div by sqrt2 or Mul by 1/sqrt2; the 0.5 on either side) -> Gelu."""
    cons = consumers(model.nodes)
    fused = {}
    for erf in model.nodes:
        if erf.op_type != "Erf":
            continue
        prod = producer(model.nodes)
        scale = prod.get(erf.input[0])
        if scale is None or not single_use(cons, model, scale.output[0]):
            continue
        if scale.op_type == "Div" and const_scalar(model, scale.input[1], np.sqrt(2.0)):
            x = scale.input[0]
        elif scale.op_type == "Mul" and any(const_scalar(model, i, 1 / np.sqrt(2.0)) for i in scale.input):
            x = scale.input[0] if scale.input[0] not in model.consts else scale.input[1]
        else:
            continue
        add = cons.get(erf.output[0], [None])[0]
        if add is None or add.op_type != "Add" or not single_use(cons, model, erf.output[0]) \
                or not const_scalar(model, other_input(add, erf.output[0]), 1.0) or not single_use(cons, model, add.output[0]):
            continue
        m1 = cons[add.output[0]][0]
        if m1.op_type != "Mul":
            continue
        other = other_input(m1, add.output[0])
        if other == x:  # x*(1+erf) then *0.5
            m2 = cons.get(m1.output[0], [None])[0]
            if m2 is None or m2.op_type != "Mul" or not single_use(cons, model, m1.output[0]) \
                    or not const_scalar(model, other_input(m2, m1.output[0]), 0.5):
                continue
            chain, final = [scale, erf, add, m1, m2], m2
        else:  # (0.5*x) * (1+erf)
            half = prod.get(other)
            if half is None or half.op_type != "Mul" or x not in half.input or not single_use(cons, model, other) \
                    or not const_scalar(model, other_input(half, x), 0.5):
                continue
            chain, final = [scale, erf, add, half, m1], m1
        for n in chain:
            fused[id(n)] = None
        fused[id(final)] = helper.make_node("Gelu", [x], [final.output[0]], name=(erf.name or final.output[0]) + "_gelu")
    apply_fused(model, fused)


def fuse_layernorm(model):
    """mean=ReduceMean(x,-1); d=x-mean; var=ReduceMean(d*d or d^2); y=d/Sqrt(var+eps) [*g] [+b] -> LayerNormalization."""
    cons = consumers(model.nodes)
    fused = {}
    for rm in model.nodes:
        if rm.op_type != "ReduceMean" or rm.input[0] not in model.shapes:
            continue
        x, rank = rm.input[0], len(model.shapes[rm.input[0]])
        a = attrs(rm)
        axes = a.get("axes") or (list(model.consts[rm.input[1]]) if len(rm.input) > 1 and rm.input[1] in model.consts else None)
        if axes is None or [int(v) % rank for v in axes] != [rank - 1] or a.get("keepdims", 1) != 1:
            continue
        subs = [n for n in cons.get(rm.output[0], []) if n.op_type == "Sub" and n.input[0] == x and n.input[1] == rm.output[0]]
        if len(subs) != 1 or len(cons[rm.output[0]]) != 1:
            continue
        d = subs[0].output[0]
        users = list({id(n): n for n in cons.get(d, [])}.values())
        sq = [n for n in users if (n.op_type == "Mul" and n.input[0] == d and n.input[1] == d)
              or (n.op_type == "Pow" and n.input[0] == d and const_scalar(model, n.input[1], 2.0))]
        div = [n for n in users if n.op_type == "Div" and n.input[0] == d]
        if len(sq) != 1 or len(div) != 1 or len(users) != 2:
            continue
        rm2 = cons.get(sq[0].output[0], [None])[0]
        if rm2 is None or rm2.op_type != "ReduceMean":
            continue
        add = cons.get(rm2.output[0], [None])[0]
        if add is None or add.op_type != "Add" or other_input(add, rm2.output[0]) not in model.consts:
            continue
        eps = float(model.consts[other_input(add, rm2.output[0])].reshape(-1)[0])
        sqrt = cons.get(add.output[0], [None])[0]
        if sqrt is None or sqrt.op_type != "Sqrt" or div[0].input[1] != sqrt.output[0]:
            continue
        chain = [rm, subs[0], sq[0], rm2, add, sqrt, div[0]]
        if any(not single_use(cons, model, n.output[0]) for n in chain[2:]):
            continue
        last, width = div[0], model.shapes[x][-1]
        gamma, beta = np.ones(width, np.float32), np.zeros(width, np.float32)
        nxt = cons.get(last.output[0], [None])
        if len(nxt) == 1 and nxt[0].op_type == "Mul" and last.output[0] not in model.outputs:
            g = model.consts.get(other_input(nxt[0], last.output[0]))
            if g is not None and g.size == width:
                gamma, last = g.reshape(-1).astype(np.float32), nxt[0]
                chain.append(last)
                nxt = cons.get(last.output[0], [None])
                if len(nxt) == 1 and nxt[0].op_type == "Add" and last.output[0] not in model.outputs:
                    b = model.consts.get(other_input(nxt[0], last.output[0]))
                    if b is not None and b.size == width:
                        beta, last = b.reshape(-1).astype(np.float32), nxt[0]
                        chain.append(last)
        gname, bname = last.output[0] + "__ln_gamma", last.output[0] + "__ln_beta"
        model.consts[gname], model.consts[bname] = gamma, beta
        node = helper.make_node("LayerNormalization", [x, gname, bname], [last.output[0]],
                                name=(rm.name or last.output[0]) + "_layernorm", axis=-1, epsilon=eps)
        for n in chain:
            fused[id(n)] = None
        fused[id(last)] = node
    apply_fused(model, fused)


def fuse_matmul_bias(model):
    """MatMul(x, W) with a constant 2-D W, then Add of a constant bias row [N] (the MatMul's only use, the Add
    not broadcasting beyond the MatMul's shape) -> one MatMul node whose third input is the bias. The MatMul
    converter turns it into FullyConnected with that bias (as the vendor's converter squashes the Add into the
    FullyConnected), so the backend adds the bias in the GEMM instead of a separate pass over the output."""
    cons = consumers(model.nodes)
    fused = {}
    for mm in model.nodes:
        if mm.op_type != "MatMul" or len(mm.input) != 2 or mm.input[1] not in model.consts:
            continue
        w = model.consts[mm.input[1]]
        y = mm.output[0]
        if w.ndim != 2 or not single_use(cons, model, y) or y not in model.shapes:
            continue
        add = cons[y][0]
        if add.op_type != "Add" or add.input[0] == add.input[1] or add.output[0] not in model.shapes:
            continue
        b = model.consts.get(other_input(add, y))
        n = w.shape[1]
        if b is None or b.dtype != np.float32 or b.size != n or (b.ndim > 0 and b.shape[-1] != n) \
                or b.ndim > len(model.shapes[y]) or list(model.shapes[add.output[0]]) != list(model.shapes[y]):
            continue
        bname = add.output[0] + "__mm_bias"
        model.consts[bname] = b.reshape(-1).astype(np.float32)
        fused[id(add)] = None
        fused[id(mm)] = helper.make_node("MatMul", [mm.input[0], mm.input[1], bname], [add.output[0]],
                                         name=mm.name or add.output[0])
    apply_fused(model, fused)


def run_all(model, fold_bn=True):
    if fold_bn:
        fold_batchnorm(model)
    fuse_gelu(model)
    fuse_layernorm(model)
    fusions.run_all(model)
    fuse_matmul_bias(model)
