"""Test helper: writes small TFLite models with the flatbuffers builder (Debian python3-flatbuffers), from the
public schema's table layouts (the same slot facts qnn/converters/tflite/reader.py documents). No TensorFlow is packaged for
Debian, so the tests build their .tflite inputs with this instead of a TFLite converter."""
import flatbuffers
import numpy as np

TYPES = {np.dtype(np.float32): 0, np.dtype(np.int32): 2, np.dtype(np.uint8): 3, np.dtype(np.int8): 9}
CODES = {"ADD": 0, "AVERAGE_POOL_2D": 1, "CONV_2D": 3, "DEPTHWISE_CONV_2D": 4, "FULLY_CONNECTED": 9, "RESHAPE": 22,
         "SOFTMAX": 25, "MEAN": 40, "PAD": 34}
# builtin_options union type ids (BuiltinOptions): Conv2DOptions 1, DepthwiseConv2DOptions 2, Pool2DOptions 5,
# FullyConnectedOptions 8, SoftmaxOptions 9, ReshapeOptions 17
OPTION_TYPES = {"CONV_2D": 1, "DEPTHWISE_CONV_2D": 2, "AVERAGE_POOL_2D": 5, "FULLY_CONNECTED": 8, "SOFTMAX": 9,
                "RESHAPE": 17}


class Tensor:
    def __init__(self, name, shape, dtype=np.float32, data=None, scale=None, zero_point=None, axis=0):
        self.name, self.shape, self.dtype = name, list(shape), np.dtype(dtype)
        self.data, self.scale, self.zero_point, self.axis = data, scale, zero_point, axis


