"""A TFLite model as an ONNX graph, so qnn-tflite-converter shares qnn-onnx-converter's front end (one graph IR,
no op conversion of its own). TFLite computes in NHWC: the ONNX graph keeps every tensor in its TFLite shape and
wraps each convolution / pooling in Transposes to and from NCHW, which the converter's layout pass cancels.
Quantized tensors keep their TFLite encodings as QuantizeLinear/DequantizeLinear pairs (weights and biases
stored as their integers behind a DequantizeLinear), which the converter reads as carried encodings."""
import numpy as np
from flatbuffers import number_types as N
from onnx import TensorProto, helper, numpy_helper

from qnn.errors import ConverterError
from .reader import TflModel

TO_NCHW, TO_NHWC = [0, 3, 1, 2], [0, 2, 3, 1]
_ONNX_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int32): TensorProto.INT32,
               np.dtype(np.int64): TensorProto.INT64, np.dtype(np.uint8): TensorProto.UINT8,
               np.dtype(np.int8): TensorProto.INT8, np.dtype(np.int16): TensorProto.INT16,
               np.dtype(np.bool_): TensorProto.BOOL, np.dtype(np.float16): TensorProto.FLOAT16,
               np.dtype(np.float64): TensorProto.DOUBLE, np.dtype(np.uint16): TensorProto.UINT16,
               np.dtype(np.uint32): TensorProto.UINT32, np.dtype(np.uint64): TensorProto.UINT64}
OP_NAMES = {0: "ADD", 1: "AVERAGE_POOL_2D", 2: "CONCATENATION", 3: "CONV_2D", 4: "DEPTHWISE_CONV_2D", 6: "DEQUANTIZE",
            9: "FULLY_CONNECTED", 14: "LOGISTIC", 17: "MAX_POOL_2D", 18: "MUL", 19: "RELU", 20: "RELU_N1_TO_1",
            21: "RELU6", 22: "RESHAPE", 25: "SOFTMAX", 28: "TANH", 34: "PAD", 39: "TRANSPOSE", 40: "MEAN", 41: "SUB",
            42: "DIV", 43: "SQUEEZE", 55: "MAXIMUM", 57: "MINIMUM", 60: "PADV2", 98: "LEAKY_RELU", 114: "QUANTIZE",
            117: "HARD_SWISH"}


