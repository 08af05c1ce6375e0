"""Independent float reference for the quantization tests: evaluates an ONNX model in numpy, NCHW,
straight from the ONNX nodes (no converter code), and reports every node output. Covers the ops of
the MobileNetV2 / ResNet-18 exports and the tests' small models."""
import numpy as np
from onnx import helper, numpy_helper


def _attrs(n):
    return {a.name: helper.get_attribute_value(a) for a in n.attribute}


def _conv(x, w, b, a):
    """x [C,H,W] (one image), w [O, C/g, kh, kw]."""
    g = a.get("group", 1)
    s = a.get("strides", [1, 1])
    d = a.get("dilations", [1, 1])
    p = a.get("pads", [0, 0, 0, 0])
    x = np.pad(x, ((0, 0), (p[0], p[2]), (p[1], p[3])))
    o, cg, kh, kw = w.shape
    oh = (x.shape[1] - d[0] * (kh - 1) - 1) // s[0] + 1
    ow = (x.shape[2] - d[1] * (kw - 1) - 1) // s[1] + 1
    y = np.zeros((o, oh, ow), np.float64)
    og = o // g
    if cg == 1 and g == x.shape[0]:       # depthwise: tap by tap
        for i in range(kh):
            for j in range(kw):
                tap = x[:, i * d[0]:i * d[0] + s[0] * (oh - 1) + 1:s[0], j * d[1]:j * d[1] + s[1] * (ow - 1) + 1:s[1]]
                y += np.repeat(tap, og, axis=0) * w[:, 0, i, j][:, None, None]
    else:
        for gi in range(g):
            xs = x[gi * cg:(gi + 1) * cg]
            cols = np.empty((cg, kh, kw, oh, ow), np.float64)
            for i in range(kh):
                for j in range(kw):
                    cols[:, i, j] = xs[:, i * d[0]:i * d[0] + s[0] * (oh - 1) + 1:s[0],
                                       j * d[1]:j * d[1] + s[1] * (ow - 1) + 1:s[1]]
            wg = w[gi * og:(gi + 1) * og].reshape(og, -1)
            y[gi * og:(gi + 1) * og] = (wg @ cols.reshape(cg * kh * kw, -1)).reshape(og, oh, ow)
    return y + (b.reshape(-1, 1, 1) if b is not None else 0)


def _maxpool(x, a):
    k, s, p = a["kernel_shape"], a.get("strides", [1, 1]), a.get("pads", [0, 0, 0, 0])
    x = np.pad(x, ((0, 0), (p[0], p[2]), (p[1], p[3])), constant_values=-np.inf)
    oh, ow = (x.shape[1] - k[0]) // s[0] + 1, (x.shape[2] - k[1]) // s[1] + 1
    y = np.full((x.shape[0], oh, ow), -np.inf)
    for i in range(k[0]):
        for j in range(k[1]):
            y = np.maximum(y, x[:, i:i + s[0] * (oh - 1) + 1:s[0], j:j + s[1] * (ow - 1) + 1:s[1]])
    return y


class Reference:
    def __init__(self, model):
        self.m = model
        self.consts = {i.name: numpy_helper.to_array(i).astype(np.float64) if numpy_helper.to_array(i).dtype.kind == "f"
                       else numpy_helper.to_array(i) for i in model.graph.initializer}
        for n in model.graph.node:
            if n.op_type == "Constant":
                self.consts[n.output[0]] = numpy_helper.to_array(n.attribute[0].t).astype(np.float64)

    def run(self, feeds, observe=None):
        """feeds: {input name: NCHW float array with batch 1}. -> {output name: array}; observe(name, value)."""
        v = dict(self.consts)
        for k, x in feeds.items():
            v[k] = np.asarray(x, np.float64)
            if observe:
                observe(k, v[k])
        for n in self.m.graph.node:
            if n.op_type == "Constant":
                continue
            a = _attrs(n)
            ins = [v[i] if i else None for i in n.input]
            t = n.op_type
            if t == "Conv":
                y = _conv(ins[0][0], ins[1], ins[2] if len(ins) > 2 else None, a)[None]
            elif t == "Relu":
                y = np.maximum(ins[0], 0)
            elif t == "Clip":
                lo = ins[1].item() if len(ins) > 1 and ins[1] is not None else a.get("min", -np.inf)
                hi = ins[2].item() if len(ins) > 2 and ins[2] is not None else a.get("max", np.inf)
                y = np.clip(ins[0], lo, hi)
            elif t == "Add":
                y = ins[0] + ins[1]
            elif t == "MaxPool":
                y = _maxpool(ins[0][0], a)[None]
            elif t == "GlobalAveragePool":
                y = ins[0].mean(axis=(2, 3), keepdims=True)
            elif t == "Flatten":
                y = ins[0].reshape(ins[0].shape[0], -1)
            elif t == "Gemm":
                b = ins[1].T if a.get("transB", 0) else ins[1]
                y = a.get("alpha", 1.0) * ins[0] @ b + (a.get("beta", 1.0) * ins[2] if len(ins) > 2 else 0)
            else:
                raise RuntimeError(f"reference: op {t} not implemented")
            v[n.output[0]] = y
            if observe:
                observe(n.output[0], y)
        return {o.name: v[o.name] for o in self.m.graph.output}
