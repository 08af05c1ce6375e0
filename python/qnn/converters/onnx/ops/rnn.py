"""RNN, GRU and LSTM unrolled over their (static) sequence length into MatMul / element-wise ops, as ONNX
defines them (gate orders: LSTM i o f c, GRU z r h; default activations Sigmoid / Tanh / Tanh):

  RNN   H = f(X W^T + H R^T + Wb + Rb)
  GRU   z = f(X Wz^T + H Rz^T + bz),  r = f(X Wr^T + H Rr^T + br),
        n = g(X Wh^T + (r * H) Rh^T + Rbh + Wbh)          (linear_before_reset = 0)
        n = g(X Wh^T + r * (H Rh^T + Rbh) + Wbh)          (linear_before_reset = 1),  H = (1 - z) * n + z * H
  LSTM  i = f(X Wi^T + H Ri^T + Pi * C + bi), f = f(... + Pf * C), c = g(X Wc^T + H Rc^T + bc),
        C = f * C + i * c,  o = f(X Wo^T + H Ro^T + Po * C + bo),  H = o * h(C)

forward, reverse and bidirectional; layout 0 ([seq, batch, ...]) and 1 ([batch, seq, ...]); weights constant
or computed; sequence_lens masks the steps past each batch entry's length (Y zero there, Y_h/Y_c the last
valid state). Each node is written as ONNX nodes (expand.Expansion) converted by the registered converters.
"""
import numpy as np

from qnn.errors import ConverterError
from .registry import converter
from .expand import Expansion

F32 = np.float32
_ACTIVATIONS = {"Sigmoid", "Tanh", "Relu"}
_GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def _opt(node, k):
    return node.input[k] if len(node.input) > k and node.input[k] else None