class _Builder:
    def __init__(self, model):
        self.m = model
        self.nodes, self.inits, self.names, self.used = [], [], {}, set()
        for t in model.tensors:   # unique ONNX names, TFLite's where they are unique
            n = t.name
            while n in self.used:
                n = f"{t.name}_{t.index}"
            self.used.add(n)
            self.names[t.index] = n
        self.value = {}   # tensor index -> the ONNX name holding its float value

    def fresh(self, base):
        n, i = base, 0
        while n in self.used:
            i += 1
            n = f"{base}_{i}"
        self.used.add(n)
        return n

    def node(self, op, ins, outs=None, **attrs):
        outs = outs or [self.fresh(f"{op.lower()}_out")]
        self.nodes.append(helper.make_node(op, ins, outs, name=self.fresh(op + "_" + outs[0]), **attrs))
        return outs[0]

    def const(self, arr, base):
        n = self.fresh(base)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), n))
        return n

    # ---- tensors ----
    def quant_params(self, t, axis=None):
        zp_dtype = np.int32 if t.dtype == np.int32 else (t.dtype if t.dtype in (np.int8, np.uint8, np.int16) else None)
        if zp_dtype is None:
            raise ConverterError(f"tensor '{t.name}': quantized {t.dtype} is not supported")
        scale = t.scale.astype(np.float32)
        zp = t.zero_point.astype(zp_dtype)
        if scale.size == 1:
            return self.const(scale.reshape(()), t.name + "_scale"), self.const(zp.reshape(()), t.name + "_zp"), {}
        return self.const(scale, t.name + "_scale"), self.const(zp, t.name + "_zp"), {"axis": axis or 0}

    def constant(self, idx, layout=None):
        """A constant's float value: TFLite data (re-laid out: 'conv' OHWI->OIHW, 'dw' 1HWC->C1HW), behind a
        DequantizeLinear when quantized."""
        t = self.m.tensors[idx]
        data, qdim = t.data, t.quantized_dimension
        if layout == "conv":
            data, qdim = data.transpose(0, 3, 1, 2), 0
        elif layout == "dw":
            data, qdim = data.transpose(3, 0, 1, 2), 0
        if t.scale is None or t.dtype in (np.float32, np.float16):
            return self.const(data.astype(np.float32) if t.dtype == np.float16 else data, t.name)
        q = self.const(data, t.name + "_quantized")
        s, z, attrs = self.quant_params(t, qdim)
        return self.node("DequantizeLinear", [q, s, z], [self.fresh(t.name + "_dequantized")], **attrs)

    def get(self, idx, layout=None):
        if idx in self.value and layout is None:
            return self.value[idx]
        if self.m.tensors[idx].data is not None:
            name = self.constant(idx, layout)
            if layout is None:
                self.value[idx] = name
            return name
        raise ConverterError(f"tensor '{self.m.tensors[idx].name}' is read before any operator produces it")

    def produce(self, idx, value, graph_output=False):
        """value (an ONNX name) is tensor idx's float result. The node computing it is renamed to write the
        TFLite tensor's own name (which the QNN tensor then keeps); a quantized tensor gets a Q/DQ pair after
        it that carries its encoding (at a graph output the pair's result takes the name instead)."""
        t = self.m.tensors[idx]
        name = self.names[idx]
        quantized = t.scale is not None and t.dtype not in (np.float32, np.float16)
        target = self.fresh(name + "_float") if quantized and graph_output else name
        last = self.nodes[-1] if self.nodes else None
        if last is not None and list(last.output) == [value] and value not in self.value.values():
            last.output[0] = target
            self.used.discard(value)
        else:
            self.nodes.append(helper.make_node("Identity", [value], [target], name=self.fresh("id_" + value)))
        if not quantized:
            self.value[idx] = target
            return
        s, z, attrs = self.quant_params(t)
        q = self.node("QuantizeLinear", [target, s, z], [self.fresh(name + "_q")], **attrs)
        dq = name if graph_output else self.fresh(name + "_dq")
        self.node("DequantizeLinear", [q, s, z], [dq], **attrs)
        self.value[idx] = dq

    def activation(self, x, code, idx):
        if code == 0:
            return x
        t = self.m.tensors[idx]
        if t.scale is not None and t.dtype not in (np.float32, np.float16):
            # TFLite clamps in the output's encoding: the pre-activation value gets that encoding too, so the
            # producing op runs quantized (and the converter can fold the clamp into it).
            s, z, attrs = self.quant_params(t)
            q = self.node("QuantizeLinear", [x, s, z], [self.fresh(t.name + "_preact_q")], **attrs)
            x = self.node("DequantizeLinear", [q, s, z], [self.fresh(t.name + "_preact")], **attrs)
        if code == 1:
            return self.node("Relu", [x])
        if code in (2, 3):
            lo, hi = (-1.0, 1.0) if code == 2 else (0.0, 6.0)
            return self.node("Clip", [x, self.const(np.float32(lo), "clip_lo"), self.const(np.float32(hi), "clip_hi")])
        if code == 4:
            return self.node("Tanh", [x])
        raise ConverterError(f"tensor '{self.m.tensors[idx].name}': fused activation {code} is not supported")


