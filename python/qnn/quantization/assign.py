"""Give every tensor of the converted graph its encoding and make the graph consistent.

Order of precedence per tensor: --quantization_overrides, then encodings carried by the model (QDQ),
then the quantizers on calibration data (activations) or on the values (params); an activation with
none of these stays float (--float_fallback, or a QDQ model without --input_list).
Ops that only move bytes (Reshape, Transpose, Concat, Split, StridedSlice, Gather, Pad, ...) must see
the same encoding on both sides, so their tensors are grouped and share one encoding (the union of
the members' ranges). A static float input of such an op (an embedding table under a Gather, a constant
joined by a Concat) belongs to the group too: its values widen the group's range and it is stored with
the group's (activation) encoding. An op runs quantized when all its float activations have integer encodings;
otherwise it runs in float: Dequantize ops feed it and Quantize ops take its results to encoded
tensors. A quantized op whose inputs have fewer bits than its output gets a Convert op first; one whose
inputs all have more bits (an override narrowing its output, e.g. an 8-bit KV cache written by a 16-bit
op) computes at its inputs' bitwidth over the output's range and a Convert after it narrows the result,
so precision is lost once, at the end. The zero Add an ONNX Expand becomes is a byte copy too.
"""
import re
import sys

import numpy as np

from qnn.errors import ConverterError
from qnn.ir import sanitize
from . import encodings as E

BYTE_COPY_OPS = {"Reshape", "Identity", "Transpose", "Squeeze", "ExpandDims", "StridedSlice", "Split", "Concat", "Gather",
                 "Tile", "Pad"}
FLOAT_ONLY_OPS = {"Cast", "Quantize", "Dequantize"}   # they read/write raw values on their float side
WEIGHTED_OPS = {"Conv2d": 3, "DepthWiseConv2d": 3, "TransposeConv2d": 3, "FullyConnected": 0}  # -> out-channel axis
PER_CHANNEL_OPS = {"Conv2d", "DepthWiseConv2d", "TransposeConv2d"}
# Static inputs that are value tables read like activations (the rotary cos/sin caches, which an unfused
# graph gathers into activations): quantized at the activation bitwidth, not the weights'.
TABLE_INPUTS = {"RotaryEmbedding": (1, 2), "GroupQueryAttention": (7, 8)}
_SUFFIXES = ("_hwio", "_dw", "_fc", "__bnfold", "_gamma")


class Options:
    def __init__(self, act_bw=8, weight_bw=8, bias_bw=8, act_quantizer="tf", param_quantizer="tf",
                 per_channel=False, per_row=False):
        self.act_bw, self.weight_bw, self.bias_bw = act_bw, weight_bw, bias_bw
        self.act_quantizer, self.param_quantizer = act_quantizer, param_quantizer
        self.per_channel, self.per_row = per_channel, per_row


def warn(msg):
    print(f"qnn-onnx-converter: warning: {msg}", file=sys.stderr)


class _Groups:
    """Union-find over tensor names."""

    def __init__(self):
        self.parent = {}

    def find(self, a):
        self.parent.setdefault(a, a)
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)