class _Cell:
    def __init__(self, ctx, node, a):
        self.e = Expansion(ctx, node)
        self.ctx, self.node, self.a = ctx, node, a
        kind = node.op_type
        self.gates = _GATES[kind]
        self.hidden = int(a["hidden_size"]) if "hidden_size" in a else ctx.shape(node.input[2])[2]
        direction = a.get("direction", b"forward")
        direction = direction.decode() if isinstance(direction, bytes) else direction
        self.dirs = {"forward": [False], "reverse": [True], "bidirectional": [False, True]}.get(direction)
        if self.dirs is None:
            raise ConverterError(f"node '{node.name}' ({kind}): direction '{direction}' is not defined")
        if a.get("clip") is not None:
            raise ConverterError(f"node '{node.name}' ({kind}): clip is not supported")
        if kind == "LSTM" and a.get("input_forget", 0):
            raise ConverterError(f"node '{node.name}' (LSTM): input_forget is not supported")
        acts = [v.decode() if isinstance(v, bytes) else v for v in a.get("activations", [])]
        per_dir = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[kind]
        self.acts = acts or per_dir * len(self.dirs)
        for act in self.acts:
            if act not in _ACTIVATIONS:
                raise ConverterError(f"node '{node.name}' ({kind}): activation '{act}' is not supported")
        if ctx.dtype(node.input[0]) != F32:
            raise ConverterError(f"node '{node.name}' ({kind}): only float tensors are supported")
        self.layout = int(a.get("layout", 0))
        xs = ctx.shape(node.input[0])
        self.seq, self.batch, self.inputs = (xs[0], xs[1], xs[2]) if self.layout == 0 else (xs[1], xs[0], xs[2])

    # ---- small builders ----
    def direction_slice(self, name, d, shape):
        """Tensor `name` [num_directions, ...] at direction d, without the leading dim."""
        e = self.e
        one = e.add("Gather", [name, e.const(np.array([d], np.int64), np.int64)], [1] + list(shape), F32, axis=0)
        return e.add("Reshape", [one, e.const(np.array(shape, np.int64), np.int64)], shape, F32)

    def matmul_t(self, x, w, rows, cols):
        """x [rows, k] times w^T (w [cols, k])."""
        e = self.e
        wt = e.add("Transpose", [w], list(reversed(self.ctx.shape(w))), F32, perm=[1, 0])
        return e.add("MatMul", [x, wt], [rows, cols], F32)

    def act(self, name, x, shape):
        return self.e.add(name, [x], shape, F32)

    def split(self, x, parts, shape_each):
        return self.e.add_outputs("Split", [x], [shape_each] * parts, F32, axis=1)

    # ---- the unrolled node ----
    def build(self):
        e, ctx, node = self.e, self.ctx, self.node
        B, H, G, S = self.batch, self.hidden, self.gates, self.seq
        x = node.input[0]
        if self.layout == 1:
            x = e.add("Transpose", [x], [S, B, self.inputs], F32, perm=[1, 0, 2])
        steps = e.add_outputs("Split", [x], [[1, B, self.inputs]] * S, F32, axis=0) if S > 1 else [x]
        steps = [e.add("Reshape", [t, e.const(np.array([B, self.inputs], np.int64), np.int64)], [B, self.inputs], F32)
                 for t in steps]
        seq_lens = _opt(node, 4)
        masks = self._masks(seq_lens) if seq_lens else None
        kind = node.op_type
        init_h, init_c = _opt(node, 5), _opt(node, 6) if kind == "LSTM" else None
        if self.layout == 1:   # initial states [B, D, H] -> [D, B, H]
            D = len(self.dirs)
            init_h, init_c = (e.add("Transpose", [s0], [D, B, H], F32, perm=[1, 0, 2]) if s0 else None
                              for s0 in (init_h, init_c))
        peep = _opt(node, 7) if kind == "LSTM" else None
        outs_y = [[None] * len(self.dirs) for _ in range(S)]
        last_h, last_c = [], []
        for di, reverse in enumerate(self.dirs):
            W = self.direction_slice(node.input[1], di, [G * H, self.inputs])
            R = self.direction_slice(node.input[2], di, [G * H, H])
            wb = rb = None
            if _opt(node, 3):
                b = self.direction_slice(node.input[3], di, [2 * G * H])
                wb, rb = e.add_outputs("Split", [b], [[G * H], [G * H]], F32, axis=0)
            h = self.direction_slice(init_h, di, [B, H]) if init_h else e.const(np.zeros((B, H), F32))
            c = None
            if kind == "LSTM":
                c = self.direction_slice(init_c, di, [B, H]) if init_c else e.const(np.zeros((B, H), F32))
            p = None
            if peep:
                p = e.add_outputs("Split", [self.direction_slice(peep, di, [3 * H])], [[H]] * 3, F32, axis=0)
            acts = self.acts[di * len(self.acts) // len(self.dirs):(di + 1) * len(self.acts) // len(self.dirs)]
            order = range(S - 1, -1, -1) if reverse else range(S)
            for t in order:
                xw = self.matmul_t(steps[t], W, B, G * H)
                if wb:
                    xw = e.add("Add", [xw, wb], [B, G * H], F32)
                if kind == "RNN":
                    new_h, new_c = self._rnn(xw, h, R, rb, acts), None
                elif kind == "GRU":
                    new_h, new_c = self._gru(xw, h, R, rb, acts), None
                else:
                    new_h, new_c = self._lstm(xw, h, c, R, rb, p, acts)
                if masks:
                    m = masks[t]
                    y = e.add("Mul", [new_h, m], [B, H], F32)
                    h = self._blend(m, new_h, h)
                    if new_c:
                        c = self._blend(m, new_c, c)
                else:
                    y, h, c = new_h, new_h, new_c
                outs_y[t][di] = y
            last_h.append(h)
            last_c.append(c)
        self._outputs(outs_y, last_h, last_c)
        e.run()

    def _masks(self, seq_lens):
        """Per step: [B, 1] float, 1 where the step lies within the batch entry's length."""
        e, B, S = self.e, self.batch, self.seq
        if self.ctx.is_const(seq_lens):
            lens = self.ctx.const_value(seq_lens).reshape(-1)
            return [e.const((np.arange(S)[t] < lens).astype(F32).reshape(B, 1)) for t in range(S)]
        lens = e.cast(seq_lens, np.int32)
        out = []
        for t in range(S):
            less = e.add("Less", [e.const(np.array(t, np.int32), np.int32), lens], [B], np.bool_)
            f = e.cast(less, F32)
            out.append(e.add("Reshape", [f, e.const(np.array([B, 1], np.int64), np.int64)], [B, 1], F32))
        return out

    def _blend(self, m, new, old):
        """m * new + (1 - m) * old."""
        e, shape = self.e, [self.batch, self.hidden]
        keep = e.add("Sub", [e.const(1.0), m], [self.batch, 1], F32)
        return e.add("Add", [e.add("Mul", [new, m], shape, F32), e.add("Mul", [old, keep], shape, F32)], shape, F32)

    def _recurrent(self, h, R, rb, G):
        e, B, H = self.e, self.batch, self.hidden
        hr = self.matmul_t(h, R, B, G * H)
        return e.add("Add", [hr, rb], [B, G * H], F32) if rb else hr

    def _rnn(self, xw, h, R, rb, acts):
        e, shape = self.e, [self.batch, self.hidden]
        pre = e.add("Add", [xw, self._recurrent(h, R, rb, 1)], shape, F32)
        return self.act(acts[0], pre, shape)

    def _gru(self, xw, h, R, rb, acts):
        e, B, H = self.e, self.batch, self.hidden
        shape = [B, H]
        xz, xr, xh = self.split(xw, 3, shape)
        Rz, Rr, Rh = self.e.add_outputs("Split", [R], [[H, H]] * 3, F32, axis=0)
        rbz = rbr = rbh = None
        if rb:
            rbz, rbr, rbh = self.e.add_outputs("Split", [rb], [[H]] * 3, F32, axis=0)

        def rec(x, Rg, bg):
            r = self.matmul_t(x, Rg, B, H)
            return e.add("Add", [r, bg], shape, F32) if bg else r

        z = self.act(acts[0], e.add("Add", [xz, rec(h, Rz, rbz)], shape, F32), shape)
        r = self.act(acts[0], e.add("Add", [xr, rec(h, Rr, rbr)], shape, F32), shape)
        if self.a.get("linear_before_reset", 0):
            hh = e.add("Mul", [r, rec(h, Rh, rbh)], shape, F32)
        else:
            hh = rec(e.add("Mul", [r, h], shape, F32), Rh, rbh)
        n = self.act(acts[1], e.add("Add", [xh, hh], shape, F32), shape)
        # (1 - z) * n + z * h
        return e.add("Add", [e.add("Mul", [e.add("Sub", [e.const(1.0), z], shape, F32), n], shape, F32),
                             e.add("Mul", [z, h], shape, F32)], shape, F32)

    def _lstm(self, xw, h, c, R, rb, p, acts):
        e, B, H = self.e, self.batch, self.hidden
        shape = [B, H]
        gates = e.add("Add", [xw, self._recurrent(h, R, rb, 4)], [B, 4 * H], F32)
        gi, go, gf, gc = self.split(gates, 4, shape)
        if p:
            gi = e.add("Add", [gi, e.add("Mul", [p[0], c], shape, F32)], shape, F32)
            gf = e.add("Add", [gf, e.add("Mul", [p[2], c], shape, F32)], shape, F32)
        i = self.act(acts[0], gi, shape)
        f = self.act(acts[0], gf, shape)
        cc = self.act(acts[1], gc, shape)
        new_c = e.add("Add", [e.add("Mul", [f, c], shape, F32), e.add("Mul", [i, cc], shape, F32)], shape, F32)
        if p:
            go = e.add("Add", [go, e.add("Mul", [p[1], new_c], shape, F32)], shape, F32)
        o = self.act(acts[0], go, shape)
        return e.add("Mul", [o, self.act(acts[2], new_c, shape)], shape, F32), new_c

    def _outputs(self, outs_y, last_h, last_c):
        """Y [S, D, B, H] (layout 1: [B, S, D, H]), Y_h / Y_c [D, B, H] (layout 1: [B, D, H])."""
        e, node = self.e, self.node
        B, H, S, D = self.batch, self.hidden, self.seq, len(self.dirs)
        shape3 = [1, B, H]

        def stack(parts, axis, shape):
            if len(parts) == 1:
                return e.add("Reshape", [parts[0], e.const(np.array(shape, np.int64), np.int64)], shape, F32)
            return e.add("Concat", parts, shape, F32, axis=axis)

        def final(t, out, shape_l0, perm):
            if self.layout == 0:
                e.add("Reshape", [t, e.const(np.array(shape_l0, np.int64), np.int64)], shape_l0, F32, out=out)
            else:
                e.add("Transpose", [t], [shape_l0[p] for p in perm], F32, out=out, perm=perm)

        if len(node.output) > 0 and node.output[0]:
            per_t = []
            for t in range(S):
                ds = [e.add("Reshape", [y, e.const(np.array([1, 1, B, H], np.int64), np.int64)], [1, 1, B, H], F32)
                      for y in outs_y[t]]
                per_t.append(stack(ds, 1, [1, D, B, H]))
            y = stack(per_t, 0, [S, D, B, H])
            final(y, node.output[0], [S, D, B, H], [2, 0, 1, 3])
        for k, states in ((1, last_h), (2, last_c)):
            if len(node.output) > k and node.output[k] and states[0] is not None:
                parts = [e.add("Reshape", [s, e.const(np.array(shape3, np.int64), np.int64)], shape3, F32) for s in states]
                final(stack(parts, 0, [D, B, H]), node.output[k], [D, B, H], [1, 0, 2])


@converter("RNN", "GRU", "LSTM")
def recurrent(ctx, node, a):
    _Cell(ctx, node, a).build()
