"""rotate_half rotary embedding -> RotaryEmbedding (ONNX opset 23; the converter emits QNN RotaryEmbedding).

Matches out = x * cos + rotate_half(x) * sin, rotate_half(x) = Concat(Neg(x[..., h:]), x[..., :h], axis=-1),
on x [batch, heads, seq, head_size] with h = head_size / 2 (Add and Mul operands in either order), when the
cos and sin operands are, both in the same form, one of
  - Unsqueeze(Gather(table, position_ids, axis=0), axes=[1]): table a constant [max_position, head_size],
    position_ids an integer [batch, seq] tensor -> caches table[:, :h] with position_ids;
  - a constant [1, 1, seq, head_size] (or a shorter shape broadcasting the same way) -> caches [1, seq, h].
The QNN op rotates the halves by one angle per pair, cos[:, k] = cos[:, k + h], which the Llama tables
(cat(freqs, freqs)) satisfy: each table's two halves must be bitwise equal, else nothing is fused. Then the
fused op computes x1 cos - x2 sin, x2 cos + x1 sin, as the pattern does (a + (-b) is a - b exactly).
Not fused (left as the ops they are): cos/sin computed at run time (Hugging Face's Cos(inv_freq x positions)
or caches fed as graph inputs: the equal halves cannot be checked), a partial rotary dim, the interleaved
(even/odd) form."""
import numpy as np
from onnx import helper

from ..fold import attrs
from ..match import apply_fused, consumers, producer, single_use

_BIG = 1 << 30


def _slice_of(model, node, x, last, rank):
    """(start, end) of Slice(x) along the last axis with step 1, else None."""
    if node is None or node.op_type != "Slice" or node.input[0] != x:
        return None
    ins = [node.input[k] if len(node.input) > k and node.input[k] else None for k in range(5)]
    if any(i is not None and i not in model.consts for i in ins[1:]):
        return None
    vals = [model.consts[i].reshape(-1).astype(np.int64) if i is not None else None for i in ins[1:]]
    starts, ends, axes, steps = vals
    axes = axes if axes is not None else np.arange(len(starts))
    if len(starts) != 1 or int(axes[0]) % rank != rank - 1 or (steps is not None and int(steps[0]) != 1):
        return None
    s, e = int(starts[0]), int(ends[0])
    s = s + last if s < 0 else s
    e = min(e + last if e < 0 else e, last)
    return s, e


def _halves_equal(t, h):
    return t.shape[-1] == 2 * h and np.array_equal(t[..., :h].view(np.uint32), t[..., h:].view(np.uint32))


def _table(model, prod, name, shape):
    """('gather', table, position_ids, [nodes]) or ('const', cache [seq, head_size], None, []) or None."""
    b, _, s, d = shape
    if name in model.consts:
        v = model.consts[name]
        if v.dtype != np.float32 or v.ndim > 4:
            return None
        full = v.reshape([1] * (4 - v.ndim) + list(v.shape))
        if list(full.shape) != [1, 1, s, d]:
            return None
        return "const", full.reshape(s, d), None, []
    u = prod.get(name)
    if u is None or u.op_type != "Unsqueeze":
        return None
    axes = attrs(u).get("axes")
    if axes is None and len(u.input) > 1 and u.input[1] in model.consts:
        axes = list(model.consts[u.input[1]].reshape(-1))
    if axes is None or [int(v) % 4 for v in axes] != [1]:
        return None
    g = prod.get(u.input[0])
    if g is None or g.op_type != "Gather" or attrs(g).get("axis", 0) != 0 or g.input[0] not in model.consts:
        return None
    table, pos = model.consts[g.input[0]], g.input[1]
    if table.dtype != np.float32 or table.ndim != 2 or table.shape[1] != d or model.shapes.get(pos) != [b, s] \
            or np.dtype(model.dtypes.get(pos, np.float32)).kind not in "iu":
        return None
    return "gather", table, pos, [u, g]


def fuse(model):
    cons, prod = consumers(model.nodes), producer(model.nodes)
    fused, count = {}, 0
    for add in model.nodes:
        if add.op_type != "Add" or add.input[0] == add.input[1]:
            continue
        for k in (0, 1):
            m = _match(model, cons, prod, add, prod.get(add.input[k]), prod.get(add.input[1 - k]))
            if m is not None:
                chain, node = m
                for n in chain:
                    fused[id(n)] = None
                fused[id(add)] = node
                count += 1
                break
    apply_fused(model, fused)
    return count


def _match(model, cons, prod, add, pc, ps):
    """pc = Mul(x, cos), ps = Mul(rotate_half(x), sin) -> (nodes to drop, the fused node) or None."""
    if pc is None or ps is None or pc.op_type != "Mul" or ps.op_type != "Mul":
        return None
    if not all(single_use(cons, model, n.output[0]) for n in (pc, ps)):
        return None
    for j in (0, 1):
        cat = prod.get(ps.input[j])
        if cat is not None and cat.op_type == "Concat":
            sin = ps.input[1 - j]
            break
    else:
        return None
    if len(cat.input) != 2 or not single_use(cons, model, cat.output[0]):
        return None
    neg, hi_lo = prod.get(cat.input[0]), prod.get(cat.input[1])
    if neg is None or neg.op_type != "Neg" or not single_use(cons, model, neg.output[0]):
        return None
    hi = prod.get(neg.input[0])
    if hi is None or hi_lo is None or not single_use(cons, model, hi.output[0]) \
            or not single_use(cons, model, hi_lo.output[0]):
        return None
    x = hi.input[0]
    shape = model.shapes.get(x)
    if shape is None or len(shape) != 4 or shape[3] % 2 or model.dtypes.get(x) != np.float32 \
            or attrs(cat).get("axis", 0) % 4 != 3:
        return None
    d = shape[3]
    h = d // 2
    if _slice_of(model, hi, x, d, 4) != (h, d) or _slice_of(model, hi_lo, x, d, 4) != (0, h):
        return None
    if x not in pc.input:
        return None
    cos = pc.input[1] if pc.input[0] == x else pc.input[0]
    tc, ts = _table(model, prod, cos, shape), _table(model, prod, sin, shape)
    if tc is None or ts is None or tc[0] != ts[0] or tc[2] != ts[2]:
        return None
    if not (_halves_equal(tc[1], h) and _halves_equal(ts[1], h)):
        return None
    out = add.output[0]
    cname, sname = out + "__rope_cos", out + "__rope_sin"
    cc, sc = (np.ascontiguousarray(t[1][:, :h]) for t in (tc, ts))
    if tc[0] == "const":
        cc, sc = cc[None], sc[None]
    for name, v in ((cname, cc), (sname, sc)):
        model.consts[name], model.shapes[name], model.dtypes[name] = v, list(v.shape), np.dtype(np.float32)
    ins = [x, cname, sname] + ([tc[2]] if tc[0] == "gather" else [])
    node = helper.make_node("RotaryEmbedding", ins, [out], name=(add.name or out) + "_rope",
                            interleaved=0, rotary_embedding_dim=d)
    return [pc, ps, cat, neg, hi, hi_lo], node
