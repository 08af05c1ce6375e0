"""Conversion context: maps ONNX tensors to QNN tensors in NCHW ('plain') or NHWC layout.

Rank-4 activations consumed by spatial ops (Conv, pools, Resize, ...) live in NHWC. A tensor is
transposed only when a consumer needs the other layout (each transpose made once and reused), so
NHWC chains stay NHWC and transposes appear only where needed: before layout-bound ops (Reshape,
MatMul, ...) and at graph inputs/outputs whose layout io_layout.IoLayout fixes differently.
"""
import numpy as np

from qnn.errors import ConverterError
from qnn.ir import qnn_dtype, tparam

TO_NHWC = [0, 2, 3, 1]
TO_NCHW = [0, 3, 1, 2]
NHWC_AXIS = [0, 3, 1, 2]  # NCHW axis -> position in NHWC


def nhwc_axis(axis, rank=4):
    return NHWC_AXIS[axis % rank]


class _Exact(str):
    """A wanted name that may take a reserved graph-output name."""


class Ctx:
    def __init__(self, model, graph, io=None):
        self.m, self.g, self.io = model, graph, io
        self.op_set = (0, 0)  # --target_op_set: (2, 13) lets converters emit that op set's native ops
        self.map = {}     # onnx name -> {'plain': qnn name, 'nhwc': qnn name}
        self.cache = {}   # (onnx const name, layout) -> qnn name
        self.updateable = set()  # --lora_weight_list: constants that must stay tensors of their own

    # ---- queries ----
    def has_op_set(self, major, minor):
        """Whether the target backends run op set major.minor (--target_op_set), so its new ops may be emitted."""
        return self.op_set >= (major, minor)

    def shape(self, name):
        if name in self.m.dynamic_inputs:
            raise ConverterError(self.m.dynamic_inputs[name])
        if name in self.m.consts:
            return list(self.m.consts[name].shape)
        if name not in self.m.shapes:
            hint = "".join(f" ({msg})" for msg in list(self.m.dynamic_inputs.values())[:1])
            raise ConverterError(f"the shape of tensor '{name}' could not be inferred statically{hint}")
        return list(self.m.shapes[name])

    def dtype(self, name):
        if name in self.m.consts:
            return qnn_dtype(self.m.consts[name].dtype)
        return qnn_dtype(self.m.dtypes.get(name, np.float32))

    def is_const(self, name):
        return name in self.m.consts

    def const_value(self, name):
        return self.m.consts[name]

    def layout_of(self, name):
        if self.is_const(name):
            return None
        ent = self.map.get(name)
        if ent is None:
            raise ConverterError(f"tensor '{name}' is used before it is produced")
        return "plain" if "plain" in ent else "nhwc"

    # ---- producing QNN tensors ----
    def register(self, onnx_name, qname, layout):
        self.map.setdefault(onnx_name, {})[layout] = qname

    def get(self, name, layout="plain"):
        """QNN tensor name holding ONNX tensor `name` in `layout` (inserting a Transpose if needed)."""
        if self.is_const(name):
            return self.const(name, layout)
        ent = self.map.get(name)
        if ent is None:
            raise ConverterError(self.m.dynamic_inputs.get(name, f"tensor '{name}' is used before it is produced"))
        if layout in ent:
            return ent[layout]
        src_layout = "nhwc" if layout == "plain" else "plain"
        src = ent[src_layout]
        t = self.g.tensors[src]
        if len(t.shape) != 4:
            raise ConverterError(f"internal: layout change of rank-{len(t.shape)} tensor '{name}'")
        perm = TO_NHWC if layout == "nhwc" else TO_NCHW
        exact = name in self.m.outputs and (layout == "nhwc") == self._nhwc_output(name)
        wanted = name if exact else src + ("_nhwc" if layout == "nhwc" else "_nchw")
        out = self.g.add_tensor(_Exact(wanted) if wanted == name else wanted,
                                [t.shape[p] for p in perm], t.dtype, "native")
        self.g.add_op(out + "_transpose", "Transpose", [src], [out], [tparam("perm", np.uint32, perm)])
        ent[layout] = out
        return out

    def const(self, name, layout="plain", value=None, dtype=None):
        """Static tensor for an ONNX constant, permuted to NHWC (after left-padding to rank 4) if asked."""
        key = (name, layout, dtype)
        if key in self.cache and value is None:
            return self.cache[key]
        arr = np.asarray(self.m.consts[name] if value is None else value)
        if layout == "nhwc":
            if arr.ndim > 4:
                raise ConverterError(f"constant '{name}' of rank {arr.ndim} cannot broadcast against an NHWC tensor")
            arr = arr.reshape([1] * (4 - arr.ndim) + list(arr.shape)).transpose(TO_NHWC)
        if arr.ndim == 0:
            arr = arr.reshape(1)  # QNN tensors have rank >= 1
        dt = np.dtype(dtype) if dtype is not None else qnn_dtype(arr.dtype)
        q = self.g.add_tensor(name, arr.shape, dt, "static", arr.astype(dt))
        if value is None:
            self.cache[key] = q
        return q

    def new_const(self, wanted, arr, dtype=np.float32):
        arr = np.asarray(arr, dtype=dtype)
        if arr.ndim == 0:
            arr = arr.reshape(1)
        return self.g.add_tensor(wanted, arr.shape, arr.dtype, "static", arr)

    def out(self, onnx_name, layout="plain", dtype=None, shape=None):
        """Create the QNN tensor for an op output; NHWC results of graph outputs get a '_nhwc' name."""
        shp = list(shape) if shape is not None else self.shape(onnx_name)
        if layout == "nhwc":
            if len(shp) != 4:
                raise ConverterError(f"internal: NHWC output '{onnx_name}' of rank {len(shp)}")
            shp = [shp[p] for p in TO_NHWC]
        dt = dtype if dtype is not None else self.dtype(onnx_name)
        wanted = onnx_name + "_nhwc" if (layout == "nhwc" and onnx_name in self.m.outputs
                                         and not self._nhwc_output(onnx_name)) else onnx_name
        q = self.g.add_tensor(wanted if wanted != onnx_name else _Exact(onnx_name), shp, dt, "native")
        self.register(onnx_name, q, layout)
        return q

    def _nhwc_output(self, name):
        """Whether graph output `name`, when computed in NHWC, is handed out in NHWC (taking the ONNX name)."""
        return self.io is not None and self.io.output_perm(name, 4, True) == [0, 2, 3, 1]

    def alias(self, onnx_out, onnx_in):
        """onnx_out is the same tensor as onnx_in (Identity, Dropout)."""
        self.map[onnx_out] = self.map[onnx_in]