class ModelWriter:
    def __init__(self):
        self.tensors, self.ops, self.inputs, self.outputs = [], [], [], []

    def tensor(self, *a, **kw):
        self.tensors.append(Tensor(*a, **kw))
        return len(self.tensors) - 1

    def op(self, kind, inputs, outputs, **options):
        self.ops.append((kind, inputs, outputs, options))

    def _ivec(self, b, values, prepend, size=4):
        b.StartVector(size, len(values), size)
        for v in reversed(list(values)):
            prepend(v)
        return b.EndVector()

    def _options(self, b, kind, o):
        if kind == "CONV_2D":   # padding, stride_w, stride_h, fused_activation_function
            b.StartObject(4)
            b.PrependInt8Slot(0, o.get("padding", 0), 0)
            b.PrependInt32Slot(1, o.get("stride", 1), 0)
            b.PrependInt32Slot(2, o.get("stride", 1), 0)
            b.PrependInt8Slot(3, o.get("act", 0), 0)
        elif kind == "DEPTHWISE_CONV_2D":   # padding, stride_w, stride_h, depth_multiplier, fused_activation
            b.StartObject(5)
            b.PrependInt8Slot(0, o.get("padding", 0), 0)
            b.PrependInt32Slot(1, o.get("stride", 1), 0)
            b.PrependInt32Slot(2, o.get("stride", 1), 0)
            b.PrependInt32Slot(3, 1, 0)
            b.PrependInt8Slot(4, o.get("act", 0), 0)
        elif kind == "AVERAGE_POOL_2D":   # padding, stride_w, stride_h, filter_width, filter_height, fused
            b.StartObject(6)
            b.PrependInt8Slot(0, o.get("padding", 1), 0)
            b.PrependInt32Slot(1, o["stride"], 0)
            b.PrependInt32Slot(2, o["stride"], 0)
            b.PrependInt32Slot(3, o["filter"], 0)
            b.PrependInt32Slot(4, o["filter"], 0)
        elif kind == "FULLY_CONNECTED":
            b.StartObject(1)
            b.PrependInt8Slot(0, o.get("act", 0), 0)
        elif kind == "SOFTMAX":
            b.StartObject(1)
            b.PrependFloat32Slot(0, o.get("beta", 1.0), 0.0)
        elif kind == "RESHAPE":
            shape = self._ivec(b, o["new_shape"], b.PrependInt32)
            b.StartObject(1)
            b.PrependUOffsetTRelativeSlot(0, shape, 0)
        else:
            return None
        return b.EndObject()

    def write(self, path):
        b = flatbuffers.Builder(1024)
        # buffers: 0 is the empty sentinel, then one per constant tensor
        buffers, buf_index = [], {}
        b.StartObject(1)
        buffers.append(b.EndObject())
        for i, t in enumerate(self.tensors):
            if t.data is None:
                continue
            raw = np.ascontiguousarray(t.data, dtype=t.dtype).tobytes()
            b.StartVector(1, len(raw), 16)
            for byte in reversed(raw):
                b.PrependUint8(byte)
            vec = b.EndVector()
            b.StartObject(1)
            b.PrependUOffsetTRelativeSlot(0, vec, 0)
            buf_index[i] = len(buffers)
            buffers.append(b.EndObject())
        tensors = []
        for i, t in enumerate(self.tensors):
            name = b.CreateString(t.name)
            shape = self._ivec(b, t.shape, b.PrependInt32)
            quant = None
            if t.scale is not None:
                scale = self._ivec(b, np.atleast_1d(t.scale).astype(np.float32), b.PrependFloat32)
                zp = self._ivec(b, np.atleast_1d(t.zero_point).astype(np.int64), b.PrependInt64, 8)
                b.StartObject(7)
                b.PrependUOffsetTRelativeSlot(2, scale, 0)
                b.PrependUOffsetTRelativeSlot(3, zp, 0)
                b.PrependInt32Slot(6, t.axis, 0)
                quant = b.EndObject()
            b.StartObject(5)
            b.PrependUOffsetTRelativeSlot(0, shape, 0)
            b.PrependInt8Slot(1, TYPES[t.dtype], 0)
            b.PrependUint32Slot(2, buf_index.get(i, 0), 0)
            b.PrependUOffsetTRelativeSlot(3, name, 0)
            if quant is not None:
                b.PrependUOffsetTRelativeSlot(4, quant, 0)
            tensors.append(b.EndObject())
        kinds = sorted({k for k, *_ in self.ops}, key=lambda k: CODES[k])
        codes = []
        for k in kinds:   # deprecated_builtin_code (int8), builtin_code (int32), version
            b.StartObject(4)
            b.PrependInt8Slot(0, min(CODES[k], 127), 0)
            b.PrependInt32Slot(2, 1, 1)
            b.PrependInt32Slot(3, CODES[k], 0)
            codes.append(b.EndObject())
        ops = []
        for kind, ins, outs, o in self.ops:
            opts = self._options(b, kind, o)
            iv = self._ivec(b, ins, b.PrependInt32)
            ov = self._ivec(b, outs, b.PrependInt32)
            b.StartObject(5)
            b.PrependUint32Slot(0, kinds.index(kind), 0)
            b.PrependUOffsetTRelativeSlot(1, iv, 0)
            b.PrependUOffsetTRelativeSlot(2, ov, 0)
            if opts is not None:
                b.PrependUint8Slot(3, OPTION_TYPES[kind], 0)
                b.PrependUOffsetTRelativeSlot(4, opts, 0)
            ops.append(b.EndObject())

        def tables(items):
            b.StartVector(4, len(items), 4)
            for it in reversed(items):
                b.PrependUOffsetTRelative(it)
            return b.EndVector()
        tv, opv = tables(tensors), tables(ops)
        inv, outv = self._ivec(b, self.inputs, b.PrependInt32), self._ivec(b, self.outputs, b.PrependInt32)
        gname = b.CreateString("main")
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(0, tv, 0)
        b.PrependUOffsetTRelativeSlot(1, inv, 0)
        b.PrependUOffsetTRelativeSlot(2, outv, 0)
        b.PrependUOffsetTRelativeSlot(3, opv, 0)
        b.PrependUOffsetTRelativeSlot(4, gname, 0)
        sg = b.EndObject()
        codev, sgv, bufv = tables(codes), tables([sg]), tables(buffers)
        desc = b.CreateString("openqnn test model")
        b.StartObject(5)
        b.PrependUint32Slot(0, 3, 0)
        b.PrependUOffsetTRelativeSlot(1, codev, 0)
        b.PrependUOffsetTRelativeSlot(2, sgv, 0)
        b.PrependUOffsetTRelativeSlot(3, desc, 0)
        b.PrependUOffsetTRelativeSlot(4, bufv, 0)
        b.Finish(b.EndObject(), file_identifier=b"TFL3")
        with open(path, "wb") as f:
            f.write(b.Output())
