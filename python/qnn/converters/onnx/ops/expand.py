"""Expansion: one ONNX node written as other ONNX nodes, each converted by its registered converter.

    e = Expansion(ctx, node)
    t = e.add("Mul", [node.input[0], e.const(2.0)], shape, np.float32)   # a new intermediate
    e.add("Sigmoid", [t], shape, np.float32, out=node.output[0])          # writes the node's output
    e.run()

New tensors are named after the node and their shapes/dtypes recorded in the model, so the converters
see them as they see the model's own tensors.
"""
import numpy as np
from onnx import helper, TensorProto

from .registry import CONVERTERS

_ONNX_TYPE = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int32): TensorProto.INT32,
              np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int8): TensorProto.INT8,
              np.dtype(np.uint16): TensorProto.UINT16, np.dtype(np.int16): TensorProto.INT16}


class Expansion:
    """ONNX nodes standing for one node; new tensors named after it, their shapes and dtypes recorded."""

    def __init__(self, ctx, node):
        self.ctx, self.node, self.nodes, self.n = ctx, node, [], 0
        self.base = node.name or node.output[0]

    def name(self, what):
        self.n += 1
        return f"{self.base}__{what}{self.n}"

    def const(self, value, dtype=np.float32):
        t = self.name("c")
        self.ctx.m.consts[t] = np.asarray(value, dtype)
        return t

    def add(self, op_type, inputs, shape, dtype, out=None, **attrs):
        y = out or self.name(op_type.lower())
        if out is None:
            self.ctx.m.shapes[y] = list(shape)
            self.ctx.m.dtypes[y] = np.dtype(dtype)
        self.nodes.append(helper.make_node(op_type, list(inputs), [y], name=y, **attrs))
        return y

    def cast(self, x, dtype, out=None):
        if out is None and self.ctx.dtype(x) == np.dtype(dtype):
            return x
        return self.add("Cast", [x], self.ctx.shape(x), dtype, out=out, to=_ONNX_TYPE[np.dtype(dtype)])

    def run(self):
        for n in self.nodes:
            CONVERTERS[n.op_type](self.ctx, n, {a.name: helper.get_attribute_value(a) for a in n.attribute})

    def add_outputs(self, op_type, inputs, shapes, dtype, **attrs):
        """A node with several outputs (Split, ...): new tensors of `shapes`, returned in order."""
        ys = [self.name(op_type.lower()) for _ in shapes]
        for y, shp in zip(ys, shapes):
            self.ctx.m.shapes[y] = list(shp)
            self.ctx.m.dtypes[y] = np.dtype(dtype)
        self.nodes.append(helper.make_node(op_type, list(inputs), ys, name=ys[0], **attrs))
        return ys
