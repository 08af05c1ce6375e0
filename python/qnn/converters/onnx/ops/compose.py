"""Decompositions: one ONNX node written as a few QNN ops on plain-layout tensors.

    d = Decompose(ctx, node)
    t = d.op("ElementWiseMultiply", [d.input(0), d.input(0)])    # an intermediate, the output's shape
    d.op("ElementWiseAdd", [t, d.const(1.0)], final=True)         # writes the node's output

Intermediates take the node output's shape and float32 unless told otherwise; constants are
float32 scalars (rank 1, broadcast) unless an array or dtype is given.
"""
import numpy as np

from .elementwise import pick_layout


class Decompose:
    def __init__(self, ctx, node, out_index=0):
        self.ctx, self.node = ctx, node
        self.base = node.name or node.output[out_index]
        self.out_name = node.output[out_index]
        self.layout = "plain"
        self.shape = ctx.shape(self.out_name)
        self.n = 0

    def _name(self, what):
        self.n += 1
        return f"{self.base}_{what}{self.n}"

    def input(self, k):
        return self.ctx.get(self.node.input[k], self.layout)

    def const(self, value, dtype=np.float32):
        arr = np.asarray(value, dtype)
        return self.ctx.new_const(self._name("c"), arr.reshape(1) if arr.ndim == 0 else arr, dtype)

    def op(self, qnn_type, inputs, shape=None, dtype=np.float32, params=(), final=False):
        """Adds one op; returns its output tensor (the node's output when `final`)."""
        if final:
            y = self.ctx.out(self.out_name, self.layout, dtype=dtype if dtype is not None else None)
        else:
            y = self.ctx.g.add_tensor(self._name("t"), list(self.shape if shape is None else shape), dtype, "native")
        self.ctx.g.add_op(self._name(qnn_type), qnn_type, inputs, [y], list(params))
        return y


def elementwise_layout(ctx, node):
    """The layout a decomposed element-wise node works in (as a single element-wise op would)."""
    return pick_layout(ctx, [i for i in node.input if i], len(ctx.shape(node.output[0])))