def _same_pads(in_hw, k, s, d):
    pads = []
    for i, kk, ss, dd in zip(in_hw, k, s, d):
        out = -(-i // ss)
        total = max((out - 1) * ss + (kk - 1) * dd + 1 - i, 0)
        pads.append((total // 2, total - total // 2))
    return [pads[0][0], pads[1][0], pads[0][1], pads[1][1]]


def _conv_like(b, op, kind):
    m, o = b.m, op.options
    x = m.tensors[op.inputs[0]]
    if kind == "pool":
        pad, sw, sh, fw, fh, act = (o.get(0, N.Int8Flags), o.get(1, N.Int32Flags), o.get(2, N.Int32Flags),
                                    o.get(3, N.Int32Flags), o.get(4, N.Int32Flags), o.get(5, N.Int8Flags))
        k, d = [fh, fw], [1, 1]
    else:
        w = m.tensors[op.inputs[1]]
        if kind == "conv":
            pad, sw, sh, act = o.get(0, N.Int8Flags), o.get(1, N.Int32Flags), o.get(2, N.Int32Flags), o.get(3, N.Int8Flags)
            dw_, dh_ = o.get(4, N.Int32Flags, 1), o.get(5, N.Int32Flags, 1)
        else:
            pad, sw, sh, act = o.get(0, N.Int8Flags), o.get(1, N.Int32Flags), o.get(2, N.Int32Flags), o.get(4, N.Int8Flags)
            dw_, dh_ = o.get(5, N.Int32Flags, 1), o.get(6, N.Int32Flags, 1)
        k, d = [w.shape[1], w.shape[2]], [dh_, dw_]
    s = [sh or 1, sw or 1]
    pads = _same_pads(x.shape[1:3], k, s, d) if pad == 0 else [0, 0, 0, 0]
    xin = b.node("Transpose", [b.get(op.inputs[0])], perm=TO_NCHW)
    if kind == "pool":
        onnx_op = "AveragePool" if op.code == 1 else "MaxPool"
        extra = {"count_include_pad": 0} if op.code == 1 else {}
        y = b.node(onnx_op, [xin], kernel_shape=k, strides=s, pads=pads, **extra)
    else:
        ins = [xin, b.get(op.inputs[1], kind)]
        if len(op.inputs) > 2 and op.inputs[2] >= 0:
            ins.append(b.get(op.inputs[2]))
        group = x.shape[3] if kind == "dw" else 1
        y = b.node("Conv", ins, kernel_shape=k, strides=s, pads=pads, dilations=d, group=group)
    y = b.node("Transpose", [y], perm=TO_NHWC)
    return b.activation(y, act, op.outputs[0])


def _fully_connected(b, op):
    m, o = b.m, op.options
    w = m.tensors[op.inputs[1]]
    x = b.get(op.inputs[0])
    if len(m.tensors[op.inputs[0]].shape) != 2:
        x = b.node("Reshape", [x, b.const(np.array([-1, w.shape[1]], np.int64), "fc_shape")])
    ins = [x, b.get(op.inputs[1])]
    if len(op.inputs) > 2 and op.inputs[2] >= 0:
        ins.append(b.get(op.inputs[2]))
    y = b.node("Gemm", ins, transB=1)
    out_shape = m.tensors[op.outputs[0]].shape
    if len(out_shape) != 2:
        y = b.node("Reshape", [y, b.const(np.array(out_shape, np.int64), "fc_out_shape")])
    return b.activation(y, o.get(0, N.Int8Flags), op.outputs[0])


def _const_ints(b, idx, what):
    t = b.m.tensors[idx]
    if t.data is None:
        raise ConverterError(f"{what} '{t.name}' must be a constant")
    return [int(v) for v in np.asarray(t.data).reshape(-1)]


def translate(op, b):
    m, o, code = b.m, op.options, op.code
    ins = op.inputs
    binary = {0: "Add", 41: "Sub", 18: "Mul", 42: "Div", 55: "Max", 57: "Min"}
    if code in (3, 4):
        return _conv_like(b, op, "conv" if code == 3 else "dw")
    if code in (1, 17):
        return _conv_like(b, op, "pool")
    if code == 9:
        return _fully_connected(b, op)
    if code in binary:
        y = b.node(binary[code], [b.get(ins[0]), b.get(ins[1])])
        return b.activation(y, o.get(0, N.Int8Flags), op.outputs[0]) if code in (0, 41, 18, 42) else y
    if code in (19, 20, 21):
        return b.activation(b.get(ins[0]), {19: 1, 20: 2, 21: 3}[code], op.outputs[0])
    if code in (14, 28, 117):
        return b.node({14: "Sigmoid", 28: "Tanh", 117: "HardSwish"}[code], [b.get(ins[0])])
    if code == 98:
        return b.node("LeakyRelu", [b.get(ins[0])], alpha=float(o.get(0, N.Float32Flags, 0.2)))
    if code == 25:
        x = b.get(ins[0])
        beta = o.get(0, N.Float32Flags, 1.0)
        if beta != 1.0:
            x = b.node("Mul", [x, b.const(np.float32(beta), "softmax_beta")])
        return b.node("Softmax", [x], axis=-1)
    if code in (22, 43):   # the output's static shape says it all
        return b.node("Reshape", [b.get(ins[0]), b.const(np.array(m.tensors[op.outputs[0]].shape, np.int64), "shape")])
    if code == 2:
        axis = o.get(0, N.Int32Flags)
        y = b.node("Concat", [b.get(i) for i in ins], axis=axis)
        return b.activation(y, o.get(1, N.Int8Flags), op.outputs[0])
    if code == 40:
        axes = _const_ints(b, ins[1], "MEAN axes")
        keep = o.get(0, N.BoolFlags, False)
        return b.node("ReduceMean", [b.get(ins[0])], axes=axes, keepdims=1 if keep else 0)
    if code in (34, 60):
        p = np.array(_const_ints(b, ins[1], "PAD paddings")).reshape(-1, 2)
        pads = b.const(np.concatenate([p[:, 0], p[:, 1]]).astype(np.int64), "pads")
        args = [b.get(ins[0]), pads]
        if code == 60 and len(ins) > 2:
            args.append(b.get(ins[2]))
        return b.node("Pad", args)
    if code == 39:
        return b.node("Transpose", [b.get(ins[0])], perm=_const_ints(b, ins[1], "TRANSPOSE perm"))
    if code in (6, 114):   # (de)quantization: the Q/DQ pairs on the tensors carry it
        return b.get(ins[0])
    name = OP_NAMES.get(code, f"builtin code {code}") if code != 32 else f"custom op '{op.custom}'"
    raise ConverterError(f"unsupported TFLite op {name}")


def to_onnx(path, input_dims=None):
    """(onnx ModelProto, [input names], [output names]) of the TFLite model at path."""
    m = TflModel(path)
    if m.subgraph_count > 1:
        raise ConverterError(f"{path}: models with {m.subgraph_count} subgraphs (control flow) are not supported")
    b = _Builder(m)
    inputs, input_dims = [], dict(input_dims or {})
    for idx in m.inputs:
        t = m.tensors[idx]
        shape = input_dims.pop(b.names[idx], t.shape)
        if t.scale is not None and t.dtype not in (np.float32, np.float16):
            # A quantized input: the graph takes float and quantizes with the input's own encoding.
            inputs.append(helper.make_tensor_value_info(b.names[idx], TensorProto.FLOAT, shape))
            s, z, attrs = b.quant_params(t)
            q = b.node("QuantizeLinear", [b.names[idx], s, z], [b.fresh(t.name + "_q")], **attrs)
            b.value[idx] = b.node("DequantizeLinear", [q, s, z], [b.fresh(t.name + "_dq")], **attrs)
        else:
            dt = _ONNX_TYPES.get(t.dtype)
            inputs.append(helper.make_tensor_value_info(b.names[idx], dt, shape))
            b.value[idx] = b.names[idx]
    if input_dims:
        raise ConverterError(f"--input_dim names {', '.join(input_dims)}, not an input of the model "
                             f"(inputs: {', '.join(b.names[i] for i in m.inputs)})")
    for op in m.operators:
        for idx in op.outputs:
            if len(op.outputs) != 1:
                raise ConverterError(f"TFLite op {OP_NAMES.get(op.code, op.code)} with {len(op.outputs)} outputs is not supported")
        b.produce(op.outputs[0], translate(op, b), op.outputs[0] in m.outputs)
    outputs = []
    for idx in m.outputs:
        t = m.tensors[idx]
        outputs.append(helper.make_tensor_value_info(b.names[idx], TensorProto.FLOAT if t.scale is not None else
                                                     _ONNX_TYPES.get(t.dtype, TensorProto.FLOAT), t.shape))
    g = helper.make_graph(b.nodes, "tflite", inputs, outputs, b.inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="qnn-tflite-converter")
    return model, [b.names[i] for i in m.inputs], [b.names[i] for i in m.outputs]