class Assigner:
    def __init__(self, graph, onnx_map, model_consts, opts, stats=None, act_overrides=None, param_overrides=None,
                 carried_acts=None, carried_params=None, onnx_nodes=()):
        self.g, self.opts, self.stats = graph, opts, stats
        self.act_over = dict(act_overrides or {})
        self.param_over = dict(param_overrides or {})
        self.carried_acts, self.carried_params = carried_acts or {}, carried_params or {}
        # QNN tensor -> ONNX name (activations exactly; statics by their name stem)
        self.origin = {}
        self.onnx_names = {}   # every ONNX name a QNN tensor holds (a layout-only Transpose adds one)
        for onnx_name, ent in onnx_map.items():
            for q in ent.values():
                self.origin.setdefault(q, onnx_name)
                self.onnx_names.setdefault(q, []).append(onnx_name)
        self.const_by_sanitized = {sanitize(n): n for n in model_consts}
        self.used_overrides = set()
        # weights and biases of weighted ops: the ONNX node's inputs at the same positions
        producer = {o: n for n in onnx_nodes for o in n.output}
        self.static_origin = {}
        for op in graph.ops:
            node = producer.get(self.origin.get(op.outputs[0]))
            if op.type in WEIGHTED_OPS and node is not None and node.op_type in ("Conv", "ConvTranspose", "Gemm", "MatMul"):
                for k in (1, 2):
                    if k < len(node.input) and node.input[k] and k < len(op.inputs):
                        self.static_origin.setdefault(op.inputs[k], re.sub(r"(__bnfold(_bias)?|__cle_*)+$", "", node.input[k]))

    # ---------- names ----------
    def _static_origin(self, q):
        if q in self.static_origin:
            return self.static_origin[q]
        stem = q
        for _ in range(4):
            if stem in self.const_by_sanitized:
                return self.const_by_sanitized[stem]
            stripped = re.sub(r"_\d+$", "", stem)
            for s in _SUFFIXES:
                if stripped.endswith(s):
                    stripped = stripped[:-len(s)]
            if stripped == stem:
                break
            stem = stripped
        return None

    def _lookup(self, table, q):
        """The entry of table for QNN tensor q, by its ONNX name or its QNN name."""
        t = self.g.tensors[q]
        names = (self.onnx_names.get(q, []) if t.kind != "static" else [self._static_origin(q)]) + [q]
        for n in names:
            if n is not None and n in table:
                return n, table[n]
        return None, None

    def resolve_overrides(self):
        """The overrides that name a tensor of the graph, keyed by QNN tensor name: (activations,
        params); warns about the ones that name none. What qairt-converter caches in a DLC."""
        acts, params = {}, {}
        for q, t in self.g.tensors.items():
            table, out = (self.param_over, params) if t.kind == "static" else (self.act_over, acts)
            key, ov = self._lookup(table, q)
            if ov is not None:
                out[q] = ov
                self.used_overrides.add(("p" if t.kind == "static" else "a", key))
        for kind, table in (("a", self.act_over), ("p", self.param_over)):
            for name in table:
                if (kind, name) not in self.used_overrides:
                    warn(f"quantization_overrides: {'activation' if kind == 'a' else 'param'} '{name}' is not a "
                         "tensor of the converted graph; ignored")
        return acts, params

    # ---------- activations ----------
    def _is_broadcast_copy(self, op):
        """The converter's Expand: an ElementWiseAdd of a static all-zero tensor, which copies its other input."""
        if op.type != "ElementWiseAdd" or len(op.inputs) != 2:
            return False
        t = self.g.tensors[op.inputs[1]]
        return t.kind == "static" and t.dtype == np.float32 and not np.any(_float_values(t))

    def _groups(self):
        groups = _Groups()
        for op in self.g.ops:
            if op.type in BYTE_COPY_OPS or self._is_broadcast_copy(op):
                members = [op.inputs[0]] + list(op.inputs[1:] if op.type == "Concat" else []) + list(op.outputs)
                members = [m for m in members if self.g.tensors[m].dtype == np.float32]
                for m in members[1:]:
                    groups.union(members[0], m)
        out, statics = {}, {}
        for name, t in self.g.tensors.items():
            if t.dtype == np.float32:
                (statics if t.kind == "static" else out).setdefault(groups.find(name), []).append(name)
        return {root: (members, statics.get(root, [])) for root, members in out.items()}

    def _activation_encoding(self, members, statics=()):
        found = [kv for kv in (self._lookup(self.act_over, m) for m in members) if kv[1] is not None]
        for key, _ in found:   # members of one group share the first one's encoding
            self.used_overrides.add(("a", key))
        if found:
            key, ov = found[0]
            if ov.is_float and ov.entries[0]["bitwidth"] == 16:
                warn(f"quantization_overrides: '{key}' float16 is kept in float32 (float16 is not supported yet)")
            return ov.resolve()
        for m in members:
            key, enc = self._lookup(self.carried_acts, m)
            if enc is not None:
                return enc
        if self.stats is None:
            return None
        seen = [m for m in members if m in self.stats.min]
        if not seen:
            return None
        mn = min([self.stats.min[m] for m in seen] + [float(self.g.tensors[q].data.min()) for q in statics])
        mx = max([self.stats.max[m] for m in seen] + [float(self.g.tensors[q].data.max()) for q in statics])
        values = None
        if self.opts.act_quantizer == "enhanced":
            parts = [self.stats.values(m) for m in seen] + [self.g.tensors[q].data.reshape(-1) for q in statics]
            values = np.concatenate([p for p in parts if p is not None])
        return E.compute(self.opts.act_quantizer, mn, mx, self.opts.act_bw, values)

    # ---------- params ----------
    def _param_encoding(self, q, op, slot, in_enc, w_enc):
        t = self.g.tensors[q]
        key, ov = self._lookup(self.param_over, q)
        axis = WEIGHTED_OPS.get(op.type) if slot == 1 else (0 if slot == 2 and op.type in WEIGHTED_OPS else None)
        channels = t.shape[axis] if axis is not None and axis < len(t.shape) else None
        if ov is not None:
            self.used_overrides.add(("p", key))
            if ov.lpbq is not None and (slot != 1 or op.type not in WEIGHTED_OPS):
                return ov.resolve()   # refused: LPBQ is for weights
            return ov.resolve(channels, axis, list(t.shape))
        key, enc = self._lookup(self.carried_params, q)
        if enc is not None:
            if enc.per_axis:   # QDQ per-axis encodings are along the output channels; re-aim at the QNN layout
                if axis is None or channels != enc.scale.size:
                    raise ConverterError(f"per-axis encoding of '{key}' does not fit input {slot} of {op.type} '{op.name}'")
                enc.axis = axis
            return enc
        o = self.opts
        data = _float_values(t)
        if op.type in WEIGHTED_OPS and slot == 1:
            if (o.per_channel and op.type in PER_CHANNEL_OPS) or (o.per_row and op.type == "FullyConnected"):
                other = tuple(a for a in range(data.ndim) if a != axis)
                enc = E.symmetric(data.min(axis=other), data.max(axis=other), o.weight_bw)
                enc.axis = axis
                return enc
            return E.compute(o.param_quantizer, data.min(), data.max(), o.weight_bw, data)
        if slot in TABLE_INPUTS.get(op.type, ()):
            return E.compute(o.act_quantizer, data.min(), data.max(), o.act_bw, data)
        if op.type in WEIGHTED_OPS and slot == 2:
            if o.bias_bw == 32 and in_enc is not None and w_enc is not None:
                scale = in_enc.scale.astype(np.float64) * w_enc.scale.astype(np.float64)
                return E.Encoding(32, scale, np.zeros(scale.shape, np.int64), signed=True,
                                  axis=0 if w_enc.per_axis else None)
            if o.bias_bw == 32:   # no input/weight scale to derive from: symmetric 32-bit on the values
                return E.symmetric(data.min(), data.max(), 32)
            return E.compute(o.param_quantizer, data.min(), data.max(), o.bias_bw, data)
        return E.compute(o.param_quantizer, data.min(), data.max(), o.weight_bw, data)

    # ---------- the pass ----------
    def run(self):
        g = self.g
        enc = {}
        for members, statics in self._groups().values():
            e = self._activation_encoding(members, statics)
            for m in members:
                enc[m] = e if (e is not None and not e.is_float) else None
        for kind, table in (("a", self.act_over), ("p", self.param_over)):
            for name in table:
                if (kind, name) not in self.used_overrides and kind == "a":
                    warn(f"quantization_overrides: activation '{name}' is not a tensor of the converted graph; ignored")
        new_ops = []
        dequant_of, quant_done = {}, {}
        for op in g.ops:
            float_ins = [i for i in op.inputs if g.tensors[i].kind != "static" and g.tensors[i].dtype == np.float32]
            float_outs = [o for o in op.outputs if g.tensors[o].dtype == np.float32]
            if not float_ins and not float_outs:
                new_ops.append(op)
                continue
            quantized = op.type not in FLOAT_ONLY_OPS and all(enc.get(x) is not None for x in float_ins + float_outs)
            if not quantized:
                for k, i in enumerate(op.inputs):
                    if i in float_ins and enc.get(i) is not None:
                        if i not in dequant_of:
                            d = g.add_tensor(i + "_dequant", g.tensors[i].shape, np.float32, "native")
                            new_ops.append(_mk_op(g, i + "_dequantize", "Dequantize", [i], [d]))
                            dequant_of[i] = d
                        op.inputs[k] = dequant_of[i]
                new_ops.append(op)
                for k, o in enumerate(op.outputs):
                    if o in float_outs and enc.get(o) is not None:
                        tmp = g.add_tensor(o + "_float", g.tensors[o].shape, np.float32, "native")
                        op.outputs[k] = tmp
                        new_ops.append(_mk_op(g, o + "_quantize", "Quantize", [tmp], [o]))
                continue
            out_bw = enc[float_outs[0]].bitwidth if float_outs else None
            narrowed = self._narrowing_output(op, float_ins, float_outs, enc)
            if narrowed is not None:
                out_bw = narrowed
            for k, i in enumerate(op.inputs):
                want = out_bw
                if op.type == "MatMul" and k == 1 and i in float_ins and enc[i].bitwidth in (8, 16) and not enc[i].signed:
                    want = 8   # the HTP's MatMul takes a second activation of 8 bits (or signed 16), not UFIXED_16
                if i in float_ins and want is not None and op.type not in BYTE_COPY_OPS and enc[i].bitwidth != want:
                    key = (i, want)
                    if key not in quant_done:
                        lo, hi = enc[i].bounds()
                        c = g.add_tensor(f"{i}_convert_{want}", g.tensors[i].shape, np.float32, "native")
                        enc[c] = E.asymmetric(lo[0], hi[0], want)
                        new_ops.append(_mk_op(g, f"{i}_convert_{want}", "Convert", [i], [c]))
                        quant_done[key] = c
                    op.inputs[k] = quant_done[key]
            self._quantize_params(op, enc)
            new_ops.append(op)
            if narrowed is not None:   # computed at the inputs' bitwidth; narrowed to the output's encoding
                o = op.outputs[0]
                lo, hi = enc[o].bounds()
                wide = g.add_tensor(f"{o}_a{narrowed}", g.tensors[o].shape, np.float32, "native")
                enc[wide] = E.asymmetric(lo[0], hi[0], narrowed)
                op.outputs[0] = wide
                new_ops.append(_mk_op(g, f"{o}_convert_{enc[o].bitwidth}", "Convert", [wide], [o]))
        g.ops = new_ops
        for name, e in enc.items():
            if e is not None:
                g.tensors[name].quant = e
        for name, ov in self.param_over.items():
            if ("p", name) not in self.used_overrides:
                warn(f"quantization_overrides: param '{name}' is not a param of a quantized op; ignored")

    def _narrowing_output(self, op, float_ins, float_outs, enc):
        """The bitwidth op computes at when its one output is narrower than all its activation inputs (which
        share one unsigned bitwidth), else None. Byte copies and per-axis outputs keep the rule of the rest."""
        if op.type in BYTE_COPY_OPS or len(float_outs) != 1 or len(op.outputs) != 1 or not float_ins:
            return None
        out = enc[float_outs[0]]
        widths = {enc[i].bitwidth for i in float_ins}
        if len(widths) != 1 or out.per_axis or out.signed or any(enc[i].signed for i in float_ins):
            return None
        wide = widths.pop()
        return wide if wide > out.bitwidth else None

    def _quantize_params(self, op, enc):
        g = self.g
        in_enc = enc.get(op.inputs[0])
        w_enc = None
        for slot, q in enumerate(op.inputs):
            t = g.tensors[q]
            if t.kind != "static" or t.dtype != np.float32:
                continue
            out_enc = enc.get(op.outputs[0]) if op.type in BYTE_COPY_OPS else None
            if out_enc is not None and self._lookup(self.param_over, q)[1] is None:
                e = out_enc   # bytes copied into an encoded output: the same encoding (an embedding table)
            else:
                e = self._param_encoding(q, op, slot, in_enc, w_enc)
            if e.is_float:
                warn(f"param '{q}' of quantized op '{op.name}' has a float override; it is quantized")
                e = self._param_encoding_default(q, op, slot)
            if getattr(t, "quant", None) is not None:   # shared with an earlier op: give this op its own copy
                if t.quant.same_as(e):
                    continue
                copy = g.add_tensor(q + "_" + op.name, t.shape, np.float32, "static", t.float_data)
                op.inputs[slot] = copy
                t = g.tensors[copy]
            t.float_data = t.data
            t.data = e.quantize(t.data)
            t.quant = e
            if slot == 1:
                w_enc = e

    def _param_encoding_default(self, q, op, slot):
        data = _float_values(self.g.tensors[q])
        return E.compute(self.opts.param_quantizer, data.min(), data.max(), self.opts.weight_bw, data)


def _float_values(t):
    """A static tensor's float values in float64: once quantized for an earlier op (t.quant set), the float
    data it kept (t.data then holds the integers)."""
    return (t.float_data if getattr(t, "quant", None) is not None else t.data).astype(np.float64)


def _mk_op(g, name, op_type, ins, outs):
    from qnn.ir import Op
    return Op(g.unique(name), op_type, ins, outs, [])
